/* SPDX-License-Identifier: GPL-2.0-only */
/* What a disk's records hold as its clients wrote them: checksums the proxy module checks a driver server's data against. */
#ifndef DEVICE_DEV_PROXY_SUMS_H
#define DEVICE_DEV_PROXY_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <device/device_types.h>

/*
 * A publication of a disk whose server's line says verify=1
 * (kern/supervise.h) keeps one 32-bit checksum for every record a
 * client's write put there through the proxy (dev_proxy_check.c,
 * "Checked data").  A checksum is never 0: 0 means "not known" (a
 * record never written, or whose last write failed), and in a list of
 * a call's checksums "not to be checked".
 *
 * The table grows in chunks of DEV_PROXY_SUMS_CHUNK records (4 bytes a
 * record), allocated when a record of theirs is first written, and an
 * index of 8 bytes a chunk up to the highest record written; a chunk
 * that cannot be allocated leaves its records unknown (printed once).
 * Interrupts off around every call; none blocks.
 */
struct dev_proxy_sums;

#define DEV_PROXY_SUMS_CHUNK	1024

/* Which records a call of @count bytes covers whole, on @record_size's
 * records: its checksums count (0 if @count is not a whole number of
 * records, or the records are too large to check). */
size_t dev_proxy_sums_records(size_t count, uint32_t record_size);

/*
 * dev_proxy_sums_compute - the checksums of @n records of @record_size
 * bytes, read from @src with @get(@src, offset, buffer, length), into
 * @out.  @record_size is one dev_proxy_sums_records accepts.
 */
void dev_proxy_sums_compute(void (*get)(const void *src, size_t off,
					void *dst, size_t len),
			    const void *src, size_t n, uint32_t record_size,
			    uint32_t *out);

/* dev_proxy_sums_create - an empty table (NULL if memory is short);
 * dev_proxy_sums_destroy - free it (NULL is a no-op). */
struct dev_proxy_sums *dev_proxy_sums_create(void);
void dev_proxy_sums_destroy(struct dev_proxy_sums *s);

/* dev_proxy_sums_set - records @recnum to @recnum + @n - 1 hold what
 * @sums say (a 0 forgets its record); dev_proxy_sums_forget - they hold
 * nothing known. */
void dev_proxy_sums_set(struct dev_proxy_sums *s, recnum_t recnum, size_t n,
			const uint32_t *sums);
void dev_proxy_sums_forget(struct dev_proxy_sums *s, recnum_t recnum,
			   size_t n);

/* dev_proxy_sums_get - @recnum's known checksum, or 0. */
uint32_t dev_proxy_sums_get(const struct dev_proxy_sums *s, recnum_t recnum);

/* dev_proxy_sums_known - whether the @n records from @recnum all have a
 * known checksum (the device stored and returned what was written). */
bool dev_proxy_sums_known(const struct dev_proxy_sums *s, recnum_t recnum,
			  size_t n);

/* dev_proxy_sums_differ - the number of records from @recnum whose
 * known checksum is not the one in @sums (a 0 there is not checked). */
size_t dev_proxy_sums_differ(const struct dev_proxy_sums *s, recnum_t recnum,
			     size_t n, const uint32_t *sums);

#endif
