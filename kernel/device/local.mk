# SPDX-License-Identifier: GPL-2.0-only
# The device layer: device.defs served through MIG stubs generated from
# gnumach-dev (KERNEL_SERVER, prefix ds_), replies of queued I/O sent
# through device_reply.defs's KERNEL_USER stubs, the dispatcher and the
# modules.  Built with -DKERNEL like kernel/mig/ (8-byte ports in
# kernel-layout messages) and seeing kernel/mig/shim/ for the GNU Mach
# headers the stubs import.

DEVICE_MIG_FLAGS = -D__x86_64__ -DKERNEL -I$(MACH_INCLUDE)
DEVICE_MIG_GENERATED = kernel/device/gen/device_server.c \
	kernel/device/gen/device_reply_user.c kernel/device/gen/device_reply.h \
	kernel/device/gen/claim_server.c kernel/device/gen/proxy_server.c \
	kernel/device/gen/proxy_forward_user.c \
	kernel/device/gen/proxy_forward.h \
	kernel/device/gen/proxy_reply_server.c \
	kernel/device/gen/proxy_pages_user.c kernel/device/gen/proxy_pages.h \
	kernel/device/gen/proxy_watch_user.c kernel/device/gen/proxy_watch.h \
	kernel/device/gen/device_status_reply_user.c \
	kernel/device/gen/device_status_reply.h \
	kernel/device/gen/device_status_reply_server.c \
	kernel/device/gen/device_direct_server.c \
	kernel/device/gen/device_direct_reply_user.c \
	kernel/device/gen/device_direct_reply.h

# Reads into the caller's memory (defs/device_direct.defs, served) and
# the reply of one that waited (defs/device_direct_reply.defs,
# KERNEL_USER).
kernel/device/gen/device_direct_server.c: $(srcdir)/defs/device_direct.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_SERVER -n \
		-server $@ $<

kernel/device/gen/device_direct_reply_user.c \
		kernel/device/gen/device_direct_reply.h: \
		$(srcdir)/defs/device_direct_reply.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_USER -n \
		-user kernel/device/gen/device_direct_reply_user.c \
		-header kernel/device/gen/device_direct_reply.h $<

# Graft's own interface (defs/claim.defs): PCI claims for user drivers.
kernel/device/gen/claim_server.c: $(srcdir)/defs/claim.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_SERVER -n \
		-server $@ $<

# The proxy module (kernel/device/dev_proxy.h): defs/proxy.defs served;
# the requests it forwards to driver servers (defs/proxy_forward.defs,
# KERNEL_USER); their replies served by device_reply.defs's stubs built
# KernelServer (kernel layout) under other names (dpr_ routines, demux
# proxy_reply_server), beside io_req.c's KERNEL_USER ones.
kernel/device/gen/proxy_server.c: $(srcdir)/defs/proxy.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_SERVER -n \
		-server $@ $<

kernel/device/gen/proxy_forward_user.c kernel/device/gen/proxy_forward.h: \
		$(srcdir)/defs/proxy_forward.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_USER -n \
		-user kernel/device/gen/proxy_forward_user.c \
		-header kernel/device/gen/proxy_forward.h $<

# Reads and writes forwarded with the client's pages lent to the server
# (defs/proxy_pages.defs, KERNEL_USER).
kernel/device/gen/proxy_pages_user.c kernel/device/gen/proxy_pages.h: \
		$(srcdir)/defs/proxy_pages.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_USER -n \
		-user kernel/device/gen/proxy_pages_user.c \
		-header kernel/device/gen/proxy_pages.h $<

# The heartbeat to a supervised server (defs/proxy_watch.defs).
kernel/device/gen/proxy_watch_user.c kernel/device/gen/proxy_watch.h: \
		$(srcdir)/defs/proxy_watch.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_USER -n \
		-user kernel/device/gen/proxy_watch_user.c \
		-header kernel/device/gen/proxy_watch.h $<

PROXY_REPLY_RENAME = '-Ddevice_reply=KernelServer proxy_reply' \
	-Ddevice_open_reply=dpr_device_open_reply \
	-Ddevice_write_reply=dpr_device_write_reply \
	-Ddevice_write_reply_inband=dpr_device_write_reply_inband \
	-Ddevice_read_reply=dpr_device_read_reply \
	-Ddevice_read_reply_inband=dpr_device_read_reply_inband
kernel/device/gen/proxy_reply_server.c: \
		$(MACH_INCLUDE)/device/device_reply.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_SERVER \
		$(PROXY_REPLY_RENAME) -n -server $@ $<

