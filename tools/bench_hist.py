# SPDX-License-Identifier: GPL-2.0-only
"""Histograms of the benchmarks' samples for tools/bench_report.py.

BENCH_DIR/samples.json holds, for each record whose samples its boot
printed (BENCH-SAMPLES lines, docs/testing.md), [value, count] pairs in
ascending order of value.  `section` draws one PNG per figure of
FIGURES that has samples (python3-matplotlib, imported only to draw)
and returns the report's lines linking them; the rest is pure.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

# A glue figure: one histogram per driver of the records matching the
# pattern (group 1 the driver, absent for the default driver's boot).
# A pair figure: Graft's record above native Linux's.
# (file, title, pattern or (Graft's name, Linux's name), default driver)
FIGURES = (
    ("hist-net.tx.glue-60.png", "net.tx.glue, 60-byte frames, per NIC driver",
     r"net\.tx\.glue/(?:([^/]+)/)?60", "e1000"),
    ("hist-net.rx.glue-60.png", "net.rx.glue, 60-byte frames, per NIC driver",
     r"net\.rx\.glue/(?:([^/]+)/)?60", "e1000"),
    ("hist-net.txdone.glue-60.png",
     "net.txdone.glue, 60-byte frames, per NIC driver",
     r"net\.txdone\.glue/(?:([^/]+)/)?60", "e1000"),
    ("hist-disk.cmd.glue-16384.png",
     "disk.cmd.glue, 16 KiB reads, per disk controller driver",
     r"disk\.cmd\.glue/(?:(?!write/)([^/]+)/)?16384", "ata_piix"),
    ("hist-disk.int.glue-16384.png",
     "disk.int.glue, 16 KiB reads, per disk controller driver",
     r"disk\.int\.glue/(?:(?!write/)([^/]+)/)?16384", "ata_piix"),
    ("hist-net.tx.instr-60.png",
     "60-byte frame: device_write (Graft) / AF_PACKET sendto() (Linux)",
     ("net.tx.instr/60", "linux.net.tx.instr/60"), ""),
    ("hist-net.rx.instr-60.png",
     "60-byte frame received: driver to user (Graft's mach_msg / "
     "Linux's recvmsg())",
     ("net.rx.instr/60", "linux.net.rx.instr/60"), ""),
    ("hist-disk.read.instr-4096.png",
     "4 KiB disk read: device_read / O_DIRECT pread()",
     ("disk.read.instr/4096", "linux.disk.read.instr/4096"), ""),
    ("hist-disk.write.instr-4096.png",
     "4 KiB disk write: device_write / O_DIRECT pwrite()",
     ("disk.write.instr/4096", "linux.disk.write.instr/4096"), ""),
    ("hist-rpc.user-kernel.png",
     "null call: Mach RPC to the kernel / getppid()",
     ("rpc.user-kernel", "linux.syscall.null"), ""),
)

MAX_BINS = 60


def series(samples: dict[str, list[list[int]]], what, default: str
           ) -> list[tuple[str, str]]:
    """The (label, record name) pairs of one figure that have samples:
    for a pattern, the default driver's record first, then the others
    by driver; for a pair, Graft's then Linux's."""
    if isinstance(what, tuple):
        return [(system, name) for system, name in zip(("Graft", "Linux"),
                                                       what)
                if name in samples]
    found = []
    for name in samples:
        match = re.fullmatch(what, name)
        if match:
            found.append((match.group(1) or "", name))
    found.sort(key=lambda item: (item[0] != "", item[0]))
    return [(driver or default, name) for driver, name in found]


def histogram(pairs: list[list[int]], max_bins: int = MAX_BINS) -> dict:
    """The histogram of the samples `pairs` ([value, count], ascending):
    at most `max_bins` bins of equal whole width from the smallest value
    to the 99th-percentile sample's (nearest rank), so that a rare far
    outlier (a tick inside a span) does not squeeze the rest into one
    bar.  Returns lo, width, heights (samples per bin), beyond (samples
    above the last bin), count, median and max."""
    count = sum(c for _, c in pairs)
    if not pairs or count < 1:
        raise ValueError("no samples")

    def rank(k: int) -> int:
        seen = 0
        for value, c in pairs:
            seen += c
            if seen >= k:
                return value
        return pairs[-1][0]

    lo, hi = pairs[0][0], rank(math.ceil(0.99 * count))
    width = max(1, math.ceil((hi - lo + 1) / max_bins))
    heights = [0] * ((hi - lo) // width + 1)
    beyond = 0
    for value, c in pairs:
        if value > hi:
            beyond += c
        else:
            heights[(value - lo) // width] += c
    return {"lo": lo, "width": width, "heights": heights, "beyond": beyond,
            "count": count, "median": rank((count + 1) // 2),
            "max": pairs[-1][0]}


def caption(label: str, name: str, h: dict) -> str:
    """A histogram's title: what, how many, median, the cut outliers."""
    text = f"{label} ({name}): {h['count']} samples, median {h['median']:,}"
    if h["beyond"]:
        text += (f"; {h['beyond']} beyond p99 not drawn "
                 f"(max {h['max']:,})")
    return text


def draw(path: Path, title: str, rows: list[tuple[str, str, dict]]) -> None:
    """One PNG at `path`: a histogram per row (label, name, histogram)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(len(rows), 1, squeeze=False,
                                figsize=(9, 1.9 * len(rows) + 0.8))
    for ax, (label, name, h) in zip(axes[:, 0], rows):
        lefts = [h["lo"] + i * h["width"] for i in range(len(h["heights"]))]
        ax.bar(lefts, h["heights"], width=h["width"], align="edge")
        ax.set_title(caption(label, name, h), fontsize=9, loc="left")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("samples")
        ax.grid(True, axis="y", alpha=0.3)
    axes[-1, 0].set_xlabel("ticks (guest instructions under -icount)")
    figure.suptitle(title, fontsize=11)
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)


def section(samples: dict[str, list[list[int]]] | None, out: Path,
            plot=draw) -> tuple[list[str], list[str]]:
    """Draw (with `plot`) the figures of FIGURES that have samples into
    `out`; return the report's lines and the PNGs' file names."""
    lines = ["## Histograms", ""]
    if samples is None:
        return lines + ["No `samples.json` (no bench boot printed "
                        "samples): no histograms.", ""], []
    lines += ["The samples of one boot each (`samples.json`), in bins "
              "of equal width from the smallest to the 99th percentile; "
              "each title says how many samples lie beyond.", ""]
    pngs = []
    for png, title, what, default in FIGURES:
        rows = [(label, name, histogram(samples[name]))
                for label, name in series(samples, what, default)]
        if not rows:
            continue
        plot(out / png, title, rows)
        pngs.append(png)
        lines += [f"### {title}", "", f"![{title}]({png})", ""]
        lines += [f"- {caption(label, name, h)}" for label, name, h in rows]
        lines.append("")
    if not pngs:
        lines += ["No figure's records have samples here.", ""]
    return lines, pngs
