#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Where native Linux's instructions go for one benchmark call (make profile).

The twin of bench_profile.py's Graft profiles for the native-Linux
baseline (bench/native/): boots Debian's Linux as compare.py's icount boot
does, with a larger count of calls and bench_syms=1, and QEMU's instruction log switched on through its monitor only while the
lxbench command runs (a whole Linux boot would log tens of GB).  The log
is then charged to symbols: the kernel's and the modules' from the boot's
KSYM lines (bench/native/init prints /proc/kallsyms' functions, where
KASLR put them; a module's are named "function[module]"), lxbench's from
its ELF, and counted between two entries of the call (qemu_profile.py
--calls).

The log starts a little after the command does (the host sees its line,
then tells the monitor), so the calls counted are taken from the middle
of the run.
"""

from __future__ import annotations

import dataclasses
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

SRCDIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SRCDIR / "tests" / "harness"))
sys.path.insert(0, str(SRCDIR / "bench" / "native"))
import boot  # noqa: E402
import compare  # noqa: E402
import run  # noqa: E402
import suites  # noqa: E402

CALLS = 2000         # calls of the lxbench command
FIRST, LAST = 100, 300     # the calls counted, from the log's start


@dataclasses.dataclass(frozen=True)
class NativeProfile:
    """One native profile: the lxbench command, the call it times."""
    command: str     # bench_run word, CALLS appended
    call: str        # lxbench's symbol entered once per call
    prepare: object  # the suite's prepare hook, given the frames needed


def echo_peer(suite: suites.Suite, suite_dir: Path) -> suites.Suite:
    """e1000 at the echoing peer for CALLS frames (and a few more)."""
    return suites.net_peer(suite, suite_dir, frames=CALLS + 16, echo=True)


PROFILES = {
    "linux.net.tx.instr": NativeProfile("nettx", "__libc_sendto",
                                        echo_peer),
}


class LogSwitch(threading.Thread):
    """Switches QEMU's instruction log on when `start` appears in the
    console file, off when `stop` does (HMP commands on `sock`)."""

    def __init__(self, console: Path, sock: Path, log: Path, start: str,
                 stop: str):
        super().__init__(daemon=True)
        self.console, self.sock, self.log = console, sock, log
        self.start_text, self.stop_text = start, stop
        self.done = threading.Event()
        self.problem = ""
        self.read = 0

    def hmp(self, conn: socket.socket, command: str) -> None:
        conn.sendall(command.encode() + b"\n")
        time.sleep(0.05)

    def wait_for(self, text: str) -> bool:
        """Wait until `text` is on the console past what was read."""
        seen = ""
        while not self.done.is_set():
            try:
                with open(self.console, "rb") as f:
                    f.seek(self.read)
                    new = f.read().decode(errors="replace")
            except OSError:
                new = ""
            self.read += len(new.encode(errors="replace"))
            seen = seen[-len(text):] + new
            if text in seen:
                return True
            time.sleep(0.005)
        return False

    def run(self) -> None:
        conn = None
        for _ in range(500):
            try:
                conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                conn.connect(str(self.sock))
                break
            except OSError:
                conn = None
                time.sleep(0.02)
        if conn is None:
            self.problem = f"no QEMU monitor at {self.sock}"
            return
        with conn:
            if not self.wait_for(self.start_text):
                self.problem = f"no {self.start_text!r} on the console"
                return
            self.hmp(conn, f"logfile {self.log}")
            self.hmp(conn, "log in_asm,exec,nochain")
            self.wait_for(self.stop_text)
            self.hmp(conn, "log none")


def kernel_map(console: str, out: Path) -> str:
    """Write `out`, the kernel's and the modules' functions in nm's form
    from the boot's KSYM lines (/proc/kallsyms; a module's functions
    named "function[module]").  Returns a problem, or ""."""
    lines = [f"{addr} t {name}" + (f"[{module}]" if module else "")
             for addr, name, module in re.findall(
                 r"^KSYM ([0-9a-f]+) [tT] (\S+)(?:\s+\[(\S+)\])?",
                 console, re.M)]
    if not lines:
        return "no KSYM line: bench_syms=1 printed nothing"
    out.write_text("\n".join(lines) + "\n")
    return ""


def profile(name: str, build: Path, out: Path, top: int) -> int:
    """Profile native Linux's `name` (a key of PROFILES) into `out`;
    prints the table (qemu_profile.py) and returns its exit status."""
    spec = PROFILES[name]
    log, sock = out / "qemu.log", out / "monitor.sock"
    suite = compare.linux_suite(
        "profile-" + name.replace(".", "-"), "icount",
        [f"{spec.command}:{CALLS}"], spec.prepare)
    suite = dataclasses.replace(
        suite, cmdline=suite.cmdline + ("bench_syms=1",),
        qemu_args=suite.qemu_args + (
            "-monitor", f"unix:{sock},server=on,wait=off"),
        modules=tuple((path.format(builddir=build), args)
                      for path, args in suite.modules))
    suite_dir = run.fresh_dir(out / suite.name)
    suite = suite.prepare(suite, suite_dir)
    switch = LogSwitch(suite_dir / "console.log", sock, log,
                       f"native-linux: lxbench {spec.command}:",
                       "GRAFT-EXIT:")
    switch.start()
    verdict, _ = boot.boot_qemu("qemu-system-x86_64",
                                build / "bench" / "native" / "vmlinuz",
                                suite, suite_dir)
    switch.done.set()
    switch.join(timeout=5)
    console = boot.read_text(suite_dir / "console.log")
    problem = switch.problem or ("" if verdict.ok else
                                 f"{verdict.status}: {verdict.reason}")
    if not problem and not log.exists():
        problem = "the boot left no log"
    if not problem:
        problem = kernel_map(console, out / "linux.map")
    if problem:
        print(f"native_profile: {problem} (see {suite_dir})",
              file=sys.stderr)
        return 1
    return subprocess.call([
        sys.executable, str(SRCDIR / "tools" / "qemu_profile.py"),
        "--calls", f"{spec.call}:{FIRST}:{LAST}", "--top", str(top),
        str(log), str(out / "linux.map"),
        str(build / "bench" / "native" / "lxbench")])
