/* SPDX-License-Identifier: GPL-2.0-only */
/* msleep, usleep_range and udelay: sleeping on jiffies, busy-waiting on the host's clock. */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched.h>

#include <lx_host.h>

/* Sleeping lets the Linux world go (lx_sched.c): callers hold it. */
void msleep(unsigned int msecs)
{
	/* One tick more: the current one is partly gone already. */
	unsigned long timeout = msecs_to_jiffies(msecs) + 1;

	while (timeout)
		timeout = schedule_timeout_uninterruptible(timeout);
}

unsigned long msleep_interruptible(unsigned int msecs)
{
	msleep(msecs);	/* no signals in Graft: never interrupted */
	return 0;
}

void usleep_range_state(unsigned long min, unsigned long max,
			unsigned int state)
{
	unsigned long timeout = usecs_to_jiffies(min) + 1;

	while (timeout) {
		__set_current_state(state);
		timeout = schedule_timeout(timeout);
	}
}

void __udelay(unsigned long usecs)
{
	lx_host_delay_ns(usecs * NSEC_PER_USEC);
}

void __ndelay(unsigned long nsecs)
{
	lx_host_delay_ns(nsecs);
}

/* @xloops is seconds times 2^32 (udelay passes microseconds times
 * 0x10c7, ndelay nanoseconds times 5: asm-generic/delay.h). */
void __const_udelay(unsigned long xloops)
{
	lx_host_delay_ns(((u64)xloops * NSEC_PER_SEC + 0xffffffffull) >> 32);
}
