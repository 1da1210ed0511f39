/* SPDX-License-Identifier: GPL-2.0-only */
/* CRC-32 (IEEE 802.3), the checksum zlib's crc32() computes. */
#ifndef KERN_KCRC32_H
#define KERN_KCRC32_H

#include <stddef.h>
#include <stdint.h>

/*
 * kcrc32 - extend the CRC-32 @crc over @len bytes at @buf.
 * @crc: 0 to start, or the result of the previous call to continue.
 *
 * Returns the CRC-32 of everything seen so far, as zlib's crc32() does:
 * kcrc32(kcrc32(0, a, n), b, m) equals the CRC of a followed by b, and
 * kcrc32(0, "123456789", 9) is 0xcbf43926.  @buf may be NULL when @len is 0.
 * The lookup table is built on first use; concurrent first uses build
 * identical tables, so no lock is needed and none is taken.
 */
uint32_t kcrc32(uint32_t crc, const void *buf, size_t len);

#endif /* KERN_KCRC32_H */
