/* SPDX-License-Identifier: GPL-2.0-only */
/* A user task that serves its own exception port (exc.defs) from a second thread: faults handled and resumed with the 64-bit thread state, a refused one, a dead port, a thread's own exception port, a handler that faults. */
/*
 * Modes (word mode=...), each ending with its task, which suite
 * "exception" checks (the reason, the USER-PASS lines):
 *   handled  the exception port set and read back; a handler thread
 *            (started with GRAFT_THREAD_STATE_X86_64) takes a ud2 and a
 *            read of address 0x10 from the main thread, checks what it
 *            is told, moves the thread past the instruction and sets a
 *            64-bit marker in %rax, which the main thread then sees;
 *            bad thread states are refused; a last ud2 is refused by the
 *            handler, so the task ends with #UD
 *   dead     the exception port's receive right destroyed before a ud2:
 *            the task ends with #UD
 *   thread   the main thread's own exception port: read and set (bad
 *            which ports refused); with the task's port cleared, a ud2
 *            goes to the thread's; a dead thread port, or a thread
 *            handler that refuses, passes the exception to the task's
 *            port; a thread's port is released when the thread ends;
 *            then a ud2 refused by both ends the task with #UD
 *   guarded  the handler itself faults while handling a ud2: the
 *            second thread of graft_exc_serve ends the task with
 *            task_terminate (without it the task would wait for ever)
 * The handler thread makes MIG calls (thread_get_state and _set_state)
 * only while the main thread waits in its exception, so the task's one
 * MIG reply port is never used by both at once.
 */
#include <graft/thread_state.h>
#include <mach/exception.h>
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <mach/task_special_ports.h>
#include <mach/thread_special_ports.h>
#include <mach/x86_64/exception.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "exc_server.h"
#include "graft_user.h"
#include "user_args.h"
#include "user_check.h"
#include "user_port.h"

#define STACK_SIZE	(64 * 1024)
#define MARKER		0x1122334455667788ull
#define NULL_ADDRESS	0x10ul

/* What the handler saw of the last exception (the main thread reads
 * them once it runs again). */
static volatile int seen_exception, seen_code, seen_subcode;
static volatile int seen_task_ok, seen_thread_ok, seen_at_site;
static volatile int handled, refuse_next, offers, refuse_once;
static volatile int fault_in_handler;
static mach_port_t main_thread, exc_port;
static uint64_t stack[STACK_SIZE / 8] __attribute__((aligned(16)));

/* Move the faulting @thread past its two-byte instruction with MARKER
 * in %rax. */
static kern_return_t resume_past(mach_port_t thread)
{
	struct graft_thread_state_x86_64 s;
	mach_msg_type_number_t n = GRAFT_THREAD_STATE_X86_64_COUNT;
	kern_return_t kr;

	kr = thread_get_state(thread, GRAFT_THREAD_STATE_X86_64,
			      (natural_t *)&s, &n);
	if (kr != KERN_SUCCESS)
		return kr;
	/* Both faulting instructions are two bytes: ud2 (0f 0b) and
	 * mov (%rbx),%eax (8b 03). */
	seen_at_site = *(const uint16_t *)s.rip == 0x0b0f ||
		       *(const uint16_t *)s.rip == 0x038b;
	s.rip += 2;
	s.rax = MARKER;
	handled++;
	return thread_set_state(thread, GRAFT_THREAD_STATE_X86_64,
				(natural_t *)&s, GRAFT_THREAD_STATE_X86_64_COUNT);
}

/* exc.defs's routine, called by graft_exc_serve's thread. */
kern_return_t catch_exception_raise(mach_port_t port, mach_port_t thread,
				    mach_port_t task, integer_t exception,
				    integer_t code, integer_t subcode)
{
	kern_return_t kr = KERN_FAILURE;

	seen_exception = exception;
	seen_code = code;
	seen_subcode = subcode;
	seen_task_ok = task == mach_task_self();
	seen_thread_ok = thread == main_thread;
	(void)port;
	offers++;
	if (fault_in_handler)
		asm volatile("ud2");
	if (refuse_once)
		refuse_once = 0;
	else if (!refuse_next)
		kr = resume_past(thread);
	/* the message's send rights: one user reference each */
	(void)mach_port_deallocate(mach_task_self(), task);
	(void)mach_port_deallocate(mach_task_self(), thread);
	return kr;
}

