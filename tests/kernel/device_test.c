/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "device", "device-async", "ramdisk": user tasks drive devices. */
/*
 * tests/user/device_probe.c and ramdisk_probe.c print one USER-PASS or
 * USER-FAIL line per check; these suites run them, add what only the
 * kernel sees (devices left open, requests in flight, memory, the
 * console output, the image's CRC against the harness's), and check the
 * error mapping table.
 */
#include <stdint.h>

#include <device/device_types.h>
#include <mach/kern_return.h>

#include "device/dev_error.h"
#include "device/dev_intr.h"
#include "device/device.h"
#include "device/io_req.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "kern/bootinfo.h"
#include "kern/bootstrap.h"
#include "kern/cmdline.h"
#include "kern/console.h"
#include "kern/intr.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/user_task.h"
#include "vm/vm_map.h"
#include "vm/vm_page.h"
#include "x86_64/copy.h"
#include "x86_64/cpu.h"
#include "x86_64/serial.h"

static char console[32768];

/* Every kernel-side count a finished device program must leave as it
 * found it: pages, heap, tasks, ports, messages, devices, requests. */
struct dev_baseline {
	struct user_task_baseline task;
	unsigned int ports, kmsgs;
};

static void dev_baseline(struct dev_baseline *b)
{
	user_task_baseline(&b->task);
	b->ports = ipc_port_count();
	b->kmsgs = ipc_kmsg_count();
}

static void expect_nothing_left(struct ktest *t, const struct dev_baseline *b)
{
	KTEST_EXPECT_EQ(t, dev_open_count(), 0);
	KTEST_EXPECT_EQ(t, io_req_in_flight(), 0);
	KTEST_EXPECT_EQ(t, ipc_port_count(), b->ports);
	KTEST_EXPECT_EQ(t, ipc_kmsg_count(), b->kmsgs);
	user_task_expect_baseline(t, &b->task);
}

/* Start the module with @word as a task; false (and @t failed) if it is
 * missing or does not start. */
static bool start_task(struct ktest *t, const char *word)
{
	const struct boot_module *m = user_task_module(word);

	if (m == NULL) {
		ktest_fail(t, "harness passed no module with %s", word);
		return false;
	}
	if (bootstrap_task_create(m, NULL) != KERN_SUCCESS) {
		ktest_fail(t, "module %s did not start", word);
		return false;
	}
	return true;
}

/* start_task, capturing the console from now on. */
static bool start_probe(struct ktest *t, const char *word)
{
	console_capture_start(console, sizeof(console));
	if (start_task(t, word))
		return true;
	console_capture_stop();
	return false;
}

