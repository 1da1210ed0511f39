# SPDX-License-Identifier: GPL-2.0-only
# The user runtime: newlib system calls, Mach traps, mach_msg, MIG support,
# and MIG user stubs generated from gnumach-dev's .defs.
#
# MIG preprocesses with "gcc -E -undef -ansi": without -D__x86_64__ the
# .defs describe 32-bit vm_address_t and vm_size_t.

MIG_FLAGS = -D__x86_64__ -I$(MACH_INCLUDE)
NEWLIB = deps/newlib/x86_64-elf
#
# time_value_t (mach_host.defs): Debian's mig 1.8+git20221221 sends it as
# 3 x 32 bits (int64 seconds, int32 microseconds), while C lays
# gnumach-dev's struct time_value out in 16 bytes, so the stubs of
# host_get_time / host_set_time / host_adjust_time would fail their own
# static asserts.  mach_host's stubs alone are compiled with time_value_t
# packed to the wire's 12 bytes (kernel/mig/shim/graft_time_value.h, as
# the kernel's); programs keep the 16-byte C layout, which task_info and
# thread_info records need (docs/mach-interfaces.md, "time_value_t").

user/mig/%_user.c user/mig/%.h: $(MACH_INCLUDE)/mach/%.defs
	@mkdir -p user/mig
	$(AM_V_GEN)$(MIG) $(MIG_FLAGS) -n -user user/mig/$*_user.c \
		-header user/mig/$*.h $<

# mach_i386.defs lives in the machine folder.
user/mig/mach_i386_user.c user/mig/mach_i386.h: \
		$(MACH_INCLUDE)/mach/x86_64/mach_i386.defs
	@mkdir -p user/mig
	$(AM_V_GEN)$(MIG) $(MIG_FLAGS) -n -user user/mig/mach_i386_user.c \
		-header user/mig/mach_i386.h $<

# mach.defs's header is mach_interface.h, as glibc names it.
user/mig/mach_interface.h: user/mig/mach.h
	$(AM_V_GEN)cp $< $@

# device.defs and its asynchronous halves: headers under user/mig/device/
# so that programs include <device/device.h> as with glibc; the replies
# of device_request.defs come back as device_reply.defs messages, which a
# client demultiplexes with the server side of device_reply.defs.
user/mig/device/%_user.c user/mig/device/%.h: $(MACH_INCLUDE)/device/%.defs
	@mkdir -p user/mig/device
	$(AM_V_GEN)$(MIG) $(MIG_FLAGS) -n -user user/mig/device/$*_user.c \
		-header user/mig/device/$*.h $<

user/mig/device/device_reply_server.c user/mig/device/device_reply_server.h: \
		$(MACH_INCLUDE)/device/device_reply.defs
	@mkdir -p user/mig/device
	$(AM_V_GEN)$(MIG) $(MIG_FLAGS) -n -server \
		user/mig/device/device_reply_server.c \
		-sheader user/mig/device/device_reply_server.h -user /dev/null \
		-header /dev/null $<

# device.defs's server side, for a task serving devices (a driver
# server, tests/user/proxy_server.c): its routines are the program's
# ds_device_*; device_server.h declares them.
user/mig/device/device_server.c user/mig/device/device_server.h: \
		$(MACH_INCLUDE)/device/device.defs
	@mkdir -p user/mig/device
	$(AM_V_GEN)$(MIG) $(MIG_FLAGS) -n -server \
		user/mig/device/device_server.c \
		-sheader user/mig/device/device_server.h -user /dev/null \
		-header /dev/null $<

# Graft's own interfaces (defs/): headers under user/mig/graft/.
user/mig/graft/%_user.c user/mig/graft/%.h: $(srcdir)/defs/%.defs
	@mkdir -p user/mig/graft
	$(AM_V_GEN)$(MIG) $(MIG_FLAGS) -n -user user/mig/graft/$*_user.c \
		-header user/mig/graft/$*.h $<

# proxy_pages.defs's server side, for a driver server (servers/lxdrv):
# its routines are the program's lp_proxy_*_pages.
user/mig/graft/proxy_pages_server.c user/mig/graft/proxy_pages_server.h: \
		$(srcdir)/defs/proxy_pages.defs
	@mkdir -p user/mig/graft
	$(AM_V_GEN)$(MIG) $(MIG_FLAGS) -n -server \
		user/mig/graft/proxy_pages_server.c \
		-sheader user/mig/graft/proxy_pages_server.h -user /dev/null \
		-header /dev/null $<

# proxy_watch.defs's server side (the heartbeat), for a driver server.
user/mig/graft/proxy_watch_server.c user/mig/graft/proxy_watch_server.h: \
		$(srcdir)/defs/proxy_watch.defs
	@mkdir -p user/mig/graft
	$(AM_V_GEN)$(MIG) $(MIG_FLAGS) -n -server \
		user/mig/graft/proxy_watch_server.c \
		-sheader user/mig/graft/proxy_watch_server.h -user /dev/null \
		-header /dev/null $<

