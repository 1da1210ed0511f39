/* SPDX-License-Identifier: GPL-2.0-only */
/* Netlink, which Graft does not have: __netlink_kernel_create, netlink_kernel_release, do_trace_netlink_extack. */
/*
 * The world has no sockets, so a kernel netlink socket cannot be made:
 * __netlink_kernel_create answers NULL, as Linux's does when it cannot
 * create the socket, and its callers give up (an iSCSI transport's
 * module init fails with its own error).  Extended ack messages are
 * traced by a tracepoint in Linux; the world has no tracing, so that is
 * nothing, as with the tracepoint off.
 */
#include <linux/netlink.h>
#include <linux/printk.h>

/* __netlink_kernel_create - no socket: NULL. */
struct sock *__netlink_kernel_create(struct net *net, int unit,
				     struct module *module,
				     struct netlink_kernel_cfg *cfg)
{
	return NULL;
}

/* netlink_kernel_release - only NULL can come: nothing to release. */
void netlink_kernel_release(struct sock *sk)
{
	if (sk)
		pr_err("linux-emu: netlink_kernel_release of a socket never "
		       "made\n");
}

/* do_trace_netlink_extack - no tracing: nothing. */
void do_trace_netlink_extack(const char *msg)
{
}
