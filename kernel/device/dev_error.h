/* SPDX-License-Identifier: GPL-2.0-only */
/* The one translation of internal errors into the D_* codes clients see. */
#ifndef DEVICE_DEV_ERROR_H
#define DEVICE_DEV_ERROR_H

#include <device/device_types.h>
#include <mach/kern_return.h>

/* Linux's errno values (include/uapi/asm-generic/errno*.h), the numbers
 * the x86_64 Linux drivers and linux-emu return negated: the ones
 * dev_error_from_errno maps, and those the Linux glue tells apart. */
enum {
	LX_EPERM = 1, LX_EIO = 5, LX_ENXIO = 6, LX_EAGAIN = 11,
	LX_ENOMEM = 12, LX_EACCES = 13, LX_EBUSY = 16, LX_ENODEV = 19,
	LX_EINVAL = 22, LX_ENOTTY = 25, LX_ENOSPC = 28, LX_EROFS = 30,
	LX_ERANGE = 34, LX_ENOSYS = 38, LX_ENOLINK = 67, LX_EMSGSIZE = 90,
	LX_EOPNOTSUPP = 95, LX_ENETDOWN = 100, LX_ESHUTDOWN = 108,
};

/*
 * dev_error_from_kern - the D_* code for a kernel error (vm, ipc, kalloc)
 * met while serving a device call: KERN_SUCCESS -> D_SUCCESS,
 * KERN_RESOURCE_SHORTAGE -> D_NO_MEMORY, KERN_INVALID_ADDRESS and
 * KERN_INVALID_ARGUMENT -> D_INVALID_SIZE, KERN_PROTECTION_FAILURE ->
 * D_READ_ONLY, anything else -> D_IO_ERROR.
 *
 * dev_error_from_errno - the D_* code for a Linux-side -errno (the
 * modules over Linux drivers translate here and nowhere else): 0 ->
 * D_SUCCESS, -ENODEV/-ENXIO -> D_NO_SUCH_DEVICE, -EBUSY ->
 * D_ALREADY_OPEN, -ENOMEM -> D_NO_MEMORY, -EAGAIN -> D_WOULD_BLOCK,
 * -EINVAL/-EMSGSIZE -> D_INVALID_SIZE, -ENOSPC/-ERANGE -> D_INVALID_RECNUM,
 * -EROFS/-EPERM/-EACCES -> D_READ_ONLY, -EOPNOTSUPP/-ENOTTY/-ENOSYS ->
 * D_INVALID_OPERATION, -ENETDOWN/-ESHUTDOWN -> D_DEVICE_DOWN, anything
 * else (-EIO included) -> D_IO_ERROR.  A positive value is a caller bug
 * and maps to D_IO_ERROR too.
 *
 * Pure functions; any context.
 */
io_return_t dev_error_from_kern(kern_return_t kr);
io_return_t dev_error_from_errno(int err);

/* dev_error_from_server - the D_* code a client gets for the return
 * code a driver server answered (dev_proxy.h): D_SUCCESS and the D_*
 * errors from D_IO_ERROR to D_READ_ONLY pass; anything else (another
 * vocabulary's code, D_IO_QUEUED) is D_IO_ERROR.  Pure. */
io_return_t dev_error_from_server(kern_return_t code);

#endif
