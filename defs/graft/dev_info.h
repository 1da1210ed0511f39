/* SPDX-License-Identifier: GPL-2.0-only */
/* device_get_status flavour GRAFT_DEV_INFO: which driver serves a device, where, its counters and its probes. */
#ifndef GRAFT_DEV_INFO_H
#define GRAFT_DEV_INFO_H

#include <stdint.h>

/*
 * device_get_status(dev, GRAFT_DEV_INFO, status, &count) answers one
 * struct graft_dev_info as GRAFT_DEV_INFO_COUNT ints (copy it out with
 * memcpy: the ints are only 4-byte aligned).  A count below
 * GRAFT_DEV_INFO_COUNT is D_INVALID_SIZE; a larger one is answered
 * GRAFT_DEV_INFO_COUNT ints.  A device that cannot say is
 * D_INVALID_OPERATION, as for any flavour it does not know.
 *
 * Every string is NUL-terminated within its array; entries past
 * ncounters and nprobes are zero.  Counters are the driver's own (Linux's
 * net_device statistics for a NIC); probes are the rdtsc probes of the
 * emulation paths that make bench reports (bench/README.md names them),
 * each summarised over its last @window samples at most, in TSC ticks
 * (guest instructions under QEMU -icount).  The mode and the host come
 * from the kernel: a device a driver server publishes is answered
 * GRAFT_DEV_SERVER with the server task's name whatever the server said.
 */
#define GRAFT_DEV_INFO		(('g' << 16) + 1)

enum graft_dev_mode {
	GRAFT_DEV_KERNEL = 1,	/* a driver linked into the kernel */
	GRAFT_DEV_SERVER = 2,	/* a driver server, through the proxy */
};

#define GRAFT_DEV_NAME_MAX	16	/* driver and counter names, NUL included */
#define GRAFT_DEV_HOST_MAX	32	/* a task's name, NUL included */
#define GRAFT_DEV_PROBE_NAME_MAX 24	/* "server.net.txdone.glue" */
#define GRAFT_DEV_COUNTERS	8
#define GRAFT_DEV_PROBES	4

struct graft_dev_counter {
	char name[GRAFT_DEV_NAME_MAX];	/* "rx_packets" */
	uint64_t value;
};

struct graft_dev_probe {
	char name[GRAFT_DEV_PROBE_NAME_MAX];	/* "net.tx.glue" */
	uint64_t count;			/* samples taken since boot */
	uint64_t min, median, p99, max;	/* of the last samples, ticks */
};

struct graft_dev_info {
	uint32_t mode;			/* enum graft_dev_mode */
	uint32_t ncounters;		/* counters[] used */
	uint32_t nprobes;		/* probes[] used */
	uint32_t window;		/* samples a probe's statistics
					 * cover at most */
	char driver[GRAFT_DEV_NAME_MAX];	/* Linux's name: "e1000" */
	char host[GRAFT_DEV_HOST_MAX];	/* "kernel", or the server task */
	struct graft_dev_counter counters[GRAFT_DEV_COUNTERS];
	struct graft_dev_probe probes[GRAFT_DEV_PROBES];
};

#define GRAFT_DEV_INFO_COUNT	(sizeof(struct graft_dev_info) / sizeof(int))

#endif
