/* SPDX-License-Identifier: GPL-2.0-only */
/* A user task that makes threads in itself and in a child task through mach.defs, with MIG stubs only. */
/*
 * Built like mach_probe.c (gnumach-dev headers, MIG user stubs, newlib).
 * Each check prints "USER-PASS name" or "USER-FAIL name: ..."; the last
 * line is "USER-DONE n".  The kernel's thread suite reads them.
 *
 * Threads made here run small functions on stacks from vm_allocate below
 * 4 GiB (gnumach-dev's x86_64 thread state has 32-bit registers).  They
 * make no MIG calls while the main thread may make one (the runtime's
 * reply port is per task) and never use newlib: they talk through raw
 * mach_msg_trap calls and globals.
 *
 * Around the child-task case the program prints "CHECKPOINT before" and
 * "CHECKPOINT after" through mach_print and suspends itself: the kernel
 * suite compares its page, heap, port and thread counters at the two
 * points and resumes the task.  The case runs once before the first
 * checkpoint so that the main thread's own pages are all touched then.
 */
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <mach/notify.h>
#include <mach/port.h>
#include <mach/task_info.h>
#include <mach/task_special_ports.h>
#include <mach/thread_info.h>
#include <mach/machine/thread_status.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "graft_user.h"
#include "user_check.h"
#include "user_port.h"

#define STACK_SIZE	(64 * 1024)
/* Below 4 GiB: the thread state has 32-bit registers. */
#define STACK_BASE	0x20000000u
#define SEL_UCODE	0x2b
#define SEL_UDATA	0x23
#define SEL_KCODE	0x08
/* Far more TSC ticks than a few scheduler quanta take. */
#define TSC_BOUND	(20ull * 1000 * 1000 * 1000)

#pragma pack(push, 4)
struct word_msg {
	mach_msg_header_t head;
	mach_msg_type_t type;
	uint32_t value;
};

struct notify_msg {
	mach_msg_header_t head;
	mach_msg_type_t type;
	mach_port_t name;
	char pad[64];
};
#pragma pack(pop)

/* What the threads share with the main thread. */
static volatile uint64_t spin_count;
static volatile mach_port_t block_port, report_port;
static volatile uint32_t inherited_marker;
static unsigned int next_stack;
static uint32_t child_stack_top[2];	/* allocated before the first fork */

static mach_msg_return_t send_word(mach_port_t dest, unsigned int disp,
				   uint32_t value, mach_msg_option_t option)
{
	struct word_msg m;

	memset(&m, 0, sizeof(m));
	m.head.msgh_bits = MACH_MSGH_BITS(disp, 0);
	m.head.msgh_size = sizeof(m);
	m.head.msgh_remote_port = dest;
	m.head.msgh_id = 7000;
	m.type = (mach_msg_type_t){ MACH_MSG_TYPE_INTEGER_32, 32, 1, 1, 0, 0,
				    0 };
	m.value = value;
	return mach_msg_trap(&m.head, MACH_SEND_MSG | option, sizeof(m), 0,
			     MACH_PORT_NULL, 0, MACH_PORT_NULL);
}

union any_msg {
	mach_msg_header_t head;
	struct word_msg word;
	struct notify_msg notify;
};

/* Receive the next message on @port into @m (at most @ms milliseconds);
 * false if none came. */
static int receive_any(mach_port_t port, unsigned int ms, union any_msg *m)
{
	memset(m, 0, sizeof(*m));
	return mach_msg_trap(&m->head, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
			     sizeof(*m), port, ms, MACH_PORT_NULL) ==
	       MACH_MSG_SUCCESS;
}

/* Receive one word on @port (at most @ms milliseconds); ~0u if none. */
static uint32_t receive_word(mach_port_t port, unsigned int ms)
{
	union any_msg m;

	return receive_any(port, ms, &m) ? m.word.value : ~0u;
}

/* Wait forever: a receive on a port nobody sends to (aborts end it). */
static void __attribute__((noreturn)) park(void)
{
	mach_port_t p = mach_reply_port();
	struct word_msg m;

	for (;;)
		mach_msg_trap(&m.head, MACH_RCV_MSG, 0, sizeof(m), p, 0,
			      MACH_PORT_NULL);
}

/* --- thread bodies (entered with the argument in %edi, never return) --- */

