# SPDX-License-Identifier: GPL-2.0-only
# The Linux drivers of drivers-linux/*.manifest, compiled unmodified by
# Linux's own Kbuild from the tree tools/deps.sh unpacked into deps/, with
# O=linux so that the tree is only read (tools/linux_build.py).

LINUX_TREE = deps/linux-6.1
LINUX_TARBALL = deps/linux-source-6.1.tar.xz
LINUX_MANIFESTS = $(sort $(wildcard $(srcdir)/drivers-linux/*.manifest))

linux/build.stamp: $(srcdir)/tools/linux_build.py \
		$(srcdir)/linux-emu/graft.config $(LINUX_MANIFESTS)
	@echo "  KBUILD   $(notdir $(basename $(LINUX_MANIFESTS)))"
	$(AM_V_at)$(PYTHON3) $(srcdir)/tools/linux_build.py \
		--src $(LINUX_TREE) --tarball $(LINUX_TARBALL) --out linux \
		--fragment $(srcdir)/linux-emu/graft.config $(LINUX_MANIFESTS)

all-local: linux/build.stamp
check-local: linux/build.stamp

clean-local: clean-linux
clean-linux:
	rm -rf linux
.PHONY: clean-linux
