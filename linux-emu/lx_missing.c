/* SPDX-License-Identifier: GPL-2.0-only */
/* Linux functions whose address compiled code takes, not implemented yet: each stops loudly when called. */
/*
 * Functions that are only called get generated stubs
 * (tools/linux_link.py); one whose address is stored needs a definition
 * of its own, and until linux-emu implements it, it is this.
 */
#include <linux/fs.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <lx_host.h>

/* Not done yet: workqueues (issue 5). */
void delayed_work_timer_fn(struct timer_list *t)
{
	lx_host_missing(__func__);
}

/* Not done yet: wait queues (issue 5). */
int default_wake_function(struct wait_queue_entry *wq_entry,
			  unsigned int mode, int flags, void *key)
{
	lx_host_missing(__func__);
}

/* Not used: kernel/resource.c names it for the "iomem" pseudo file
 * system, which Graft never mounts. */
void kill_anon_super(struct super_block *sb)
{
	lx_host_missing(__func__);
}
