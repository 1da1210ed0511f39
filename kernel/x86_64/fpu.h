/* SPDX-License-Identifier: GPL-2.0-only */
/* x87/SSE state of user threads (the kernel itself never uses it). */
#ifndef X86_64_FPU_H
#define X86_64_FPU_H

/* One thread's x87/SSE registers, in FXSAVE format. */
struct fpu_state {
	unsigned char area[512];
} __attribute__((aligned(16)));

/* Enable SSE for user code (CR0.MP, CR4.OSFXSR and OSXMMEXCPT; CR0.EM
 * off) and record the initial register state.  Once, at boot. */
void fpu_init(void);

/* Give @s the initial state (what a new thread starts with). */
void fpu_state_init(struct fpu_state *s);

/* Save the CPU's registers into @s / load them from @s.  Interrupts off. */
void fpu_save(struct fpu_state *s);
void fpu_restore(const struct fpu_state *s);

#endif