static void __attribute__((noreturn)) body_signal(uint32_t port)
{
	send_word(port, MACH_MSG_TYPE_MAKE_SEND, 42, 0);
	thread_terminate(mach_thread_self());
	park();
}

static void __attribute__((noreturn)) body_spin(uint32_t unused)
{
	(void)unused;
	for (;;)
		spin_count++;
}

/* xmm0 set to @v, a yield to the other thread, xmm0 read back. */
static uint64_t xmm0_across_yield(uint64_t v)
{
	uint64_t out;

	__asm__ volatile("movq %1, %%xmm0\n\t"
			 "movl $-60, %%eax\n\t"	/* swtch */
			 "syscall\n\t"
			 "movq %%xmm0, %0"
			 : "=r"(out)
			 : "r"(v)
			 : "rax", "rcx", "r11", "xmm0", "memory");
	return out;
}

static unsigned int xmm_mismatches(uint64_t v)
{
	unsigned int bad = 0;

	for (int i = 0; i < 50; i++)
		bad += xmm0_across_yield(v + (uint64_t)i) != v + (uint64_t)i;
	return bad;
}

static void __attribute__((noreturn)) body_fpu(uint32_t port)
{
	send_word(port, MACH_MSG_TYPE_MAKE_SEND,
		  xmm_mismatches(0x1111222233330000ull), 0);
	park();
}

static void __attribute__((noreturn)) body_block_receive(uint32_t unused)
{
	struct word_msg m;
	mach_msg_return_t mr;

	(void)unused;
	mr = mach_msg_trap(&m.head, MACH_RCV_MSG | MACH_RCV_INTERRUPT, 0,
			   sizeof(m), block_port, 0, MACH_PORT_NULL);
	send_word(report_port, MACH_MSG_TYPE_MAKE_SEND, mr, 0);
	park();
}

static void __attribute__((noreturn)) body_block_send(uint32_t unused)
{
	(void)unused;
	send_word(report_port, MACH_MSG_TYPE_MAKE_SEND,
		  send_word(block_port, MACH_MSG_TYPE_MAKE_SEND, 1,
			    MACH_SEND_INTERRUPT), 0);
	park();
}

/* A server of the wrong kind on @port: answers one request with a bare
 * header carrying the right reply id, which no MIG reply is. */
static void __attribute__((noreturn)) body_bad_server(uint32_t port)
{
	union {
		mach_msg_header_t head;
		char space[256];
	} m;

	memset(&m, 0, sizeof(m));
	if (mach_msg_trap(&m.head, MACH_RCV_MSG, 0, sizeof(m), port, 0,
			  MACH_PORT_NULL) == MACH_MSG_SUCCESS) {
		m.head.msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_MOVE_SEND_ONCE,
						  0);
		m.head.msgh_size = sizeof(m.head);
		m.head.msgh_local_port = MACH_PORT_NULL;
		m.head.msgh_id += 100;
		mach_msg_trap(&m.head, MACH_SEND_MSG, sizeof(m.head), 0,
			      MACH_PORT_NULL, 0, MACH_PORT_NULL);
	}
	park();
}

/* In the child task: @port names a send right the parent inserted. */
static void __attribute__((noreturn)) body_child_task(uint32_t port)
{
	send_word(port, MACH_MSG_TYPE_COPY_SEND, inherited_marker, 0);
	park();
}

/* --- helpers of the main thread --- */

/* A fresh 64 KiB stack below 4 GiB; returns its top. */
static uint32_t new_stack(void)
{
	vm_address_t base = STACK_BASE + next_stack++ * 2 * STACK_SIZE;

	if (vm_allocate(mach_task_self(), &base, STACK_SIZE, FALSE) !=
	    KERN_SUCCESS)
		return 0;
	return (uint32_t)(base + STACK_SIZE);
}

/* Point @thread at @fn(@arg) on the stack whose top is @top. */
static kern_return_t aim(mach_port_t thread, void (*fn)(uint32_t),
			 uint32_t top, uint32_t arg)
{
	struct i386_thread_state s;
	mach_msg_type_number_t n = i386_THREAD_STATE_COUNT;
	kern_return_t kr;

	kr = thread_get_state(thread, i386_THREAD_STATE, (natural_t *)&s, &n);
	if (kr != KERN_SUCCESS)
		return kr;
	s.eip = (uint32_t)(uintptr_t)fn;
	s.uesp = top - 8;	/* as after a call */
	s.edi = arg;
	return thread_set_state(thread, i386_THREAD_STATE, (natural_t *)&s,
				i386_THREAD_STATE_COUNT);
}

