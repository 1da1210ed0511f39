# SPDX-License-Identifier: GPL-2.0-only
# make bench: every benchmark; a table on stdout and bench/results.json.

bench: kernel/graft.elf $(GUEST_ELFS)
	$(HARNESS) --bench

.PHONY: bench
