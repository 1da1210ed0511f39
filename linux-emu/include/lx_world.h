/* SPDX-License-Identifier: GPL-2.0-only */
/* Linux side only: entering the Linux world, its threads, and running softirqs (lx_sched.c, lx_softirq.c). */
/*
 * The Linux world behaves as one uniprocessor running PREEMPT_NONE Linux:
 * at most one thread runs Linux code at a time and it changes only where
 * Linux code sleeps (schedule()), because on UP without preemption
 * spin_lock() is no lock at all.  That thread holds the world; Graft may
 * still preempt it for threads outside the world, and interrupts (hard
 * IRQs, then softirqs at their exit) run on top of it as in Linux.
 * Holding the world sets current_task, so current is per thread.
 *
 * Rules for linux-emu's files:
 * - Every lx_emul_* function the host calls from a thread runs its Linux
 *   work through lx_world_run() (or brackets it with lx_world_enter() /
 *   lx_world_leave()).  A function must not read current both before
 *   and after lx_world_enter() or lx_world_leave(): Linux reads current
 *   with an asm the compiler may move and reuse across calls, as a task
 *   never changes under itself; lx_world_run() keeps the work in a
 *   function of its own.  Callbacks the
 *   host runs in interrupt context (a line's handler, the clock tick) do
 *   not: they run on top of whoever holds the world, with HARDIRQ_OFFSET
 *   or SOFTIRQ_OFFSET in the preempt count.
 * - Threads that run Linux code are started with lx_thread_start(); they
 *   hold the world while their function runs.
 * - Bottom halves are Linux's own interface: open_softirq(nr, action) once,
 *   then raise_softirq(nr) (or __raise_softirq_irqoff / raise_softirq_irqoff
 *   with interrupts off).  The action runs with SOFTIRQ_OFFSET in the
 *   preempt count at the end of the hard IRQ or clock tick that raised it
 *   (interrupts off there; never the tasklet vectors, which Linux runs
 *   with interrupts on), at local_bh_enable() when that ends the last
 *   bottom-half-disabled section (interrupts on), or else in the
 *   "lx-softirq" thread (interrupts on).  NET_RX_SOFTIRQ / NET_TX_SOFTIRQ
 *   are free for NAPI; TIMER_SOFTIRQ runs the timer_list timers.
 */
#ifndef LX_WORLD_H
#define LX_WORLD_H

#include <linux/types.h>

struct device;
struct task_struct;

/*
 * lx_world_enter - make the calling host thread hold the Linux world,
 * waiting while another thread holds it; a thread that holds it already
 * just nests.  A thread not started by lx_thread_start() gets a
 * task_struct of its own for as long as it holds the world (from a pool
 * of four; more such threads at once wait for a free one).  Thread
 * context; may block, so never from a path that must not (a device op
 * inside a kernel-object handler hands its work to a world thread).
 */
void lx_world_enter(void);

/* lx_world_leave - undo one lx_world_enter(); the outermost one lets the
 * world go to the next thread. */
void lx_world_leave(void);

/* lx_world_run - @fn(@arg) holding the world (lx_world_enter, then
 * lx_world_leave); returns what @fn returns. */
int lx_world_run(int (*fn)(void *arg), void *arg);

/*
 * lx_world_try_enter - make the calling host thread hold the world as
 * @task without waiting: only if nobody holds it and nobody waits for
 * it.  Interrupts off, and they stay off until lx_world_try_leave(), so
 * the holder runs only what never sleeps (ndo_start_xmit, softirqs).
 * 1 if taken; 0 if not (nothing changed).  For host paths that must not
 * block (a device op); @task is the caller's own, never used by two at
 * once.
 * lx_world_try_leave - let the world go again; interrupts still off.
 */
int lx_world_try_enter(struct task_struct *task);
void lx_world_try_leave(void);

/* lx_world_held - whether the calling thread holds the world. */
int lx_world_held(void);

/*
 * lx_thread_start - run @fn(@arg) in a new host thread with a task_struct
 * of its own named @name (truncated to TASK_COMM_LEN - 1), holding the
 * world; the thread ends when @fn returns and its task_struct is freed.
 * Returns the task (valid until @fn returns), or NULL (no memory, no
 * thread).  Callable with or without the world.
 */
struct task_struct *lx_thread_start(const char *name, void (*fn)(void *arg),
				    void *arg);

/*
 * lx_softirq_irq_exit - what an interrupt handler of the host calls last
 * (interrupts off): runs the pending softirqs unless the interrupt came
 * inside a hard IRQ, a softirq or a bottom-half-disabled section, whose
 * end will run them.
 */
void lx_softirq_irq_exit(void);

/* lx_softirq_init, lx_workqueue_init - start the "lx-softirq" thread and
 * the system workqueues' workers (lx_emul_init).  0 or -ENOMEM. */
int lx_softirq_init(void);
int lx_workqueue_init(void);

/* lx_tasklet_init - give TASKLET_SOFTIRQ and HI_SOFTIRQ their actions
 * (lx_tasklet.c, from lx_emul_init). */
void lx_tasklet_init(void);

/* lx_paravirt_init - take the host's direct map base (lx_paravirt.c,
 * first thing lx_emul_init does: __va() and __pa() are valid after). */
void lx_paravirt_init(void);

/* lx_pm_runtime_init - runtime PM as pm_runtime_init() leaves it: disabled
 * once, suspended, allowed (lx_pm_runtime.c, from device_initialize). */
void lx_pm_runtime_init(struct device *dev);

/* lx_page_init - build the struct page array for the host's RAM
 * (lx_page.c, from lx_emul_init).  0; -EBUSY if built already; -ENOMEM.
 * lx_page_ready - whether it is built (virt_to_page() may be used). */
int lx_page_init(void);
bool lx_page_ready(void);

/* lx_timer_init - start jiffies and timers on the host's clock tick
 * (lx_timer.c, from lx_emul_init).  0; -EINVAL if the tick rate is not
 * HZ. */
int lx_timer_init(void);

/* lx_hrtimer_tick - run the hrtimers whose soft expiry has come
 * in hard IRQ context (lx_hrtimer.c, from the clock tick, interrupts
 * off). */
void lx_hrtimer_tick(void);

#endif
