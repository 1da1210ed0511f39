# SPDX-License-Identifier: GPL-2.0-only
"""Suite pktgen's host side: the capturing peer and the check of each
run's frames (tests/kernel/pktgen_test.c names the runs).

Each good run of servers/pktgen has its own dst_mac (02:00:00:00:00:0N,
RUNS below); the peer (net_peer.Capture) keeps every frame e1000 sends,
and the check sorts them by destination MAC and checks each run's
frames field by field: Ethernet, IPv4 (version, length, checksum, TTL,
protocol 17), UDP (ports, length), pktgen's header (magic, sequence
number), and what each run's arguments ask for.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Callable

MAGIC = 0xBE9BE955
GUEST_MAC = bytes.fromhex("525400123456")
_captures: dict[Path, object] = {}


def ip(text: str) -> int:
    a, b, c, d = (int(x) for x in text.split("."))
    return a << 24 | b << 16 | c << 8 | d


def checksum(data: bytes) -> int:
    total = sum(struct.unpack(f">{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def fields(frame: bytes) -> dict:
    """The fields of a pktgen frame; raises ValueError if it is none."""
    if len(frame) < 60:
        raise ValueError(f"{len(frame)} bytes, below 60")
    if frame[6:12] != GUEST_MAC or frame[12:14] != b"\x08\x00":
        raise ValueError("not IPv4 from the guest's MAC")
    iph = frame[14:34]
    if iph[0] != 0x45 or iph[9] != 17 or iph[8] != 32:
        raise ValueError(f"IPv4 header {iph[:10].hex()}")
    if checksum(iph) != 0:
        raise ValueError("bad IPv4 checksum")
    if struct.unpack(">H", iph[2:4])[0] != len(frame) - 14:
        raise ValueError("IPv4 length is not the frame's")
    sport, dport, ulen = struct.unpack(">HHH", frame[34:40])
    if ulen != len(frame) - 34:
        raise ValueError("UDP length is not the frame's")
    magic, seq = struct.unpack(">II", frame[42:50])
    if magic != MAGIC:
        raise ValueError(f"magic {magic:#x}")
    return {"len": len(frame), "src": struct.unpack(">I", iph[12:16])[0],
            "dst": struct.unpack(">I", iph[16:20])[0], "sport": sport,
            "dport": dport, "seq": seq}


def cycled(values: list[int], low: int, high: int) -> str | None:
    """None if `values` run low, low + 1, ... high, low, ... in turn."""
    want = [low + i % (high - low + 1) for i in range(len(values))]
    return None if values == want else f"{values} is not {want}"


def check_default(frames: list[bytes], f: list[dict]) -> str | None:
    if len(f) != 20:
        return f"{len(f)} frames, expected 20"
    for i, x in enumerate(f):
        want = {"len": 60, "src": ip("10.0.2.15"), "dst": ip("10.0.2.2"),
                "sport": 9, "dport": 9, "seq": i}
        if x != want:
            return f"frame {i}: {x}, expected {want}"
    return None


def check_ranges(frames: list[bytes], f: list[dict]) -> str | None:
    if len(f) != 24:
        return f"{len(f)} frames, expected 24"
    for key, low, high in (("len", 60, 63),
                           ("dst", ip("10.0.0.1"), ip("10.0.0.3")),
                           ("src", ip("10.1.0.1"), ip("10.1.0.2")),
                           ("sport", 1000, 1001), ("dport", 2000, 2003)):
        problem = cycled([x[key] for x in f], low, high)
        if problem:
            return f"{key}: {problem}"
    return None


def check_random(frames: list[bytes], f: list[dict]) -> str | None:
    if len(f) != 100:
        return f"{len(f)} frames, expected 100"
    for key, low, high in (("len", 60, 1514),
                           ("dst", ip("10.0.0.1"), ip("10.0.0.200")),
                           ("dport", 1, 50000)):
        values = [x[key] for x in f]
        if min(values) < low or max(values) > high:
            return f"{key} outside {low}-{high}: {min(values)}-{max(values)}"
        if len(set(values)) < 50:
            return f"{key}: only {len(set(values))} values in 100 frames"
        if values == sorted(values):
            return f"{key}: in order, not random"
    return None


def check_clone(frames: list[bytes], f: list[dict]) -> str | None:
    if len(frames) != 30:
        return f"{len(frames)} frames, expected 30"
    for g in range(3):
        group = frames[10 * g:10 * g + 10]
        if any(frame != group[0] for frame in group):
            return f"frames {10 * g}-{10 * g + 9} are not one frame sent 10 times"
    if len({frames[0], frames[10], frames[20]}) != 3:
        return "the three groups are not three frames"
    return None


def check_flows(frames: list[bytes], f: list[dict]) -> str | None:
    if len(f) != 40:
        return f"{len(f)} frames, expected 40"
    tuples = [(x["src"], x["dst"], x["sport"], x["dport"]) for x in f]
    blocks = [tuples[5 * b:5 * b + 5] for b in range(8)]
    for b, block in enumerate(blocks):
        if len(set(block)) != 1:
            return f"frames {5 * b}-{5 * b + 4} are not one flow: {block}"
    firsts = [block[0] for block in blocks]
    if len(set(firsts[:4])) != 4:
        return f"the first four flows are not four: {firsts[:4]}"
    if any(firsts[b] == firsts[b + 4] for b in range(4)):
        return "a flow kept its tuple past flowlen"
    return None


def check_delay(frames: list[bytes], f: list[dict]) -> str | None:
    return None if len(f) == 10 else f"{len(f)} frames, expected 10"


# (case, dst_mac's last byte, check)
RUNS: tuple[tuple[str, int, Callable], ...] = (
    ("frames_default", 1, check_default),
    ("frames_ranges", 2, check_ranges),
    ("frames_random", 3, check_random),
    ("frames_clone", 4, check_clone),
    ("frames_flows", 5, check_flows),
    ("frames_delay", 6, check_delay),
)


def prepare(suite, suite_dir: Path):
    """Prepare hook: e1000 at a capturing peer."""
    import net_peer  # the harness directory is on sys.path
    import suites

    capture = net_peer.Capture(suite_dir / "sink.log", suite.timeout)
    capture.start()
    _captures[suite_dir] = capture
    return suites.with_nic(suite, "e1000,addr=03.0", capture.netdev("n0"))


def check(suite, suite_dir: Path) -> list[tuple[str, str | None]]:
    """Check hook: each run's frames, one case each; frames of no run
    (another destination) fail a case of their own."""
    frames = _captures.pop(suite_dir).stop()
    by_run: dict[int, list[bytes]] = {}
    strays = 0
    for frame in frames:
        if frame[:5] == bytes((2, 0, 0, 0, 0)):
            by_run.setdefault(frame[5], []).append(frame)
        else:
            strays += 1
    results = []
    for case, last, check_run in RUNS:
        run = by_run.get(last, [])
        try:
            parsed = [fields(frame) for frame in run]
            problem = check_run(run, parsed)
        except ValueError as e:
            problem = f"a frame that is no pktgen frame: {e}"
        results.append((case, problem))
    results.append(("no_other_frames",
                    None if strays == 0 else f"{strays} frames of no run"))
    return results
