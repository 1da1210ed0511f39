/* SPDX-License-Identifier: GPL-2.0-only */
/* netd_chksum: lwIP's LWIP_CHKSUM, the Internet checksum 32 bytes a step. */
/*
 * The one's complement sum of 16-bit words does not depend on the order
 * in which the words are added, nor on their grouping: since 2^16 = 1
 * modulo 0xffff, so are 2^32 and 2^64, and a 64-bit word adds the same
 * as its four 16-bit words, a carry out of 64 bits the same as 1.  So
 * the data is read as 64-bit little-endian words, four at a time added
 * with x86-64's add-with-carry chain and the last carry added back
 * (sum32), and the sum folded to 16 bits.  Words loaded in the
 * host's (little-endian) order give the checksum byte-swapped, which is
 * what lwIP expects: it stores the result as it is.  Data starting at an
 * odd address has its first byte added as the high byte of a word and
 * the result swapped back, so that the other words are read aligned.
 */
#include <stdint.h>

#include "lwipopts.h"

/* @sum plus the four 64-bit words at @p, in one's complement. */
static uint64_t sum32(uint64_t sum, const uint8_t *p)
{
	__asm__("addq 0(%1), %0\n\t"
		"adcq 8(%1), %0\n\t"
		"adcq 16(%1), %0\n\t"
		"adcq 24(%1), %0\n\t"
		"adcq $0, %0"
		: "+r"(sum)
		: "r"(p), "m"(*(const uint8_t (*)[32])p)
		: "cc");
	return sum;
}

unsigned short netd_chksum(const void *data, int len)
{
	const uint8_t *p = data;
	uint64_t sum = 0;
	int odd;

	if (len <= 0)
		return 0;
	odd = (uintptr_t)p & 1;
	if (odd) {
		sum = (uint64_t)*p++ << 8;
		len--;
	}
	for (; len >= 32; len -= 32, p += 32)
		sum = sum32(sum, p);
	sum = (sum & 0xffffffffu) + (sum >> 32);
	for (; len >= 2; len -= 2, p += 2)
		sum += (uint64_t)p[0] | (uint64_t)p[1] << 8;
	if (len)
		sum += *p;
	sum = (sum & 0xffffffffu) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	if (odd)
		sum = ((sum & 0xff) << 8) | (sum >> 8);
	return (unsigned short)sum;
}
