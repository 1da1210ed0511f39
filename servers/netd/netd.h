/* SPDX-License-Identifier: GPL-2.0-only */
/* netd's parts, as they call each other (servers/netd/README.md). */
#ifndef NETD_H
#define NETD_H

#include <mach/mach_types.h>
#include <mach/message.h>
#include <stdint.h>

#include "lwip/err.h"

struct netif;

/* Receive ports of the netif, each with its filter (netif.c): a power
 * of two. */
#define NETD_RX_PORTS	4

/* A pure ACK is held while it acknowledges less than this since the
 * last ACK sent on its connection (netif.c). */
#define NETD_ACK_HOLD_BYTES	(8 * TCP_MSS)

/* The Mach netif: one Ethernet device, its counters, the ACK it holds
 * back and the last connection it sent an ACK on. */
struct netd_eth {
	char name[16];
	mach_port_t device;	/* send right from device_open */
	mach_port_t rx[NETD_RX_PORTS];	/* receive rights filters feed */
	uint8_t mac[6];
	unsigned long rx_frames, rx_bytes, rx_dropped;
	unsigned long tx_frames, tx_bytes, tx_errors, acks_merged;
	int ack_held;		/* ack_frame waits for netd_eth_flush */
	int ack_known;		/* ack_key and ack_sent are set */
	uint8_t ack_key[12];	/* IPv4 addresses and TCP ports */
	uint32_t ack_sent;	/* the last acknowledgement sent on it */
	uint32_t ack_held_no;	/* ack_frame's acknowledgement */
	size_t ack_len;
	uint8_t ack_frame[128];
};

extern struct netd_eth netd_eth0;
extern struct netif netd_netif;
extern mach_port_t netd_device_master;
/*
 * mach_task_self(), asked for once: each call of the trap adds a user
 * reference to the task port, and at 65,535 it answers MACH_PORT_NULL.
 */
extern mach_port_t netd_task;

/* netif.c: netd_eth_open - open Ethernet device @name on @master (asked
 * again for 30 s while no one serves that name: a driver server may
 * publish it later), read its MAC, make its receive ports and install
 * their filters; D_SUCCESS or the code of the call that failed. */
kern_return_t netd_eth_open(struct netd_eth *eth, mach_port_t master,
			    const char *name);
/* netd_eth_join - move @eth's receive ports into port set @set, whose
 * receiver then gets the frames in the order they came; KERN_SUCCESS or
 * mach_port_move_member's error. */
kern_return_t netd_eth_join(struct netd_eth *eth, mach_port_t set);
void netd_eth_wait_link(struct netd_eth *eth);
kern_return_t netd_eth_allmulti(struct netd_eth *eth);
err_t netd_eth_netif_init(struct netif *netif);
/* netd_eth_flush - write the pure ACK @eth holds back, if any (the loop
 * calls it when no message waits). */
void netd_eth_flush(struct netd_eth *eth);
void netd_eth_input(struct netd_eth *eth, const void *msg);

/* services.c: TCP/UDP echo (7), UDP discard (9), the iperf 2 server. */
void netd_services_start(void);

/* status.c: the pages httpd serves. */
void netd_status_init(void);

/* spawn.c: start the ELF program on a device with @service as its
 * bootstrap port. */
kern_return_t netd_spawn(const char *devname, const char *args,
			 mach_port_t service);

/* rpc.c: the socket-like interface of netd.defs.  netd_rpc_init - serve
 * it on @given (a receive right of netd's; MACH_PORT_NULL: a new one),
 * put in @set; the service port, or MACH_PORT_NULL if that failed. */
mach_port_t netd_rpc_init(mach_port_t set, mach_port_t given);
void netd_rpc_counts(unsigned int *sessions, unsigned int *sockets);
void netd_rpc_serve(mach_msg_header_t *request);

#endif
