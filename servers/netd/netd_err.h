/* SPDX-License-Identifier: GPL-2.0-only */
/* The error codes of netd.defs's routines (servers/netd/netd.defs). */
#ifndef NETD_ERR_H
#define NETD_ERR_H

#define NETD_EBADSOCK	0x4e01	/* no such socket (never made, or closed) */
#define NETD_EKIND	0x4e02	/* the call does not apply to this socket */
#define NETD_ETOOBIG	0x4e03	/* a length beyond the interface's limits */
#define NETD_EADDR	0x4e04	/* an address or port no call may use */
#define NETD_EINUSE	0x4e05	/* the port is taken */
#define NETD_ENOMEM	0x4e06	/* netd is out of sockets or lwIP memory */
#define NETD_EBUSY	0x4e07	/* the same call is already waiting */
#define NETD_ECLOSED	0x4e08	/* closed while waiting, or by the peer */
#define NETD_ERESET	0x4e09	/* the connection was reset or refused */
#define NETD_ENOSESSION	0x4e0a	/* socket calls go to a session port */
#define NETD_EUNREACH	0x4e0b	/* no route, or no address of netd's to
				 * send from yet (IPv6 before its address
				 * passed duplicate address detection) */

#endif
