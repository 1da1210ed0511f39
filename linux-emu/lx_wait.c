/* SPDX-License-Identifier: GPL-2.0-only */
/* Wait queues: heads, entries, prepare/finish, __wake_up and the wake functions. */
/*
 * A wait queue is Linux's list of entries, each with a wake function
 * (normally waking the task in ->private).  Interrupts off is the lock
 * (uniprocessor; wakers may be interrupt handlers), so the head's own
 * spinlock is only initialised.  No signals in Graft: nothing here ever
 * ends a wait with -ERESTARTSYS.
 */
#include <linux/irqflags.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

void __init_waitqueue_head(struct wait_queue_head *wq_head, const char *name,
			   struct lock_class_key *key)
{
	spin_lock_init(&wq_head->lock);
	INIT_LIST_HEAD(&wq_head->head);
}

void init_wait_entry(struct wait_queue_entry *wq_entry, int flags)
{
	wq_entry->flags = flags;
	wq_entry->private = current;
	wq_entry->func = autoremove_wake_function;
	INIT_LIST_HEAD(&wq_entry->entry);
}

/* Queue @wq_entry: exclusive waiters at the tail, others at the head
 * (so that the others are all woken first).  Interrupts off. */
static void queue_entry(struct wait_queue_head *wq_head,
			struct wait_queue_entry *wq_entry)
{
	if (wq_entry->flags & WQ_FLAG_EXCLUSIVE)
		list_add_tail(&wq_entry->entry, &wq_head->head);
	else
		list_add(&wq_entry->entry, &wq_head->head);
}

static void add_entry(struct wait_queue_head *wq_head,
		      struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	local_irq_save(flags);
	queue_entry(wq_head, wq_entry);
	local_irq_restore(flags);
}

void add_wait_queue(struct wait_queue_head *wq_head,
		    struct wait_queue_entry *wq_entry)
{
	wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
	add_entry(wq_head, wq_entry);
}

void add_wait_queue_exclusive(struct wait_queue_head *wq_head,
			      struct wait_queue_entry *wq_entry)
{
	wq_entry->flags |= WQ_FLAG_EXCLUSIVE;
	add_entry(wq_head, wq_entry);
}

void remove_wait_queue(struct wait_queue_head *wq_head,
		       struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	local_irq_save(flags);
	list_del_init(&wq_entry->entry);
	local_irq_restore(flags);
}

/* Queue @wq_entry (once) and set the task's state.  Interrupts off. */
static void prepare_locked(struct wait_queue_head *wq_head,
			   struct wait_queue_entry *wq_entry, int state)
{
	if (list_empty(&wq_entry->entry))
		queue_entry(wq_head, wq_entry);
	set_current_state(state);
}

void prepare_to_wait(struct wait_queue_head *wq_head,
		     struct wait_queue_entry *wq_entry, int state)
{
	unsigned long flags;

	wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
	local_irq_save(flags);
	prepare_locked(wq_head, wq_entry, state);
	local_irq_restore(flags);
}

bool prepare_to_wait_exclusive(struct wait_queue_head *wq_head,
			       struct wait_queue_entry *wq_entry, int state)
{
	unsigned long flags;
	bool was_empty;

	wq_entry->flags |= WQ_FLAG_EXCLUSIVE;
	local_irq_save(flags);
	was_empty = list_empty(&wq_head->head);
	prepare_locked(wq_head, wq_entry, state);
	local_irq_restore(flags);
	return was_empty;
}

long prepare_to_wait_event(struct wait_queue_head *wq_head,
			   struct wait_queue_entry *wq_entry, int state)
{
	unsigned long flags;

	local_irq_save(flags);
	prepare_locked(wq_head, wq_entry, state);
	local_irq_restore(flags);
	return 0;
}

void finish_wait(struct wait_queue_head *wq_head,
		 struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	local_irq_save(flags);
	list_del_init(&wq_entry->entry);
	local_irq_restore(flags);
}

int autoremove_wake_function(struct wait_queue_entry *wq_entry,
			     unsigned int mode, int sync, void *key)
{
	int woken = default_wake_function(wq_entry, mode, sync, key);

	if (woken)
		list_del_init(&wq_entry->entry);
	return woken;
}

/* Call the wake functions of @wq_head's entries; stop after
 * @nr_exclusive exclusive ones were woken (0: wake all).  Returns how
 * many of the @nr_exclusive were not used. */
static int wake_locked(struct wait_queue_head *wq_head, unsigned int mode,
			int nr_exclusive, void *key)
{
	struct wait_queue_entry *curr, *next;

	list_for_each_entry_safe(curr, next, &wq_head->head, entry) {
		unsigned int flags = curr->flags;
		int ret = curr->func(curr, mode, 0, key);

		if (ret < 0)
			break;
		if (ret && (flags & WQ_FLAG_EXCLUSIVE) && !--nr_exclusive)
			break;
	}
	return nr_exclusive;
}

/* Returns how many exclusive waiters were woken. */
int __wake_up(struct wait_queue_head *wq_head, unsigned int mode,
	      int nr_exclusive, void *key)
{
	unsigned long flags;
	int remaining;

	local_irq_save(flags);
	remaining = wake_locked(wq_head, mode, nr_exclusive, key);
	local_irq_restore(flags);
	return nr_exclusive - remaining;
}

void __wake_up_locked(struct wait_queue_head *wq_head, unsigned int mode,
		      int nr)
{
	wake_locked(wq_head, mode, nr, NULL);
}

void __wake_up_locked_key(struct wait_queue_head *wq_head, unsigned int mode,
			  void *key)
{
	wake_locked(wq_head, mode, 1, key);
}
