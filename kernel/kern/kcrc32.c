/* SPDX-License-Identifier: GPL-2.0-only */
/* CRC-32 (IEEE 802.3, reflected polynomial 0xedb88320), table driven. */

#include <stdbool.h>

#include "kern/kcrc32.h"

#define CRC32_POLY	0xedb88320u	/* x^32 + x^26 + ... + 1, reflected */

static uint32_t crc_table[256];
static bool crc_table_ready;

/* crc_table[b] is the CRC register after shifting in byte b alone. */
static void crc_table_build(void)
{
	unsigned int b, bit;

	for (b = 0; b < 256; b++) {
		uint32_t r = b;

		for (bit = 0; bit < 8; bit++)
			r = (r >> 1) ^ (CRC32_POLY & -(r & 1));
		crc_table[b] = r;
	}
	/* Publish the table only once every entry is stored. */
	__atomic_store_n(&crc_table_ready, true, __ATOMIC_RELEASE);
}

uint32_t kcrc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (!__atomic_load_n(&crc_table_ready, __ATOMIC_ACQUIRE))
		crc_table_build();
	crc = ~crc;
	while (len-- > 0)
		crc = (crc >> 8) ^ crc_table[(crc ^ *p++) & 0xff];
	return ~crc;
}
