/* SPDX-License-Identifier: GPL-2.0-only */
/* A user task that checks mach_host.defs routines and vm_read / vm_write, with newlib and MIG stubs only. */
/*
 * Modes (word "mode=..."):
 *   self    host_info, host_processors, processor_info,
 *           host_kernel_version, host_get_time, vm_read /
 *           vm_write on its own memory, mach_port_names and
 *           mach_port_get_set_status (arguments host=, device= as the
 *           boot script gives them); prints "USER-INFO memory_size N" for
 *           the kernel suite to compare with what it knows
 *   reader  receives a peer's task port on its bootstrap port, reads the
 *           peer's buffer with vm_read and overwrites another with vm_write
 *   peer    sends its task port and two buffers to the reader, waits for
 *           the answer, then checks what the reader wrote
 * Each check prints "USER-PASS name" or "USER-FAIL ..."; "USER-DONE n"
 * ends the run (see tests/kernel/hostio_test.c).
 */
#include <mach/host_info.h>
#include <mach/machine.h>
#include <mach/message.h>
#include <mach/processor_info.h>
#include <mach/task_special_ports.h>
#include <mach/thread_switch.h>
#include <mach/vm_prot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "mach_host.h"
#include "user_args.h"
#include "user_check.h"

#define PAGE	4096ul
#define KERNEL_ADDRESS	0xffff800000000000ul
#define USER_END	0x0000800000000000ul

static void host_info_checks(mach_port_t host_priv)
{
	struct host_basic_info basic;
	struct host_sched_info sched;
	struct host_load_info load;
	integer_t slots[4];
	mach_msg_type_number_t count;

	count = HOST_BASIC_INFO_COUNT;
	memset(&basic, 0, sizeof(basic));
	check("basic_info", KERN_SUCCESS,
	      host_info(mach_host_self(), HOST_BASIC_INFO,
			(host_info_t)&basic, &count));
	check("basic_info_count", HOST_BASIC_INFO_COUNT, count);
	check("basic_info_max_cpus", 1, basic.max_cpus);
	check("basic_info_avail_cpus", 1, basic.avail_cpus);
	check("basic_info_cpu_type_is_x86_64_class", CPU_TYPE_PENTIUMPRO,
	      basic.cpu_type);
	check("basic_info_cpu_subtype", CPU_SUBTYPE_AT386, basic.cpu_subtype);
	printf("USER-INFO memory_size %lu\n", (unsigned long)basic.memory_size);

	count = HOST_BASIC_INFO_COUNT;
	check("basic_info_through_privileged_host_port", KERN_SUCCESS,
	      host_info(host_priv, HOST_BASIC_INFO, (host_info_t)&basic,
			&count));
	count = 2;
	check("basic_info_with_short_count_fails", KERN_FAILURE,
	      host_info(mach_host_self(), HOST_BASIC_INFO,
			(host_info_t)&basic, &count));
	count = HOST_BASIC_INFO_COUNT;
	check("host_info_on_task_port_is_invalid_host", KERN_INVALID_HOST,
	      host_info(mach_task_self(), HOST_BASIC_INFO,
			(host_info_t)&basic, &count));

	count = HOST_SCHED_INFO_COUNT;
	check("sched_info", KERN_SUCCESS,
	      host_info(mach_host_self(), HOST_SCHED_INFO,
			(host_info_t)&sched, &count));
	check("sched_info_count", HOST_SCHED_INFO_COUNT, count);
	check("sched_info_min_timeout_is_one_tick_ms", 10, sched.min_timeout);
	check("sched_info_min_quantum_ms", 50, sched.min_quantum);

	count = 4;
	check("processor_slots", KERN_SUCCESS,
	      host_info(mach_host_self(), HOST_PROCESSOR_SLOTS, slots,
			&count));
	check("processor_slots_one_cpu", 1, count);
	check("processor_slots_slot_zero", 0, slots[0]);

	count = HOST_LOAD_INFO_COUNT;
	check("load_info_not_measured_fails", KERN_FAILURE,
	      host_info(mach_host_self(), HOST_LOAD_INFO,
			(host_info_t)&load, &count));
	count = 8;
	check("unknown_flavor_is_invalid_argument", KERN_INVALID_ARGUMENT,
	      host_info(mach_host_self(), 99, slots, &count));
}

