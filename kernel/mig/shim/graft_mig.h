/* SPDX-License-Identifier: GPL-2.0-only */
/* What MIG's KERNEL_SERVER stubs need to know of Graft's kernel objects. */
#ifndef GRAFT_MIG_H
#define GRAFT_MIG_H

/*
 * The stubs are generated from gnumach-dev's .defs with KERNEL and
 * KERNEL_SERVER defined, so they import GNU Mach's kernel headers; every
 * header in this shim/ folder stands in for one of those and includes only
 * this file.  The stubs see Graft's objects as opaque pointers; ports in
 * kernel-layout messages are struct ipc_port pointers (kernel/ipc/ipc_kmsg.h).
 * Routines are called with the prefix mig_ (-DSERVERPREFIX=mig_) and are
 * implemented in kernel/mig/.
 */
#include <stdbool.h>

#include <mach/mach_types.h>

struct ipc_port;
struct ipc_space;
struct vm_map;
struct vm_object;
struct task;
struct thread;

typedef struct ipc_port *ipc_port_t;
typedef struct vm_map *vm_map_t;
typedef struct vm_object *vm_object_t;

/* intran / outtran / destructor functions named by mach_types.defs. */
task_t convert_port_to_task(ipc_port_t port);
ipc_port_t convert_task_to_port(task_t task);
void task_deallocate(task_t task);
thread_t convert_port_to_thread(ipc_port_t port);
ipc_port_t convert_thread_to_port(thread_t thread);
void thread_deallocate(thread_t thread);
vm_map_t convert_port_to_map(ipc_port_t port);
void vm_map_deallocate(vm_map_t map);
ipc_space_t convert_port_to_space(ipc_port_t port);
void space_deallocate(ipc_space_t space);
host_t convert_port_to_host(ipc_port_t port);
host_t convert_port_to_host_priv(ipc_port_t port);
processor_t convert_port_to_processor(ipc_port_t port);
processor_set_t convert_port_to_pset(ipc_port_t port);
processor_set_t convert_port_to_pset_name(ipc_port_t port);
ipc_port_t convert_host_to_port(host_t host);
ipc_port_t convert_processor_to_port(processor_t p);
ipc_port_t convert_pset_to_port(processor_set_t p);
ipc_port_t convert_pset_name_to_port(processor_set_t p);
void processor_set_deallocate(processor_set_t p);
void pset_deallocate(processor_set_t p);
vm_object_t vm_object_lookup(ipc_port_t port);
vm_object_t vm_object_lookup_name(ipc_port_t port);
void vm_object_deallocate(vm_object_t object);

/* GNU Mach macros and functions the stubs use. */
#define IP_VALID(port)	((port) != 0 && (port) != (ipc_port_t)~(uintptr_t)0)
#define null_conversion(x)	(x)
bool ipc_port_check_circularity(struct ipc_port *port, struct ipc_port *dest);
void ipc_port_release_send(struct ipc_port *port);

#endif
