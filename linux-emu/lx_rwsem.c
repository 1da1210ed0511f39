/* SPDX-License-Identifier: GPL-2.0-only */
/* Read-write semaphores: __init_rwsem, down_read, down_read_trylock, up_read, down_write, down_write_trylock, up_write, downgrade_write. */
/*
 * Only the thread holding the world runs Linux code, so the count
 * changes without atomics beyond Linux's types: count > 0 is that many
 * readers, -1 a writer, 0 free.  Waiters sleep on one wait queue for
 * every semaphore and look again at each release (readers and writers
 * alike; no fairness between them).  Not from interrupt context.
 */
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/wait.h>

static DECLARE_WAIT_QUEUE_HEAD(rwsem_wait);

/* __init_rwsem - @sem is free. */
void __init_rwsem(struct rw_semaphore *sem, const char *name,
		  struct lock_class_key *key)
{
	atomic_long_set(&sem->count, 0);
	atomic_long_set(&sem->owner, 0);
	raw_spin_lock_init(&sem->wait_lock);
	INIT_LIST_HEAD(&sem->wait_list);
}

/* down_read_trylock - one reader more unless a writer holds @sem: 1,
 * else 0. */
int down_read_trylock(struct rw_semaphore *sem)
{
	if (atomic_long_read(&sem->count) < 0)
		return 0;
	atomic_long_inc(&sem->count);
	return 1;
}

/* down_read - one reader more, after any writer.  Sleeps. */
void down_read(struct rw_semaphore *sem)
{
	might_sleep();
	wait_event(rwsem_wait, down_read_trylock(sem));
}

/* up_read - one reader less. */
void up_read(struct rw_semaphore *sem)
{
	WARN_ON_ONCE(atomic_long_read(&sem->count) <= 0);
	if (atomic_long_dec_return(&sem->count) == 0)
		wake_up_all(&rwsem_wait);
}

/* down_write_trylock - @sem for the caller alone if free: 1, else 0. */
int down_write_trylock(struct rw_semaphore *sem)
{
	if (atomic_long_read(&sem->count) != 0)
		return 0;
	atomic_long_set(&sem->count, -1);
	atomic_long_set(&sem->owner, (long)current);
	return 1;
}

/* down_write - @sem for the caller alone, once free.  Sleeps. */
void down_write(struct rw_semaphore *sem)
{
	might_sleep();
	wait_event(rwsem_wait, down_write_trylock(sem));
}

/* up_write - the writer lets @sem go. */
void up_write(struct rw_semaphore *sem)
{
	WARN_ON_ONCE(atomic_long_read(&sem->count) != -1);
	atomic_long_set(&sem->owner, 0);
	atomic_long_set(&sem->count, 0);
	wake_up_all(&rwsem_wait);
}

/* downgrade_write - the writer becomes one reader. */
void downgrade_write(struct rw_semaphore *sem)
{
	WARN_ON_ONCE(atomic_long_read(&sem->count) != -1);
	atomic_long_set(&sem->owner, 0);
	atomic_long_set(&sem->count, 1);
	wake_up_all(&rwsem_wait);
}
