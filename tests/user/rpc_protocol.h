/* SPDX-License-Identifier: GPL-2.0-only */
/* Messages rpc_client and rpc_server exchange (x86_64 user layout). */
#ifndef TESTS_USER_RPC_PROTOCOL_H
#define TESTS_USER_RPC_PROTOCOL_H

#include <mach/message.h>
#include <mach/mig_errors.h>
#include <stdint.h>

#define RPC_NULL	100
#define RPC_ECHO	101
#define RPC_OOL_SUM	102
#define RPC_RIGHT	103
#define RPC_QUIT	199
#define RPC_HELLO	300

#pragma pack(push, 4)
struct rpc_echo {
	mach_msg_header_t head;
	mach_msg_type_t type;
	char text[64];
};

struct rpc_ool {
	mach_msg_header_t head;
	mach_msg_type_long_t type;
	void *data;
};

struct rpc_right {
	mach_msg_header_t head;
	mach_msg_type_t type;
	mach_port_t port;
};

struct rpc_sum {
	mig_reply_header_t reply;
	mach_msg_type_t sum_type;
	uint64_t sum;
};

union rpc_buffer {
	mach_msg_header_t head;
	mig_reply_header_t reply;
	struct rpc_echo echo;
	struct rpc_ool ool;
	struct rpc_right right;
	struct rpc_sum sum;
	char space[512];
};
#pragma pack(pop)

static const mach_msg_type_t rpc_int_type = {
	MACH_MSG_TYPE_INTEGER_32, 32, 1, 1, 0, 0, 0
};
static const mach_msg_type_t rpc_text_type = {
	MACH_MSG_TYPE_CHAR, 8, 64, 1, 0, 0, 0
};

#endif
