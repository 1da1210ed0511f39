/* SPDX-License-Identifier: GPL-2.0-only */
/* Open devices and their ports: lookup, references, no-senders close. */
#ifndef DEVICE_DEV_PORT_H
#define DEVICE_DEV_PORT_H

#include <device/device_types.h>

struct device;
struct dev_module;
struct ipc_port;

/*
 * Locking: one CPU; every function disables interrupts around the table
 * of open devices and the reference counts, may be called with them
 * off, never blocks, and is not for interrupt handlers (they allocate
 * or free).
 */

/*
 * dev_port_open - the open device called @name, opened by @module with
 * @mode if it is not open yet (module's open op): *@dev gets a reference.
 * D_SUCCESS, D_NO_MEMORY, or the module's open error.
 */
io_return_t dev_port_open(const struct dev_module *module, const char *name,
			  dev_mode_t mode, struct device **dev);

/* dev_port_send_right - a new send right to @dev's port (consumes the
 * caller's reference on @dev): what device_open hands the client. */
struct ipc_port *dev_port_send_right(struct device *dev);

/* dev_port_close - device_close: one device_open less; with none left
 * the device closes as below and holders' rights become dead names.
 * D_SUCCESS. */
io_return_t dev_port_close(struct device *dev);

/* dev_port_unname - @dev (open) keeps its port and clients but loses
 * its name: a device_open of that name no longer finds it (a module
 * whose device went away for good, so the name can serve a new one).
 * Its close still runs when its clients go. */
void dev_port_unname(struct device *dev);

/* dev_port_no_senders - @port's no-senders notification arrived: if no
 * send right was made since, the device closes (module close op) and
 * its port dies. */
void dev_port_no_senders(struct ipc_port *port);

/* dev_reference / dev_release - one more or one less reference on @dev
 * (NULL passes through); the last release after close frees it. */
struct device *dev_reference(struct device *dev);
void dev_release(struct device *dev);

#endif
