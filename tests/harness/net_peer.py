# SPDX-License-Identifier: GPL-2.0-only
"""The host end of the net-* suites' Ethernet link (QEMU -netdev dgram,
Bochs ethmod=socket).

QEMU sends each frame the guest's NIC transmits as one UDP datagram to
the peer's port on 127.0.0.1 and takes each datagram sent to its own port
as a received frame; Bochs' socket module does the same from its port P
to P + 1 (and drops frames not to its MAC or broadcast).  For every
frame it captures, the peer compares it byte for byte with the frame
tests/user/net_probe.c writes for that length (the same formula on both
sides), logs it to suite_dir/peer.log,
and answers with two frames to the guest's MAC: one of Ethernet type
0x0800, which the guest's filter must keep out, then a verdict of type
0x88b5 ("GRAFTPEER", frame number, captured length, 1 if it matched,
CRC-32 of the captured bytes; big-endian words).  A frame of type 0x88b6
("GRAFTMODES", step) asks for a receive-mode step instead (net_probe's
NET_FLAGS checks): three frames of type 0x88b7, one to another station's
MAC, one to a multicast group nobody joined, then the marker to the
guest's MAC ("GRAFTPEER", kind U, M or K, step), which the guest's filter
sees only as far as its NIC's receive modes let them through.  In echo
mode (the benchmarks) it sends each frame back instead, addresses
swapped.  The
thread ends after `frames` frames or `seconds`, whichever comes first.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
import zlib
from pathlib import Path

ETH_TYPE_TEST = 0x88B5
ETH_TYPE_MODES_ASK, ETH_TYPE_MODES = 0x88B6, 0x88B7
PEER_MAC = bytes((0x02,)) + b"GRAFT"
OTHER_MAC = bytes((0x02,)) + b"OTHER"          # a station that is not the guest
GROUP_MAC = bytes.fromhex("01005e7f0001")      # a multicast group nobody joined


def expected_frame(length: int, guest_mac: bytes) -> bytes:
    """The frame net_probe.c's build_frame writes for `length` bytes."""
    head = PEER_MAC + guest_mac + struct.pack(">H", ETH_TYPE_TEST)
    return head + bytes((i * 7 + length * 3) & 0xFF
                        for i in range(14, length))


def answers(index: int, frame: bytes, guest_mac: bytes) -> list[bytes]:
    """The refused frame and the verdict the peer sends for `frame`."""
    match = int(frame == expected_frame(len(frame), guest_mac))
    head = guest_mac + PEER_MAC
    decoy = head + struct.pack(">H", 0x0800) + b"GRAFTPEER decoy"
    verdict = (head + struct.pack(">H", ETH_TYPE_TEST) + b"GRAFTPEER" +
               struct.pack(">IIII", index, len(frame), match,
                           zlib.crc32(frame)))
    return [f.ljust(60, b"\0") for f in (decoy, verdict)]


def mode_step_frames(frame: bytes, guest_mac: bytes) -> list[bytes]:
    """The three frames the peer sends for a mode step request `frame`."""
    step = frame[24:25]
    return [(dst + PEER_MAC + struct.pack(">H", ETH_TYPE_MODES) +
             b"GRAFTPEER" + kind + step).ljust(60, b"\0")
            for dst, kind in ((OTHER_MAC, b"U"), (GROUP_MAC, b"M"),
                              (guest_mac, b"K"))]


