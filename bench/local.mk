# SPDX-License-Identifier: GPL-2.0-only
# make bench [SUITES=a,b]: Graft's benchmarks (run.py --bench; SUITES
# names some of them), then native Linux 6.1
# beside them on the same QEMU machine (bench/native/compare.py), then
# the report (tools/bench_report.py): build/bench/results.json,
# build/bench/report.md and its plots.

NATIVE = bench/native
BENCH_ROUNDS = 5
# Debian's interpreter: python3-matplotlib is installed for it.
DEBIAN_PYTHON3 = /usr/bin/python3

# Our programs inside native Linux: static, built on the host.
$(NATIVE)/lxbench: $(srcdir)/bench/native/lxbench.c \
		$(srcdir)/tests/user/user_bench.h $(srcdir)/tests/user/test_frame.h
	@mkdir -p $(NATIVE)
	$(AM_V_CCLD)$(CC) -static -O2 -Wall -Wextra -Werror \
		-I$(srcdir)/tests/user -o $@ $<

# Debian's kernel and modules (tools/deps.sh), busybox, our /init.
$(NATIVE)/initramfs.cpio: $(NATIVE)/lxbench $(srcdir)/bench/native/init \
		$(srcdir)/tools/linux_baseline.py deps/linux-image/.graft-version
	$(AM_V_GEN)$(PYTHON3) $(srcdir)/tools/linux_baseline.py \
		--image deps/linux-image --init $(srcdir)/bench/native/init \
		--program $(NATIVE)/lxbench --out $@

CLEANFILES += $(NATIVE)/lxbench $(NATIVE)/initramfs.cpio $(NATIVE)/vmlinuz

bench: kernel/graft.elf $(GUEST_ELFS) $(NATIVE)/initramfs.cpio
	$(HARNESS) --bench $(if $(SUITES),--suites $(SUITES))
	$(PYTHON3) $(srcdir)/bench/native/compare.py \
		--build-dir $(abs_builddir) --rounds $(BENCH_ROUNDS) \
		--qemu "$${GRAFT_QEMU:-qemu-system-x86_64}"
	$(DEBIAN_PYTHON3) $(srcdir)/tools/bench_report.py $(abs_builddir)/bench

.PHONY: bench

# make profile BENCH=NAME: a benchmark's client alone under QEMU's
# instruction log, instructions per symbol (tools/bench_profile.py).
profile: kernel/graft.elf $(GUEST_ELFS) $(NATIVE)/initramfs.cpio
	$(PYTHON3) $(srcdir)/tools/bench_profile.py \
		--build-dir $(abs_builddir) --bench "$(BENCH)"

.PHONY: profile

# The driver server's bench build (bench/lxdrv_bench.c): lxdrv's objects
# and linux.o, as servers/lxdrv/lxdrv.elf, with the recorder of the
# server.*.glue samples, whose __wrap_main sets lxdrv's hook.  The
# bench-server boots start it instead of lxdrv.elf.
GUEST_NEWLIB_ELFS += bench/lxdrv_bench.elf
bench/lxdrv_bench.o: $(srcdir)/bench/lxdrv_bench.c $(LXDRV_H) \
		$(srcdir)/tests/user/user_bench.h Makefile \
		$(USER_MIG_GENERATED) mach-include/.stamp
	@mkdir -p bench
	$(AM_V_CC)$(CC) $(USER_CFLAGS) $(LXDRV_CPPFLAGS) -c -o $@ $<
bench/lxdrv_bench.elf: $(LXDRV_LINK_INPUTS) linux/linux.o bench/lxdrv_bench.o
	$(AM_V_CCLD)$(call LXDRV_LINK,linux/linux.o bench/lxdrv_bench.o \
		-Xlinker --wrap=main)
CLEANFILES += bench/lxdrv_bench.o bench/lxdrv_bench.map
