# SPDX-License-Identifier: GPL-2.0-only
# Host unit tests (tests/host/) and the harness that runs every suite.

HOST_TEST_CFLAGS = -std=gnu11 -fno-builtin -Wall -Wextra -Werror
HOST_TEST_CPPFLAGS = -I$(srcdir)/kernel -I$(srcdir)
HOST_TEST_COMMON = tests/host/host_main.c kernel/kern/ktest.c kernel/kern/kprintf.c

check_PROGRAMS += tests/host/test_kprintf tests/host/test_stats \
	tests/host/test_crc32 tests/host/test_cmdline tests/host/test_vm_page \
	tests/host/test_vm_map tests/host/test_ipc_entry \
	tests/host/test_netd_chksum

tests_host_test_kprintf_SOURCES = tests/host/test_kprintf.c $(HOST_TEST_COMMON)
tests_host_test_kprintf_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_kprintf_CPPFLAGS = $(HOST_TEST_CPPFLAGS)

tests_host_test_stats_SOURCES = tests/host/test_stats.c kernel/kern/stats.c \
	$(HOST_TEST_COMMON)
tests_host_test_stats_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_stats_CPPFLAGS = $(HOST_TEST_CPPFLAGS)

# The live probes' rings and the GRAFT_DEV_INFO record (kernel/kern/
# probe_ring.c, kernel/device/dev_info.c): pure logic.
check_PROGRAMS += tests/host/test_dev_info
tests_host_test_dev_info_SOURCES = tests/host/test_dev_info.c \
	kernel/device/dev_info.c kernel/kern/probe_ring.c kernel/kern/stats.c \
	$(HOST_TEST_COMMON)
tests_host_test_dev_info_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_dev_info_CPPFLAGS = $(HOST_TEST_CPPFLAGS) -I$(srcdir)/defs \
	-Imach-include
$(tests_host_test_dev_info_OBJECTS): mach-include/.stamp

tests_host_test_crc32_SOURCES = tests/host/test_crc32.c kernel/kern/kcrc32.c \
	$(HOST_TEST_COMMON)
tests_host_test_crc32_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_crc32_CPPFLAGS = $(HOST_TEST_CPPFLAGS)

# netd's checksum (servers/netd/chksum.c), which lwIP calls for every
# packet; lwipopts.h declares it.
tests_host_test_netd_chksum_SOURCES = tests/host/test_netd_chksum.c \
	servers/netd/chksum.c $(HOST_TEST_COMMON)
tests_host_test_netd_chksum_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_netd_chksum_CPPFLAGS = $(HOST_TEST_CPPFLAGS) \
	-I$(srcdir)/servers/netd

tests_host_test_cmdline_SOURCES = tests/host/test_cmdline.c \
	kernel/kern/cmdline.c $(HOST_TEST_COMMON)
tests_host_test_cmdline_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_cmdline_CPPFLAGS = $(HOST_TEST_CPPFLAGS)

# vm_page.h needs gnumach-dev's <mach/kern_return.h> (kernel/local.mk).
tests_host_test_vm_page_SOURCES = tests/host/test_vm_page.c tests/host/host_panic.c \
	kernel/vm/vm_page.c $(HOST_TEST_COMMON)
tests_host_test_vm_page_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_vm_page_CPPFLAGS = $(HOST_TEST_CPPFLAGS) -Imach-include
$(tests_host_test_vm_page_OBJECTS): mach-include/.stamp

tests_host_test_vm_map_SOURCES = tests/host/test_vm_map.c tests/host/host_panic.c \
	kernel/vm/vm_map_entry.c $(HOST_TEST_COMMON)
tests_host_test_vm_map_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_vm_map_CPPFLAGS = $(HOST_TEST_CPPFLAGS) -Imach-include
$(tests_host_test_vm_map_OBJECTS): mach-include/.stamp

# The port name table alone; the test supplies kalloc over malloc.
tests_host_test_ipc_entry_SOURCES = tests/host/test_ipc_entry.c \
	kernel/ipc/ipc_entry.c $(HOST_TEST_COMMON)
tests_host_test_ipc_entry_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_ipc_entry_CPPFLAGS = $(HOST_TEST_CPPFLAGS) -Imach-include
$(tests_host_test_ipc_entry_OBJECTS): mach-include/.stamp

# Filter programs (kernel/net/) against BPF programs tcpdump compiles at
# build time (tools/gen_bpf_programs.sh).
check_PROGRAMS += tests/host/test_net_filter
tests_host_test_net_filter_SOURCES = tests/host/test_net_filter.c \
	kernel/net/net_frame.c kernel/net/net_bpf.c kernel/net/net_cspf.c \
	kernel/net/net_program.c $(HOST_TEST_COMMON)