def free_udp_port() -> int:
    """A UDP port on 127.0.0.1 free at the time of asking."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Peer:
    """A bound UDP socket and the thread answering the guest's frames."""

    def __init__(self, log: Path, guest_mac: bytes, frames: int,
                 seconds: float, echo: bool = False, bochs: bool = False):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        if bochs:
            self.qemu_port = self._bind_above_free_port()
        else:
            self.sock.bind(("127.0.0.1", 0))
            self.qemu_port = free_udp_port()
        self.port = self.sock.getsockname()[1]
        self.log, self.guest_mac, self.echo = log, guest_mac, echo
        self.frames, self.deadline = frames, time.monotonic() + seconds
        self.thread = threading.Thread(target=self.run, daemon=True,
                                       name="net-peer")

    def start(self) -> None:
        self.thread.start()

    def run(self) -> None:
        tests = 0   # frames answered with a verdict (its number)
        with self.log.open("w") as log, self.sock:
            for index in range(self.frames):
                frame = self.receive()
                if frame is None:
                    log.write(f"timed out after {index} frames\n")
                    return
                if frame[12:14] == struct.pack(">H", ETH_TYPE_MODES_ASK):
                    log.write(f"frame {index}: mode step {frame[24]}\n")
                    log.flush()
                    for f in mode_step_frames(frame, self.guest_mac):
                        self.sock.sendto(f, ("127.0.0.1", self.qemu_port))
                    continue
                match = frame == expected_frame(len(frame), self.guest_mac)
                log.write(f"frame {index}: {len(frame)} bytes, "
                          f"{'as written' if match else 'DIFFERENT'}"
                          f"{'' if self.echo else ': ' + frame.hex()}\n")
                log.flush()
                tests += 1
                if self.echo:
                    self.sock.sendto(frame[6:12] + frame[0:6] + frame[12:],
                                     ("127.0.0.1", self.qemu_port))
                    continue
                for answer in answers(tests - 1, frame, self.guest_mac):
                    self.sock.sendto(answer, ("127.0.0.1", self.qemu_port))

    def receive(self) -> bytes | None:
        while (left := self.deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data, _ = self.sock.recvfrom(65536)
            except socket.timeout:
                return None
            return data
        return None

    def _bind_above_free_port(self) -> int:
        """Bind to P + 1 for a port P free now (Bochs' socket module sends
        from P to P + 1); return P."""
        for _ in range(100):
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.bind(("127.0.0.1", 0))
                guest = probe.getsockname()[1]
            try:
                self.sock.bind(("127.0.0.1", guest + 1))
                return guest
            except OSError:
                continue
        raise OSError("no free UDP port pair on 127.0.0.1")

    def ethdev(self) -> str:
        """Bochs' `ethmod=socket` ethdev value connecting to this peer: the
        guest's port P on 127.0.0.1; it sends to P + 1, this peer's."""
        return str(self.qemu_port)

    def netdev(self, name: str) -> str:
        """QEMU's -netdev value connecting `name` to this peer."""
        return (f"dgram,id={name},local.type=inet,local.host=127.0.0.1,"
                f"local.port={self.qemu_port},remote.type=inet,"
                f"remote.host=127.0.0.1,remote.port={self.port}")


class Sink:
    """A -netdev dgram peer that only counts what the guest's NIC sends
    (the frame-rate benchmarks), in `log` every thousand frames and every
    idle second; the thread ends after `seconds`."""

    def __init__(self, log: Path, seconds: float):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        self.port = self.sock.getsockname()[1]
        self.qemu_port = free_udp_port()
        self.log, self.deadline = log, time.monotonic() + seconds
        self.frames = 0
        self.thread = threading.Thread(target=self.run, daemon=True,
                                       name="net-sink")

    def start(self) -> None:
        self.thread.start()

    def run(self) -> None:
        with self.sock:
            while (left := self.deadline - time.monotonic()) > 0:
                self.sock.settimeout(min(left, 1.0))
                try:
                    self.sock.recvfrom(65536)
                except socket.timeout:
                    self.log.write_text(f"{self.frames} frames\n")
                    continue
                self.frames += 1
                if self.frames % 1000 == 0:
                    self.log.write_text(f"{self.frames} frames\n")
        self.log.write_text(f"{self.frames} frames\n")

    def netdev(self, name: str) -> str:
        """QEMU's -netdev value connecting `name` to this sink."""
        return (f"dgram,id={name},local.type=inet,local.host=127.0.0.1,"
                f"local.port={self.qemu_port},remote.type=inet,"
                f"remote.host=127.0.0.1,remote.port={self.port}")


class Capture(Sink):
    """A sink that also keeps every frame the guest's NIC sends, in
    arrival order, for a check after the boot (suite pktgen): `frames`
    holds them once the thread ended (`join`)."""

    def __init__(self, log: Path, seconds: float):
        super().__init__(log, seconds)
        self.captured: list[bytes] = []

    def run(self) -> None:
        with self.sock:
            while (left := self.deadline - time.monotonic()) > 0:
                self.sock.settimeout(min(left, 0.5))
                try:
                    frame, _ = self.sock.recvfrom(65536)
                except socket.timeout:
                    continue
                except OSError:
                    break
                self.captured.append(frame)
                self.frames += 1
        self.log.write_text(f"{self.frames} frames\n")

    def stop(self) -> list[bytes]:
        """End the thread (the guest is gone) and return the frames."""
        self.deadline = time.monotonic()
        self.thread.join(timeout=5.0)
        return self.captured
