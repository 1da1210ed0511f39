/* SPDX-License-Identifier: GPL-2.0-only */
/* The pages lwIP's httpd serves from netd: a live status page, a test file. */
/*
 * httpd asks fs_open_custom for every URI before its own (empty) file
 * list.  Each page is one buffer holding the HTTP response headers and the
 * body (FS_FILE_FLAGS_HEADER_INCLUDED), so the Content-Length is ours:
 *   /, /status      the status page, written when it is asked for (httpd
 *                   asks for / as /index.html): the devices with what
 *                   device_get_status tells (GRAFT_DEV_INFO: the Linux
 *                   driver, where it runs, its counters, the probes of
 *                   the emulation paths), netd's own counters, lwIP's
 *                   statistics
 *   /big.bin        BIG_SIZE bytes, byte i = netd_big_byte(i), for
 *                   checksummed downloads (tests/harness/netd_host.py)
 *   anything else   404
 */
#include <device/device.h>
#include <device/net_status.h>
#include <graft/dev_info.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "lwip/apps/fs.h"
#include "lwip/apps/httpd.h"
#include "lwip/init.h"
#include "lwip/memp.h"
#include "lwip/netif.h"
#include "lwip/stats.h"
#include "lwip/sys.h"
#include "netd.h"

#define BIG_SIZE	(2u << 20)
#define PAGE_MAX	32768

extern unsigned long netd_discarded_datagrams, netd_discarded_bytes;
extern unsigned long netd_echoed_bytes;

static char *big;		/* headers + BIG_SIZE bytes */
static int big_len;
static unsigned long pages_served;

/* The test file's byte @i (the harness computes the same). */
static unsigned char netd_big_byte(unsigned long i)
{
	return (unsigned char)((i * 7) ^ (i >> 11));
}

struct page {
	char *buf;
	size_t len, size;
};

