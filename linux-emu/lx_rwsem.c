/* SPDX-License-Identifier: GPL-2.0-only */
/* Read-write semaphores: __init_rwsem, down_read/down_write and their trylock, killable and interruptible forms, up_read, up_write, downgrade_write. */
/*
 * ->count is the number of readers holding @sem, or LX_RWSEM_WRITER while
 * a writer does; ->owner is the writer.  As with mutexes (lx_mutex.c),
 * only threads holding the Linux world touch a semaphore and the world
 * changes hands only where one sleeps, so testing and taking need no
 * atomic step.  Waiters queue in order on ->wait_list; a reader does not
 * pass a waiting writer (so writers are not starved), and each release
 * wakes the waiters at the head that can then go: the first writer, or
 * the readers before it.
 */
#include <linux/list.h>
#include <linux/printk.h>
#include <linux/rwsem.h>
#include <linux/sched.h>

#define LX_RWSEM_WRITER		(-1L)

struct lx_rwsem_waiter {
	struct list_head list;
	struct task_struct *task;
	bool writer;
};

void __init_rwsem(struct rw_semaphore *sem, const char *name,
		  struct lock_class_key *key)
{
	atomic_long_set(&sem->count, 0);
	atomic_long_set(&sem->owner, 0);
	raw_spin_lock_init(&sem->wait_lock);
	INIT_LIST_HEAD(&sem->wait_list);
}

static bool can_read(struct rw_semaphore *sem)
{
	return atomic_long_read(&sem->count) != LX_RWSEM_WRITER;
}

static bool can_write(struct rw_semaphore *sem)
{
	return atomic_long_read(&sem->count) == 0;
}

/* Whether @w may take @sem now: free for it and first in line. */
static bool may_take(struct rw_semaphore *sem, struct lx_rwsem_waiter *w)
{
	struct lx_rwsem_waiter *first;

	if (w->writer ? !can_write(sem) : !can_read(sem))
		return false;
	list_for_each_entry(first, &sem->wait_list, list) {
		if (first == w)
			return true;
		if (first->writer || w->writer)
			return false;
	}
	return true;
}

static void take(struct rw_semaphore *sem, bool writer)
{
	struct lx_rwsem_waiter w = { .task = current, .writer = writer };

	if (list_empty(&sem->wait_list) &&
	    (writer ? can_write(sem) : can_read(sem)))
		goto taken;
	list_add_tail(&w.list, &sem->wait_list);
	while (!may_take(sem, &w)) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
	}
	list_del(&w.list);
taken:
	if (writer) {
		atomic_long_set(&sem->count, LX_RWSEM_WRITER);
		atomic_long_set(&sem->owner, (unsigned long)current);
	} else {
		atomic_long_inc(&sem->count);
	}
}

/* Wake the waiters at the head of @sem's line that may go. */
static void wake_waiters(struct rw_semaphore *sem)
{
	struct lx_rwsem_waiter *w;

	list_for_each_entry(w, &sem->wait_list, list) {
		wake_up_process(w->task);
		if (w->writer)
			break;
	}
}

void down_read(struct rw_semaphore *sem)
{
	take(sem, false);
}

/* No signals in Graft: the interruptible and killable forms always get
 * the semaphore and return 0. */
int down_read_interruptible(struct rw_semaphore *sem)
{
	take(sem, false);
	return 0;
}

int down_read_killable(struct rw_semaphore *sem)
{
	take(sem, false);
	return 0;
}

/* down_read_trylock - 1 with @sem read-held, 0 when a writer holds it or
 * waits for it. */
int down_read_trylock(struct rw_semaphore *sem)
{
	if (!list_empty(&sem->wait_list) || !can_read(sem))
		return 0;
	take(sem, false);
	return 1;
}

void down_write(struct rw_semaphore *sem)
{
	take(sem, true);
}

int down_write_killable(struct rw_semaphore *sem)
{
	take(sem, true);
	return 0;
}

/* down_write_trylock - 1 with @sem write-held, 0 when anyone holds it or
 * waits for it. */
int down_write_trylock(struct rw_semaphore *sem)
{
	if (!list_empty(&sem->wait_list) || !can_write(sem))
		return 0;
	take(sem, true);
	return 1;
}

void up_read(struct rw_semaphore *sem)
{
	if (atomic_long_read(&sem->count) <= 0) {
		pr_err("linux-emu: up_read of a semaphore no reader holds\n");
		return;
	}
	if (atomic_long_dec_return(&sem->count) == 0)
		wake_waiters(sem);
}

void up_write(struct rw_semaphore *sem)
{
	if (atomic_long_read(&sem->owner) != (unsigned long)current) {
		pr_err("linux-emu: up_write of a semaphore %s\n",
		       atomic_long_read(&sem->count) == LX_RWSEM_WRITER ?
		       "another task holds" : "no writer holds");
		return;
	}
	atomic_long_set(&sem->owner, 0);
	atomic_long_set(&sem->count, 0);
	wake_waiters(sem);
}

/* downgrade_write - the writer holding @sem keeps it as a reader; the
 * readers waiting at the head of the line may join it. */
void downgrade_write(struct rw_semaphore *sem)
{
	if (atomic_long_read(&sem->owner) != (unsigned long)current) {
		pr_err("linux-emu: downgrade_write by a task not holding it\n");
		return;
	}
	atomic_long_set(&sem->owner, 0);
	atomic_long_set(&sem->count, 1);
	wake_waiters(sem);
}
