# SPDX-License-Identifier: GPL-2.0-only
# servers/lxdrv: the Linux driver server (servers/lxdrv/README.md).  It
# links build/linux/linux.o, the very object the kernel's Linux world is
# built from, with its own implementation of linux-emu/include/lx_host.h.
GUEST_NEWLIB_ELFS += servers/lxdrv/lxdrv.elf
LXDRV_SRCS = lxdrv.c sched.c memory.c pci.c isa.c host.c net.c net_info.c \
	disk.c serve.c exc.c
LXDRV_ASM = switch.S irqflag.S
# kernel/device/dev_error.c: the device layer's one translation of
# -errno into D_* codes; dev_info.c, kern/probe_ring.c, kern/stats.c and
# mach-glue/net/lxnet_info.c: GRAFT_DEV_INFO's answer and the probes'
# statistics; mach-glue/block/blk_cluster.c and blk_mbr.c: the block
# module's request planner and MBR parser (pure C, no kernel header).
# Compiled here too, unchanged.
LXDRV_SHARED = kernel/device/dev_error.c kernel/device/dev_info.c \
	kernel/kern/probe_ring.c kernel/kern/stats.c \
	mach-glue/net/lxnet_info.c mach-glue/block/blk_cluster.c \
	mach-glue/block/blk_mbr.c
LXDRV_OBJS = $(patsubst %.c,servers/lxdrv/%.o,$(LXDRV_SRCS)) \
	$(patsubst %.S,servers/lxdrv/%.o,$(LXDRV_ASM)) \
	$(patsubst %.c,servers/lxdrv/%.o,$(notdir $(LXDRV_SHARED)))
LXDRV_H = $(wildcard $(srcdir)/servers/lxdrv/*.h) \
	$(srcdir)/linux-emu/include/lx_host.h \
	$(srcdir)/linux-emu/include/lx_emul.h \
	$(srcdir)/linux-emu/include/lx_emul_disk.h \
	$(srcdir)/mach-glue/block/blk_cluster.h \
	$(srcdir)/mach-glue/block/blk_mbr.h
LXDRV_CPPFLAGS = $(USER_CPPFLAGS) -I$(srcdir)/servers/lxdrv \
	-I$(srcdir)/linux-emu/include -iquote $(srcdir)/kernel \
	-iquote $(srcdir)

servers/lxdrv/%.o: $(srcdir)/servers/lxdrv/%.c $(LXDRV_H) Makefile \
		$(USER_MIG_GENERATED) mach-include/.stamp
	@mkdir -p servers/lxdrv
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(LXDRV_CPPFLAGS) -c -o $@ $<
servers/lxdrv/dev_%.o: $(srcdir)/kernel/device/dev_%.c \
		$(srcdir)/kernel/device/dev_%.h Makefile mach-include/.stamp
	@mkdir -p servers/lxdrv
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(LXDRV_CPPFLAGS) -c -o $@ $<
servers/lxdrv/%.o: $(srcdir)/kernel/kern/%.c $(srcdir)/kernel/kern/%.h \
		Makefile
	@mkdir -p servers/lxdrv
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(LXDRV_CPPFLAGS) -c -o $@ $<
servers/lxdrv/lxnet_%.o: $(srcdir)/mach-glue/net/lxnet_%.c \
		$(srcdir)/mach-glue/net/lxnet_%.h Makefile mach-include/.stamp
	@mkdir -p servers/lxdrv
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(LXDRV_CPPFLAGS) -c -o $@ $<
servers/lxdrv/blk_%.o: $(srcdir)/mach-glue/block/blk_%.c \
		$(srcdir)/mach-glue/block/blk_%.h Makefile mach-include/.stamp
	@mkdir -p servers/lxdrv
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(LXDRV_CPPFLAGS) -c -o $@ $<
servers/lxdrv/%.o: $(srcdir)/servers/lxdrv/%.S Makefile
	@mkdir -p servers/lxdrv
	$(AM_V_CC)$(CC) $(USER_CFLAGS) -c -o $@ $<
CLEANFILES += servers/lxdrv/*.o servers/lxdrv/lxdrv.map

# The server's objects linked with the Linux world $(1) (linux.o here;
# tests/local.mk links linux-test.o for the suites), the map beside the
# ELF.  LXDRV_LINK_INPUTS: what both links take besides the world.
LXDRV_LINK = $(USER_LINK) -Wl,-T,$(srcdir)/servers/lxdrv/linux.ld \
	-Wl,-Map=$(@:.elf=.map) -o $@ $(LXDRV_OBJS) $(1) \
	user/libgraft-mig-host.a $(USER_LIBS)
LXDRV_LINK_INPUTS = $(LXDRV_OBJS) $(srcdir)/servers/lxdrv/linux.ld \
	user/libgraft-user.a user/libgraft-mig-user.a user/libgraft-mig-host.a

servers/lxdrv/lxdrv.elf: $(LXDRV_LINK_INPUTS) linux/linux.o
	$(AM_V_CCLD)$(call LXDRV_LINK,linux/linux.o)