# exc.defs's server side, for a task serving its exception port (a
# driver server, tests/user/task_probe.c): its routine is the program's
# catch_exception_raise.
user/mig/exc_server.c user/mig/exc_server.h: $(MACH_INCLUDE)/mach/exc.defs
	@mkdir -p user/mig
	$(AM_V_GEN)$(MIG) $(MIG_FLAGS) -n -server user/mig/exc_server.c \
		-sheader user/mig/exc_server.h -user /dev/null \
		-header /dev/null $<

USER_MIG_GENERATED = user/mig/mach_user.c user/mig/mach.h \
	user/mig/mach_interface.h user/mig/mach_port_user.c user/mig/mach_port.h \
	user/mig/gnumach_user.c user/mig/gnumach.h \
	user/mig/device/device_user.c user/mig/device/device.h \
	user/mig/device/device_request_user.c user/mig/device/device_request.h \
	user/mig/device/device_reply_server.c \
	user/mig/device/device_reply_server.h \
	user/mig/device/device_reply_user.c user/mig/device/device_reply.h \
	user/mig/device/device_server.c user/mig/device/device_server.h \
	user/mig/mach_host_user.c user/mig/mach_host.h \
	user/mig/mach_i386_user.c user/mig/mach_i386.h \
	user/mig/graft/claim_user.c user/mig/graft/claim.h \
	user/mig/graft/device_direct_user.c user/mig/graft/device_direct.h \
	user/mig/graft/proxy_user.c user/mig/graft/proxy.h \
	user/mig/graft/proxy_pages_server.c user/mig/graft/proxy_pages_server.h \
	user/mig/graft/proxy_watch_server.c user/mig/graft/proxy_watch_server.h \
	user/mig/exc_server.c user/mig/exc_server.h
BUILT_SOURCES += $(USER_MIG_GENERATED)
CLEANFILES += $(USER_MIG_GENERATED)

USER_CFLAGS = -std=gnu11 -O2 -g -nostdinc -isystem $(NEWLIB)/include \
	-isystem $(GCC_INCLUDE) -fno-pie -fno-stack-protector \
	-fcf-protection=none -Wall -Wextra -Werror
USER_CPPFLAGS = -I$(srcdir)/user/include -Iuser/mig -Imach-include \
	-I$(srcdir)/defs

noinst_LIBRARIES += user/libgraft-user.a user/libgraft-mig-user.a \
	user/libgraft-mig-host.a
user_libgraft_user_a_SOURCES = user/crt0.S user/traps.S user/start.c \
	user/args.c user/mach_msg.c user/mig_support.c user/syscalls.c \
	user/task_self.c user/exc_serve.c \
	user/device_unserved.c user/net.c
user_libgraft_user_a_CFLAGS = $(USER_CFLAGS)
user_libgraft_user_a_CCASFLAGS = $(USER_CFLAGS)
user_libgraft_user_a_CPPFLAGS = $(USER_CPPFLAGS)
$(user_libgraft_user_a_OBJECTS): Makefile mach-include/.stamp \
	$(USER_MIG_GENERATED)

# MIG's output as it comes: it expects <string.h> included for it.
nodist_user_libgraft_mig_user_a_SOURCES = user/mig/mach_user.c \
	user/mig/mach_port_user.c user/mig/gnumach_user.c \
	user/mig/device/device_user.c user/mig/device/device_request_user.c \
	user/mig/device/device_reply_server.c \
	user/mig/device/device_reply_user.c user/mig/device/device_server.c \
	user/mig/mach_i386_user.c user/mig/graft/claim_user.c \
	user/mig/graft/device_direct_user.c user/mig/graft/proxy_user.c \
	user/mig/graft/proxy_pages_server.c \
	user/mig/graft/proxy_watch_server.c user/mig/exc_server.c
user_libgraft_mig_user_a_CFLAGS = $(USER_CFLAGS) -include string.h \
	-Wno-sign-compare -Wno-unused-parameter
user_libgraft_mig_user_a_CPPFLAGS = $(USER_CPPFLAGS)
$(user_libgraft_mig_user_a_OBJECTS): Makefile mach-include/.stamp

# mach_host.defs's stubs, with time_value_t as the wire has it (above); a
# program calling them links user/libgraft-mig-host.a before $(USER_LIBS).
nodist_user_libgraft_mig_host_a_SOURCES = user/mig/mach_host_user.c
user_libgraft_mig_host_a_CFLAGS = $(user_libgraft_mig_user_a_CFLAGS)
user_libgraft_mig_host_a_CPPFLAGS = $(USER_CPPFLAGS) \
	-include $(srcdir)/kernel/mig/shim/graft_time_value.h
$(user_libgraft_mig_host_a_OBJECTS): Makefile mach-include/.stamp

# Linking a guest program: its objects, the runtime, newlib, libgcc.
USER_LINK = $(CC) -static -nostdlib -no-pie -Wl,-Ttext-segment=0x400000 \
	-Wl,--build-id=none -Wl,-u,_start -Wl,-e,_start -Wl,--no-warn-execstack
USER_LIBS = -Wl,--start-group user/libgraft-user.a \
	user/libgraft-mig-user.a $(NEWLIB)/lib/libc.a \
	-lgcc -Wl,--end-group
