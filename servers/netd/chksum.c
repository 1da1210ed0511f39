/* SPDX-License-Identifier: GPL-2.0-only */
/* netd_chksum: lwIP's LWIP_CHKSUM, the Internet checksum eight bytes a step. */
/*
 * The one's complement sum of 16-bit words does not depend on the order
 * in which the words are added, nor on their grouping: since 2^16 = 1
 * modulo 0xffff, a 32-bit word adds the same as its two halves.  So the
 * data is read as 64-bit little-endian words, each added as two 32-bit
 * halves into a 64-bit accumulator (no carry is lost below 2^31 words),
 * and the sum folded to 16 bits at the end.  Words loaded in the host's
 * (little-endian) order give the checksum byte-swapped, which is what
 * lwIP expects: it stores the result as it is.  Data starting at an odd
 * address has its first byte added as the high byte of a word and the
 * result swapped back, so that the other words are read aligned.
 */
#include <stdint.h>
#include <string.h>

#include "lwipopts.h"

static uint64_t load64(const uint8_t *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

unsigned short netd_chksum(const void *data, int len)
{
	const uint8_t *p = data;
	uint64_t sum = 0, w;
	int odd;

	if (len <= 0)
		return 0;
	odd = (uintptr_t)p & 1;
	if (odd) {
		sum = (uint64_t)*p++ << 8;
		len--;
	}
	for (; len >= 16; len -= 16, p += 16) {
		w = load64(p);
		sum += (w & 0xffffffffu) + (w >> 32);
		w = load64(p + 8);
		sum += (w & 0xffffffffu) + (w >> 32);
	}
	if (len >= 8) {
		w = load64(p);
		sum += (w & 0xffffffffu) + (w >> 32);
		p += 8;
		len -= 8;
	}
	for (; len >= 2; len -= 2, p += 2)
		sum += (uint64_t)p[0] | (uint64_t)p[1] << 8;
	if (len)
		sum += *p;
	sum = (sum & 0xffffffffu) + (sum >> 32);
	sum = (sum & 0xffffffffu) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	if (odd)
		sum = ((sum & 0xff) << 8) | (sum >> 8);
	return (unsigned short)sum;
}
