/* SPDX-License-Identifier: GPL-2.0-only */
/* A user driver's view of claim.defs: claim a PCI function and reach only it. */
/*
 * "claim_probe mode=M device=${device-port}" (suite "driver-claim": a boot
 * with "linux", e1000 at 00:03.0 bound by the kernel's Linux world, an
 * RTL8139 at 00:05.0 that no linked driver binds, MAC 52:54:00:00:00:77).
 *   refuse   the claims that must fail, each with its code
 *   access   claim the RTL8139: identity, BARs, configuration space and
 *            its refusals, its I/O BAR granted (the MAC read through it),
 *            its interrupt line; then exits holding all of it (with bus
 *            mastering switched on) for the kernel suite to see it undone
 *   outside  with the grant, a port outside the BAR faults (#GP)
 *   release  after the claim's last right goes, the BAR's ports fault
 *   map      an e1000e at 00:06.0 (MAC 52:54:00:00:00:88): its register
 *            BAR mapped, the MAC read from its receive address registers,
 *            the refusals; after the claim's release the mapping faults
 *   isa      ISA claims (the kernel's Linux world holds ne_io=0x300): the
 *            refused ranges, each with its code; a free range, its ports
 *            granted, its lines (more than a task may register on the
 *            irq device) and their refusals; then exits holding them
 *   driver   given the driver master port (device=${driver-port}): it
 *            opens no device and makes no I/O permission; it claims a PCI
 *            function and an ISA range, whose fixed ports and ISA lines
 *            are refused (they decode none); it names its direct map
 *            (claim_direct_map: the refusals, once per task) and its DMA
 *            memory lies there
 *   hold     (slot=N) claim function 0 of slot N, set its command
 *            register's INTx-disable bit and exit holding the claim
 *            (suite claim-reset: the claim's end resets the function)
 * Checks print "USER-PASS name" or "USER-FAIL ...", then "USER-DONE n";
 * "USER-IO about to fault" precedes an access that must fault.
 */
#include <device/device.h>
#include <mach/message.h>
#include <mach/thread_switch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft/claim.h"
#include "graft_user.h"
#include "mach_i386.h"
#include "user_device.h"
#include "user_io.h"

#define RTL_SLOT	5
#define RTL_ID		(0x10ec | 0x8139 << 16)
#define E1000_SLOT	3
#define E1000E_SLOT	6
#define E1000_RAL0	0x5400		/* receive address 0, low and high */
#define E1000_RAH0	0x5404
#define E1000_RAH_AV	(1u << 31)	/* address valid */
#define CMD_MASTER	0x4
static const uint8_t rtl_mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x77 };
static const uint8_t e1000e_mac[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x88 };

/* claim_pci of function 0 of @slot, waiting out the reset of a function
 * the task before let go (D_WOULD_BLOCK, claim.defs): 20 ms at a time,
 * 2 s at most. */
static kern_return_t claim_free(mach_port_t master, int slot,
				mach_port_t *claim)
{
	kern_return_t kr;

	for (int tries = 0;
	     (kr = claim_pci(master, 0, slot, 0, claim)) == D_WOULD_BLOCK &&
	     tries < 100; tries++)
		(void)thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 20);
	return kr;
}

static mach_port_t claim_rtl(mach_port_t master)
{
	mach_port_t claim = MACH_PORT_NULL;

	check("claim_rtl8139", D_SUCCESS, claim_free(master, RTL_SLOT, &claim));
	return claim;
}

/* BAR 0 of the RTL8139 (its I/O ports), or 0. */
static uint16_t io_base(mach_port_t claim)
{
	rpc_phys_addr_t base = 0, size = 0;
	boolean_t io = FALSE;

	if (claim_pci_bar(claim, 0, &base, &size, &io) != D_SUCCESS || !io)
		return 0;
	return (uint16_t)base;
}

/* The MAC through the granted ports equals QEMU's. */
static void read_mac(mach_port_t claim, const char *name)
{
	uint16_t base = io_base(claim);
	uint8_t mac[6];

	for (int i = 0; i < 6; i++)
		mac[i] = inb(base + i);
	check(name, 0, memcmp(mac, rtl_mac, sizeof(mac)));
}

/* The checks so far are all: the access that must fault ends the task. */
static void done_then_fault(uint16_t port)
{
	printf("USER-DONE %d\n", checks);
	printf("USER-IO about to fault\n");
	fflush(stdout);
	(void)inb(port);
	printf("USER-FAIL port_access_did_not_fault\n");
}

