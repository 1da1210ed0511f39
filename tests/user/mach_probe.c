/* SPDX-License-Identifier: GPL-2.0-only */
/* A user task that checks Mach IPC from user space, with newlib and MIG stubs only. */
/*
 * Built against gnumach-dev's headers, MIG user stubs and newlib, as a
 * program for GNU Mach would be.  Each check prints "USER-PASS name" or
 * "USER-FAIL name: expected ..., got ..."; the kernel's mach-user suite
 * reads them.  The last line is "USER-DONE n" (n checks), then exit(0)
 * ends the task through task_terminate.
 */
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <mach/notify.h>
#include <mach/port.h>
#include <mach/task_special_ports.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "user_args.h"
#include "user_check.h"
#include "user_port.h"

#pragma pack(push, 4)
struct inline_msg {
	mach_msg_header_t head;
	mach_msg_type_t type;
	char text[64];
};

struct ool_msg {
	mach_msg_header_t head;
	mach_msg_type_long_t type;
	void *data;
};

struct right_msg {
	mach_msg_header_t head;
	mach_msg_type_t type;
	mach_port_t port;
};

struct rights_ool_msg {
	mach_msg_header_t head;
	mach_msg_type_long_t type;
	mach_port_t *ports;
};
#pragma pack(pop)

static void header(mach_msg_header_t *h, mach_port_t dest, unsigned int disp,
		   mach_msg_size_t size, int complex)
{
	memset(h, 0, sizeof(*h));
	h->msgh_bits = MACH_MSGH_BITS(disp, 0) |
		       (complex ? MACH_MSGH_BITS_COMPLEX : 0);
	h->msgh_size = size;
	h->msgh_remote_port = dest;
	h->msgh_id = 4242;
}

static void inline_data_round_trip(mach_port_t p)
{
	struct inline_msg m, r;

	header(&m.head, p, MACH_MSG_TYPE_MAKE_SEND, sizeof(m), 0);
	m.type = (mach_msg_type_t){ MACH_MSG_TYPE_CHAR, 8, 64, 1, 0, 0, 0 };
	strcpy(m.text, "hello through a port");
	check("send_inline", MACH_MSG_SUCCESS,
	      mach_msg(&m.head, MACH_SEND_MSG, sizeof(m), 0, MACH_PORT_NULL,
		       0, MACH_PORT_NULL));
	memset(&r, 0, sizeof(r));
	check("receive_inline", MACH_MSG_SUCCESS,
	      mach_msg(&r.head, MACH_RCV_MSG, 0, sizeof(r), p, 0,
		       MACH_PORT_NULL));
	check("inline_text_arrives", 0, strcmp(r.text, "hello through a port"));
	check("inline_id_arrives", 4242, r.head.msgh_id);
}

static void out_of_line_round_trip(mach_port_t p)
{
	struct ool_msg m, r;
	char *buf = malloc(3 * 4096);

	for (int i = 0; i < 3 * 4096; i++)
		buf[i] = (char)(i * 7);
	header(&m.head, p, MACH_MSG_TYPE_MAKE_SEND, sizeof(m), 1);
	memset(&m.type, 0, sizeof(m.type));
	m.type.msgtl_header.msgt_inline = 0;
	m.type.msgtl_header.msgt_longform = 1;
	m.type.msgtl_name = MACH_MSG_TYPE_BYTE;
	m.type.msgtl_size = 8;
	m.type.msgtl_number = 3 * 4096;
	m.data = buf;
	check("send_out_of_line", MACH_MSG_SUCCESS,
	      mach_msg(&m.head, MACH_SEND_MSG, sizeof(m), 0, MACH_PORT_NULL,
		       0, MACH_PORT_NULL));
	memset(buf, 0, 3 * 4096);	/* the message holds a snapshot */
	check("receive_out_of_line", MACH_MSG_SUCCESS,
	      mach_msg(&r.head, MACH_RCV_MSG, 0, sizeof(r), p, 0,
		       MACH_PORT_NULL));
	int same = 1;
	for (int i = 0; i < 3 * 4096; i++)
		same &= ((char *)r.data)[i] == (char)(i * 7);
	check("out_of_line_bytes_arrive", 1, same);
	check("out_of_line_memory_is_released", KERN_SUCCESS,
	      vm_deallocate(mach_task_self(), (vm_address_t)r.data, 3 * 4096));
	free(buf);
}