/* A suspended thread of @task running @fn(@arg) on the stack whose top
 * is @top (in a child task: its copy of that range of ours). */
static mach_port_t spawn_on(mach_port_t task, void (*fn)(uint32_t),
			    uint32_t arg, uint32_t top)
{
	mach_port_t th = MACH_PORT_NULL;

	if (top == 0 || thread_create(task, &th) != KERN_SUCCESS ||
	    aim(th, fn, top, arg) != KERN_SUCCESS)
		return MACH_PORT_NULL;
	return th;
}

/* A suspended thread of ours running @fn(@arg) on a new stack. */
static mach_port_t spawn(mach_port_t task, void (*fn)(uint32_t), uint32_t arg)
{
	return spawn_on(task, fn, arg, new_stack());
}

static mach_port_t dead_name_request(mach_port_t name)
{
	mach_port_t notify = new_receive(), previous = MACH_PORT_NULL;

	if (mach_port_request_notification(mach_task_self(), name,
					   MACH_NOTIFY_DEAD_NAME, 0, notify,
					   MACH_MSG_TYPE_MAKE_SEND_ONCE,
					   &previous) != KERN_SUCCESS)
		return MACH_PORT_NULL;
	return notify;
}

/* The id of the next message on @port within @ms ms, or 0. */
static mach_msg_id_t next_msg_id(mach_port_t port, unsigned int ms)
{
	union any_msg m;

	return receive_any(port, ms, &m) ? m.head.msgh_id : 0;
}

static integer_t run_state(mach_port_t th)
{
	struct thread_basic_info info;
	mach_msg_type_number_t n = THREAD_BASIC_INFO_COUNT;

	if (thread_info(th, THREAD_BASIC_INFO, (thread_info_t)&info, &n) !=
	    KERN_SUCCESS)
		return -1;
	return info.run_state;
}

/* Yield until @th waits in the kernel (bounded). */
static int wait_until_waiting(mach_port_t th)
{
	for (int i = 0; i < 1000; i++) {
		if (run_state(th) == TH_STATE_WAITING)
			return 1;
		swtch();
	}
	return 0;
}

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/* Spin without system calls until spin_count passes @from: only
 * preemption lets the spinning thread run meanwhile. */
static int spin_count_moves_past(uint64_t from)
{
	uint64_t start = rdtsc();

	while (spin_count <= from)
		if (rdtsc() - start > TSC_BOUND)
			return 0;
	return 1;
}

/* --- the cases --- */

static void thread_signals_through_port(void)
{
	mach_port_t port = new_receive(), th, notify;

	th = spawn(mach_task_self(), body_signal, port);
	check("thread_create_and_aim", 1, th != MACH_PORT_NULL);
	notify = dead_name_request(th);
	check("dead_name_request_on_thread", 1, notify != MACH_PORT_NULL);
	check("new_thread_is_suspended_once", TH_STATE_STOPPED, run_state(th));
	check("thread_resume", KERN_SUCCESS, thread_resume(th));
	check("thread_sends_its_word", 42, receive_word(port, 5000));
	check("self_terminate_kills_thread_port", MACH_NOTIFY_DEAD_NAME,
	      next_msg_id(notify, 5000));
	check("terminate_of_terminated_thread", MACH_SEND_INVALID_DEST,
	      thread_terminate(th));
	check("resume_of_terminated_thread", MACH_SEND_INVALID_DEST,
	      thread_resume(th));
	/* The dead-name notification added a reference: drop both. */
	mach_port_destroy(mach_task_self(), th);
	mach_port_destroy(mach_task_self(), notify);
	mach_port_destroy(mach_task_self(), port);
}

