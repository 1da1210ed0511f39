/* SPDX-License-Identifier: GPL-2.0-only */
/* What proxy_server and proxy_probe (suite device-proxy) agree on. */
#ifndef TESTS_USER_PROXY_PROTOCOL_H
#define TESTS_USER_PROXY_PROTOCOL_H

/* The probe's message on the shared bootstrap port: the server ends. */
#define PROXY_QUIT		7100
/* fake0's status flavour the probe sets and reads back. */
#define PROXY_TEST_FLAVOR	77
/* In mode=bad, the records the server answers wrongly. */
#define PROXY_BAD_WRONG_ID	1	/* a write's reply to a read */
#define PROXY_BAD_MORE		2	/* more bytes than asked */
#define PROXY_BAD_WRITTEN	3	/* more bytes written than given */
#define PROXY_BAD_DROP		4	/* the reply right destroyed */
#define PROXY_BAD_CODE		5	/* a code outside D_* */
/* In mode=bad, fake0's GRAFT_DEV_INFO answers by call, in order. */
#define PROXY_INFO_SHORT	1	/* one int short of the record */
#define PROXY_INFO_LONG		2	/* one int more than the record */
#define PROXY_INFO_NAME		3	/* a driver name without its NUL */
#define PROXY_INFO_RANGE	4	/* more counters than the record has */
#define PROXY_INFO_CODE		5	/* a code outside D_* */
/* In mode=die, the requests the server keeps before it exits. */
#define PROXY_DIE_AFTER		2
/* In mode=lend, the record whose request the server keeps, then exits. */
#define PROXY_LEND_HOLD		40
/* In mode=flaky (supervised, suite proxy-retry), the records whose
 * reads or writes each instance answers D_IO_ERROR: once, or always;
 * those it always answers D_NO_SUCH_DEVICE or D_INVALID_RECNUM; and the
 * set_status flavour after which the instance answers D_NO_SUCH_DEVICE
 * to every read and write (itself answered D_INVALID_OPERATION, so the
 * kernel does not replay it), and the one after which it answers
 * D_IO_ERROR to every write (the same); the record a call of which
 * breaks the instance that gets it, as the first flavour does. */
/* fake0's records (of 512 bytes). */
#define PROXY_DISK_RECORDS	64
#define PROXY_FLAKY_ONCE	10
#define PROXY_FLAKY_ALWAYS	20
#define PROXY_FLAKY_GONE	21
#define PROXY_FLAKY_RANGE	22
#define PROXY_FLAKY_POISON	23
#define PROXY_FLAKY_BREAK	78
#define PROXY_FLAKY_BREAK_WRITES	82
/* In mode=liar (supervised with verify=1, suite proxy-verify), each
 * instance's disk starts with proxy_liar_pattern's bytes; the set_status
 * flavours after which the instance answers success but flips the first
 * byte of every write it stores, or of every read it answers (answered
 * D_INVALID_OPERATION, so the kernel does not replay them), or answers
 * its next read or write D_IO_ERROR, or reads and writes every record
 * one record further; and the record whose reads every instance so
 * answers. */
#define PROXY_LIAR_WRITES	79
#define PROXY_LIAR_READS	80
#define PROXY_LIAR_FAIL		81
#define PROXY_LIAR_MISPLACE	83
#define PROXY_LIAR_ALWAYS	30

static inline void proxy_liar_pattern(char *buf, unsigned long n,
				      unsigned long first_byte)
{
	for (unsigned long b = first_byte; b < first_byte + n; b++)
		buf[b - first_byte] = (char)((b * 13 + 5) ^ (b >> 9));
}
/* fakeeth0's NET_STATUS sizes and NET_ADDRESS words. */
#define ETH_MIN			14
#define ETH_MAX			1514
#define PROXY_MAC_WORD0		0x52540000
#define PROXY_MAC_WORD1		0x00990000

#endif