/* A ud2; what %rax holds after it (0 unless a handler set it). */
static uint64_t ud2(void)
{
	uint64_t v;

	asm volatile("xor %%eax, %%eax\n\tud2" : "=a"(v) : : "memory");
	return v;
}

/* A 32-bit read of @addr into %eax, as the two bytes 8b 03. */
static uint64_t read_at(unsigned long addr)
{
	uint64_t v;

	asm volatile("xor %%eax, %%eax\n\t.byte 0x8b, 0x03"
		     : "=a"(v) : "b"(addr) : "memory");
	return v;
}

/* Thread states the kernel must refuse, unchanged. */
static void bad_states(void)
{
	struct graft_thread_state_x86_64 s;
	mach_msg_type_number_t n = GRAFT_THREAD_STATE_X86_64_COUNT - 1;
	mach_port_t th = MACH_PORT_NULL;

	check("graft_state_get_short_count", KERN_INVALID_ARGUMENT,
	      thread_get_state(main_thread, GRAFT_THREAD_STATE_X86_64,
			       (natural_t *)&s, &n));
	if (thread_create(mach_task_self(), &th) != KERN_SUCCESS)
		return;
	n = GRAFT_THREAD_STATE_X86_64_COUNT;
	check("graft_state_get", KERN_SUCCESS,
	      thread_get_state(th, GRAFT_THREAD_STATE_X86_64,
			       (natural_t *)&s, &n));
	check("graft_state_count", GRAFT_THREAD_STATE_X86_64_COUNT, n);
	check("graft_state_set_short_count", KERN_INVALID_ARGUMENT,
	      thread_set_state(th, GRAFT_THREAD_STATE_X86_64, (natural_t *)&s,
			       GRAFT_THREAD_STATE_X86_64_COUNT - 1));
	s.rip = 0xffffffff80100000ull;
	check("graft_state_set_kernel_rip", KERN_INVALID_ARGUMENT,
	      thread_set_state(th, GRAFT_THREAD_STATE_X86_64, (natural_t *)&s,
			       GRAFT_THREAD_STATE_X86_64_COUNT));
	s.rip = 0x400000;
	s.rsp = 0x8000000000000000ull;
	check("graft_state_set_noncanonical_rsp", KERN_INVALID_ARGUMENT,
	      thread_set_state(th, GRAFT_THREAD_STATE_X86_64, (natural_t *)&s,
			       GRAFT_THREAD_STATE_X86_64_COUNT));
	(void)thread_terminate(th);
}

static mach_port_t exception_port_now(void)
{
	mach_port_t p = MACH_PORT_NULL;

	if (task_get_special_port(mach_task_self(), TASK_EXCEPTION_PORT,
				  &p) != KERN_SUCCESS)
		return MACH_PORT_DEAD;
	return p;
}

static void handled_mode(void)
{
	uint64_t v;

	check("no_exception_port_at_start", MACH_PORT_NULL,
	      exception_port_now());
	check("serve_exception_port", KERN_SUCCESS,
	      graft_exc_serve(stack, sizeof(stack), &exc_port));
	check("exception_port_reads_back", exc_port, exception_port_now());
	check("serve_once", KERN_FAILURE,
	      graft_exc_serve(stack, sizeof(stack), NULL));

	v = ud2();
	check("ud2_handled", 1, handled);
	check("ud2_exception", EXC_BAD_INSTRUCTION, seen_exception);
	check("ud2_code", EXC_I386_INVOP, seen_code);
	check("ud2_task_port", 1, seen_task_ok);
	check("ud2_thread_port", 1, seen_thread_ok);
	check("ud2_at_site", 1, seen_at_site);
	check("ud2_resumed_with_64bit_rax", 1, v == MARKER);

	v = read_at(NULL_ADDRESS);
	check("fault_handled", 2, handled);
	check("fault_exception", EXC_BAD_ACCESS, seen_exception);
	check("fault_code", KERN_INVALID_ADDRESS, seen_code);
	check("fault_subcode", NULL_ADDRESS, seen_subcode);
	check("fault_resumed_with_64bit_rax", 1, v == MARKER);

	bad_states();
	printf("USER-DONE %d\n", checks);
	fflush(stdout);
	refuse_next = 1;
	(void)ud2();
	printf("exc_probe: came back from a refused exception\n");
}