static void refuse(mach_port_t master)
{
	mach_port_t claim = MACH_PORT_NULL, con = MACH_PORT_NULL;

	check("kernel_drivers_function_refused", D_ALREADY_OPEN,
	      claim_pci(master, 0, E1000_SLOT, 0, &claim));
	check("host_bridge_refused", D_ALREADY_OPEN,
	      claim_pci(master, 0, 0, 0, &claim));
	check("empty_slot_is_no_device", D_NO_SUCH_DEVICE,
	      claim_pci(master, 0, 31, 7, &claim));
	check("slot_out_of_range", D_INVALID_OPERATION,
	      claim_pci(master, 0, 32, 0, &claim));
	check("function_out_of_range", D_INVALID_OPERATION,
	      claim_pci(master, 0, RTL_SLOT, 8, &claim));
	check("bus_out_of_range", D_INVALID_OPERATION,
	      claim_pci(master, 256, RTL_SLOT, 0, &claim));
	check("negative_slot", D_INVALID_OPERATION,
	      claim_pci(master, 0, -1, 0, &claim));
	check("open_console", D_SUCCESS,
	      device_open(master, D_WRITE, "console", &con));
	check("claim_through_a_device_port_refused", D_INVALID_OPERATION,
	      claim_pci(con, 0, RTL_SLOT, 0, &claim));
	check("claim_through_the_task_port_refused", MIG_BAD_ID,
	      claim_pci(mach_task_self(), 0, RTL_SLOT, 0, &claim));
	check("calls_on_a_non_claim_port_refused", D_NO_SUCH_DEVICE,
	      claim_io_grant(con, 0));
}

#define KERNEL_ISA_IO	0x300		/* the kernel's ne_io= */
#define ISA_IO		0x280		/* nobody's */
#define ISA_PORTS	0x20
#define ISA_CLAIMS_MAX	8		/* alive at once, the kernel's too */
#define IDE_LINE	14		/* the kernel's ata_piix handles it */
/* free lines (QEMU's PCI lines are 10 and 11; 6 is the floppy
 * controller's, which the kernel's Linux floppy driver holds): more than
 * the 4 a task may register on the irq device */
static const int free_lines[] = { 3, 5, 7, 12, 13 };

/* The ranges claim_isa refuses, and the codes. */
static void isa_refusals(mach_port_t master, mach_port_t con,
			 mach_port_t rtl)
{
	static const struct {
		const char *name;
		int base, size, code;
	} cases[] = {
		{ "isa_size_0", ISA_IO, 0, D_INVALID_SIZE },
		{ "isa_size_negative", ISA_IO, -1, D_INVALID_SIZE },
		{ "isa_size_past_10_bits", ISA_IO, 0x401, D_INVALID_SIZE },
		{ "isa_base_negative", -0x10, 0x20, D_INVALID_OPERATION },
		{ "isa_past_port_0xffff", 0xfff0, 0x20, D_INVALID_OPERATION },
		{ "isa_kernel_card_refused", KERNEL_ISA_IO, ISA_PORTS,
		  D_ALREADY_OPEN },
		{ "isa_overlapping_kernel_card_refused", KERNEL_ISA_IO + 0x10,
		  ISA_PORTS, D_ALREADY_OPEN },
		{ "isa_pic_refused", 0x20, 2, D_ALREADY_OPEN },
		{ "isa_pit_refused", 0x40, 4, D_ALREADY_OPEN },
		{ "isa_com1_refused", 0x3f8, 8, D_ALREADY_OPEN },
		{ "isa_pci_config_refused", 0xcf8, 8, D_ALREADY_OPEN },
		{ "isa_compatibility_ide_refused", 0x1f0, 8, D_ALREADY_OPEN },
	};
	mach_port_t claim = MACH_PORT_NULL, probe = MACH_PORT_NULL;
	uint16_t rtl_io = io_base(rtl);

	check("isa_through_a_device_port_refused", D_INVALID_OPERATION,
	      claim_isa(con, ISA_IO, ISA_PORTS, &claim));
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		check(cases[i].name, cases[i].code,
		      claim_isa(master, cases[i].base, cases[i].size, &claim));
	check("isa_claimed_pci_io_bar_refused", D_ALREADY_OPEN,
	      claim_isa(master, rtl_io, 8, &claim));
	/* the e1000e's I/O BAR, claimed by nobody: sized now */
	check("claim_e1000e_for_its_bar", D_SUCCESS,
	      claim_free(master, E1000E_SLOT, &probe));
	{
		rpc_phys_addr_t base = 0, size = 0;
		boolean_t io = FALSE;

		check("e1000e_bar2", D_SUCCESS,
		      claim_pci_bar(probe, 2, &base, &size, &io));
		check("e1000e_bar2_is_io", 1, io && size != 0);
		check("e1000e_released", KERN_SUCCESS,
		      mach_port_deallocate(mach_task_self(), probe));
		check("isa_unclaimed_pci_io_bar_refused", D_ALREADY_OPEN,
		      claim_isa(master, (int)base + (int)size - 1, 4,
				&claim));
	}
}

