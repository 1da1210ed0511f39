#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Graft beside native Linux on the same QEMU machine (make bench).

Runs after `run.py --bench` has written BUILD/bench/results.json:

1. one native-Linux boot under `-icount shift=0,sleep=off` (the TSC counts
   guest instructions): linux.syscall.null, linux.net.{tx,rx}.instr/60,
   linux.disk.{read,write}.instr/{4096,65536}, with e1000 at the echoing
   host peer of Graft's `bench` boot and the IDE image of `bench-disk`;
2. ROUNDS rounds on the wall clock, each booting Graft (suite graft-wall,
   then graft-wall-server with e1000 in the driver server, then
   graft-wall-restart and graft-wall-restart-disk: a supervised server
   killed ten times) then Linux on the same machine (IDE image, e1000 at
   a counting sink): disk.{read,write}.seq/<size>, net.tx.rate/60,
   server.net.tx.rate/60, pktgen.rate/60 (servers/pktgen),
   restart.recovery.wall/{e1000,ata_piix} and the linux.* twins,
   linux.pktgen.rate/60 (clone_skb 0) and
   linux.pktgen.rate/clone1000/60.  Each round's median is one sample:
   a wall record's min / median / p99 are the min / median / max of the
   rounds' medians, its count the number of rounds.

With --disk-only only the disk figures: the icount boot runs the disk
calls alone, and each round boots graft-wall-disk (disk_tput alone) and
Linux's seq, for disk.{read,write}.seq/<size> and their linux.* twins.
--graft-word WORD (again for more) adds a word to the kernel command
line of Graft's wall-clock boots, e.g. idle_poll=0 (a key the suite
sets already keeps the suite's value: the first one counts).

The records are appended to results.json and the icount boot's samples
(BENCH-SAMPLES lines) to samples.json (the boots' own files go to
BUILD/bench/runs/); the exit status is 1 if a boot failed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[2] / "tests" / "harness"
sys.path.insert(0, str(HARNESS))
import boot  # noqa: E402
import report  # noqa: E402
import run  # noqa: E402
import suites  # noqa: E402

# The BENCH lines each Linux boot prints (bench/native/lxbench.c).
NET_FRAMES = 300
SYSCALLS = 10000
DISK_CALLS = 100
PKTGEN_COUNT = 100000
LINUX_CMDLINE = ("console=ttyS0", "quiet", "panic=-1")


def linux_icount_prepare(suite: suites.Suite,
                         suite_dir: Path) -> suites.Suite:
    """The IDE image and e1000 at the echoing peer (NET_FRAMES frames
    and a few more, should Linux send one of its own)."""
    suite = suites.qemu_ide_disk(False)(suite, suite_dir)
    return suites.net_peer(suite, suite_dir, frames=NET_FRAMES + 16,
                           echo=True)


def linux_suite(name: str, mode: str, run_words: list[str],
                prepare) -> suites.QemuSuite:
    """A native-Linux boot: the kernel's command line names the lxbench
    commands (bench/native/init); the initramfs is its only module."""
    return suites.QemuSuite(
        name=name, test="native-linux", mode="icount" if mode == "icount"
        else "", timeout=300.0, prepare=prepare,
        cmdline=LINUX_CMDLINE + (f"bench_mode={mode}",
                                 "bench_run=" + ";".join(run_words)),
        modules=(("{builddir}/bench/native/initramfs.cpio", ""),))


# Graft's wall-clock boots of each round, in order.
GRAFT_WALL = ("graft-wall", "graft-wall-server", "graft-wall-restart",
              "graft-wall-restart-disk")

LINUX_ICOUNT = linux_suite(
    "linux-icount", "icount",
    [f"syscall:{SYSCALLS}", f"nettx:{NET_FRAMES}", f"disk:{DISK_CALLS}"],
    linux_icount_prepare)
LINUX_WALL = linux_suite(
    "linux-wall", "wall",
    ["seq", f"rate:{suites.WALL_RATE_SECONDS}",
     f"pktgen:0:{PKTGEN_COUNT}", f"pktgen:1000:{PKTGEN_COUNT}"],
    suites.wall_prepare)

# --disk-only: the disk figures alone.
GRAFT_WALL_DISK = ("graft-wall-disk",)
LINUX_ICOUNT_DISK = linux_suite(
    "linux-icount", "icount", [f"disk:{DISK_CALLS}"],
    linux_icount_prepare)
LINUX_WALL_DISK = linux_suite("linux-wall", "wall", ["seq"],
                              suites.wall_prepare)