static void dead_mode(void)
{
	exc_port = new_receive();
	check("insert_send", KERN_SUCCESS,
	      mach_port_insert_right(mach_task_self(), exc_port, exc_port,
				     MACH_MSG_TYPE_MAKE_SEND));
	check("set_exception_port", KERN_SUCCESS,
	      task_set_special_port(mach_task_self(), TASK_EXCEPTION_PORT,
				    exc_port));
	check("destroy_receive", KERN_SUCCESS,
	      mach_port_mod_refs(mach_task_self(), exc_port,
				 MACH_PORT_RIGHT_RECEIVE, -1));
	printf("USER-DONE %d\n", checks);
	fflush(stdout);
	(void)ud2();
	printf("exc_probe: came back from an exception nobody took\n");
}

static mach_port_t thread_port_now(mach_port_t th, int which)
{
	mach_port_t p = MACH_PORT_NULL;
	kern_return_t kr = thread_get_special_port(th, which, &p);

	return kr == KERN_SUCCESS ? p : MACH_PORT_DEAD;
}

static kern_return_t set_thread_port(mach_port_t th, mach_port_t p)
{
	return thread_set_special_port(th, THREAD_EXCEPTION_PORT, p);
}

static kern_return_t set_task_port(mach_port_t p)
{
	return task_set_special_port(mach_task_self(), TASK_EXCEPTION_PORT, p);
}

/* Whether @name's port has send rights anywhere (receive status). */
static long has_senders(mach_port_t name)
{
	mach_port_status_t st;

	if (mach_port_get_receive_status(mach_task_self(), name, &st) !=
	    KERN_SUCCESS)
		return -1;
	return st.mps_srights != 0;
}

/* Reading and setting a thread's special ports, bad ones refused. */
static void thread_port_calls(void)
{
	mach_port_t p;
	int bad;

	check("thread_exception_port_null_at_start", MACH_PORT_NULL,
	      thread_port_now(main_thread, THREAD_EXCEPTION_PORT));
	p = thread_port_now(main_thread, THREAD_KERNEL_PORT);
	check("thread_kernel_port_is_the_thread", main_thread, p);
	(void)mach_port_deallocate(mach_task_self(), p);
	check("thread_kernel_port_not_replaced", KERN_FAILURE,
	      thread_set_special_port(main_thread, THREAD_KERNEL_PORT,
				      exc_port));
	bad = thread_get_special_port(main_thread, 99, &p);
	check("thread_get_bad_which", KERN_INVALID_ARGUMENT, bad);
	check("thread_set_bad_which", KERN_INVALID_ARGUMENT,
	      thread_set_special_port(main_thread, 99, exc_port));
	check("thread_set_on_task_port", KERN_INVALID_ARGUMENT,
	      thread_set_special_port(mach_task_self(), THREAD_EXCEPTION_PORT,
				      exc_port));
	check("thread_set_exception_port", KERN_SUCCESS,
	      set_thread_port(main_thread, exc_port));
	p = thread_port_now(main_thread, THREAD_EXCEPTION_PORT);
	check("thread_exception_port_reads_back", exc_port, p);
	(void)mach_port_deallocate(mach_task_self(), p);
}

