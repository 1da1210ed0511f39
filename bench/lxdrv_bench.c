/* SPDX-License-Identifier: GPL-2.0-only */
/* The driver server's bench build: records the server.*.glue samples at lxdrv's hook and linux-emu's probes, prints them as BENCH lines. */
/*
 * Linked with lxdrv's objects and linux.o into bench/lxdrv_bench.elf
 * (bench/local.mk), whose link wraps main: __wrap_main sets the hook
 * (servers/lxdrv/lxdrv_probe.h) and runs lxdrv's main.  At the ready
 * point it installs linux-emu's probes and starts the thread that prints.
 * The module line says what the client will do: bench_frames=N (N frames
 * of each of 60, 256 and 1500 bytes, echoed) or bench_requests=N (N
 * reads and N writes of each disk size), and bench_mode=.  Once every
 * series has its N samples the thread prints them (bench/README.md says
 * what each covers).  The server's threads share one Mach thread and
 * switch only at their waits: the records need no lock.
 *
 * server.irq.latency: at the ready point the recorder takes a page of
 * DMA memory of the server's first claim and prints its physical
 * address; the kernel's bench suite writes the time stamp of each
 * interrupt it takes on a registered line into that page, at the line's
 * slot (dev_intr_probe_set), and the recorder reads the slot when the
 * line's Linux handler is called.  The line stays masked from the
 * interrupt to the acknowledgement after the handler, so a slot holds
 * that interrupt's stamp.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graft_user.h>
#include <graft/claim.h>
#include <device/device_types.h>

#include <lx_emul.h>
#include <lx_emul_disk.h>
#include <lx_host.h>

#include "lxdrv_glue.h"
#include "lxdrv_probe.h"
#include "tests/user/user_bench.h"

#define NET_SIZES	3
#define DISK_SIZES	5
#define IRQ_SAMPLES	4096		/* interrupt latencies kept */
#define IRQ_LINES	16

enum { NET_TX, NET_RX, NET_TXDONE, NET_KINDS };
enum { DISK_CMD, DISK_INT, DISK_KINDS };

static const unsigned int net_sizes[NET_SIZES] = { 60, 256, 1500 };
static const unsigned int disk_sizes[DISK_SIZES] = {
	512, 4096, 8192, 16384, 65536
};
static const char *const net_kinds[NET_KINDS] = { "tx", "rx", "txdone" };
static const char *const disk_kinds[DISK_KINDS] = { "cmd", "int" };

struct series {
	uint64_t *v;
	unsigned int n;
};

static struct series net[NET_KINDS][NET_SIZES];
static struct series irq;		/* up to IRQ_SAMPLES, not awaited */
static volatile uint64_t *irq_stamps;	/* the kernel's, by line */
static struct series disk[DISK_KINDS][2][DISK_SIZES];	/* [kind][write] */
static unsigned int expect;		/* samples a series wants */
static unsigned int missing;		/* samples still wanted, all series */
static const char *mode = "icount";
static const char *irq_name = "server.irq.latency";	/* e1000's */
static char done_event;

/* The open samples: start times, 0 when none is open. */
static uint64_t t_op, t_rx, t_txdone, t_scsi, t_copy;
static uint64_t copies;			/* ticks to leave out of the sample */
static size_t op_len;
static bool op_write;

static void add(struct series *s, uint64_t ticks)
{
	if (s->n >= expect)
		return;
	s->v[s->n++] = ticks;
	if (--missing == 0)
		lx_host_wakeup(&done_event);
}

static int size_index(const unsigned int *sizes, int n, size_t len)
{
	for (int i = 0; i < n; i++)
		if (sizes[i] == len)
			return i;
	return -1;
}

static void net_add(int kind, size_t len, uint64_t ticks)
{
	int i = size_index(net_sizes, NET_SIZES, len);

	if (i >= 0 && net[kind][i].v)
		add(&net[kind][i], ticks);
}

static void disk_add(int kind, uint64_t ticks)
{
	int i = size_index(disk_sizes, DISK_SIZES, op_len);

	if (i >= 0 && disk[kind][op_write][i].v)
		add(&disk[kind][op_write][i], ticks);
}

/* linux-emu's net probe points. */
static void net_probe(int point)
{
	uint64_t now = tsc();

	switch (point) {
	case LX_EMUL_NET_PROBE_TX_COPY:
		t_copy = now;
		break;
	case LX_EMUL_NET_PROBE_TX_COPIED:
		copies += now - t_copy;
		break;
	case LX_EMUL_NET_PROBE_TX_DRIVER:
		if (t_op != 0)
			net_add(NET_TX, op_len, now - t_op - copies);
		t_op = 0;
		break;
	case LX_EMUL_NET_PROBE_RX_HANDOVER:
		t_rx = now;
		break;
	case LX_EMUL_NET_PROBE_TX_DONE:
		t_txdone = now;
		break;
	}
}

/* linux-emu's disk probe points. */
static void disk_probe(int point)
{
	uint64_t now = tsc();

	if (point == LX_EMUL_DISK_PROBE_QUEUECOMMAND) {
		if (t_op != 0)
			disk_add(DISK_CMD, now - t_op - copies);
		t_op = 0;
	} else if (point == LX_EMUL_DISK_PROBE_SCSI_DONE) {
		t_scsi = now;
		copies = 0;
	}
}

/* Line @line's Linux handler is called now: the latency of the
 * interrupt the kernel stamped (a slot is 0 before the kernel's suite
 * writes it). */
