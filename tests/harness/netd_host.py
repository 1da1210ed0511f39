# SPDX-License-Identifier: GPL-2.0-only
"""The netd-* suites: servers/netd in Graft, reached by the host's own tools.

Run as a host suite (it prints KTAP), as root with /dev/net/tun:

    netd_host.py --builddir B --suitedir S --suite NAME --nic e1000,addr=03.0
                 --checks ping,http,big,echo,iperf,client
                 [--emulator qemu|bochs] [--boot-seconds N]
                 [--server DRIVER] [--client-module]

It makes a network namespace with a tap device (10.0.2.1/24), boots
Graft there (`linux` on the command line, netd as the one module, or
after lxdrv with the NIC's driver given --server (`linux.server=`),
address 10.0.2.15, the guest's console in S/guest.log) in QEMU with
QEMU's NIC --nic on the tap, or in Bochs from the GRUB ISO with its
e1000 on the tap (ethmod=tuntap), and, once netd says it is ready,
runs each check from inside the namespace:

  ping    the host's `ping`, 5 echoes
  http    `curl` of the status page twice: the page names eth0 and its
          rx_frames counter grew between the two (generated live); eth0's
          Linux driver and where it runs (GRAFT_DEV_INFO: the kernel, or
          lxdrv with --server), the driver's counters growing, the
          emulation paths' probes timing frames (more samples the second
          time, min <= median <= p99 <= max); a 404
  ipv6    netd's IPv6 link-local address: `ping -6` and `curl` of the
          status page over it
  big     `curl` of /big.bin (2 MiB), compared byte for byte with the
          pattern status.c generates
  echo    TCP echo (port 7) of 64 KiB, UDP echo, 20 datagrams to the UDP
          discard port (9) counted on the status page
  iperf   Debian's iperf 2 client against netd's lwiperf for 3 s; the
          rate is printed as a KTAP comment (Mbit/s) and netd must report
          the test on its console
  wire    bad input from the wire, by hand-built raw frames on the tap:
          one of each malformed Ethernet/ARP/IP/ICMP/UDP/TCP frame,
          unfinished fragments, 3000 seeded random mutations of good
          frames, a SYN flood (2000 in 5 s), an HTTP request with 1 MiB
          of headers, 20 half-open connections while the status page is
          read, 8 s of iperf (more than 65,536 frames); then netd still answers ping, the status page's memory
          counters (heap, pbuf pool, TCP PCBs and segments) are back to
          their baseline, and the kernel printed no line meanwhile
  bench   the `make bench` figures as BENCH lines (wall clock):
          netd.tcp.rate (Mbit/s, iperf, 5 runs of 3 s), netd.ping.rtt
          (us, 100 pings 20 ms apart), netd.http.rate (requests/s, 5
          passes of 100 status pages, a connection each, one at a time);
          with --linux, native Linux (bench/native: Debian's kernel and
          e1000 module, lxbench's TCP sink on port 5001) is booted on
          the same tap instead of Graft and gives linux.tcp.rate and
          linux.ping.rtt the same way
  client  tests/user/netd_client.elf, started by netd from a RAM disk
          (run=rd0), or with --client-module as a boot module of its own
          given netd's port by the boot script (netd's line binds
          $(netd-port=port-create), the client's names ${netd-port}): it
          fetches a file from an HTTP server this script runs on the tap
          side and echoes UDP through a server here, over IPv4 and over
          IPv6 (the tap's fe80::1; the IPv6 addresses no call may use
          refused), accepts a connection this script makes over IPv4 and
          one over IPv6, and leaves a listener open when it ends; each of
          its USER-PASS / USER-FAIL lines is a case;
          then that listener must refuse connections (netd closed the
          dead client's session) and the status page must show no
          session or socket left

Last, netd must still answer a ping and the console must have no panic.
QEMU is killed and the namespace deleted at the end (and at exit).
Steps and tool output go to S/host.log.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

from ping_peer import checksum  # the harness directory is on sys.path

TAP = "tap0"
HOST_IP, GUEST_IP = "10.0.2.1", "10.0.2.15"
IPERF_PORT = 5001               # iperf 2's
HOST_IP6 = "fe80::1"            # the tap's, set without waiting for DAD
GUEST_MAC = "52:54:00:12:34:56"
BIG_SIZE = 2 << 20
PEER_HTTP_PORT, PEER_UDP_PORT, CLIENT_LISTEN_PORT = 8000, 7007, 2000
PEER_HTTP6_PORT, PEER_UDP6_PORT = 8006, 7008
CLIENT_LEAVE_PORT = 2001


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
        # Bound to one address (an IPv6 one with its %zone), so that the
        # echoes come from the address the datagrams went to.
        family, _, _, _, where = socket.getaddrinfo(
            argv[1], int(argv[2]), type=socket.SOCK_DGRAM)[0]
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.bind(where)
            while True:
                data, addr = s.recvfrom(65536)
                s.sendto(data, addr)
    if cmd == "wire":
        return wire_main(argv[1:])
    if cmd == "http-rate":
        import http.client

        count = int(argv[2])
        start = time.monotonic()
        for _ in range(count):
            conn = http.client.HTTPConnection(argv[1], 80, timeout=10)
            conn.request("GET", "/")
            body = conn.getresponse().read()
            conn.close()
            if b"netd status" not in body:
                return 1
        print(f"rate {count / (time.monotonic() - start):.3f}")
        return 0
    if cmd == "refused":
        # A connection to the port must be refused (RST).
        try:
            socket.create_connection((argv[1], int(argv[2])),
                                     timeout=10).close()
        except ConnectionRefusedError:
            print("refused")
            return 0
        print("connected: something still listens")
        return 1
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



# --- bad input from the wire (netd_host.py peer wire ...) ---------------

class Wire:
    """Raw frames on the tap device (AF_PACKET), built by hand."""

    def __init__(self, guest_ip: str, guest_mac: str):
        self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        self.sock.bind((TAP, 0))
        self.src_mac = bytes.fromhex(Path(f"/sys/class/net/{TAP}/address")
                                     .read_text().strip().replace(":", ""))
        self.dst_mac = bytes.fromhex(guest_mac.replace(":", ""))
        self.src_ip = socket.inet_aton(HOST_IP)
        self.dst_ip = socket.inet_aton(guest_ip)
        self.sent = 0

    def frame(self, ethertype: int, payload: bytes) -> bytes:
        return self.dst_mac + self.src_mac + struct.pack("!H",
                                                         ethertype) + payload

    def send(self, frame: bytes, pace: float = 0.002) -> None:
        try:
            self.sock.send(frame)
            self.sent += 1
        except OSError:
            pass            # a frame the tap refuses (too short, too long)
        time.sleep(pace)

    def ip(self, proto: int, payload: bytes, *, ihl: int = 5,
           total: int | None = None, flags_frag: int = 0, ttl: int = 64,
           version: int = 4, good_sum: bool = True,
           options: bytes = b"") -> bytes:
        total = 4 * ihl + len(payload) if total is None else total
        head = struct.pack("!BBHHHBBH4s4s", version << 4 | ihl, 0,
                           total & 0xffff, 0x4752, flags_frag, ttl, proto,
                           0, self.src_ip, self.dst_ip) + options
        head = head[:4 * ihl] if len(head) >= 4 * ihl else head
        csum = checksum(head) if good_sum else 0x1234
        head = head[:10] + struct.pack("!H", csum) + head[12:]
        return head + payload

    def pseudo(self, proto: int, segment: bytes) -> bytes:
        return self.src_ip + self.dst_ip + struct.pack("!BBH", 0, proto,
                                                       len(segment))

    def tcp(self, dport: int, flags: int, *, sport: int = 40000,
            seq: int = 1, ack: int = 0, offset: int = 5,
            options: bytes = b"", data: bytes = b"",
            good_sum: bool = True) -> bytes:
        seg = struct.pack("!HHIIBBHHH", sport, dport, seq, ack,
                          offset << 4, flags, 8192, 0, 0) + options + data
        csum = checksum(self.pseudo(6, seg) + seg) if good_sum else 0x4242
        return seg[:16] + struct.pack("!H", csum) + seg[18:]

    def udp(self, dport: int, data: bytes, *, length: int | None = None,
            good_sum: bool = True, sport: int = 40001) -> bytes:
        length = 8 + len(data) if length is None else length
        seg = struct.pack("!HHHH", sport, dport, length & 0xffff, 0) + data
        csum = (checksum(self.pseudo(17, seg) + seg) or 0xffff) \
            if good_sum else 0x4343
        return seg[:6] + struct.pack("!H", csum) + seg[8:]

    def icmp(self, icmp_type: int, data: bytes, good_sum: bool = True,
             code: int = 0) -> bytes:
        msg = struct.pack("!BBHHH", icmp_type, code, 0, 0x4752, 1) + data
        csum = checksum(msg) if good_sum else 0x5151
        return msg[:2] + struct.pack("!H", csum) + msg[4:]


def wire_malformed(w: Wire) -> int:
    """One of each kind of bad frame; returns how many were sent."""
    ipf = lambda payload: w.frame(0x0800, payload)  # noqa: E731
    frames = [
        w.frame(0x0800, b""),                           # no IP header
        w.frame(0x0800, b"\x45\x00"),                   # truncated IP
        w.frame(0x88b5, b"\xde\xad" * 40),              # unknown type
        w.frame(0x0806, b"\x00\x01\x08\x00"),           # truncated ARP
        w.frame(0x0806, struct.pack("!HHBBH", 1, 0x800, 0, 0, 1) +
                b"\0" * 20),                            # ARP, lengths 0
        w.frame(0x0806, struct.pack("!HHBBH", 1, 0x800, 6, 4, 9) +
                b"\0" * 20),                            # ARP opcode 9
        ipf(w.ip(1, w.icmp(8, b"v6"), version=6)),      # version 6
        ipf(w.ip(1, w.icmp(8, b"ihl"), ihl=3)),         # IHL below 5
        ipf(w.ip(1, w.icmp(8, b"x"), ihl=15)),          # IHL past the end
        ipf(w.ip(1, w.icmp(8, b"len"), total=65535)),   # length too big
        ipf(w.ip(1, w.icmp(8, b"len"), total=10)),      # length below IHL
        ipf(w.ip(1, w.icmp(8, b"sum"), good_sum=False)),
        ipf(w.ip(1, w.icmp(8, b"ttl0"), ttl=0)),
        ipf(w.ip(99, b"unknown protocol")),
        ipf(w.ip(1, w.icmp(8, b"opt"), ihl=7,
                 options=b"\xff\x00\x07\x01\x02\x03\x04\x05")),
        ipf(w.ip(1, w.icmp(8, b"\0" * 16), flags_frag=0x1fff)),  # last
        ipf(w.ip(1, w.icmp(8, b"\0" * 16), flags_frag=0x3fff)),  # max off
        ipf(w.ip(1, b"\x08")),                          # ICMP, 1 byte
        ipf(w.ip(1, w.icmp(8, b"bad", good_sum=False))),
        ipf(w.ip(1, w.icmp(255, b"type 255"))),
        ipf(w.ip(1, w.icmp(0, b"unsolicited reply"))),
        ipf(w.ip(1, w.icmp(3, b"\0" * 28, code=3))),    # unreachable
        ipf(w.ip(17, b"\x00\x07")),                     # UDP, 2 bytes
        ipf(w.ip(17, w.udp(7, b"short", length=4))),    # length below 8
        ipf(w.ip(17, w.udp(7, b"long", length=1000))),  # past the end
        ipf(w.ip(17, w.udp(7, b"length 0", length=0))),
        ipf(w.ip(17, w.udp(7, b"sum", good_sum=False))),
        ipf(w.ip(17, w.udp(4444, b"closed port"))),
        ipf(w.ip(6, b"\x00\x50\x9c\x40")),              # TCP, 4 bytes
        ipf(w.ip(6, w.tcp(80, 0x02, offset=2))),        # offset below 5
        ipf(w.ip(6, w.tcp(80, 0x02, offset=15))),       # offset past end
        ipf(w.ip(6, w.tcp(80, 0x3f))),                  # every flag
        ipf(w.ip(6, w.tcp(80, 0x03))),                  # SYN + FIN
        ipf(w.ip(6, w.tcp(80, 0x02, good_sum=False))),
        ipf(w.ip(6, w.tcp(80, 0x04, seq=123456))),      # stray RST
        ipf(w.ip(6, w.tcp(4444, 0x10, ack=99))),        # ACK, closed port
        ipf(w.ip(6, w.tcp(80, 0x02, offset=6,
                          options=b"\x02\x00\x00\x00"))),  # MSS option len 0
        ipf(w.ip(6, w.tcp(80, 0x02, offset=6,
                          options=b"\x03\xff\x0e\x00"))),  # window scale 255
        ipf(w.ip(6, w.tcp(80, 0x18, data=b"GET / HTTP/1.0\r\n\r\n"))),
    ]
    for frame in frames:
        w.send(frame)
    # Fragments of datagrams never completed, and overlapping ones.
    for ident in range(40):
        w.send(ipf(w.ip(1, w.icmp(8, bytes(64)), flags_frag=0x2000 |
                        (ident % 5))))
    return len(frames) + 40


def wire_fuzz(w: Wire, count: int, seed: int) -> int:
    """@count good frames with random bytes changed, seeded."""
    import random

    rng = random.Random(seed)
    ipf = lambda payload: w.frame(0x0800, payload)  # noqa: E731
    good = [ipf(w.ip(6, w.tcp(80, 0x02))),
            ipf(w.ip(17, w.udp(7, b"fuzz" * 8))),
            ipf(w.ip(1, w.icmp(8, b"fuzz" * 8))),
            w.frame(0x0806, struct.pack("!HHBBH", 1, 0x800, 6, 4, 1) +
                    w.src_mac + w.src_ip + bytes(6) + w.dst_ip)]
    for _ in range(count):
        frame = bytearray(rng.choice(good))
        for _ in range(rng.randint(1, 6)):
            frame[rng.randrange(14, len(frame))] = rng.randrange(256)
        if rng.random() < 0.2:
            frame = frame[:rng.randrange(14, len(frame))]
        w.send(bytes(frame), pace=0.0005)
    return count


def wire_syn_flood(w: Wire, count: int, seconds: float, seed: int) -> int:
    """@count SYNs to port 80 from random ports within @seconds."""
    import random

    rng = random.Random(seed)
    pace = seconds / count
    for _ in range(count):
        w.send(w.frame(0x0800, w.ip(6, w.tcp(
            80, 0x02, sport=rng.randrange(1024, 65536),
            seq=rng.randrange(1 << 32)))), pace=pace)
    return count


def wire_big_headers(guest_ip: str, size: int) -> str:
    """One HTTP request with @size bytes of headers; what came back."""
    line = b"X-Graft-Junk: " + b"a" * 48 + b"\r\n"
    sent = 0
    try:
        with socket.create_connection((guest_ip, 80), timeout=10) as s:
            s.sendall(b"GET / HTTP/1.0\r\n")
            while sent < size:
                s.sendall(line * 64)
                sent += len(line) * 64
            s.sendall(b"\r\n")
            answer = s.recv(64)
    except OSError as error:
        return f"{sent} bytes sent, then {error}"
    return f"{sent} bytes sent, answer {answer[:40]!r}"


def wire_main(argv: list[str]) -> int:
    guest_ip, guest_mac, what = argv[0], argv[1], argv[2]
    if what == "big-headers":
        print(wire_big_headers(guest_ip, 1 << 20))
        return 0
    if what == "half-open":
        # Connections that send nothing, held until stdin closes.
        conns = [socket.create_connection((guest_ip, 80), timeout=10)
                 for _ in range(int(argv[3]))]
        print(f"{len(conns)} connections open", flush=True)
        sys.stdin.read()
        for c in conns:
            c.close()
        return 0
    w = Wire(guest_ip, guest_mac)
    if what == "malformed":
        n = wire_malformed(w)
    elif what == "fuzz":
        n = wire_fuzz(w, int(argv[3]), int(argv[4]))
    elif what == "syn-flood":
        n = wire_syn_flood(w, int(argv[3]), float(argv[4]), int(argv[5]))
    else:
        raise SystemExit(f"unknown wire command {what}")
    print(f"{what}: {n} frames built, {w.sent} sent")
    return 0


# --- the suite ---------------------------------------------------------

class Suite:
    def __init__(self, args):
        self.args = args
        self.dir = Path(args.suitedir)
        self.log = (self.dir / "host.log").open("w")
        self.ns = f"graft-netd-{os.getpid()}"
        self.cases: list[tuple[str, str | None]] = []
        self.comments: list[str] = []
        self.bench: list[str] = []
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
              self.run(["ip", "-6", "addr", "add", f"{HOST_IP6}/64", "dev",
                        TAP, "nodad"])[0] and
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

    def qemu_argv(self, kernel: Path, initrd: str,
                  append: str) -> list[str]:
        """QEMU in the namespace, --nic on its tap device."""
        return ["ip", "netns", "exec", self.ns, self.args.qemu,
                "-accel", "tcg", "-M", "pc", "-m", "128",
                "-display", "none", "-monitor", "none",
                "-serial", "stdio", "-no-reboot",
                "-device", "isa-debug-exit,iobase=0x501,iosize=1",
                "-kernel", str(kernel), "-append", append,
                "-initrd", initrd, "-nic", "none", "-netdev",
                f"tap,id=n0,ifname={TAP},script=no,downscript=no",
                "-device", f"{self.args.nic},netdev=n0,mac={GUEST_MAC}"]

    def boot_linux(self) -> None:
        """Native Linux (bench/native: Debian's kernel, its e1000
        module, our /init) at GUEST_IP, lxbench's TCP sink on iperf's
        port: the twin of netd's boot on the same machine."""
        native = Path(self.args.builddir) / "bench" / "native"
        argv = self.qemu_argv(
            native / "vmlinuz", str(native / "initramfs.cpio"),
            f"console=ttyS0 quiet panic=-1 bench_mode=wall "
            f"net_ip={GUEST_IP}/24 bench_run=tcpsink:{IPERF_PORT}")
        (self.dir / "command.txt").write_text(" ".join(argv) + "\n")
        self.qemu = subprocess.Popen(argv, stdout=self.guest_log.open("wb"),
                                     stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL,
                                     start_new_session=True)

    def boot(self) -> None:
        build = Path(self.args.builddir)
        netd = (f"{build}/servers/netd/netd.elf netd ip={GUEST_IP} "
                "device=${device-port}")
        modules = [netd]
        append = "linux"
        if self.args.server:
            append += f" linux.server={self.args.server}"
            modules.insert(0, f"{build}/servers/lxdrv/lxdrv.elf lxdrv "
                           f"drivers={self.args.server} pci=03.0 "
                           "device=${driver-port}")
        if "client" in self.args.checks:
            crc = zlib.crc32(peer_file())
            args = (f"peer={HOST_IP} http={PEER_HTTP_PORT} path=/peer.bin "
                    f"len={len(peer_file())} crc={crc:#x} "
                    f"udp={PEER_UDP_PORT} listen={CLIENT_LISTEN_PORT} "
                    f"leave={CLIENT_LEAVE_PORT} peer6={HOST_IP6} "
                    f"http6={PEER_HTTP6_PORT} udp6={PEER_UDP6_PORT}")
            if self.args.client_module:
                # The boot script hands netd's port to the client.
                modules[-1] += " service=$(netd-port=port-create)"
                modules.append(f"{build}/tests/user/netd_client.elf "
                               f"netd_client netd=${{netd-port}} {args}")
            else:
                disk = self.dir / "client.img"
                program_disk(build / "tests/user/netd_client.elf", disk)
                modules[-1] += (" run=rd0 args=netd_client+" +
                                args.replace(" ", "+"))
                modules.append(f"{disk} client rd0")
        if self.args.emulator == "bochs":
            argv = self.bochs_argv(build, modules, append)
            stdout = (self.dir / "bochs.log").open("wb")
        else:
            argv = self.qemu_argv(build / "kernel/graft.elf",
                                  ",".join(modules), append)
            stdout = self.guest_log.open("wb")
        (self.dir / "command.txt").write_text(" ".join(argv) + "\n")
        self.qemu = subprocess.Popen(argv, stdout=stdout,
                                     stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL,
                                     start_new_session=True)

    def bochs_argv(self, build: Path, modules: list[str],
                   append: str) -> list[str]:
        """The GRUB ISO (boot/mkiso.sh) with netd, and Bochs' e1000 on
        the namespace's tap device (ethmod=tuntap); the serial port is
        written to guest.log."""
        srcdir = Path(__file__).resolve().parents[2]
        iso = self.dir / "graft.iso"
        mkiso = ["sh", str(srcdir / "boot/mkiso.sh"), str(iso),
                 str(build / "kernel/graft.elf"), f"exit=bochs {append}"]
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

    @staticmethod
    def probe(page: str, device: str, name: str) -> tuple[int, ...]:
        """The probe row of @device's @name: samples, min, median, p99,
        max (empty if the page has none)."""
        m = re.search(rf"<td>{device}</td><td>{re.escape(name)}</td>"
                      r"<td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>"
                      r"<td>(\d+)</td><td>(\d+)</td>", page)
        return tuple(int(g) for g in m.groups()) if m else ()

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
        self.check_driver(first, second)

    def check_driver(self, first: str, second: str) -> None:
        """The status page's GRAFT_DEV_INFO rows for eth0: the Linux
        driver of --nic and where it runs (the kernel, or lxdrv with
        --server), the driver's own counters growing between two pages,
        and the emulation paths' probes timing the frames (their counts
        never shrinking: the kernel's net module times the first 128
        spans of each kind and then one in 16, so a few frames between
        the pages may add no sample)."""
        driver = {"e1000": "e1000", "ne2k_pci": "ne2k-pci"}.get(
            self.args.nic.split(",")[0], "?")
        where = ("in driver server " if self.args.server else
                 "in the kernel")
        m = re.search(r"<td>eth0</td><td>network</td><td>[^<]*</td>"
                      r"<td>([^<]*)</td><td>([^<]*)</td>", first)
        self.case("http_status_page_names_the_driver", None
                  if m and m.group(1) == driver and
                  m.group(2).startswith(where) else
                  f"eth0 row {m.groups() if m else None}, expected "
                  f"{driver!r} {where!r}")
        a = self.counter(first, "eth0.rx_packets")
        b = self.counter(second, "eth0.rx_packets")
        t = self.counter(second, "eth0.tx_packets")
        self.case("http_status_page_driver_counters", None
                  if 0 < a < b and t > 0 else
                  f"eth0.rx_packets {a} then {b}, eth0.tx_packets {t}")
        prefix = "server." if self.args.server else ""
        for span in ("tx", "rx", "txdone"):
            name = f"{prefix}net.{span}.glue"
            p, q = self.probe(first, "eth0", name), self.probe(second,
                                                                "eth0", name)
            self.comments.append(f"{name}: {q}")
            ordered = (len(q) == 5 and 0 < q[1] <= q[2] <= q[3] <= q[4])
            self.case(f"http_status_page_probe_{span}", None
                      if ordered and p and q[0] >= p[0] else
                      f"{name} {p} then {q}")
        ok, out = self.run(["curl", "-s", "-o", "/dev/null", "-w",
                            "%{http_code}", "-m", "20",
                            f"http://{GUEST_IP}/no-such-page"])
        self.case("http_404", None if out.strip() == "404" else
                  f"status {out.strip()!r}")

    def check_ipv6(self) -> None:
        """netd's IPv6 link-local address: ping -6 and curl over it."""
        self.wait_console("netd: ipv6 ", 15)
        m = re.search(r"netd: ipv6 (fe80:[0-9a-f:]+)", self.console(), re.I)
        self.case("ipv6_link_local_address", None if m else
                  "netd printed no IPv6 address")
        if not m:
            return
        address = m.group(1)
        ok, out = self.run(["ping", "-6", "-c", "3", "-W", "2",
                            f"{address}%{TAP}"])
        self.case("host_ping_ipv6", None if ok and "3 received" in out
                  else "ping -6 did not get 3 replies")
        ok, out = self.run(["curl", "-g", "-s", "-m", "20",
                            f"http://[{address}%25{TAP}]/"])
        self.case("http_status_page_over_ipv6",
                  None if "<h1>Graft: netd status</h1>" in out else
                  "no status page over IPv6")

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

    def bench_record(self, name: str, unit: str,
                     samples: list[float]) -> None:
        """A BENCH line (docs/testing.md) of @samples, wall clock."""
        values = sorted(samples)
        n = len(values)
        mean = sum(values) / n
        median = (values[(n - 1) // 2] + values[n // 2]) / 2
        p99 = values[max(0, -(-99 * n // 100) - 1)]
        variance = sum((v - mean) ** 2 for v in values) / n
        self.bench.append("BENCH " + json.dumps({
            "name": name, "unit": unit, "mode": "wall", "count": n,
            "min": round(values[0], 3), "median": round(median, 3),
            "p99": round(p99, 3), "variance": round(variance, 3)}))

    def check_bench(self) -> None:
        """netd.tcp.rate (iperf, 5 runs of 3 s), netd.ping.rtt (100
        pings, 20 ms apart), netd.http.rate (5 passes of 100 status
        pages, one connection each, one at a time); with --linux
        linux.tcp.rate and linux.ping.rtt (Linux serves no status
        page)."""
        who = "linux" if self.args.linux else "netd"
        rates = []
        for _ in range(5):
            ok, out = self.run(["iperf", "-c", GUEST_IP, "-t", "3", "-f",
                                "m"], timeout=40)
            m = re.search(r"([\d.]+) Mbits/sec", out)
            if ok and m:
                rates.append(float(m.group(1)))
        self.case("bench_tcp_rate", None if len(rates) == 5 else
                  f"{len(rates)} of 5 iperf runs gave a rate")
        if rates:
            self.bench_record(f"{who}.tcp.rate", "Mbit/s", rates)
        ok, out = self.run(["ping", "-c", "100", "-i", "0.02", "-W", "2",
                            GUEST_IP], timeout=60)
        rtts = [float(t) * 1000 for t in re.findall(r"time=([\d.]+) ms",
                                                     out)]
        self.case("bench_ping_rtt", None if len(rtts) == 100 else
                  f"{len(rtts)} of 100 replies")
        if rtts:
            self.bench_record(f"{who}.ping.rtt", "us", rtts)
        if self.args.linux:
            return
        passes = []
        for _ in range(5):
            ok, out = self.run([sys.executable, __file__, "peer",
                                "http-rate", GUEST_IP, "100"], timeout=120)
            m = re.search(r"rate ([\d.]+)", out)
            if ok and m:
                passes.append(float(m.group(1)))
        self.case("bench_http_rate", None if len(passes) == 5 else
                  f"{len(passes)} of 5 passes completed")
        if passes:
            self.bench_record("netd.http.rate", "requests/s", passes)

    def memory(self) -> dict[str, int]:
        page = self.status_page()
        return {name: self.counter(page, name) for name in
                ("heap_bytes_in_use", "pbuf_pool_used", "tcp_pcbs_used",
                 "tcp_segs_used")}

    def settled_memory(self, baseline: dict[str, int] | None,
                       tries: int = 6) -> dict[str, int]:
        """The status page's memory counters, read until two readings
        agree (and equal @baseline, if given), 2 s apart, at most
        @tries times."""
        last = self.memory()
        for _ in range(tries):
            time.sleep(2)
            now = self.memory()
            if now == last and (baseline is None or now == baseline):
                return now
            last = now
        return last

    def check_wire(self) -> None:
        me = [sys.executable, __file__, "peer", "wire", GUEST_IP, GUEST_MAC]
        self.status_page()              # first page, first allocations
        baseline = self.settled_memory(None)
        self.comments.append(f"memory baseline: {baseline}")
        start = len(self.console())
        ok, out = self.run(me + ["malformed"], timeout=60)
        self.case("wire_malformed_frames_sent", None if ok else out[-200:])
        ok, out = self.run(me + ["fuzz", "3000", "14"], timeout=120)
        self.case("wire_fuzzed_frames_sent", None if ok else out[-200:])
        ok, out = self.run(me + ["syn-flood", "2000", "5", "15"],
                           timeout=60)
        self.case("wire_syn_flood_sent", None if ok else out[-200:])
        ok, out = self.run(me + ["big-headers"], timeout=120)
        self.case("wire_1mib_of_http_headers", None if ok else out[-200:])
        half = subprocess.Popen(
            ["ip", "netns", "exec", self.ns] + me + ["half-open", "20"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT)
        opened = half.stdout.readline().decode(errors="replace")
        self.log.write(f"half-open: {opened}")
        page = self.status_page()
        self.case("status_page_with_20_half_open_connections",
                  None if "20 connections open" in opened and
                  "<td>eth0</td>" in page else
                  f"{opened.strip()!r}, page of {len(page)} bytes")
        half.stdin.close()
        half.wait(timeout=30)
        # Sustained traffic: more than 2^16 frames through netd's loop
        # (per-frame leaks of user references once killed it).
        before = self.counter(self.status_page(), "rx_frames")
        ok, out = self.run(["iperf", "-c", GUEST_IP, "-t", "8"], timeout=40)
        frames = self.counter(self.status_page(), "rx_frames") - before
        self.case("more_than_65536_frames_in_8_s_of_iperf",
                  None if ok and frames > 65536 else
                  f"iperf {'ran' if ok else 'failed'}, {frames} frames")
        ok, out = self.run(["ping", "-c", "3", "-W", "2", GUEST_IP])
        self.case("ping_after_the_bad_input",
                  None if ok and "3 received" in out else "no replies")
        after = self.settled_memory(baseline)
        self.comments.append(f"memory after: {after}")
        self.case("memory_back_to_its_baseline",
                  None if after == baseline and -1 not in after.values()
                  else f"{after} after, {baseline} before")
        noticed = [line for line in self.console()[start:].splitlines()
                   if line.strip() and not line.startswith("netd:")]
        self.case("the_kernel_printed_nothing",
                  None if not noticed else f"{len(noticed)} lines, first "
                  f"{noticed[0][:120]!r}")

    def check_client(self) -> None:
        if not self.wait_console(f"netd_client: listening on "
                                 f"{CLIENT_LISTEN_PORT}", 90):
            self.case("client_listens", "the client never listened")
        else:
            ok, out = self.run([sys.executable, __file__, "peer", "line",
                                GUEST_IP, str(CLIENT_LISTEN_PORT)])
            self.case("client_echoes_the_hosts_line",
                      None if ok else out.strip()[-200:])
            # The same listener over netd's IPv6 link-local address.
            m = re.search(r"netd: ipv6 (fe80:[0-9a-f:]+)", self.console(),
                          re.I)
            ok, out = (self.run([sys.executable, __file__, "peer", "line",
                                 f"{m.group(1)}%{TAP}",
                                 str(CLIENT_LISTEN_PORT)])
                       if m else (False, "netd printed no IPv6 address"))
            self.case("client_echoes_the_hosts_line_over_ipv6",
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
        # The client left a listener on CLIENT_LEAVE_PORT and ended: its
        # session's last send right went with it, so netd closed both.
        gone = self.wait_console("task netd_client" if
                                 self.args.client_module else
                                 "task child of netd", 20)
        ok, out = self.run([sys.executable, __file__, "peer", "refused",
                            GUEST_IP, str(CLIENT_LEAVE_PORT)])
        self.case("dead_clients_listener_closed", None if gone and ok
                  else "the client did not end" if not gone else out[-200:])
        page = self.status_page()
        self.case("no_session_or_socket_left",
                  None if self.counter(page, "sessions_open") == 0 and
                  self.counter(page, "sockets_open") == 0 else
                  f"sessions_open {self.counter(page, 'sessions_open')}, "
                  f"sockets_open {self.counter(page, 'sockets_open')}")

    def start_client_peers(self) -> None:
        www = self.dir / "www"
        www.mkdir(exist_ok=True)
        (www / "peer.bin").write_bytes(peer_file())
        self.helper([sys.executable, "-m", "http.server", "--bind", HOST_IP,
                     "--directory", str(www), str(PEER_HTTP_PORT)])
        self.helper([sys.executable, __file__, "peer", "udp-echo-server",
                     HOST_IP, str(PEER_UDP_PORT)])
        self.helper([sys.executable, "-m", "http.server", "--bind", "::",
                     "--directory", str(www), str(PEER_HTTP6_PORT)])
        self.helper([sys.executable, __file__, "peer", "udp-echo-server",
                     f"{HOST_IP6}%{TAP}", str(PEER_UDP6_PORT)])

    def main(self) -> int:
        checks = self.args.checks.split(",")
        if not self.setup():
            self.case("namespace_and_tap", "could not set them up")
        else:
            if "client" in checks:
                self.start_client_peers()
                time.sleep(1)
            if self.args.linux:
                self.boot_linux()
                ready = self.wait_console("lxbench: tcpsink ready",
                                          self.args.boot_seconds)
            else:
                self.boot()
                ready = self.wait_console("netd: ready",
                                          self.args.boot_seconds)
            guest = "linux" if self.args.linux else "netd"
            self.case(f"{guest}_ready", None if ready else
                      f"{guest} never said it was ready")
            if ready:
                table = {"ping": self.check_ping, "http": self.check_http,
                         "big": self.check_big, "echo": self.check_echo,
                         "iperf": self.check_iperf,
                         "ipv6": self.check_ipv6,
                         "wire": self.check_wire,
                         "bench": self.check_bench,
                         "client": self.check_client}
                for name in checks:
                    table[name]()
                ok, _ = self.run(["ping", "-c", "1", "-W", "3", GUEST_IP])
                self.case(f"{guest}_alive_at_the_end", None if ok else
                          "no ping reply")
        console = self.console()
        self.case("no_panic", None if "*** PANIC" not in console else
                  "the kernel panicked")
        self.cleanup()
        self.report()
        return 0

    def report(self) -> None:
        name = self.args.suite
        for line in self.bench:
            print(line)
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
    parser.add_argument("--server", default="",
                        help="run this driver (manifest name) in lxdrv")
    parser.add_argument("--client-module", action="store_true",
                        help="boot netd_client as a module of its own, "
                        "given netd's port by the boot script")
    parser.add_argument("--boot-seconds", type=float, default=90.0)
    parser.add_argument("--linux", action="store_true",
                        help="boot native Linux (bench/native) instead "
                        "of Graft, for --checks bench's linux.* twins")
    parser.add_argument("--emulator", choices=("qemu", "bochs"),
                        default="qemu")
    parser.add_argument("--qemu", default=os.environ.get(
        "GRAFT_QEMU", "qemu-system-x86_64"))
    parser.add_argument("--bochs", default=os.environ.get(
        "GRAFT_BOCHS", "bochs"))
    return Suite(parser.parse_args()).main()


if __name__ == "__main__":
    sys.exit(main())