/* A thread's exception port holds a send right until the thread ends. */
static void thread_port_released_with_thread(void)
{
	mach_port_t th = MACH_PORT_NULL, q = new_receive();

	check("other_insert_send", KERN_SUCCESS,
	      mach_port_insert_right(mach_task_self(), q, q,
				     MACH_MSG_TYPE_MAKE_SEND));
	if (thread_create(mach_task_self(), &th) != KERN_SUCCESS)
		return;
	check("other_thread_set_port", KERN_SUCCESS, set_thread_port(th, q));
	check("drop_own_send", KERN_SUCCESS,
	      mach_port_deallocate(mach_task_self(), q));
	check("other_thread_holds_a_send_right", 1, has_senders(q));
	check("other_thread_terminate", KERN_SUCCESS, thread_terminate(th));
	check("other_thread_port_released", 0, has_senders(q));
	(void)mach_port_mod_refs(mach_task_self(), q, MACH_PORT_RIGHT_RECEIVE,
				 -1);
}

static void thread_mode(void)
{
	mach_port_t dead;
	uint64_t v;

	check("serve_exception_port", KERN_SUCCESS,
	      graft_exc_serve(stack, sizeof(stack), &exc_port));
	thread_port_calls();

	/* Only the thread's port is set: the exception goes there. */
	check("task_port_cleared", KERN_SUCCESS, set_task_port(MACH_PORT_NULL));
	offers = 0;
	v = ud2();
	check("thread_port_takes_ud2", 1, offers);
	check("thread_port_resumes", 1, v == MARKER);

	/* A refusal by the thread's handler: the task's port is tried. */
	check("task_port_set_again", KERN_SUCCESS, set_task_port(exc_port));
	offers = 0;
	refuse_once = 1;
	v = ud2();
	check("refused_then_task_port", 2, offers);
	check("task_port_resumes", 1, v == MARKER);

	/* A dead thread port: the task's port takes the exception. */
	dead = new_receive();
	check("dead_insert_send", KERN_SUCCESS,
	      mach_port_insert_right(mach_task_self(), dead, dead,
				     MACH_MSG_TYPE_MAKE_SEND));
	check("thread_port_to_be_dead", KERN_SUCCESS,
	      set_thread_port(main_thread, dead));
	check("destroy_thread_port", KERN_SUCCESS,
	      mach_port_mod_refs(mach_task_self(), dead,
				 MACH_PORT_RIGHT_RECEIVE, -1));
	offers = 0;
	v = ud2();
	check("dead_thread_port_then_task_port", 1, offers);
	check("dead_thread_port_resumes", 1, v == MARKER);

	/* Cleared: the task's port alone. */
	check("thread_port_cleared", KERN_SUCCESS,
	      set_thread_port(main_thread, MACH_PORT_NULL));
	check("thread_port_reads_null", MACH_PORT_NULL,
	      thread_port_now(main_thread, THREAD_EXCEPTION_PORT));
	thread_port_released_with_thread();

	/* Refused by both ports (one offer each): the task ends. */
	check("thread_port_set_for_the_end", KERN_SUCCESS,
	      set_thread_port(main_thread, exc_port));
	printf("USER-DONE %d\n", checks);
	fflush(stdout);
	refuse_next = 1;
	(void)ud2();
	printf("exc_probe: came back from a refused exception\n");
}

static void guarded_mode(void)
{
	check("serve_exception_port", KERN_SUCCESS,
	      graft_exc_serve(stack, sizeof(stack), &exc_port));
	printf("USER-DONE %d\n", checks);
	fflush(stdout);
	fault_in_handler = 1;
	(void)ud2();
	printf("exc_probe: came back from an exception whose handler "
	       "faulted\n");
}

int main(int argc, char **argv)
{
	main_thread = mach_thread_self();
	if (has_word(argc, argv, "mode=handled"))
		handled_mode();
	else if (has_word(argc, argv, "mode=dead"))
		dead_mode();
	else if (has_word(argc, argv, "mode=thread"))
		thread_mode();
	else if (has_word(argc, argv, "mode=guarded"))
		guarded_mode();
	else
		printf("exc_probe: no mode\n");
	return 0;
}
