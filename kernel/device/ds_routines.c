/* SPDX-License-Identifier: GPL-2.0-only */
/* device.defs served: each routine checks, then calls the module. */
/*
 * The MIG stubs generated from gnumach-dev's device.defs (KERNEL_SERVER,
 * prefix ds_) call these.  Each routine first decodes: the device port
 * (dev_port_lookup gave NULL for anything but an open device), the mode
 * bits, the sizes (negative, above DEV_IO_MAX, not a multiple of the
 * device's record size), the module having the op; then it records the
 * request and calls the module (ops in device.h).  device_request.defs
 * sends the same messages with a send-once reply right, so it is served by
 * the same stubs; a module answering D_IO_QUEUED makes the routine keep
 * the reply right in the request and answer MIG_NO_REPLY (io_req.c).
 */
#include <stdbool.h>
#include <stddef.h>

#include <device/device_types.h>
#include <device/net_status.h>
#include <mach/mig_errors.h>
#include <mach/notify.h>
#include <mach/vm_prot.h>

#include "device/dev_claim.h"
#include "device/dev_error.h"
#include "device/dev_intr.h"
#include "device/dev_module.h"
#include "device/dev_port.h"
#include "device/dev_proxy.h"
#include "device/device.h"
#include "device/ds_mig.h"
#include "device_status_reply.h"	/* generated (local.mk) */
#include "device/io_req.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_kobject.h"
#include "ipc/ipc_mqueue.h"
#include "ipc/ipc_port.h"
#include "kern/klog.h"
#include "kern/kprintf.h"
#include "kern/ledger.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "mig/mig_server.h"
#include "vm/vm_map.h"
#include "x86_64/cpu.h"

/* Lines a client's requests can cause (kern/klog.h). */
static KLOG_SOURCE(reply_log, "device");

/* Generated from device.defs, defs/claim.defs, defs/proxy.defs and
 * defs/device_direct.defs (kernel/device/local.mk): claim_pci and
 * proxy_publish are sent to the master port. */
boolean_t device_server(mach_msg_header_t *in, mach_msg_header_t *out);
boolean_t claim_server(mach_msg_header_t *in, mach_msg_header_t *out);
boolean_t proxy_server(mach_msg_header_t *in, mach_msg_header_t *out);
boolean_t device_direct_server(mach_msg_header_t *in,
			       mach_msg_header_t *out);

/* The largest reply: device_get_status with DEV_STATUS_MAX ints. */
#define DS_REPLY_MAX	(64 + DEV_STATUS_MAX * 4)

#define DS_MODE_BITS	(D_READ | D_WRITE | D_NODELAY | D_NOWAIT)

#define DEV(device)	((struct device *)(device))

kern_return_t ds_device_open(ipc_port_t master_port, ipc_port_t reply_port,
			     mach_msg_type_name_t reply_portPoly,
			     dev_mode_t mode, const_dev_name_t name,
			     device_t *device)
{
	const struct dev_module *module;
	struct device *dev;
	size_t len = 0;
	io_return_t rc;

	(void)reply_port;
	(void)reply_portPoly;
	if (master_port != master_device_port)
		return D_INVALID_OPERATION;
	if (mode & ~DS_MODE_BITS)
		return D_INVALID_OPERATION;
	while (len < DEV_NAME_MAX && name[len] != '\0')
		len++;
	if (len == 0 || len == DEV_NAME_MAX)	/* empty, or no NUL */
		return D_NO_SUCH_DEVICE;
	module = dev_module_find(name);
	if (module == NULL)
		return D_NO_SUCH_DEVICE;
	rc = dev_port_open(module, name, mode, &dev);
	if (rc != D_SUCCESS)
		return rc;
	*device = (device_t)dev_port_send_right(dev);
	return D_SUCCESS;
}

kern_return_t ds_device_close(device_t device)
{
	if (device == 0)
		return D_NO_SUCH_DEVICE;
	return dev_port_close(DEV(device));
}

/* The checks every read and write shares; D_SUCCESS if @count bytes in
 * @mode may be asked of @dev with replies to @reply.  A kernel object's
 * port as the reply port is refused: no kernel object takes a device
 * reply, and a request kept waiting with a right to its own device's
 * port would keep that device open for ever. */
