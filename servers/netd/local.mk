# SPDX-License-Identifier: GPL-2.0-only
# servers/netd: lwIP as a Mach network server (servers/netd/README.md).
#
# lwIP's C files are compiled as they come from the crate's tree in
# deps/lwip/src (tools/deps.sh) with netd's lwipopts.h and arch/cc.h;
# they are never copied into the source tree.  netd.defs gives netd its
# server stubs and clients their user stubs; netd_reply.defs gives netd
# the user stubs of its late answers.

LWIP_SRC = deps/lwip/src
NETD_LWIP_FILES = core/init.c core/def.c core/inet_chksum.c core/ip.c \
	core/mem.c core/memp.c core/netif.c core/pbuf.c core/raw.c \
	core/stats.c core/sys.c core/tcp.c core/tcp_in.c core/tcp_out.c \
	core/timeouts.c core/udp.c core/altcp.c core/altcp_alloc.c \
	core/altcp_tcp.c core/ipv4/acd.c core/ipv4/autoip.c \
	core/ipv4/dhcp.c core/ipv4/etharp.c core/ipv4/icmp.c \
	core/ipv4/igmp.c core/ipv4/ip4.c core/ipv4/ip4_addr.c \
	core/ipv4/ip4_frag.c core/ipv6/ethip6.c core/ipv6/icmp6.c \
	core/ipv6/inet6.c core/ipv6/ip6.c core/ipv6/ip6_addr.c \
	core/ipv6/ip6_frag.c core/ipv6/mld6.c core/ipv6/nd6.c \
	core/ipv6/dhcp6.c netif/ethernet.c apps/http/httpd.c \
	apps/http/fs.c apps/lwiperf/lwiperf.c
NETD_LWIP_OBJS = $(patsubst %.c,servers/netd/lwip/%.o,$(NETD_LWIP_FILES))
NETD_OBJS = servers/netd/netd.o servers/netd/netif.o servers/netd/chksum.o \
	servers/netd/services.o servers/netd/status.o servers/netd/rpc.o \
	servers/netd/spawn.o servers/netd/netd_server.o \
	servers/netd/netd_reply_user.o
NETD_MIG = servers/netd/netd_server.c servers/netd/netd_server.h \
	servers/netd/netd_user.c servers/netd/netd_user.h \
	servers/netd/netd_reply_user.c servers/netd/netd_reply.h

NETD_CPPFLAGS = $(USER_CPPFLAGS) -I$(srcdir)/servers/netd -Iservers/netd \
	-I$(LWIP_SRC)/include
NETD_LWIP_CFLAGS = -std=gnu11 -O2 -g -nostdinc -isystem $(NEWLIB)/include \
	-isystem $(GCC_INCLUDE) -fno-pie -fno-stack-protector \
	-fcf-protection=none -Wall -Wno-address
NETD_H = $(wildcard $(srcdir)/servers/netd/*.h $(srcdir)/servers/netd/arch/*.h)

servers/netd/netd_server.c servers/netd/netd_server.h \
servers/netd/netd_user.c servers/netd/netd_user.h: \
		$(srcdir)/servers/netd/netd.defs mach-include/.stamp
	@mkdir -p servers/netd
	$(AM_V_GEN)$(MIG) $(MIG_FLAGS) -n -server servers/netd/netd_server.c \
		-sheader servers/netd/netd_server.h \
		-user servers/netd/netd_user.c \
		-header servers/netd/netd_user.h $<
servers/netd/netd_reply_user.c servers/netd/netd_reply.h: \
		$(srcdir)/servers/netd/netd_reply.defs mach-include/.stamp
	@mkdir -p servers/netd
	$(AM_V_GEN)$(MIG) $(MIG_FLAGS) -n -user servers/netd/netd_reply_user.c \
		-header servers/netd/netd_reply.h -server /dev/null \
		-sheader /dev/null $<

servers/netd/lwip/%.o: $(LWIP_SRC)/%.c $(NETD_H) Makefile
	@mkdir -p $(@D)
	$(AM_V_CC)$(CC) $(NETD_LWIP_CFLAGS) $(NETD_CPPFLAGS) -c -o $@ $<

# MIG's output as it comes, like user/libgraft-mig-user.a's.
servers/netd/netd_%.o: servers/netd/netd_%.c $(NETD_MIG) Makefile
	$(AM_V_CC)$(CC) $(USER_CFLAGS) -include string.h -Wno-sign-compare \
		-Wno-unused-parameter $(NETD_CPPFLAGS) -c -o $@ $<

servers/netd/%.o: $(srcdir)/servers/netd/%.c $(NETD_H) $(NETD_MIG) \
		$(USER_MIG_GENERATED) mach-include/.stamp Makefile
	@mkdir -p servers/netd
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(NETD_CPPFLAGS) -c -o $@ $<

GUEST_NEWLIB_ELFS += servers/netd/netd.elf
servers/netd/netd.elf: $(NETD_OBJS) $(NETD_LWIP_OBJS) \
		user/libgraft-user.a user/libgraft-mig-user.a \
		user/libgraft-mig-host.a
	$(AM_V_CCLD)$(USER_LINK) -o $@ $(NETD_OBJS) $(NETD_LWIP_OBJS) \
		user/libgraft-mig-host.a $(USER_LIBS)

# The test client of netd.defs (tests/user/netd_client.c).
GUEST_NEWLIB_ELFS += tests/user/netd_client.elf
tests/user/netd_client.o: $(srcdir)/tests/user/netd_client.c $(NETD_MIG) \
		$(USER_MIG_GENERATED) mach-include/.stamp Makefile
	@mkdir -p tests/user
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(USER_CPPFLAGS) -Iservers/netd \
		-I$(srcdir)/servers/netd -c -o $@ $<
tests/user/netd_client.elf: tests/user/netd_client.o \
		servers/netd/netd_user.o user/libgraft-user.a \
		user/libgraft-mig-user.a
	$(AM_V_CCLD)$(USER_LINK) -o $@ tests/user/netd_client.o \
		servers/netd/netd_user.o $(USER_LIBS)

CLEANFILES += $(NETD_MIG) servers/netd/*.o servers/netd/netd.elf
EXTRA_DIST += servers/netd/netd.defs servers/netd/netd_reply.defs
