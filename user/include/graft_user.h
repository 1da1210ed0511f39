/* SPDX-License-Identifier: GPL-2.0-only */
/* The Graft user runtime: Mach traps and the MIG interfaces of the kernel. */
#ifndef GRAFT_USER_H
#define GRAFT_USER_H

#include <stdint.h>

#include <mach/message.h>
#include <mach/mach_types.h>
#include <mach/port.h>

/* Traps (user/traps.S), numbered as in mach/syscall_sw.h.  Each call of
 * mach_task_self_trap, mach_host_self_trap and mach_thread_self adds a
 * user reference to the name it returns (65,535 at most). */
mach_port_t mach_task_self_trap(void);
mach_port_t mach_thread_self(void);
mach_port_t mach_host_self_trap(void);
mach_port_t mach_reply_port(void);
kern_return_t mach_print(const char *s);
boolean_t swtch(void);
boolean_t swtch_pri(int pri);
kern_return_t thread_switch(mach_port_t thread, int option, int time);
/* vm_deallocate as a trap: no message (the other syscall_* shortcuts are
 * not served); MACH_SEND_INTERRUPTED if @task names no task. */
kern_return_t syscall_vm_deallocate(mach_port_t task, vm_address_t address,
				    vm_size_t size);
mach_msg_return_t mach_msg_trap(mach_msg_header_t *msg,
				mach_msg_option_t option,
				mach_msg_size_t send_size,
				mach_msg_size_t rcv_size,
				mach_port_t rcv_name,
				mach_msg_timeout_t timeout,
				mach_port_t notify);

/* user/task_self.c: the task's own port name and the host's, asked of
 * the traps once and kept (no reference added per call). */
mach_port_t mach_task_self(void);
mach_port_t mach_host_self(void);

/* user/mach_msg.c: the trap, restarted after an interrupted wait. */
mach_msg_return_t mach_msg(mach_msg_header_t *msg, mach_msg_option_t option,
			   mach_msg_size_t send_size, mach_msg_size_t rcv_size,
			   mach_port_t rcv_name, mach_msg_timeout_t timeout,
			   mach_port_t notify);

/* user/args.c: the value of the word "@key=value" among @argv[1..], or
 * @dflt; a port name given that way (the boot script writes the names of
 * ${host-port} and ${device-port} so), or MACH_PORT_NULL. */
const char *graft_arg(int argc, char **argv, const char *key,
		      const char *dflt);
mach_port_t graft_arg_port(int argc, char **argv, const char *key);

/*
 * user/net.c, for programs on a net device @d (opened by device_open):
 * graft_net_mac - its MAC (NET_ADDRESS) into @mac; D_SUCCESS or the
 *   device_get_status error.
 * graft_net_wait_link - wait up to @ms (10 ms sleeps) for it to be up
 *   with a link (IFF_UP | IFF_RUNNING in NET_STATUS); the flags last
 *   read (0 if none could be).
 * graft_parse_ipv4 - "A.B.C.D" into *@ip (host order): 0, or -1 if
 *   malformed.
 */
kern_return_t graft_net_mac(mach_port_t d, uint8_t mac[6]);
int graft_net_wait_link(mach_port_t d, unsigned int ms);
int graft_parse_ipv4(const char *s, uint32_t *ip);

/*
 * user/exc_serve.c: graft_exc_serve - serve the calling task's exception
 * port from a new thread: a port is made (its receive right and a send
 * right the task's), a thread started on @stack (@size bytes, which must
 * stay the thread's while the task lives) running exc.defs's server loop,
 * which calls the program's catch_exception_raise (exc_server.h) for each
 * exception and sends its answer, and the port made the task's exception
 * port (its name in *@port if @port is not NULL).  Once per task: a
 * second call is KERN_FAILURE.  KERN_SUCCESS, or the code of the call
 * that failed (nothing is served then).  catch_exception_raise runs on
 * that thread while the faulting one waits; its MIG calls share the
 * task's reply port with the task's other threads.  It is given a send
 * right to the thread and one to the task (a user reference each on
 * their names, which it must deallocate).  A second thread (with a
 * 4 KiB stack of its own) serves the handler thread's own exception
 * port: if the handler faults, it prints "graft_exc_serve: the exception
 * handler faulted; ending the task" and ends the task with
 * task_terminate.
 */
kern_return_t graft_exc_serve(void *stack, unsigned long size,
			      mach_port_t *port);

/* MIG user stubs generated at build time from gnumach-dev's .defs. */
#include "mach_interface.h"
#include "mach_port.h"
#include "gnumach.h"

#endif
