#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Instruction profile of a QEMU TCG run, by symbol.

Usage: qemu_profile.py [--calls SYM:FROM:TO] [--top N] LOG ELF [ELF...]

An ELF named *.map is a symbol list in nm's form instead
(tools/native_profile.py writes one for native Linux).

LOG comes from QEMU run with "-d in_asm,exec,nochain -D LOG" (use -icount
for a deterministic run; the log grows by about 1 GB per 10 million
translated-block executions, so keep the run short).  Every "Trace" line is
one execution of a translated block; its instructions (from the block's
IN: listing) are charged to the symbol of the block's start address, taken
from the ELF files' text symbols (the kernel first, then user programs;
programs linked at the same address share their symbols).  Prints the
most expensive symbols with their share.

--calls SYM:FROM:TO counts only what runs from the FROM-th to the TO-th
entry into SYM (a block starting at its address; counted from 1; of
the last ELF that has SYM, so user programs win over the kernel) and
prints instructions per call, i.e. divided by TO - FROM.  For the RPC
benchmarks (rpc_client bench=300): "--calls rpc:100:250" is one
rpc.user-user round trip, "--calls mach_port_type:50:250" one
rpc.user-kernel round trip.
"""
import argparse
import bisect
import collections
import re
import subprocess
import sys

IN_LINE = re.compile(r"^0x([0-9a-f]+):")


def block_sizes_and_counts(log, window=None):
    """Return (instructions per block start, executions per block start).

    With window = (pc, first, last), only executions from the first-th to
    the last-th run of the block at pc (exclusive) are counted."""
    sizes, runs = {}, collections.Counter()
    start, n = None, 0
    hits = 0
    counting = window is None
    with open(log, errors="replace") as f:
        for line in f:
            if line.startswith("Trace"):
                pc = int(line.split("/")[1], 16)
                if window is not None and pc == window[0]:
                    hits += 1
                    counting = window[1] <= hits < window[2]
                    if hits >= window[2]:
                        break
                if counting:
                    runs[pc] += 1
                continue
            if line.startswith("IN:"):
                start, n = None, 0
                continue
            m = IN_LINE.match(line)
            if m:
                if start is None:
                    start = int(m.group(1), 16)
                n += 1
                sizes[start] = n
    if window is not None and hits < window[2]:
        sys.exit(f"qemu_profile: the window's symbol ran {hits} times, "
                 f"fewer than {window[2]}")
    return sizes, runs


def text_symbols(elfs):
    """Return [(address, name, index of the ELF)], sorted by address.
    A file named *.map is read as nm's output ("address type name")."""
    syms = []
    for k, elf in enumerate(elfs):
        if elf.endswith(".map"):
            with open(elf) as f:
                out = f.read()
        else:
            out = subprocess.run(["nm", "-n", elf], check=True,
                                 capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "Tt":
                syms.append((int(parts[0], 16), parts[2], k))
    syms.sort()
    return syms


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", metavar="SYM:FROM:TO")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("log")
    ap.add_argument("elf", nargs="+")
    args = ap.parse_args(argv[1:])
    syms = text_symbols(args.elf)
    window, per = None, 1
    if args.calls:
        name, first, last = args.calls.split(":")
        # The last ELF naming it wins: user programs over the kernel.
        pcs = sorted((k, a) for a, s, k in syms if s == name)
        if not pcs:
            sys.exit(f"qemu_profile: no symbol named {name}")
        window = (pcs[-1][1], int(first), int(last))
        per = int(last) - int(first)
        if per <= 0:
            sys.exit("qemu_profile: --calls needs FROM < TO")
    sizes, runs = block_sizes_and_counts(args.log, window)
    addrs = [a for a, _, _ in syms]
    by = collections.Counter()
    for pc, count in runs.items():
        i = bisect.bisect_right(addrs, pc) - 1
        by[syms[i][1] if i >= 0 else "?"] += count * sizes.get(pc, 0)
    total = sum(by.values()) or 1
    for name, n in by.most_common(args.top):
        print(f"{n / per:>12.1f} {100 * n / total:5.1f}%  {name}")
    unit = "instructions in all" if per == 1 else "instructions per call"
    print(f"{total / per:>12.1f} {unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
