/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel threads: kthread_create_on_node, kthread_stop, kthread_should_stop. */
/*
 * A kthread is a world thread (lx_thread_start) that sleeps, as Linux's
 * does, until its first wake_up_process, then runs its function.  Its
 * struct kthread lives apart from the task and is reached from the task
 * through worker_private, as in Linux.  The task_struct of a world thread
 * is freed when the thread returns, so a kthread whose function has
 * returned sleeps until kthread_stop has read its result: kthread_stop
 * never touches a freed task.  A kthread nobody stops keeps its host
 * thread sleeping for ever (Linux keeps such a task as a zombie until
 * it is reaped).  Not emulated: parking, freezing, CPU binding (one
 * CPU), signals (kthread_stop is the only way to end a wait early).
 */
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stdarg.h>

#include <lx_world.h>

struct kthread {
	int (*threadfn)(void *data);
	void *data;
	struct task_struct *task;
	bool should_stop;	/* kthread_stop asked */
	bool reaped;		/* kthread_stop read the result */
	int result;
	struct completion exited;	/* the function returned @result */
};

static struct kthread *to_kthread(struct task_struct *task)
{
	return task->worker_private;
}

/* Sleep until @flag is set (by kthread_stop, which wakes the task). */
static void sleep_until(const bool *flag)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(*flag))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* The thread's body: the task was made TASK_UNINTERRUPTIBLE by its
 * creator, so schedule() returns at its first wake-up (at once if it
 * came already); run the function unless stopped first, then wait until
 * kthread_stop has read the result. */
static void kthread_main(void *arg)
{
	struct kthread *k = arg;

	schedule();
	k->result = k->should_stop ? -EINTR : k->threadfn(k->data);
	complete(&k->exited);
	sleep_until(&k->reaped);
	kfree(k);
}

/*
 * kthread_create_on_node - a thread named by @namefmt that will run
 * @threadfn(@data) once woken (wake_up_process); @node is ignored.
 * Called holding the world.  Returns its task, or ERR_PTR(-ENOMEM).
 */
struct task_struct *kthread_create_on_node(int (*threadfn)(void *data),
					   void *data, int node,
					   const char namefmt[], ...)
{
	struct kthread *k;
	char name[TASK_COMM_LEN];
	va_list args;

	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return ERR_PTR(-ENOMEM);
	k->threadfn = threadfn;
	k->data = data;
	init_completion(&k->exited);
	va_start(args, namefmt);
	vsnprintf(name, sizeof(name), namefmt, args);
	va_end(args);
	k->task = lx_thread_start(name, kthread_main, k);
	if (!k->task) {
		kfree(k);
		return ERR_PTR(-ENOMEM);
	}
	/* The new thread waits for the world, which the caller holds: set
	 * before it runs. */
	k->task->worker_private = k;
	WRITE_ONCE(k->task->__state, TASK_UNINTERRUPTIBLE);
	return k->task;
}

/* kthread_should_stop - whether kthread_stop was called for current. */
bool kthread_should_stop(void)
{
	struct kthread *k = to_kthread(current);

	return k && READ_ONCE(k->should_stop);
}

/*
 * kthread_stop - tell @task (a kthread) to stop, wake it and wait until
 * its function returned; its result, or -EINTR if it was stopped before
 * it ever ran.  Called holding the world, from another thread, once per
 * kthread; @task is gone afterwards.
 */
int kthread_stop(struct task_struct *task)
{
	struct kthread *k = to_kthread(task);
	int result;

	WRITE_ONCE(k->should_stop, true);
	wake_up_process(task);
	wait_for_completion(&k->exited);
	result = k->result;
	WRITE_ONCE(k->reaped, true);
	wake_up_process(task);
	return result;
}
