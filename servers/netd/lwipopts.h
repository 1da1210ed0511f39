/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP's configuration for netd (servers/netd/README.md). */
#ifndef NETD_LWIPOPTS_H
#define NETD_LWIPOPTS_H

/* One thread, one loop: no operating-system layer, no locks. */
#define NO_SYS				1
#define SYS_LIGHTWEIGHT_PROT		0
#define LWIP_NETCONN			0
#define LWIP_SOCKET			0
#define LWIP_TIMERS			1

/* Memory: the heap is newlib's malloc; pools stay lwIP's, static. */
#define MEM_LIBC_MALLOC			1
#define MEM_ALIGNMENT			8
#define MEMP_NUM_PBUF			64
#define MEMP_NUM_TCP_PCB		32
#define MEMP_NUM_TCP_PCB_LISTEN		16
#define MEMP_NUM_TCP_SEG		256
#define MEMP_NUM_UDP_PCB		16
#define MEMP_NUM_SYS_TIMEOUT		(LWIP_NUM_SYS_TIMEOUT_INTERNAL + 8)
#define PBUF_POOL_SIZE			256

/*
 * Protocols: IPv4 with ARP, ICMP, UDP, TCP and DHCP; IPv6 with a
 * link-local address only (neighbour discovery, ICMPv6 echo, MLD), for
 * the services and httpd; netd.defs stays IPv4.
 */
#define LWIP_IPV4			1
#define LWIP_IPV6			1
#define LWIP_IPV6_MLD			1
#define LWIP_IPV6_AUTOCONFIG		0
#define LWIP_IPV6_DHCP6			0
/* 64-bit pointers do not fit in the fragment header lwIP reuses. */
#define IPV6_FRAG_COPYHEADER		1
#define LWIP_ARP			1
#define LWIP_ETHERNET			1
#define LWIP_ICMP			1
#define LWIP_RAW			0
#define LWIP_UDP			1
#define LWIP_TCP			1
#define LWIP_DHCP			1
/* No address conflict probes before using a DHCP lease: they cost 5 to
 * 9 s, and the emulators' user networks hand out one address. */
#define LWIP_DHCP_DOES_ACD_CHECK	0
#define LWIP_DNS			0
#define LWIP_IGMP			0
#define IP_REASSEMBLY			1
/* Fragments of a datagram that never completes are dropped after 3 s. */
#define IP_REASS_MAXAGE			3
#define IP_FRAG				1
#define ETHARP_SUPPORT_STATIC_ENTRIES	0
#define LWIP_NETIF_STATUS_CALLBACK	1
#define LWIP_NETIF_LINK_CALLBACK	1

/*
 * TCP: the receive window is the largest without window scaling, 44
 * segments.  A stream's frames take netd's NETD_RX_PORTS (4) receive
 * ports in turn (netif.c), which queue 16 frames each
 * (MACH_PORT_QLIMIT_MAX), beyond which the kernel drops frames: a
 * window's burst takes 11 of each port's 16.  The send buffer is
 * larger, for downloads.
 */
#define TCP_MSS				1460
#define TCP_WND				(44 * TCP_MSS)
#define TCP_SND_BUF			(32 * TCP_MSS)
#define TCP_SND_QUEUELEN		(4 * TCP_SND_BUF / TCP_MSS)
#define TCP_LISTEN_BACKLOG		1
#define TCP_DEFAULT_LISTEN_BACKLOG	8
#define LWIP_TCP_KEEPALIVE		1
/* TIME_WAIT lasts 2 * TCP_MSL: 2 s on a virtual LAN, so that the PCBs a
 * burst of connections leaves behind come back soon (netd-wire). */
#define TCP_MSL				1000
#define TCP_OVERSIZE			TCP_MSS

/* Checksums: all computed in software (no offload through device.defs),
 * by netd_chksum (chksum.c): the sum of @len bytes from @data, folded to
 * 16 bits, not complemented, in the order lwIP stores it. */
unsigned short netd_chksum(const void *data, int len);
#define LWIP_CHKSUM			netd_chksum

/* Counters for the status page. */
#define LWIP_STATS			1
#define LWIP_STATS_DISPLAY		0
#define MEM_STATS			0
#define SYS_STATS			0

/* httpd: netd's own files only (status.c), responses carry headers. */
#define LWIP_HTTPD_CUSTOM_FILES		1
#define LWIP_HTTPD_DYNAMIC_HEADERS	0
#define LWIP_HTTPD_DYNAMIC_FILE_READ	0
#define LWIP_HTTPD_SSI			0
#define LWIP_HTTPD_CGI			0
#define LWIP_HTTPD_SUPPORT_POST		0
#define HTTPD_FSDATA_FILE		"netd_fsdata.h"
/* tcp_write copies page data: a status page is freed when httpd has
 * written it, possibly before the peer acknowledged it. */
#define HTTP_IS_DATA_VOLATILE(hs)	TCP_WRITE_FLAG_COPY
#define LWIP_HTTPD_MAX_REQ_LENGTH	1023
#define LWIP_HTTPD_REQ_BUFSIZE		LWIP_HTTPD_MAX_REQ_LENGTH

#endif
