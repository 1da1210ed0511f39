#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write BENCH_DIR/report.md and its plots from BENCH_DIR/results.json.

Usage: tools/bench_report.py BENCH_DIR

The report puts each Graft figure beside native Linux's on the same
QEMU machine (bench/native/compare.py) with the ratio Graft / Linux of
the medians, then lists every record.  Plots (Debian's
python3-matplotlib): throughput.png, MiB/s against request size for
both systems; instructions.png, guest instructions per path for both;
the histograms of BENCH_DIR/samples.json, if there is one
(tools/bench_hist.py).  Records missing from a partial run show as "—".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import bench_hist

SIZES = (4096, 16384, 65536, 262144, 1048576)

# (what, Graft's name, Linux's name): deterministic, guest instructions.
ICOUNT_PAIRS = (
    ("null call: Mach RPC to the kernel / getppid()",
     "rpc.user-kernel", "linux.syscall.null"),
    ("60-byte frame: device_write / AF_PACKET sendto()",
     "net.tx.instr/60", "linux.net.tx.instr/60"),
    ("60-byte frame received: driver to the user's mach_msg / recvmsg()",
     "net.rx.instr/60", "linux.net.rx.instr/60"),
    ("disk read 4 KiB: device_read / O_DIRECT pread()",
     "disk.read.instr/4096", "linux.disk.read.instr/4096"),
    ("disk read 64 KiB", "disk.read.instr/65536",
     "linux.disk.read.instr/65536"),
    ("disk write 4 KiB: device_write / O_DIRECT pwrite()",
     "disk.write.instr/4096", "linux.disk.write.instr/4096"),
    ("disk write 64 KiB", "disk.write.instr/65536",
     "linux.disk.write.instr/65536"),
)

# Wall clock: (what, Graft's name, Linux's name); higher is better.
WALL_PAIRS = (("60-byte frames/s: device_write / AF_PACKET sendto()",
               "net.tx.rate/60", "linux.net.tx.rate/60"),
              ("60-byte frames/s: pktgen (servers/pktgen / Linux's)",
               "pktgen.rate/60", "linux.pktgen.rate/60")) + tuple(
    (f"{op} {size // 1024} KiB, MiB/s", f"disk.{op}.seq/{size}",
     f"linux.disk.{op}.seq/{size}")
    for op in ("read", "write") for size in SIZES) + tuple(
    (f"read into the caller's buffer {size // 1024} KiB, MiB/s "
     "(device_read_into / O_DIRECT pread())",
     f"disk.read.into.seq/{size}", f"linux.disk.read.seq/{size}")
    for size in SIZES)

# The driver server beside the in-kernel driver (same client, names
# prefixed server.): (what, in-kernel name, server name).
SERVER_PAIRS = tuple(
    (f"{size}-byte device_write on eth0 (ticks)", f"net.tx.instr/{size}",
     f"server.net.tx.instr/{size}") for size in (60, 256, 1500)) + tuple(
    (f"{size}-byte device_{op} on hd0s1 (ticks)",
     f"disk.{op}.instr/{size}", f"server.disk.{op}.instr/{size}")
    for op in ("read", "write") for size in (4096, 65536)) + tuple(
    (f"{size}-byte frame, {kind} glue (ticks)", f"net.{kind}.glue/{size}",
     f"server.net.{kind}.glue/{size}")
    for kind in ("tx", "rx", "txdone") for size in (60, 256, 1500)) + tuple(
    (f"{size // 1024} KiB {op}, {kind} glue (ticks)",
     f"disk.{kind}.glue/{wr}{size}", f"server.disk.{kind}.glue/{wr}{size}")
    for op, wr in (("read", ""), ("write", "write/"))
    for kind in ("cmd", "int") for size in (4096, 16384, 65536)) + (
    ("60-byte frames/s, one write at a time", "net.tx.rate/60",
     "server.net.tx.rate/60"),) + tuple(
    (f"sequential {op}s of {size // 1024} KiB (MiB/s)",
     f"disk.{op}.seq/{size}", f"server.disk.{op}.seq/{size}")
    for op in ("read", "write") for size in (4096, 65536, 1048576))