/* At most ISA_CLAIMS_MAX ISA claims alive: the kernel's and @held are
 * two. */
static void isa_limit(mach_port_t master)
{
	mach_port_t more[ISA_CLAIMS_MAX];
	unsigned int n = 0;

	for (; n < ISA_CLAIMS_MAX - 2; n++)
		if (claim_isa(master, 0x200 + 0x10 * (int)n, 0x10,
			      &more[n]) != D_SUCCESS)
			break;
	check("isa_claims_up_to_the_limit", ISA_CLAIMS_MAX - 2, (int)n);
	check("isa_claim_past_the_limit", D_NO_MEMORY,
	      claim_isa(master, 0x200 + 0x10 * (int)n, 0x10, &more[n]));
	for (unsigned int i = 0; i < n; i++)
		(void)mach_port_deallocate(mach_task_self(), more[i]);
	check("isa_claim_after_some_ended", D_SUCCESS,
	      claim_isa(master, 0x200, 0x10, &more[0]));
	(void)mach_port_deallocate(mach_task_self(), more[0]);
}

/* An ISA claim's lines: any free one, one registration each. */
static void isa_lines(mach_port_t master, mach_port_t isa, mach_port_t rtl)
{
	int id = 0, class_rev = 0, irq = -1;

	check("rtl_id", D_SUCCESS, claim_pci_id(rtl, &id, &class_rev, &irq));
	check("isa_line_16_refused", D_INVALID_OPERATION,
	      claim_isa_intr_register(isa, 16, new_receive(),
				      MACH_MSG_TYPE_MAKE_SEND));
	check("isa_line_negative_refused", D_INVALID_OPERATION,
	      claim_isa_intr_register(isa, -1, new_receive(),
				      MACH_MSG_TYPE_MAKE_SEND));
	check("isa_clock_line_refused", D_INVALID_OPERATION,
	      claim_isa_intr_register(isa, 0, new_receive(),
				      MACH_MSG_TYPE_MAKE_SEND));
	check("isa_console_line_refused", D_INVALID_OPERATION,
	      claim_isa_intr_register(isa, 4, new_receive(),
				      MACH_MSG_TYPE_MAKE_SEND));
	check("isa_kernel_handled_line_refused", D_ALREADY_OPEN,
	      claim_isa_intr_register(isa, IDE_LINE, new_receive(),
				      MACH_MSG_TYPE_MAKE_SEND));
	check("isa_pci_claims_line_refused", D_ALREADY_OPEN,
	      claim_isa_intr_register(isa, irq, new_receive(),
				      MACH_MSG_TYPE_MAKE_SEND));
	check("isa_kernel_port_refused_as_notify_port", D_INVALID_OPERATION,
	      claim_isa_intr_register(isa, free_lines[0], master,
				      MACH_MSG_TYPE_COPY_SEND));
	check("isa_lines_on_a_pci_claim_refused", D_INVALID_OPERATION,
	      claim_isa_intr_register(rtl, free_lines[0], new_receive(),
				      MACH_MSG_TYPE_MAKE_SEND));
	check("isa_ack_on_a_pci_claim_refused", D_INVALID_OPERATION,
	      claim_isa_intr_ack(rtl, free_lines[0]));
	for (size_t i = 0; i < sizeof(free_lines) / sizeof(*free_lines); i++)
		check("isa_free_line_registered", D_SUCCESS,
		      claim_isa_intr_register(isa, free_lines[i],
					      new_receive(),
					      MACH_MSG_TYPE_MAKE_SEND));
	check("isa_line_registered_twice", D_ALREADY_OPEN,
	      claim_isa_intr_register(isa, free_lines[0], new_receive(),
				      MACH_MSG_TYPE_MAKE_SEND));
	check("isa_ack_without_interrupt", D_INVALID_OPERATION,
	      claim_isa_intr_ack(isa, free_lines[0]));
	check("isa_ack_of_a_line_not_its", D_INVALID_OPERATION,
	      claim_isa_intr_ack(isa, 9));
	check("isa_ack_line_out_of_range", D_INVALID_OPERATION,
	      claim_isa_intr_ack(isa, 16));
	check("pci_line_routines_on_an_isa_claim_refused",
	      D_INVALID_OPERATION,
	      claim_intr_register(isa, new_receive(),
				  MACH_MSG_TYPE_MAKE_SEND));
}

