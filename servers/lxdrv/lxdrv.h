/* SPDX-License-Identifier: GPL-2.0-only */
/* What the files of the Linux driver server share (servers/lxdrv/README.md). */
#ifndef LXDRV_H
#define LXDRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mach/message.h>
#include <mach/port.h>

/* The server's task, host and device master ports (lxdrv.c). */
extern mach_port_t lxdrv_task, lxdrv_host, lxdrv_master;

/* The running thread's interrupt flag, 0x200 when on (irqflag.S). */
extern unsigned long lxdrv_irq_flag;

/* Clock ticks delivered since lx_host_clock_start (sched.c). */
extern unsigned long lxdrv_ticks;

/* lxdrv_now_us - microseconds since boot, the kernel's clock (carried
 * by the TSC between readings; sched.c). */
uint64_t lxdrv_now_us(void);

/*
 * lxdrv_port_watch - receive messages on @port (a receive right of the
 * server's) in the event loop: each is given to @fn(@msg, @arg) in
 * interrupt context (interrupt flag off, must not block; a handler that
 * needs to block queues the message and wakes a thread).  0, or -1 if
 * the port could not be added.  lxdrv_port_unwatch - stop (the right is
 * kept).
 */
typedef void lxdrv_msg_fn(mach_msg_header_t *msg, void *arg);
int lxdrv_port_watch(mach_port_t port, lxdrv_msg_fn *fn, void *arg);
void lxdrv_port_unwatch(mach_port_t port);

/* lxdrv_loop - the event loop, on the main thread: runs the ready
 * threads, then delivers messages, clock ticks and timeouts.  Never
 * returns. */
void lxdrv_loop(void) __attribute__((noreturn));

/* lxdrv_sched_init - make the calling (main) thread the event loop's.
 * Before any other sched.c call. */
void lxdrv_sched_init(void);

/* lxdrv_exc_start - serve the task's exception port from a thread of its
 * own (exc.c): a Linux WARN is reported and resumed, any other exception
 * ends the task.  0, or -1 if the port or the thread could not be made
 * (a WARN then ends the server).  Once, at start. */
int lxdrv_exc_start(void);

/* lxdrv_die - print @why and end the server's task. */
void lxdrv_die(const char *why) __attribute__((noreturn));

#endif