static void port_right_round_trip(mach_port_t p)
{
	struct right_msg m, r;
	mach_port_t q = new_receive();
	mach_port_urefs_t refs = 0;

	header(&m.head, p, MACH_MSG_TYPE_MAKE_SEND, sizeof(m), 1);
	m.type = (mach_msg_type_t){ MACH_MSG_TYPE_MAKE_SEND, 32, 1, 1, 0, 0,
				    0 };
	m.port = q;
	check("send_right_in_message", MACH_MSG_SUCCESS,
	      mach_msg(&m.head, MACH_SEND_MSG, sizeof(m), 0, MACH_PORT_NULL,
		       0, MACH_PORT_NULL));
	check("receive_right_in_message", MACH_MSG_SUCCESS,
	      mach_msg(&r.head, MACH_RCV_MSG, 0, sizeof(r), p, 0,
		       MACH_PORT_NULL));
	/* Our own port comes back under its name, as a send right. */
	check("received_right_has_our_name", q, r.port);
	mach_port_get_refs(mach_task_self(), q, MACH_PORT_RIGHT_SEND, &refs);
	check("received_send_right_counted", 1, refs);
	check("port_destroyed", KERN_SUCCESS,
	      mach_port_destroy(mach_task_self(), q));
}

static void bad_inputs(mach_port_t p)
{
	struct inline_msg m, small;
	struct ool_msg o;
	struct rights_ool_msg ro;
	mach_port_t bad[2];

	/* Larger than the receive buffer. */
	header(&m.head, p, MACH_MSG_TYPE_MAKE_SEND, sizeof(m), 0);
	m.type = (mach_msg_type_t){ MACH_MSG_TYPE_CHAR, 8, 64, 1, 0, 0, 0 };
	mach_msg(&m.head, MACH_SEND_MSG, sizeof(m), 0, MACH_PORT_NULL, 0,
		 MACH_PORT_NULL);
	check("rcv_too_large", MACH_RCV_TOO_LARGE,
	      mach_msg(&small.head, MACH_RCV_MSG, 0, sizeof(mach_msg_header_t),
		       p, 0, MACH_PORT_NULL));
	/* A name we do not have. */
	header(&m.head, 0x7777, MACH_MSG_TYPE_COPY_SEND, sizeof(m), 0);
	check("bad_destination_name", MACH_SEND_INVALID_DEST,
	      mach_msg(&m.head, MACH_SEND_MSG, sizeof(m), 0, MACH_PORT_NULL,
		       0, MACH_PORT_NULL));
	/* A right we do not hold: COPY_SEND of a receive-only name. */
	header(&m.head, p, MACH_MSG_TYPE_COPY_SEND, sizeof(m), 0);
	check("right_not_held", MACH_SEND_INVALID_DEST,
	      mach_msg(&m.head, MACH_SEND_MSG, sizeof(m), 0, MACH_PORT_NULL,
		       0, MACH_PORT_NULL));
	/* Out-of-line data at an unmapped address. */
	header(&o.head, p, MACH_MSG_TYPE_MAKE_SEND, sizeof(o), 1);
	memset(&o.type, 0, sizeof(o.type));
	o.type.msgtl_header.msgt_longform = 1;
	o.type.msgtl_name = MACH_MSG_TYPE_BYTE;
	o.type.msgtl_size = 8;
	o.type.msgtl_number = 4096;
	o.data = (void *)0x10;
	check("bad_out_of_line_address", MACH_SEND_INVALID_MEMORY,
	      mach_msg(&o.head, MACH_SEND_MSG, sizeof(o), 0, MACH_PORT_NULL,
		       0, MACH_PORT_NULL));
	/* Zero-length out-of-line region: allowed, arrives as address 0. */
	o.type.msgtl_number = 0;
	o.data = NULL;
	check("zero_length_out_of_line_sends", MACH_MSG_SUCCESS,
	      mach_msg(&o.head, MACH_SEND_MSG, sizeof(o), 0, MACH_PORT_NULL,
		       0, MACH_PORT_NULL));
	check("zero_length_out_of_line_receives", MACH_MSG_SUCCESS,
	      mach_msg(&o.head, MACH_RCV_MSG, 0, sizeof(o), p, 0,
		       MACH_PORT_NULL));
	check("zero_length_out_of_line_is_null", 0, (long)o.data);
	/* A port-right array with a bad entry. */
	bad[0] = p;
	bad[1] = 0x6666;
	header(&ro.head, p, MACH_MSG_TYPE_MAKE_SEND, sizeof(ro), 1);
	memset(&ro.type, 0, sizeof(ro.type));
	ro.type.msgtl_header.msgt_longform = 1;
	ro.type.msgtl_name = MACH_MSG_TYPE_MAKE_SEND;
	ro.type.msgtl_size = 32;
	ro.type.msgtl_number = 2;
	ro.ports = bad;
	check("port_array_with_bad_entry", MACH_SEND_INVALID_RIGHT,
	      mach_msg(&ro.head, MACH_SEND_MSG, sizeof(ro), 0, MACH_PORT_NULL,
		       0, MACH_PORT_NULL));
	/* Timeout on an empty port. */
	check("receive_times_out", MACH_RCV_TIMED_OUT,
	      mach_msg(&m.head, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0, sizeof(m),
		       p, 20, MACH_PORT_NULL));
}

