/* SPDX-License-Identifier: GPL-2.0-only */
/* netd's small services: TCP and UDP echo (7), UDP discard (9), iperf. */
#include <stdio.h>

#include "lwip/apps/lwiperf.h"
#include "lwip/tcp.h"
#include "lwip/udp.h"
#include "netd.h"

#define ECHO_PORT	7
#define DISCARD_PORT	9

unsigned long netd_discarded_datagrams, netd_discarded_bytes;
unsigned long netd_echoed_bytes;

/*
 * TCP echo: what arrives is written back when the send buffer has room
 * for all of it; otherwise ERR_MEM makes lwIP hold the data and offer it
 * again later, so a fast sender is slowed down by its own window.
 */
static err_t echo_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p,
		       err_t err)
{
	(void)arg;
	if (p == NULL || err != ERR_OK) {
		if (p != NULL)
			pbuf_free(p);
		tcp_arg(pcb, NULL);
		tcp_recv(pcb, NULL);
		if (tcp_close(pcb) != ERR_OK)
			tcp_abort(pcb);
		return p == NULL ? ERR_OK : ERR_ABRT;
	}
	if (tcp_sndbuf(pcb) < p->tot_len ||
	    tcp_sndqueuelen(pcb) + pbuf_clen(p) > TCP_SND_QUEUELEN)
		return ERR_MEM;
	for (struct pbuf *q = p; q != NULL; q = q->next)
		if (tcp_write(pcb, q->payload, q->len, TCP_WRITE_FLAG_COPY) !=
		    ERR_OK)
			return ERR_MEM;	/* not reached: room was checked */
	tcp_output(pcb);
	tcp_recved(pcb, p->tot_len);
	netd_echoed_bytes += p->tot_len;
	pbuf_free(p);
	return ERR_OK;
}

static void echo_err(void *arg, err_t err)
{
	(void)arg, (void)err;
}

static err_t echo_accept(void *arg, struct tcp_pcb *pcb, err_t err)
{
	(void)arg;
	if (err != ERR_OK || pcb == NULL)
		return ERR_VAL;
	tcp_recv(pcb, echo_recv);
	tcp_err(pcb, echo_err);
	return ERR_OK;
}

static void udp_echo_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p,
			  const ip_addr_t *addr, u16_t port)
{
	(void)arg;
	netd_echoed_bytes += p->tot_len;
	udp_sendto(pcb, p, addr, port);
	pbuf_free(p);
}

static void udp_discard_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p,
			     const ip_addr_t *addr, u16_t port)
{
	(void)arg, (void)pcb, (void)addr, (void)port;
	netd_discarded_datagrams++;
	netd_discarded_bytes += p->tot_len;
	pbuf_free(p);
}

static void iperf_report(void *arg, enum lwiperf_report_type type,
			 const ip_addr_t *local, u16_t local_port,
			 const ip_addr_t *remote, u16_t remote_port,
			 u32_t bytes, u32_t ms, u32_t kbits)
{
	(void)arg, (void)local, (void)local_port, (void)remote_port;
	printf("netd: iperf from %s report %d: %lu bytes in %lu ms, "
	       "%lu kbit/s\n", ipaddr_ntoa(remote), (int)type,
	       (unsigned long)bytes, (unsigned long)ms, (unsigned long)kbits);
}

static struct udp_pcb *udp_service(u16_t port, udp_recv_fn fn)
{
	struct udp_pcb *pcb = udp_new_ip_type(IPADDR_TYPE_ANY);

	if (pcb == NULL || udp_bind(pcb, IP_ANY_TYPE, port) != ERR_OK) {
		printf("netd: cannot serve UDP port %u\n", port);
		return NULL;
	}
	udp_recv(pcb, fn, NULL);
	return pcb;
}

void netd_services_start(void)
{
	struct tcp_pcb *pcb = tcp_new_ip_type(IPADDR_TYPE_ANY);

	if (pcb != NULL && tcp_bind(pcb, IP_ANY_TYPE, ECHO_PORT) == ERR_OK)
		pcb = tcp_listen(pcb);
	else
		pcb = NULL;
	if (pcb == NULL)
		printf("netd: cannot serve TCP port %u\n", ECHO_PORT);
	else
		tcp_accept(pcb, echo_accept);
	udp_service(ECHO_PORT, udp_echo_recv);
	udp_service(DISCARD_PORT, udp_discard_recv);
	if (lwiperf_start_tcp_server_default(iperf_report, NULL) == NULL)
		printf("netd: cannot start the iperf server\n");
}
