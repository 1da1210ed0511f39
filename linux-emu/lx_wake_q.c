/* SPDX-License-Identifier: GPL-2.0-only */
/* Wake queues: wake_q_add, wake_up_q (kernel/locking/semaphore.c wakes its waiters so). */
/*
 * A waker queues tasks under its lock and wakes them once it let the
 * lock go.  Linux takes a reference on each queued task, since the task
 * may be woken otherwise and exit before wake_up_q; in the Linux world
 * a woken task runs only once the waker lets the world go, and the
 * callers here (semaphore.c's up) do not sleep between the two calls,
 * so no reference is needed.  Callers hold the world.
 */
#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/sched/wake_q.h>

/* wake_q_add - queue @task on @head for wake_up_q, unless it is queued
 * already (on this queue or another). */
void wake_q_add(struct wake_q_head *head, struct task_struct *task)
{
	struct wake_q_node *node = &task->wake_q;

	if (cmpxchg(&node->next, NULL, WAKE_Q_TAIL))
		return;
	*head->lastp = node;
	head->lastp = &node->next;
}

/* wake_up_q - wake each task of @head in the order queued, each free to
 * be queued again; @head itself is left as it was (wake_q_init it to
 * reuse it). */
void wake_up_q(struct wake_q_head *head)
{
	struct wake_q_node *node = head->first;
	struct task_struct *task;

	while (node != WAKE_Q_TAIL) {
		task = container_of(node, struct task_struct, wake_q);
		node = node->next;
		task->wake_q.next = NULL;
		wake_up_process(task);
	}
}