tests_host_test_net_filter_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_net_filter_CPPFLAGS = $(HOST_TEST_CPPFLAGS) -Imach-include -I.
$(tests_host_test_net_filter_OBJECTS): mach-include/.stamp \
	tests/host/net_bpf_programs.h
tests/host/net_bpf_programs.h: $(srcdir)/tools/gen_bpf_programs.sh
	@mkdir -p tests/host
	$(AM_V_GEN)sh $(srcdir)/tools/gen_bpf_programs.sh $@
CLEANFILES += tests/host/net_bpf_programs.h

# make check [SUITES=a,b]: every suite, or the ones named.
HARNESS = $(PYTHON3) $(srcdir)/tests/harness/run.py \
	--build-dir $(abs_builddir) --srcdir $(abs_srcdir)

# User programs for the guest suites: static x86_64 ELF, freestanding
# (no libc yet), linked at 4 MiB.
GUEST_ELF_FLAGS = -std=gnu11 -O2 -g -ffreestanding -nostdlib -static \
	-fno-pie -no-pie -fno-stack-protector -fcf-protection=none \
	-Wall -Wextra -Werror -Wl,-Ttext-segment=0x400000 -Wl,--build-id=none \
	-Wl,-e,_start
GUEST_ELFS = tests/user/task_probe.elf

tests/user/task_probe.elf: $(srcdir)/tests/user/task_probe.c Makefile
	@mkdir -p tests/user
	$(AM_V_CCLD)$(CC) $(GUEST_ELF_FLAGS) -o $@ $<

