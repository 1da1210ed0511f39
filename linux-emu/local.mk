# SPDX-License-Identifier: GPL-2.0-only
# The Linux drivers of drivers-linux/*.manifest, compiled unmodified by
# Linux's own Kbuild from the tree tools/deps.sh unpacked into deps/, with
# O=linux so that the tree is only read (tools/linux_build.py).

LINUX_TREE = deps/linux-6.1
LINUX_TARBALL = deps/linux-source-6.1.tar.xz
LINUX_DRIVER_MANIFESTS = $(sort $(wildcard $(srcdir)/drivers-linux/*.manifest))
LINUX_SHARED_MANIFESTS = $(sort $(wildcard $(srcdir)/drivers-linux/shared/*.manifest))
LINUX_MANIFESTS = $(LINUX_DRIVER_MANIFESTS) $(LINUX_SHARED_MANIFESTS) \
	$(srcdir)/linux-emu/library.manifest
LINUX_DRIVERS = $(notdir $(basename $(LINUX_DRIVER_MANIFESTS)))

# Out-of-tree drivers (docs/porting-a-driver.md): each folder holding a
# NAME.manifest and its .c/.h files, in drivers-linux/local/ and in
# LINUX_LOCAL: absolute paths of driver folders or of folders of them
# (make LINUX_LOCAL=/path/to/dir).  tests/drivers/ holds the test
# vehicles, linked into linux-test.o only.  linux/drivers.list changes
# when the set of manifests or local folders does, so that adding or
# removing a driver, in-tree or local, reconfigures and relinks.
LINUX_LOCAL_FOUND = $(sort $(wildcard \
	$(srcdir)/drivers-linux/local/*/*.manifest \
	$(foreach d,$(LINUX_LOCAL),$(d)/*.manifest $(d)/*/*.manifest)))
LINUX_LOCAL_DIRS = $(patsubst %/,%,$(dir $(LINUX_LOCAL_FOUND)))
LINUX_LOCAL_FILES = $(foreach d,$(LINUX_LOCAL_DIRS),$(wildcard $(d)/*.[ch]))
LINUX_TEST_LOCAL_FOUND = $(sort $(wildcard $(srcdir)/tests/drivers/*/*.manifest))
LINUX_TEST_LOCAL_DIRS = $(patsubst %/,%,$(dir $(LINUX_TEST_LOCAL_FOUND)))
LINUX_TEST_LOCAL_FILES = \
	$(foreach d,$(LINUX_TEST_LOCAL_DIRS),$(wildcard $(d)/*.[ch]))

LINUX_DRIVERS_LIST = $(LINUX_MANIFESTS) $(LINUX_LOCAL_DIRS) \
	$(LINUX_TEST_LOCAL_DIRS)
linux/drivers.list: FORCE-LINUX-LOCAL
	@mkdir -p linux
	@echo '$(LINUX_DRIVERS_LIST)' | cmp -s - $@ || \
		echo '$(LINUX_DRIVERS_LIST)' > $@
FORCE-LINUX-LOCAL:
.PHONY: FORCE-LINUX-LOCAL

linux/build.stamp: $(srcdir)/tools/linux_build.py \
		$(srcdir)/linux-emu/graft.config $(LINUX_MANIFESTS) \
		linux/drivers.list $(LINUX_LOCAL_FOUND) $(LINUX_TEST_LOCAL_FOUND)
	@echo "  KBUILD   $(notdir $(basename $(LINUX_MANIFESTS)))"
	$(AM_V_at)$(PYTHON3) $(srcdir)/tools/linux_build.py \
		--src $(LINUX_TREE) --tarball $(LINUX_TARBALL) --out linux \
		--fragment $(srcdir)/linux-emu/graft.config \
		--local $(LINUX_LOCAL_FOUND) $(LINUX_TEST_LOCAL_FOUND) \
		-- $(LINUX_MANIFESTS)

# Two objects, each the Linux world linked whole by tools/linux_link.py
# with all but its listed exports made local.  linux/linux.o, the
# production one: linux-emu's own C, the library and the drivers,
# exporting linux-emu/exports.list (unlinked.txt and stubs.txt in
# linux/).  linux/linux-test.o, which the kernel image links: the same
# plus the checks of tests/linux-emu/ and the drivers of tests/drivers/,
# exporting tests/linux-emu/exports.list too (its reports in
# linux/link/linux-test/).  It is linked after linux.o, whose compiled
# objects it reuses.
LX_EMU_C_FILES = $(sort $(wildcard $(srcdir)/linux-emu/*.c))
LX_EMU_H_FILES = $(wildcard $(srcdir)/linux-emu/include/*.h) \
	$(wildcard $(srcdir)/linux-emu/*.h)
LX_TEST_C_FILES = $(sort $(wildcard $(srcdir)/tests/linux-emu/*.c))
LX_TEST_H_FILES = $(wildcard $(srcdir)/tests/linux-emu/*.h)
LX_EXPORTS = $(srcdir)/linux-emu/exports.list
LX_TEST_EXPORTS = $(srcdir)/tests/linux-emu/exports.list
LX_LINK = $(PYTHON3) $(srcdir)/tools/linux_link.py --build linux \
	--include $(srcdir)/linux-emu/include --library library \
	--drivers $(LINUX_DRIVERS)

linux/linux.o: linux/build.stamp $(srcdir)/tools/linux_link.py \
		$(srcdir)/tools/linux_graph.py $(LX_EMU_C_FILES) $(LX_EMU_H_FILES) linux/drivers.list \
		$(LINUX_LOCAL_FILES) $(LX_EXPORTS)
	@echo "  LXLINK   $@"
	$(AM_V_at)$(LX_LINK) --out $@ --reports linux \
		--emu $(LX_EMU_C_FILES) --local $(LINUX_LOCAL_DIRS) \
		--exports $(LX_EXPORTS)

linux/linux-test.o: linux/linux.o $(LX_TEST_C_FILES) $(LX_TEST_H_FILES) \
		$(LINUX_TEST_LOCAL_FILES) $(LX_TEST_EXPORTS)
	@echo "  LXLINK   $@"
	$(AM_V_at)$(LX_LINK) --out $@ \
		--emu $(LX_EMU_C_FILES) $(LX_TEST_C_FILES) \
		--local $(LINUX_LOCAL_DIRS) $(LINUX_TEST_LOCAL_DIRS) \
		--exports $(LX_EXPORTS) $(LX_TEST_EXPORTS)

all-local: linux/build.stamp linux/linux.o
check-local: linux/build.stamp

clean-local: clean-linux
clean-linux:
	rm -rf linux
.PHONY: clean-linux

# make coverage (never part of make check): every driver Kconfig can
# select on x86_64 under drivers/net/ethernet, drivers/ata and the PCI
# SCSI host adapters, configured in linux-coverage/ (not linux/), compiled
# and resolved against linux.o's world by tools/linux_coverage.py:
# linux/coverage.tsv, and the totals in docs/coverage.md.
coverage: linux/linux.o
	$(AM_V_at)$(PYTHON3) $(srcdir)/tools/linux_coverage.py \
		--src $(LINUX_TREE) --build linux --out linux-coverage \
		--fragment $(srcdir)/linux-emu/graft.config \
		--manifests $(srcdir)/drivers-linux --doc $(srcdir)/docs/coverage.md
.PHONY: coverage
clean-local: clean-linux-coverage
clean-linux-coverage:
	rm -rf linux-coverage
.PHONY: clean-linux-coverage