# The reply of device_get_status (defs/device_status_reply.defs): sent
# by the kernel for a get_status it deferred (KERNEL_USER), read from a
# driver server answering a forwarded one (KERNEL_SERVER, dsr_ routines,
# demux device_status_reply_server).
kernel/device/gen/device_status_reply_user.c \
		kernel/device/gen/device_status_reply.h: \
		$(srcdir)/defs/device_status_reply.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_USER -n \
		-user kernel/device/gen/device_status_reply_user.c \
		-header kernel/device/gen/device_status_reply.h $<

kernel/device/gen/device_status_reply_server.c: \
		$(srcdir)/defs/device_status_reply.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_SERVER -n \
		-server $@ $<

kernel/device/gen/device_server.c: $(MACH_INCLUDE)/device/device.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_SERVER -n \
		-server $@ $<

kernel/device/gen/device_reply_user.c kernel/device/gen/device_reply.h: \
		$(MACH_INCLUDE)/device/device_reply.defs
	@mkdir -p kernel/device/gen
	$(AM_V_GEN)$(MIG) $(DEVICE_MIG_FLAGS) -DKERNEL_USER -n \
		-user kernel/device/gen/device_reply_user.c \
		-header kernel/device/gen/device_reply.h $<

BUILT_SOURCES += $(DEVICE_MIG_GENERATED)
CLEANFILES += $(DEVICE_MIG_GENERATED)

noinst_LIBRARIES += kernel/device/libdevice-stubs.a kernel/device/libdevice.a
nodist_kernel_device_libdevice_stubs_a_SOURCES = \
	kernel/device/gen/device_server.c kernel/device/gen/device_reply_user.c \
	kernel/device/gen/claim_server.c kernel/device/gen/proxy_server.c \
	kernel/device/gen/proxy_forward_user.c \
	kernel/device/gen/proxy_reply_server.c \
	kernel/device/gen/proxy_pages_user.c \
	kernel/device/gen/proxy_watch_user.c \
	kernel/device/gen/device_status_reply_user.c \
	kernel/device/gen/device_status_reply_server.c \
	kernel/device/gen/device_direct_server.c \
	kernel/device/gen/device_direct_reply_user.c
kernel_device_libdevice_stubs_a_CFLAGS = $(KERNEL_CFLAGS) -Wno-error \
	-Wno-unused-parameter -Wno-sign-compare -Wno-unused-variable
kernel_device_libdevice_stubs_a_CPPFLAGS = -DKERNEL \
	-I$(srcdir)/kernel/device/shim -I$(srcdir)/kernel/mig/shim \
	-I$(srcdir)/defs \
	-Ikernel/device/gen -Imach-include \
	-include $(srcdir)/kernel/kern/string.h \
	-include $(srcdir)/kernel/device/ds_mig.h
$(kernel_device_libdevice_stubs_a_OBJECTS): Makefile mach-include/.stamp

kernel_device_libdevice_a_SOURCES = kernel/device/ds_routines.c \
	kernel/device/dev_port.c kernel/device/dev_module.c \
	kernel/device/dev_error.c kernel/device/dev_info.c \
	kernel/device/io_req.c \
	kernel/device/dev_console.c kernel/device/dev_ramdisk.c \
	kernel/device/dev_intr.c kernel/device/dev_claim.c \
	kernel/device/dev_claim_isa.c kernel/device/dev_claim_legacy.c \
	kernel/device/dev_claim_direct.c kernel/device/dev_claim_reset.c \
	kernel/device/dev_proxy.c kernel/device/dev_proxy_fwd.c \
	kernel/device/dev_proxy_check.c \
	kernel/device/dev_proxy_restart.c kernel/device/dev_proxy_sums.c \
	kernel/device/dev_proxy_watch.c
kernel_device_libdevice_a_CFLAGS = $(KERNEL_CFLAGS)
kernel_device_libdevice_a_CPPFLAGS = -DKERNEL $(KERNEL_CPPFLAGS) \
	-I$(srcdir)/kernel/device/shim -I$(srcdir)/kernel/mig/shim \
	-I$(srcdir)/defs \
	-Ikernel/device/gen
$(kernel_device_libdevice_a_OBJECTS): Makefile mach-include/.stamp \
	kernel/device/gen/device_reply.h kernel/device/gen/proxy_forward.h \
	kernel/device/gen/device_status_reply.h

# The stubs call the routines and the routines call the stubs' demux:
# the routines' library is listed twice.
KERNEL_DEVICE_LIBS = kernel/device/libdevice.a \
	kernel/device/libdevice-stubs.a kernel/device/libdevice.a
