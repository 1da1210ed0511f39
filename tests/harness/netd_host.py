# SPDX-License-Identifier: GPL-2.0-only
"""The netd-* suites: servers/netd in Graft, reached by the host's own tools.

Run as a host suite (it prints KTAP), as root with /dev/net/tun:

    netd_host.py --builddir B --suitedir S --suite NAME --nic e1000,addr=03.0
                 --checks ping,http,big,echo,iperf,client
                 [--emulator qemu|bochs] [--boot-seconds N]

It makes a network namespace with a tap device (10.0.2.1/24), boots
Graft there (`linux` on the command line, netd as the one module,
address 10.0.2.15, the guest's console in S/guest.log) in QEMU with
QEMU's NIC --nic on the tap, or in Bochs from the GRUB ISO with its
e1000 on the tap (ethmod=tuntap), and, once netd says it is ready,
runs each check from inside the namespace:

  ping    the host's `ping`, 5 echoes
  http    `curl` of the status page twice: the page names eth0 and its
          rx_frames counter grew between the two (generated live); a 404
  big     `curl` of /big.bin (2 MiB), compared byte for byte with the
          pattern status.c generates
  echo    TCP echo (port 7) of 64 KiB, UDP echo, 20 datagrams to the UDP
          discard port (9) counted on the status page
  iperf   Debian's iperf 2 client against netd's lwiperf for 3 s; the
          rate is printed as a KTAP comment (Mbit/s) and netd must report
          the test on its console
  client  tests/user/netd_client.elf, started by netd from a RAM disk
          (run=rd0): it fetches a file from an HTTP server this script runs
          on the tap side, echoes UDP through a server here, and accepts a
          connection this script makes; each of its USER-PASS / USER-FAIL
          lines is a case

Last, netd must still answer a ping and the console must have no panic.
QEMU is killed and the namespace deleted at the end (and at exit).
Steps and tool output go to S/host.log.
"""

from __future__ import annotations

import argparse
import atexit
import os
import re
import signal
import socket
import subprocess
import sys
import time
import zlib
from pathlib import Path

TAP = "tap0"
HOST_IP, GUEST_IP = "10.0.2.1", "10.0.2.15"
GUEST_MAC = "52:54:00:12:34:56"
BIG_SIZE = 2 << 20
PEER_HTTP_PORT, PEER_UDP_PORT, CLIENT_LISTEN_PORT = 8000, 7007, 2000


def big_pattern(size: int = BIG_SIZE) -> bytes:
    """/big.bin as servers/netd/status.c makes it: byte i = 7i ^ (i >> 11)."""
    return bytes(((i * 7) ^ (i >> 11)) & 0xff for i in range(size))


def peer_file() -> bytes:
    """The file the client fetches from the host: 300,000 bytes."""
    return bytes((i * 131 + (i >> 9)) & 0xff for i in range(300000))


def program_disk(elf: Path, out: Path) -> None:
    """A RAM disk image for netd's run=: a 512-byte header record
    "netd-program LENGTH\\n", the ELF, zeros to a whole record."""
    data = elf.read_bytes()
    head = f"netd-program {len(data)}\n".encode().ljust(512, b"\0")
    body = head + data
    out.write_bytes(body + b"\0" * (-len(body) % 512))


# --- helpers run inside the namespace (netd_host.py peer ...) ----------

def peer_main(argv: list[str]) -> int:
    """Small network peers; exit status 0 when the exchange was right."""
    cmd = argv[0]
    if cmd == "tcp-echo":
        data = bytes((i * 13) & 0xff for i in range(int(argv[2])))
        with socket.create_connection((argv[1], 7), timeout=20) as s:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
            got = bytearray()
            while chunk := s.recv(65536):
                got += chunk
        print(f"sent {len(data)} bytes, got {len(got)} back")
        return 0 if bytes(got) == data else 1
    if cmd == "udp-echo":
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.settimeout(2)
            for attempt in range(5):
                s.sendto(b"graft udp echo", (argv[1], 7))
                try:
                    got, _ = s.recvfrom(2048)
                except socket.timeout:
                    continue
                print(f"got {got!r}")
                return 0 if got == b"graft udp echo" else 1
        return 1
    if cmd == "udp-discard":
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for i in range(int(argv[2])):
                s.sendto(b"x" * 100, (argv[1], 9))
                time.sleep(0.02)
        return 0
    if cmd == "udp-echo-server":
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.bind((argv[1], int(argv[2])))
            while True:
                data, addr = s.recvfrom(65536)
                s.sendto(data, addr)
    if cmd == "line":
        deadline = time.monotonic() + 20
        while True:
            try:
                s = socket.create_connection((argv[1], int(argv[2])),
                                             timeout=10)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        with s:
            s.sendall(b"hello from the host\n")
            got = s.recv(4096)
        print(f"got {got!r}")
        return 0 if got == b"hello from the host\n" else 1
    raise SystemExit(f"unknown peer command {cmd}")


