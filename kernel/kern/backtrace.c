/* SPDX-License-Identifier: GPL-2.0-only */
/* Walks %rbp frames and prints return addresses with their symbols. */
#include <stddef.h>
#include <stdint.h>

#include "kern/backtrace.h"
#include "kern/kprintf.h"
#include "kern/ksyms.h"
#include "kern/thread.h"
#include "x86_64/layout.h"

void backtrace_print_symbol(uint64_t addr)
{
	uint64_t off;
	const char *name = ksyms_lookup(addr, &off);

	if (name == NULL)
		kprintf("?");
	else
		kprintf("%s+0x%llx", name, (unsigned long long)off);
}

static int frame_is_sane(uint64_t rbp)
{
	/* Stacks live in the kernel image (boot, idle, IST) or in the
	 * direct map (kalloc'ed thread stacks). */
	if (rbp == 0 || (rbp & 7) != 0)
		return 0;
	if (rbp >= (uint64_t)_kernel_start && rbp + 16 <= (uint64_t)_kernel_end)
		return 1;
	return rbp >= DIRECT_MAP_BASE &&
	       rbp + 16 <= DIRECT_MAP_BASE + DIRECT_MAP_SIZE;
}

static void print_entry(const char *mark, uint64_t addr)
{
	kprintf("  [%016llx] %s", (unsigned long long)addr, mark);
	backtrace_print_symbol(addr);
	kprintf("\n");
}

static void walk_frames(uint64_t rbp)
{
	for (int depth = 0; depth < BACKTRACE_MAX_DEPTH; depth++) {
		const uint64_t *frame = (const uint64_t *)rbp;
		uint64_t ret;

		if (!frame_is_sane(rbp))
			return;
		ret = frame[1];
		if (ret == 0)
			return;
		print_entry("", ret);
		if (frame[0] <= rbp)	/* stacks grow down: must go up */
			return;
		rbp = frame[0];
	}
	kprintf("  ... (deeper frames not shown)\n");
}

void backtrace_print(uint64_t pc, uint64_t rbp)
{
	kprintf("Backtrace:\n");
	print_entry("", pc);
	walk_frames(rbp);
}

void backtrace_print_trap(uint64_t pc, uint64_t sp, uint64_t rbp)
{
	uint64_t off, word = 0;

	kprintf("Backtrace:\n");
	print_entry("", pc);
	if (frame_is_sane(sp))
		word = *(const uint64_t *)sp;
	if (ksyms_lookup(word, &off) != NULL &&
	    !(frame_is_sane(rbp) && ((const uint64_t *)rbp)[1] == word))
		print_entry("? ", word);
	walk_frames(rbp);
}

/* x86_64/boot.S: the boot thread's stack, THREAD_STACK_SIZE bytes too. */
extern char boot_stack_top[];

void backtrace_print_scan(uint64_t pc, uint64_t sp)
{
	const struct thread *self = thread_current();
	uint64_t top = self->stack != NULL ?
		(uint64_t)self->stack + THREAD_STACK_SIZE :
		(uint64_t)boot_stack_top;
	uint64_t bottom = top - THREAD_STACK_SIZE;
	const uint64_t *word = (const uint64_t *)(sp & ~7ull);
	unsigned int words = 0, shown = 0;
	uint64_t off;

	print_entry("", pc);
	if (sp < bottom || sp >= top) {
		kprintf("  (stack 0x%llx is not this thread's)\n",
			(unsigned long long)sp);
		return;
	}
	while ((uint64_t)(word + 1) <= top && words < BACKTRACE_SCAN_WORDS) {
		if (ksyms_lookup(*word, &off) != NULL) {
			if (shown == BACKTRACE_MAX_DEPTH) {
				kprintf("  ... (deeper frames not shown)\n");
				return;
			}
			print_entry("? ", *word);
			shown++;
		}
		word++;
		words++;
	}
}
