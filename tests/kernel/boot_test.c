/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "boot": long mode, higher half, descriptor tables, memory map, modules, exception reports. */
/*
 * The harness passes what it gave the emulator on the command line:
 * expect_mem_mib (RAM size), expect_mods (module count), modN_crc (CRC-32
 * of each module's bytes, computed on the host) and mod0_cmdline_has (a
 * word the first module's command line must contain).
 */
#include <stdint.h>

#include "kern/bootinfo.h"
#include "kern/cmdline.h"
#include "kern/console.h"
#include "kern/kcrc32.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "x86_64/cpu.h"
#include "x86_64/gdt.h"
#include "x86_64/layout.h"
#include "x86_64/multiboot.h"
#include "x86_64/trap.h"

static char report[4096];

static uint64_t param(struct ktest *t, const char *key)
{
	uint64_t v = 0;

	if (cmdline_u64(bootinfo.cmdline, key, &v) != 0)
		ktest_fail(t, "command line lacks a number %s=", key);
	return v;
}

static void loader_passed_multiboot_magic(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, bootinfo.magic, MULTIBOOT_BOOTLOADER_MAGIC);
}

static void cpu_runs_in_long_mode_with_paging(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, rdmsr(MSR_EFER) & EFER_LMA);
	KTEST_EXPECT_TRUE(t, read_cr0() & CR0_PG);
	KTEST_EXPECT_TRUE(t, read_cr4() & CR4_PAE);
}

static void kernel_runs_in_higher_half(struct ktest *t)
{
	uint64_t here = (uint64_t)&kernel_runs_in_higher_half;
	uint64_t stack = (uint64_t)&here;

	KTEST_EXPECT_GE(t, here, KERNEL_BASE);
	KTEST_EXPECT_GE(t, stack, KERNEL_BASE);
}

static void gdt_and_tss_are_loaded(struct ktest *t)
{
	uint16_t tr, cs;
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) gdtr;

	__asm__ volatile("str %0" : "=r"(tr));
	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	__asm__ volatile("sgdt %0" : "=m"(gdtr));
	KTEST_EXPECT_EQ(t, tr, SEL_TSS);
	KTEST_EXPECT_EQ(t, cs, SEL_KCODE);
	KTEST_EXPECT_GE(t, gdtr.base, KERNEL_BASE);
	KTEST_EXPECT_NE(t, gdt_tss.ist[IST_DOUBLE_FAULT - 1], 0);
}

static void idt_has_all_256_gates(struct ktest *t)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) idtr;
	const uint8_t *gate;

	__asm__ volatile("sidt %0" : "=m"(idtr));
	KTEST_EXPECT_EQ(t, idtr.limit, 256 * 16 - 1);
	for (int v = 0; v < 256; v++) {
		gate = (const uint8_t *)idtr.base + v * 16;
		if (!(gate[5] & 0x80))
			ktest_fail(t, "gate %d is not present", v);
	}
}

static void memory_map_matches_emulator_ram(struct ktest *t)
{
	uint64_t want = param(t, "expect_mem_mib") << 20;
	uint64_t got = bootinfo_usable_bytes(&bootinfo);

	/* Firmware keeps a little for itself (BIOS area, ACPI tables). */
	KTEST_EXPECT_LE(t, got, want);
	KTEST_EXPECT_GE(t, got, want - (4ull << 20));
	KTEST_EXPECT_EQ(t, bootinfo.regions_dropped, 0);
}

static void kernel_image_lies_in_usable_ram(struct ktest *t)
{
	uint64_t start = KERNEL_PHYS;
	uint64_t end = kernel_virt_to_phys(_kernel_end);
	int inside = 0;

	for (size_t i = 0; i < bootinfo.nregions; i++) {
		const struct boot_region *r = &bootinfo.regions[i];

		KTEST_EXPECT_NE(t, r->length, 0);
		if (r->type == BOOT_REGION_USABLE && r->base <= start &&
		    end <= r->base + r->length)
			inside = 1;
	}
	if (!inside)
		ktest_fail(t, "no usable region holds [%llx, %llx)",
			   (unsigned long long)start, (unsigned long long)end);
}

static void modules_are_found(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, bootinfo.nmodules, param(t, "expect_mods"));
	KTEST_EXPECT_EQ(t, bootinfo.modules_dropped, 0);
}

static void module_bytes_match_host_crc(struct ktest *t)
{
	char key[16];

	for (size_t i = 0; i < bootinfo.nmodules; i++) {
		const struct boot_module *m = &bootinfo.modules[i];
		uint32_t crc;

		ksnprintf(key, sizeof(key), "mod%zu_crc", i);
		crc = kcrc32(0, bootinfo_module_data(m), m->end - m->start);
		KTEST_EXPECT_EQ(t, crc, param(t, key));
	}
}

static void module_command_line_is_passed(struct ktest *t)
{
	char word[32];
	const char *cmd;

	if (!cmdline_copy(bootinfo.cmdline, "mod0_cmdline_has", word,
			  sizeof(word))) {
		ktest_fail(t, "command line lacks mod0_cmdline_has=");
		return;
	}
	if (bootinfo.nmodules == 0) {
		ktest_fail(t, "no module 0");
		return;
	}
	cmd = bootinfo.modules[0].cmdline;
	if (!cmdline_find(cmd, word, &(const char *){ 0 }, &(size_t){ 0 }))
		ktest_fail(t, "module 0 command line '%s' lacks word '%s'",
			   cmd, word);
}

/*
 * Exceptions.  Each case faults on purpose inside a function of known name,
 * catches the trap, and checks the report it printed.
 */
static void __attribute__((noinline)) boot_test_fault_ud(void)
{
	__asm__ volatile("ud2");
}