static io_return_t check_io(struct device *dev, ipc_port_t reply,
			    dev_mode_t mode, long count, bool has_op,
			    bool inband)
{
	if (dev == NULL)
		return D_NO_SUCH_DEVICE;
	if (IPC_PORT_VALID(reply) && reply->kotype != IKOT_NONE)
		return D_INVALID_OPERATION;
	if (mode & ~DS_MODE_BITS)
		return D_INVALID_OPERATION;
	if (!has_op)
		return D_INVALID_OPERATION;
	if (count < 0 || count > (long)(inband ? IO_INBAND_MAX : DEV_IO_MAX))
		return D_INVALID_SIZE;
	/* Whole records, except that an inband transfer, at most 128
	 * bytes, may cover the start of one record only. */
	if (count % dev->record_size != 0 && !inband)
		return D_INVALID_SIZE;
	return D_SUCCESS;
}

/* Start @req with the module's @op; on D_IO_QUEUED keep the reply right
 * in @req (io_req_queue_reply) and turn the answer into MIG_NO_REPLY
 * (the module owns @req now); otherwise record the answer in req->error
 * for the caller, who frees @req. */
static kern_return_t start(struct io_req *req, ipc_port_t reply_port,
			   mach_msg_type_name_t reply_type,
			   io_return_t (*op)(struct device *, struct io_req *))
{
	io_return_t rc = op(req->dev, req);

	if (rc == D_IO_QUEUED) {
		io_req_queue_reply(req, reply_port, reply_type);
		return MIG_NO_REPLY;
	}
	req->error = rc;
	return rc;
}

static kern_return_t read_common(device_t device, ipc_port_t reply_port,
				 mach_msg_type_name_t reply_type,
				 dev_mode_t mode, recnum_t recnum, int bytes,
				 enum io_op op, struct io_req **out)
{
	struct device *dev = DEV(device);
	struct io_req *req;
	io_return_t rc;

	rc = check_io(dev, reply_port, mode, bytes,
		      dev && dev->module->ops->read, op == IO_READ_INBAND);
	if (rc != D_SUCCESS)
		return rc;
	rc = io_req_alloc(dev, op, bytes, &req);
	if (rc != D_SUCCESS)
		return rc;
	req->mode = mode;
	req->recnum = recnum;
	rc = start(req, reply_port, reply_type, dev->module->ops->read);
	if (rc == MIG_NO_REPLY)
		return rc;
	if (rc != D_SUCCESS) {
		io_req_free(req);
		return rc;
	}
	*out = req;
	return D_SUCCESS;
}

kern_return_t ds_device_read(device_t device, ipc_port_t reply_port,
			     mach_msg_type_name_t reply_portPoly,
			     dev_mode_t mode, recnum_t recnum, int bytes_wanted,
			     io_buf_ptr_t *data,
			     mach_msg_type_number_t *dataCnt)
{
	struct io_req *req;
	kern_return_t kr;

	kr = read_common(device, reply_port, reply_portPoly, mode, recnum,
			 bytes_wanted, IO_READ, &req);
	if (kr != D_SUCCESS)
		return kr;
	io_req_finish_read(req);
	*data = (io_buf_ptr_t)req->copy;
	*dataCnt = req->done;
	req->copy = NULL;
	io_req_free(req);
	return D_SUCCESS;
}

kern_return_t ds_device_read_inband(device_t device, ipc_port_t reply_port,
				    mach_msg_type_name_t reply_portPoly,
				    dev_mode_t mode, recnum_t recnum,
				    int bytes_wanted, io_buf_ptr_inband_t data,
				    mach_msg_type_number_t *dataCnt)
{
	struct io_req *req;
	kern_return_t kr;

	kr = read_common(device, reply_port, reply_portPoly, mode, recnum,
			 bytes_wanted, IO_READ_INBAND, &req);
	if (kr != D_SUCCESS)
		return kr;
	memcpy(data, req->inband, req->done);
	*dataCnt = req->done;
	io_req_free(req);
	return D_SUCCESS;
}

/*
 * device_read_into (defs/device_direct.defs): device_read's checks, then
 * the caller's own pages of [@address, @address + @bytes_wanted) as the
 * request's data (vm_map_pin), for a module whose read takes them
 * (dev_ops.read_into, else D_INVALID_OPERATION).  A range with a hole
 * or beyond user space, or of physical or device memory: D_INVALID_SIZE;
 * not writable: D_READ_ONLY; the loan registry or memory short:
 * D_NO_MEMORY.  Zero bytes go to the module without pages.  The module's
 * answer as device_read's; on an error the range may hold part of the
 * data.
 */
