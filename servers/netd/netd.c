/* SPDX-License-Identifier: GPL-2.0-only */
/* netd: lwIP as a Mach network server over eth0 (servers/netd/README.md). */
/*
 * Arguments (module command line): device=N (the device master port,
 * ${device-port}); ip=A.B.C.D or ip=dhcp (default 10.0.2.15); mask=
 * (default 255.255.255.0); gw= (default 10.0.2.2); eth= (default eth0);
 * service=N the receive right to serve netd.defs on (a port the boot
 * script made, $(netd-port=port-create), which other modules' lines
 * name ${netd-port}; default: a port of its own); run=DEV
 * args=WORD+WORD... to start the program on device DEV as a task with
 * netd's service port as its bootstrap port (spawn.c).
 *
 * One thread runs everything (lwIP's NO_SYS mode): a loop receives on a
 * port set holding the filters' ports (net_rcv_msg frames), the service
 * port and the session ports (netd.defs requests, no-senders), with a
 * timeout that ends when lwIP's next timer is due (at once while the
 * netif holds an ACK back, which it then sends), and runs lwIP's timers
 * after every message.
 */
#include <device/device.h>
#include <device/net_status.h>
#include <mach/message.h>
#include <mach/thread_switch.h>
#include <mach/mig_errors.h>
#include <mach_host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "lwip/dhcp.h"
#include "lwip/init.h"
#include "lwip/ip4_addr.h"
#include "lwip/ip6_addr.h"
#include "lwip/netif.h"
#include "lwip/timeouts.h"
#include "netd.h"
#include "netif/ethernet.h"

struct netd_eth netd_eth0;
struct netif netd_netif;
mach_port_t netd_device_master;
mach_port_t netd_task;

static unsigned long start_ms;
static int said_ready;

void netd_assert_failed(const char *msg, const char *file, int line)
{
	printf("netd: lwIP assertion \"%s\" failed at %s:%d\n", msg, file,
	       line);
	abort();
}

/* Set by the loop: sys_now may answer the time it read last. */
static int now_held;
static int looping;

/*
 * Milliseconds since boot, from the kernel's TSC clock (host_get_time).
 * The host port is asked for once: each mach_host_self() adds a user
 * reference to the right.  lwIP asks for the time several times per
 * frame and each answer is an RPC to the kernel: in the loop the time is
 * read once per message (the loop clears now_held when one arrives), so
 * everything one message does happens at one millisecond.
 */
u32_t sys_now(void)
{
	static mach_port_t host = MACH_PORT_NULL;
	static u32_t last;
	time_value_t t;

	if (now_held)
		return last;
	if (host == MACH_PORT_NULL)
		host = mach_host_self();
	if (host_get_time(host, &t) != KERN_SUCCESS)
		return last;
	last = (u32_t)((unsigned long)t.seconds * 1000 +
		       (unsigned long)t.microseconds / 1000);
	now_held = looping;
	return last;
}

/* Prints the IPv4 address once the netif has one (static, or DHCP
 * bound), and the IPv6 link-local address once it is valid (after
 * duplicate address detection). */
static void netif_status(struct netif *netif)
{
	static int said_ip6;

	if (!said_ip6 && ip6_addr_isvalid(netif_ip6_addr_state(netif, 0))) {
		said_ip6 = 1;
		printf("netd: ipv6 %s\n",
		       ip6addr_ntoa(netif_ip6_addr(netif, 0)));
	}
	if (!netif_is_up(netif) || ip4_addr_isany_val(*netif_ip4_addr(netif)))
		return;
	if (said_ready++ > 0)
		return;
	printf("netd: ready ip=%s", ip4addr_ntoa(netif_ip4_addr(netif)));
	printf(" mask=%s", ip4addr_ntoa(netif_ip4_netmask(netif)));
	printf(" gw=%s after %lu ms\n", ip4addr_ntoa(netif_ip4_gw(netif)),
	       (unsigned long)(sys_now() - start_ms));
}

static int parse_addr(const char *what, const char *s, ip4_addr_t *a)
{
	if (ip4addr_aton(s, a))
		return 0;
	printf("netd: %s=%s is no IPv4 address\n", what, s);
	return -1;
}

/* run=DEV: args= is its command line, '+' standing for ' '. */
static void start_client(const char *dev, const char *args,
			 mach_port_t service)
{
	char line[512];
	kern_return_t kr;
	size_t i;

	for (i = 0; args[i] != '\0' && i + 1 < sizeof(line); i++)
		line[i] = args[i] == '+' ? ' ' : args[i];
	line[i] = '\0';
	kr = netd_spawn(dev, line, service);
	if (kr != KERN_SUCCESS)
		printf("netd: cannot run the program on %s: error 0x%x\n", dev,
		       kr);
	else
		printf("netd: started the program on %s\n", dev);
}

