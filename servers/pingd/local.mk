# SPDX-License-Identifier: GPL-2.0-only
# servers/pingd: the ARP and ICMP echo responder (servers/pingd/README.md).
GUEST_NEWLIB_ELFS += servers/pingd/pingd.elf
servers/pingd/pingd.o: $(srcdir)/servers/pingd/pingd.c Makefile \
		$(USER_MIG_GENERATED) mach-include/.stamp
	@mkdir -p servers/pingd
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(USER_CPPFLAGS) -c -o $@ $<
CLEANFILES += servers/pingd/*.o
servers/pingd/pingd.elf: servers/pingd/pingd.o user/libgraft-user.a \
		user/libgraft-mig-user.a
	$(AM_V_CCLD)$(USER_LINK) -o $@ $< $(USER_LIBS)
