/* SPDX-License-Identifier: GPL-2.0-only */
/* A user driver's device under DMA remapping: its DMA reaches its own memory and nothing else. */
/*
 * "dmar_probe target=ADDR expect=blocked|reached device=${driver-port}"
 * (suites dmar and dmar-off, tests/kernel/dmar_test.c): claims QEMU's
 * edu device at 00:04.0 (its DMA engine copies between RAM and a
 * 4 KiB buffer inside the device at device address 0x40000), switches
 * bus mastering on and takes two pages of DMA memory, A and B; each
 * DMA below moves the first 2 KiB of a page:
 *   - RAM to device from A (a pattern), device to RAM into B: B equals A
 *     (DMA within the task's memory works);
 *   - RAM to device from ADDR, a page the kernel suite filled with 0xa5
 *     and gave nobody, device to RAM into B: with "blocked" B must hold
 *     none of the page's bytes, with "reached" all of them;
 *   - RAM to device from A again, device to RAM at ADDR: the kernel
 *     suite checks the page afterwards (0xa5 still, or A's bytes).
 * Then it exits holding its claim, for the kernel side to see it end.
 * Checks print "USER-PASS name" or "USER-FAIL ...", then "USER-DONE n".
 */
#include <device/device.h>
#include <mach/thread_switch.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft/claim.h"
#include "graft_user.h"
#include "user_check.h"

#define EDU_SLOT	4
#define EDU_ID		(0x1234 | 0x11e8 << 16)
#define EDU_LIVENESS	0x04
#define EDU_DMA_SRC	0x80
#define EDU_DMA_DST	0x88
#define EDU_DMA_COUNT	0x90
#define EDU_DMA_CMD	0x98
#define EDU_DMA_RUN	0x1
#define EDU_DMA_TO_RAM	0x2
#define EDU_BUFFER	0x40000ull
#define EDU_DMA_LIMIT	(1u << 28)	/* edu's default DMA mask */
#define PAGE		4096
/* bytes a DMA moves: QEMU 7.2's edu refuses a whole 4 KiB buffer's
 * transfer (its range check is off by one) */
#define XFER		2048
#define PATTERN		0xa5		/* the kernel suite's page */
#define PCI_COMMAND_REG	0x04
#define CMD_MEMORY	0x2
#define CMD_MASTER	0x4

static volatile uint8_t *edu;

static void edu_write64(unsigned int reg, uint64_t v)
{
	*(volatile uint64_t *)(edu + reg) = v;
}

/* One DMA of XFER bytes from @src to @dst, @to_ram for device to RAM; true
 * when the engine finished (within 2 s: it starts 100 ms after the
 * command). */
static bool edu_dma(uint64_t src, uint64_t dst, bool to_ram)
{
	edu_write64(EDU_DMA_SRC, src);
	edu_write64(EDU_DMA_DST, dst);
	edu_write64(EDU_DMA_COUNT, XFER);
	edu_write64(EDU_DMA_CMD, EDU_DMA_RUN | (to_ram ? EDU_DMA_TO_RAM : 0));
	for (int i = 0; i < 200; i++) {
		if (!(*(volatile uint64_t *)(edu + EDU_DMA_CMD) & EDU_DMA_RUN))
			return true;
		(void)thread_switch(MACH_PORT_NULL, SWITCH_OPTION_WAIT, 10);
	}
	return false;
}

/* How many of the first XFER bytes of @p are @byte. */
static int count_of(const volatile uint8_t *p, uint8_t byte)
{
	int n = 0;

	for (int i = 0; i < XFER; i++)
		n += p[i] == byte;
	return n;
}

int main(int argc, char **argv)
{
	mach_port_t master = graft_arg_port(argc, argv, "device");
	uint64_t target = strtoull(graft_arg(argc, argv, "target", "0"),
				   NULL, 0);
	bool blocked = strcmp(graft_arg(argc, argv, "expect", ""),
			      "blocked") == 0;
	mach_port_t claim = MACH_PORT_NULL;
	int id = 0, class_rev = 0, irq = 0, command = 0;
	vm_address_t regs = 0, mem = 0;
	rpc_phys_addr_t phys = 0;
	volatile uint8_t *a, *b;

	check("edu_claimed", D_SUCCESS,
	      claim_pci(master, 0, EDU_SLOT, 0, &claim));
	check("edu_identity", D_SUCCESS,
	      claim_pci_id(claim, &id, &class_rev, &irq));
	check("edu_is_edu", EDU_ID, id);
	check("edu_registers_mapped", D_SUCCESS, claim_map(claim, 0, &regs));
	check("dma_memory", D_SUCCESS,
	      claim_dma_alloc(claim, 2 * PAGE, EDU_DMA_LIMIT, &mem, &phys));
	check("command_read", D_SUCCESS,
	      claim_pci_config_read(claim, PCI_COMMAND_REG, 2, &command));
	check("bus_mastering_on", D_SUCCESS,
	      claim_pci_config_write(claim, PCI_COMMAND_REG, 2,
				     command | CMD_MEMORY | CMD_MASTER));
	if (regs == 0 || mem == 0 || target == 0) {
		printf("USER-FAIL setup: no registers, memory or target=\n");
		printf("USER-DONE %d\n", checks);
		return 1;
	}
	edu = (volatile uint8_t *)regs;
	*(volatile uint32_t *)(edu + EDU_LIVENESS) = 0x12345678;
	check("edu_alive", (long)(uint32_t)~0x12345678u,
	      (long)*(volatile uint32_t *)(edu + EDU_LIVENESS));

	a = (volatile uint8_t *)mem;
	b = a + PAGE;
	for (int i = 0; i < PAGE; i++)
		a[i] = (uint8_t)(i * 7 + 3);
	check("dma_from_its_memory_done", true,
	      edu_dma(phys, EDU_BUFFER, false));
	check("dma_into_its_memory_done", true,
	      edu_dma(EDU_BUFFER, phys + PAGE, true));
	check("dma_within_its_memory_copies", 0,
	      memcmp((const void *)a, (const void *)b, XFER));

	memset((void *)b, 0, PAGE);
	check("dma_from_the_page_done", true,
	      edu_dma(target, EDU_BUFFER, false));
	check("dma_of_it_into_its_memory_done", true,
	      edu_dma(EDU_BUFFER, phys + PAGE, true));
	if (blocked)
		check("the_page_unread", 0, count_of(b, PATTERN));
	else
		check("the_page_read", XFER, count_of(b, PATTERN));
	/* the device's buffer holds A's bytes again, for the page */
	check("dma_from_its_memory_again_done", true,
	      edu_dma(phys, EDU_BUFFER, false));
	check("dma_to_the_page_done", true, edu_dma(EDU_BUFFER, target, true));
	printf("USER-DONE %d\n", checks);
	return 0;
}
