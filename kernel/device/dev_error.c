/* SPDX-License-Identifier: GPL-2.0-only */
/* The one translation of internal errors into the D_* codes clients see. */
#include <stddef.h>

#include "device/dev_error.h"

static const struct {
	int err;
	io_return_t code;
} errno_table[] = {
	{ LX_ENODEV, D_NO_SUCH_DEVICE },
	{ LX_ENXIO, D_NO_SUCH_DEVICE },
	{ LX_EBUSY, D_ALREADY_OPEN },
	{ LX_ENOMEM, D_NO_MEMORY },
	{ LX_EAGAIN, D_WOULD_BLOCK },
	{ LX_EINVAL, D_INVALID_SIZE },
	{ LX_EMSGSIZE, D_INVALID_SIZE },
	{ LX_ENOSPC, D_INVALID_RECNUM },
	{ LX_ERANGE, D_INVALID_RECNUM },
	{ LX_EROFS, D_READ_ONLY },
	{ LX_EPERM, D_READ_ONLY },
	{ LX_EACCES, D_READ_ONLY },
	{ LX_EOPNOTSUPP, D_INVALID_OPERATION },
	{ LX_ENOTTY, D_INVALID_OPERATION },
	{ LX_ENOSYS, D_INVALID_OPERATION },
	{ LX_ENETDOWN, D_DEVICE_DOWN },
	{ LX_ESHUTDOWN, D_DEVICE_DOWN },
	{ LX_EIO, D_IO_ERROR },
};

io_return_t dev_error_from_errno(int err)
{
	if (err == 0)
		return D_SUCCESS;
	for (size_t i = 0; i < sizeof(errno_table) / sizeof(errno_table[0]);
	     i++)
		if (-errno_table[i].err == err)
			return errno_table[i].code;
	return D_IO_ERROR;
}

io_return_t dev_error_from_kern(kern_return_t kr)
{
	switch (kr) {
	case KERN_SUCCESS:
		return D_SUCCESS;
	case KERN_RESOURCE_SHORTAGE:
		return D_NO_MEMORY;
	case KERN_INVALID_ADDRESS:
	case KERN_INVALID_ARGUMENT:
		return D_INVALID_SIZE;
	case KERN_PROTECTION_FAILURE:
		return D_READ_ONLY;
	default:
		return D_IO_ERROR;
	}
}

io_return_t dev_error_from_server(kern_return_t code)
{
	if (code == D_SUCCESS ||
	    (code >= D_IO_ERROR && code <= D_READ_ONLY))
		return code;
	return D_IO_ERROR;
}