static void __attribute__((noinline)) boot_test_fault_pf(void)
{
	(void)*(volatile uint64_t *)0x1000;
}

static void __attribute__((noinline)) boot_test_fault_gp(void)
{
	(void)*(volatile uint64_t *)0x8000000000000000ull;
}

static void __attribute__((noinline)) boot_test_fault_de(void)
{
	/* In assembly: C may drop a division whose result is unused. */
	__asm__ volatile("xorl %%ecx, %%ecx; movl $100, %%eax; xorl %%edx, %%edx;"
			 "divl %%ecx" : : : "eax", "ecx", "edx");
}

static void __attribute__((noinline)) boot_test_fault_bp(void)
{
	__asm__ volatile("int3");
}

/* Run @fault with a catch armed; returns 1 and fills @c if it trapped. */
static int __attribute__((noinline)) catch_fault(struct ktest *t, void (*fault)(void),
		       struct trap_catch *c)
{
	console_capture_start(report, sizeof(report));
	if (trap_catch_enter(c) == 0) {
		fault();
		trap_catch_disarm();
		console_capture_stop();
		ktest_fail(t, "no trap came");
		return 0;
	}
	console_capture_stop();
	return 1;
}

static void expect_report_has(struct ktest *t, const char *what)
{
	if (kmemmem(report, strlen(report), what) == NULL)
		ktest_fail(t, "report lacks \"%s\"", what);
}

static void invalid_opcode_gives_full_report(struct ktest *t)
{
	struct trap_catch c;

	if (!catch_fault(t, boot_test_fault_ud, &c))
		return;
	KTEST_EXPECT_EQ(t, c.vector, TRAP_UD);
	expect_report_has(t, "#UD invalid opcode (vector 6, error code 0x0)");
	expect_report_has(t, "RIP ");
	expect_report_has(t, "RSP ");
	expect_report_has(t, "R15 ");
	expect_report_has(t, "CR3 ");
	expect_report_has(t, "Backtrace:");
	expect_report_has(t, "boot_test_fault_ud+0x");
	expect_report_has(t, "? catch_fault+0x");
	expect_report_has(t, "invalid_opcode_gives_full_report+0x");
	expect_report_has(t, "ktest_run+0x");
}

static void page_fault_reports_address_and_error(struct ktest *t)
{
	struct trap_catch c;

	if (!catch_fault(t, boot_test_fault_pf, &c))
		return;
	KTEST_EXPECT_EQ(t, c.vector, TRAP_PF);
	KTEST_EXPECT_EQ(t, c.cr2, 0x1000);
	KTEST_EXPECT_EQ(t, c.error & 1, 0);	/* page not present */
	expect_report_has(t, "#PF page fault (vector 14");
	expect_report_has(t, "CR2 0000000000001000");
	expect_report_has(t, "boot_test_fault_pf+0x");
}

static void non_canonical_access_is_general_protection(struct ktest *t)
{
	struct trap_catch c;

	if (!catch_fault(t, boot_test_fault_gp, &c))
		return;
	KTEST_EXPECT_EQ(t, c.vector, TRAP_GP);
	expect_report_has(t, "#GP general protection (vector 13");
}

static void divide_by_zero_is_reported(struct ktest *t)
{
	struct trap_catch c;

	if (!catch_fault(t, boot_test_fault_de, &c))
		return;
	KTEST_EXPECT_EQ(t, c.vector, TRAP_DE);
	expect_report_has(t, "#DE divide error (vector 0");
}

static void breakpoint_is_reported_after_the_instruction(struct ktest *t)
{
	struct trap_catch c;

	if (!catch_fault(t, boot_test_fault_bp, &c))
		return;
	KTEST_EXPECT_EQ(t, c.vector, TRAP_BP);
	/* int3 is a trap: the saved RIP follows the one-byte instruction. */
	KTEST_EXPECT_EQ(t, *(const uint8_t *)(c.rip - 1), 0xcc);
	expect_report_has(t, "boot_test_fault_bp+0x");
}

static void tsc_advances(struct ktest *t)
{
	uint64_t a = rdtsc_fenced(), b = rdtsc_fenced();

	KTEST_EXPECT_LE(t, a, b);
	KTEST_EXPECT_NE(t, a, b);
}

static const struct ktest_case boot_cases[] = {
	{ "loader_passed_multiboot_magic", loader_passed_multiboot_magic },
	{ "cpu_runs_in_long_mode_with_paging",
	  cpu_runs_in_long_mode_with_paging },
	{ "kernel_runs_in_higher_half", kernel_runs_in_higher_half },
	{ "gdt_and_tss_are_loaded", gdt_and_tss_are_loaded },
	{ "idt_has_all_256_gates", idt_has_all_256_gates },
	{ "memory_map_matches_emulator_ram", memory_map_matches_emulator_ram },
	{ "kernel_image_lies_in_usable_ram", kernel_image_lies_in_usable_ram },
	{ "modules_are_found", modules_are_found },
	{ "module_bytes_match_host_crc", module_bytes_match_host_crc },
	{ "module_command_line_is_passed", module_command_line_is_passed },
	{ "invalid_opcode_gives_full_report",
	  invalid_opcode_gives_full_report },
	{ "page_fault_reports_address_and_error",
	  page_fault_reports_address_and_error },
	{ "non_canonical_access_is_general_protection",
	  non_canonical_access_is_general_protection },
	{ "divide_by_zero_is_reported", divide_by_zero_is_reported },
	{ "breakpoint_is_reported_after_the_instruction",
	  breakpoint_is_reported_after_the_instruction },
	{ "tsc_advances", tsc_advances },
};
KTEST_SUITE(boot_suite, "boot", boot_cases);