static void processor_checks(mach_port_t host_priv)
{
	processor_array_t list = NULL;
	mach_msg_type_number_t n = 0, count;
	struct processor_basic_info basic;
	mach_port_t host = MACH_PORT_NULL;
	integer_t info[8];

	check("processors", KERN_SUCCESS,
	      host_processors(host_priv, &list, &n));
	check("processors_one_cpu", 1, n);
	if (n != 1)
		return;
	count = PROCESSOR_BASIC_INFO_COUNT;
	memset(&basic, 0, sizeof(basic));
	check("processor_info", KERN_SUCCESS,
	      processor_info(list[0], PROCESSOR_BASIC_INFO, &host,
			     (processor_info_t)&basic, &count));
	check("processor_info_count", PROCESSOR_BASIC_INFO_COUNT, count);
	check("processor_info_cpu_type", CPU_TYPE_PENTIUMPRO, basic.cpu_type);
	check("processor_info_running_master_slot_zero", 1,
	      basic.running && basic.is_master && basic.slot_num == 0);
	check("processor_info_names_the_host_port", mach_host_self(), host);
	count = 8;
	check("processor_info_unknown_flavor_is_invalid_argument",
	      KERN_INVALID_ARGUMENT,
	      processor_info(list[0], 99, &host, info, &count));
	count = 2;
	check("processor_info_short_count_fails", KERN_FAILURE,
	      processor_info(list[0], PROCESSOR_BASIC_INFO, &host, info,
			     &count));
	count = 8;
	check("processor_info_on_task_port_is_invalid_argument",
	      KERN_INVALID_ARGUMENT,
	      processor_info(mach_task_self(), PROCESSOR_BASIC_INFO, &host,
			     info, &count));
	check("processors_needs_privileged_host_port", KERN_INVALID_HOST,
	      host_processors(mach_host_self(), &list, &n));
	mach_port_deallocate(mach_task_self(), list[0]);
	vm_deallocate(mach_task_self(), (vm_address_t)list, sizeof(*list));
}

static void version_and_time_checks(mach_port_t host_priv)
{
	kernel_version_t version;
	time_value_t t1, t2;
	long long us;

	memset(version, 0x7f, sizeof(version));
	check("kernel_version", KERN_SUCCESS,
	      host_kernel_version(mach_host_self(), version));
	check("kernel_version_names_graft", 0, strncmp(version, "Graft ", 6));
	check("kernel_version_terminated", 1,
	      memchr(version, '\0', sizeof(version)) != NULL);

	check("get_time", KERN_SUCCESS, host_get_time(mach_host_self(), &t1));
	check("get_time_microseconds_below_one_million", 1,
	      t1.microseconds >= 0 && t1.microseconds < 1000000);
	thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 100);
	check("get_time_again", KERN_SUCCESS,
	      host_get_time(mach_host_self(), &t2));
	us = (t2.seconds - t1.seconds) * 1000000LL +
	     (t2.microseconds - t1.microseconds);
	/* Sleeps count ticks and the clock counts TSC cycles, which under
	 * QEMU's TCG disagree by up to a quarter: a loose lower bound. */
	check("get_time_advances_by_about_the_100ms_slept", 1,
	      us >= 50000 && us < 5000000);
	if (us < 50000 || us >= 5000000)
		printf("  (%lld us between the two calls)\n", us);
	check("get_time_on_task_port_is_invalid_host", KERN_INVALID_HOST,
	      host_get_time(mach_task_self(), &t2));
	/* In-direction time_value_t: the stub builds; the routine is not
	 * served (the kernel answers KERN_FAILURE). */
	check("set_time_not_served", KERN_FAILURE,
	      host_set_time(host_priv, t1));
}

/* Two pages of @fill at a new address; with @touch_second 0 the second
 * page is never touched. */
static vm_address_t filled_pages(int fill, int touch_second)
{
	vm_address_t a = 0;

	if (vm_allocate(mach_task_self(), &a, 2 * PAGE, 1) != KERN_SUCCESS)
		return 0;
	memset((void *)a, fill, touch_second ? 2 * PAGE : PAGE);
	return a;
}

