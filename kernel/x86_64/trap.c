/* SPDX-License-Identifier: GPL-2.0-only */
/* Turns a CPU exception into a readable report: vector, error code, registers, backtrace. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/backtrace.h"
#include "kern/intr.h"
#include "kern/kprintf.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "kern/task.h"
#include "vm/vm_map.h"
#include "x86_64/copy.h"
#include "x86_64/cpu.h"
#include "x86_64/trap.h"

static const char *const names[32] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint",
	"#OF overflow", "#BR bound range", "#UD invalid opcode",
	"#NM device not available", "#DF double fault",
	"coprocessor segment overrun", "#TS invalid TSS",
	"#NP segment not present", "#SS stack fault",
	"#GP general protection", "#PF page fault", "reserved 15",
	"#MF x87 error", "#AC alignment check", "#MC machine check",
	"#XM SIMD error", "#VE virtualization", "#CP control protection",
	"reserved 22", "reserved 23", "reserved 24", "reserved 25",
	"reserved 26", "reserved 27", "#HV hypervisor injection",
	"#VC VMM communication", "#SX security", "reserved 31",
};

static struct trap_catch *armed;
static trap_ud_fixup_t ud_fixup;

const char *trap_name(uint64_t vector)
{
	if (vector < 32)
		return names[vector];
	return "unexpected interrupt";
}

void trap_catch_arm(struct trap_catch *c)
{
	uint64_t flags = cpu_intr_save();

	c->rflags = flags;
	armed = c;
	cpu_intr_restore(flags);
}

void trap_ud_fixup_set(trap_ud_fixup_t fn)
{
	ud_fixup = fn;
}

void trap_catch_disarm(void)
{
	armed = NULL;
}

static void trap_report(const char *heading, const struct trap_frame *f,
			uint64_t cr2)
{
	kprintf("%s: %s (vector %llu, error code 0x%llx)\n", heading,
		trap_name(f->vector), (unsigned long long)f->vector,
		(unsigned long long)f->error);
	kprintf("  RIP %016llx  ", (unsigned long long)f->rip);
	backtrace_print_symbol(f->rip);
	kprintf("\n");
	kprintf("  RSP %016llx  RFLAGS %016llx  CS %04llx  SS %04llx\n",
		(unsigned long long)f->rsp, (unsigned long long)f->rflags,
		(unsigned long long)f->cs, (unsigned long long)f->ss);
	kprintf("  RAX %016llx  RBX %016llx  RCX %016llx\n",
		(unsigned long long)f->rax, (unsigned long long)f->rbx,
		(unsigned long long)f->rcx);
	kprintf("  RDX %016llx  RSI %016llx  RDI %016llx\n",
		(unsigned long long)f->rdx, (unsigned long long)f->rsi,
		(unsigned long long)f->rdi);
	kprintf("  RBP %016llx  R8  %016llx  R9  %016llx\n",
		(unsigned long long)f->rbp, (unsigned long long)f->r8,
		(unsigned long long)f->r9);
	kprintf("  R10 %016llx  R11 %016llx  R12 %016llx\n",
		(unsigned long long)f->r10, (unsigned long long)f->r11,
		(unsigned long long)f->r12);
	kprintf("  R13 %016llx  R14 %016llx  R15 %016llx\n",
		(unsigned long long)f->r13, (unsigned long long)f->r14,
		(unsigned long long)f->r15);
	kprintf("  CR2 %016llx  CR3 %016llx  CR0 %016llx  CR4 %016llx\n",
		(unsigned long long)cr2, (unsigned long long)read_cr3(),
		(unsigned long long)read_cr0(), (unsigned long long)read_cr4());
	backtrace_print_trap(f->rip, f->rsp, f->rbp);
}

vm_prot_t trap_pf_access(uint64_t error)
{
	if (error & TRAP_PF_FETCH)
		return VM_PROT_EXECUTE;
	if (error & TRAP_PF_WRITE)
		return VM_PROT_WRITE;
	return VM_PROT_READ;
}

/*
 * A kernel-mode page fault at user address @cr2: demand paging of the
 * active map (copyin/copyout touching a page for the first time), or the
 * failure path of copyin/copyout.  True if @f can resume.  Runs with
 * interrupts off on the interrupted stack, which trap_entry.S aligned.
 */
static bool trap_kernel_fault_on_user(struct trap_frame *f, uint64_t cr2)
{
	struct vm_map *map = vm_map_active();
	uint64_t resume;

	if (map != NULL && !(f->error & TRAP_PF_RSVD) &&
	    vm_map_fault(map, cr2, trap_pf_access(f->error)) == KERN_SUCCESS)
		return true;
	resume = copy_fault_fixup(f->rip);
	if (resume == 0)
		return false;
	f->rip = resume;
	return true;
}

void trap_dispatch(struct trap_frame *f)
{
	uint64_t cr2;
	struct trap_catch *c = armed;

	if (f->vector >= INTR_VECTOR_BASE &&
	    f->vector < INTR_VECTOR_BASE + INTR_LINES) {
		intr_dispatch(f->vector - INTR_VECTOR_BASE);
		sched_preempt_point();
		if ((f->cs & 3) != 0)
			task_ast_check();
		return;
	}
	cr2 = read_cr2();
	if ((f->cs & 3) != 0) {
		/* User mode: demand paging, else the task ends (trap_user.c).
		 * Nothing a task does reaches the panic below. */
		if (f->vector == TRAP_PF)
			trap_user_fault(f, cr2);
		else
			trap_user_exception(f);
		return;
	}
	if (f->vector == TRAP_PF && cr2 < VM_MAX_ADDRESS &&
	    trap_kernel_fault_on_user(f, cr2))
		return;
	if (f->vector == TRAP_UD && ud_fixup != NULL) {
		uint64_t resume = ud_fixup(f->rip, f->rsp);

		if (resume != 0) {
			f->rip = resume;
			return;
		}
	}
	if (c != NULL && f->vector < 32) {
		armed = NULL;
		trap_report("*** expected trap (caught by a test)", f, cr2);
		c->vector = f->vector;
		c->error = f->error;
		c->rip = f->rip;
		c->cr2 = cr2;
		/* The gate cleared IF; jmp_restore does not put it back. */
		cpu_intr_restore(c->rflags);
		jmp_restore(&c->jb, 1);
	}
	trap_report("*** PANIC: CPU exception", f, cr2);
	panic_exit();
}
