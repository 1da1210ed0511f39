/* SPDX-License-Identifier: GPL-2.0-only */
/* The client half of the two-task IPC test, and the RPC round-trip benchmarks. */
/*
 * Talks to rpc_server through its bootstrap port (a send right to the
 * server's port).  Each check prints USER-PASS / USER-FAIL like
 * mach_probe.  With "bench=N" on its command line it also times N null
 * RPCs to the server (rpc.user-user) and N to a kernel routine
 * (rpc.user-kernel: mach_port_type on its own reply port), each as one
 * fenced rdtsc pair around the RPC, and prints BENCH lines.  Then it asks
 * the server to quit and ends by reading address 0: the kernel must
 * terminate it (the suite checks the reason).
 */
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "rpc_protocol.h"
#include "user_bench.h"
#include "user_check.h"

static mach_port_t server, reply_port;

/* Send @req (of @size bytes, id @id) with a send-once reply right and
 * receive the reply into @rep.  (mach_msg receives into the buffer it
 * sent from: the reply is copied out of a scratch buffer.) */
static mach_msg_return_t rpc(union rpc_buffer *req, mach_msg_size_t size,
			     mach_msg_id_t id, int complex,
			     union rpc_buffer *rep)
{
	static union rpc_buffer buf;
	mach_msg_return_t mr;

	memcpy(&buf, req, size);
	req = &buf;
	req->head.msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_COPY_SEND,
					     MACH_MSG_TYPE_MAKE_SEND_ONCE) |
			      (complex ? MACH_MSGH_BITS_COMPLEX : 0);
	req->head.msgh_size = size;
	req->head.msgh_remote_port = server;
	req->head.msgh_local_port = reply_port;
	req->head.msgh_id = id;
	mr = mach_msg(&req->head, MACH_SEND_MSG | MACH_RCV_MSG, size,
		      sizeof(*rep), reply_port, 0, MACH_PORT_NULL);
	memcpy(rep, &buf, sizeof(*rep));
	return mr;
}

static void exchange_checks(void)
{
	union rpc_buffer req, rep;
	mach_port_t mine = MACH_PORT_NULL;
	unsigned char *buf;
	uint64_t sum = 0;

	memset(&req, 0, sizeof(req));
	check("null_rpc", MACH_MSG_SUCCESS,
	      rpc(&req, sizeof(mach_msg_header_t), RPC_NULL, 0, &rep));
	check("null_rpc_reply_id", RPC_NULL + 100, rep.head.msgh_id);

	req.echo.type = rpc_text_type;
	strcpy(req.echo.text, "inline across tasks");
	check("inline_echo", MACH_MSG_SUCCESS,
	      rpc(&req, sizeof(req.echo), RPC_ECHO, 0, &rep));
	check("inline_echo_text", 0, strcmp(rep.echo.text, "inline across tasks"));

	buf = malloc(5 * 4096);
	for (int i = 0; i < 5 * 4096; i++) {
		buf[i] = (unsigned char)(i * 13 + 1);
		sum += buf[i];
	}
	memset(&req.ool.type, 0, sizeof(req.ool.type));
	req.ool.type.msgtl_header.msgt_longform = 1;
	req.ool.type.msgtl_name = MACH_MSG_TYPE_BYTE;
	req.ool.type.msgtl_size = 8;
	req.ool.type.msgtl_number = 5 * 4096;
	req.ool.data = buf;
	check("out_of_line_to_other_task", MACH_MSG_SUCCESS,
	      rpc(&req, sizeof(req.ool), RPC_OOL_SUM, 1, &rep));
	check("out_of_line_sum_matches", (long)sum, (long)rep.sum.sum);
	free(buf);

	mach_port_allocate(mach_task_self(), MACH_PORT_RIGHT_RECEIVE, &mine);
	req.right.type = (mach_msg_type_t){ MACH_MSG_TYPE_MAKE_SEND, 32, 1, 1,
					    0, 0, 0 };
	req.right.port = mine;
	check("right_to_other_task", MACH_MSG_SUCCESS,
	      rpc(&req, sizeof(req.right), RPC_RIGHT, 1, &rep));
	check("right_used_by_other_task", KERN_SUCCESS, rep.reply.RetCode);
	memset(&rep, 0, sizeof(rep));
	check("message_through_given_right", MACH_MSG_SUCCESS,
	      mach_msg(&rep.head, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0,
		       sizeof(rep), mine, 1000, MACH_PORT_NULL));
	check("message_through_given_right_text", 0,
	      strcmp(rep.echo.text, "hello via right"));
	check("unknown_request_is_bad_id", MACH_MSG_SUCCESS,
	      rpc(&req, sizeof(mach_msg_header_t), 150, 0, &rep));
	check("unknown_request_retcode", MIG_BAD_ID, rep.reply.RetCode);
}

static void benchmarks(unsigned long n, const char *mode)
{
	uint64_t *v = malloc(n * sizeof(*v));
	union rpc_buffer req, rep;
	mach_port_t task = mach_task_self();
	mach_port_type_t type;
	int bad = 0;

	memset(&req, 0, sizeof(req));
	for (unsigned long i = 0; i < n; i++) {
		uint64_t t0 = tsc();

		bad |= rpc(&req, sizeof(mach_msg_header_t), RPC_NULL, 0, &rep);
		v[i] = tsc() - t0;
	}
	check("bench_user_user_rpcs_succeed", 0, bad);
	bench_print("rpc.user-user", mode, v, n);
	for (unsigned long i = 0; i < n; i++) {
		uint64_t t0 = tsc();

		bad |= mach_port_type(task, reply_port, &type);
		v[i] = tsc() - t0;
	}
	check("bench_user_kernel_rpcs_succeed", 0, bad);
	bench_print("rpc.user-kernel", mode, v, n);
	free(v);
}

int main(int argc, char **argv)
{
	union rpc_buffer req, rep;
	unsigned long bench = 0;
	const char *mode = "wall";

	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "bench=", 6) == 0)
			bench = strtoul(argv[i] + 6, NULL, 10);
		if (strncmp(argv[i], "mode=", 5) == 0)
			mode = argv[i] + 5;
	}
	check("bootstrap_port", KERN_SUCCESS,
	      task_get_bootstrap_port(mach_task_self(), &server));
	reply_port = mach_reply_port();
	check("reply_port", 1, reply_port != MACH_PORT_NULL);
	exchange_checks();
	if (bench > 0)
		benchmarks(bench, mode);
	memset(&req, 0, sizeof(req));
	check("server_quits", MACH_MSG_SUCCESS,
	      rpc(&req, sizeof(mach_msg_header_t), RPC_QUIT, 0, &rep));
	printf("USER-DONE %d\n", checks);
	/* The deliberate end: a page fault the kernel must confine. */
	return *(volatile int *)0;
}