static void receive_on_dead_port(void)
{
	struct inline_msg m;
	mach_port_t q = new_receive();

	mach_port_destroy(mach_task_self(), q);
	check("receive_on_destroyed_port", MACH_RCV_INVALID_NAME,
	      mach_msg(&m.head, MACH_RCV_MSG, 0, sizeof(m), q, 0,
		       MACH_PORT_NULL));
}

/* The syscall_vm_deallocate trap frees what it names (the range can be
 * allocated again at the same address), and names no task otherwise. */
static void syscall_vm_deallocate_trap(void)
{
	vm_address_t a = 0, b;

	check("syscall_vm_deallocate_setup", KERN_SUCCESS,
	      vm_allocate(mach_task_self(), &a, 8192, TRUE));
	((volatile long *)a)[600] = 1;	/* a resident page */
	check("syscall_vm_deallocate_trap", KERN_SUCCESS,
	      syscall_vm_deallocate(mach_task_self(), a, 8192));
	b = a;
	check("syscall_vm_deallocate_frees_the_range", KERN_SUCCESS,
	      vm_allocate(mach_task_self(), &b, 8192, FALSE));
	check("syscall_vm_deallocate_range_comes_back_zeroed", 0,
	      ((volatile long *)b)[600]);
	check("syscall_vm_deallocate_null_is_send_interrupted",
	      MACH_SEND_INTERRUPTED,
	      syscall_vm_deallocate(MACH_PORT_NULL, b, 8192));
	check("syscall_vm_deallocate_host_port_is_send_interrupted",
	      MACH_SEND_INTERRUPTED,
	      syscall_vm_deallocate(mach_host_self(), b, 8192));
	check("syscall_vm_deallocate_leaves_the_range_then", 0,
	      ((volatile long *)b)[600]);
	check("syscall_vm_deallocate_cleanup", KERN_SUCCESS,
	      vm_deallocate(mach_task_self(), b, 8192));
}

