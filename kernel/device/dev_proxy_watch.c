/* SPDX-License-Identifier: GPL-2.0-only */
/* Noticing a supervised driver server that hangs: a heartbeat to a server whose call waited long, its task ended when it does not answer. */
/*
 * A server hangs when a driver of it never gives its thread back (a
 * loop that does not end): its calls wait without end, and its event
 * loop, which shares that thread, stops.  Each second the watch thread
 * looks at every publication of a supervised server (kern/supervise.h)
 * while it is served: when its oldest call at the server has waited
 * DEV_PROXY_HANG_TICKS, the server gets a heartbeat (proxy_watch.defs),
 * which its event loop answers without its drivers; when the heartbeat
 * has waited as long, the server is taken as hung, and its task ended
 * ("hung: ...") and started again as a dead server's is.  A hang is so
 * noticed within 2 x DEV_PROXY_HANG_TICKS and a second of the call it
 * stopped.  A server whose event loop runs answers the heartbeats; one
 * whose driver lost a call (an interrupt missed, a request dropped)
 * makes no progress instead: when a call has waited
 * DEV_PROXY_STALL_TICKS and the server answered no call of the
 * publication meanwhile, its task is ended and started again as well
 * ("hung: a call waited 30 s ...").
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/dev_proxy_fwd.h"
#include "ipc/ipc_port.h"
#include "kern/clock.h"
#include "kern/klog.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "kern/thread.h"
#include "x86_64/cpu.h"

#define WATCH_PRIORITY	4

static KLOG_SOURCE(watch_log, "device-proxy");

/* The task found hung on this look, ended after the walk, and why:
 * its call stalled, or its heartbeat went unanswered. */
static struct task *hung;
static bool hung_stalled;

/* @p's server is hung (@stalled, or no heartbeat): ended after the
 * walk. */
static void found_hung(struct dev_proxy *p, bool stalled)
{
	struct task *task = task_port_task(p->task);

	if (task == NULL || task->terminating)
		return;
	klog(&watch_log, "device-proxy: %s: its server %s: hung\n", p->name,
	     stalled ? "answered no call while one waited 30 s" :
	     "answers no heartbeat");
	hung = task;
	hung_stalled = stalled;
}

static void look(struct dev_proxy *p)
{
	uint64_t now = clock_ticks(), oldest;

	if (p->lineage == NULL || p->restarting || p->down ||
	    p->server == NULL || hung != NULL)
		return;
	oldest = dev_proxy_fwd_oldest(p);
	if (oldest != 0 && now - oldest >= DEV_PROXY_STALL_TICKS &&
	    now - p->answered_at >= DEV_PROXY_STALL_TICKS) {
		found_hung(p, true);
		return;
	}
	if (p->heartbeat_at == 0) {
		if (oldest != 0 && now - oldest >= DEV_PROXY_HANG_TICKS)
			dev_proxy_fwd_heartbeat(p);
		return;
	}
	if (now - p->heartbeat_at >= DEV_PROXY_HANG_TICKS)
		found_hung(p, false);
}

static void watcher(void *arg)
{
	(void)arg;
	for (;;) {
		uint64_t flags;

		thread_sleep_ticks(HZ);
		flags = cpu_intr_save();
		dev_proxy_each(look);
		if (hung != NULL)
			task_terminate(hung, hung_stalled ?
				       "hung: a call waited 30 s and no call "
				       "was answered" :
				       "hung: a call waited and no heartbeat "
				       "was answered");
		hung = NULL;
		cpu_intr_restore(flags);
	}
}

void dev_proxy_watch_init(void)
{
	if (kernel_thread_create("proxy-watch", WATCH_PRIORITY, watcher, NULL,
				 NULL) != KERN_SUCCESS)
		panic("device-proxy: cannot start the watch thread");
}
