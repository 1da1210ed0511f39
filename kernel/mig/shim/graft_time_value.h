/* SPDX-License-Identifier: GPL-2.0-only */
/* time_value_t laid out in C as MIG puts it on the wire (12 bytes). */
#ifndef GRAFT_TIME_VALUE_H
#define GRAFT_TIME_VALUE_H

/*
 * mach_types.defs declares rpc_time_value_t as struct { rpc_long_integer_t
 * seconds; integer_t microseconds; }, and on x86_64 machine_types.defs
 * makes rpc_long_integer_t an int64_t.  Debian's MIG (1.8+git20221221)
 * sizes a struct as the sum of its fields: 12 bytes, sent as three
 * MACH_MSG_TYPE_INTEGER_32 words, seconds (low word first) then
 * microseconds, and its stubs assert sizeof(the C type) == 12.  C lays
 * gnumach-dev's struct rpc_time_value / struct time_value out in 16
 * bytes (4 bytes of tail padding after microseconds); the first 12 are
 * the wire's.  Declaring the two structs with 4-byte packing makes C
 * agree with the wire: same field offsets, no tail padding.
 *
 * Only MIG's stubs of mach_host.defs and the kernel routines behind them
 * see this header (the build force-includes it there): everything else
 * keeps the 16-byte layout, which records such as thread_basic_info
 * carry as integer arrays.  A 16-byte time_value_t passed to these stubs
 * works unchanged (docs/mach-interfaces.md, "time_value_t").
 */
#include <mach/machine/vm_types.h>

#pragma pack(push, 4)
#include <mach/time_value.h>
#pragma pack(pop)

_Static_assert(sizeof(time_value_t) == 12 &&
	       sizeof(rpc_time_value_t) == 12,
	       "time_value_t is three 32-bit words, as MIG sends it");

#endif