def boot_linux(suite: suites.QemuSuite, ctx: run.Context, out_dir: Path
               ) -> tuple[list[dict], dict[str, list[list[int]]], list[str]]:
    """Boot native Linux as `suite`; return its BENCH records, their
    samples (report.parse_samples) and the problems seen (a bad verdict,
    malformed or missing BENCH lines, samples not matching them)."""
    suite_dir = run.fresh_dir(out_dir / suite.name)
    kernel = ctx.build_dir / "bench" / "native" / "vmlinuz"
    suite = dataclasses.replace(suite, modules=tuple(
        (path.format(builddir=ctx.build_dir), args)
        for path, args in suite.modules))
    suite = suite.prepare(suite, suite_dir)
    verdict, _ = boot.boot_qemu(ctx.qemu, kernel, suite, suite_dir)
    console = boot.read_text(suite_dir / "console.log")
    records, errors = report.parse_bench(console)
    samples, sample_errors = report.parse_samples(console, records)
    errors += sample_errors
    if not verdict.ok:
        errors.append(f"{verdict.status}: {verdict.reason}")
        errors += list(verdict.details)
    elif not records:
        errors.append("no BENCH line")
    return records, samples, errors


def boot_graft(ctx: run.Context, name: str, words: tuple[str, ...] = ()
               ) -> tuple[list[dict], list[str]]:
    """Run Graft's wall-clock suite @name, @words added to its kernel
    command line, through the harness; same return."""
    suite = suites.by_name()[name]
    suite = dataclasses.replace(suite, cmdline=suite.cmdline + words)
    result = run.run_suite(suite, ctx)
    console = boot.read_text(Path(result.suite_dir) / "console.log")
    records, errors = report.parse_bench(console)
    errors += [f"{failure.case}: {failure.reason}"
               for failure in result.failures]
    return records, errors


def over_rounds(rounds: list[list[dict]]) -> list[dict]:
    """One record per name: the rounds' medians as its samples."""
    by_name: dict[str, list[dict]] = {}
    for records in rounds:
        for record in records:
            by_name.setdefault(record["name"], []).append(record)
    merged = []
    for name, records in by_name.items():
        medians = sorted(record["median"] for record in records)
        mean = statistics.fmean(medians)
        merged.append({
            "name": name, "unit": records[0]["unit"], "mode": "wall",
            "count": len(medians), "min": medians[0],
            "median": round(statistics.median(medians), 2),
            "p99": medians[-1],
            "variance": round(statistics.fmean(
                (m - mean) ** 2 for m in medians), 3)})
    return merged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", type=Path, required=True)
    parser.add_argument("--srcdir", type=Path,
                        default=Path(__file__).resolve().parents[2])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--qemu", default="qemu-system-x86_64")
    parser.add_argument("--disk-only", action="store_true",
                        help="only the disk figures (graft-wall-disk, "
                        "Linux's disk calls and seq)")
    parser.add_argument("--graft-word", action="append", default=[],
                        metavar="WORD", help="a word for the kernel "
                        "command line of Graft's wall-clock boots")
    args = parser.parse_args()
    bad = [word for word in args.graft_word
           if not word or any(c.isspace() for c in word)]
    if bad:
        parser.error(f"--graft-word {bad[0]!r}: one word, without blanks")
    graft_wall = GRAFT_WALL_DISK if args.disk_only else GRAFT_WALL
    linux_icount = LINUX_ICOUNT_DISK if args.disk_only else LINUX_ICOUNT
    linux_wall = LINUX_WALL_DISK if args.disk_only else LINUX_WALL
    build = args.build_dir.resolve()
    results = build / "bench" / "results.json"
    runs = build / "bench" / "runs"
    if not results.is_file():
        print(f"compare: no {results} (run.py --bench first)")
        return 1
    problems: list[str] = []

    def ctx_for(out_dir: Path) -> run.Context:
        out_dir.mkdir(parents=True, exist_ok=True)
        return run.Context(build_dir=build, srcdir=args.srcdir.resolve(),
                           results_dir=out_dir, qemu=args.qemu,
                           bochs="bochs")

    icount, samples, errors = boot_linux(linux_icount, ctx_for(runs), runs)
    problems += [f"linux-icount: {error}" for error in errors]
    rounds: list[list[dict]] = []
    for index in range(args.rounds):
        ctx = ctx_for(runs / f"round-{index + 1}")
        graft = []
        for name in graft_wall:
            records, errors = boot_graft(ctx, name,
                                         tuple(args.graft_word))
            graft += records
            problems += [f"{name} round {index + 1}: {e}" for e in errors]
        linux, _, errors = boot_linux(linux_wall, ctx, ctx.results_dir)
        problems += [f"linux-wall round {index + 1}: {e}" for e in errors]
        rounds.append(graft + linux)
        print(f"round {index + 1} of {args.rounds}: Graft and Linux booted",
              flush=True)
    records = icount + over_rounds(rounds)
    existing = json.loads(results.read_text())
    known = {record["name"] for record in existing}
    problems += [f"duplicate name {record['name']}" for record in records
                 if record["name"] in known]
    for line in report.bench_table(records):
        print(line)
    if problems:
        for problem in problems:
            print(f"compare: {problem}")
        return 1
    report.write_bench(results, existing + records)
    samples_path = results.with_name("samples.json")
    known_samples = (json.loads(samples_path.read_text())
                     if samples_path.is_file() else {})
    report.write_samples(samples_path, {**known_samples, **samples})
    print(f"added {len(records)} records to {results}, the samples of "
          f"{len(samples)} to {samples_path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
