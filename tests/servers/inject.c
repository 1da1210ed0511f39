/* SPDX-License-Identifier: GPL-2.0-only */
/* The driver server's fault-injection build: faults made in the Linux world's code and data while it serves, each undone a moment later (suite fault-inject, make stress). */
/*
 * Linked with lxdrv's objects and linux.o (tests/local.mk), linux.o's
 * code between the markers inject_linux_text_begin and _end; its
 * __wrap_main sets lxdrv's hook (servers/lxdrv/lxdrv_probe.h) and runs
 * lxdrv's main.  At the ready point a thread of the world's starts
 * (made writable: linux.o's code).  Every INTERVAL ticks (or N:
 * inject_interval=N on the module line, 1 to INTERVAL_MAX; 0 makes no
 * fault at all, a control run), the first time one interval after the
 * ready point, it undoes the fault it made last, the server having come
 * through it, and makes the next, of a kind and at a place drawn at random (the seed, the TSC
 * at the start, is printed: "inject: seed N"), as the campaigns of Swift et
 * al. and of MINIX 3 mutate a driver:
 *   flip  a bit of a byte of linux.o's code flipped
 *   nop   a byte of it made a NOP (an instruction skipped or cut)
 *   loop  two bytes of it made "jmp ." (a loop that never returns)
 *   null  a word of the world's memory that points into that memory
 *         (a pointer of a driver's structure, most likely) made NULL
 *   wild  such a word made a non-canonical address
 *   reuse the next block the world allocates is one it holds already
 *         (a buffer freed too early and handed out again while its
 *         owner still uses it): lx_host_alloc and lx_host_free are
 *         wrapped (tests/local.mk) to keep the last LIVE blocks handed
 *         out; the first free of a block handed out twice is not passed
 *         on, so the fault ends when one of its owners lets it go
 * Each fault prints "inject: fault N KIND" before it is made, and a
 * reuse fault "inject: reuse: SIZE bytes at ADDRESS for CALLER" when an
 * allocation takes the block (the caller of lx_host_alloc, which
 * addr2line -e build/tests/servers/lxdrv_inject.elf names).  A fault
 * that ends the server (a fault of the CPU, or a hang the kernel
 * notices) is undone by the restart: the new instance is loaded from
 * the module again.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graft_user.h>

#include <lx_host.h>

#include "lxdrv.h"
#include "lxdrv_glue.h"
#include "lxdrv_probe.h"
#include "tests/user/user_bench.h"

#define INTERVAL	5		/* ticks a fault stays, by default */
#define INTERVAL_MAX	100
#define WORD_TRIES	64		/* words looked at for a pointer */
#define PAGE		4096ul

extern char inject_linux_text_begin[], inject_linux_text_end[];

enum kind { FLIP, NOP, LOOP, NUL, WILD, REUSE, KINDS };

static const char *const kind_names[KINDS] = {
	"flip", "nop", "loop", "null", "wild", "reuse"
};

/* The fault made last: where, and what was there. */
static struct {
	uint8_t *at;
	size_t len;
	uint8_t saved[8];
} last;

static uint64_t rng;
static unsigned long interval = INTERVAL;	/* inject_interval= */

/* The blocks the world holds, the LIVE handed out last; the blocks
 * handed out twice (a reuse fault taken), whose next free is dropped;
 * whether a reuse fault waits for the next allocation.  Taken from any
 * thread of the server: one lock. */
#define LIVE		256
#define TWICE		16

static struct {
	void *p;
	unsigned long size;
	enum lx_host_zone zone;
} live[LIVE];
static unsigned int live_next;
static void *twice[TWICE];
static bool reuse_armed;
static volatile int block_lock;