static void threads_preempt_and_suspend(void)
{
	mach_port_t th = spawn(mach_task_self(), body_spin, 0);
	struct thread_basic_info info;
	mach_msg_type_number_t n = THREAD_BASIC_INFO_COUNT;
	thread_array_t list = NULL;
	mach_msg_type_number_t count = 0;
	uint64_t seen;

	check("spin_thread_made", 1, th != MACH_PORT_NULL);
	check("resume_spinner", KERN_SUCCESS, thread_resume(th));
	check("scheduler_preempts_between_threads", 1,
	      spin_count_moves_past(0));
	check("task_threads", KERN_SUCCESS,
	      task_threads(mach_task_self(), &list, &count));
	check("task_threads_counts_two", 2, count);
	for (unsigned int i = 0; i < count; i++)
		mach_port_deallocate(mach_task_self(), list[i]);
	vm_deallocate(mach_task_self(), (vm_address_t)list,
		      count * sizeof(*list));

	check("thread_suspend", KERN_SUCCESS, thread_suspend(th));
	check("thread_suspend_twice", KERN_SUCCESS, thread_suspend(th));
	check("thread_info", KERN_SUCCESS,
	      thread_info(th, THREAD_BASIC_INFO, (thread_info_t)&info, &n));
	check("thread_info_count", THREAD_BASIC_INFO_COUNT, n);
	check("thread_info_suspend_count", 2, info.suspend_count);
	check("thread_info_stopped", TH_STATE_STOPPED, info.run_state);
	for (int i = 0; i < 5; i++)
		swtch();
	seen = spin_count;
	for (int i = 0; i < 20; i++)
		swtch();
	check("suspended_thread_does_not_run", 1, spin_count == seen);
	check("thread_resume_one", KERN_SUCCESS, thread_resume(th));
	check("thread_resume_two", KERN_SUCCESS, thread_resume(th));
	check("thread_resume_underflow", KERN_FAILURE, thread_resume(th));
	check("resumed_thread_runs_again", 1, spin_count_moves_past(seen));
	check("terminate_running_thread", KERN_SUCCESS, thread_terminate(th));
	check("terminated_thread_port_is_dead", MACH_SEND_INVALID_DEST,
	      thread_suspend(th));
	mach_port_deallocate(mach_task_self(), th);
}

static void threads_keep_their_fpu_state(void)
{
	mach_port_t port = new_receive();
	mach_port_t th = spawn(mach_task_self(), body_fpu, port);

	check("fpu_thread_resume", KERN_SUCCESS, thread_resume(th));
	check("main_thread_xmm0_survives_switches", 0,
	      xmm_mismatches(0x5555666677770000ull));
	check("other_thread_xmm0_survives_switches", 0,
	      receive_word(port, 5000));
	check("terminate_parked_thread", KERN_SUCCESS, thread_terminate(th));
	mach_port_deallocate(mach_task_self(), th);
	mach_port_destroy(mach_task_self(), port);
}

/* A thread running @body waits in mach_msg; thread_abort must end the
 * wait with @expected, which the thread reports on report_port. */
static void abort_ends_wait(const char *name, void (*body)(uint32_t),
			    mach_msg_return_t expected)
{
	mach_port_t th = spawn(mach_task_self(), body, 0);

	thread_resume(th);
	check(name, 1, wait_until_waiting(th));
	check("thread_abort", KERN_SUCCESS, thread_abort(th));
	check("abort_interrupts_the_wait", expected,
	      receive_word(report_port, 5000));
	check("terminate_after_abort", KERN_SUCCESS, thread_terminate(th));
	mach_port_deallocate(mach_task_self(), th);
}

static void abort_interrupts_mach_msg(void)
{
	block_port = new_receive();
	report_port = new_receive();
	abort_ends_wait("receiver_waits", body_block_receive,
			MACH_RCV_INTERRUPTED);
	/* A full queue (limit 1, one message in it) makes a sender wait. */
	check("qlimit_one", KERN_SUCCESS,
	      mach_port_set_qlimit(mach_task_self(), block_port, 1));
	check("fill_queue", MACH_MSG_SUCCESS,
	      send_word(block_port, MACH_MSG_TYPE_MAKE_SEND, 0, 0));
	abort_ends_wait("sender_waits", body_block_send,
			MACH_SEND_INTERRUPTED);
	mach_port_destroy(mach_task_self(), block_port);
	mach_port_destroy(mach_task_self(), report_port);
}

