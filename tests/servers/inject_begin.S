/* SPDX-License-Identifier: GPL-2.0-only */
/* Linked right before linux.o in the fault-injection server (tests/servers/inject.c): where linux.o's code begins. */
	.text
	.globl	inject_linux_text_begin
inject_linux_text_begin:
	.section .note.GNU-stack,"",@progbits