static void irq_handler_called(unsigned int line, uint64_t now)
{
	uint64_t taken;

	if (!irq_stamps || line >= IRQ_LINES)
		return;
	taken = irq_stamps[line];
	irq_stamps[line] = 0;
	if (taken != 0 && taken < now && irq.n < IRQ_SAMPLES)
		irq.v[irq.n++] = now - taken;
}

/* The stamps' page, its physical address printed for the kernel's
 * suite. */
static void irq_stamps_alloc(void)
{
	mach_port_t claim = lxdrv_pci_first_claim();
	vm_address_t va;
	rpc_phys_addr_t pa;

	if (claim == MACH_PORT_NULL)
		claim = lxdrv_isa_first_claim();
	irq.v = calloc(IRQ_SAMPLES, sizeof(*irq.v));
	if (claim == MACH_PORT_NULL || !irq.v ||
	    claim_dma_alloc(claim, IRQ_LINES * sizeof(uint64_t), 0, &va,
			    &pa) != D_SUCCESS) {
		printf("lxdrv-bench: no page for interrupt stamps\n");
		return;
	}
	irq_stamps = (volatile uint64_t *)va;
	printf("lxdrv-bench: interrupt stamps at %#llx\n",
	       (unsigned long long)pa);
}

static void print_all(void *arg)
{
	char name[48];

	(void)arg;
	lx_host_irq_disable();
	while (missing != 0) {
		lx_host_wait_prepare(&done_event);
		lx_host_irq_enable();
		(void)lx_host_wait(0);
		lx_host_irq_disable();
	}
	lx_host_irq_enable();
	for (int k = 0; k < NET_KINDS; k++)
		for (int i = 0; i < NET_SIZES; i++) {
			if (!net[k][i].v)
				continue;
			snprintf(name, sizeof(name), "server.net.%s.glue/%u",
				 net_kinds[k], net_sizes[i]);
			bench_print(name, mode, net[k][i].v, net[k][i].n);
		}
	for (int w = 0; w < 2; w++)
		for (int k = 0; k < DISK_KINDS; k++)
			for (int i = 0; i < DISK_SIZES; i++) {
				struct series *s = &disk[k][w][i];

				if (!s->v)
					continue;
				snprintf(name, sizeof(name),
					 "server.disk.%s.glue/%s%u",
					 disk_kinds[k], w ? "write/" : "",
					 disk_sizes[i]);
				bench_print(name, mode, s->v, s->n);
			}
	irq_stamps = NULL;		/* recording ends */
	if (irq.n != 0)
		bench_print(irq_name, mode, irq.v, irq.n);
	else
		printf("lxdrv-bench: no interrupt stamped\n");
	fflush(stdout);
}

/* lxdrv's hook. */
static void probe(int point, size_t len)
{
	uint64_t now = tsc();

	switch (point) {
	case LXDRV_PROBE_READY:
		irq_stamps_alloc();
		lx_emul_net_probe_set(net_probe);
		lx_emul_disk_probe_set(disk_probe);
		if (lx_host_thread_create("lxdrv-bench", print_all, NULL) != 0)
			printf("lxdrv-bench: no thread to print\n");
		break;
	case LXDRV_PROBE_WRITE:
	case LXDRV_PROBE_READ:
		t_op = now;
		op_len = len;
		op_write = point == LXDRV_PROBE_WRITE;
		copies = 0;
		t_scsi = 0;
		break;
	case LXDRV_PROBE_COPY:
		t_copy = now;
		break;
	case LXDRV_PROBE_COPIED:
		copies += now - t_copy;
		break;
	case LXDRV_PROBE_RX_SENT:
		if (t_rx != 0)
			net_add(NET_RX, len, now - t_rx);
		t_rx = 0;
		break;
	case LXDRV_PROBE_REPLIED:
		if (t_scsi != 0)
			disk_add(DISK_INT, now - t_scsi - copies);
		t_scsi = 0;
		break;
	case LXDRV_PROBE_TX_DONE:
		if (t_txdone != 0)
			net_add(NET_TXDONE, len, now - t_txdone);
		t_txdone = 0;
		break;
	case LXDRV_PROBE_IRQ:
		irq_handler_called((unsigned int)len, now);
		break;
	}
}

/* Samples of @n series of @expect each, or the server ends. */
static void series_alloc(struct series *s, int n)
{
	for (int i = 0; i < n; i++) {
		s[i].v = calloc(expect, sizeof(*s[i].v));
		if (!s[i].v) {
			printf("lxdrv-bench: no memory for the samples\n");
			exit(1);
		}
		missing += expect;
	}
}

int __real_main(int argc, char **argv);
int __wrap_main(int argc, char **argv);

int __wrap_main(int argc, char **argv)
{
	const char *frames = graft_arg(argc, argv, "bench_frames", NULL);
	const char *requests = graft_arg(argc, argv, "bench_requests", NULL);

	mode = graft_arg(argc, argv, "bench_mode", "icount");
	if (frames) {
		expect = (unsigned int)strtoul(frames, NULL, 0);
		series_alloc(&net[0][0], NET_KINDS * NET_SIZES);
	} else if (requests) {
		expect = (unsigned int)strtoul(requests, NULL, 0);
		series_alloc(&disk[0][0][0], DISK_KINDS * 2 * DISK_SIZES);
		irq_name = "server.irq.latency/ata_piix";
	}
	if (expect != 0)
		lxdrv_probe_fn = probe;
	else
		printf("lxdrv-bench: no bench_frames= nor bench_requests=: "
		       "nothing recorded\n");
	return __real_main(argc, argv);
}