static void isa(mach_port_t master)
{
	mach_port_t claim = MACH_PORT_NULL, again = MACH_PORT_NULL;
	mach_port_t con = MACH_PORT_NULL, rtl = claim_rtl(master);
	rpc_phys_addr_t base = 0, size = 0;
	vm_address_t mapped = 0;
	int value = 0, irq = 0;
	boolean_t io = FALSE;
	uint8_t v;

	check("open_console", D_SUCCESS,
	      device_open(master, D_WRITE, "console", &con));
	isa_refusals(master, con, rtl);
	check("isa_free_range_claimed", D_SUCCESS,
	      claim_isa(master, ISA_IO, ISA_PORTS, &claim));
	check("isa_claimed_twice_refused", D_ALREADY_OPEN,
	      claim_isa(master, ISA_IO + 8, 8, &again));
	check("isa_has_no_pci_id", D_INVALID_OPERATION,
	      claim_pci_id(claim, &value, &value, &irq));
	check("isa_has_no_pci_bar", D_INVALID_OPERATION,
	      claim_pci_bar(claim, 0, &base, &size, &io));
	check("isa_has_no_config_space", D_INVALID_OPERATION,
	      claim_pci_config_read(claim, 0, 4, &value));
	check("isa_config_write_refused", D_INVALID_OPERATION,
	      claim_pci_config_write(claim, 4, 2, 0));
	check("isa_grant_of_bar_1_refused", D_INVALID_OPERATION,
	      claim_io_grant(claim, 1));
	check("isa_not_mapped", D_INVALID_OPERATION,
	      claim_map(claim, 0, &mapped));
	check("isa_range_granted", D_SUCCESS, claim_io_grant(claim, 0));
	v = inb(ISA_IO + ISA_PORTS - 1);	/* no card: all ones */
	check("isa_granted_port_read", 0xff, v);
	isa_limit(master);
	isa_lines(master, claim, rtl);
	/* Exits holding the claim, its grant and its lines. */
}

#define DIRECT_BASE	(1ull << 40)
#define DIRECT_TOP	(128ull << 20)

/* A task's direct map: the refusals, once, and DMA memory in it. */
static void direct_map(mach_port_t driver_port, mach_port_t rtl,
		       mach_port_t isa)
{
	static const struct {
		const char *name;
		uint64_t base, top;
	} refused[] = {
		{ "direct_map_base_0", 0, DIRECT_TOP },
		{ "direct_map_base_unaligned", DIRECT_BASE + 1, DIRECT_TOP },
		{ "direct_map_top_0", DIRECT_BASE, 0 },
		{ "direct_map_top_unaligned", DIRECT_BASE, DIRECT_TOP + 1 },
		{ "direct_map_top_past_64_tib", DIRECT_BASE, 1ull << 47 },
		{ "direct_map_past_user_space", 0x7f0000000000ull,
		  1ull << 44 },
	};
	vm_address_t va = 0;
	rpc_phys_addr_t pa = 0;

	for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++)
		check(refused[i].name, D_INVALID_OPERATION,
		      claim_direct_map(rtl, refused[i].base, refused[i].top));
	check("direct_map_through_the_driver_port", D_NO_SUCH_DEVICE,
	      claim_direct_map(driver_port, DIRECT_BASE, DIRECT_TOP));
	check("direct_map_named", D_SUCCESS,
	      claim_direct_map(rtl, DIRECT_BASE, DIRECT_TOP));
	check("direct_map_once_per_task", D_ALREADY_OPEN,
	      claim_direct_map(isa, DIRECT_BASE, DIRECT_TOP));
	check("dma_in_the_direct_map", D_SUCCESS,
	      claim_dma_alloc(rtl, 8192, 0, &va, &pa));
	check("dma_at_base_plus_its_address", 1,
	      va == DIRECT_BASE + pa && pa + 8192 <= DIRECT_TOP);
	if (va == DIRECT_BASE + pa) {
		*(volatile uint32_t *)va = 0x600d;
		check("dma_memory_usable", 0x600d, *(volatile uint32_t *)va);
	}
}