static void kernel_rpcs(void)
{
	mach_port_t bootstrap = 1, p = MACH_PORT_NULL;
	vm_address_t a = 0;
	mach_port_type_t type = 0;

	check("vm_allocate_rpc", KERN_SUCCESS,
	      vm_allocate(mach_task_self(), &a, 8192, TRUE));
	check("vm_allocate_gives_zeroed_memory", 0, ((volatile long *)a)[100]);
	check("vm_protect_rpc", KERN_SUCCESS,
	      vm_protect(mach_task_self(), a, 8192, FALSE, VM_PROT_READ));
	check("vm_deallocate_rpc", KERN_SUCCESS,
	      vm_deallocate(mach_task_self(), a, 8192));
	check("vm_allocate_zero_size", KERN_INVALID_ARGUMENT,
	      vm_allocate(mach_task_self(), &a, 0, TRUE));
	syscall_vm_deallocate_trap();
	check("mach_port_allocate_rpc", KERN_SUCCESS,
	      mach_port_allocate(mach_task_self(), MACH_PORT_RIGHT_RECEIVE, &p));
	check("mach_port_type_rpc", KERN_SUCCESS,
	      mach_port_type(mach_task_self(), p, &type));
	check("mach_port_type_is_receive", MACH_PORT_TYPE_RECEIVE, type);
	check("mach_port_type_bad_name", KERN_INVALID_NAME,
	      mach_port_type(mach_task_self(), 0x5555, &type));
	check("task_get_bootstrap_port_rpc", KERN_SUCCESS,
	      task_get_bootstrap_port(mach_task_self(), &bootstrap));
	check("bootstrap_port_is_null", MACH_PORT_NULL, bootstrap);
	check("unserved_routine_fails", KERN_FAILURE,
	      task_set_emulation(mach_task_self(), 0, 0));
}

/* The rights the boot script gave this task, and what the privileged
 * host port allows that the ordinary one does not. */
static void boot_script_ports(mach_port_t host_priv, mach_port_t device)
{
	mach_port_type_t type = 0;
	vm_address_t va = 0;
	rpc_phys_addr_t pa = 0;

	check("host_port_argument_is_send_right", KERN_SUCCESS,
	      mach_port_type(mach_task_self(), host_priv, &type));
	check("host_port_type", MACH_PORT_TYPE_SEND, type);
	type = 0;
	check("device_port_argument_is_send_right", KERN_SUCCESS,
	      mach_port_type(mach_task_self(), device, &type));
	check("device_port_type", MACH_PORT_TYPE_SEND, type);
	check("contiguous_with_privileged_host", KERN_SUCCESS,
	      vm_allocate_contiguous(host_priv, mach_task_self(), &va, &pa,
				     8192, 0, 0, 0));
	check("contiguous_gives_page_aligned_physical_address", 1,
	      pa != 0 && (pa & 4095) == 0);
	((volatile char *)va)[8191] = 1;
	check("contiguous_region_deallocates", KERN_SUCCESS,
	      vm_deallocate(mach_task_self(), va, 8192));
	check("contiguous_with_ordinary_host_refused", KERN_INVALID_HOST,
	      vm_allocate_contiguous(mach_host_self(), mach_task_self(), &va,
				     &pa, 8192, 0, 0, 0));
}

int main(int argc, char **argv)
{
	mach_port_t p;

	printf("mach_probe: %d argument(s), first %s\n", argc, argv[0]);
	boot_script_ports(graft_arg_port(argc, argv, "host"),
			  graft_arg_port(argc, argv, "device"));
	p = new_receive();
	check("port_allocated", 1, p != MACH_PORT_NULL);
	inline_data_round_trip(p);
	out_of_line_round_trip(p);
	port_right_round_trip(p);
	bad_inputs(p);
	receive_on_dead_port();
	kernel_rpcs();
	printf("USER-DONE %d\n", checks);
	return 0;
}
