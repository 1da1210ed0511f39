/* SPDX-License-Identifier: GPL-2.0-only */
/* Random numbers without an entropy source: get_random_bytes, get_random_u8/_u16/_u32/_u64, rng_is_initialized, add_device_randomness. */
/*
 * Graft gives the Linux world no entropy (no interrupt timing pool, no
 * hardware generator it trusts), so the generator is never "initialized"
 * in Linux's sense: rng_is_initialized() is false, as in a Linux whose
 * pool has not been seeded yet, and callers that need strong randomness
 * can tell.  The bytes are SipHash-2-4 of a counter under a key taken
 * from the time stamp counter at first use (what Linux mixes in before
 * it has entropy): distinct between calls and between boots, not secret.
 */
#include <linux/irqflags.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/string.h>
#include <asm/msr.h>

static siphash_key_t key;
static u64 counter;
static bool keyed;

/* The next 8 bytes.  Interrupts off (handlers may ask too). */
static u64 next_block(void)
{
	if (!keyed) {
		key.key[0] = rdtsc();
		key.key[1] = rol64(rdtsc(), 32) ^ (unsigned long)&key;
		keyed = true;
	}
	return siphash_1u64(counter++, &key);
}

/* get_random_bytes - fill @len bytes of @buf.  Any context. */
void get_random_bytes(void *buf, size_t len)
{
	unsigned long flags;
	u8 *p = buf;

	local_irq_save(flags);
	while (len) {
		u64 block = next_block();
		size_t n = min(len, sizeof(block));

		memcpy(p, &block, n);
		p += n;
		len -= n;
	}
	local_irq_restore(flags);
}

/* get_random_u8, _u16, _u32, _u64 - so many random bits.  Any
 * context. */
#define LX_RANDOM_INT(type, name)		\
	type name(void)				\
	{					\
		type v;				\
						\
		get_random_bytes(&v, sizeof(v));\
		return v;			\
	}

LX_RANDOM_INT(u8, get_random_u8)
LX_RANDOM_INT(u16, get_random_u16)
LX_RANDOM_INT(u32, get_random_u32)
LX_RANDOM_INT(u64, get_random_u64)

/* rng_is_initialized - false: never seeded with entropy (above). */
bool rng_is_initialized(void)
{
	return false;
}

/* add_device_randomness - device data (serial numbers, MAC addresses)
 * that Linux mixes into its pool without crediting entropy: mixed into
 * the key here, which stays no secret.  Any context. */
void add_device_randomness(const void *buf, size_t len)
{
	unsigned long flags;

	local_irq_save(flags);
	next_block();	/* keyed */
	key.key[1] ^= siphash(buf, len, &key);
	local_irq_restore(flags);
}
