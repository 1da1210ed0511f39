/* SPDX-License-Identifier: GPL-2.0-only */
/* current per thread, the world lock, schedule(), yield(), schedule_timeout() and waking tasks. */
/*
 * See lx_world.h for the model.  The world is held by one host thread
 * (world_owner, its lx_host_thread_self()); acquiring it makes that
 * thread's task current.  This file never reads current: Linux's
 * this_cpu_read_stable() lets the compiler reuse one reading across
 * calls, which is right for a task but not across the calls that change
 * it here; world_task is the same pointer in plain memory.  A task sleeps in schedule() by preparing a host
 * wait on its own task_struct with interrupts off, after seeing its state
 * is not TASK_RUNNING, then letting the world go and waiting; a waker
 * sets the state to TASK_RUNNING and wakes that address, from any
 * context.  Interrupts off is the lock against handlers, so no wakeup
 * falls between the check and the wait.
 */
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lx_host.h>
#include <lx_world.h>

#define LX_WORLD_GUESTS	4	/* host threads entering at once */

static unsigned long world_owner;	/* host thread holding the world */
static struct task_struct *world_task;	/* its task (current) */
static unsigned int world_depth;	/* its nested lx_world_enter()s */
static unsigned int world_waiters;	/* threads waiting to take it */
static struct task_struct guest_task[LX_WORLD_GUESTS];
static unsigned long guest_thread[LX_WORLD_GUESTS];	/* 0: free */
static unsigned int guest_waiters;	/* threads waiting for a guest */
/* current while nobody holds the world (interrupts may read it), so that
 * it never names the freed task of an ended thread. */
static struct task_struct no_task = { .comm = "lx-none" };

struct lx_thread {
	void (*fn)(void *arg);
	void *arg;
	struct task_struct task;
};

/* Take the world for @self as @task with nesting @depth.  Interrupts on. */
static void world_acquire(unsigned long self, struct task_struct *task,
			  unsigned int depth)
{
	unsigned long flags;

	local_irq_save(flags);
	while (world_owner != 0) {
		world_waiters++;
		lx_host_wait_prepare(&world_owner);
		local_irq_restore(flags);
		lx_host_wait(0);
		local_irq_save(flags);
		world_waiters--;
	}
	world_owner = self;
	world_task = task;
	world_depth = depth;
	this_cpu_write(current_task, task);
	local_irq_restore(flags);
}

static void world_release(void)
{
	this_cpu_write(current_task, &no_task);
	world_task = NULL;
	world_owner = 0;
	world_depth = 0;
	if (world_waiters)
		lx_host_wakeup(&world_owner);
}

/* A free guest task for @self, waiting for one if all are taken.  A
 * guest task is only ever left while TASK_RUNNING, so it is reused as is
 * (named "graft"). */
static struct task_struct *guest_take(unsigned long self)
{
	unsigned long flags;
	int i;

	for (;;) {
		local_irq_save(flags);
		for (i = 0; i < LX_WORLD_GUESTS; i++) {
			if (guest_thread[i] == 0) {
				guest_thread[i] = self;
				local_irq_restore(flags);
				if (!guest_task[i].comm[0])
					strscpy(guest_task[i].comm, "graft",
						sizeof(guest_task[i].comm));
				return &guest_task[i];
			}
		}
		guest_waiters++;
		lx_host_wait_prepare(guest_thread);
		local_irq_restore(flags);
		lx_host_wait(0);
		local_irq_save(flags);
		guest_waiters--;
		local_irq_restore(flags);
	}
}

static void guest_give_back(struct task_struct *task)
{
	guest_thread[task - guest_task] = 0;
	if (guest_waiters)
		lx_host_wakeup(guest_thread);
}

static int is_guest(struct task_struct *task)
{
	return task >= guest_task && task < guest_task + LX_WORLD_GUESTS;
}

int lx_world_held(void)
{
	return world_owner != 0 && world_owner == lx_host_thread_self();
}

void lx_world_enter(void)
{
	unsigned long self = lx_host_thread_self();

	if (world_owner == self) {
		world_depth++;
		return;
	}
	world_acquire(self, guest_take(self), 1);
}

void lx_world_leave(void)
{
	struct task_struct *task = world_task;

	if (!lx_world_held() || world_depth == 0) {
		pr_err("linux-emu: lx_world_leave without the world\n");
		BUG();
	}
	if (--world_depth > 0)
		return;
	world_release();
	if (is_guest(task))
		guest_give_back(task);
}

