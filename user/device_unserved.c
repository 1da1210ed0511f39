/* SPDX-License-Identifier: GPL-2.0-only */
/* The device.defs routines a device server never serves (device_map, device_intr_register, device_intr_ack): each answers D_INVALID_OPERATION. */
/*
 * A task serving devices with device.defs's server stubs (a driver
 * server behind the kernel's proxy, docs/device-proxy.md) defines the
 * ds_device_* routines the stubs call.  The kernel never forwards these
 * three, so such a server takes them from here rather than writing them
 * (it must then define none of them).
 */
#include <device/device_types.h>
#include <mach/mach_types.h>

kern_return_t ds_device_map(mach_port_t device, vm_prot_t prot,
			    vm_offset_t offset, vm_size_t size,
			    mach_port_t *pager, int unmap);
kern_return_t ds_device_intr_register(mach_port_t device, int id, int flags,
				      mach_port_t port);
kern_return_t ds_device_intr_ack(mach_port_t device, mach_port_t port);

kern_return_t ds_device_map(mach_port_t device, vm_prot_t prot,
			    vm_offset_t offset, vm_size_t size,
			    mach_port_t *pager, int unmap)
{
	(void)device; (void)prot; (void)offset; (void)size; (void)pager;
	(void)unmap;
	return D_INVALID_OPERATION;
}

kern_return_t ds_device_intr_register(mach_port_t device, int id, int flags,
				      mach_port_t port)
{
	(void)device; (void)id; (void)flags; (void)port;
	return D_INVALID_OPERATION;
}

kern_return_t ds_device_intr_ack(mach_port_t device, mach_port_t port)
{
	(void)device; (void)port;
	return D_INVALID_OPERATION;
}
