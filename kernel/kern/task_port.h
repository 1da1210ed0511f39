/* SPDX-License-Identifier: GPL-2.0-only */
/* Task, thread and host ports: the kernel objects tasks name in messages. */
#ifndef KERN_TASK_PORT_H
#define KERN_TASK_PORT_H

#include <mach/kern_return.h>
#include <mach/port.h>

struct ipc_port;
struct task;
struct thread;

/* Kernel-object types of Graft's ports (kernel/ipc/ipc_port.h leaves the
 * numbering to the kernel). */
#define IKOT_TASK	1u
#define IKOT_THREAD	2u
#define IKOT_HOST	3u
#define IKOT_HOST_PRIV	4u
/* The device master port: device_open (the device layer's handler,
 * kernel/device/) and i386_io_perm_create (kernel/mig/) are sent to
 * it. */
#define IKOT_MASTER_DEVICE	5u
/* An open device (kernel/device/dev_port.c). */
#define IKOT_DEVICE		6u
/* An I/O permission (i386_io_perm_create, kernel/x86_64/io_perm.h). */
#define IKOT_IO_PERM	7u
/* The boot CPU as a processor object (host_processors, kernel/mig/). */
#define IKOT_PROCESSOR	8u
/* A PCI function claimed by a task (claim.defs, kernel/device/dev_claim.h). */
#define IKOT_CLAIM	9u
/* A device published by a driver server (proxy.defs), and the reply
 * port of one request forwarded to it (kernel/device/dev_proxy.h). */
#define IKOT_DEVICE_PROXY	10u
#define IKOT_PROXY_REPLY	11u
/* The driver master port: what driver servers are given instead of the
 * device master port.  It admits the calls that make a driver server
 * (claim_pci, claim_isa, proxy_publish) and refuses every other call
 * the device master port serves (device_open, i386_io_perm_create). */
#define IKOT_DRIVER_MASTER	12u
/* The reply port of one call the kernel makes and waits on
 * (kern/kernel_rpc.h: an exception raised to a task's exception port). */
#define IKOT_KERNEL_REPLY	13u

/* task_port_setup - give @task its port name space and its task port.
 * KERN_SUCCESS or KERN_RESOURCE_SHORTAGE (then nothing was made). */
kern_return_t task_port_setup(struct task *task);

/* task_port_teardown - kill @task's task port (holders get dead names)
 * and destroy its name space (every right it held is released, with the
 * notifications that causes). */
void task_port_teardown(struct task *task);

/* thread_port_setup / _teardown - the same for a user thread's port. */
kern_return_t thread_port_setup(struct thread *thread);
void thread_port_teardown(struct thread *thread);

/* The object behind a port, or NULL if @port is not an active port of
 * that type. */
struct task *task_port_task(struct ipc_port *port);
struct thread *task_port_thread(struct ipc_port *port);
/* True for the host port (@priv false) or the privileged host port. */
int task_port_is_host(struct ipc_port *port, int priv);

/*
 * Names for the traps: a new send right (one more user reference) to the
 * calling task's own port, its thread's port, or the host port, in the
 * task's space.  MACH_PORT_NULL if the right cannot be made.
 */
mach_port_name_t task_port_self_name(void);
mach_port_name_t task_port_thread_name(void);
mach_port_name_t task_port_host_name(void);

/* The host ports, the device master port and the driver master port
 * (made by task_port_init).  Boot tasks get send rights to the last
 * three through ${host-port}, ${device-port} and ${driver-port} in their
 * command lines (kernel/kern/boot_script.h). */
extern struct ipc_port *host_port, *host_priv_port, *master_device_port;
extern struct ipc_port *driver_master_port;

/* task_port_init - make the host ports and the two master ports and register the message handlers
 * of the task, thread and host types (kernel/mig/).  Once, at boot, before
 * any task exists. */
void task_port_init(void);

#endif
