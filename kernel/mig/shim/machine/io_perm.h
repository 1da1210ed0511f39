/* SPDX-License-Identifier: GPL-2.0-only */
/* Stands in for GNU Mach's <machine/io_perm.h> in MIG's kernel server stubs. */
#include "graft_mig.h"

#include <mach/machine/mach_i386_types.h>

/* intran / outtran / destructor of io_perm_t (mach_i386.defs); io_perm_t
 * carries a struct io_perm pointer (kernel/mig/mig_i386.c). */
io_perm_t convert_port_to_io_perm(ipc_port_t port);
ipc_port_t convert_io_perm_to_port(io_perm_t perm);
void io_perm_deallocate(io_perm_t perm);
