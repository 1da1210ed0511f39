# SPDX-License-Identifier: GPL-2.0-only
# The kernel image: kernel/graft.elf (multiboot, x86_64, higher half).
#
# Linked twice: graft-nosyms.elf without a symbol table, then graft.elf with
# the table generated from it (tools/gen_ksyms.py).  tools/check_image.py
# proves the second link moved no code and the image loads as its multiboot
# header says.

KERNEL_CFLAGS = -std=gnu11 -ffreestanding -nostdinc -isystem $(GCC_INCLUDE) \
	-fno-pic -mcmodel=kernel -mno-red-zone -mgeneral-regs-only \
	-fno-stack-protector -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-fno-asynchronous-unwind-tables \
	-Wall -Wextra -Werror
KERNEL_CPPFLAGS = -I$(srcdir)/kernel -I$(srcdir) -Imach-include \
	-I$(srcdir)/defs

# gnumach-dev's headers, linked in alone (see configure.ac).  <mach/machine/*>
# resolves to the x86_64 headers through gnumach-dev's own machine link.
mach-include/.stamp: Makefile
	$(AM_V_GEN)rm -rf mach-include && mkdir -p mach-include && \
	for d in mach device mach_debug; do \
		ln -s $(MACH_INCLUDE)/$$d mach-include/$$d || exit 1; \
	done && touch $@
BUILT_SOURCES += mach-include/.stamp
KERNEL_LINK_FLAGS = -nostdlib -static -no-pie -Wl,-T,$(srcdir)/kernel/x86_64/kernel.ld \
	-Wl,-z,max-page-size=0x1000 -Wl,--build-id=none -Wl,--orphan-handling=error -Wl,--no-warn-rwx-segments

# Sources shared with nothing else; tests/kernel/ suites are linked in so
# that one image serves every boot (the command line picks the suite).
KERNEL_SOURCES = \
	kernel/x86_64/boot.S \
	kernel/x86_64/trap_entry.S \
	kernel/x86_64/jmp.S \
	kernel/x86_64/gdt.c \
	kernel/x86_64/io_bitmap.c \
	kernel/x86_64/io_perm.c \
	kernel/x86_64/pci_config.c \
	kernel/x86_64/idt.c \
	kernel/x86_64/trap.c \
	kernel/x86_64/serial.c \
	kernel/x86_64/vga.c \
	kernel/x86_64/machine.c \
	kernel/x86_64/multiboot.c \
	kernel/x86_64/pic.c \
	kernel/x86_64/pit.c \
	kernel/x86_64/tsc.c \
	kernel/kern/main.c \
	kernel/kern/boot_step.c \
	kernel/kern/task.c \
	kernel/kern/ledger.c \
	kernel/kern/klog.c \
	kernel/kern/task_port.c \
	kernel/kern/kernel_rpc.c \
	kernel/kern/rec_pool.c \
	kernel/kern/exception.c \
	kernel/kern/elf.c \
	kernel/kern/bootstrap.c \
	kernel/kern/supervise.c \
	kernel/kern/boot_script.c \
	kernel/kern/syscall_sw.c \
	kernel/x86_64/cpu_local.c \
	kernel/x86_64/fpu.c \
	kernel/x86_64/syscall.c \
	kernel/x86_64/syscall_entry.S \
	kernel/kern/console.c \
	kernel/kern/kprintf.c \
	kernel/kern/string.c \
	kernel/kern/cmdline.c \
	kernel/kern/bootinfo.c \
	kernel/kern/panic.c \
	kernel/kern/backtrace.c \
	kernel/kern/ksyms.c \
	kernel/kern/kcrc32.c \
	kernel/kern/stats.c \
	kernel/kern/probe_ring.c \
	kernel/kern/probe_hook.c \
	kernel/kern/ktest.c \
	kernel/kern/kalloc.c \
	kernel/vm/vm_page.c \
	kernel/vm/vm_page_boot.c \
	kernel/vm/vm_map.c \
	kernel/vm/vm_map_entry.c \
	kernel/vm/vm_map_copy_kernel.c \
	kernel/vm/vm_map_pin.c \
	kernel/vm/vm_map_copy_bytes.c \
	kernel/vm/vm_page_loan.c \
	kernel/x86_64/pmap.c \
	kernel/x86_64/copy.c \
	kernel/x86_64/copy_user.S \
	kernel/x86_64/trap_user.c \
	kernel/kern/intr.c \
	kernel/kern/clock.c \
	kernel/kern/thread.c \
	kernel/kern/thread_user.c \
	kernel/x86_64/thread_state.c \
	kernel/kern/sched.c \
	kernel/x86_64/switch.S \
	kernel/ipc/ipc_entry.c \
	kernel/ipc/ipc_space.c \
	kernel/ipc/ipc_port.c \
	kernel/ipc/ipc_pset.c \
	kernel/ipc/ipc_right.c \
	kernel/ipc/ipc_kmsg.c \
	kernel/ipc/ipc_kmsg_alloc.c \
	kernel/ipc/ipc_notify.c \
	kernel/ipc/ipc_mqueue.c \
	kernel/ipc/ipc_kobject.c \
	kernel/ipc/mach_msg.c \
	kernel/ipc/mach_port.c \
	kernel/net/net_frame.c \
	kernel/net/net_bpf.c \
	kernel/net/net_cspf.c \
	kernel/net/net_program.c \
	kernel/net/net_filter.c \
	tests/kernel/boot_test.c \
	tests/kernel/intr_test.c \
	tests/kernel/sched_test.c \
	tests/kernel/task_test.c \
	tests/kernel/thread_test.c \
	tests/kernel/boot_script_test.c \
	tests/kernel/linux_emu_test.c \
	tests/kernel/linux_net_test.c \
	tests/kernel/linux_irq_test.c \
	mach-glue/kernel/lx_host_clock.c \
	mach-glue/kernel/lx_host_version.c \
	mach-glue/kernel/lx_host_pci.c \
	mach-glue/kernel/lx_host_console.c \
	mach-glue/kernel/lx_host_memory.c \
	mach-glue/kernel/lx_host_irq.c \
	mach-glue/kernel/lx_host_irqflag.S \
	mach-glue/kernel/lx_host_thread.c \
	mach-glue/kernel/lx_host_io.c \
	mach-glue/kernel/lx_boot.c \
	mach-glue/net/dev_lxnet.c \
	mach-glue/net/dev_lxnet_probe.c \
	mach-glue/net/lxnet_info.c \
	mach-glue/block/blk_cluster.c \
	mach-glue/block/blk_mbr.c \
	mach-glue/block/dev_lxblk.c \
	mach-glue/block/dev_lxblk_probe.c \
	mach-glue/block/dev_lxblk_linux.c \
	mach-glue/block/dev_lxblk_units.c \
	kernel/x86_64/pmap_io.c \
	kernel/x86_64/acpi.c \
	kernel/x86_64/dmar.c \
	kernel/x86_64/dmar_find.c \
	tests/kernel/linux_pci_test.c \
	tests/kernel/linux_oot_test.c \
	tests/kernel/linux_warn_test.c \
	tests/kernel/exception_test.c \
	tests/kernel/linux_blk_test.c \
	tests/kernel/disk_fake.c \
	tests/kernel/disk_test.c \
	tests/kernel/linux_scsi_test.c \
	tests/kernel/mach_user_test.c \
	tests/kernel/ipc_user_test.c \
	tests/kernel/ipc_fuzz_test.c \
	tests/kernel/user_task.c \
	tests/kernel/vm_source.c \
	tests/kernel/ipc_test.c \
	tests/kernel/netfilter_test.c \
	tests/kernel/net_eth0_test.c \
	tests/kernel/net_ping_test.c \
	tests/kernel/pktgen_test.c \
	tests/kernel/bench_test.c tests/kernel/bench_line.c \
	tests/kernel/selftest_test.c \
	tests/kernel/vm_test.c \
	tests/kernel/vm_user_test.c \
	tests/kernel/vm_copy_bytes_test.c \
	tests/kernel/vm_copy_loan_test.c \
	tests/kernel/device_test.c \
	tests/kernel/device_lifetime_test.c \
	tests/kernel/claim_test.c tests/kernel/claim_reset_test.c \
	tests/kernel/dmar_test.c \
	tests/kernel/driver_server.c \
	tests/kernel/driver_server_test.c \
	tests/kernel/bench_server_test.c \
	tests/kernel/server_disk_test.c \
	tests/kernel/server_confine_test.c \
	tests/kernel/proxy_test.c \
	tests/kernel/proxy_retry_test.c tests/kernel/proxy_verify_test.c \
	tests/kernel/restart_test.c \
	tests/kernel/fault_inject_test.c \
	tests/kernel/hostio_test.c

