/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "linux-pci": PCI enumeration, a Linux PCI driver's probe and remove on QEMU's e1000, port and MMIO access, the DMA API with bouncing. */
/*
 * The checks run in the Linux world (tests/linux-emu/lx_selftest_pci.c)
 * and return the line of the first failed one; this side checks what
 * they print and that every page, heap byte and MMIO window page came
 * back.  QEMU gives the suite an e1000 (00:03.0, MAC 52:54:00:12:34:56),
 * an ne2k_pci (00:04.0), a pci-testdev behind a pci-bridge (00:05.0)
 * and an e1000e (00:06.0, a PCI Express endpoint) that nothing binds;
 * see tests/harness/suites.py.
 */
#include <stdint.h>

#include "kern/console.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "linux-emu/include/lx_emul.h"
#include "linux-emu/include/lx_host.h"
#include "tests/kernel/user_task.h"
#include "tests/linux-emu/lx_selftest_pci.h"
#include "tests/linux-emu/lx_selftest_platform.h"
#include "x86_64/pmap_io.h"

static char captured[4096];

/* First: the later cases need the Linux world and the devices. */
static void pci_enumeration_runs_once(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_init(), 0);
	console_capture_start(captured, sizeof(captured) - 1);
	KTEST_EXPECT_EQ(t, lx_emul_pci_init(), 0);
	captured[console_capture_stop()] = '\0';
	KTEST_EXPECT_EQ(t, lx_emul_pci_init(), -16);	/* -EBUSY */
	if (!kmemmem(captured, strlen(captured),
		     "lx_pci: 0000:00:03.0 [8086:100e] class 020000 irq "))
		ktest_fail(t, "no enumeration line for the e1000 in \"%s\"",
			   captured);
}

static void bus_0_has_the_e1000_and_the_ne2k_with_their_bars(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_pci_enumeration(), 0);
}

static void buses_behind_bridges_are_scanned(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_pci_bridge(), 0);
}

static void config_space_reads_writes_and_refuses_bad_offsets(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_pci_config_access(), 0);
}

static void e1000_driver_probes_once_maps_bar0_and_removes(struct ktest *t)
{
	static const char conflict[] = "lx_pci_test 0000:00:03.0: BAR 0: "
				       "can't reserve [mem 0x";
	struct user_task_baseline b;
	uint64_t mapped = pmap_io_mapped_pages();
	size_t n;

	user_task_baseline(&b);
	console_capture_start(captured, sizeof(captured) - 1);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_pci_driver_e1000(), 0);
	n = console_capture_stop();
	captured[n] = '\0';
	if (!kmemmem(captured, n, conflict))
		ktest_fail(t, "expected \"%s\" in \"%s\"", conflict, captured);
	KTEST_EXPECT_EQ(t, pmap_io_mapped_pages(), mapped);
	user_task_expect_baseline(t, &b);
}

/* Run @check (0: passed), then expect every page and heap byte back. */
static void expect_clean(struct ktest *t, int (*check)(void),
			 const char *name)
{
	struct user_task_baseline b;
	int line;

	user_task_baseline(&b);
	line = check();
	if (line)
		ktest_fail(t, "%s: expected 0, failed at line %d", name, line);
	user_task_expect_baseline(t, &b);
}

static void ne2k_prom_and_memory_cross_port_io_of_lib_iomap(struct ktest *t)
{
	expect_clean(t, lx_emul_selftest_pci_ne2k_ports,
		     "lx_emul_selftest_pci_ne2k_ports");
}

