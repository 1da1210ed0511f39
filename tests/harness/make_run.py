# SPDX-License-Identifier: GPL-2.0-only
"""The run-qemu and run-bochs suites: `make run` / `make run-bochs` as a
user types them, bounded in time, and what they promise checked.

    make_run.py --srcdir SRC --suitedir S --target run|run-bochs
                [--seconds N]

It removes SRC/build/boot/ (the images and ISO these targets make, as on
a fresh build), runs `make -C SRC TARGET RUN_HTTP_PORT=P` (P a free port
of this machine) in a session of its own with no terminal, its output in
S/make.log, and waits for netd's "ready" line.  Then: make printed the
address to open (http://localhost:P/); netd got its address from the
emulator's user network by DHCP (10.0.2.15); the Linux drivers served
eth0 and the IDE disk (hd0 and its partition hd0s1); and `curl` of that
address on this machine returns netd's status page listing eth0 and
hd0.  The whole session (make, the emulator) is killed at the end.
Prints KTAP.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--srcdir", required=True)
    parser.add_argument("--suitedir", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--seconds", type=float, default=150.0)
    args = parser.parse_args()
    port = free_port()
    log_path = Path(args.suitedir) / "make.log"
    cases: list[tuple[str, str | None]] = []
    # build/boot/ as on a fresh build (make run-bochs once failed there:
    # nothing made the folder for the ISO); Bochs mirrors the console in
    # boot/bochs-serial.log, so no stale one either.
    shutil.rmtree(Path(args.srcdir) / "build/boot", ignore_errors=True)
    serial = Path(args.srcdir) / "build/boot/bochs-serial.log"
    with log_path.open("wb") as log:
        make = subprocess.Popen(
            ["make", "-C", args.srcdir, args.target,
             f"RUN_HTTP_PORT={port}"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + args.seconds
        text = ""
        while time.monotonic() < deadline and make.poll() is None:
            text = log_path.read_text(errors="replace")
            if args.target == "run-bochs" and serial.exists():
                text += serial.read_text(errors="replace")
            if "netd: ready" in text:
                break
            time.sleep(0.5)
        page = ""
        if "netd: ready" in text:
            done = subprocess.run(["curl", "-s", "-m", "30",
                                   f"http://localhost:{port}/"],
                                  stdout=subprocess.PIPE, check=False)
            page = done.stdout.decode(errors="replace")
            (Path(args.suitedir) / "page.html").write_text(page)
        if make.poll() is None:
            os.killpg(make.pid, signal.SIGKILL)
        make.wait()
    url = f"http://localhost:{port}/"
    cases.append(("prints_the_address_to_open",
                  None if url in text else f"no {url} in make's output"))
    cases.append(("netd_ready_by_dhcp",
                  None if "netd: ready ip=10.0.2.15" in text else
                  "netd never got 10.0.2.15"))
    cases.append(("eth0_served", None if "linux: 1 net device(s) served"
                  in text else "no eth0"))
    cases.append(("ide_disk_served", None if "hd0s1: type 0x83" in text
                  else "no hd0s1"))
    cases.append(("status_page_from_the_host",
                  None if "<td>eth0</td><td>network</td>" in page and
                  "<td>hd0</td><td>block</td>" in page else
                  "no status page listing eth0 and hd0"))
    cases.append(("no_panic", None if "*** PANIC" not in text else
                  "the kernel panicked"))
    name = args.target.replace("run", "make-run", 1)
    print(f"KTAP version 1\n1..1\n    KTAP version 1\n"
          f"    # Subtest: {name}\n    1..{len(cases)}")
    for i, (case, problem) in enumerate(cases, 1):
        if problem:
            print(f"    # {case}: {problem}")
        print(f"    {'not ' if problem else ''}ok {i} {case}")
    failed = any(problem for _, problem in cases)
    print(f"{'not ' if failed else ''}ok 1 {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
