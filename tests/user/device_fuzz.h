/* SPDX-License-Identifier: GPL-2.0-only */
/* The device fuzzer's two halves: what it holds, and what it sends. */
#ifndef TESTS_USER_DEVICE_FUZZ_H
#define TESTS_USER_DEVICE_FUZZ_H

#include <mach/message.h>
#include <mach/port.h>
#include <stddef.h>
#include <stdint.h>

#define DEV_IO_MAX	(16u << 20)	/* kernel/device/device.h */
#define SEND_REGION	(1u << 20)	/* the kernel's largest message */
#define WRITE_REGION	(DEV_IO_MAX + (64u << 10))
#define RANDOM_BYTES	(64u << 10)	/* the rest of it stays zero */
#define SCRATCH_ADDR	0x500000000000ull
#define SCRATCH_SIZE	(64u << 10)
#define USER_END	0x800000000000ull
#define NPORTS		4
#define NSONCE		8
#define ID_FIRST	2800		/* device.defs */
#define ID_END		2830
#define CLAIM_FIRST	5100		/* defs/claim.defs */
#define CLAIM_END	5110
#define COUNT_OF(a)	(sizeof(a) / sizeof((a)[0]))

enum { CONSOLE, IRQ, RD0, ETH0, HD0, HD0S1, HD0S2, NDEVS };
extern const char *const dev_names[NDEVS];

/*
 * The rights the fuzzer holds, kept up by device_fuzz.c's housekeeping:
 * its task, host and device master ports, a dead name, its ports (a
 * receive right and send rights each), send-once rights to them under
 * names of their own, one name per device it holds open (else
 * MACH_PORT_NULL), and one claim of a PCI function (defs/claim.defs).  Messages may move or destroy any of them meanwhile.
 */
struct fuzz_held {
	mach_port_t self, host, master, dead;
	mach_port_t ports[NPORTS], sonce[NSONCE], devs[NDEVS];
	mach_port_t claim;	/* a PCI claim, or MACH_PORT_NULL */
};
extern struct fuzz_held held;

/* Its memory: the send region (messages are built there), the write
 * region (device_write's data), the text console writes print, and
 * whether the scratch region (data the kernel may deallocate) is
 * mapped. */
struct fuzz_memory {
	uint8_t *send, *write;
	char text[4096];
	int scratch_ok;
};
extern struct fuzz_memory mem;

#include "user_rng.h"

/* The 8 bytes at @p (an out-of-line address), at any alignment. */
static inline uint64_t rd64(const void *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, 8);
	return v;
}

/* Whether @name is one of held.ports. */
int fuzz_is_own(mach_port_t name);

/*
 * fuzz_message - build the next message in mem.send: a device.defs or
 * claim.defs request with random fields, mutated one time in two, then made safe
 * for the fuzzer (see device_fuzz_msg.c).  *@size gets the byte count to
 * send, *@option mach_msg's options (a send with a zero timeout, never a
 * receive).
 */
void fuzz_message(mach_msg_size_t *size, mach_msg_option_t *option);

/* fuzz_dump - print the message fuzz_message made, as message @n. */
void fuzz_dump(unsigned long n, mach_msg_size_t size,
	       mach_msg_option_t option);

#endif
