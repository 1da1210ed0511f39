/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot steps: work a layer above the kernel registers for kmain to run when the command line asks. */
#ifndef KERN_BOOT_STEP_H
#define KERN_BOOT_STEP_H

/*
 * A boot step runs once, in the boot thread (it may sleep), after the
 * device layer is up and before the boot tasks start, if the word @word
 * is on the kernel command line ("linux" starts the Linux drivers,
 * mach-glue/kernel/lx_boot.c).  The kernel names no step: each registers
 * itself with BOOT_STEP(ident, word, fn), which puts an entry into the
 * linker section "boot_steps"; steps run in link order.
 */
struct boot_step {
	const char *word;
	void (*run)(void);
};

#define BOOT_STEP(ident, step_word, fn)					\
	static const struct boot_step ident				\
	__attribute__((used, section("boot_steps"), aligned(8))) = {	\
		.word = (step_word),					\
		.run = (fn),						\
	}

extern const struct boot_step __start_boot_steps[] __attribute__((weak));
extern const struct boot_step __stop_boot_steps[] __attribute__((weak));

/* boot_steps_run - run every registered step whose word is on
 * @cmdline.  Once, from kmain. */
void boot_steps_run(const char *cmdline);

#endif
