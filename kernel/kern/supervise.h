/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot modules whose task is started again when it dies (restart=N on the module line): the supervision of driver servers. */
#ifndef KERN_SUPERVISE_H
#define KERN_SUPERVISE_H

#include <stdbool.h>
#include <stdint.h>

struct boot_module;
struct task;

/*
 * A module line with the word restart=N (N from 1 to SUPERVISE_MAX) is
 * supervised: whenever its task ends (a fault, its own exit,
 * task_terminate), the kernel starts the same module again, a new task
 * with the same image and command line, once the old task is gone (its
 * ports dead, its claims ended: its devices quiet).  N restarts are
 * allowed; the task's next death gives up ("supervise: NAME given up
 * after N restarts" on the console).  A death is seen the moment the
 * task's last thread is gone (task_destroy).
 *
 * All the tasks of one module share its struct supervision, which lives
 * as long as the kernel.  A layer that keeps something for the next
 * instance (the proxy module keeps a dead server's published devices)
 * learns what happens through a watcher (supervise_watch): each event
 * comes from the supervisor thread, in thread context, interrupts on.
 */
struct supervision;

#define SUPERVISE_MAX		1000000
/* After a restart, the time a new instance has to come back (to publish
 * its devices again) before its watchers give up waiting: 20 s. */
#define SUPERVISE_SETTLE_TICKS	2000

enum supervise_event {
	SUPERVISE_SETTLED,	/* SUPERVISE_SETTLE_TICKS after a start */
	SUPERVISE_GAVE_UP,	/* a death with no restart left, or a start
				 * that failed on the last try */
};

/*
 * supervise_attach - make @task (just loaded from module @m, no thread
 * yet) supervised if @m's line says restart=N (supervise_words): its
 * supervision is created on the module's first task and shared by the
 * later ones.  Thread context.
 */
void supervise_attach(struct task *task, const struct boot_module *m);

/*
 * supervise_words - read a module line's words: true if it is supervised
 * (restart=N, N from 1 to SUPERVISE_MAX, in *@max), *@verify whether it
 * says verify=1 too (its disks' data checked against what their clients
 * wrote, device/dev_proxy_check.c).  A restart= that is not such a
 * number (not supervised), a verify= other than 0 or 1, or one without
 * restart= (not verified) is printed.  Any context.
 * supervise_verifies - whether @sup's line says verify=1.  Any context.
 */
bool supervise_words(const char *cmdline, unsigned int *max, bool *verify);
bool supervise_verifies(const struct supervision *sup);

/* supervise_will_restart - whether @sup's task, dying now, will be
 * started again.  Any context. */
bool supervise_will_restart(const struct supervision *sup);

/* supervise_task_ended - @sup's task is gone (task_destroy): its next
 * instance is started by the supervisor thread, or it is given up.  Any
 * context but an interrupt handler; never blocks. */
void supervise_task_ended(struct supervision *sup);

/* supervise_watch - call @fn(@sup, @event) on every event of every
 * supervision (at most SUPERVISE_WATCHERS watchers, registered at
 * boot). */
#define SUPERVISE_WATCHERS	2
void supervise_watch(void (*fn)(struct supervision *sup,
				enum supervise_event event));

/*
 * For tests and reports: supervise_task - @sup's task now (NULL while
 * none runs); supervise_restarts - how many times it was started again;
 * supervise_gave_up - whether it was given up; supervise_of_task - the
 * supervision of @task, or NULL.
 */
struct task *supervise_task(const struct supervision *sup);
unsigned int supervise_restarts(const struct supervision *sup);
bool supervise_gave_up(const struct supervision *sup);
struct supervision *supervise_of_task(const struct task *task);

/* supervise_init - start the supervisor thread (once, at boot, before
 * the first module starts). */
void supervise_init(void);

#endif