# Why icount ratios take the minima.
ICOUNT_NOTE = ("the ratio is of the minima: under `-icount sleep=off` an "
               "idle guest's clock jumps to its next timer (a tick, about "
               "10 million instructions) when QEMU's host read or write "
               "of the disk image has not completed yet, which happens to "
               "some disk requests and not others, from run to run; the "
               "minimum is the path without the jump")

LINUX_ONLY = ("linux.pktgen.rate/clone1000/60",)

# TCP/IP: servers/netd (lwIP in a Mach task) beside Linux's own stack,
# each booted alone on the same tap link (bench-netd, bench-netd-linux).
NETD_PAIRS = (("TCP, Mbit/s (iperf 2 from the host; higher is better)",
               "netd.tcp.rate", "linux.tcp.rate"),
              ("ping round trip, µs (from the host; lower is better)",
               "netd.ping.rtt", "linux.ping.rtt"))


def number(value) -> str:
    """A figure as the tables print it."""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.1f}" if abs(value) < 1e5 else f"{value:,.0f}"
    return f"{int(value):,}"


def triple(record: dict | None) -> str:
    """`min / median / p99` of a record (for a wall record of several
    rounds, p99 is the max of the rounds' medians)."""
    if record is None:
        return "—"
    return " / ".join(number(record[key]) for key in ("min", "median", "p99"))


def variance(record: dict | None) -> str:
    return "—" if record is None else f"{record['variance']:.4g}"


def ratio(graft: dict | None, linux: dict | None) -> str:
    """Of the medians; of the minima for two icount records (see
    ICOUNT_NOTE)."""
    if graft is None or linux is None:
        return "—"
    key = ("min" if graft["mode"] == linux["mode"] == "icount"
           else "median")
    if not linux[key]:
        return "—"
    return f"{graft[key] / linux[key]:.2f}"


def pair_table(pairs, records: dict[str, dict], label: str,
               spread: str, sides=("Graft", "Linux")) -> list[str]:
    """The first side beside the second for `pairs` (Graft and Linux
    unless `sides` says otherwise); `spread` names the third figure."""
    a, b = sides
    lines = [f"| {label} | {a} min / median / {spread} | variance | "
             f"{b} min / median / {spread} | variance | {a} ÷ {b} |",
             "|---|---|---|---|---|---|"]
    for what, graft, linux in pairs:
        g, n = records.get(graft), records.get(linux)
        lines.append(f"| {what} (`{graft}`, `{linux}`) | {triple(g)} | "
                     f"{variance(g)} | {triple(n)} | {variance(n)} | "
                     f"{ratio(g, n)} |")
    return lines


def all_records(records: list[dict]) -> list[str]:
    lines = ["| name | unit | mode | count | min | median | p99 | variance |",
             "|---|---|---|---|---|---|---|---|"]
    for r in records:
        lines.append(f"| `{r['name']}` | {r['unit']} | {r['mode']} | "
                     f"{r['count']} | {number(r['min'])} | "
                     f"{number(r['median'])} | {number(r['p99'])} | "
                     f"{r['variance']} |")
    return lines


def points_drawn(ax) -> bool:
    """Whether anything labelled was drawn on `ax` (a partial run may
    have no throughput record)."""
    return bool(ax.get_legend_handles_labels()[0])