/* The driver master port admits claims and publications, nothing
 * else. */
static void driver(mach_port_t driver_port)
{
	static const char *const devices[] = { "console", "eth0", "irq",
					       "time" };
	mach_port_t dev = MACH_PORT_NULL, rtl = MACH_PORT_NULL;
	mach_port_t isa = MACH_PORT_NULL, perm = MACH_PORT_NULL;

	for (size_t i = 0; i < sizeof(devices) / sizeof(*devices); i++)
		check("driver_port_opens_no_device", D_INVALID_OPERATION,
		      device_open(driver_port, D_READ | D_WRITE, devices[i],
				  &dev));
	check("driver_port_makes_no_io_perm", KERN_INVALID_ARGUMENT,
	      i386_io_perm_create(driver_port, 0x70, 0x71, &perm));
	check("driver_port_claims_pci", D_SUCCESS,
	      claim_free(driver_port, RTL_SLOT, &rtl));
	check("driver_port_refuses_the_kernels_function", D_ALREADY_OPEN,
	      claim_pci(driver_port, 0, E1000_SLOT, 0, &dev));
	check("driver_port_claims_isa", D_SUCCESS,
	      claim_isa(driver_port, ISA_IO, ISA_PORTS, &isa));
	check("no_fixed_ports_of_a_function_without_them",
	      D_INVALID_OPERATION, claim_legacy_grant(rtl));
	check("no_fixed_ports_of_an_isa_claim", D_INVALID_OPERATION,
	      claim_legacy_grant(isa));
	check("fixed_ports_through_the_driver_port_refused", D_NO_SUCH_DEVICE,
	      claim_legacy_grant(driver_port));
	check("no_ide_line_of_a_function_without_it", D_INVALID_OPERATION,
	      claim_isa_intr_register(rtl, IDE_LINE, new_receive(),
				      MACH_MSG_TYPE_MAKE_SEND));
	check("isa_claim_refused_the_ide_functions_line", D_ALREADY_OPEN,
	      claim_isa_intr_register(isa, IDE_LINE, new_receive(),
				      MACH_MSG_TYPE_MAKE_SEND));
	direct_map(driver_port, rtl, isa);
	check("rtl_released", KERN_SUCCESS,
	      mach_port_deallocate(mach_task_self(), rtl));
	check("isa_released", KERN_SUCCESS,
	      mach_port_deallocate(mach_task_self(), isa));
}

/* DMA memory of the claim: sizes and limits, below 16 MiB on request,
 * zeroed, the task's limit, never copied. */
static void dma(mach_port_t claim)
{
	vm_address_t a = 0, big = 0;
	rpc_phys_addr_t pa = 0, big_pa = 0;
	vm_offset_t data = 0;
	mach_msg_type_number_t count = 0;
	uint8_t *p;
	int zero = 1;

	check("dma_of_nothing", D_INVALID_SIZE,
	      claim_dma_alloc(claim, 0, 0, &a, &pa));
	check("dma_above_16_mib", D_INVALID_SIZE,
	      claim_dma_alloc(claim, (16 << 20) + 1, 0, &a, &pa));
	check("dma_limit_below_its_size", D_INVALID_SIZE,
	      claim_dma_alloc(claim, 8192, 4096, &a, &pa));
	check("dma_below_16_mib", D_SUCCESS,
	      claim_dma_alloc(claim, 6000, 16 << 20, &a, &pa));
	check("dma_physical_below_the_limit", 1,
	      pa % 4096 == 0 && pa + 8192 <= (16 << 20));
	p = (uint8_t *)a;
	for (int i = 0; i < 8192; i++)
		zero &= p[i] == 0;
	check("dma_zeroed", 1, zero);
	memset(p, 0x5a, 8192);
	check("dma_writable", 0x5a, p[8191]);
	check("dma_half_the_task_limit", D_SUCCESS,
	      claim_dma_alloc(claim, 8 << 20, 0, &big, &big_pa));
	check("dma_beyond_the_task_limit", D_NO_MEMORY,
	      claim_dma_alloc(claim, 8 << 20, 0, &big, &big_pa));
	check("dma_not_copied_by_vm_read", KERN_PROTECTION_FAILURE,
	      vm_read(mach_task_self(), a, 4096, &data, &count));
}