static void put(struct page *pg, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (pg->len >= pg->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(pg->buf + pg->len, pg->size - pg->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		pg->len += (size_t)n < pg->size - pg->len ?
			   (size_t)n : pg->size - pg->len - 1;
}

/* The device names the page asks the kernel about. */
static const char *const names[] = {
	"eth0", "eth1", "hd0", "hd0s1", "hd0s2", "hd1", "rd0",
};
#define NAMES	(sizeof(names) / sizeof(*names))

/* What GRAFT_DEV_INFO told of each device; mode 0: nothing. */
static struct graft_dev_info infos[NAMES];

/* @d's GRAFT_DEV_INFO into @info (mode 0 if it cannot say, or says
 * something malformed: strings unterminated, counts out of range). */
static void info_get(mach_port_t d, struct graft_dev_info *info)
{
	int st[GRAFT_DEV_INFO_COUNT];
	mach_msg_type_number_t n = GRAFT_DEV_INFO_COUNT;

	memset(info, 0, sizeof(*info));
	if (device_get_status(d, GRAFT_DEV_INFO, st, &n) != D_SUCCESS ||
	    n != GRAFT_DEV_INFO_COUNT)
		return;
	memcpy(info, st, sizeof(*info));
	if (memchr(info->driver, 0, sizeof(info->driver)) == NULL ||
	    memchr(info->host, 0, sizeof(info->host)) == NULL ||
	    info->ncounters > GRAFT_DEV_COUNTERS ||
	    info->nprobes > GRAFT_DEV_PROBES)
		info->mode = 0;
	for (uint32_t c = 0; info->mode && c < info->ncounters; c++)
		if (memchr(info->counters[c].name, 0,
			   sizeof(info->counters[c].name)) == NULL)
			info->mode = 0;
	for (uint32_t p = 0; info->mode && p < info->nprobes; p++)
		if (memchr(info->probes[p].name, 0,
			   sizeof(info->probes[p].name)) == NULL)
			info->mode = 0;
}

/* The driver and where it runs, as two cells. */
static void where_cells(struct page *pg, const struct graft_dev_info *info)
{
	if (info->mode == GRAFT_DEV_KERNEL)
		put(pg, "<td>%s</td><td>in the kernel</td>", info->driver);
	else if (info->mode == GRAFT_DEV_SERVER)
		put(pg, "<td>%s</td><td>in driver server %s</td>",
		    info->driver[0] ? info->driver : "(not told)", info->host);
	else
		put(pg, "<td>-</td><td>-</td>");
}

/* One table row per device name the kernel opens for us; each one's
 * GRAFT_DEV_INFO kept in infos[] for the tables that follow. */
static void device_rows(struct page *pg)
{
	for (size_t i = 0; i < NAMES; i++) {
		int st[DEV_STATUS_MAX];
		mach_msg_type_number_t n = DEV_STATUS_MAX;
		mach_port_t d;
		kern_return_t kr;

		infos[i].mode = 0;

		if (strcmp(names[i], netd_eth0.name) == 0) {
			d = netd_eth0.device;
		} else {
			kr = device_open(netd_device_master, D_READ, names[i],
					 &d);
			if (kr != D_SUCCESS)
				continue;
		}
		put(pg, "<tr><td>%s</td>", names[i]);
		n = NET_STATUS_COUNT;
		if (device_get_status(d, NET_STATUS, st, &n) == D_SUCCESS) {
			struct net_status *ns = (struct net_status *)st;

			put(pg, "<td>network</td><td>flags 0x%x, frames up to %d "
			    "bytes, header %d bytes</td>", ns->flags,
			    ns->max_packet_size, ns->header_size);
		} else {
			n = DEV_STATUS_MAX;
			if (device_get_status(d, DEV_GET_RECORDS, st, &n) ==
			    D_SUCCESS && n >= DEV_GET_RECORDS_COUNT)
				put(pg, "<td>block</td><td>%u records of %u "
				    "bytes</td>",
				    (unsigned int)st[DEV_GET_RECORDS_DEVICE_RECORDS],
				    (unsigned int)st[DEV_GET_RECORDS_RECORD_SIZE]);
			else
				put(pg, "<td>other</td><td></td>");
		}
		info_get(d, &infos[i]);
		where_cells(pg, &infos[i]);
		put(pg, "</tr>\n");
		if (d != netd_eth0.device) {
			device_close(d);
			mach_port_deallocate(netd_task, d);
		}
	}
}

/* The drivers' counters, one row each named DEVICE.COUNTER, and the
 * probes of the emulation paths, from infos[]. */
static void driver_tables(struct page *pg)
{
	put(pg, "<h2>Counters of the drivers</h2>\n<table border=1>\n");
	for (size_t i = 0; i < NAMES; i++)
		for (uint32_t c = 0; infos[i].mode && c < infos[i].ncounters;
		     c++)
			put(pg, "<tr><td>%s.%s</td><td>%llu</td></tr>\n",
			    names[i], infos[i].counters[c].name,
			    (unsigned long long)infos[i].counters[c].value);
	put(pg, "</table>\n<h2>Probes of the emulation paths</h2>\n<p>rdtsc "
	    "probes where the emulation's path and Linux's meet (names as "
	    "<code>make bench</code> reports them), in TSC ticks (guest "
	    "instructions under QEMU -icount), over each probe's last "
	    "samples.</p>\n<table border=1>\n<tr><th>device</th><th>probe"
	    "</th><th>samples</th><th>min</th><th>median</th><th>p99</th>"
	    "<th>max</th></tr>\n");
	for (size_t i = 0; i < NAMES; i++)
		for (uint32_t p = 0; infos[i].mode && p < infos[i].nprobes;
		     p++) {
			const struct graft_dev_probe *pr = &infos[i].probes[p];

			put(pg, "<tr><td>%s</td><td>%s</td><td>%llu</td>"
			    "<td>%llu</td><td>%llu</td><td>%llu</td><td>%llu"
			    "</td></tr>\n", names[i], pr->name,
			    (unsigned long long)pr->count,
			    (unsigned long long)pr->min,
			    (unsigned long long)pr->median,
			    (unsigned long long)pr->p99,
			    (unsigned long long)pr->max);
		}
	put(pg, "</table>\n");
}

static void proto_row(struct page *pg, const char *name,
		      const struct stats_proto *s)
{
	put(pg, "<tr><td>%s</td><td>%u</td><td>%u</td><td>%u</td>"
	    "<td>%u</td><td>%u</td></tr>\n", name, s->recv, s->xmit,
	    s->drop, s->chkerr, s->err);
}

static char *status_page(int *len)
{
	struct page pg = { malloc(PAGE_MAX), 0, PAGE_MAX };
	const struct netd_eth *e = &netd_eth0;
	unsigned int nsessions, nsockets;
	char head[160];
	int hl;

	if (pg.buf == NULL)
		return NULL;
	pg.len = 0;
	put(&pg, "<!DOCTYPE html>\n<html><head><title>Graft netd</title>"
	    "</head><body>\n<h1>Graft: netd status</h1>\n");
	put(&pg, "<p>lwIP %s over Mach device %s, up %lu s, %lu pages "
	    "served.</p>\n", LWIP_VERSION_STRING, e->name,
	    (unsigned long)(sys_now() / 1000), pages_served);
	put(&pg, "<p>address %s, ", ip4addr_ntoa(netif_ip4_addr(&netd_netif)));
	put(&pg, "IPv6 %s, ", ip6addr_ntoa(netif_ip6_addr(&netd_netif, 0)));
	put(&pg, "gateway %s, MAC %02x:%02x:%02x:%02x:%02x:%02x</p>\n",
	    ip4addr_ntoa(netif_ip4_gw(&netd_netif)), e->mac[0], e->mac[1],
	    e->mac[2], e->mac[3], e->mac[4], e->mac[5]);
	put(&pg, "<h2>Devices</h2>\n<table border=1>\n<tr><th>device</th>"
	    "<th>kind</th><th>status</th><th>driver</th><th>runs</th>"
	    "</tr>\n");
	device_rows(&pg);
	put(&pg, "</table>\n");
	driver_tables(&pg);
	put(&pg, "\n<h2>Counters of %s (netd's netif)</h2>\n<table "
	    "border=1>\n", e->name);
	put(&pg, "<tr><td>rx_frames</td><td>%lu</td></tr>\n<tr><td>rx_bytes"
	    "</td><td>%lu</td></tr>\n<tr><td>rx_dropped</td><td>%lu</td>"
	    "</tr>\n", e->rx_frames, e->rx_bytes, e->rx_dropped);
	put(&pg, "<tr><td>tx_frames</td><td>%lu</td></tr>\n<tr><td>tx_bytes"
	    "</td><td>%lu</td></tr>\n<tr><td>tx_errors</td><td>%lu</td>"
	    "</tr>\n", e->tx_frames, e->tx_bytes, e->tx_errors);
	put(&pg, "<tr><td>tx_acks_merged</td><td>%lu</td></tr>\n",
	    e->acks_merged);
	put(&pg, "<tr><td>echoed_bytes</td><td>%lu</td></tr>\n<tr><td>"
	    "discarded_datagrams</td><td>%lu</td></tr>\n<tr><td>"
	    "discarded_bytes</td><td>%lu</td></tr>\n</table>\n",
	    netd_echoed_bytes, netd_discarded_datagrams,
	    netd_discarded_bytes);
	netd_rpc_counts(&nsessions, &nsockets);
	put(&pg, "<h2>netd.defs</h2>\n<table border=1>\n<tr><td>sessions_open"
	    "</td><td>%u</td></tr>\n<tr><td>sockets_open</td><td>%u</td>"
	    "</tr>\n</table>\n", nsessions, nsockets);
	put(&pg, "<h2>Memory</h2>\n<table border=1>\n<tr><td>heap_bytes_in_use"
	    "</td><td>%lu</td></tr>\n", (unsigned long)mallinfo().uordblks);
	put(&pg, "<tr><td>pbuf_pool_used</td><td>%u</td></tr>\n<tr><td>"
	    "tcp_pcbs_used</td><td>%u</td></tr>\n<tr><td>tcp_segs_used</td>"
	    "<td>%u</td></tr>\n</table>\n",
	    (unsigned int)lwip_stats.memp[MEMP_PBUF_POOL]->used,
	    (unsigned int)lwip_stats.memp[MEMP_TCP_PCB]->used,
	    (unsigned int)lwip_stats.memp[MEMP_TCP_SEG]->used);
	put(&pg, "<h2>lwIP</h2>\n<table border=1>\n<tr><th>protocol</th>"
	    "<th>recv</th><th>xmit</th><th>drop</th><th>chkerr</th>"
	    "<th>err</th></tr>\n");
	proto_row(&pg, "link", &lwip_stats.link);
	proto_row(&pg, "etharp", &lwip_stats.etharp);
	proto_row(&pg, "ip", &lwip_stats.ip);
	proto_row(&pg, "icmp", &lwip_stats.icmp);
	proto_row(&pg, "udp", &lwip_stats.udp);
	proto_row(&pg, "tcp", &lwip_stats.tcp);
	proto_row(&pg, "ip6", &lwip_stats.ip6);
	proto_row(&pg, "icmp6", &lwip_stats.icmp6);
	proto_row(&pg, "nd6", &lwip_stats.nd6);
	put(&pg, "</table>\n</body></html>\n");

	hl = snprintf(head, sizeof(head), "HTTP/1.0 200 OK\r\nServer: netd "
		      "(lwIP httpd)\r\nContent-Type: text/html\r\n"
		      "Content-Length: %u\r\nConnection: close\r\n\r\n",
		      (unsigned int)pg.len);
	if (pg.len + hl > pg.size - 1)
		pg.len = pg.size - 1 - hl;
	memmove(pg.buf + hl, pg.buf, pg.len);
	memcpy(pg.buf, head, hl);
	*len = (int)pg.len + hl;
	return pg.buf;
}

static const char not_found[] =
	"HTTP/1.0 404 Not Found\r\nServer: netd (lwIP httpd)\r\n"
	"Content-Type: text/plain\r\nContent-Length: 10\r\n"
	"Connection: close\r\n\r\nnot found\n";

int fs_open_custom(struct fs_file *file, const char *name)
{
	memset(file, 0, sizeof(*file));
	file->flags = FS_FILE_FLAGS_HEADER_INCLUDED;
	if (strcmp(name, "/index.html") == 0 || strcmp(name, "/status") == 0) {
		file->data = status_page(&file->len);
	} else if (strcmp(name, "/big.bin") == 0 && big != NULL) {
		file->data = big;
		file->len = big_len;
	} else if (strncmp(name, "/404.", 5) == 0) {
		file->data = not_found;
		file->len = sizeof(not_found) - 1;
	} else {
		return 0;
	}
	if (file->data == NULL)
		return 0;
	file->index = file->len;
	pages_served++;
	return 1;
}

void fs_close_custom(struct fs_file *file)
{
	if (file->data != big && file->data != not_found)
		free((void *)file->data);
}

void netd_status_init(void)
{
	char head[160];
	int hl = snprintf(head, sizeof(head), "HTTP/1.0 200 OK\r\nServer: "
			  "netd (lwIP httpd)\r\nContent-Type: application/"
			  "octet-stream\r\nContent-Length: %u\r\n"
			  "Connection: close\r\n\r\n", BIG_SIZE);

	big = malloc(hl + BIG_SIZE);
	if (big != NULL) {
		memcpy(big, head, hl);
		for (unsigned long i = 0; i < BIG_SIZE; i++)
			big[hl + i] = (char)netd_big_byte(i);
		big_len = hl + (int)BIG_SIZE;
	}
	httpd_init();
}
