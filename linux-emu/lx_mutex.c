/* SPDX-License-Identifier: GPL-2.0-only */
/* Sleeping mutexes: mutex_lock and its variants, mutex_trylock, mutex_unlock, mutex_is_locked. */
/*
 * ->owner is the owning task (0: free); waiters queue on ->wait_list and
 * sleep.  Only threads holding the Linux world touch a mutex, and the
 * world changes hands only where one sleeps, so checking and taking the
 * owner needs no atomic step; interrupt handlers never take mutexes.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/sched.h>

struct lx_mutex_waiter {
	struct list_head list;
	struct task_struct *task;
};

void __mutex_init(struct mutex *lock, const char *name,
		  struct lock_class_key *key)
{
	atomic_long_set(&lock->owner, 0);
	raw_spin_lock_init(&lock->wait_lock);
	INIT_LIST_HEAD(&lock->wait_list);
}

void mutex_lock(struct mutex *lock)
{
	struct lx_mutex_waiter w = { .task = current };

	while (atomic_long_read(&lock->owner) != 0) {
		list_add_tail(&w.list, &lock->wait_list);
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
		list_del(&w.list);
	}
	atomic_long_set(&lock->owner, (unsigned long)current);
}

int mutex_lock_interruptible(struct mutex *lock)
{
	mutex_lock(lock);	/* no signals in Graft: never interrupted */
	return 0;
}

int mutex_lock_killable(struct mutex *lock)
{
	mutex_lock(lock);
	return 0;
}

bool mutex_is_locked(struct mutex *lock)
{
	return atomic_long_read(&lock->owner) != 0;
}

int mutex_trylock(struct mutex *lock)
{
	if (atomic_long_read(&lock->owner) != 0)
		return 0;
	atomic_long_set(&lock->owner, (unsigned long)current);
	return 1;
}

void mutex_unlock(struct mutex *lock)
{
	struct lx_mutex_waiter *w;

	if (atomic_long_read(&lock->owner) != (unsigned long)current)
		pr_err("linux-emu: mutex_unlock of a mutex %s\n",
		       atomic_long_read(&lock->owner) ? "another task holds" :
		       "nobody holds");
	atomic_long_set(&lock->owner, 0);
	w = list_first_entry_or_null(&lock->wait_list, struct lx_mutex_waiter,
				     list);
	if (w)
		wake_up_process(w->task);
}