static void access(mach_port_t master)
{
	mach_port_t claim = claim_rtl(master), again = MACH_PORT_NULL;
	mach_port_t notify = new_receive();
	rpc_phys_addr_t base = 0, size = 0;
	int id = 0, class_rev = 0, irq = -1, value = 0;
	boolean_t io = FALSE;

	check("second_claim_refused", D_ALREADY_OPEN,
	      claim_pci(master, 0, RTL_SLOT, 0, &again));
	check("id", D_SUCCESS, claim_pci_id(claim, &id, &class_rev, &irq));
	check("id_is_the_rtl8139", RTL_ID, id);
	check("class_is_ethernet", 0x0200, (class_rev >> 16) & 0xffff);
	check("irq_is_a_pic_line", 1, irq >= 0 && irq < 16);
	check("bar0", D_SUCCESS, claim_pci_bar(claim, 0, &base, &size, &io));
	check("bar0_is_256_io_ports", 1, io && size == 256 && base != 0);
	check("bar1", D_SUCCESS, claim_pci_bar(claim, 1, &base, &size, &io));
	check("bar1_is_256_bytes_of_memory", 1,
	      !io && size == 256 && base != 0);
	check("bar2", D_SUCCESS, claim_pci_bar(claim, 2, &base, &size, &io));
	check("bar2_not_implemented", 0, (long)size);
	check("bar_out_of_range", D_INVALID_OPERATION,
	      claim_pci_bar(claim, 6, &base, &size, &io));
	check("config_read_vendor", D_SUCCESS,
	      claim_pci_config_read(claim, 0, 2, &value));
	check("config_vendor_is_realtek", 0x10ec, value);
	check("config_read_unaligned", D_INVALID_SIZE,
	      claim_pci_config_read(claim, 1, 2, &value));
	check("config_read_width_3", D_INVALID_SIZE,
	      claim_pci_config_read(claim, 0, 3, &value));
	check("config_read_past_the_end", D_INVALID_SIZE,
	      claim_pci_config_read(claim, 254, 4, &value));
	check("config_read_negative", D_INVALID_SIZE,
	      claim_pci_config_read(claim, -4, 4, &value));
	check("config_write_bar_refused", D_READ_ONLY,
	      claim_pci_config_write(claim, 0x14, 4, 0));
	check("config_write_bar_byte_refused", D_READ_ONLY,
	      claim_pci_config_write(claim, 0x27, 1, 0));
	check("config_write_rom_refused", D_READ_ONLY,
	      claim_pci_config_write(claim, 0x30, 4, 0));
	check("config_read_command", D_SUCCESS,
	      claim_pci_config_read(claim, 4, 2, &value));
	check("bus_mastering_on", D_SUCCESS,
	      claim_pci_config_write(claim, 4, 2, value | CMD_MASTER));
	check("config_read_command_again", D_SUCCESS,
	      claim_pci_config_read(claim, 4, 2, &value));
	check("bus_mastering_is_on", CMD_MASTER, value & CMD_MASTER);
	check("memory_bar_not_granted_as_ports", D_INVALID_OPERATION,
	      claim_io_grant(claim, 1));
	check("bar_out_of_range_not_granted", D_INVALID_OPERATION,
	      claim_io_grant(claim, 7));
	check("io_bar_granted", D_SUCCESS, claim_io_grant(claim, 0));
	check("io_bar_granted_again", D_SUCCESS, claim_io_grant(claim, 0));
	read_mac(claim, "mac_through_the_granted_ports");
	check("kernel_port_refused_as_notify_port", D_INVALID_OPERATION,
	      claim_intr_register(claim, master, MACH_MSG_TYPE_COPY_SEND));
	check("intr_register", D_SUCCESS,
	      claim_intr_register(claim, notify, MACH_MSG_TYPE_MAKE_SEND));
	check("intr_register_twice", D_ALREADY_OPEN,
	      claim_intr_register(claim, notify, MACH_MSG_TYPE_MAKE_SEND));
	check("intr_ack_without_interrupt", D_INVALID_OPERATION,
	      claim_intr_ack(claim));
	dma(claim);
	/* Exits holding the claim, the grant, bus mastering, the line, DMA
	 * memory. */
}

