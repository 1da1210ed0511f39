/* SPDX-License-Identifier: GPL-2.0-only */
/* Linked right after linux.o in the fault-injection server (tests/servers/inject.c): where linux.o's code ends. */
	.text
	.globl	inject_linux_text_end
inject_linux_text_end:
	.section .note.GNU-stack,"",@progbits