static void vm_read_checks(void)
{
	vm_address_t src = filled_pages(0, 1), none = 0;
	vm_offset_t data = 0;
	mach_msg_type_number_t count = 0;

	for (unsigned long i = 0; i < 2 * PAGE; i++)
		((unsigned char *)src)[i] = (unsigned char)(i * 7 + 3);
	check("read_own_memory", KERN_SUCCESS,
	      vm_read(mach_task_self(), src + 100, 5000, &data, &count));
	check("read_count_is_size", 5000, count);
	check("read_data_equal", 0,
	      data != 0 ? memcmp((void *)data, (void *)(src + 100), 5000) : -1);
	check("read_data_is_a_copy", 1, data != src + 100);
	if (data != 0)
		vm_deallocate(mach_task_self(), data & ~(PAGE - 1), 2 * PAGE);

	check("read_whole_pages", KERN_SUCCESS,
	      vm_read(mach_task_self(), src, 2 * PAGE, &data, &count));
	check("read_whole_pages_page_aligned", 0, (long)(data & (PAGE - 1)));
	if (count == 2 * PAGE)
		vm_deallocate(mach_task_self(), data, 2 * PAGE);

	vm_allocate(mach_task_self(), &none, PAGE, 1);
	vm_deallocate(mach_task_self(), none, PAGE);
	check("read_unmapped_is_invalid_address", KERN_INVALID_ADDRESS,
	      vm_read(mach_task_self(), none, 16, &data, &count));
	check("read_past_the_end_is_invalid_address", KERN_INVALID_ADDRESS,
	      vm_read(mach_task_self(), src + PAGE, 2 * PAGE, &data, &count));
	check("read_kernel_address_is_invalid_address", KERN_INVALID_ADDRESS,
	      vm_read(mach_task_self(), KERNEL_ADDRESS, 16, &data, &count));
	check("read_beyond_user_space_is_invalid_address",
	      KERN_INVALID_ADDRESS,
	      vm_read(mach_task_self(), USER_END - PAGE, 2 * PAGE, &data,
		      &count));
	check("read_over_4gib_is_invalid_argument", KERN_INVALID_ARGUMENT,
	      vm_read(mach_task_self(), src, 1ul << 32, &data, &count));
	vm_protect(mach_task_self(), src + PAGE, PAGE, 0, VM_PROT_NONE);
	check("read_unreadable_is_protection_failure",
	      KERN_PROTECTION_FAILURE,
	      vm_read(mach_task_self(), src, 2 * PAGE, &data, &count));
	check("read_on_host_port_is_invalid_argument", KERN_INVALID_ARGUMENT,
	      vm_read(mach_host_self(), src, 16, &data, &count));
	vm_deallocate(mach_task_self(), src, 2 * PAGE);
}

static void vm_write_checks(void)
{
	vm_address_t src = filled_pages(0x5a, 1);
	vm_address_t dst = filled_pages(0x11, 0);	/* 2nd page untouched */
	int same = 1;

	check("write_own_memory", KERN_SUCCESS,
	      vm_write(mach_task_self(), dst, src, 2 * PAGE));
	for (unsigned long i = 0; i < 2 * PAGE; i++)
		same &= ((unsigned char *)dst)[i] == 0x5a;
	check("write_reached_touched_and_untouched_pages", 1, same);
	check("write_source_unchanged", 0x5a, ((unsigned char *)src)[0]);
	memset((void *)src, 0x33, 2 * PAGE);	/* what refused writes carry */
	check("write_unaligned_address_is_invalid_argument",
	      KERN_INVALID_ARGUMENT,
	      vm_write(mach_task_self(), dst + 8, src, PAGE));
	check("write_partial_page_is_invalid_argument", KERN_INVALID_ARGUMENT,
	      vm_write(mach_task_self(), dst, src, 100));
	check("write_past_the_end_is_invalid_address", KERN_INVALID_ADDRESS,
	      vm_write(mach_task_self(), dst + PAGE, src, 2 * PAGE));
	check("write_kernel_address_is_invalid_address", KERN_INVALID_ADDRESS,
	      vm_write(mach_task_self(), KERNEL_ADDRESS, src, PAGE));
	vm_protect(mach_task_self(), dst, PAGE, 0, VM_PROT_READ);
	check("write_read_only_is_protection_failure",
	      KERN_PROTECTION_FAILURE,
	      vm_write(mach_task_self(), dst, src, PAGE));
	check("write_refused_left_memory_alone", 0x5a,
	      ((unsigned char *)dst)[0]);
	vm_deallocate(mach_task_self(), src, 2 * PAGE);
	vm_deallocate(mach_task_self(), dst, 2 * PAGE);
}

