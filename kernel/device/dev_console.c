/* SPDX-License-Identifier: GPL-2.0-only */
/* The "console" device: writes to the console, reads of COM1 input. */
/*
 * Writes are synchronous (the console is polled).  A read takes what has
 * arrived (at least one byte, at most what was asked); with nothing
 * there it waits in the module's queue (D_IO_QUEUED) unless D_NOWAIT asks
 * for D_WOULD_BLOCK.  The receive interrupt moves bytes into a ring and
 * completes waiting reads through io_req_done(): the shared completion
 * path.  Closing (the last client gone) completes waiting reads with
 * D_DEVICE_DOWN; a waiting read whose reply port died is cancelled.  A
 * byte stream: record size 1, recnum ignored.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/dev_console.h"
#include "device/dev_module.h"
#include "device/device.h"
#include "device/io_req.h"
#include "kern/console.h"
#include "kern/intr.h"
#include "kern/kprintf.h"
#include "kern/string.h"
#include "x86_64/cpu.h"
#include "x86_64/serial.h"

#define RING_SIZE	1024

static char ring[RING_SIZE];
static size_t ring_head, ring_len;
static struct io_req_queue waiting;	/* reads with nothing to take */

/* Give @req what the ring holds (interrupts off). */
static void take(struct io_req *req)
{
	size_t n = req->count < ring_len ? req->count : ring_len;

	for (size_t i = 0; i < n; i++) {
		io_req_put(req, i, &ring[ring_head], 1);
		ring_head = (ring_head + 1) % RING_SIZE;
	}
	ring_len -= n;
	req->done = n;
}

/* @n bytes arrived on the line: keep them (up to the ring's size, the
 * rest is dropped) and complete waiting reads, oldest first.  Any
 * context. */
static void input(const char *bytes, size_t n)
{
	uint64_t flags = cpu_intr_save();
	struct io_req *req;

	for (size_t i = 0; i < n; i++) {
		if (ring_len == RING_SIZE)
			break;
		ring[(ring_head + ring_len) % RING_SIZE] = bytes[i];
		ring_len++;
	}
	while (ring_len > 0 && (req = io_req_queue_pop(&waiting)) != NULL) {
		take(req);
		io_req_done(req);
	}
	cpu_intr_restore(flags);
}

static void rx_interrupt(unsigned int line, void *arg)
{
	char buf[16];
	size_t n = 0;
	int c;

	(void)line;
	(void)arg;
	while (n < sizeof(buf) && (c = serial_getc_nowait()) >= 0)
		buf[n++] = (char)c;
	input(buf, n);
}

void dev_console_init(void)
{
	if (intr_register(SERIAL_IRQ, rx_interrupt, NULL) != KERN_SUCCESS) {
		kprintf("device: console input unavailable (IRQ %u taken)\n",
			SERIAL_IRQ);
		return;
	}
	serial_rx_interrupt(true);
	intr_unmask(SERIAL_IRQ);
}

static bool cons_match(const char *name)
{
	return strcmp(name, "console") == 0;
}

static io_return_t cons_open(struct device *dev, dev_mode_t mode)
{
	(void)mode;
	dev->record_size = 1;
	return D_SUCCESS;
}

static void cons_close(struct device *dev)
{
	struct io_req *req;

	(void)dev;
	while ((req = io_req_queue_pop(&waiting)) != NULL) {
		req->error = D_DEVICE_DOWN;
		io_req_done(req);
	}
}

static io_return_t cons_read(struct device *dev, struct io_req *req)
{
	(void)dev;
	if (req->count == 0 || ring_len > 0) {
		take(req);
		return D_SUCCESS;
	}
	if (req->mode & D_NOWAIT)
		return D_WOULD_BLOCK;
	io_req_queue_push(&waiting, req);
	return D_IO_QUEUED;
}

static bool cons_cancel(struct device *dev, struct io_req *req)
{
	(void)dev;
	return io_req_queue_remove(&waiting, req);
}

static io_return_t cons_write(struct device *dev, struct io_req *req)
{
	char buf[64];

	(void)dev;
	for (size_t off = 0; off < req->count; off += sizeof(buf)) {
		size_t n = req->count - off < sizeof(buf) ?
			   req->count - off : sizeof(buf);

		io_req_get(req, off, buf, n);
		console_write(buf, n);
	}
	req->done = req->count;
	return D_SUCCESS;
}

static const struct dev_ops cons_ops = {
	.open = cons_open,
	.close = cons_close,
	.read = cons_read,
	.write = cons_write,
	.cancel = cons_cancel,
	/* No status flavours and no packet filter: the dispatcher answers
	 * D_INVALID_OPERATION for the ops left out. */
};

const struct dev_module dev_console_module = {
	.name = "console",
	.match = cons_match,
	.ops = &cons_ops,
};