static void mmio_window_maps_devices_and_refuses_the_rest(struct ktest *t)
{
	const unsigned long bar0 = lx_emul_selftest_pci_e1000_bar0();
	void *va[65], *a, *b;
	uint64_t mapped = pmap_io_mapped_pages();
	size_t n;
	int i;

	console_capture_start(captured, sizeof(captured) - 1);
	KTEST_EXPECT_TRUE(t, lx_host_ioremap(0x100000, 4096) == NULL);
	KTEST_EXPECT_TRUE(t, lx_host_ioremap(bar0, 0) == NULL);
	KTEST_EXPECT_TRUE(t, lx_host_ioremap(~0ul - 10, 100) == NULL);
	n = console_capture_stop();
	captured[n] = '\0';
	if (!kmemmem(captured, n, "lx_host_ioremap: 0x100000+0x1000 is RAM, "
			"not a device\n"))
		ktest_fail(t, "no refusal of RAM on the console: \"%s\"",
			   captured);
	KTEST_EXPECT_EQ(t, pmap_io_map(bar0, 0, &a),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, pmap_io_map(1ull << 52, 4096, &a),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, pmap_io_map(bar0, PMAP_IO_SIZE + 4096, &a),
			KERN_NO_SPACE);
	KTEST_EXPECT_EQ(t, pmap_io_unmap((void *)0x1234), KERN_INVALID_ADDRESS);

	/* Two mappings of one register page: distinct, the same register. */
	a = lx_host_ioremap(bar0 + 8, 4);
	b = lx_host_ioremap(bar0, 0x20000);
	KTEST_EXPECT_TRUE(t, a != NULL && b != NULL && a != b);
	if (a && b) {
		KTEST_EXPECT_EQ(t, ((uintptr_t)a & 0xfff), 8);
		/* STATUS: full duplex, 1000 Mb/s, link up (not all ones). */
		KTEST_EXPECT_EQ(t, *(volatile uint32_t *)a & 0xc3, 0x83);
		KTEST_EXPECT_EQ(t, *(volatile uint32_t *)a,
				*(volatile uint32_t *)((char *)b + 8));
		KTEST_EXPECT_EQ(t, pmap_io_mapped_pages(), mapped + 1 + 32);
		lx_host_iounmap(a);
		lx_host_iounmap(b);
	}
	/* The table of mappings fills up and empties. */
	for (i = 0; i < 65; i++)
		if (pmap_io_map(bar0, 4096, &va[i]) != KERN_SUCCESS)
			break;
	KTEST_EXPECT_EQ(t, i, 64);
	while (--i >= 0)
		KTEST_EXPECT_EQ(t, pmap_io_unmap(va[i]), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, pmap_io_mapped_pages(), mapped);
}

static void pcie_link_bandwidth_read_from_capability_and_status(
	struct ktest *t)
{
	static const char line[] = "0000:00:06.0: 2.000 Gb/s available "
				   "PCIe bandwidth (2.5 GT/s PCIe x1 link)";
	size_t n;

	console_capture_start(captured, sizeof(captured) - 1);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_pcie_link(), 0);
	n = console_capture_stop();
	captured[n] = '\0';
	if (!kmemmem(captured, n, line))
		ktest_fail(t, "expected \"%s\" in \"%s\"", line, captured);
}

static void id_tables_match_by_id_subsystem_and_class(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_pci_id_matching(), 0);
}

static void power_and_wake_answer_as_linux_without_pm(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_pci_power(), 0);
}

static void dma_coherent_memory_lies_inside_the_mask(struct ktest *t)
{
	expect_clean(t, lx_emul_selftest_dma_coherent,
		     "lx_emul_selftest_dma_coherent");
}

static void dma_streaming_bounces_only_beyond_the_mask(struct ktest *t)
{
	unsigned long before = lx_emul_dma_bounce_count();

	expect_clean(t, lx_emul_selftest_dma_streaming,
		     "lx_emul_selftest_dma_streaming");
	KTEST_EXPECT_EQ(t, lx_emul_dma_bounce_count(), before + 2);
}

static void platform_devices_bind_by_name_and_unregister(struct ktest *t)
{
	expect_clean(t, lx_emul_selftest_platform_bus,
		     "lx_emul_selftest_platform_bus");
}

static const struct ktest_case linux_pci_cases[] = {
	{ "pci_enumeration_runs_once", pci_enumeration_runs_once },
	{ "bus_0_has_the_e1000_and_the_ne2k_with_their_bars",
	  bus_0_has_the_e1000_and_the_ne2k_with_their_bars },
	{ "buses_behind_bridges_are_scanned",
	  buses_behind_bridges_are_scanned },
	{ "config_space_reads_writes_and_refuses_bad_offsets",
	  config_space_reads_writes_and_refuses_bad_offsets },
	{ "pcie_link_bandwidth_read_from_capability_and_status",
	  pcie_link_bandwidth_read_from_capability_and_status },
	{ "e1000_driver_probes_once_maps_bar0_and_removes",
	  e1000_driver_probes_once_maps_bar0_and_removes },
	{ "ne2k_prom_and_memory_cross_port_io_of_lib_iomap",
	  ne2k_prom_and_memory_cross_port_io_of_lib_iomap },
	{ "mmio_window_maps_devices_and_refuses_the_rest",
	  mmio_window_maps_devices_and_refuses_the_rest },
	{ "id_tables_match_by_id_subsystem_and_class",
	  id_tables_match_by_id_subsystem_and_class },
	{ "power_and_wake_answer_as_linux_without_pm",
	  power_and_wake_answer_as_linux_without_pm },
	{ "dma_coherent_memory_lies_inside_the_mask",
	  dma_coherent_memory_lies_inside_the_mask },
	{ "dma_streaming_bounces_only_beyond_the_mask",
	  dma_streaming_bounces_only_beyond_the_mask },
	{ "platform_devices_bind_by_name_and_unregister",
	  platform_devices_bind_by_name_and_unregister },
};
KTEST_SUITE(linux_pci_suite, "linux-pci", linux_pci_cases);