/* Index of @name in @names[0..n), or -1. */
static int find_name(const mach_port_t *names, unsigned int n,
		     mach_port_t name)
{
	for (unsigned int i = 0; i < n; i++)
		if (names[i] == name)
			return (int)i;
	return -1;
}

static void port_array_checks(void)
{
	mach_port_t a = MACH_PORT_NULL, b = MACH_PORT_NULL;
	mach_port_t set = MACH_PORT_NULL;
	mach_port_t *names = NULL, *members = NULL;
	mach_port_type_t *types = NULL;
	mach_msg_type_number_t nnames = 0, ntypes = 0, nmembers = 0;
	int ia, is;

	mach_port_allocate(mach_task_self(), MACH_PORT_RIGHT_RECEIVE, &a);
	mach_port_allocate(mach_task_self(), MACH_PORT_RIGHT_RECEIVE, &b);
	mach_port_allocate(mach_task_self(), MACH_PORT_RIGHT_PORT_SET, &set);
	mach_port_move_member(mach_task_self(), a, set);
	mach_port_move_member(mach_task_self(), b, set);

	check("names", KERN_SUCCESS,
	      mach_port_names(mach_task_self(), &names, &nnames, &types,
			      &ntypes));
	check("names_and_types_counts_agree", nnames, ntypes);
	ia = find_name(names, nnames, a);
	is = find_name(names, nnames, set);
	check("names_lists_receive_right", 1,
	      ia >= 0 && types[ia] == MACH_PORT_TYPE_RECEIVE);
	check("names_lists_port_set", 1,
	      is >= 0 && types[is] == MACH_PORT_TYPE_PORT_SET);
	check("names_lists_own_task_port", 1,
	      find_name(names, nnames, mach_task_self()) >= 0);
	vm_deallocate(mach_task_self(), (vm_address_t)names,
		      nnames * sizeof(*names));
	vm_deallocate(mach_task_self(), (vm_address_t)types,
		      ntypes * sizeof(*types));
	check("names_on_host_port_is_invalid_task", KERN_INVALID_TASK,
	      mach_port_names(mach_host_self(), &names, &nnames, &types,
			      &ntypes));

	check("set_status", KERN_SUCCESS,
	      mach_port_get_set_status(mach_task_self(), set, &members,
				       &nmembers));
	check("set_status_two_members", 2, nmembers);
	check("set_status_names_both", 1,
	      nmembers == 2 && find_name(members, 2, a) >= 0 &&
	      find_name(members, 2, b) >= 0);
	vm_deallocate(mach_task_self(), (vm_address_t)members,
		      nmembers * sizeof(*members));
	mach_port_move_member(mach_task_self(), a, MACH_PORT_NULL);
	mach_port_move_member(mach_task_self(), b, MACH_PORT_NULL);
	check("set_status_of_empty_set", KERN_SUCCESS,
	      mach_port_get_set_status(mach_task_self(), set, &members,
				       &nmembers));
	check("set_status_of_empty_set_is_empty", 0, nmembers);
	check("set_status_of_receive_right_is_invalid_right",
	      KERN_INVALID_RIGHT,
	      mach_port_get_set_status(mach_task_self(), a, &members,
				       &nmembers));
	check("set_status_of_unused_name_is_invalid_name", KERN_INVALID_NAME,
	      mach_port_get_set_status(mach_task_self(), 0x7ffff, &members,
				       &nmembers));
	mach_port_destroy(mach_task_self(), a);
	mach_port_destroy(mach_task_self(), b);
	mach_port_destroy(mach_task_self(), set);
}

#pragma pack(push, 4)
/* peer -> reader: the peer's task port and its two buffers. */
struct peer_msg {
	mach_msg_header_t head;
	mach_msg_type_t task_type;
	mach_port_t task;
	mach_msg_type_t addr_type;
	vm_address_t addr[2];
};

struct done_msg {
	mach_msg_header_t head;
	mach_msg_type_t ret_type;
	kern_return_t ret[2];
};
#pragma pack(pop)

static mach_port_t bootstrap(void)
{
	mach_port_t p = MACH_PORT_NULL;

	task_get_special_port(mach_task_self(), TASK_BOOTSTRAP_PORT, &p);
	return p;
}