int main(int argc, char **argv)
{
	static union {
		mach_msg_header_t hdr;
		struct net_rcv_msg net;
		char bytes[sizeof(struct net_rcv_msg) + 8192 + 512];
	} in;
	const char *ip = graft_arg(argc, argv, "ip", "10.0.2.15");
	const char *eth = graft_arg(argc, argv, "eth", "eth0");
	ip4_addr_t addr, mask, gw;
	mach_port_t set, service;
	kern_return_t kr;
	int dhcp = strcmp(ip, "dhcp") == 0;
	unsigned long too_large = 0;

	netd_task = mach_task_self();
	start_ms = sys_now();
	netd_device_master = graft_arg_port(argc, argv, "device");
	ip4_addr_set_zero(&addr);
	if ((!dhcp && parse_addr("ip", ip, &addr) != 0) ||
	    parse_addr("mask", graft_arg(argc, argv, "mask", "255.255.255.0"),
		       &mask) != 0 ||
	    parse_addr("gw", graft_arg(argc, argv, "gw", "10.0.2.2"),
		       &gw) != 0)
		return 2;
	if (dhcp)
		ip4_addr_set_zero(&mask), ip4_addr_set_zero(&gw);
	kr = netd_eth_open(&netd_eth0, netd_device_master, eth);
	if (kr != D_SUCCESS) {
		printf("netd: cannot serve %s: error %d\n", eth, kr);
		return 1;
	}
	netd_eth_wait_link(&netd_eth0);

	lwip_init();
	netif_add(&netd_netif, &addr, &mask, &gw, &netd_eth0,
		  netd_eth_netif_init, ethernet_input);
	netif_set_default(&netd_netif);
	netif_set_status_callback(&netd_netif, netif_status);
	netif_set_link_up(&netd_netif);
	netd_status_init();
	netd_services_start();
	if (mach_port_allocate(netd_task, MACH_PORT_RIGHT_PORT_SET,
			       &set) != KERN_SUCCESS ||
	    netd_eth_join(&netd_eth0, set) != KERN_SUCCESS ||
	    (service = netd_rpc_init(set, graft_arg_port(argc, argv,
							  "service"))) ==
		    MACH_PORT_NULL) {
		printf("netd: cannot make its port set\n");
		return 1;
	}
	printf("netd: %s mac=%02x:%02x:%02x:%02x:%02x:%02x lwIP %s\n", eth,
	       netd_eth0.mac[0], netd_eth0.mac[1], netd_eth0.mac[2],
	       netd_eth0.mac[3], netd_eth0.mac[4], netd_eth0.mac[5],
	       LWIP_VERSION_STRING);
	if (netd_eth_allmulti(&netd_eth0) != D_SUCCESS)
		printf("netd: no all-multicast mode: IPv6 may not work\n");
	netif_create_ip6_linklocal_address(&netd_netif, 1);
	netif_set_up(&netd_netif);
	if (dhcp && dhcp_start(&netd_netif) != ERR_OK)
		printf("netd: DHCP does not start\n");
	if (graft_arg(argc, argv, "run", NULL) != NULL)
		start_client(graft_arg(argc, argv, "run", NULL),
			     graft_arg(argc, argv, "args", ""), service);

	looping = 1;
	for (;;) {
		u32_t sleep = sys_timeouts_sleeptime();
		mach_msg_option_t opt = MACH_RCV_MSG;

		if (sleep != SYS_TIMEOUTS_SLEEPTIME_INFINITE)
			opt |= MACH_RCV_TIMEOUT;
		/* An ACK held back goes out once no message waits. */
		if (netd_eth0.ack_held)
			opt |= MACH_RCV_TIMEOUT, sleep = 0;
		kr = mach_msg(&in.hdr, opt, 0, sizeof(in), set, sleep,
			      MACH_PORT_NULL);
		now_held = 0;
		if (kr == MACH_RCV_TIMED_OUT)
			netd_eth_flush(&netd_eth0);
		if (kr == MACH_MSG_SUCCESS) {
			if (in.hdr.msgh_id == NET_RCV_MSG_ID)
				netd_eth_input(&netd_eth0, &in);
			else
				netd_rpc_serve(&in.hdr);
		} else if (kr == MACH_RCV_TOO_LARGE) {
			/* The kernel destroyed it: nothing netd.defs sends. */
			if (too_large++ == 0)
				printf("netd: a message too large, dropped\n");
		} else if (kr != MACH_RCV_TIMED_OUT) {
			printf("netd: receive failed: 0x%x\n", kr);
			thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 10);
		}
		sys_check_timeouts();
	}
}
