/* SPDX-License-Identifier: GPL-2.0-only */
/* Open devices and their ports: lookup, references, no-senders close. */
/*
 * A device is opened once, whatever the number of clients: device_open of
 * an open name hands out another send right to the same port.  The port
 * asks for its own no-senders notification (a send-once right to itself,
 * as GNU Mach's device ports do); when the last send right goes, the
 * notification comes back through the IKOT_DEVICE handler
 * (ds_routines.c), the module's close runs and the port dies.  Requests
 * still in flight hold references, so the struct outlives the close until
 * they are replied to.
 */
#include <stdbool.h>
#include <stddef.h>

#include "device/dev_port.h"
#include "device/device.h"
#include "graft_mig.h"
#include "ipc/ipc_kobject.h"
#include "ipc/ipc_port.h"
#include "kern/kalloc.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "kern/task_port.h"
#include "x86_64/cpu.h"

static struct device *open_devices;
static unsigned int open_count;

unsigned int dev_open_count(void)
{
	return open_count;
}

struct device *dev_reference(struct device *dev)
{
	uint64_t flags = cpu_intr_save();

	if (dev != NULL)
		dev->refs++;
	cpu_intr_restore(flags);
	return dev;
}

void dev_release(struct device *dev)
{
	uint64_t flags = cpu_intr_save();
	bool last;

	if (dev == NULL) {
		cpu_intr_restore(flags);
		return;
	}
	if (dev->refs == 0)
		panic("device %s: reference count underflow", dev->name);
	last = --dev->refs == 0;
	cpu_intr_restore(flags);
	if (last)
		kfree(dev);
}

static struct device *find_open(const char *name)
{
	for (struct device *d = open_devices; d != NULL; d = d->next)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

/* A new device of @module called @name with its port, not yet opened. */
static struct device *device_new(const struct dev_module *module,
				 const char *name)
{
	struct device *dev = kzalloc(sizeof(*dev));

	if (dev == NULL)
		return NULL;
	dev->port = ipc_port_alloc_kernel(dev, IKOT_DEVICE);
	if (dev->port == NULL) {
		kfree(dev);
		return NULL;
	}
	dev->module = module;
	dev->refs = 1;		/* the open state */
	dev->record_size = 1;
	memcpy(dev->name, name, strlen(name) + 1);	/* checked < 128 */
	return dev;
}

io_return_t dev_port_open(const struct dev_module *module, const char *name,
			  dev_mode_t mode, struct device **out)
{
	struct device *dev;
	io_return_t rc;
	uint64_t flags = cpu_intr_save();

	dev = find_open(name);
	if (dev != NULL) {
		dev->opens++;
		*out = dev_reference(dev);
		cpu_intr_restore(flags);
		return D_SUCCESS;
	}
	dev = device_new(module, name);
	if (dev == NULL) {
		cpu_intr_restore(flags);
		return D_NO_MEMORY;
	}
	rc = module->ops->open(dev, mode);
	if (rc != D_SUCCESS) {
		ipc_port_dealloc_kernel(dev->port);
		kfree(dev);
		cpu_intr_restore(flags);
		return rc;
	}
	dev->opens = 1;
	dev->next = open_devices;
	open_devices = dev;
	open_count++;
	/* Armed before the first send right exists: the notification
	 * comes when the count of send rights falls back to zero. */
	ipc_kobject_nsrequest_self(dev->port, 1);
	*out = dev_reference(dev);
	cpu_intr_restore(flags);
	return D_SUCCESS;
}

struct ipc_port *dev_port_send_right(struct device *dev)
{
	struct ipc_port *right = ipc_port_make_send(dev->port);

	dev_release(dev);
	return right;
}

/* Close @dev (open): out of the table, the module's close, the port
 * dies, the open reference goes.  Interrupts off. */
static void close_device(struct device *dev)
{
	struct device **link;

	for (link = &open_devices; *link != NULL && *link != dev;
	     link = &(*link)->next)
		;
	if (*link == dev)		/* else unnamed already */
		*link = dev->next;
	open_count--;
	dev->opens = 0;
	if (dev->module->ops->close != NULL)
		dev->module->ops->close(dev);
	ipc_port_dealloc_kernel(dev->port);
	dev->port = NULL;
	dev_release(dev);
}

void dev_port_unname(struct device *dev)
{
	uint64_t flags = cpu_intr_save();
	struct device **link;

	for (link = &open_devices; *link != NULL && *link != dev;
	     link = &(*link)->next)
		;
	if (*link == dev)
		*link = dev->next;
	dev->next = NULL;
	cpu_intr_restore(flags);
}

io_return_t dev_port_close(struct device *dev)
{
	uint64_t flags = cpu_intr_save();

	if (dev->opens != 0 && --dev->opens == 0)
		close_device(dev);
	cpu_intr_restore(flags);
	return D_SUCCESS;
}

void dev_port_no_senders(struct ipc_port *port)
{
	unsigned int kotype;
	struct device *dev = ipc_port_kobject(port, &kotype);
	uint64_t flags;

	if (dev == NULL || kotype != IKOT_DEVICE || dev->opens == 0)
		return;
	flags = cpu_intr_save();
	if (ipc_kobject_no_senders(port))	/* else a new client came */
		close_device(dev);
	cpu_intr_restore(flags);
}

/* The intran, outtran and destructor device_types.defs names for
 * device_t (called by the generated stubs). */
device_t dev_port_lookup(ipc_port_t port)
{
	unsigned int kotype;
	struct device *dev = ipc_port_kobject(port, &kotype);
	uint64_t flags;

	if (dev == NULL || kotype != IKOT_DEVICE)
		return 0;
	flags = cpu_intr_save();
	if (dev->opens == 0)
		dev = NULL;
	dev_reference(dev);
	cpu_intr_restore(flags);
	return (device_t)dev;
}

ipc_port_t convert_device_to_port(device_t device)
{
	return (ipc_port_t)device;
}

void device_deallocate(device_t device)
{
	dev_release((struct device *)device);
}
