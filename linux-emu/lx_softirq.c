/* SPDX-License-Identifier: GPL-2.0-only */
/* Bottom halves: open_softirq, raise_softirq, local_bh_enable, run at interrupt exit or in the lx-softirq thread. */
/*
 * Pending vectors are bits of irq_stat.__softirq_pending, as Linux keeps
 * them.  They run in softirq context (SOFTIRQ_OFFSET in the preempt
 * count) whenever nothing below forbids it (lx_world.h says where).  A
 * run that keeps finding new bits gives up after LX_SOFTIRQ_RESTARTS
 * rounds and leaves the rest to the thread, so an interrupt exit stays
 * bounded.  Linux runs every action with interrupts on, and tasklets
 * rely on it (usbcore's URB giveback tasklet takes its lock with
 * spin_lock_irq); an interrupt exit here has them off and must keep
 * them off, so the tasklet vectors (LX_SOFTIRQ_IRQS_ON) wait for the
 * thread or a local_bh_enable() with interrupts on.
 */
#include <linux/bottom_half.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/sched.h>

#include <lx_world.h>

#define LX_SOFTIRQ_RESTARTS	10
#define LX_SOFTIRQ_IRQS_ON	(BIT(HI_SOFTIRQ) | BIT(TASKLET_SOFTIRQ))

DEFINE_PER_CPU_SHARED_ALIGNED(irq_cpustat_t, irq_stat);

static struct softirq_action softirq_vec[NR_SOFTIRQS];
static struct task_struct *softirq_thread;

void open_softirq(int nr, void (*action)(struct softirq_action *))
{
	softirq_vec[nr].action = action;
}

void __raise_softirq_irqoff(unsigned int nr)
{
	or_softirq_pending(1u << nr);
}

void raise_softirq_irqoff(unsigned int nr)
{
	__raise_softirq_irqoff(nr);
	/* Interrupt exit or local_bh_enable runs it; else the thread. */
	if (!in_interrupt() && softirq_thread)
		wake_up_process(softirq_thread);
}

void raise_softirq(unsigned int nr)
{
	unsigned long flags;

	local_irq_save(flags);
	raise_softirq_irqoff(nr);
	local_irq_restore(flags);
}

/*
 * Run the pending vectors in softirq context.  Interrupts off on entry
 * and exit; with @irqs_on they are on while the actions run (thread
 * context), else the LX_SOFTIRQ_IRQS_ON vectors are left pending.  The
 * caller has checked !in_interrupt().  Inlined, so that an interrupt
 * exit's run (@irqs_on false) masks with constants.
 */
static __always_inline void run_pending(bool irqs_on)
{
	unsigned int restarts = LX_SOFTIRQ_RESTARTS;
	u32 runnable = irqs_on ? ~0u : ~(u32)LX_SOFTIRQ_IRQS_ON;
	u32 pending;

	__preempt_count_add(SOFTIRQ_OFFSET);
	while ((pending = local_softirq_pending() & runnable) != 0 &&
	       restarts-- > 0) {
		/* left pending: the vectors this run may not take */
		set_softirq_pending(local_softirq_pending() & ~runnable);
		if (irqs_on)
			local_irq_enable();
		while (pending) {
			unsigned int nr = __ffs(pending);

			pending &= ~(1u << nr);
			if (!softirq_vec[nr].action) {
				pr_err("linux-emu: softirq %u raised, no action\n",
				       nr);
				BUG();
			}
			softirq_vec[nr].action(&softirq_vec[nr]);
		}
		if (irqs_on)
			local_irq_disable();
	}
	__preempt_count_sub(SOFTIRQ_OFFSET);
	if (local_softirq_pending() && softirq_thread)
		wake_up_process(softirq_thread);
}

void lx_softirq_irq_exit(void)
{
	if (!in_interrupt() && local_softirq_pending())
		run_pending(false);
}

asmlinkage __visible void do_softirq(void)
{
	unsigned long flags;

	if (in_interrupt())
		return;
	local_irq_save(flags);
	/* two calls, so that each inlined run masks with constants */
	if (local_softirq_pending() && arch_irqs_disabled_flags(flags))
		run_pending(false);
	else if (local_softirq_pending())
		run_pending(true);
	local_irq_restore(flags);
}

void __local_bh_enable_ip(unsigned long ip, unsigned int cnt)
{
	/* Keep one count until the pending vectors ran, as Linux does. */
	__preempt_count_sub(cnt - 1);
	if (!in_interrupt() && local_softirq_pending())
		do_softirq();
	__preempt_count_sub(1);
}

static void softirq_thread_main(void *arg)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!local_softirq_pending()) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		do_softirq();
		cond_resched();
	}
}

int lx_softirq_init(void)
{
	softirq_thread = lx_thread_start("lx-softirq", softirq_thread_main,
					 NULL);
	return softirq_thread ? 0 : -ENOMEM;
}
