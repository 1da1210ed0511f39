/* SPDX-License-Identifier: GPL-2.0-only */
/* kmain: bring the boot CPU up, then run the requested test suite or idle. */
#include <stddef.h>
#include <stdint.h>

#include "device/device.h"
#include "kern/boot_step.h"
#include "kern/bootinfo.h"
#include "kern/bootstrap.h"
#include "kern/clock.h"
#include "kern/cmdline.h"
#include "kern/console.h"
#include "kern/intr.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/machine.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/supervise.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"
#include "x86_64/cpu_local.h"
#include "x86_64/dmar.h"
#include "x86_64/fpu.h"
#include "x86_64/syscall.h"
#include "x86_64/gdt.h"
#include "x86_64/idt.h"
#include "x86_64/layout.h"
#include "x86_64/multiboot.h"
#include "x86_64/tsc.h"

extern uint64_t boot_pml4[512];

/* The identity map of low memory is only needed to reach the higher half. */
static void drop_identity_map(void)
{
	boot_pml4[0] = 0;
	write_cr3(read_cr3());
}

static void print_bootinfo(const struct bootinfo *bi)
{
	kprintf("Memory map (%zu entries):\n", bi->nregions);
	for (size_t i = 0; i < bi->nregions; i++) {
		const struct boot_region *r = &bi->regions[i];

		kprintf("  %016llx-%016llx %s\n", (unsigned long long)r->base,
			(unsigned long long)(r->base + r->length),
			r->type == BOOT_REGION_USABLE ? "usable" : "reserved");
	}
	if (bi->regions_dropped)
		kprintf("  (%zu further entries ignored: table full)\n",
			bi->regions_dropped);
	kprintf("Usable memory: %llu KiB\n",
		(unsigned long long)(bootinfo_usable_bytes(bi) >> 10));
	kprintf("Modules: %zu\n", bi->nmodules);
	for (size_t i = 0; i < bi->nmodules; i++)
		kprintf("  %llx-%llx %s\n",
			(unsigned long long)bi->modules[i].start,
			(unsigned long long)bi->modules[i].end,
			bi->modules[i].cmdline);
	if (bi->modules_dropped)
		kprintf("  (%zu modules ignored: more than %d, or a line of "
			"%d bytes or more)\n", bi->modules_dropped,
			BOOTINFO_MAX_MODULES, BOOTINFO_CMDLINE_MAX);
}

static void run_test(const char *name)
{
	const struct ktest_suite *s;

	s = ktest_find(name);
	if (s == NULL) {
		kprintf("Graft: no test suite named '%s'\n", name);
		machine_exit(MACHINE_EXIT_FAIL);
	}
	machine_exit(ktest_run(s) ? MACHINE_EXIT_FAIL : MACHINE_EXIT_PASS);
}

void kmain(uint32_t magic, uint64_t info)
{
	char test[64], exit_method[16];
	int ok;

	console_init();
	gdt_init();
	idt_init();
	cpu_local_init();
	syscall_init();
	fpu_init();
	ok = multiboot_parse(magic, info, &bootinfo);
	drop_identity_map();
	vm_page_init(&bootinfo);

	kprintf("Graft x86_64 microkernel (built " __DATE__ ")\n");
	if (ok < 0) {
		kprintf("Graft: not started by a multiboot loader "
			"(magic 0x%x); no memory map\n", magic);
	}
	kprintf("Command line: %s\n", bootinfo.cmdline);
	if (cmdline_copy(bootinfo.cmdline, "exit", exit_method,
			 sizeof(exit_method))) {
		if (strcmp(exit_method, "bochs") == 0)
			machine_set_exit_method(MACHINE_EXIT_BOCHS);
		else if (strcmp(exit_method, "qemu") != 0)
			kprintf("Graft: exit=%s is neither qemu nor bochs; "
				"using qemu\n", exit_method);
	} else if (cmdline_find(bootinfo.cmdline, "exit", NULL, NULL)) {
		kprintf("Graft: exit= value too long; using qemu\n");
	}
	print_bootinfo(&bootinfo);

	intr_init();
	tsc_calibrate();
	clock_init();
	dmar_init(bootinfo.cmdline);
	sched_init();
	sched_idle_poll_words(bootinfo.cmdline);
	task_port_init();
	supervise_init();
	device_init();
	/* Steps the layers above register (kern/boot_step.h): "linux"
	 * starts the Linux drivers and their devices. */
	boot_steps_run(bootinfo.cmdline);
	kprintf("Clock: TSC %llu.%03llu MHz, tick %u Hz\n",
		(unsigned long long)(tsc_hz() / 1000000),
		(unsigned long long)(tsc_hz() / 1000 % 1000), HZ);

	if (cmdline_copy(bootinfo.cmdline, "test", test, sizeof(test)))
		run_test(test);

	bootstrap_start_all(&bootinfo);
	kprintf("Graft is up: %u user task(s) started.  "
		"(QEMU: Ctrl-A X quits.)\n", task_count());
	/* The boot thread has nothing more to do; the idle thread halts the
	 * CPU between interrupts. */
	for (;;) {
		assert_wait(&bootinfo);
		thread_block();
	}
}