static void bad_thread_state(void)
{
	mach_port_t th = MACH_PORT_NULL;
	struct i386_thread_state s;
	mach_msg_type_number_t n = i386_THREAD_STATE_COUNT;
	struct i386_thread_state good;

	check("bad_state_thread_create", KERN_SUCCESS,
	      thread_create(mach_task_self(), &th));
	check("get_state", KERN_SUCCESS,
	      thread_get_state(th, i386_THREAD_STATE, (natural_t *)&good, &n));
	check("get_state_count", i386_THREAD_STATE_COUNT, n);
	check("new_thread_cs_is_user_code", SEL_UCODE, good.cs);
	check("new_thread_ss_is_user_data", SEL_UDATA, good.ss);
	n = 99;
	check("get_state_bad_flavor", KERN_INVALID_ARGUMENT,
	      thread_get_state(th, 99, (natural_t *)&s, &n));
	n = 5;
	check("get_state_short_count", KERN_INVALID_ARGUMENT,
	      thread_get_state(th, i386_THREAD_STATE, (natural_t *)&s, &n));
	check("set_state_bad_flavor", KERN_INVALID_ARGUMENT,
	      thread_set_state(th, i386_FLOAT_STATE, (natural_t *)&good,
			       i386_THREAD_STATE_COUNT));
	check("set_state_short_count", KERN_INVALID_ARGUMENT,
	      thread_set_state(th, i386_THREAD_STATE, (natural_t *)&good, 5));
	s = good;
	s.cs = SEL_KCODE;
	check("set_state_kernel_code_segment", KERN_INVALID_ARGUMENT,
	      thread_set_state(th, i386_THREAD_STATE, (natural_t *)&s,
			       i386_THREAD_STATE_COUNT));
	s = good;
	s.ss = 0x10;
	check("set_state_kernel_stack_segment", KERN_INVALID_ARGUMENT,
	      thread_set_state(th, i386_THREAD_STATE, (natural_t *)&s,
			       i386_THREAD_STATE_COUNT));
	s = good;
	s.ds = 0x33;
	check("set_state_bad_data_segment", KERN_INVALID_ARGUMENT,
	      thread_set_state(th, i386_THREAD_STATE, (natural_t *)&s,
			       i386_THREAD_STATE_COUNT));
	s = good;
	s.efl = 0xffffffff;	/* IOPL, NT, VM...: only user flags stay */
	check("set_state_wild_flags_sanitised", KERN_SUCCESS,
	      thread_set_state(th, i386_THREAD_STATE, (natural_t *)&s,
			       i386_THREAD_STATE_COUNT));
	n = i386_THREAD_STATE_COUNT;
	thread_get_state(th, i386_THREAD_STATE, (natural_t *)&s, &n);
	check("flags_keep_no_iopl_or_tf", 0, s.efl & 0x23100);
	check("flags_keep_interrupts_on", 0x200, s.efl & 0x200);
	check("terminate_never_started_thread", KERN_SUCCESS,
	      thread_terminate(th));
	mach_port_deallocate(mach_task_self(), th);
}

