/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading and writing a user thread's saved registers (see thread_state.h). */
#include <stddef.h>
#include <stdint.h>

#include <graft/thread_state.h>
#include <mach/machine/thread_status.h>

#include "kern/string.h"
#include "kern/thread.h"
#include "vm/vm_map.h"
#include "x86_64/cpu.h"
#include "x86_64/gdt.h"
#include "x86_64/thread_state.h"
#include "x86_64/trap_frame.h"

#define RFLAGS_RESERVED1	(1ull << 1)
/* CF PF AF ZF SF DF OF, AC, ID: what a thread may set for itself. */
#define RFLAGS_USER_MASK	(0x0cd5ull | (1ull << 18) | (1ull << 21))

_Static_assert(sizeof(struct trap_frame) % 16 == 0,
	       "the frame keeps the kernel stack 16-byte aligned");
_Static_assert(offsetof(struct trap_frame, r11) == TRAP_FRAME_R11 &&
	       offsetof(struct trap_frame, rcx) == TRAP_FRAME_RCX &&
	       offsetof(struct trap_frame, vector) == TRAP_FRAME_VECTOR &&
	       offsetof(struct trap_frame, rip) == TRAP_FRAME_RIP &&
	       offsetof(struct trap_frame, cs) == TRAP_FRAME_CS &&
	       offsetof(struct trap_frame, rflags) == TRAP_FRAME_RFLAGS &&
	       offsetof(struct trap_frame, rsp) == TRAP_FRAME_RSP &&
	       offsetof(struct trap_frame, ss) == TRAP_FRAME_SS,
	       "trap_frame.h's offsets, which syscall_entry.S reads");

struct trap_frame *thread_state_frame(const struct thread *t)
{
	return (struct trap_frame *)((uint8_t *)t->stack + THREAD_STACK_SIZE -
				     sizeof(struct trap_frame));
}

void thread_state_init(struct trap_frame *f)
{
	memset(f, 0, sizeof(*f));
	f->cs = SEL_UCODE;
	f->ss = SEL_UDATA;
	f->rflags = RFLAGS_IF | RFLAGS_RESERVED1;
}

kern_return_t thread_state_set_entry(struct trap_frame *f, uint64_t rip,
				     uint64_t rsp, uint64_t arg)
{
	if (rip >= VM_MAX_ADDRESS || rsp > VM_MAX_ADDRESS)
		return KERN_INVALID_ARGUMENT;
	f->rip = rip;
	f->rsp = rsp;
	f->rdi = arg;
	return KERN_SUCCESS;
}

static bool flavor_known(int flavor)
{
	return flavor == i386_THREAD_STATE || flavor == i386_REGS_SEGS_STATE;
}

static kern_return_t get64(const struct trap_frame *f, natural_t *state,
			   natural_t *count)
{
	struct graft_thread_state_x86_64 s = {
		.r15 = f->r15, .r14 = f->r14, .r13 = f->r13, .r12 = f->r12,
		.r11 = f->r11, .r10 = f->r10, .r9 = f->r9, .r8 = f->r8,
		.rbp = f->rbp, .rdi = f->rdi, .rsi = f->rsi, .rdx = f->rdx,
		.rcx = f->rcx, .rbx = f->rbx, .rax = f->rax,
		.rip = f->rip, .rflags = f->rflags, .rsp = f->rsp,
	};

	if (*count < GRAFT_THREAD_STATE_X86_64_COUNT)
		return KERN_INVALID_ARGUMENT;
	memcpy(state, &s, sizeof(s));
	*count = GRAFT_THREAD_STATE_X86_64_COUNT;
	return KERN_SUCCESS;
}

static kern_return_t set64(struct trap_frame *f, const natural_t *state,
			   natural_t count)
{
	struct graft_thread_state_x86_64 s;
	struct trap_frame n = *f;

	if (count < GRAFT_THREAD_STATE_X86_64_COUNT)
		return KERN_INVALID_ARGUMENT;
	memcpy(&s, state, sizeof(s));
	if (thread_state_set_entry(&n, s.rip, s.rsp, s.rdi) != KERN_SUCCESS)
		return KERN_INVALID_ARGUMENT;
	n.r15 = s.r15;
	n.r14 = s.r14;
	n.r13 = s.r13;
	n.r12 = s.r12;
	n.r11 = s.r11;
	n.r10 = s.r10;
	n.r9 = s.r9;
	n.r8 = s.r8;
	n.rbp = s.rbp;
	n.rsi = s.rsi;
	n.rdx = s.rdx;
	n.rcx = s.rcx;
	n.rbx = s.rbx;
	n.rax = s.rax;
	n.rflags = (s.rflags & RFLAGS_USER_MASK) | RFLAGS_IF |
		   RFLAGS_RESERVED1;
	*f = n;
	return KERN_SUCCESS;
}

kern_return_t thread_state_get(const struct trap_frame *f, int flavor,
			       natural_t *state, natural_t *count)
{
	struct i386_thread_state s;

	if (flavor == GRAFT_THREAD_STATE_X86_64)
		return get64(f, state, count);
	if (!flavor_known(flavor) || *count < i386_THREAD_STATE_COUNT)
		return KERN_INVALID_ARGUMENT;
	s = (struct i386_thread_state){
		.gs = SEL_UDATA, .fs = SEL_UDATA,
		.es = SEL_UDATA, .ds = SEL_UDATA,
		.edi = (natural_t)f->rdi, .esi = (natural_t)f->rsi,
		.ebp = (natural_t)f->rbp, .esp = (natural_t)f->rsp,
		.ebx = (natural_t)f->rbx, .edx = (natural_t)f->rdx,
		.ecx = (natural_t)f->rcx, .eax = (natural_t)f->rax,
		.eip = (natural_t)f->rip, .cs = (natural_t)f->cs,
		.efl = (natural_t)f->rflags, .uesp = (natural_t)f->rsp,
		.ss = (natural_t)f->ss,
	};
	memcpy(state, &s, sizeof(s));
	*count = i386_THREAD_STATE_COUNT;
	return KERN_SUCCESS;
}

static bool data_selector_ok(natural_t sel)
{
	return sel == 0 || sel == SEL_UDATA;
}

kern_return_t thread_state_set(struct trap_frame *f, int flavor,
			       const natural_t *state, natural_t count)
{
	struct i386_thread_state s;
	struct trap_frame n = *f;

	if (flavor == GRAFT_THREAD_STATE_X86_64)
		return set64(f, state, count);
	if (!flavor_known(flavor) || count < i386_THREAD_STATE_COUNT)
		return KERN_INVALID_ARGUMENT;
	memcpy(&s, state, sizeof(s));
	if (s.cs != SEL_UCODE || s.ss != SEL_UDATA ||
	    !data_selector_ok(s.ds) || !data_selector_ok(s.es) ||
	    !data_selector_ok(s.fs) || !data_selector_ok(s.gs))
		return KERN_INVALID_ARGUMENT;
	if (thread_state_set_entry(&n, s.eip, s.uesp, s.edi) != KERN_SUCCESS)
		return KERN_INVALID_ARGUMENT;
	n.rsi = s.esi;
	n.rbp = s.ebp;
	n.rbx = s.ebx;
	n.rdx = s.edx;
	n.rcx = s.ecx;
	n.rax = s.eax;
	n.rflags = (s.efl & RFLAGS_USER_MASK) | RFLAGS_IF |
		   RFLAGS_RESERVED1;
	*f = n;
	return KERN_SUCCESS;
}