# Programs on the user runtime and newlib (user/local.mk): one object
# and one ELF per tests/user/<name>.c, each object rebuilt when any of
# the shared test headers changes.
USER_TEST_H_FILES = $(wildcard $(srcdir)/tests/user/*.h)
tests/user/%.o: $(srcdir)/tests/user/%.c $(USER_TEST_H_FILES) Makefile \
		$(USER_MIG_GENERATED) mach-include/.stamp
	@mkdir -p tests/user
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(USER_CPPFLAGS) -c -o $@ $<
# A program on mach_host.defs names libgraft-mig-host.a as a prerequisite.
tests/user/%.elf: tests/user/%.o user/libgraft-user.a user/libgraft-mig-user.a
	$(AM_V_CCLD)$(USER_LINK) -o $@ $< \
		$(filter user/libgraft-mig-host.a,$^) $(USER_LIBS)
GUEST_NEWLIB_ELFS = tests/user/mach_probe.elf
GUEST_NEWLIB_ELFS += tests/user/rpc_server.elf tests/user/rpc_client.elf
GUEST_NEWLIB_ELFS += tests/user/ipc_fuzz.elf
# Suite hostio: mach_host.defs, vm_read/vm_write, mach_i386.defs.
GUEST_NEWLIB_ELFS += tests/user/host_probe.elf tests/user/io_probe.elf
tests/user/host_probe.elf: user/libgraft-mig-host.a
GUEST_NEWLIB_ELFS += tests/user/net_rcv.elf
GUEST_NEWLIB_ELFS += tests/user/thread_probe.elf
# Suite exception: exc.defs served by the task itself.
GUEST_NEWLIB_ELFS += tests/user/exc_probe.elf
GUEST_ELFS += $(GUEST_NEWLIB_ELFS)
.PRECIOUS: tests/user/%.o

CLEANFILES += $(GUEST_ELFS) tests/user/*.o

check-local: kernel/graft.elf $(GUEST_ELFS)
	$(HARNESS) $(if $(SUITES),--suites $(SUITES))

# make stress [SUITES=a,b]: the stress suites (stress-*, the device fuzzer
# from many seeds and the fault campaigns; never part of make check), or
# the suites named; the campaigns' counts go to build/stress/results.json.
stress: kernel/graft.elf $(GUEST_ELFS)
	$(HARNESS) $(if $(SUITES),--suites $(SUITES),--stress)

.PHONY: stress

# Block clustering (mach-glue/block/): pure logic, no kernel around it.
check_PROGRAMS += tests/host/test_blk_cluster
tests_host_test_blk_cluster_SOURCES = tests/host/test_blk_cluster.c \
	mach-glue/block/blk_cluster.c $(HOST_TEST_COMMON)
tests_host_test_blk_cluster_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_blk_cluster_CPPFLAGS = $(HOST_TEST_CPPFLAGS) -Imach-include
$(tests_host_test_blk_cluster_OBJECTS): mach-include/.stamp

# The MBR partition table of the block module (mach-glue/block/blk_mbr.c).
check_PROGRAMS += tests/host/test_blk_mbr
tests_host_test_blk_mbr_SOURCES = tests/host/test_blk_mbr.c \
	mach-glue/block/blk_mbr.c $(HOST_TEST_COMMON)
tests_host_test_blk_mbr_CFLAGS = $(HOST_TEST_CFLAGS)
tests_host_test_blk_mbr_CPPFLAGS = $(HOST_TEST_CPPFLAGS)

# The device programs (kernel/device/): gnumach-dev headers + MIG stubs.
GUEST_NEWLIB_ELFS += tests/user/ramdisk_probe.elf tests/user/device_probe.elf
# Suite device-lifetime: device.defs, mach_i386.defs and mach_host.defs.
GUEST_NEWLIB_ELFS += tests/user/lifetime_probe.elf
# Suite driver-claim: defs/claim.defs from user space.
GUEST_NEWLIB_ELFS += tests/user/claim_probe.elf
# Suites dmar, dmar-off: a claimed device's DMA under remapping.
GUEST_NEWLIB_ELFS += tests/user/dmar_probe.elf
# Suites restart-*: eth0's client while its server is killed.
GUEST_NEWLIB_ELFS += tests/user/restart_probe.elf
tests/user/restart_probe.elf: user/libgraft-mig-host.a
# Suite device-proxy: a fake driver server (proxy.defs, device.defs's
# and proxy_pages.defs's server sides, claim.defs, mach_host.defs) and
# its client.
GUEST_NEWLIB_ELFS += tests/user/proxy_server.elf tests/user/proxy_probe.elf
tests/user/proxy_server.elf: user/libgraft-mig-host.a
tests/user/lifetime_probe.elf: user/libgraft-mig-host.a

# Suite server-confine: the driver server's objects (servers/lxdrv/
# local.mk) linked with linux/linux-test.o, whose drivers include those
# of tests/drivers/ (rogue), and the client of its rogue0.
GUEST_NEWLIB_ELFS += tests/servers/lxdrv_test.elf tests/user/confine_probe.elf
tests/servers/lxdrv_test.elf: $(LXDRV_LINK_INPUTS) linux/linux-test.o
	@mkdir -p tests/servers
	$(AM_V_CCLD)$(call LXDRV_LINK,linux/linux-test.o)
CLEANFILES += tests/servers/lxdrv_test.map

# Suite fault-inject: the server's objects and linux.o with the fault
# injector (tests/servers/inject.c), linux.o's code between two markers.
GUEST_NEWLIB_ELFS += tests/servers/lxdrv_inject.elf
INJECT_OBJS = tests/servers/inject_begin.o tests/servers/inject_end.o \
	tests/servers/inject.o
tests/servers/inject.o: $(srcdir)/tests/servers/inject.c $(LXDRV_H) \
		$(srcdir)/tests/user/user_bench.h Makefile \
		$(USER_MIG_GENERATED) mach-include/.stamp
	@mkdir -p tests/servers
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(LXDRV_CPPFLAGS) -c -o $@ $<
tests/servers/inject_%.o: $(srcdir)/tests/servers/inject_%.S Makefile
	@mkdir -p tests/servers
	$(AM_V_CC)$(CC) $(USER_CFLAGS) -c -o $@ $<
tests/servers/lxdrv_inject.elf: $(LXDRV_LINK_INPUTS) linux/linux.o \
		$(INJECT_OBJS)
	$(AM_V_CCLD)$(call LXDRV_LINK,tests/servers/inject_begin.o \
		linux/linux.o tests/servers/inject_end.o \
		tests/servers/inject.o -Xlinker --wrap=main \
		-Xlinker --wrap=lx_host_alloc -Xlinker --wrap=lx_host_free)
CLEANFILES += $(INJECT_OBJS) tests/servers/lxdrv_inject.map

# The net-e1000 program (mach-glue/net/): eth0 through device.defs.
GUEST_NEWLIB_ELFS += tests/user/net_probe.elf
# rate= times its passes with host_get_time.
tests/user/net_probe.elf: user/libgraft-mig-host.a

# The disk program (mach-glue/block/): hd0 and its partitions through
# device.defs; host_get_time for the throughput figures.
GUEST_NEWLIB_ELFS += tests/user/disk_probe.elf
tests/user/disk_probe.elf: user/libgraft-mig-host.a

# The device fuzzer (suite device-fuzz): two objects, the messages in
# device_fuzz_msg.c; its kernel side is linked into graft.elf with the
# other suites (KERNEL_SOURCES, kernel/local.mk).
GUEST_NEWLIB_ELFS += tests/user/device_fuzz.elf
tests/user/device_fuzz.elf: tests/user/device_fuzz.o \
		tests/user/device_fuzz_msg.o user/libgraft-user.a \
		user/libgraft-mig-user.a
	$(AM_V_CCLD)$(USER_LINK) -o $@ $(filter %.o,$^) $(USER_LIBS)
KERNEL_SOURCES += tests/kernel/device_fuzz_test.c