static void device_program_passes_its_checks(struct ktest *t)
{
	struct dev_baseline b;

	dev_baseline(&b);
	if (!user_task_run(t, "mode=sync", 10, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 25);
	KTEST_EXPECT_TRUE(t, kmemmem(console, strlen(console),
		"device_probe: hello through device_write") != NULL);
	KTEST_EXPECT_TRUE(t, kmemmem(console, strlen(console),
		"device_probe: and through write_inband") != NULL);
	expect_nothing_left(t, &b);
}

static const struct {
	int err;
	io_return_t code;
} errno_cases[] = {
	{ 0, D_SUCCESS }, { -19, D_NO_SUCH_DEVICE }, { -6, D_NO_SUCH_DEVICE },
	{ -16, D_ALREADY_OPEN }, { -12, D_NO_MEMORY }, { -11, D_WOULD_BLOCK },
	{ -22, D_INVALID_SIZE }, { -28, D_INVALID_RECNUM },
	{ -30, D_READ_ONLY }, { -95, D_INVALID_OPERATION },
	{ -100, D_DEVICE_DOWN }, { -5, D_IO_ERROR }, { -9999, D_IO_ERROR },
	{ 5, D_IO_ERROR },
};

static const struct {
	kern_return_t kr;
	io_return_t code;
} kern_cases[] = {
	{ KERN_SUCCESS, D_SUCCESS },
	{ KERN_RESOURCE_SHORTAGE, D_NO_MEMORY },
	{ KERN_INVALID_ADDRESS, D_INVALID_SIZE },
	{ KERN_INVALID_ARGUMENT, D_INVALID_SIZE },
	{ KERN_PROTECTION_FAILURE, D_READ_ONLY },
	{ KERN_FAILURE, D_IO_ERROR },
};

static void internal_errors_map_to_d_codes(struct ktest *t)
{
	for (size_t i = 0; i < sizeof(errno_cases) / sizeof(errno_cases[0]);
	     i++) {
		io_return_t got = dev_error_from_errno(errno_cases[i].err);

		if (got != errno_cases[i].code)
			ktest_fail(t, "errno %d: expected D code %d, got %d",
				   errno_cases[i].err, errno_cases[i].code,
				   got);
	}
	for (size_t i = 0; i < sizeof(kern_cases) / sizeof(kern_cases[0]);
	     i++) {
		io_return_t got = dev_error_from_kern(kern_cases[i].kr);

		if (got != kern_cases[i].code)
			ktest_fail(t, "kern_return %d: expected D code %d, "
				   "got %d", kern_cases[i].kr,
				   kern_cases[i].code, got);
	}
}

/*
 * Two tasks open the console: one port for both.  The first lets go
 * after 100 ms, the second writes on at 600 ms: the device must stay
 * open in between, and close when the second goes.
 */
static void device_stays_open_until_its_last_client_goes(struct ktest *t)
{
	unsigned int before = task_terminations;
	struct dev_baseline b;

	dev_baseline(&b);
	if (!start_probe(t, "hold=100"))
		return;
	if (!start_task(t, "hold=600")) {
		console_capture_stop();
		return;
	}
	thread_sleep_ticks(35);
	KTEST_EXPECT_EQ(t, task_terminations, before + 1);
	KTEST_EXPECT_EQ(t, dev_open_count(), 1);
	if (!user_task_wait(before, 2, 10))
		ktest_fail(t, "the two tasks did not end");
	console_capture_stop();
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-FAIL"), 0);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-PASS"), 8);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-DONE 4"), 2);
	expect_nothing_left(t, &b);
}

/*
 * io_req_data: a write's bytes in place when the request holds them
 * contiguous (inband; a copy of bytes, as a kernel port receives a few
 * out-of-line ones), NULL when they are in pages or the request reads.
 */
static void io_req_data_gives_bytes_held_in_place(struct ktest *t)
{
	static const char frame[] = "sixty bytes or so, held as bytes";
	struct device dev = { .refs = 1, .record_size = 1 };
	struct vm_map_copy *copy = NULL;
	struct vm_map *m = vm_map_create();
	struct io_req *req;
	uint64_t a = 0;

	if (m == NULL) {
		ktest_fail(t, "vm_map_create failed");
		return;
	}
	vm_map_activate(m);
	if (vm_map_allocate(m, &a, VM_PAGE_SIZE, true) != KERN_SUCCESS ||
	    copyout(frame, (void *)(a + 8), sizeof(frame)) != 0 ||
	    vm_map_copyin_bytes(m, a + 8, sizeof(frame), &copy) !=
		    KERN_SUCCESS) {
		ktest_fail(t, "the source could not be made");
		goto out;
	}
	KTEST_EXPECT_EQ(t, io_req_alloc(&dev, IO_WRITE, sizeof(frame), &req),
			D_SUCCESS);
	req->copy = copy;
	if (io_req_data(req) == NULL)
		ktest_fail(t, "a write of bytes gives no bytes in place");
	else
		KTEST_EXPECT_MEMEQ(t, io_req_data(req), frame, sizeof(frame));
	KTEST_EXPECT_EQ(t, vm_map_copy_pages(copy), KERN_SUCCESS);
	KTEST_EXPECT_TRUE(t, io_req_data(req) == NULL);	/* in pages */
	io_req_free(req);				/* the copy too */
	KTEST_EXPECT_EQ(t, io_req_alloc(&dev, IO_WRITE_INBAND, 5, &req),
			D_SUCCESS);
	memcpy(req->inband, "abcde", 5);
	KTEST_EXPECT_TRUE(t, io_req_data(req) == req->inband);
	io_req_free(req);
	KTEST_EXPECT_EQ(t, io_req_alloc(&dev, IO_READ_INBAND, 5, &req),
			D_SUCCESS);
	KTEST_EXPECT_TRUE(t, io_req_data(req) == NULL);	/* a read */
	io_req_free(req);
	KTEST_EXPECT_EQ(t, dev.refs, 1);
out:
	vm_map_activate(NULL);
	vm_map_destroy(m);
}