# --- the suite ---------------------------------------------------------

class Suite:
    def __init__(self, args):
        self.args = args
        self.dir = Path(args.suitedir)
        self.log = (self.dir / "host.log").open("w")
        self.ns = f"graft-netd-{os.getpid()}"
        self.cases: list[tuple[str, str | None]] = []
        self.comments: list[str] = []
        self.qemu = None
        self.helpers: list[subprocess.Popen] = []
        self.guest_log = self.dir / "guest.log"
        atexit.register(self.cleanup)

    def run(self, argv, timeout=30.0, ns=True) -> tuple[bool, str]:
        if ns:
            argv = ["ip", "netns", "exec", self.ns] + list(argv)
        self.log.write(f"$ {' '.join(argv)}\n")
        self.log.flush()
        try:
            done = subprocess.run(argv, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=timeout,
                                  check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            self.log.write(f"failed: {error}\n")
            return False, ""
        out = done.stdout.decode(errors="replace")
        self.log.write(f"{out}exit status {done.returncode}\n")
        self.log.flush()
        return done.returncode == 0, out

    def case(self, name: str, problem: str | None) -> None:
        self.cases.append((name, problem))

    def console(self) -> str:
        try:
            return self.guest_log.read_text(errors="replace")
        except OSError:
            return ""

    def wait_console(self, text: str, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if text in self.console():
                return True
            if self.qemu is not None and self.qemu.poll() is not None:
                return text in self.console()
            time.sleep(0.2)
        return False

    def setup(self) -> bool:
        ok = (self.run(["ip", "netns", "add", self.ns], ns=False)[0] and
              self.run(["ip", "tuntap", "add", "dev", TAP, "mode", "tap"])[0]
              and self.run(["ip", "addr", "add", f"{HOST_IP}/24", "dev",
                            TAP])[0] and
              self.run(["ip", "link", "set", TAP, "up"])[0] and
              self.run(["ip", "link", "set", "lo", "up"])[0])
        return ok

    def helper(self, argv) -> None:
        argv = ["ip", "netns", "exec", self.ns] + list(argv)
        self.log.write(f"$ {' '.join(argv)} &\n")
        out = (self.dir / f"helper{len(self.helpers)}.log").open("w")
        self.helpers.append(subprocess.Popen(argv, stdout=out,
                                             stderr=subprocess.STDOUT,
                                             start_new_session=True))

    def boot(self) -> None:
        build = Path(self.args.builddir)
        netd = (f"{build}/servers/netd/netd.elf netd ip={GUEST_IP} "
                "device=${device-port}")
        modules = [netd]
        if "client" in self.args.checks:
            disk = self.dir / "client.img"
            program_disk(build / "tests/user/netd_client.elf", disk)
            crc = zlib.crc32(peer_file())
            modules[0] += (
                " run=rd0 args=netd_client+peer=" + HOST_IP +
                f"+http={PEER_HTTP_PORT}+path=/peer.bin"
                f"+len={len(peer_file())}+crc={crc:#x}"
                f"+udp={PEER_UDP_PORT}+listen={CLIENT_LISTEN_PORT}")
            modules.append(f"{disk} client rd0")
        if self.args.emulator == "bochs":
            argv = self.bochs_argv(build, modules)
            stdout = (self.dir / "bochs.log").open("wb")
        else:
            argv = ["ip", "netns", "exec", self.ns, self.args.qemu,
                    "-accel", "tcg", "-M", "pc", "-m", "128",
                    "-display", "none", "-monitor", "none",
                    "-serial", "stdio", "-no-reboot",
                    "-device", "isa-debug-exit,iobase=0x501,iosize=1",
                    "-kernel", str(build / "kernel/graft.elf"),
                    "-append", "linux", "-initrd", ",".join(modules),
                    "-nic", "none", "-netdev",
                    f"tap,id=n0,ifname={TAP},script=no,downscript=no",
                    "-device",
                    f"{self.args.nic},netdev=n0,mac={GUEST_MAC}"]
            stdout = self.guest_log.open("wb")
        (self.dir / "command.txt").write_text(" ".join(argv) + "\n")
        self.qemu = subprocess.Popen(argv, stdout=stdout,
                                     stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL,
                                     start_new_session=True)

    def bochs_argv(self, build: Path, modules: list[str]) -> list[str]:
        """The GRUB ISO (boot/mkiso.sh) with netd, and Bochs' e1000 on
        the namespace's tap device (ethmod=tuntap); the serial port is
        written to guest.log."""
        srcdir = Path(__file__).resolve().parents[2]
        iso = self.dir / "graft.iso"
        mkiso = ["sh", str(srcdir / "boot/mkiso.sh"), str(iso),
                 str(build / "kernel/graft.elf"), "exit=bochs linux"]
        for module in modules:
            path, _, words = module.partition(" ")
            mkiso += [path, words]
        self.run(mkiso, timeout=120, ns=False)
        template = (srcdir / "boot/bochsrc.in").read_text()
        rc = (template.replace("@ISO@", str(iso))
              .replace("@SERIAL_LOG@", str(self.guest_log))
              .replace("@MEGS@", "128"))
        rc += ("pci: enabled=1, chipset=i440fx, slot1=e1000\n"
               f"e1000: enabled=1, mac={GUEST_MAC}, ethmod=tuntap, "
               f"ethdev=/dev/net/tun:{TAP}\n")
        (self.dir / "bochsrc").write_text(rc)
        (self.dir / "bochs.rc").write_text("c\n")
        self.guest_log.write_bytes(b"")
        return ["ip", "netns", "exec", self.ns, self.args.bochs, "-q",
                "-f", str(self.dir / "bochsrc"), "-rc",
                str(self.dir / "bochs.rc")]

    def cleanup(self) -> None:
        for p in self.helpers + ([self.qemu] if self.qemu else []):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except OSError:
                    pass
                p.wait()
        self.helpers, self.qemu = [], None
        if self.ns:
            self.run(["ip", "netns", "delete", self.ns], ns=False)
            self.ns = ""

    # --- checks --------------------------------------------------------

    def status_page(self) -> str:
        ok, out = self.run(["curl", "-s", "-m", "20",
                            f"http://{GUEST_IP}/"])
        return out if ok else ""

    @staticmethod
    def counter(page: str, name: str) -> int:
        m = re.search(rf"<td>{name}</td><td>(\d+)</td>", page)
        return int(m.group(1)) if m else -1

    def check_ping(self) -> None:
        ok, out = self.run(["ping", "-c", "5", "-W", "2", GUEST_IP])
        self.case("host_ping", None if ok and "5 received" in out
                  else "ping did not get 5 replies")

    def check_http(self) -> None:
        first = self.status_page()
        second = self.status_page()
        self.case("http_status_page", None
                  if "<h1>Graft: netd status</h1>" in first and
                  "<td>eth0</td>" in first else "no status page for eth0")
        a, b = self.counter(first, "rx_frames"), self.counter(second,
                                                               "rx_frames")
        self.case("http_status_page_is_live", None if 0 <= a < b else
                  f"rx_frames {a} then {b}")
        ok, out = self.run(["curl", "-s", "-o", "/dev/null", "-w",
                            "%{http_code}", "-m", "20",
                            f"http://{GUEST_IP}/no-such-page"])
        self.case("http_404", None if out.strip() == "404" else
                  f"status {out.strip()!r}")

    def check_big(self) -> None:
        out_file = self.dir / "big.bin"
        start = time.monotonic()
        ok, _ = self.run(["curl", "-s", "-m", "120", "-o", str(out_file),
                          f"http://{GUEST_IP}/big.bin"], timeout=130)
        seconds = time.monotonic() - start
        try:
            got = out_file.read_bytes()
        except OSError:
            got = b""
        want = big_pattern()
        self.case("http_big_file_checksum",
                  None if ok and zlib.crc32(got) == zlib.crc32(want) and
                  got == want else
                  f"{len(got)} bytes, CRC {zlib.crc32(got):#x}, expected "
                  f"{len(want)} bytes, CRC {zlib.crc32(want):#x}")
        if ok and got == want:
            self.comments.append(f"big.bin: {len(got)} bytes in "
                                 f"{seconds:.2f} s, "
                                 f"{len(got) * 8 / seconds / 1e6:.1f} Mbit/s")
        out_file.unlink(missing_ok=True)

    def check_echo(self) -> None:
        me = [sys.executable, __file__, "peer"]
        ok, out = self.run(me + ["tcp-echo", GUEST_IP, "65536"], timeout=60)
        self.case("tcp_echo_64k", None if ok else out.strip()[-200:])
        ok, out = self.run(me + ["udp-echo", GUEST_IP])
        self.case("udp_echo", None if ok else out.strip()[-200:])
        before = self.counter(self.status_page(), "discarded_datagrams")
        self.run(me + ["udp-discard", GUEST_IP, "20"])
        time.sleep(1)
        after = self.counter(self.status_page(), "discarded_datagrams")
        self.case("udp_discard_counts_20", None if before >= 0 and
                  after - before == 20 else
                  f"discarded_datagrams {before} then {after}")

    def check_iperf(self) -> None:
        ok, out = self.run(["iperf", "-c", GUEST_IP, "-t", "3", "-f", "m"],
                           timeout=40)
        m = re.search(r"([\d.]+) Mbits/sec", out)
        reported = self.wait_console("netd: iperf from", 10)
        self.case("iperf_to_lwiperf", None if ok and m and reported else
                  "no iperf result" if not m else "netd reported nothing")
        if m:
            self.comments.append(f"iperf: {m.group(1)} Mbit/s over 3 s")

    def check_client(self) -> None:
        if not self.wait_console(f"netd_client: listening on "
                                 f"{CLIENT_LISTEN_PORT}", 90):
            self.case("client_listens", "the client never listened")
        else:
            ok, out = self.run([sys.executable, __file__, "peer", "line",
                                GUEST_IP, str(CLIENT_LISTEN_PORT)])
            self.case("client_echoes_the_hosts_line",
                      None if ok else out.strip()[-200:])
        done = self.wait_console("USER-DONE", 30)
        lines = self.console().splitlines()
        checks = 0
        for line in lines:
            line = line.strip()
            if line.startswith("USER-PASS "):
                checks += 1
                self.case("client." + line.split()[1], None)
            elif line.startswith("USER-FAIL "):
                checks += 1
                name = line.split()[1].rstrip(":")
                self.case("client." + name, line)
        m = re.search(r"USER-DONE (\d+)", self.console())
        self.case("client_ran_all_its_checks",
                  None if done and m and int(m.group(1)) == checks and
                  checks >= 30 else f"{checks} check lines, "
                  f"{m.group(0) if m else 'no USER-DONE'}")

    def start_client_peers(self) -> None:
        www = self.dir / "www"
        www.mkdir(exist_ok=True)
        (www / "peer.bin").write_bytes(peer_file())
        self.helper([sys.executable, "-m", "http.server", "--bind", HOST_IP,
                     "--directory", str(www), str(PEER_HTTP_PORT)])
        self.helper([sys.executable, __file__, "peer", "udp-echo-server",
                     HOST_IP, str(PEER_UDP_PORT)])

    def main(self) -> int:
        checks = self.args.checks.split(",")
        if not self.setup():
            self.case("namespace_and_tap", "could not set them up")
        else:
            if "client" in checks:
                self.start_client_peers()
                time.sleep(1)
            self.boot()
            ready = self.wait_console("netd: ready", self.args.boot_seconds)
            self.case("netd_ready", None if ready else
                      "netd never said it was ready")
            if ready:
                table = {"ping": self.check_ping, "http": self.check_http,
                         "big": self.check_big, "echo": self.check_echo,
                         "iperf": self.check_iperf,
                         "client": self.check_client}
                for name in checks:
                    table[name]()
                ok, _ = self.run(["ping", "-c", "1", "-W", "3", GUEST_IP])
                self.case("netd_alive_at_the_end", None if ok else
                          "no ping reply")
        console = self.console()
        self.case("no_panic", None if "*** PANIC" not in console else
                  "the kernel panicked")
        self.cleanup()
        self.report()
        return 0

    def report(self) -> None:
        name = self.args.suite
        print(f"KTAP version 1\n1..1\n    KTAP version 1\n"
              f"    # Subtest: {name}\n    1..{len(self.cases)}")
        for comment in self.comments:
            print(f"    # {comment}")
        for i, (case, problem) in enumerate(self.cases, 1):
            if problem:
                print(f"    # {case}: {problem}")
            print(f"    {'not ' if problem else ''}ok {i} {case}")
        failed = any(problem for _, problem in self.cases)
        print(f"{'not ' if failed else ''}ok 1 {name}")


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "peer":
        return peer_main(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builddir", required=True)
    parser.add_argument("--suitedir", required=True)
    parser.add_argument("--suite", required=True)
    parser.add_argument("--nic", default="e1000,addr=03.0")
    parser.add_argument("--checks", default="ping,http,big,echo,iperf")
    parser.add_argument("--boot-seconds", type=float, default=90.0)
    parser.add_argument("--emulator", choices=("qemu", "bochs"),
                        default="qemu")
    parser.add_argument("--qemu", default=os.environ.get(
        "GRAFT_QEMU", "qemu-system-x86_64"))
    parser.add_argument("--bochs", default=os.environ.get(
        "GRAFT_BOCHS", "bochs"))
    return Suite(parser.parse_args()).main()


if __name__ == "__main__":
    sys.exit(main())
