/* SPDX-License-Identifier: GPL-2.0-only */
/* What programs on a net device share: its MAC, waiting for its link, an IPv4 address in text. */
#include <device/device.h>
#include <device/net_status.h>
#include <stdio.h>
#include <string.h>

#include "graft_user.h"

#define IFF_UP_RUNNING	0x41	/* IFF_UP | IFF_RUNNING */

kern_return_t graft_net_mac(mach_port_t d, uint8_t mac[6])
{
	int st[DEV_STATUS_MAX];
	mach_msg_type_number_t n = 2;
	kern_return_t kr = device_get_status(d, NET_ADDRESS, st, &n);

	if (kr != D_SUCCESS)
		return kr;
	for (int w = 0; w < 2; w++) {
		uint32_t v = __builtin_bswap32((uint32_t)st[w]);

		memcpy(mac + 4 * w, &v, w == 0 ? 4 : 2);
	}
	return D_SUCCESS;
}

int graft_net_wait_link(mach_port_t d, unsigned int ms)
{
	mach_port_t sleeper = MACH_PORT_NULL;
	int flags = 0;

	if (mach_port_allocate(mach_task_self(), MACH_PORT_RIGHT_RECEIVE,
			       &sleeper) != KERN_SUCCESS)
		return 0;
	for (unsigned int i = 0; i <= ms / 10; i++) {
		int st[DEV_STATUS_MAX];
		mach_msg_type_number_t n = NET_STATUS_COUNT;
		mach_msg_header_t h;

		if (device_get_status(d, NET_STATUS, st, &n) == D_SUCCESS)
			flags = ((struct net_status *)st)->flags;
		if ((flags & IFF_UP_RUNNING) == IFF_UP_RUNNING)
			break;
		mach_msg(&h, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0, sizeof(h),
			 sleeper, 10, MACH_PORT_NULL);
	}
	mach_port_destroy(mach_task_self(), sleeper);
	return flags;
}

int graft_parse_ipv4(const char *s, uint32_t *ip)
{
	unsigned int b[4];
	char tail;

	if (sscanf(s, "%u.%u.%u.%u%c", &b[0], &b[1], &b[2], &b[3],
		   &tail) != 4)
		return -1;
	for (int i = 0; i < 4; i++)
		if (b[i] > 255)
			return -1;
	*ip = b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
	return 0;
}