static void reader(void)
{
	struct { struct peer_msg m; char trailer[64]; } in;
	struct done_msg out;
	vm_offset_t data = 0;
	mach_msg_type_number_t count = 0;
	vm_address_t page = filled_pages(0x77, 1);
	int same = 1;

	memset(&in, 0, sizeof(in));
	check("reader_receives_peer", MACH_MSG_SUCCESS,
	      mach_msg(&in.m.head, MACH_RCV_MSG, 0, sizeof(in), bootstrap(),
		       0, MACH_PORT_NULL));
	check("read_peer_memory", KERN_SUCCESS,
	      vm_read(in.m.task, in.m.addr[0], PAGE, &data, &count));
	for (unsigned long i = 0; data != 0 && i < PAGE; i++)
		same &= ((unsigned char *)data)[i] == (unsigned char)(i ^ 0x3c);
	check("read_peer_memory_equal", 1, data != 0 && same);
	memset(&out, 0, sizeof(out));
	out.ret[0] = vm_write(in.m.task, in.m.addr[1], page, PAGE);
	out.ret[1] = vm_read(in.m.task, KERNEL_ADDRESS, 16, &data, &count);
	out.head.msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_MOVE_SEND_ONCE, 0);
	out.head.msgh_size = sizeof(out);
	out.head.msgh_remote_port = in.m.head.msgh_remote_port;
	out.head.msgh_id = 2;
	out.ret_type = (mach_msg_type_t){ MACH_MSG_TYPE_INTEGER_32, 32, 2, 1,
					  0, 0, 0 };
	check("reader_answers", MACH_MSG_SUCCESS,
	      mach_msg(&out.head, MACH_SEND_MSG, sizeof(out), 0,
		       MACH_PORT_NULL, 0, MACH_PORT_NULL));
}

static void peer(void)
{
	vm_address_t a = filled_pages(0, 1), b = filled_pages(0x22, 1);
	mach_port_t reply = MACH_PORT_NULL;
	struct peer_msg m;
	struct { struct done_msg m; char trailer[64]; } in;
	int same = 1;

	for (unsigned long i = 0; i < PAGE; i++)
		((unsigned char *)a)[i] = (unsigned char)(i ^ 0x3c);
	mach_port_allocate(mach_task_self(), MACH_PORT_RIGHT_RECEIVE, &reply);
	memset(&m, 0, sizeof(m));
	m.head.msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND,
					  MACH_MSG_TYPE_MAKE_SEND_ONCE) |
			   MACH_MSGH_BITS_COMPLEX;
	m.head.msgh_size = sizeof(m);
	m.head.msgh_remote_port = bootstrap();
	m.head.msgh_local_port = reply;
	m.head.msgh_id = 1;
	m.task_type = (mach_msg_type_t){ MACH_MSG_TYPE_COPY_SEND, 32, 1, 1,
					 0, 0, 0 };
	m.task = mach_task_self();
	m.addr_type = (mach_msg_type_t){ MACH_MSG_TYPE_INTEGER_64, 64, 2, 1,
					 0, 0, 0 };
	m.addr[0] = a;
	m.addr[1] = b;
	check("peer_sends_task_port", MACH_MSG_SUCCESS,
	      mach_msg(&m.head, MACH_SEND_MSG, sizeof(m), 0, MACH_PORT_NULL,
		       0, MACH_PORT_NULL));
	memset(&in, 0, sizeof(in));
	check("peer_gets_answer", MACH_MSG_SUCCESS,
	      mach_msg(&in.m.head, MACH_RCV_MSG, 0, sizeof(in), reply, 0,
		       MACH_PORT_NULL));
	check("reader_vm_write_succeeded", KERN_SUCCESS, in.m.ret[0]);
	check("reader_vm_read_of_kernel_address_refused",
	      KERN_INVALID_ADDRESS, in.m.ret[1]);
	for (unsigned long i = 0; i < PAGE; i++)
		same &= ((unsigned char *)b)[i] == 0x77;
	check("peer_memory_overwritten_by_reader", 1, same);
	check("peer_other_page_untouched", 0x22,
	      ((unsigned char *)b)[PAGE]);
}

int main(int argc, char **argv)
{
	if (has_word(argc, argv, "mode=reader")) {
		reader();
	} else if (has_word(argc, argv, "mode=peer")) {
		peer();
	} else {
		mach_port_t host_priv = graft_arg_port(argc, argv, "host");

		host_info_checks(host_priv);
		processor_checks(host_priv);
		version_and_time_checks(host_priv);
		vm_read_checks();
		vm_write_checks();
		port_array_checks();
	}
	printf("USER-DONE %d\n", checks);
	return 0;
}