kern_return_t ds_device_read_into(device_t device, ipc_port_t reply_port,
				  mach_msg_type_name_t reply_portPoly,
				  dev_mode_t mode, recnum_t recnum,
				  vm_address_t address, int bytes_wanted,
				  int *bytes_read)
{
	struct device *dev = DEV(device);
	struct vm_map_copy *copy = NULL;
	struct io_req *req;
	kern_return_t kr;

	kr = check_io(dev, reply_port, mode, bytes_wanted,
		      dev && dev->module->ops->read &&
		      dev->module->ops->read_into, false);
	if (kr != D_SUCCESS)
		return kr;
	if (bytes_wanted > 0) {
		kr = vm_map_pin(task_current()->map, address,
				(uint64_t)bytes_wanted, &copy);
		if (kr != KERN_SUCCESS)
			return dev_error_from_kern(kr);
	}
	kr = io_req_alloc(dev, IO_READ_INTO, (size_t)bytes_wanted, &req);
	if (kr != D_SUCCESS) {
		vm_map_copy_discard(copy);
		return kr;
	}
	req->mode = mode;
	req->recnum = recnum;
	req->copy = copy;
	kr = start(req, reply_port, reply_portPoly, dev->module->ops->read);
	if (kr == MIG_NO_REPLY)
		return kr;
	if (kr == D_SUCCESS)
		*bytes_read = (int)req->done;
	io_req_free(req);	/* the pages' holds go back */
	return kr;
}

/* Write @req (data already attached); on D_SUCCESS *@written is set. */
static kern_return_t write_common(struct io_req *req, ipc_port_t reply_port,
				  mach_msg_type_name_t reply_type,
				  int *written)
{
	kern_return_t kr = start(req, reply_port, reply_type,
				 req->dev->module->ops->write);

	if (kr == MIG_NO_REPLY)
		return kr;
	if (kr == D_SUCCESS)
		*written = (int)req->done;
	return kr;
}

kern_return_t ds_device_write(device_t device, ipc_port_t reply_port,
			      mach_msg_type_name_t reply_portPoly,
			      dev_mode_t mode, recnum_t recnum,
			      io_buf_ptr_t data, mach_msg_type_number_t dataCnt,
			      int *bytes_written)
{
	struct vm_map_copy *copy = (struct vm_map_copy *)data;
	struct device *dev = DEV(device);
	struct io_req *req;
	kern_return_t kr;

	kr = check_io(dev, reply_port, mode, dataCnt,
		      dev && dev->module->ops->write, false);
	if (kr == D_SUCCESS && vm_map_copy_size(copy) != dataCnt)
		kr = D_INVALID_SIZE;
	if (kr == D_SUCCESS && !dev->module->ops->write_by_get &&
	    (dev->module->ops->write_reads_frames ?
	     vm_map_copy_frames(copy) : vm_map_copy_pages(copy)) !=
	    KERN_SUCCESS)
		kr = D_NO_MEMORY;
	if (kr != D_SUCCESS)
		return kr;	/* the data stays in the message */
	kr = io_req_alloc(dev, IO_WRITE, dataCnt, &req);
	if (kr != D_SUCCESS)
		return kr;
	req->mode = mode;
	req->recnum = recnum;
	req->copy = copy;
	kr = write_common(req, reply_port, reply_portPoly, bytes_written);
	if (kr == MIG_NO_REPLY)
		return kr;
	if (kr != D_SUCCESS)
		req->copy = NULL;	/* destroyed with the message */
	io_req_free(req);	/* on success, the data goes here */
	return kr;
}

kern_return_t ds_device_write_inband(device_t device, ipc_port_t reply_port,
				     mach_msg_type_name_t reply_portPoly,
				     dev_mode_t mode, recnum_t recnum,
				     const io_buf_ptr_inband_t data,
				     mach_msg_type_number_t dataCnt,
				     int *bytes_written)
{
	struct device *dev = DEV(device);
	struct io_req *req;
	kern_return_t kr;

	kr = check_io(dev, reply_port, mode, dataCnt,
		      dev && dev->module->ops->write, true);
	if (kr != D_SUCCESS)
		return kr;
	kr = io_req_alloc(dev, IO_WRITE_INBAND, dataCnt, &req);
	if (kr != D_SUCCESS)
		return kr;
	req->mode = mode;
	req->recnum = recnum;
	memcpy(req->inband, data, dataCnt);
	kr = write_common(req, reply_port, reply_portPoly, bytes_written);
	if (kr != MIG_NO_REPLY)
		io_req_free(req);
	return kr;
}

