/* SPDX-License-Identifier: GPL-2.0-only */
/* The "irq" device: interrupt lines delivered as messages to user drivers. */
/*
 * The basis of user-mode drivers.  The line's handler runs in interrupt
 * context, where nothing may allocate: it masks the line (only that one,
 * paper §3.5.2), marks it fired and wakes the notify thread, which
 * builds and sends the notification.  The line stays masked until the
 * driver says device_intr_ack, so a level-triggered device cannot storm
 * the kernel while its driver runs.  A registration whose port died is
 * dropped by the notify thread; its line is left masked.
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
#include "kern/kprintf.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/thread.h"
#include "x86_64/cpu.h"
#include "x86_64/serial.h"

#define INTR_NOTIFY_PRIORITY	4

struct line_reg {
	struct ipc_port *port;	/* send right; NULL: not registered */
	bool fired;		/* interrupted, notification not sent yet */
	bool waiting_ack;	/* notified, line masked until the ack */
};

static struct line_reg lines[INTR_LINES];
static char notify_event;

bool dev_intr_registered(unsigned int line)
{
	return line < INTR_LINES && lines[line].port != NULL;
}

static void line_interrupt(unsigned int line, void *arg)
{
	struct line_reg *reg = arg;

	intr_mask(line);
	reg->fired = true;
	thread_wakeup(&notify_event);
}

/* Send line @line's notification (interrupts off); false if its port is
 * dead. */
static bool notify(unsigned int line)
{
	const mach_msg_type_t id_type = {
		.msgt_name = MACH_MSG_TYPE_INTEGER_32,
		.msgt_size = 32,
		.msgt_number = 1,
		.msgt_inline = 1,
	};
	struct line_reg *reg = &lines[line];
	device_intr_notification_t *n;
	struct ipc_kmsg *kmsg;

	if (!reg->port->active)
		return false;
	kmsg = ipc_kmsg_alloc(sizeof(*n));
	if (kmsg == NULL) {
		kprintf("device: irq %u notification lost (no memory)\n", line);
		reg->waiting_ack = true;	/* the ack still unmasks */
		return true;
	}
	n = (device_intr_notification_t *)ipc_kmsg_msg(kmsg);
	kmsg->header.bits = MACH_MSGH_BITS(MACH_MSG_TYPE_PORT_SEND, 0);
	kmsg->header.remote = ipc_port_copy_send(reg->port);
	kmsg->header.id = DEVICE_INTR_NOTIFY;
	n->intr_type = id_type;
	n->id = (int)line;
	reg->waiting_ack = true;
	ipc_mqueue_send_always(kmsg);
	return true;
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
			if (!notify(line)) {
				intr_unregister(line, line_interrupt, reg);
				ipc_port_release_send(reg->port);
				reg->port = NULL;
				reg->waiting_ack = false;
			}
		}
		assert_wait(&notify_event);
		for (unsigned int line = 0; line < INTR_LINES; line++)
			if (lines[line].port != NULL && lines[line].fired)
				thread_wakeup(&notify_event);
		cpu_intr_restore(flags);
		thread_block();
	}
}

static bool kernel_line(int id)
{
	return id == 0 || id == 2 || id == SERIAL_IRQ;
}

io_return_t dev_intr_register(struct device *dev, int id, int flags,
			      struct ipc_port *port)
{
	uint64_t iflags;
	io_return_t rc = D_SUCCESS;

	if (dev->module != &dev_irq_module || flags != 0 || id < 0 ||
	    id >= INTR_LINES || kernel_line(id) || !IPC_PORT_VALID(port))
		return D_INVALID_OPERATION;
	iflags = cpu_intr_save();
	/* a line with a kernel handler (the Linux world's) is not shared:
	 * masking it until the user's ack would stall that handler */
	if (lines[id].port != NULL || intr_handler_count((unsigned int)id) != 0)
		rc = D_ALREADY_OPEN;
	if (rc == D_SUCCESS &&
	    intr_register((unsigned int)id, line_interrupt, &lines[id]) !=
	    KERN_SUCCESS)
		rc = D_NO_MEMORY;
	if (rc == D_SUCCESS) {
		lines[id].port = port;
		lines[id].fired = false;
		lines[id].waiting_ack = false;
		intr_unmask((unsigned int)id);
	}
	cpu_intr_restore(iflags);
	return rc;
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
