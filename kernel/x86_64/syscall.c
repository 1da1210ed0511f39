/* SPDX-License-Identifier: GPL-2.0-only */
/* The syscall MSRs and the dispatch of a trap number to kern/syscall_sw.c's table. */
#include <stdint.h>

#include "kern/syscall_sw.h"
#include "kern/task.h"
#include "x86_64/copy.h"
#include "x86_64/cpu.h"
#include "x86_64/gdt.h"
#include "x86_64/syscall.h"

#define MSR_STAR	0xc0000081
#define MSR_LSTAR	0xc0000082
#define MSR_SFMASK	0xc0000084
#define EFER_SCE	(1u << 0)

/* RFLAGS bits cleared on entry: TF, IF, DF, AC. */
#define SYSCALL_RFLAGS_MASK	((1u << 8) | (1u << 9) | (1u << 10) | (1u << 18))

extern char syscall_entry[];

static void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v),
			 "d"((uint32_t)(v >> 32)));
}

void syscall_init(void)
{
	/* SYSRET loads CS from STAR[63:48] + 16 and SS from + 8: the GDT
	 * keeps user code32, data, code64 in that order from SEL_UCODE32. */
	wrmsr(MSR_STAR, ((uint64_t)(SEL_UCODE32 & ~3) << 48) |
			((uint64_t)SEL_KCODE << 32));
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	wrmsr(MSR_SFMASK, SYSCALL_RFLAGS_MASK);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
}

void syscall_dispatch(struct trap_frame *f)
{
	int32_t number = (int32_t)f->rax;
	const struct mach_trap *trap = mach_trap_find(number);
	uint64_t a[MACH_TRAP_MAX_ARGS] = {
		f->rdi, f->rsi, f->rdx, f->r10, f->r8, f->r9, 0,
	};

	if (trap == NULL) {
		task_terminate_current("invalid trap number %d at rip %llx",
				       number, (unsigned long long)f->rip);
		return;
	}
	/* Arguments beyond six follow the return address on the user stack. */
	for (unsigned int i = 6; i < trap->nargs; i++) {
		if (copyin((const void *)(f->rsp + 8 * (i - 5)), &a[i], 8) != 0) {
			task_terminate_current("unreadable argument %u of trap "
					       "%d (user stack %llx)", i + 1,
					       number,
					       (unsigned long long)f->rsp);
			return;
		}
	}
	f->rax = trap->fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
	task_ast_check();
}
