# SPDX-License-Identifier: GPL-2.0-only
"""The host side of the `net-ping-host` suite: the host's own `ping`
reaches servers/pingd in the guest.

PingHost creates a network namespace with a tap device (10.0.2.1/24),
in which the suite runs QEMU (its command prefix is `ip netns exec NS`).
A thread waits until the guest's console (suite_dir/console.log) says
pingd is ready, runs `ping -c 3 -W 2` to the guest inside the namespace
and, only if all three echoes came back, one more `ping -c 1`: pingd
(count=4) ends after its fourth reply, so the guest's side of the suite
(tests/kernel/net_ping_test.c) passes only when the host's ping
succeeded.  Every step and ping's output go to suite_dir/ping.log.  The
namespace is deleted when the thread ends (QEMU, already in it, keeps
it alive until it exits) and, as a backstop, at the harness's exit.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import threading
import time
from pathlib import Path

TAP = "tap0"
HOST_ADDRESS = "10.0.2.1/24"


def run(argv: list[str], log, timeout: float = 10.0,
        expect: str = "") -> bool:
    """Run `argv`, its output to `log`; whether it exited with 0 and its
    output contains `expect`."""
    log.write(f"$ {' '.join(argv)}\n")
    log.flush()
    try:
        done = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        log.write(f"failed: {error}\n")
        return False
    log.write(f"{done.stdout}exit status {done.returncode}\n")
    log.flush()
    return done.returncode == 0 and expect in done.stdout


class PingHost:
    """The namespace, its tap device and the thread that pings."""

    def __init__(self, suite_dir: Path, guest_ip: str, seconds: float):
        self.suite_dir, self.guest_ip = suite_dir, guest_ip
        self.ns = f"graft-ping-{os.getpid()}"
        self.deadline = time.monotonic() + seconds
        self.log = (suite_dir / "ping.log").open("w")
        self.deleted = False
        atexit.register(self.delete)
        exec_ns = ["ip", "netns", "exec", self.ns]
        self.ready = (run(["ip", "netns", "add", self.ns], self.log) and
                      run(exec_ns + ["ip", "tuntap", "add", "dev", TAP,
                                     "mode", "tap"], self.log) and
                      run(exec_ns + ["ip", "addr", "add", HOST_ADDRESS,
                                     "dev", TAP], self.log) and
                      run(exec_ns + ["ip", "link", "set", TAP, "up"],
                          self.log))
        self.thread = threading.Thread(target=self.ping, daemon=True,
                                       name="ping-host")

    def prefix(self) -> tuple[str, ...]:
        return ("ip", "netns", "exec", self.ns)

    def netdev(self, name: str) -> str:
        """QEMU's -netdev value for the namespace's tap device."""
        return f"tap,id={name},ifname={TAP},script=no,downscript=no"

    def start(self) -> None:
        self.thread.start()

    def delete(self) -> None:
        if not self.deleted:
            self.deleted = True
            run(["ip", "netns", "delete", self.ns], self.log)

    def wait_for_pingd(self) -> bool:
        console = self.suite_dir / "console.log"
        while time.monotonic() < self.deadline:
            try:
                if b"pingd: ready" in console.read_bytes():
                    return True
            except OSError:
                pass
            time.sleep(0.2)
        return False

    def ping(self) -> None:
        ping = list(self.prefix()) + ["ping", "-W", "2", "-c"]
        try:
            if not self.ready:
                self.log.write("namespace not set up: no ping\n")
            elif not self.wait_for_pingd():
                self.log.write("pingd never said it was ready\n")
            elif run(ping + ["3", self.guest_ip], self.log, timeout=20,
                     expect="3 packets transmitted, 3 received"):
                self.log.write("ping succeeded: the verdict ping\n")
                run(ping + ["1", self.guest_ip], self.log, timeout=10)
            else:
                self.log.write("ping failed: no verdict ping\n")
        finally:
            self.delete()
            self.log.close()
