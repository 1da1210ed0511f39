/* SPDX-License-Identifier: GPL-2.0-only */
/* Linux functions whose address compiled code takes, not implemented yet: each stops loudly when called. */
/*
 * Functions that are only called get generated stubs
 * (tools/linux_link.py); one whose address is stored needs a definition
 * of its own, and until linux-emu implements it, it is this.
 */
#include <linux/timer.h>
#include <linux/workqueue.h>

#include <lx_host.h>

/* Not done yet: workqueues (issue 5). */
void delayed_work_timer_fn(struct timer_list *t)
{
	lx_host_missing(__func__);
}
