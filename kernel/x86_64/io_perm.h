/* SPDX-License-Identifier: GPL-2.0-only */
/* I/O permission objects: a port range a task may be granted (mach_i386.defs). */
#ifndef X86_64_IO_PERM_H
#define X86_64_IO_PERM_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>

struct ipc_port;
struct ledger;
struct task;

/*
 * An io_perm names the ports [from, to].  It is a kernel object of type
 * IKOT_IO_PERM (kernel/kern/task_port.h) that lives while send rights to
 * its port exist: its no-senders notification comes back to the kernel
 * (io_perm_no_senders) and frees it.  Granting copies the range into the
 * task's I/O bitmap (io_bitmap.h); the object itself is not referenced by
 * the task afterwards.
 *
 * Locking: one CPU; the IPC calls inside disable interrupts themselves.
 * Nothing here blocks.
 */
struct io_perm {
	uint16_t from, to;
	struct ipc_port *port;		/* the kernel's receive right */
	struct ledger *ledger;		/* the creating task's, charged */
};

/*
 * io_perm_create - a new io_perm for [@from, @to], with its port and the
 * no-senders request that will free it; the caller makes the first send
 * right (io_perm_make_send).  It is charged to the calling task's
 * ledger (LEDGER_IO_PERMS, kern/ledger.h) until freed.  KERN_SUCCESS,
 * KERN_INVALID_ARGUMENT (@from > @to) or KERN_RESOURCE_SHORTAGE (the
 * task holds LEDGER_IO_PERMS objects already, or memory is short).
 */
kern_return_t io_perm_create(uint16_t from, uint16_t to,
			     struct io_perm **out);

/* io_perm_make_send - a new send right to @perm's port. */
struct ipc_port *io_perm_make_send(struct io_perm *perm);

/* The io_perm behind @port, or NULL if it is not a live io_perm port. */
struct io_perm *io_perm_from_port(struct ipc_port *port);

/*
 * io_perm_no_senders - the no-senders notification of @port arrived:
 * free its io_perm if @port is a live io_perm port that has no send
 * rights (a forged notification changes nothing).  True if freed.
 */
bool io_perm_no_senders(struct ipc_port *port);

/*
 * io_perm_apply - grant (@enable) or withdraw @perm's ports to @task,
 * taking effect before @task next runs in user mode (at once if it is the
 * caller).  KERN_SUCCESS or KERN_RESOURCE_SHORTAGE (no change).
 */
kern_return_t io_perm_apply(struct task *task, const struct io_perm *perm,
			    bool enable);

/* io_perm objects alive (for leak checks in tests). */
extern unsigned int io_perm_count;

#endif
