/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_host_clock_start, lx_host_delay_ns and lx_host_io_delay inside the Graft kernel. */
#include <stddef.h>

#include "kern/clock.h"
#include "kern/panic.h"
#include "linux-emu/include/lx_host.h"
#include "x86_64/cpu.h"
#include "x86_64/tsc.h"

static struct timeout every_tick;

/* A timeout that sets itself again for the next tick. */
static void tick(void *arg)
{
	void (*fn)(void) = (void (*)(void))arg;

	timeout_set(&every_tick, 1, tick, arg);
	fn();
}

unsigned long lx_host_clock_start(void (*fn)(void))
{
	uint64_t flags = cpu_intr_save();

	if (every_tick.fn != NULL)
		panic("lx_host_clock_start: the Linux clock runs already");
	timeout_set(&every_tick, 1, tick, (void *)fn);
	cpu_intr_restore(flags);
	return HZ;
}

void lx_host_delay_ns(unsigned long ns)
{
	uint64_t start = rdtsc_fenced();
	uint64_t span = ns * tsc_hz() / 1000000000ull + 1;

	while (rdtsc_fenced() - start < span)
		__asm__ volatile("pause");
}

void lx_host_io_delay(void)
{
	__asm__ volatile("outb %%al, $0x80" : : : "memory");
}