static void bad_ports(void)
{
	mach_port_t port = new_receive(), th = MACH_PORT_NULL;
	task_t child = MACH_PORT_NULL;
	struct task_basic_info tinfo;
	mach_msg_type_number_t n = TASK_BASIC_INFO_COUNT;

	check("thread_call_on_task_port", KERN_INVALID_ARGUMENT,
	      thread_suspend(mach_task_self()));
	check("thread_call_on_host_port", KERN_INVALID_ARGUMENT,
	      thread_suspend(mach_host_self()));
	check("task_create_with_host_as_parent", KERN_INVALID_ARGUMENT,
	      task_create(mach_host_self(), FALSE, &child));
	check("thread_create_on_null", MACH_SEND_INVALID_DEST,
	      thread_create(MACH_PORT_NULL, &th));
	check("thread_resume_on_bogus_name", MACH_SEND_INVALID_DEST,
	      thread_resume(0x7777));
	th = mach_thread_self();
	check("task_call_on_thread_port", KERN_INVALID_ARGUMENT,
	      task_suspend(th));
	check("task_create_with_thread_as_parent", KERN_INVALID_ARGUMENT,
	      task_create(th, FALSE, &child));
	check("task_create_with_null_parent", MACH_SEND_INVALID_DEST,
	      task_create(MACH_PORT_NULL, FALSE, &child));
	mach_port_deallocate(mach_task_self(), th);
	th = spawn(mach_task_self(), body_bad_server, port);
	thread_resume(th);
	mach_port_insert_right(mach_task_self(), port, port,
			       MACH_MSG_TYPE_MAKE_SEND);
	check("thread_call_on_user_port_with_bad_reply", MIG_TYPE_ERROR,
	      thread_resume(port));
	thread_terminate(th);
	mach_port_deallocate(mach_task_self(), th);
	mach_port_deallocate(mach_task_self(), port);
	check("task_info_bad_flavor", KERN_INVALID_ARGUMENT,
	      task_info(mach_task_self(), 77, (task_info_t)&tinfo, &n));
	check("task_resume_underflow", KERN_FAILURE,
	      task_resume(mach_task_self()));
	mach_port_insert_right(mach_task_self(), port, port,
			       MACH_MSG_TYPE_MAKE_SEND);
	check("set_bootstrap_port", KERN_SUCCESS,
	      task_set_bootstrap_port(mach_task_self(), port));
	th = MACH_PORT_NULL;
	check("get_bootstrap_port_back", KERN_SUCCESS,
	      task_get_bootstrap_port(mach_task_self(), &th));
	check("bootstrap_port_is_ours", port, th);
	check("set_bootstrap_port_null", KERN_SUCCESS,
	      task_set_bootstrap_port(mach_task_self(), MACH_PORT_NULL));
	mach_port_deallocate(mach_task_self(), th);
	mach_port_destroy(mach_task_self(), port);
}

/* A child task with a copy of our memory runs a thread that sends back
 * a word it finds in that copy; then we end it. */
static void child_task_round_trip(int quiet)
{
	mach_port_t port = new_receive(), child = MACH_PORT_NULL, th, th2;
	const mach_port_t name_in_child = 0x4321;
	mach_port_t notify;
	struct task_basic_info info;
	mach_msg_type_number_t n = TASK_BASIC_INFO_COUNT;
	thread_array_t list = NULL;
	mach_msg_type_number_t count = 0;
	int ok = 1;

	inherited_marker = 0x5eed;
	ok &= task_create(mach_task_self(), TRUE, &child) == KERN_SUCCESS;
	inherited_marker = 0;	/* the child keeps its own copy */
	ok &= mach_port_insert_right(child, name_in_child, port,
				     MACH_MSG_TYPE_MAKE_SEND) == KERN_SUCCESS;
	th = spawn_on(child, body_child_task, name_in_child,
		      child_stack_top[0]);
	th2 = spawn_on(child, body_spin, 0, child_stack_top[1]);
	ok &= th != MACH_PORT_NULL && th2 != MACH_PORT_NULL;
	notify = dead_name_request(child);
	ok &= thread_resume(th) == KERN_SUCCESS;
	ok &= thread_resume(th2) == KERN_SUCCESS;
	if (!quiet) {
		check("child_task_created", 1, ok);
		check("child_sees_copied_memory", 0x5eed,
		      receive_word(port, 5000));
		check("child_task_info", KERN_SUCCESS,
		      task_info(child, TASK_BASIC_INFO, (task_info_t)&info,
				&n));
		check("child_task_info_count", TASK_BASIC_INFO_COUNT, n);
		check("child_has_resident_pages", 1, info.resident_size > 0);
		check("child_virtual_covers_resident", 1,
		      info.virtual_size >= info.resident_size);
		check("child_task_threads", KERN_SUCCESS,
		      task_threads(child, &list, &count));
		check("child_has_two_threads", 2, count);
		for (unsigned int i = 0; i < count; i++)
			mach_port_deallocate(mach_task_self(), list[i]);
		vm_deallocate(mach_task_self(), (vm_address_t)list,
			      count * sizeof(*list));
		check("child_task_suspend", KERN_SUCCESS, task_suspend(child));
		n = TASK_BASIC_INFO_COUNT;
		task_info(child, TASK_BASIC_INFO, (task_info_t)&info, &n);
		check("child_suspend_count", 1, info.suspend_count);
		check("child_task_resume", KERN_SUCCESS, task_resume(child));
		check("child_task_resume_underflow", KERN_FAILURE,
		      task_resume(child));
		check("child_task_suspend_again", KERN_SUCCESS,
		      task_suspend(child));
	} else {
		receive_word(port, 5000);
	}
	check(quiet ? "child_warmup_terminate" : "suspended_child_terminate",
	      KERN_SUCCESS, task_terminate(child));
	check(quiet ? "child_warmup_gone" : "child_task_port_dies",
	      MACH_NOTIFY_DEAD_NAME, next_msg_id(notify, 5000));
	if (!quiet) {
		mach_port_urefs_t refs = 0;

		check("terminated_child_is_dead_name", MACH_SEND_INVALID_DEST,
		      task_suspend(child));
		mach_port_get_refs(mach_task_self(), child,
				   MACH_PORT_RIGHT_DEAD_NAME, &refs);
		check("dead_name_notification_adds_a_reference", 2, refs);
	}
	mach_port_deallocate(mach_task_self(), th);
	mach_port_deallocate(mach_task_self(), th2);
	mach_port_destroy(mach_task_self(), child);	/* two references */
	mach_port_destroy(mach_task_self(), notify);
	mach_port_destroy(mach_task_self(), port);
}

