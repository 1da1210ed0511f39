# SPDX-License-Identifier: GPL-2.0-only
# servers/pktgen: the transmit generator (docs/pktgen.md).
GUEST_NEWLIB_ELFS += servers/pktgen/pktgen.elf
PKTGEN_OBJS = servers/pktgen/pktgen.o servers/pktgen/pktgen_config.o \
	servers/pktgen/pktgen_result.o
servers/pktgen/%.o: $(srcdir)/servers/pktgen/%.c \
		$(srcdir)/servers/pktgen/pktgen.h Makefile \
		$(USER_MIG_GENERATED) mach-include/.stamp
	@mkdir -p servers/pktgen
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(USER_CPPFLAGS) -c -o $@ $<
CLEANFILES += servers/pktgen/*.o
# host_get_time (mach_host.defs) times the runs.
servers/pktgen/pktgen.elf: $(PKTGEN_OBJS) user/libgraft-user.a \
		user/libgraft-mig-user.a user/libgraft-mig-host.a
	$(AM_V_CCLD)$(USER_LINK) -o $@ $(PKTGEN_OBJS) \
		user/libgraft-mig-host.a $(USER_LIBS)
