#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Where a benchmark's instructions go (make profile BENCH=NAME).

Boots the benchmark's client alone, with a small count, under QEMU's
`-d in_asm,exec,nochain` log (through the harness, so its peer runs as
in make bench), then counts the instructions per symbol between two
entries of the client's call (tools/qemu_profile.py --calls) and prints
the table; the log and the boot's files stay in BUILD/profile/NAME/.

NAME is a BENCH name without its size (PROFILES below): the profile is
of its smallest size's calls, after the first ones (caches warm).  A
linux.* NAME profiles native Linux instead (tools/native_profile.py).
"""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys
from pathlib import Path

SRCDIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SRCDIR / "tests" / "harness"))
import run  # noqa: E402
import suites  # noqa: E402
sys.path.insert(0, str(SRCDIR / "tools"))
import native_profile  # noqa: E402

CALLS = 200          # calls of the client a profile boots with
SKIP = 20            # the first calls, left out


def echo_peer(suite, suite_dir):
    """e1000 at the echoing peer, for CALLS frames of each of 3 sizes."""
    return suites.net_peer(suite, suite_dir, frames=3 * CALLS + 16,
                           echo=True)


# name: (the suite to boot, the client's module (ELF, args), the ELFs
# whose symbols count, the client's call each sample times)
PROFILES = {
    "net.tx.instr": suites.QemuSuite(
        name="profile-net-tx", test="bench-net", mode="icount",
        timeout=900.0, cmdline=(*suites.bench_words("icount"), "linux"),
        prepare=echo_peer,
        modules=(("{builddir}/tests/user/net_probe.elf",
                  f"net_probe bench={CALLS} device=${{device-port}}"),)),
    "pktgen.rate": suites.QemuSuite(
        name="profile-pktgen", test="pktgen", mode="icount", timeout=900.0,
        cmdline=("linux", *suites.ICOUNT_IDLE), prepare=suites.net_sink,
        modules=(("{builddir}/servers/pktgen/pktgen.elf",
                  f"pg_default count={CALLS} device=${{device-port}}"),)),
}
CLIENT_CALL = {"net.tx.instr": ("tests/user/net_probe.elf", "device_write"),
               "pktgen.rate": ("servers/pktgen/pktgen.elf", "device_write")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", type=Path, required=True)
    parser.add_argument("--bench", required=True,
                        help=f"one of {', '.join(PROFILES)}, "
                        f"{', '.join(native_profile.PROFILES)}")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    known = (*PROFILES, *native_profile.PROFILES)
    if args.bench not in known:
        print(f"bench_profile: no profile for {args.bench!r}; known: "
              f"{', '.join(known)}", file=sys.stderr)
        return 2
    build = args.build_dir.resolve()
    out = run.fresh_dir(build / "profile" / args.bench)
    if args.bench in native_profile.PROFILES:
        return native_profile.profile(args.bench, build, out, args.top)
    log = out / "qemu.log"
    suite = PROFILES[args.bench]
    suite = dataclasses.replace(suite, qemu_args=suite.qemu_args + (
        "-d", "in_asm,exec,nochain", "-D", str(log)))
    ctx = run.Context(build_dir=build, srcdir=SRCDIR, results_dir=out,
                      qemu="qemu-system-x86_64", bochs="bochs")
    result = run.run_suite(suite, ctx)
    if not log.exists():
        print(f"bench_profile: the boot left no log ({result})",
              file=sys.stderr)
        return 1
    elf, call = CLIENT_CALL[args.bench]
    return subprocess.call([
        sys.executable, str(SRCDIR / "tools" / "qemu_profile.py"),
        "--calls", f"{call}:{SKIP}:{CALLS}", "--top", str(args.top),
        str(log), str(build / "kernel" / "graft.elf"), str(build / elf)])


if __name__ == "__main__":
    sys.exit(main())