static const struct ktest_case device_cases[] = {
	{ "io_req_data_gives_bytes_held_in_place",
	  io_req_data_gives_bytes_held_in_place },
	{ "device_program_passes_its_checks",
	  device_program_passes_its_checks },
	{ "device_stays_open_until_its_last_client_goes",
	  device_stays_open_until_its_last_client_goes },
	{ "internal_errors_map_to_d_codes", internal_errors_map_to_d_codes },
};
KTEST_SUITE(device_suite, "device", device_cases);

/* @n bytes arrive on COM1 as from the line: sent through the UART in
 * loopback, they raise its receive interrupt once interrupts are on. */
static void uart_input(const char *bytes, size_t n)
{
	uint64_t flags = cpu_intr_save();

	serial_loopback(true);
	for (size_t i = 0; i < n; i++)
		serial_putc(bytes[i]);
	serial_loopback(false);
	cpu_intr_restore(flags);
}

/*
 * The program queues two console reads (the first to a reply port it
 * then destroys, which cancels that read at once) and waits; once the
 * second is the only one in flight, input arrives through the UART's
 * receive interrupt.  It then queues two more and ends: the
 * console closes with them pending, they complete with D_DEVICE_DOWN and
 * their replies die with the dead ports.
 */
static void queued_reads_complete_and_dead_clients_leak_nothing(
	struct ktest *t)
{
	unsigned int before = task_terminations;
	uint64_t rx = intr_count(SERIAL_IRQ);
	struct dev_baseline b;
	bool fed = false;

	dev_baseline(&b);
	if (!start_probe(t, "mode=async"))
		return;
	for (int tick = 0; tick < 1000 && task_terminations == before;
	     tick++) {
		if (!fed && io_req_in_flight() == 1) {
			uart_input("abcd", 4);
			fed = true;
		}
		thread_sleep_ticks(1);
	}
	console_capture_stop();
	KTEST_EXPECT_TRUE(t, fed);
	KTEST_EXPECT_GE(t, intr_count(SERIAL_IRQ), rx + 1);
	if (!user_task_wait(before, 1, 5)) {
		ktest_fail(t, "device_probe did not end");
		return;
	}
	thread_sleep_ticks(5);	/* the reply thread drops the replies */
	user_task_expect_checks(t, console, 10);
	expect_nothing_left(t, &b);
}

/* The MC146818 RTC's periodic interrupt (IRQ 8) as a line the test
 * raises: register A's rate 6 is 1024 Hz, register B's bit 6 enables it,
 * reading register C ends the interrupt (the device's own ack, which a
 * user driver would do through its I/O ports). */
#define RTC_INDEX	0x70
#define RTC_DATA	0x71
#define RTC_IRQ		8
#define KERNEL_HELD_IRQ	10	/* no device on it in QEMU -M pc */

static uint8_t rtc_read(uint8_t reg)
{
	outb(RTC_INDEX, 0x80 | reg);	/* 0x80: NMI stays off */
	return inb(RTC_DATA);
}

static void rtc_write(uint8_t reg, uint8_t v)
{
	outb(RTC_INDEX, 0x80 | reg);
	outb(RTC_DATA, v);
}

static void rtc_periodic(bool on)
{
	uint64_t flags = cpu_intr_save();
	uint8_t b = rtc_read(0xb);

	rtc_write(0xa, (rtc_read(0xa) & 0xf0) | 6);
	rtc_write(0xb, on ? b | 0x40 : b & ~0x40);
	(void)rtc_read(0xc);
	cpu_intr_restore(flags);
}

/* Sleep a tick at a time until intr_count(RTC_IRQ) reaches @n (at most
 * @ticks); whether it did. */
static bool wait_rtc_count(uint64_t n, unsigned int ticks)
{
	while (intr_count(RTC_IRQ) < n && ticks-- > 0)
		thread_sleep_ticks(1);
	return intr_count(RTC_IRQ) >= n;
}

static void ignore(unsigned int line, void *arg)
{
	(void)line;
	(void)arg;
}

/* Quiet the RTC and let an edge the PIC latched before (the firmware's)
 * go, so that the driver sees only the interrupts this test raises. */
static void rtc_quiet(void)
{
	rtc_periodic(false);
	intr_register(RTC_IRQ, ignore, NULL);
	intr_unmask(RTC_IRQ);
	thread_sleep_ticks(1);
	intr_mask(RTC_IRQ);
	intr_unregister(RTC_IRQ, ignore, NULL);
}