# The Linux world is linux/linux-test.o: the production linux/linux.o
# plus the Linux-side checks those suites call (linux-emu/local.mk).
noinst_PROGRAMS += kernel/graft-nosyms.elf
kernel_graft_nosyms_elf_SOURCES = $(KERNEL_SOURCES)
kernel_graft_nosyms_elf_CFLAGS = $(KERNEL_CFLAGS)
kernel_graft_nosyms_elf_CCASFLAGS = $(KERNEL_CFLAGS)
kernel_graft_nosyms_elf_CPPFLAGS = $(KERNEL_CPPFLAGS)
kernel_graft_nosyms_elf_LDFLAGS = $(KERNEL_LINK_FLAGS)
kernel_graft_nosyms_elf_LDADD = $(KERNEL_MIG_LIBS) $(KERNEL_DEVICE_LIBS) \
	linux/linux-test.o -lgcc
EXTRA_kernel_graft_nosyms_elf_DEPENDENCIES = $(srcdir)/kernel/x86_64/kernel.ld \
	kernel/mig/not_served.o kernel/mig/libmig-glue.a kernel/mig/libmig-stubs.a \
	kernel/device/libdevice.a kernel/device/libdevice-stubs.a linux/linux-test.o
# Flags live in this Makefile: changing them must rebuild the objects.
$(kernel_graft_nosyms_elf_OBJECTS): Makefile mach-include/.stamp
# IPC runs on every message: -O3 there (its inlining takes about 200
# instructions off a null RPC round trip, make bench).  GNU make's
# target-specific append puts it after CFLAGS' own -O.
$(filter kernel/ipc/%,$(kernel_graft_nosyms_elf_OBJECTS)): CFLAGS += -O3

kernel/ksyms.S: kernel/graft-nosyms.elf $(srcdir)/tools/gen_ksyms.py
	$(AM_V_GEN)$(PYTHON3) $(srcdir)/tools/gen_ksyms.py $(NM) $< $@

kernel/ksyms.o: kernel/ksyms.S
	$(AM_V_CPPAS)$(CCAS) -c -o $@ $<

kernel/graft.elf: kernel/graft-nosyms.elf kernel/ksyms.o $(srcdir)/tools/check_image.py
	$(AM_V_CCLD)$(kernel_graft_nosyms_elf_LINK) \
		$(kernel_graft_nosyms_elf_OBJECTS) kernel/ksyms.o \
		$(kernel_graft_nosyms_elf_LDADD)
	$(AM_V_at)$(PYTHON3) $(srcdir)/tools/check_image.py \
		kernel/graft-nosyms.elf $@

all-local: kernel/graft.elf
CLEANFILES += kernel/ksyms.S kernel/ksyms.o kernel/graft.elf
