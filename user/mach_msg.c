/* SPDX-License-Identifier: GPL-2.0-only */
/* mach_msg(): the trap, restarted when a wait was interrupted. */
#include "graft_user.h"

mach_msg_return_t mach_msg(mach_msg_header_t *msg, mach_msg_option_t option,
			   mach_msg_size_t send_size, mach_msg_size_t rcv_size,
			   mach_port_t rcv_name, mach_msg_timeout_t timeout,
			   mach_port_t notify)
{
	mach_msg_return_t mr;

	mr = mach_msg_trap(msg, option, send_size, rcv_size, rcv_name,
			   timeout, notify);
	while (mr == MACH_SEND_INTERRUPTED && (option & MACH_SEND_MSG))
		mr = mach_msg_trap(msg, option, send_size, rcv_size, rcv_name,
				   timeout, notify);
	while (mr == MACH_RCV_INTERRUPTED)
		mr = mach_msg_trap(msg, option & ~MACH_SEND_MSG, 0, rcv_size,
				   rcv_name, timeout, notify);
	return mr;
}