static void interrupt_stays_masked_until_acknowledged(struct ktest *t)
{
	unsigned int before = task_terminations;
	struct dev_baseline b;
	uint64_t c0;

	rtc_quiet();
	c0 = intr_count(RTC_IRQ);
	dev_baseline(&b);
	/* a kernel handler holds line 10 (as the Linux world holds its
	 * lines): the probe's register of it is refused */
	intr_register(KERNEL_HELD_IRQ, ignore, NULL);
	if (!start_probe(t, "mode=intr")) {
		intr_unregister(KERNEL_HELD_IRQ, ignore, NULL);
		return;
	}
	for (int i = 0; i < 500 && !dev_intr_registered(RTC_IRQ); i++)
		thread_sleep_ticks(1);
	KTEST_EXPECT_TRUE(t, dev_intr_registered(RTC_IRQ));
	rtc_periodic(true);
	KTEST_EXPECT_TRUE(t, wait_rtc_count(c0 + 1, 100));
	KTEST_EXPECT_TRUE(t, intr_is_masked(RTC_IRQ));
	/* The device interrupts again while its driver has not acked. */
	(void)rtc_read(0xc);
	thread_sleep_ticks(3);
	KTEST_EXPECT_EQ(t, intr_count(RTC_IRQ), c0 + 1);
	KTEST_EXPECT_TRUE(t, intr_is_masked(RTC_IRQ));
	/* device_intr_ack unmasks it and the held interrupt comes in. */
	KTEST_EXPECT_TRUE(t, wait_rtc_count(c0 + 2, 300));
	rtc_periodic(false);
	if (!user_task_wait(before, 1, 10)) {
		console_capture_stop();
		intr_unregister(KERNEL_HELD_IRQ, ignore, NULL);
		ktest_fail(t, "device_probe did not end");
		return;
	}
	console_capture_stop();
	intr_unregister(KERNEL_HELD_IRQ, ignore, NULL);
	user_task_expect_checks(t, console, 15);
	/* The driver's port died with its task: the registration went at
	 * once, no interrupt needed, and left the line masked. */
	KTEST_EXPECT_FALSE(t, dev_intr_registered(RTC_IRQ));
	KTEST_EXPECT_TRUE(t, intr_is_masked(RTC_IRQ));
	expect_nothing_left(t, &b);
}

static const struct ktest_case device_async_cases[] = {
	{ "queued_reads_complete_and_dead_clients_leak_nothing",
	  queued_reads_complete_and_dead_clients_leak_nothing },
	{ "interrupt_stays_masked_until_acknowledged",
	  interrupt_stays_masked_until_acknowledged },
};
KTEST_SUITE(device_async_suite, "device-async", device_async_cases);

/* The "RD0-CRC 0x..." line the program printed, or false. */
static bool printed_crc(const char *text, uint32_t *crc)
{
	const char *p = kmemmem(text, strlen(text), "RD0-CRC 0x");
	uint32_t v = 0;
	int digits = 0;

	if (p == NULL)
		return false;
	for (p += 10; digits < 8; p++, digits++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;

		if (d < 0)
			return false;
		v = v << 4 | (uint32_t)d;
	}
	*crc = v;
	return true;
}

static void ramdisk_program_reads_the_harness_image(struct ktest *t)
{
	struct dev_baseline b;
	char want[16];
	uint32_t crc = 0;

	if (!cmdline_copy(bootinfo.cmdline, "rd0_crc", want, sizeof(want))) {
		ktest_fail(t, "command line needs rd0_crc=0x........");
		return;
	}
	dev_baseline(&b);
	if (!user_task_run(t, "ramdisk_probe", 60, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 64);
	if (!printed_crc(console, &crc)) {
		ktest_fail(t, "ramdisk_probe printed no RD0-CRC line");
	} else {
		char got[16];

		ksnprintf(got, sizeof(got), "0x%08x", crc);
		if (strcmp(got, want) != 0)
			ktest_fail(t, "image CRC: expected %s (harness), "
				   "got %s (read by the guest)", want, got);
	}
	expect_nothing_left(t, &b);
}

static const struct ktest_case ramdisk_cases[] = {
	{ "ramdisk_program_reads_the_harness_image",
	  ramdisk_program_reads_the_harness_image },
};
KTEST_SUITE(ramdisk_suite, "ramdisk", ramdisk_cases);