def plots(records: dict[str, dict], out: Path) -> list[str]:
    """Draw the PNGs into `out`; return their file names."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, op in zip(axes, ("read", "write")):
        for system, prefix, style in (("Graft", "", "o-"),
                                      ("Linux", "linux.", "s--")):
            points = [(size // 1024, records[f"{prefix}disk.{op}.seq/{size}"])
                      for size in SIZES
                      if f"{prefix}disk.{op}.seq/{size}" in records]
            if not points:
                continue
            xs = [x for x, _ in points]
            ax.errorbar(xs, [r["median"] for _, r in points],
                        yerr=[[r["median"] - r["min"] for _, r in points],
                              [r["p99"] - r["median"] for _, r in points]],
                        fmt=style, capsize=3, label=system)
        ax.set_xscale("log", base=2)
        ax.set_xticks([size // 1024 for size in SIZES],
                      [str(size // 1024) for size in SIZES])
        ax.set_yscale("log")
        ax.set_xlabel("request size (KiB)")
        ax.set_title(f"sequential {op}s, O_DIRECT / device_{op}")
        ax.grid(True, which="both", alpha=0.3)
        if points_drawn(ax):
            ax.legend()
    axes[0].set_ylabel("MiB/s (median, min to max of rounds)")
    figure.tight_layout()
    figure.savefig(out / "throughput.png", dpi=100)
    plt.close(figure)

    labels, graft, linux = [], [], []
    for what, g, n in ICOUNT_PAIRS:
        labels.append(g.replace(".instr", ""))
        graft.append(records[g]["min"] if g in records else 0)
        linux.append(records[n]["min"] if n in records else 0)
    figure, ax = plt.subplots(figsize=(10, 4))
    xs = range(len(labels))
    ax.bar([x - 0.2 for x in xs], graft, width=0.4, label="Graft")
    ax.bar([x + 0.2 for x in xs], linux, width=0.4, label="Linux")
    ax.set_xticks(list(xs), labels, rotation=20, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("guest instructions (minimum)")
    ax.set_title("user call to return, -icount shift=0")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend()
    figure.tight_layout()
    figure.savefig(out / "instructions.png", dpi=100)
    plt.close(figure)
    return ["throughput.png", "instructions.png"]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    out = Path(argv[1])
    listed = json.loads((out / "results.json").read_text())
    records = {record["name"]: record for record in listed}
    # compare.py's rounds: the count of its wall records (bench-netd's
    # are runs of one boot, not rounds)
    round_names = {linux for _, _, linux in WALL_PAIRS}
    rounds = max((r["count"] for r in listed
                  if r["name"] in round_names and r["mode"] == "wall"),
                 default=0)
    pngs = plots(records, out)
    samples_path = out / "samples.json"
    hist_lines, hist_pngs = bench_hist.section(
        json.loads(samples_path.read_text()) if samples_path.is_file()
        else None, out)
    lines = [
        "# Graft beside native Linux 6.1 (make bench)", "",
        "Same QEMU machine for both (TCG, `-M pc`, 128 MiB, e1000 at a "
        "host peer over `-netdev dgram`, the disk suites' image on PIIX3 "
        "IDE); names and spans in `bench/README.md`.", "",
        "## Guest instructions (`-icount shift=0,sleep=off`, one boot each)",
        "", "Lower is better; min / median / p99 and variance of the "
        f"samples of one boot; {ICOUNT_NOTE}.", ""]
    lines += pair_table(ICOUNT_PAIRS, records, "path", "p99")
    lines += ["", f"## Wall clock ({rounds} alternating rounds)", "",
              "Higher is better; min / median / max and variance of the "
              "rounds' medians; the ratio is of the medians.", ""]
    lines += pair_table(WALL_PAIRS, records, "workload", "max")
    server = [(what, s, k) for what, k, s in SERVER_PAIRS]
    lines += ["", "## The driver in a server (servers/lxdrv) beside the "
              "driver in the kernel", "",
              "The same client programs and devices (e1000, ata_piix); "
              "icount rows are one boot each (the in-kernel and the "
              "server boot), wall-clock rows the rounds' medians as "
              "above; the ratio is of the medians, of the minima for "
              "icount rows (as above).", ""]
    lines += pair_table(server, records, "workload", "p99 (max)",
                        ("server", "in-kernel"))
    lines += ["", "Linux only (Graft's pktgen copies every frame into a "
              "device_write: no clone_skb 1000 figure):", "",
              "| name | frames/s min / median / max |", "|---|---|"]
    lines += [f"| `{name}` | {triple(records.get(name))} |"
              for name in LINUX_ONLY]
    lines += ["", "## TCP/IP: servers/netd beside Linux", "",
              "lwIP 2.2 in a Mach task over Graft's e1000 (`bench-netd`) "
              "and Linux's TCP/IP over its e1000 module "
              "(`bench-netd-linux`), one boot each on the same tap link "
              "and QEMU machine, one after the other; min / median / p99 "
              "over the runs of a boot (5 iperf runs, 100 pings); the "
              "ratio is of the medians.", ""]
    lines += pair_table(NETD_PAIRS, records, "workload", "p99",
                        ("netd", "Linux"))
    lines += ["", "## Plots", ""]
    lines += [f"![{png}]({png})" for png in pngs]
    lines += [""] + hist_lines
    lines += ["## Every record", ""] + all_records(listed)
    (out / "report.md").write_text("\n".join(lines) + "\n")
    print(f"wrote {out / 'report.md'} and {', '.join(pngs + hist_pngs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
