/* SPDX-License-Identifier: GPL-2.0-only */
/* The "irq" device: interrupt lines delivered as messages to user drivers. */
/*
 * The basis of user-mode drivers.  The line's handler runs in interrupt
 * context, where nothing may allocate: it masks the line (only that one,
 * paper §3.5.2) and sends the notification built ahead for it (@spare:
 * made when the line is registered and at each acknowledgement, in
 * thread context); the IPC state is only ever changed with interrupts
 * off, so the handler may queue a message.  Without a spare (memory was
 * short) it marks the line fired and wakes the notify thread, which
 * builds and sends the notification.  The line stays masked until the
 * driver says device_intr_ack, so a level-triggered device cannot storm
 * the kernel while its driver runs, and one notification at a time is
 * out per line.  A registration watches its port
 * (ipc_port_watch_add): when the port dies, the registration is dropped
 * at once, its line masked and free for the next driver, whether or not
 * it was waiting for an acknowledgement.  Registrations are charged to
 * the registering task's ledger (LEDGER_INTR_LINES).
 */
#include <stdbool.h>
#include <stddef.h>

#include <device/notify.h>
#include <mach/message.h>

#include "device/dev_intr.h"
#include "device/dev_module.h"
#include "device/device.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_mqueue.h"
#include "ipc/ipc_port.h"
#include "kern/intr.h"
#include "kern/klog.h"
#include "kern/ledger.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "x86_64/cpu.h"
#include "x86_64/serial.h"

/* Lines a client's interrupts can cause (kern/klog.h). */
static KLOG_SOURCE(intr_log, "device");

#define INTR_NOTIFY_PRIORITY	4

struct line_reg {
	struct ipc_port *port;	/* send right; NULL: not registered */
	struct ipc_port_watch watch;	/* on @port's death */
	struct ledger *ledger;	/* the registering task's, charged */
	const void *owner;	/* a claim, or NULL (the irq device's) */
	bool fired;		/* interrupted, notification not sent yet */
	bool waiting_ack;	/* notified, line masked until the ack */
	struct ipc_kmsg *spare;	/* the next notification, or NULL */
};

static struct line_reg lines[INTR_LINES];
static char notify_event;
static void (*taken_probe)(unsigned int line);

void dev_intr_probe_set(void (*fn)(unsigned int line))
{
	taken_probe = fn;
}

bool dev_intr_registered(unsigned int line)
{
	return line < INTR_LINES && lines[line].port != NULL;
}

unsigned int dev_intr_count(void)
{
	unsigned int n = 0;

	for (unsigned int line = 0; line < INTR_LINES; line++)
		n += lines[line].port != NULL;
	return n;
}

/* A notification of @line, all but its destination; NULL if memory is
 * short.  Thread context, interrupts on or off. */
static struct ipc_kmsg *build(unsigned int line)
{
	const mach_msg_type_t id_type = {
		.msgt_name = MACH_MSG_TYPE_INTEGER_32,
		.msgt_size = 32,
		.msgt_number = 1,
		.msgt_inline = 1,
	};
	device_intr_notification_t *n;
	struct ipc_kmsg *kmsg = ipc_kmsg_alloc(sizeof(*n));

	if (kmsg == NULL)
		return NULL;
	n = (device_intr_notification_t *)ipc_kmsg_msg(kmsg);
	kmsg->header.bits = MACH_MSGH_BITS(MACH_MSG_TYPE_PORT_SEND, 0);
	kmsg->header.remote = NULL;
	kmsg->header.id = DEVICE_INTR_NOTIFY;
	n->intr_type = id_type;
	n->id = (int)line;
	return kmsg;
}

/* Send @kmsg, built for @reg's line, to @reg's port (interrupts off;
 * any context). */
static void send(struct line_reg *reg, struct ipc_kmsg *kmsg)
{
	kmsg->header.remote = ipc_port_copy_send(reg->port);
	reg->waiting_ack = true;
	ipc_mqueue_send_always(kmsg);
}

/* Give @reg a spare notification if it has none (interrupts off). */
static void spare_make(unsigned int line)
{
	if (lines[line].spare == NULL)
		lines[line].spare = build(line);
}

static void line_interrupt(unsigned int line, void *arg)
{
	struct line_reg *reg = arg;
	struct ipc_kmsg *kmsg = reg->spare;

	if (taken_probe != NULL)
		taken_probe(line);
	intr_mask(line);
	if (kmsg != NULL) {
		reg->spare = NULL;
		send(reg, kmsg);
		return;
	}
	reg->fired = true;
	thread_wakeup(&notify_event);
}

/* Send line @line's notification from the notify thread (interrupts
 * off). */
static void notify(unsigned int line)
{
	struct line_reg *reg = &lines[line];
	struct ipc_kmsg *kmsg = build(line);

	if (kmsg == NULL) {
		klog(&intr_log, "device: irq %u notification lost (no memory)\n",
		     line);
		reg->waiting_ack = true;	/* the ack still unmasks */
		return;
	}
	send(reg, kmsg);
}

/* The registration of @line ends: its handler goes, the line is masked
 * (a free line is), the right and the charge are given back.  Interrupts
 * off. */
static void drop(unsigned int line)
{
	struct line_reg *reg = &lines[line];

	ipc_port_watch_remove(&reg->watch);
	intr_unregister(line, line_interrupt, reg);
	intr_mask(line);
	ipc_port_release_send(reg->port);
	ledger_credit(reg->ledger, LEDGER_INTR_LINES, 1);
	if (reg->spare != NULL)
		ipc_kmsg_free(reg->spare);	/* no right in it yet */
	reg->spare = NULL;
	reg->port = NULL;
	reg->owner = NULL;
	reg->ledger = NULL;
	reg->fired = false;
	reg->waiting_ack = false;
}

