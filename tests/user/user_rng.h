/* SPDX-License-Identifier: GPL-2.0-only */
/* The fuzzers' random numbers: splitmix64, one 64-bit state, easy to replay. */
#ifndef TESTS_USER_USER_RNG_H
#define TESTS_USER_USER_RNG_H

#include <stdint.h>

/* The state; the program defines it and sets it to its seed. */
extern uint64_t rng;

static inline uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A number below @n (not 0), and true one time in @n. */
static inline uint32_t below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

static inline int chance(uint32_t n)
{
	return below(n) == 0;
}

#endif
