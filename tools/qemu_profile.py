#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Instruction profile of a QEMU TCG run, by symbol.

Usage: qemu_profile.py LOG ELF [ELF...]

LOG comes from QEMU run with "-d in_asm,exec,nochain -D LOG" (use -icount
for a deterministic run; the log grows by about 1 GB per 10 million
translated-block executions, so keep the run short).  Every "Trace" line is
one execution of a translated block; its instructions (from the block's
IN: listing) are charged to the symbol of the block's start address, taken
from the ELF files' text symbols (the kernel first, then user programs;
programs linked at the same address share their symbols).  Prints the 40
most expensive symbols with their share.
"""
import bisect
import collections
import re
import subprocess
import sys

IN_LINE = re.compile(r"^0x([0-9a-f]+):")


def block_sizes_and_counts(log):
    """Return (instructions per block start, executions per block start)."""
    sizes, runs = {}, collections.Counter()
    start, n = None, 0
    with open(log, errors="replace") as f:
        for line in f:
            if line.startswith("IN:"):
                start, n = None, 0
                continue
            m = IN_LINE.match(line)
            if m:
                if start is None:
                    start = int(m.group(1), 16)
                n += 1
                sizes[start] = n
            elif line.startswith("Trace"):
                runs[int(line.split("/")[1], 16)] += 1
    return sizes, runs


def text_symbols(elfs):
    syms = []
    for elf in elfs:
        out = subprocess.run(["nm", "-n", elf], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "Tt":
                syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    return syms


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    sizes, runs = block_sizes_and_counts(argv[1])
    syms = text_symbols(argv[2:])
    addrs = [a for a, _ in syms]
    by = collections.Counter()
    for pc, count in runs.items():
        i = bisect.bisect_right(addrs, pc) - 1
        by[syms[i][1] if i >= 0 else "?"] += count * sizes.get(pc, 0)
    total = sum(by.values()) or 1
    for name, n in by.most_common(40):
        print(f"{n:>12} {100 * n / total:5.1f}%  {name}")
    print(f"{total:>12} instructions in all")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
