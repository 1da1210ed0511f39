/* SPDX-License-Identifier: GPL-2.0-only */
/* The per-driver initcall table tools/linux_link.py generates (C types only). */
/*
 * One entry per linked driver and per shared manifest linked with one
 * (libata, ...: drivers-linux/README.md), in link order, ended by a NULL
 * name; a shared entry comes before the entries that use it.
 * calls[] holds the driver's initcall entries in Linux's level order:
 * the same entries the host's linker script gathers between
 * lx_host_initcall_start and lx_host_initcall_stop (each an int, the
 * offset from itself to the function: initcall_entry_t with
 * CONFIG_HAVE_ARCH_PREL32_RELOCATIONS); uses[] the indices of the
 * shared entries whose initcalls must run first, ended by -1.  Read by
 * lx_initcall.c.
 */
#ifndef LX_INITCALL_H
#define LX_INITCALL_H

struct lx_driver_initcalls {
	const char *name;		/* the manifest's driver: name */
	const int *const *calls;	/* @count entries, then NULL */
	int count;
	const short *uses;		/* table indices, then -1 */
	int shared;			/* a shared manifest, not a driver */
};

extern const struct lx_driver_initcalls lx_driver_initcall_table[];

#endif
