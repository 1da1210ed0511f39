/* SPDX-License-Identifier: GPL-2.0-only */
/* What a disk's records hold as its clients wrote them: checksums the proxy module checks a driver server's data against. */
/*
 * The checksum is Fletcher's over a record's 64-bit words: a running sum
 * of the words and a sum of those sums, so a changed word changes the
 * first and a moved one the second; the two are mixed down to 32 bits.
 * Two additions a word keep it cheap (it runs over every byte of a
 * verified disk's traffic); it is a check of a driver's mistakes, not of
 * an adversary's.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/dev_proxy_sums.h"
#include "kern/kalloc.h"
#include "kern/klog.h"
#include "kern/string.h"

static KLOG_SOURCE(sums_log, "device-proxy");

/* The most chunks a table indexes: records up to 2^34 (8 TiB of 512-byte
 * records); a record past them stays unknown. */
#define SUMS_CHUNKS_MAX		(1ul << 24)
#define SUM_PIECE		512

struct dev_proxy_sums {
	uint32_t **chunks;		/* @nchunks, each NULL or a chunk */
	size_t nchunks;
	bool told;			/* memory ran short, printed */
};

size_t dev_proxy_sums_records(size_t count, uint32_t record_size)
{
	if (record_size == 0 || record_size % sizeof(uint64_t) != 0 ||
	    count == 0 || count % record_size != 0)
		return 0;
	return count / record_size;
}

/* Add @n words at @w to the sums @s1 and @s2, four at a time. */
static void fletcher(const uint64_t *w, size_t n, uint64_t *s1, uint64_t *s2)
{
	uint64_t a = *s1, b = *s2;
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		a += w[i];
		b += a;
		a += w[i + 1];
		b += a;
		a += w[i + 2];
		b += a;
		a += w[i + 3];
		b += a;
	}
	for (; i < n; i++) {
		a += w[i];
		b += a;
	}
	*s1 = a;
	*s2 = b;
}

void dev_proxy_sums_compute(void (*get)(const void *src, size_t off,
					void *dst, size_t len),
			    const void *src, size_t n, uint32_t record_size,
			    uint32_t *out)
{
	uint64_t piece[SUM_PIECE / sizeof(uint64_t)];

	for (size_t r = 0; r < n; r++) {
		uint64_t s1 = record_size, s2 = 0, h;

		for (size_t done = 0; done < record_size;
		     done += sizeof(piece)) {
			size_t len = record_size - done < sizeof(piece) ?
				     record_size - done : sizeof(piece);

			get(src, r * record_size + done, piece, len);
			fletcher(piece, len / sizeof(uint64_t), &s1, &s2);
		}
		h = (s2 * 0xff51afd7ed558ccdull) ^ s1;
		h ^= h >> 29;
		h *= 0x9e3779b97f4a7c15ull;
		out[r] = (uint32_t)(h ^ (h >> 32)) | 1;
	}
}

struct dev_proxy_sums *dev_proxy_sums_create(void)
{
	return kzalloc(sizeof(struct dev_proxy_sums));
}

void dev_proxy_sums_destroy(struct dev_proxy_sums *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->nchunks; i++)
		kfree(s->chunks[i]);
	kfree(s->chunks);
	kfree(s);
}

/* Memory ran short for @recnum: printed the first time. */
static void short_of_memory(struct dev_proxy_sums *s, recnum_t recnum)
{
	if (s->told)
		return;
	s->told = true;
	klog(&sums_log, "device-proxy: no memory to keep the checksum of "
	     "record %lu: records without one are not checked\n",
	     (unsigned long)recnum);
}

/* The chunk of @recnum, made if @make; NULL if it has none. */
static uint32_t *chunk_of(struct dev_proxy_sums *s, recnum_t recnum,
			  bool make)
{
	size_t c = recnum / DEV_PROXY_SUMS_CHUNK;

	if (c >= s->nchunks) {
		size_t n = s->nchunks != 0 ? s->nchunks : 8;
		uint32_t **grown;

		if (!make)
			return NULL;
		if (c >= SUMS_CHUNKS_MAX) {
			short_of_memory(s, recnum);
			return NULL;
		}
		while (n <= c)
			n *= 2;
		grown = kzalloc(n * sizeof(*grown));
		if (grown == NULL) {
			short_of_memory(s, recnum);
			return NULL;
		}
		if (s->nchunks != 0)
			memcpy(grown, s->chunks, s->nchunks * sizeof(*grown));
		kfree(s->chunks);
		s->chunks = grown;
		s->nchunks = n;
	}
	if (s->chunks[c] == NULL && make) {
		s->chunks[c] = kzalloc(DEV_PROXY_SUMS_CHUNK *
				       sizeof(uint32_t));
		if (s->chunks[c] == NULL)
			short_of_memory(s, recnum);
	}
	return s->chunks[c];
}

void dev_proxy_sums_set(struct dev_proxy_sums *s, recnum_t recnum, size_t n,
			const uint32_t *sums)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t *chunk = chunk_of(s, recnum + i, sums[i] != 0);

		if (chunk != NULL)
			chunk[(recnum + i) % DEV_PROXY_SUMS_CHUNK] = sums[i];
	}
}

void dev_proxy_sums_forget(struct dev_proxy_sums *s, recnum_t recnum,
			   size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t *chunk = chunk_of(s, recnum + i, false);

		if (chunk != NULL)
			chunk[(recnum + i) % DEV_PROXY_SUMS_CHUNK] = 0;
	}
}

uint32_t dev_proxy_sums_get(const struct dev_proxy_sums *s, recnum_t recnum)
{
	size_t c = recnum / DEV_PROXY_SUMS_CHUNK;

	if (c >= s->nchunks || s->chunks[c] == NULL)
		return 0;
	return s->chunks[c][recnum % DEV_PROXY_SUMS_CHUNK];
}

size_t dev_proxy_sums_differ(const struct dev_proxy_sums *s, recnum_t recnum,
			     size_t n, const uint32_t *sums)
{
	size_t differ = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t known = dev_proxy_sums_get(s, recnum + i);

		differ += sums[i] != 0 && known != 0 && known != sums[i];
	}
	return differ;
}

bool dev_proxy_sums_known(const struct dev_proxy_sums *s, recnum_t recnum,
			  size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (dev_proxy_sums_get(s, recnum + i) == 0)
			return false;
	return true;
}