kern_return_t ds_device_map(device_t device, vm_prot_t prot,
			    vm_offset_t offset, vm_size_t size,
			    ipc_port_t *pager, int unmap)
{
	(void)prot;
	(void)offset;
	(void)size;
	(void)pager;
	(void)unmap;
	if (device == 0)
		return D_NO_SUCH_DEVICE;
	/* No module maps: Graft has no memory objects to hand out. */
	return D_INVALID_OPERATION;
}

/* The request ds_server_handle serves (MIG's stubs do not pass it to
 * the routines): what a set_status or get_status op gets as its call.
 * Interrupts off. */
static struct ipc_kmsg *serving;

kern_return_t ds_device_set_status(device_t device, dev_flavor_t flavor,
				   const dev_status_t status,
				   mach_msg_type_number_t statusCnt)
{
	struct device *dev = DEV(device);
	struct dev_call call = { .request = serving };
	io_return_t rc;

	if (dev == NULL)
		return D_NO_SUCH_DEVICE;
	if (dev->module->ops->set_status == NULL)
		return D_INVALID_OPERATION;
	rc = dev->module->ops->set_status(dev, &call, flavor, status,
					  statusCnt);
	return rc == D_IO_QUEUED ? MIG_NO_REPLY : rc;
}

io_return_t dev_reply_defer(struct dev_call *call, struct dev_reply *r)
{
	struct ipc_kmsg *request = call->request;
	struct ledger *ledger = task_current()->ledger;

	if (request == NULL) {
		kprintf("device: dev_reply_defer: the call's reply is taken\n");
		return D_INVALID_OPERATION;
	}
	if (!ledger_charge(ledger, LEDGER_IO_REQUESTS, 1))
		return D_WOULD_BLOCK;
	r->ledger = ledger;
	r->port = IPC_PORT_VALID(request->header.local) ?
		  request->header.local : NULL;
	r->type = MACH_MSGH_BITS_LOCAL(request->header.bits);
	r->id = request->header.id;
	request->header.local = NULL;	/* moved: freed without it */
	call->request = NULL;
	return D_IO_QUEUED;
}

void dev_reply_send(struct dev_reply *r, io_return_t code)
{
	uint64_t flags = cpu_intr_save();
	struct ipc_kmsg *reply;

	if (r->port != NULL) {
		reply = ipc_kobject_code_reply(r->id, r->port, r->type, code);
		if (reply != NULL) {
			ipc_mqueue_send_always(reply);
		} else {
			klog(&reply_log,
			     "device: no memory for a set_status reply\n");
			ipc_port_destroy_right(r->port, r->type);
		}
		r->port = NULL;
	}
	ledger_credit(r->ledger, LEDGER_IO_REQUESTS, 1);
	r->ledger = NULL;
	cpu_intr_restore(flags);
}

void dev_reply_send_status(struct dev_reply *r, io_return_t code,
			   const int *status, mach_msg_type_number_t count)
{
	uint64_t flags;

	if (code == D_SUCCESS && count > DEV_STATUS_MAX)
		code = D_IO_ERROR;	/* a module's bug */
	if (code != D_SUCCESS || r->port == NULL) {
		dev_reply_send(r, code);
		return;
	}
	flags = cpu_intr_save();
	/* The stub sends with mach_msg_send_from_kernel, which takes the
	 * right whatever happens. */
	if (ds_device_get_status_reply(r->port, r->type, code, (int *)status,
				       count) != MACH_MSG_SUCCESS)
		klog(&reply_log, "device: no memory for a get_status reply\n");
	r->port = NULL;
	ledger_credit(r->ledger, LEDGER_IO_REQUESTS, 1);
	r->ledger = NULL;
	cpu_intr_restore(flags);
}