int lx_world_try_enter(struct task_struct *task)
{
	if (world_owner != 0 || world_waiters != 0)
		return 0;
	world_owner = lx_host_thread_self();
	world_task = task;
	world_depth = 1;
	this_cpu_write(current_task, task);
	return 1;
}

void lx_world_try_leave(void)
{
	world_release();
}

int lx_world_run(int (*fn)(void *arg), void *arg)
{
	int ret;

	lx_world_enter();
	ret = fn(arg);
	lx_world_leave();
	return ret;
}

static void lx_thread_main(void *arg)
{
	struct lx_thread *t = arg;

	world_acquire(lx_host_thread_self(), &t->task, 1);
	t->fn(t->arg);
	world_release();
	kfree(t);
}

struct task_struct *lx_thread_start(const char *name, void (*fn)(void *arg),
				    void *arg)
{
	struct lx_thread *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->fn = fn;
	t->arg = arg;
	strscpy(t->task.comm, name, sizeof(t->task.comm));
	if (lx_host_thread_create(t->task.comm, lx_thread_main, t) != 0) {
		kfree(t);
		return NULL;
	}
	return &t->task;
}

/* Only a thread holding the world may sleep or yield: stop otherwise. */
static void check_may_schedule(unsigned long self)
{
	if (in_interrupt() || world_owner != self) {
		pr_err("linux-emu: schedule() %s (preempt count %#x)\n",
		       in_interrupt() ? "in interrupt context" :
		       "outside the Linux world", preempt_count());
		BUG();
	}
}

/* Sleep unless already woken, at most @ticks (0: no limit), letting the
 * world go meanwhile.  1 if the time ran out. */
static int sleep_ticks(unsigned long ticks)
{
	struct task_struct *me = world_task;
	unsigned long self = lx_host_thread_self();
	unsigned int depth = world_depth;
	unsigned long flags;
	int timed_out;

	check_may_schedule(self);
	local_irq_save(flags);
	if (READ_ONCE(me->__state) == TASK_RUNNING) {
		local_irq_restore(flags);
		return 0;
	}
	lx_host_wait_prepare(me);
	local_irq_restore(flags);
	world_release();
	timed_out = lx_host_wait(ticks);
	world_acquire(self, me, depth);
	if (timed_out)
		__set_current_state(TASK_RUNNING);
	return timed_out;
}

asmlinkage __visible void schedule(void)
{
	struct task_struct *me = world_task;
	unsigned long self = lx_host_thread_self();
	unsigned int depth = world_depth;

	check_may_schedule(self);
	if (READ_ONCE(me->__state) != TASK_RUNNING) {
		sleep_ticks(0);
		return;
	}
	/* Still runnable: a yield, which lets a waiting Linux thread of
	 * higher priority in. */
	world_release();
	world_acquire(self, me, depth);
}

int __cond_resched(void)
{
	schedule();
	return 0;
}

/* yield - let waiting world threads run before going on (usbcore's
 * usb_sg_wait, retrying a URB the controller could not queue). */
void yield(void)
{
	__set_current_state(TASK_RUNNING);
	schedule();
}

signed long schedule_timeout(signed long timeout)
{
	unsigned long expire;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		pr_err("linux-emu: schedule_timeout: wrong timeout %ld\n",
		       timeout);
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = jiffies + timeout;
	sleep_ticks(timeout ? timeout : 1);
	timeout = expire - jiffies;
	return timeout < 0 ? 0 : timeout;
}

signed long schedule_timeout_uninterruptible(signed long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

signed long schedule_timeout_interruptible(signed long timeout)
{
	__set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

signed long schedule_timeout_idle(signed long timeout)
{
	__set_current_state(TASK_IDLE);
	return schedule_timeout(timeout);
}

/* Any context.  1 if @p was in one of @state's states and now runs. */
static int wake_task(struct task_struct *p, unsigned int state)
{
	unsigned long flags;
	int woken = 0;

	local_irq_save(flags);
	if (READ_ONCE(p->__state) & state) {
		WRITE_ONCE(p->__state, TASK_RUNNING);
		lx_host_wakeup(p);
		woken = 1;
	}
	local_irq_restore(flags);
	return woken;
}

int wake_up_process(struct task_struct *p)
{
	return wake_task(p, TASK_NORMAL);
}

int wake_up_state(struct task_struct *p, unsigned int state)
{
	return wake_task(p, state);
}

int default_wake_function(struct wait_queue_entry *curr, unsigned int mode,
			  int wake_flags, void *key)
{
	return wake_task(curr->private, mode);
}
