/* SPDX-License-Identifier: GPL-2.0-only */
/* Ending a boot with a verdict the test harness can read. */
#ifndef KERN_MACHINE_H
#define KERN_MACHINE_H

enum machine_exit_status {
	MACHINE_EXIT_PASS,
	MACHINE_EXIT_FAIL,
	MACHINE_EXIT_PANIC,
};

enum machine_exit_method {
	MACHINE_EXIT_QEMU,	/* isa-debug-exit at port 0x501 */
	MACHINE_EXIT_BOCHS,	/* "Shutdown" written to port 0x8900 */
};

/* Choose how machine_exit() leaves the emulator (default: QEMU). */
void machine_set_exit_method(enum machine_exit_method m);

/* Print "GRAFT-EXIT: pass|fail|panic", leave the emulator with that status
 * (QEMU exits 33, 35 or 37), and halt if the emulator did not stop. */
void machine_exit(enum machine_exit_status s) __attribute__((noreturn));

#endif