static void outside(mach_port_t master)
{
	mach_port_t claim = claim_rtl(master);

	check("io_bar_granted", D_SUCCESS, claim_io_grant(claim, 0));
	read_mac(claim, "mac_through_the_granted_ports");
	done_then_fault(io_base(claim) + 256);
}

static void release(mach_port_t master)
{
	mach_port_t claim = claim_rtl(master);
	uint16_t base = io_base(claim);

	check("io_bar_granted", D_SUCCESS, claim_io_grant(claim, 0));
	read_mac(claim, "mac_through_the_granted_ports");
	check("claim_released", KERN_SUCCESS,
	      mach_port_deallocate(mach_task_self(), claim));
	done_then_fault(base);
}

static void map(mach_port_t master)
{
	mach_port_t claim = MACH_PORT_NULL, rtl = claim_rtl(master);
	vm_address_t regs = 0, small = 0;
	vm_offset_t data = 0;
	mach_msg_type_number_t count = 0;
	volatile uint32_t *r;
	uint8_t mac[6];
	uint32_t ral, rah;

	check("claim_e1000e", D_SUCCESS,
	      claim_free(master, E1000E_SLOT, &claim));
	check("io_bar_not_mapped", D_INVALID_OPERATION,
	      claim_map(claim, 2, &regs));
	check("bar_out_of_range_not_mapped", D_INVALID_OPERATION,
	      claim_map(claim, 6, &regs));
	check("sub_page_bar_not_mapped", D_INVALID_OPERATION,
	      claim_map(rtl, 1, &small));
	check("register_bar_mapped", D_SUCCESS, claim_map(claim, 0, &regs));
	check("register_bar_mapped_once", D_ALREADY_OPEN,
	      claim_map(claim, 0, &small));
	r = (volatile uint32_t *)regs;
	ral = r[E1000_RAL0 / 4];
	rah = r[E1000_RAH0 / 4];
	memcpy(mac, &ral, 4);
	mac[4] = (uint8_t)rah;
	mac[5] = (uint8_t)(rah >> 8);
	check("mac_through_the_mapped_registers", 0,
	      memcmp(mac, e1000e_mac, sizeof(mac)));
	check("receive_address_valid", 1, (rah & E1000_RAH_AV) != 0);
	check("device_memory_not_copied_by_vm_read", KERN_PROTECTION_FAILURE,
	      vm_read(mach_task_self(), regs, 4096, &data, &count));
	check("claim_released", KERN_SUCCESS,
	      mach_port_deallocate(mach_task_self(), claim));
	printf("USER-DONE %d\n", checks);
	printf("USER-IO about to fault\n");
	fflush(stdout);
	(void)r[2];
	printf("USER-FAIL mapping_outlived_the_claim\n");
}

#define PCI_COMMAND_REG		0x04
#define PCI_COMMAND_INTX_DISABLE	0x400

static void hold(mach_port_t master, int slot)
{
	mach_port_t claim = MACH_PORT_NULL;
	int command = 0;

	check("hold_claimed", D_SUCCESS, claim_free(master, slot, &claim));
	check("hold_command_read", D_SUCCESS,
	      claim_pci_config_read(claim, PCI_COMMAND_REG, 2, &command));
	check("hold_intx_disabled", D_SUCCESS,
	      claim_pci_config_write(claim, PCI_COMMAND_REG, 2,
				     command | PCI_COMMAND_INTX_DISABLE));
}

int main(int argc, char **argv)
{
	mach_port_t master = graft_arg_port(argc, argv, "device");
	const char *mode = graft_arg(argc, argv, "mode", "");

	if (strcmp(mode, "outside") == 0) {
		outside(master);
		return 1;
	}
	if (strcmp(mode, "release") == 0) {
		release(master);
		return 1;
	}
	if (strcmp(mode, "map") == 0) {
		map(master);
		return 1;
	}
	if (strcmp(mode, "refuse") == 0)
		refuse(master);
	else if (strcmp(mode, "access") == 0)
		access(master);
	else if (strcmp(mode, "isa") == 0)
		isa(master);
	else if (strcmp(mode, "driver") == 0)
		driver(master);
	else if (strcmp(mode, "hold") == 0)
		hold(master, atoi(graft_arg(argc, argv, "slot", "-1")));
	else
		printf("USER-FAIL unknown_mode: %s\n", mode);
	printf("USER-DONE %d\n", checks);
	return 0;
}