/* Print @what and stop until the kernel suite resumes us. */
static void checkpoint(const char *what)
{
	mach_print(what);
	task_suspend(mach_task_self());
}

static void empty_child_task(void)
{
	task_t child = MACH_PORT_NULL;
	struct task_basic_info info;
	mach_msg_type_number_t n = TASK_BASIC_INFO_COUNT;
	thread_array_t list = NULL;
	mach_msg_type_number_t count = 1;

	check("task_create_empty", KERN_SUCCESS,
	      task_create(mach_task_self(), FALSE, &child));
	check("empty_child_info", KERN_SUCCESS,
	      task_info(child, TASK_BASIC_INFO, (task_info_t)&info, &n));
	check("empty_child_has_no_memory", 0, info.virtual_size);
	check("empty_child_threads", KERN_SUCCESS,
	      task_threads(child, &list, &count));
	check("empty_child_has_no_threads", 0, count);
	check("terminate_threadless_child", KERN_SUCCESS,
	      task_terminate(child));
	check("threadless_child_gone_at_once", MACH_SEND_INVALID_DEST,
	      task_resume(child));
	mach_port_deallocate(mach_task_self(), child);
}

static void __attribute__((noreturn)) body_park(uint32_t unused)
{
	(void)unused;
	park();
}

/* Threads in every state the end of the task must reclaim: running
 * (preempted), waiting in mach_msg, and never started. */
static void leave_threads_behind(void)
{
	mach_port_t spinner = spawn(mach_task_self(), body_spin, 0);
	mach_port_t parked = spawn(mach_task_self(), body_park, 0);
	mach_port_t idle = MACH_PORT_NULL;

	check("leftover_threads_made", KERN_SUCCESS,
	      thread_create(mach_task_self(), &idle));
	check("leftover_spinner_runs", KERN_SUCCESS, thread_resume(spinner));
	check("leftover_parked_runs", KERN_SUCCESS, thread_resume(parked));
	check("leftover_parked_waits", 1, wait_until_waiting(parked));
}

/* mode=fault: a thread jumps to address 0 while others spin, wait or
 * were never started; the page fault ends the whole task. */
static void fault_in_a_thread(void)
{
	mach_port_t bad = spawn(mach_task_self(), (void (*)(uint32_t))0, 0);

	leave_threads_behind();
	printf("USER-DONE %d\n", checks);
	fflush(stdout);
	thread_resume(bad);
	park();
}

int main(int argc, char **argv)
{
	printf("thread_probe: %d argument(s), first %s\n", argc, argv[0]);
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "mode=fault") == 0)
			fault_in_a_thread();
	thread_signals_through_port();
	threads_preempt_and_suspend();
	threads_keep_their_fpu_state();
	abort_interrupts_mach_msg();
	bad_thread_state();
	bad_ports();
	empty_child_task();
	child_stack_top[0] = new_stack();
	child_stack_top[1] = new_stack();
	child_task_round_trip(1);
	fflush(stdout);
	checkpoint("CHECKPOINT before\n");
	child_task_round_trip(1);
	checkpoint("CHECKPOINT after\n");
	child_task_round_trip(0);
	leave_threads_behind();
	printf("USER-DONE %d\n", checks);
	return 0;
}
