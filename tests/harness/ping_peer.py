# SPDX-License-Identifier: GPL-2.0-only
"""The host end of the `net-ping` suite: asks servers/pingd in the guest
for its MAC by ARP and pings it, over QEMU's -netdev dgram (see
net_peer.py for the link).

The peer (10.0.2.2, net_peer.PEER_MAC) sends an ARP request for the
guest's address every half second until a reply comes (the guest boots
meanwhile), waits until the replies to the other ARP requests stop
coming (they queued in pingd's port, whose five places the echo requests
must find free), then an echo request with a wrong ICMP checksum (pingd must
drop it) and a good one (id ECHO_ID, sequence 1, 56 bytes of payload).
It compares both replies byte for byte with the frames it expects and
tells the guest its verdict by a last echo request whose sequence number
is SEQ_GOOD when both matched, SEQ_BAD otherwise: pingd prints the id and
sequence of every reply, and the kernel side of the suite
(tests/kernel/net_ping_test.c) requires SEQ_GOOD.  Everything it sees
goes to suite_dir/peer.log; it stops at the suite's timeout.
"""

from __future__ import annotations

import struct
import time
from pathlib import Path

from net_peer import PEER_MAC, Peer

PEER_IP = bytes((10, 0, 2, 2))
ECHO_ID = 0x4752
SEQ_GOOD, SEQ_BAD = 0x600D, 0x0BAD
PAYLOAD = bytes(range(0x20, 0x20 + 56))


def checksum(data: bytes) -> int:
    """The Internet checksum (RFC 1071) of `data`."""
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f">{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def ipv4(src: bytes, dst: bytes, ident: int, ttl: int, body: bytes) -> bytes:
    """An IPv4 header without options carrying ICMP `body`, checksummed."""
    head = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(body), ident, 0,
                       ttl, 1, 0, src, dst)
    return head[:10] + struct.pack(">H", checksum(head)) + head[12:] + body


def icmp(kind: int, seq: int, payload: bytes, bad: bool = False) -> bytes:
    """An ICMP echo message (`kind` 8 request, 0 reply), checksummed (off
    by one if `bad`)."""
    body = struct.pack(">BBHHH", kind, 0, 0, ECHO_ID, seq) + payload
    value = (checksum(body) + (1 if bad else 0)) & 0xFFFF
    return body[:2] + struct.pack(">H", value) + body[4:]


def arp(op: int, sha: bytes, spa: bytes, tha: bytes, tpa: bytes) -> bytes:
    """An Ethernet/IPv4 ARP message."""
    return struct.pack(">HHBBH6s4s6s4s", 1, 0x0800, 6, 4, op, sha, spa,
                       tha, tpa)


def ether(dst: bytes, src: bytes, kind: int, body: bytes) -> bytes:
    """An Ethernet frame, zero-padded to 60 bytes."""
    return (dst + src + struct.pack(">H", kind) + body).ljust(60, b"\0")


def echo_request(guest_ip: bytes, guest_mac: bytes, seq: int,
                 bad: bool = False) -> bytes:
    return ether(guest_mac, PEER_MAC, 0x0800,
                 ipv4(PEER_IP, guest_ip, 0x1000 + seq, 64,
                      icmp(8, seq, PAYLOAD, bad)))


def echo_reply(guest_ip: bytes, guest_mac: bytes, seq: int) -> bytes:
    """The reply pingd must send to echo_request(..., seq): same id,
    sequence and payload, TTL 64, no options or flags."""
    return ether(PEER_MAC, guest_mac, 0x0800,
                 ipv4(guest_ip, PEER_IP, 0x1000 + seq, 64,
                      icmp(0, seq, PAYLOAD)))


class PingPeer(Peer):
    """The net_peer link, driven by the host side (see the module)."""

    def __init__(self, log: Path, guest_mac: bytes, guest_ip: bytes,
                 seconds: float):
        super().__init__(log, guest_mac, frames=0, seconds=seconds)
        self.guest_ip = guest_ip

    def send(self, frame: bytes) -> None:
        self.sock.sendto(frame, ("127.0.0.1", self.qemu_port))

    def receive_within(self, seconds: float) -> bytes | None:
        """The next frame within `seconds` (and the deadline), or None."""
        saved = self.deadline
        self.deadline = min(saved, time.monotonic() + seconds)
        try:
            return self.receive()
        finally:
            self.deadline = saved

    def receive_ip(self, seconds: float) -> bytes | None:
        """The next frame within `seconds` that is no ARP frame (late
        replies to the ARP retries), or None."""
        answer = self.receive_within(seconds)
        while answer is not None and answer[12:14] == b"\x08\x06":
            answer = self.receive_within(seconds)
        return answer

    def check(self, log, what: str, got: bytes | None, want: bytes) -> bool:
        same = got == want
        log.write(f"{what}: {'as expected' if same else 'DIFFERENT'}\n"
                  f"  got  {got.hex() if got else None}\n"
                  f"  want {want.hex()}\n")
        log.flush()
        return same

    def run(self) -> None:
        mac, ip = self.guest_mac, self.guest_ip
        request = ether(b"\xff" * 6, PEER_MAC, 0x0806,
                        arp(1, PEER_MAC, PEER_IP, bytes(6), ip))
        want_arp = ether(PEER_MAC, mac, 0x0806, arp(2, mac, ip, PEER_MAC,
                                                     PEER_IP))
        with self.log.open("w") as log, self.sock:
            answer = None
            while answer is None and time.monotonic() < self.deadline:
                self.send(request)
                answer = self.receive_within(0.5)
            good = self.check(log, "arp reply", answer, want_arp)
            # The retries sent while the guest booted wait in pingd's
            # port (its queue holds five): let their replies come before
            # the echo requests, which a full queue would drop.
            while self.receive_within(1.0) is not None:
                pass
            self.send(echo_request(ip, mac, 1, bad=True))
            self.send(echo_request(ip, mac, 1))
            answer = self.receive_ip(10)
            good &= self.check(log, "echo reply 1 (the bad request "
                               "before it dropped)", answer,
                               echo_reply(ip, mac, 1))
            seq = SEQ_GOOD if good else SEQ_BAD
            log.write(f"verdict: sequence {seq:#06x}\n")
            log.flush()
            self.send(echo_request(ip, mac, seq))
            answer = self.receive_ip(10)
            self.check(log, "verdict echo reply", answer,
                       echo_reply(ip, mac, seq))