static void blocks_lock(void)
{
	while (__atomic_test_and_set(&block_lock, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
}

static void blocks_unlock(void)
{
	__atomic_clear(&block_lock, __ATOMIC_RELEASE);
}

static uint64_t draw(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A byte of linux.o's code at random. */
static uint8_t *code_byte(size_t room)
{
	size_t size = (size_t)(inject_linux_text_end -
			       inject_linux_text_begin);

	return (uint8_t *)inject_linux_text_begin + draw() % (size - room);
}

/* A word of the world's memory that holds an address inside it, or
 * any word if none was drawn in WORD_TRIES tries. */
static uint64_t *pointer_word(void)
{
	uintptr_t start = (uintptr_t)lxdrv_memory_pool_start();
	size_t words = lxdrv_memory_pool() / sizeof(uint64_t);
	uint64_t *w = NULL;

	for (int i = 0; i < WORD_TRIES; i++) {
		w = (uint64_t *)start + draw() % words;
		if (*w >= start && *w < start + lxdrv_memory_pool())
			break;
	}
	return w;
}

static void make(enum kind kind)
{
	static const uint8_t nop = 0x90, loop[2] = { 0xeb, 0xfe };
	uint64_t null = 0, wild = 0xdead000000000000ull;
	const void *with;

	switch (kind) {
	case FLIP:
	case NOP:
		last.at = code_byte(1);
		last.len = 1;
		break;
	case LOOP:
		last.at = code_byte(2);
		last.len = 2;
		break;
	case REUSE:
		blocks_lock();
		reuse_armed = true;
		blocks_unlock();
		return;
	default:
		last.at = (uint8_t *)pointer_word();
		last.len = sizeof(uint64_t);
		break;
	}
	memcpy(last.saved, last.at, last.len);
	if (kind == FLIP) {
		*last.at ^= (uint8_t)(1u << (draw() % 8));
		return;
	}
	with = kind == NOP ? (const void *)&nop :
	       kind == LOOP ? (const void *)loop :
	       kind == NUL ? (const void *)&null : (const void *)&wild;
	memcpy(last.at, with, last.len);
}

static void undo(void)
{
	blocks_lock();
	reuse_armed = false;
	blocks_unlock();
	if (last.at != NULL)
		memcpy(last.at, last.saved, last.len);
	last.at = NULL;
}

static void injector(void *arg)
{
	static char never;
	unsigned long n = 0;

	(void)arg;
	for (;;) {
		enum kind kind;

		/* one interval with no fault before the first, as between
		 * any two: a fault made at the ready point would always hit
		 * an instance's first call */
		lx_host_wait_prepare(&never);
		(void)lx_host_wait(interval);
		undo();
		kind = (enum kind)(draw() % KINDS);
		printf("inject: fault %lu %s\n", ++n, kind_names[kind]);
		fflush(stdout);
		make(kind);
	}
}

static void probe(int point, size_t len)
{
	vm_address_t page = (vm_address_t)inject_linux_text_begin &
			    ~(PAGE - 1);
	vm_size_t size = (vm_address_t)inject_linux_text_end - page;

	(void)len;
	if (point != LXDRV_PROBE_READY)
		return;
	if (interval == 0) {
		printf("inject: inject_interval=0: no fault (a control run)\n");
		return;
	}
	rng = tsc() | 1;
	printf("inject: seed %llu, linux.o's code %p-%p\n",
	       (unsigned long long)rng, (void *)inject_linux_text_begin,
	       (void *)inject_linux_text_end);
	if (vm_protect(lxdrv_task, page, size, FALSE, VM_PROT_ALL) !=
	    KERN_SUCCESS ||
	    lx_host_thread_create("inject", injector, NULL) != 0)
		printf("inject: cannot start: nothing injected\n");
}

void *__real_lx_host_alloc(unsigned long size, enum lx_host_zone zone,
			    int zero);
void *__wrap_lx_host_alloc(unsigned long size, enum lx_host_zone zone,
			    int zero);
void __real_lx_host_free(void *p);
void __wrap_lx_host_free(void *p);

/* A held block of at least @size bytes in @zone, the newest, for an
 * armed reuse fault (NULL if none); recorded as handed out twice. */
static void *block_again(unsigned long size, enum lx_host_zone zone)
{
	for (unsigned int k = 1; k <= LIVE; k++) {
		unsigned int i = (live_next - k) % LIVE;

		if (live[i].p == NULL || live[i].size < size ||
		    (zone != LX_HOST_ZONE_ANY && live[i].zone != zone))
			continue;
		for (unsigned int j = 0; j < TWICE; j++) {
			if (twice[j] == NULL) {
				twice[j] = live[i].p;
				reuse_armed = false;
				return live[i].p;
			}
		}
		return NULL;
	}
	return NULL;
}

void *__wrap_lx_host_alloc(unsigned long size, enum lx_host_zone zone,
			   int zero)
{
	void *p;

	blocks_lock();
	p = reuse_armed ? block_again(size, zone) : NULL;
	blocks_unlock();
	if (p != NULL) {
		printf("inject: reuse: %lu bytes at %p for %p\n", size, p,
		       __builtin_return_address(0));
		if (zero)
			memset(p, 0, size);
		return p;
	}
	p = __real_lx_host_alloc(size, zone, zero);
	if (p == NULL)
		return NULL;
	blocks_lock();
	live[live_next % LIVE].p = p;
	live[live_next % LIVE].size = size;
	live[live_next % LIVE].zone = zone;
	live_next++;
	blocks_unlock();
	return p;
}

void __wrap_lx_host_free(void *p)
{
	blocks_lock();
	for (unsigned int j = 0; j < TWICE; j++) {
		if (p != NULL && twice[j] == p) {
			twice[j] = NULL;
			blocks_unlock();
			return;
		}
	}
	for (unsigned int i = 0; i < LIVE; i++) {
		if (p != NULL && live[i].p == p)
			live[i].p = NULL;
	}
	blocks_unlock();
	__real_lx_host_free(p);
}

int __real_main(int argc, char **argv);
int __wrap_main(int argc, char **argv);

int __wrap_main(int argc, char **argv)
{
	const char *word = graft_arg(argc, argv, "inject_interval", NULL);
	char *end = NULL;

	if (word != NULL) {
		interval = strtoul(word, &end, 10);
		if (*word == '\0' || *end != '\0' ||
		    interval > INTERVAL_MAX) {
			printf("inject: inject_interval=%s is not 0 to %d "
			       "ticks\n", word, INTERVAL_MAX);
			return 1;
		}
	}
	lxdrv_probe_fn = probe;
	return __real_main(argc, argv);
}
