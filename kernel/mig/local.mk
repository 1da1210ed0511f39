# SPDX-License-Identifier: GPL-2.0-only
# The kernel's MIG server: stubs generated from gnumach-dev's .defs with
# KERNEL_SERVER, the glue that implements their routines, and generated
# definitions for the routines not served (they answer KERN_FAILURE).
#
# Both libraries are built with -DKERNEL, so that mach_port_t is 8 bytes as
# in kernel-layout messages (kernel/ipc/ipc_kmsg.h).  The stubs see only
# kernel/mig/shim/; the glue sees Graft's headers and then the shim.

KERNEL_MIG_DEFS = mach mach_port gnumach mach_host mach_i386
KERNEL_MIG_FLAGS = -D__x86_64__ -DKERNEL -DKERNEL_SERVER -DSERVERPREFIX=mig_ \
	-I$(MACH_INCLUDE)
KERNEL_MIG_GENERATED = kernel/mig/gen/mach_server.c \
	kernel/mig/gen/mach_port_server.c kernel/mig/gen/gnumach_server.c \
	kernel/mig/gen/mach_host_server.c kernel/mig/gen/mach_i386_server.c \
	kernel/mig/gen/exc_user.c

kernel/mig/gen/%_server.c: $(MACH_INCLUDE)/mach/%.defs
	@mkdir -p kernel/mig/gen
	$(AM_V_GEN)$(MIG) $(KERNEL_MIG_FLAGS) -n -server $@ $<

# mach_i386.defs lives in the machine folder.
kernel/mig/gen/mach_i386_server.c: $(MACH_INCLUDE)/mach/x86_64/mach_i386.defs
	@mkdir -p kernel/mig/gen
	$(AM_V_GEN)$(MIG) $(KERNEL_MIG_FLAGS) -n -server $@ $<

# The exception a user thread raises to its task's exception port
# (kern/exception.c): exc.defs's KERNEL_USER stub, which calls
# mach_msg_rpc_from_kernel (kern/kernel_rpc.h).
kernel/mig/gen/exc_user.c: $(MACH_INCLUDE)/mach/exc.defs
	@mkdir -p kernel/mig/gen
	$(AM_V_GEN)$(MIG) -D__x86_64__ -DKERNEL -DKERNEL_USER \
		-I$(MACH_INCLUDE) -n -user $@ -header kernel/mig/gen/exc.h $<

BUILT_SOURCES += $(KERNEL_MIG_GENERATED)
CLEANFILES += $(KERNEL_MIG_GENERATED)

noinst_LIBRARIES += kernel/mig/libmig-stubs.a kernel/mig/libmig-glue.a
nodist_kernel_mig_libmig_stubs_a_SOURCES = $(KERNEL_MIG_GENERATED)
kernel_mig_libmig_stubs_a_CFLAGS = $(KERNEL_CFLAGS) -Wno-error \
	-Wno-unused-parameter -Wno-sign-compare -Wno-unused-variable
kernel_mig_libmig_stubs_a_CPPFLAGS = -DKERNEL -I$(srcdir)/kernel/mig/shim \
	-Imach-include -include $(srcdir)/kernel/kern/string.h \
	-include $(srcdir)/kernel/mig/shim/graft_time_value.h \
	-include $(srcdir)/kernel/mig/shim/graft_mig.h
$(kernel_mig_libmig_stubs_a_OBJECTS): Makefile mach-include/.stamp

kernel_mig_libmig_glue_a_SOURCES = kernel/mig/mig_server.c \
	kernel/mig/mig_convert.c kernel/mig/mig_task.c kernel/mig/mig_port.c \
	kernel/mig/mig_host.c kernel/mig/mig_i386.c kernel/mig/mig_vm.c \
	kernel/mig/mig_port_arrays.c kernel/mig/mig_thread.c
kernel_mig_libmig_glue_a_CFLAGS = $(KERNEL_CFLAGS)
kernel_mig_libmig_glue_a_CPPFLAGS = -DKERNEL $(KERNEL_CPPFLAGS) \
	-I$(srcdir)/kernel/mig/shim
$(kernel_mig_libmig_glue_a_OBJECTS): Makefile mach-include/.stamp

kernel/mig/not_served.c kernel/mig/not_served.txt: kernel/mig/libmig-stubs.a \
		kernel/mig/libmig-glue.a $(srcdir)/tools/gen_mig_not_served.py
	$(AM_V_GEN)$(PYTHON3) $(srcdir)/tools/gen_mig_not_served.py $(NM) \
		kernel/mig/not_served.c kernel/mig/not_served.txt \
		kernel/mig/libmig-stubs.a kernel/mig/libmig-glue.a

kernel/mig/not_served.o: kernel/mig/not_served.c
	$(AM_V_CC)$(CC) $(KERNEL_CFLAGS) -Imach-include -c -o $@ $<

# The glue calls the stubs' demux and the stubs call the glue's routines:
# the glue library is listed twice.
KERNEL_MIG_LIBS = kernel/mig/not_served.o kernel/mig/libmig-glue.a \
	kernel/mig/libmig-stubs.a kernel/mig/libmig-glue.a
CLEANFILES += kernel/mig/not_served.c kernel/mig/not_served.txt \
	kernel/mig/not_served.o