kern_return_t ds_device_get_status(device_t device, dev_flavor_t flavor,
				   dev_status_t status,
				   mach_msg_type_number_t *statusCnt)
{
	struct device *dev = DEV(device);
	struct dev_call call = { .request = serving };
	io_return_t rc;

	if (dev == NULL)
		return D_NO_SUCH_DEVICE;
	if (dev->module->ops->get_status == NULL)
		return D_INVALID_OPERATION;
	if (*statusCnt > DEV_STATUS_MAX)
		*statusCnt = DEV_STATUS_MAX;
	rc = dev->module->ops->get_status(dev, &call, flavor, status,
					  statusCnt);
	return rc == D_IO_QUEUED ? MIG_NO_REPLY : rc;
}

kern_return_t ds_device_set_filter(device_t device, ipc_port_t receive_port,
				   int priority, const filter_array_t filter,
				   mach_msg_type_number_t filterCnt)
{
	struct device *dev = DEV(device);

	if (dev == NULL)
		return D_NO_SUCH_DEVICE;
	if (dev->module->ops->set_filter == NULL)
		return D_INVALID_OPERATION;
	return dev->module->ops->set_filter(dev, receive_port, priority,
					    filter, filterCnt);
}

kern_return_t ds_device_intr_register(device_t device, int id, int flags,
				      ipc_port_t receive_port)
{
	if (device == 0)
		return D_NO_SUCH_DEVICE;
	return dev_intr_register(DEV(device), id, flags, receive_port);
}

kern_return_t ds_device_intr_ack(device_t device, ipc_port_t receive_port)
{
	if (device == 0)
		return D_NO_SUCH_DEVICE;
	return dev_intr_ack(DEV(device), receive_port);
}

/*
 * The ipc_kobject handler of the device master port and of device ports
 * (kernel/ipc/ipc_kobject.h says who owns what); messages of other
 * interfaces go on to the kernel's MIG server (kernel/mig/).  A device port's own
 * no-senders notification, which only the kernel can send (through the
 * send-once right it made), closes the device.
 */
static mach_msg_return_t ds_server_handle(struct ipc_kmsg *request,
					  struct ipc_kmsg **reply)
{
	struct ipc_kmsg_header *h = &request->header;
	struct ipc_kmsg *out, *outer;
	kern_return_t kr;
	bool handled;

	*reply = NULL;
	if (h->id == MACH_NOTIFY_NO_SENDERS &&
	    MACH_MSGH_BITS_REMOTE(h->bits) == MACH_MSG_TYPE_PORT_SEND_ONCE) {
		dev_port_no_senders(h->remote);
		return MACH_MSG_SUCCESS;
	}
	/* Not zeroed, as for the MIG server (kernel/mig/mig_server.c): every
	 * ds_ routine writes all its out parameters when it succeeds. */
	out = ipc_kmsg_alloc_dirty(DS_REPLY_MAX);
	if (out == NULL)
		return KERN_RESOURCE_SHORTAGE;
	outer = serving;	/* a notification may nest */
	serving = request;
	handled = device_server(ipc_kmsg_msg(request), ipc_kmsg_msg(out)) ||
		  claim_server(ipc_kmsg_msg(request), ipc_kmsg_msg(out)) ||
		  proxy_server(ipc_kmsg_msg(request), ipc_kmsg_msg(out)) ||
		  device_direct_server(ipc_kmsg_msg(request),
				       ipc_kmsg_msg(out));
	serving = outer;
	if (!handled) {
		/* Not device.defs: i386_io_perm_create is also sent to
		 * the master port, and unknown ids get MIG_BAD_ID there. */
		ipc_kmsg_free(out);
		return mig_server_handle(request, reply);
	}
	kr = ((mig_reply_header_t *)ipc_kmsg_msg(out))->RetCode;
	if (kr == MIG_NO_REPLY) {
		ipc_kmsg_free(out);
		return MACH_MSG_SUCCESS;
	}
	*reply = out;
	return kr == KERN_SUCCESS ? MACH_MSG_SUCCESS : kr;
}

bool dev_master_admits_drivers(const struct ipc_port *port)
{
	return port == master_device_port || port == driver_master_port;
}

void device_init(void)
{
	ipc_kobject_set_handler(IKOT_MASTER_DEVICE, ds_server_handle);
	ipc_kobject_set_handler(IKOT_DRIVER_MASTER, ds_server_handle);
	ipc_kobject_set_handler(IKOT_DEVICE, ds_server_handle);
	io_req_init();
	dev_claim_init();
	dev_proxy_init();
	dev_module_init();
}