/* A registered port died (ipc_port_watch_add's callback). */
static void port_died(struct ipc_port_watch *watch)
{
	struct line_reg *reg = (struct line_reg *)
		((char *)watch - offsetof(struct line_reg, watch));

	drop((unsigned int)(reg - lines));
}

static void notify_thread(void *arg)
{
	(void)arg;
	for (;;) {
		uint64_t flags = cpu_intr_save();

		for (unsigned int line = 0; line < INTR_LINES; line++) {
			struct line_reg *reg = &lines[line];

			if (reg->port == NULL || !reg->fired)
				continue;
			reg->fired = false;
			notify(line);
		}
		assert_wait(&notify_event);
		for (unsigned int line = 0; line < INTR_LINES; line++)
			if (lines[line].port != NULL && lines[line].fired)
				thread_wakeup(&notify_event);
		cpu_intr_restore(flags);
		thread_block();
	}
}

bool dev_intr_kernel_line(unsigned int line)
{
	return line == 0 || line == 2 || line == SERIAL_IRQ;
}

io_return_t dev_intr_attach(unsigned int line, struct ipc_port *port,
			    const void *owner, bool charge)
{
	struct ledger *ledger = charge ? task_current()->ledger : NULL;
	struct line_reg *reg;
	uint64_t iflags;

	/* A kernel object never receives the notification; its port as
	 * the target would also keep that object alive. */
	if (line >= INTR_LINES || dev_intr_kernel_line(line) ||
	    !IPC_PORT_VALID(port) || port->kotype != IKOT_NONE)
		return D_INVALID_OPERATION;
	reg = &lines[line];
	iflags = cpu_intr_save();
	/* a line with a kernel handler (the Linux world's) is not shared:
	 * masking it until the user's ack would stall that handler */
	if (reg->port != NULL || intr_handler_count(line) != 0) {
		cpu_intr_restore(iflags);
		return D_ALREADY_OPEN;
	}
	if (!ledger_charge(ledger, LEDGER_INTR_LINES, 1)) {
		cpu_intr_restore(iflags);
		return D_NO_MEMORY;
	}
	if (!ipc_port_watch_add(port, &reg->watch, port_died)) {
		ledger_credit(ledger, LEDGER_INTR_LINES, 1);
		cpu_intr_restore(iflags);
		return D_INVALID_OPERATION;	/* the port is dead */
	}
	if (intr_register(line, line_interrupt, reg) != KERN_SUCCESS) {
		ipc_port_watch_remove(&reg->watch);
		ledger_credit(ledger, LEDGER_INTR_LINES, 1);
		cpu_intr_restore(iflags);
		return D_NO_MEMORY;
	}
	reg->port = port;
	reg->owner = owner;
	reg->ledger = ledger;
	reg->fired = false;
	reg->waiting_ack = false;
	spare_make(line);
	intr_unmask(line);
	cpu_intr_restore(iflags);
	return D_SUCCESS;
}

io_return_t dev_intr_register(struct device *dev, int id, int flags,
			      struct ipc_port *port)
{
	if (dev->module != &dev_irq_module || flags != 0 || id < 0)
		return D_INVALID_OPERATION;
	return dev_intr_attach((unsigned int)id, port, NULL, true);
}

io_return_t dev_intr_ack_owner(unsigned int line, const void *owner)
{
	uint64_t flags = cpu_intr_save();
	io_return_t rc = D_INVALID_OPERATION;

	if (line < INTR_LINES && lines[line].port != NULL &&
	    lines[line].owner == owner && lines[line].waiting_ack) {
		lines[line].waiting_ack = false;
		spare_make(line);
		intr_unmask(line);
		rc = D_SUCCESS;
	}
	cpu_intr_restore(flags);
	return rc;
}

bool dev_intr_owned(unsigned int line, const void *owner)
{
	return line < INTR_LINES && lines[line].port != NULL &&
	       lines[line].owner == owner;
}

void dev_intr_detach(unsigned int line, const void *owner)
{
	uint64_t flags = cpu_intr_save();

	if (line < INTR_LINES && lines[line].port != NULL &&
	    lines[line].owner == owner)
		drop(line);
	cpu_intr_restore(flags);
}

io_return_t dev_intr_ack(struct device *dev, struct ipc_port *port)
{
	uint64_t flags;

	if (dev->module != &dev_irq_module || !IPC_PORT_VALID(port))
		return D_INVALID_OPERATION;
	flags = cpu_intr_save();
	for (unsigned int line = 0; line < INTR_LINES; line++) {
		if (lines[line].port != port || !lines[line].waiting_ack)
			continue;
		lines[line].waiting_ack = false;
		spare_make(line);
		intr_unmask(line);
		ipc_port_release_send(port);
		cpu_intr_restore(flags);
		return D_SUCCESS;
	}
	cpu_intr_restore(flags);
	return D_INVALID_OPERATION;
}

void dev_intr_init(void)
{
	if (kernel_thread_create("intr-notify", INTR_NOTIFY_PRIORITY,
				 notify_thread, NULL, NULL) != KERN_SUCCESS)
		panic("device: cannot start the interrupt notify thread");
}

static bool irq_match(const char *name)
{
	return strcmp(name, "irq") == 0;
}

static io_return_t irq_open(struct device *dev, dev_mode_t mode)
{
	(void)dev;
	(void)mode;
	return D_SUCCESS;
}

/* Only device_intr_register and device_intr_ack: no reads or writes. */
static const struct dev_ops irq_ops = {
	.open = irq_open,
};

const struct dev_module dev_irq_module = {
	.name = "irq",
	.match = irq_match,
	.ops = &irq_ops,
};
