# SPDX-License-Identifier: GPL-2.0-only
"""The table of test suites `make check` knows, and their prepare hooks."""

from __future__ import annotations

import dataclasses
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HOST, QEMU, BOCHS, SELFTEST = "host", "qemu", "bochs", "selftest"
KINDS = (HOST, QEMU, BOCHS, SELFTEST)


@dataclass(frozen=True, kw_only=True)
class Suite:
    """Fields common to every kind of suite.

    `hidden` suites are not run by default but can be named in --suites.
    `prepare`, when set, is called as prepare(suite, suite_dir) just before
    the suite runs (suite_dir exists and is empty) and returns the suite to
    run, usually a dataclasses.replace() of it with generated parameters.
    `check`, when set, is called as check(suite, suite_dir) after the
    suite ran (the emulator has exited) and returns (case, problem) pairs:
    host-side cases of the suite, passed when problem is None, else
    failed with that message (e.g. a disk image checked byte for byte).
    """

    name: str
    kind: str = ""
    hidden: bool = False
    timeout: float = 60.0
    prepare: Callable[[Suite, Path], Suite] | None = None
    check: Callable[[Suite, Path], list[tuple[str, str | None]]] | None = None


@dataclass(frozen=True, kw_only=True)
class HostSuite(Suite):
    """A host program printing KTAP on stdout; it runs in the build dir.

    Every argv word is formatted with {python} (this interpreter), {srcdir},
    {builddir} and {suitedir}; a relative argv[0] containing '/' is taken
    relative to the build dir.
    """

    kind: str = HOST
    argv: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class SelftestSuite(HostSuite):
    """The harness run against broken guests; runs like a host suite."""

    kind: str = SELFTEST
    timeout: float = 600.0


@dataclass(frozen=True, kw_only=True)
class QemuSuite(Suite):
    """Graft booted in QEMU with `test=TEST` plus `cmdline` words.

    `modules` are (path, args) pairs given to -initrd; `mode` "icount" adds
    `-icount shift=0,sleep=off`; `qemu_args` are appended verbatim;
    `command_prefix` runs QEMU through another program.
    """

    kind: str = QEMU
    test: str
    cmdline: tuple[str, ...] = ()
    memory_mib: int = 128
    modules: tuple[tuple[str, str], ...] = ()
    qemu_args: tuple[str, ...] = ()
    mode: str = ""
    # Words put before QEMU's argv (e.g. ip netns exec NS).
    command_prefix: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class BochsSuite(Suite):
    """The GRUB ISO booted in Bochs with `test=TEST exit=bochs` + cmdline;
    `bochsrc` lines are appended to boot/bochsrc.in's."""

    kind: str = BOCHS
    test: str
    cmdline: tuple[str, ...] = ()
    bochsrc: tuple[str, ...] = ()
    memory_mib: int = 128
    modules: tuple[tuple[str, str], ...] = ()
    timeout: float = 180.0


# linux-scsi: an IDE disk of SCSI_DISK_SECTORS 512-byte sectors; sector
# N holds 32 records (N, i) of two little-endian 64-bit words, i = 0..31.
# blkdebug makes reads of sector SCSI_BAD_SECTOR fail with EIO.
SCSI_DISK_SECTORS = 8192
SCSI_BAD_SECTOR = 6000


def scsi_disk_pattern(sectors: int) -> bytes:
    """The pattern of the linux-scsi disk image (see above)."""
    return b"".join(struct.pack("<QQ", lba, i)
                    for lba in range(sectors) for i in range(32))


def scsi_disk(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of `linux-scsi`: the patterned image behind blkdebug
    as QEMU's primary IDE disk (PIIX3, legacy ports, bus-master DMA)."""
    image = suite_dir / "disk.img"
    image.write_bytes(scsi_disk_pattern(SCSI_DISK_SECTORS))
    conf = suite_dir / "blkdebug.conf"
    conf.write_text("[inject-error]\n"
                    'event = "read_aio"\n'
                    'errno = "5"\n'
                    f'sector = "{SCSI_BAD_SECTOR}"\n')
    return dataclasses.replace(
        suite, prepare=None, qemu_args=suite.qemu_args + (
            "-nic", "none", "-drive",
            f"file=blkdebug:{conf}:{image},if=ide,index=0,format=raw"))


# Known content for the boot suites' modules (see boot_modules()).
MODULE0_SIZE = 3000
MODULE0_ARGS = "alpha beta"
MODULE1_TEXT = b"Graft boot test module one.\n"


def module0_content() -> bytes:
    """Return the 3000-byte deterministic pattern of boot module 0."""
    return bytes((index * 37 + index // 256 + 11) & 0xFF
                 for index in range(MODULE0_SIZE))


def boot_modules(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of `boot`, `boot-bochs` and `vm`: two modules, known CRCs.

    Writes suite_dir/module0.bin (module0_content(), args "alpha beta") and
    suite_dir/module1.txt (MODULE1_TEXT, no args); returns the suite with
    those modules and the cmdline words expect_mem_mib, expect_mods,
    mod0_crc, mod1_crc (zlib.crc32, 0x%08x) and mod0_cmdline_has=alpha added.
    """
    files = [(suite_dir / "module0.bin", module0_content(), MODULE0_ARGS),
             (suite_dir / "module1.txt", MODULE1_TEXT, "")]
    words = [f"expect_mem_mib={suite.memory_mib}", f"expect_mods={len(files)}"]
    modules = []
    for index, (path, content, args) in enumerate(files):
        path.write_bytes(content)
        modules.append((str(path), args))
        words.append(f"mod{index}_crc=0x{zlib.crc32(content):08x}")
    words.append("mod0_cmdline_has=alpha")
    return dataclasses.replace(suite, prepare=None,
                               modules=suite.modules + tuple(modules),
                               cmdline=suite.cmdline + tuple(words))


# Suites that measure time (tick rate, preemption) run on instruction-count
# time, so a loaded host cannot make them fail and every run prints the
# same: one instruction advances virtual time by 4 ns (the TSC still counts
# virtual nanoseconds, 1 GHz), and halted time is skipped.
DETERMINISTIC_TIME = ("-icount", "shift=2,sleep=off")

TASK_PROBE = "{builddir}/tests/user/task_probe.elf"
TASK_PROBE_MODES = ("print", "ud", "gp", "kernel", "text", "badtrap",
                    "stack")


def task_modules(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of `task`: adds bad.elf, an ELF signature then garbage."""
    bad = suite_dir / "bad.elf"
    bad.write_bytes(b"\x7fELF" + bytes(range(60)))
    return dataclasses.replace(suite, prepare=None,
                               modules=suite.modules + ((str(bad), "bad.elf"),))


# The rd0 image of the ramdisk and bench suites: 512 KiB of a known
# pattern (not the one the guest writes), and its CRC-32 for the guest to
# compare with what it read.
RAMDISK_SIZE = 512 * 1024
RAMDISK_PROBE = "{builddir}/tests/user/ramdisk_probe.elf"
# q35 with QEMU's VT-d unit (DMA remapping; interrupts are not
# remapped), no NIC unless a suite adds one.
DMAR_MACHINE = ("-M", "q35", "-device", "intel-iommu,intremap=off",
                "-nic", "none")
# The Linux driver server (servers/lxdrv), for the server-* suites.
LXDRV = "{builddir}/servers/lxdrv/lxdrv.elf"


def ramdisk_image(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of `ramdisk` and `bench`: writes suite_dir/rd0.img.

    Adds it as a module whose command line names it rd0 (how the kernel
    finds its RAM disk, kernel/device/dev_ramdisk.h) and rd0_crc=0x%08x
    (zlib.crc32 of the image) to the kernel command line.
    """
    image = suite_dir / "rd0.img"
    content = bytes((index * 131 + (index >> 8) * 17 + (index >> 16)) & 0xFF
                    for index in range(RAMDISK_SIZE))
    image.write_bytes(content)
    return dataclasses.replace(
        suite, prepare=None,
        modules=suite.modules + ((str(image), "rd0"),),
        cmdline=suite.cmdline + (f"rd0_crc=0x{zlib.crc32(content):08x}",))


NET_GUEST_MAC = "52:54:00:12:34:56"


# Frames the peer answers in a net-* suite: two net_probe sessions of 4
# test frames and 4 receive-mode steps, the 2 x 16 writes of mode=close
# and its one after reopening, those of mode=stalled and mode=linkdown.
NET_PEER_FRAMES = 2 * (4 + 4) + 2 * 16 + 1 + 2


def net_peer(suite: Suite, suite_dir: Path, frames: int = NET_PEER_FRAMES,
             echo: bool = False, nic: str = "e1000,addr=03.0") -> Suite:
    """Prepare hook of `net-e1000`: starts the host peer (net_peer.py).

    The peer answers the frames of the net_probe runs (NET_PEER_FRAMES) and
    stops after them or the suite's timeout; its log is suite_dir/peer.log.
    QEMU's `nic` (a -device value without netdev= and mac=) gets the fixed
    MAC and a dgram netdev to the peer.
    """
    import net_peer as peer_module  # the harness directory is on sys.path

    mac = bytes.fromhex(NET_GUEST_MAC.replace(":", ""))
    peer = peer_module.Peer(suite_dir / "peer.log", mac, frames=frames,
                            seconds=suite.timeout, echo=echo)
    peer.start()
    return with_nic(suite, nic, peer.netdev("n0"))


def with_nic(suite: Suite, nic: str, netdev: str, **fields) -> Suite:
    """`suite` ready to boot (prepare done, `fields` replaced) with QEMU's
    `nic` as its only NIC, on the -netdev value `netdev` (id n0), at the
    fixed MAC."""
    return dataclasses.replace(
        suite, prepare=None, **fields,
        qemu_args=suite.qemu_args + (
            "-nic", "none", "-netdev", netdev,
            "-device", f"{nic},netdev=n0,mac={NET_GUEST_MAC}"))


def net_peer_for(nic: str) -> Callable[[Suite, Path], Suite]:
    """net_peer's prepare hook for QEMU's NIC `nic` (see net_peer)."""
    return lambda suite, suite_dir: net_peer(suite, suite_dir, nic=nic)


def bochs_net_peer_for(slot: str | None,
                       nic: str) -> Callable[[Suite, Path], Suite]:
    """The Bochs form of net_peer_for: Bochs' NIC `nic` (its bochsrc
    option, e.g. "e1000: enabled=1") with the fixed MAC and ethmod=socket
    to the peer; in PCI slot 1 as `slot` ("e1000", "ne2k"), or on ISA
    (None)."""
    def prepare(suite: Suite, suite_dir: Path) -> Suite:
        import net_peer as peer_module  # the harness directory is on sys.path

        mac = bytes.fromhex(NET_GUEST_MAC.replace(":", ""))
        peer = peer_module.Peer(suite_dir / "peer.log", mac,
                                frames=NET_PEER_FRAMES,
                                seconds=suite.timeout, bochs=True)
        peer.start()
        pci = ((f"pci: enabled=1, chipset=i440fx, slot1={slot}",)
               if slot else ())
        return dataclasses.replace(suite, prepare=None, bochsrc=pci + (
            f"{nic}, mac={NET_GUEST_MAC}, ethmod=socket, "
            f"ethdev={peer.ethdev()}",))
    return prepare


# The program every net-* suite runs twice against the peer, then with
# NET_FLAGS and with writes queued while the kernel holds Linux's rtnl
# lock (mode=flags, mode=close), with eth0's transmit queue stopped
# (mode=stalled) and its carrier off (mode=linkdown, 8390 suites).
NET_PROBE_MODULES = (("{builddir}/tests/user/net_probe.elf",
                      "net_probe mac=525400123456 device=${device-port}"),
                     ("{builddir}/tests/user/net_probe.elf",
                      "net_probe mode=flags device=${device-port}"),
                     ("{builddir}/tests/user/net_probe.elf",
                      "net_probe mode=close device=${device-port}"),
                     ("{builddir}/tests/user/net_probe.elf",
                      "net_probe mode=stalled device=${device-port}"),
                     ("{builddir}/tests/user/net_probe.elf",
                      "net_probe mode=linkdown device=${device-port}"))
# Bochs' socket link passes only frames for the NIC's MAC or broadcast:
# no receive mode can let another station's frames in there.
NET_PROBE_MODULES_BOCHS = (
    ("{builddir}/tests/user/net_probe.elf",
     "net_probe mac=525400123456 filtered_link=1 device=${device-port}"),
) + NET_PROBE_MODULES[1:]

# QEMU's ISA NE2000 for `net-ne-isa`: I/O base and the IRQ line that ne's
# autoIRQ must find (10: no ISA device of QEMU's pc machine uses it).
NE_ISA_IO, NE_ISA_IRQ = 0x300, 10


# The PCI NICs QEMU emulates besides e1000 and ne2k_pci, each driven by
# its unmodified Linux driver (drivers-linux/NAME.manifest) through the
# net-e1000 cases: (suite, in-kernel suite, QEMU -device model).
PCI_NICS = (("net-pcnet32", "net-pcnet32", "pcnet"),
            ("net-8139cp", "net-8139cp", "rtl8139"),
            ("net-e1000e", "net-e1000e", "e1000e"),
            ("net-e100", "net-e100", "i82559er"),
            ("net-e100-i82557b", "net-e100", "i82557b"),
            ("net-tulip", "net-tulip", "tulip"),
            ("net-vmxnet3", "net-vmxnet3", "vmxnet3"),
            # virtio 1.0 only: the legacy transport is not compiled
            ("net-virtio", "net-virtio", "virtio-net-pci,disable-legacy=on"))


# The SCSI host adapters QEMU emulates, each driven by its unmodified
# Linux driver over linux-emu's SCSI midlayer through the disk-ata-piix
# cases: (suite, in-kernel suite, QEMU -device model).
SCSI_HBAS = (("disk-sym53c8xx", "disk-sym53c8xx", "lsi53c895a"),
             ("disk-pvscsi", "disk-pvscsi", "pvscsi"))


NET_BENCH_FRAMES = 300
# Requests of each size and direction the disk client times (mode=lat).
DISK_BENCH_REQUESTS = 100


def bench_prepare(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of `bench`: the RAM disk image, then an echoing peer
    for net_probe's NET_BENCH_FRAMES frames of each of three sizes."""
    suite = ramdisk_image(suite, suite_dir)
    return net_peer(suite, suite_dir, frames=3 * NET_BENCH_FRAMES, echo=True)


# The wall-clock boots of make bench (Graft's graft-wall, native Linux's
# in bench/native/compare.py): the disk suites' IDE image and e1000 at a
# host sink that counts frames (net_peer.Sink), WALL_RATE_SECONDS
# one-second passes of 60-byte frames.
WALL_RATE_SECONDS = 5
# pktgen.rate/60 (servers/pktgen): runs of this many 60-byte frames a
# boot, as Linux's pktgen in bench/native/compare.py.
PKTGEN_BENCH_COUNT = 100000
PKTGEN_BENCH_RUNS = 5


def net_sink(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook: e1000 at a counting sink (its count in
    suite_dir/sink.log)."""
    import net_peer as peer_module  # the harness directory is on sys.path

    sink = peer_module.Sink(suite_dir / "sink.log", suite.timeout)
    sink.start()
    return with_nic(suite, "e1000,addr=03.0", sink.netdev("n0"))


def dmar_net_sink(suite: Suite, suite_dir: Path) -> Suite:
    """net_sink on a q35 machine with QEMU's VT-d unit (DMAR_MACHINE)."""
    return net_sink(dataclasses.replace(
        suite, qemu_args=suite.qemu_args + DMAR_MACHINE), suite_dir)


def wall_prepare(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of the wall-clock boots: the IDE disk image and e1000
    at a counting sink (its count in suite_dir/sink.log)."""
    import net_peer as peer_module  # the harness directory is on sys.path

    suite = qemu_ide_disk(False)(suite, suite_dir)
    sink = peer_module.Sink(suite_dir / "sink.log", suite.timeout)
    sink.start()
    return with_nic(suite, "e1000,addr=03.0", sink.netdev("n0"))


# The Linux driver server (servers/lxdrv).
LXDRV = "{builddir}/servers/lxdrv/lxdrv.elf"
# Its bench build (bench/lxdrv_bench.c): the same server, recording and
# printing the server.*.glue figures.
LXDRV_BENCH = "{builddir}/bench/lxdrv_bench.elf"

# servers/pingd's address in the net-ping suite.
PING_GUEST_IP = "10.0.2.15"


def ping_peer(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of `net-ping`: starts the pinging peer (ping_peer.py)
    and links QEMU's e1000 to it; its log is suite_dir/peer.log."""
    import ping_peer as peer_module  # the harness directory is on sys.path

    mac = bytes.fromhex(NET_GUEST_MAC.replace(":", ""))
    ip = bytes(int(part) for part in PING_GUEST_IP.split("."))
    peer = peer_module.PingPeer(suite_dir / "peer.log", mac, ip,
                                seconds=suite.timeout)
    peer.start()
    return with_nic(suite, "e1000,addr=03.0", peer.netdev("n0"))


def ping_from_host(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of `net-ping-host`: a network namespace with a tap
    device, QEMU's e1000 on it, and the host's own `ping` (ping_host.py)."""
    import ping_host  # the harness directory is on sys.path

    host = ping_host.PingHost(suite_dir, PING_GUEST_IP, suite.timeout)
    host.start()
    return with_nic(suite, "e1000,addr=03.0", host.netdev("n0"),
                    command_prefix=host.prefix())


# The netd-* suites' program (tests/harness/netd_host.py), its options
# follow.
NETD_HOST = ("{python}", "{srcdir}/tests/harness/netd_host.py",
             "--builddir", "{builddir}", "--suitedir", "{suitedir}")


def bench_nic_prepare(nic: str) -> Callable[[Suite, Path], Suite]:
    """Prepare hook of the bench-<nic> suites: the echoing peer of
    bench_prepare behind QEMU's NIC `nic` (a -device value)."""
    return lambda suite, suite_dir: net_peer(
        suite, suite_dir, frames=3 * NET_BENCH_FRAMES, echo=True, nic=nic)


# The NICs whose drivers the net benchmark runs over besides e1000's
# (`bench` boot): (the driver's name in the BENCH names, QEMU -device, at
# slot 3 for a PCI card); virtio 1.0 only, as net-virtio; e100 on QEMU's
# i82557b, since its i82559er sends extra bytes after some frames
# (bench/README.md says which and why); ISA ne where net-ne-isa has it.
BENCH_NICS = (("ne2k-pci", "ne2k_pci,addr=03.0"),
              ("virtio", "virtio-net-pci,disable-legacy=on,addr=03.0"),
              ("pcnet32", "pcnet,addr=03.0"),
              ("8139cp", "rtl8139,addr=03.0"),
              ("e1000e", "e1000e,addr=03.0"), ("e100", "i82557b,addr=03.0"),
              ("tulip", "tulip,addr=03.0"), ("vmxnet3", "vmxnet3,addr=03.0"),
              ("ne", f"ne2k_isa,iobase={NE_ISA_IO:#x},irq={NE_ISA_IRQ}"))
# The kernel's words a NIC's driver needs besides `linux`.
BENCH_NIC_WORDS = {"ne": (f"ne_io={NE_ISA_IO:#x}",)}


# An icount boot's figures count the instructions of work, so its idle
# thread halts at once instead of polling, whose spin they would count
# (kernel/kern/sched.h).
ICOUNT_IDLE = ("idle_poll=0",)


def bench_words(mode: str) -> tuple[str, ...]:
    """The kernel words of a benchmark boot in `mode` ("icount" or
    "wall"): bench_mode=, and ICOUNT_IDLE for an icount boot."""
    return (f"bench_mode={mode}",) + (ICOUNT_IDLE if mode == "icount"
                                      else ())


def bench_nic_suite(nic: str, device: str) -> QemuSuite:
    """bench-`nic`: the bench-net boot (icount) over QEMU's `device`,
    its records named with `nic` (net.tx.glue/`nic`/60, ...)."""
    return QemuSuite(
        name=f"bench-{nic}", test="bench-net", mode="icount", hidden=True,
        timeout=300.0, cmdline=(*bench_words("icount"), "linux",
                                f"bench_nic={nic}")
        + BENCH_NIC_WORDS.get(nic, ()),
        prepare=bench_nic_prepare(device),
        modules=(("{builddir}/tests/user/net_probe.elf",
                  f"net_probe bench={NET_BENCH_FRAMES} bench_nic={nic} "
                  "device=${device-port}"),))


# The disk suites' image (tests/user/disk_pattern.h has the same
# patterns): DISK_BLOCKS sectors of 512 bytes, a whole number of Bochs'
# default geometry (16 heads, 63 sectors), generation 0 everywhere, an
# MBR with two Linux partitions; the guest writes generation 1 over
# partition 1.  DISK_BAD is the sector the emulator fails on read
# (blkdebug, and the lxblk suite's fake disk).
DISK_BLOCKS = 16 * 16 * 63
DISK_P1 = (2048, 6144)
DISK_P2 = (8192, 6144)
DISK_BAD = 15000
DISK_TAGS = (b"GRAFTHD0", b"GRAFTNEW")
DISK_PROBE = "{builddir}/tests/user/disk_probe.elf"


@dataclass(frozen=True)
class DiskLayout:
    """A disk image's size and its two partitions (start, count), in
    512-byte sectors."""
    blocks: int
    p1: tuple[int, int]
    p2: tuple[int, int]


DISK = DiskLayout(DISK_BLOCKS, DISK_P1, DISK_P2)
# A 1.44 MB floppy (80 cylinders, 2 heads, 18 sectors) with the same MBR
# and patterns: the floppy driver has no partitions, Graft's block
# module reads the MBR itself.  No bad sector: QEMU's floppy controller
# answers a read its image fails (blkdebug) with zeros and no error.
FLOPPY = DiskLayout(2880, (64, 1024), (1088, 1792))


def _disk_bodies(gen: int) -> list[bytes]:
    """Bytes 16..511 of a generation-`gen` sector, by the LBA's
    multiplier residue (they depend on the LBA only modulo 256)."""
    if gen == 0:
        return [bytes(((r + i * 3) & 0xFF) ^ 0x5A for i in range(16, 512))
                for r in range(256)]
    return [bytes((r + i * 5 + 1) & 0xFF for i in range(16, 512))
            for r in range(256)]


def disk_sectors(first: int, count: int, gen: int) -> bytes:
    """`count` sectors of generation `gen` from LBA `first`."""
    bodies, mult = _disk_bodies(gen), (7, 13)[gen]
    return b"".join(lba.to_bytes(8, "little") + DISK_TAGS[gen]
                    + bodies[(lba * mult) & 0xFF]
                    for lba in range(first, first + count))


def disk_mbr(sector0: bytes, layout: DiskLayout = DISK) -> bytes:
    """`sector0` with the layout's partitions as type 0x83 ones."""
    table = b""
    for start, count in (layout.p1, layout.p2):
        table += (bytes((0, 0, 0, 0, 0x83, 0, 0, 0))
                  + start.to_bytes(4, "little") + count.to_bytes(4, "little"))
    table += bytes(32)
    return sector0[:446] + table + b"\x55\xaa"


def disk_image_content(layout: DiskLayout = DISK) -> bytes:
    """The image as the harness makes it (generation 0 and the MBR)."""
    data = disk_sectors(0, layout.blocks, 0)
    return disk_mbr(data[:512], layout) + data[512:]


def disk_args(bad: bool, layout: DiskLayout = DISK) -> str:
    """disk_probe's layout words (and bad= when the emulator fails a
    sector)."""
    words = (f"blocks={layout.blocks} p1={layout.p1[0]}:{layout.p1[1]} "
             f"p2={layout.p2[0]}:{layout.p2[1]}")
    return words + (f" bad={DISK_BAD}" if bad else "")


def disk_cmdline(bad: bool, layout: DiskLayout = DISK) -> tuple[str, ...]:
    """The kernel's words for disk_test.c."""
    return ((f"disk_blocks={layout.blocks}", f"disk_p1_start={layout.p1[0]}",
             f"disk_p1_count={layout.p1[1]}")
            + ((f"disk_bad={DISK_BAD}",) if bad else ()))


def disk_modules(bad: bool, layout: DiskLayout = DISK
                 ) -> tuple[tuple[str, str], ...]:
    """The two sessions of disk_test.c: all checks, then aligned
    requests only."""
    return ((DISK_PROBE, f"disk_check mode=check {disk_args(bad, layout)} "
             "device=${device-port}"),
            (DISK_PROBE, "disk_lat mode=lat count=4 "
             f"{disk_args(False, layout)} device=${{device-port}}"))


def disk_expected(layout: DiskLayout = DISK) -> bytes:
    """The image once the guest is done: partition 1 in generation 1."""
    image = bytearray(disk_image_content(layout))
    start, count = layout.p1
    image[start * 512:(start + count) * 512] = disk_sectors(start, count, 1)
    return bytes(image)


def disk_check(suite: Suite, suite_dir: Path,
               layout: DiskLayout = DISK) -> list[tuple[str, str | None]]:
    """Check hook of the disk suites: hd0.img, after the emulator exited,
    is byte for byte disk_expected(): what the guest was told was written
    is there, and nothing outside partition 1 changed."""
    path = suite_dir / "hd0.img"
    image = path.read_bytes() if path.exists() else b""
    want = disk_expected(layout)
    start, count = layout.p1
    inside = (start * 512, (start + count) * 512)

    def first_difference(lo: int, hi: int) -> str | None:
        if len(image) != len(want):
            return f"image is {len(image)} bytes, expected {len(want)}"
        for offset in range(lo, hi, 512):
            if image[offset:offset + 512] != want[offset:offset + 512]:
                return (f"LBA {offset // 512} is not what was expected "
                        f"(first bytes {image[offset:offset + 16].hex()})")
        return None

    return [("partition_1_holds_what_the_guest_wrote",
             first_difference(*inside)),
            ("nothing_outside_partition_1_changed",
             first_difference(0, inside[0])
             or first_difference(inside[1], len(want)))]


def disk_check_mode(mode: str) -> Callable[[Suite, Path],
                                          list[tuple[str, str | None]]]:
    """disk_check plus the transfer mode libata configured the disk for,
    from the console: `mode` "DMA" (multiword or Ultra DMA) or "PIO".
    libata names the mode only after its error handler reset the device
    (the first probe is quiet), so this needs the bad sector's reads."""
    import re

    def check(suite: Suite, suite_dir: Path) -> list[tuple[str, str | None]]:
        console = (suite_dir / "console.log").read_text(errors="replace")
        modes = re.findall(r"ata\d\.\d\d: configured for (\S+)", console)
        # ata_mode_string(): MWDMA0..4, UDMA/16..UDMA/133, UDMA7, PIO0..6.
        want = r"MWDMA\d|UDMA(/\d+|7)" if mode == "DMA" else r"PIO\d"
        problem = None
        if not modes:
            problem = "libata printed no 'configured for' line"
        elif not all(re.fullmatch(want, found) for found in modes):
            problem = f"configured for {', '.join(sorted(set(modes)))}"
        return disk_check(suite, suite_dir) + [
            (f"transfers_use_{mode.lower()}", problem)]
    return check


def disk_rounds_image(suite: Suite,
                      suite_dir: Path) -> list[tuple[str, str | None]]:
    """Check hook of fault-inject-disk and make stress's disk campaigns,
    which measures rather than checks: restart_probe mode=disk wrote N
    rounds of 64 KiB (its "USER-INFO rounds N failed M" line), round n's
    32-bit little-endian words n * 65536 plus their offset, at place
    n % 32 of partition 1.  Each place should hold its last round, unless
    the client saw that round fail ("USER-INFO place P: its last round
    failed"), and the rest of the image should be as made.  Faults in a
    driver can break that without the client seeing it (a write and its
    read-back both sent to a wrong sector), so the sectors that differ
    are counted into suite_dir/image.json, {"sectors_lost": the test
    places' sectors not holding their last good round, "sectors_stray":
    sectors elsewhere that changed} (run.py's stress results sum them),
    and no case is added; a missing rounds line or image is a failure."""
    import json
    import re

    chunk, places = 65536, 32
    console = (suite_dir / "console.log").read_text(errors="replace")
    found = re.search(r"USER-INFO rounds (\d+) failed (\d+)", console)
    unknown_places = {int(p) for p in re.findall(
        r"USER-INFO place (\d+): its last round failed", console)}
    path = suite_dir / "hd0.img"
    image = path.read_bytes() if path.exists() else b""
    want = bytearray(disk_image_content())
    if found is None or len(image) != len(want):
        return [("image_measured", "no 'USER-INFO rounds' line, or the "
                 f"image is {len(image)} bytes, not {len(want)}")]
    rounds = int(found.group(1))
    tested, unknown = set(), set()
    base = DISK_P1[0] * 512
    for n in range(max(0, rounds - places), rounds):
        at = base + (n % places) * chunk
        tested.update(range(at, at + chunk, 512))
        if n % places in unknown_places:
            unknown.update(range(at, at + chunk, 512))
            continue
        want[at:at + chunk] = b"".join(
            ((n * chunk + i) & 0xffffffff).to_bytes(4, "little")
            for i in range(0, chunk, 4))
    lost = stray = 0
    for offset in range(0, len(want), 512):
        if (offset in unknown
                or image[offset:offset + 512] == want[offset:offset + 512]):
            continue
        if offset in tested:
            lost += 1
        else:
            stray += 1
    (suite_dir / "image.json").write_text(json.dumps(
        {"sectors_lost": lost, "sectors_stray": stray}) + "\n")
    return []


def disk_image(suite: Suite, suite_dir: Path,
               layout: DiskLayout = DISK) -> Suite:
    """Prepare hook of the disk suites: writes suite_dir/hd0.img."""
    (suite_dir / "hd0.img").write_bytes(disk_image_content(layout))
    return dataclasses.replace(suite, prepare=None)


def qemu_floppy_disk(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of disk-floppy: a FLOPPY image as drive A of the
    floppy controller of QEMU's -M pc (a 1.44 MB drive, CMOS type 4)."""
    suite = disk_image(suite, suite_dir, FLOPPY)
    return dataclasses.replace(suite, qemu_args=suite.qemu_args + (
        "-drive", f"file={suite_dir / 'hd0.img'},if=floppy,index=0,"
        "format=raw"))


def bochs_floppy_disk(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of disk-floppy-bochs: a FLOPPY image as Bochs'
    floppya, a 1.44 MB drive with the medium in (the BIOS still boots
    the CD, boot/bochsrc.in's `boot: cdrom`)."""
    suite = disk_image(suite, suite_dir, FLOPPY)
    return dataclasses.replace(suite, bochsrc=suite.bochsrc + (
        f"floppya: 1_44={suite_dir / 'hd0.img'}, status=inserted",))


def floppy_check(suite: Suite,
                 suite_dir: Path) -> list[tuple[str, str | None]]:
    """Check hook of the floppy suites: disk_check over FLOPPY, and the
    floppy driver's console lines: the drive type it read from CMOS, and
    the disk it added with the format it detected (2880 sectors)."""
    console = (suite_dir / "console.log").read_text(errors="replace")
    cmos = "Floppy drive(s): fd0 is 1.44M" in console
    disk = "fd0: [hd0] 2880 512-byte sectors" in console
    return disk_check(suite, suite_dir, FLOPPY) + [
        ("cmos_names_a_1_44m_drive",
         None if cmos else "no 'Floppy drive(s): fd0 is 1.44M' line"),
        ("fd0_is_hd0_with_the_detected_format",
         None if disk else "no 'fd0: [hd0] 2880 512-byte sectors' line")]


def disk_image_module(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of `lxblk`: the image as a module ("hdimage") that
    the fake disk serves in place."""
    suite = disk_image(suite, suite_dir)
    return dataclasses.replace(suite, modules=suite.modules + (
        (str(suite_dir / "hd0.img"), "hdimage"),))


def blkdebug_image(suite_dir: Path) -> str:
    """The -drive file= value of suite_dir/hd0.img behind a blkdebug
    rule (written to suite_dir/blkdebug.conf) that fails reads of
    DISK_BAD with EIO."""
    rules = suite_dir / "blkdebug.conf"
    rules.write_text("[inject-error]\nevent = \"read_aio\"\n"
                     f"errno = \"5\"\nsector = \"{DISK_BAD}\"\n")
    return f"blkdebug:{rules}:{suite_dir / 'hd0.img'}"


def qemu_ide_disk(blkdebug: bool) -> Callable[[Suite, Path], Suite]:
    """Prepare hook of disk-ata-piix*: the image on QEMU's first IDE
    disk (PIIX3, -M pc); with `blkdebug`, reads of DISK_BAD fail with
    EIO (a blkdebug rule file in suite_dir)."""
    def prepare(suite: Suite, suite_dir: Path) -> Suite:
        suite = disk_image(suite, suite_dir)
        spec = (f"file={blkdebug_image(suite_dir)}" if blkdebug
                else f"file={suite_dir / 'hd0.img'}")
        return dataclasses.replace(suite, qemu_args=suite.qemu_args + (
            "-drive", f"{spec},if=ide,index=0,media=disk,format=raw"))
    return prepare


# Where qemu_dmar_ide_disk puts its PIIX3 IDE function on q35.
DMAR_IDE_PCI = "05.0"


def qemu_dmar_ide_disk(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of the disk campaigns under DMA remapping: the image
    on the first disk of a PIIX3 IDE function (ata_piix's, compatibility
    mode: ISA lines 14 and 15) at DMAR_IDE_PCI of a q35 machine with
    QEMU's VT-d unit (DMAR_MACHINE)."""
    suite = disk_image(suite, suite_dir)
    return dataclasses.replace(suite, qemu_args=suite.qemu_args + (
        DMAR_MACHINE + (
            "-device", f"piix3-ide,id=pide,addr={DMAR_IDE_PCI}",
            "-drive", f"file={suite_dir / 'hd0.img'},if=none,id=d0,"
            "format=raw", "-device", "ide-hd,drive=d0,bus=pide.0")))


def qemu_ahci_disk(machine: str) -> Callable[[Suite, Path], Suite]:
    """Prepare hook of disk-ahci*: the image as a SATA disk on port 0 of
    an AHCI controller, with reads of DISK_BAD failing as in
    qemu_ide_disk: on `machine` "pc" an ICH9 AHCI added at slot 4, on
    "q35" the machine's own (if=ide drives go to its AHCI ports)."""
    def prepare(suite: Suite, suite_dir: Path) -> Suite:
        suite = disk_image(suite, suite_dir)
        spec = f"file={blkdebug_image(suite_dir)},format=raw"
        if machine == "q35":
            disk = ("-M", "q35", "-drive",
                    f"{spec},if=ide,index=0,media=disk")
        else:
            disk = ("-device", "ahci,id=ahci0,addr=04.0",
                    "-drive", f"{spec},if=none,id=d0",
                    "-device", "ide-hd,drive=d0,bus=ahci0.0")
        return dataclasses.replace(suite, qemu_args=suite.qemu_args + disk)
    return prepare


def qemu_device_disk(devices: tuple[str, ...]) -> Callable[[Suite, Path],
                                                           Suite]:
    """Prepare hook of disk-virtio-* and the SCSI host adapters' disk
    suites: the image as QEMU drive d0 that `devices` (-device values:
    an adapter at slot 4 and its disk, or a virtio block device; virtio
    1.0 only, disable-legacy=on) put there, reads of DISK_BAD failing
    with EIO as in qemu_ide_disk (SCSI adapters report them as CHECK
    CONDITION, virtio-blk as VIRTIO_BLK_S_IOERR)."""
    def prepare(suite: Suite, suite_dir: Path) -> Suite:
        suite = disk_image(suite, suite_dir)
        spec = f"file={blkdebug_image(suite_dir)},format=raw"
        extra = ("-drive", f"{spec},if=none,id=d0")
        for device in devices:
            extra += ("-device", device)
        return dataclasses.replace(suite, qemu_args=suite.qemu_args + extra)
    return prepare


# A scsi-hd (target 0, LUN 0) on virtio-scsi-pci; virtio-blk-pci.
VIRTIO_SCSI_DISK = ("virtio-scsi-pci,id=vscsi0,disable-legacy=on,addr=04.0",
                    "scsi-hd,drive=d0,bus=vscsi0.0,scsi-id=0,lun=0")
VIRTIO_BLK_DISK = ("virtio-blk-pci,drive=d0,disable-legacy=on,addr=04.0",)
# An NVMe controller (QEMU's nvme, namespace 1 the drive).
NVME_DISK = ("nvme,serial=graft0,drive=d0,addr=04.0",)
# A USB disk (Bulk-Only mass storage) on port 1 of a PIIX3 UHCI.
USB_STORAGE_DISK = ("piix3-usb-uhci,id=uhci0,addr=04.0",
                    "usb-storage,drive=d0,bus=uhci0.0,port=1")
# The same on an OHCI (QEMU's pci-ohci, Apple's KeyLargo), on an EHCI
# without companions (QEMU's usb-ehci, ICH4's; high speed) and on an
# xHCI (QEMU's qemu-xhci; super speed).
USB_OHCI_DISK = ("pci-ohci,id=ohci0,addr=04.0",
                 "usb-storage,drive=d0,bus=ohci0.0,port=1")
USB_EHCI_DISK = ("usb-ehci,id=ehci0,addr=04.0",
                 "usb-storage,drive=d0,bus=ehci0.0,port=1")
USB_XHCI_DISK = ("qemu-xhci,id=xhci0,addr=04.0",
                 "usb-storage,drive=d0,bus=xhci0.0,port=1")


def qemu_scsi_disk(adapter: str) -> Callable[[Suite, Path], Suite]:
    """Prepare hook of the SCSI host adapters' disk suites: the image as
    a scsi-hd (target 0, LUN 0) on QEMU's `adapter` at slot 4, reads of
    DISK_BAD failing as in qemu_ide_disk (QEMU reports them as CHECK
    CONDITION)."""
    return qemu_device_disk((f"{adapter},id=scsi0,addr=04.0",
                             "scsi-hd,drive=d0,bus=scsi0.0,scsi-id=0,lun=0"))


# The disk controllers whose drivers the disk benchmark runs over besides
# ata_piix (`bench-disk` boot): (the driver's name in the BENCH names,
# the disk suites' prepare hook); ahci on -M pc; usb-storage as
# usb-<host controller> (uhci_hcd, ohci-pci, ehci-pci, xhci-pci).
BENCH_DISKS = (("ahci", qemu_ahci_disk("pc")),
               ("sym53c8xx", qemu_scsi_disk("lsi53c895a")),
               ("pvscsi", qemu_scsi_disk("pvscsi")),
               ("virtio_scsi", qemu_device_disk(VIRTIO_SCSI_DISK)),
               ("virtio_blk", qemu_device_disk(VIRTIO_BLK_DISK)),
               ("nvme", qemu_device_disk(NVME_DISK)),
               ("floppy", qemu_floppy_disk),
               ("usb-uhci", qemu_device_disk(USB_STORAGE_DISK)),
               ("usb-ohci", qemu_device_disk(USB_OHCI_DISK)),
               ("usb-ehci", qemu_device_disk(USB_EHCI_DISK)),
               ("usb-xhci", qemu_device_disk(USB_XHCI_DISK)))
# A disk whose image is not DISK's.
BENCH_DISK_LAYOUTS = {"floppy": FLOPPY}
# The kernel's words a disk needs besides `linux`: a USB disk is found
# after the initcalls (usbcore's hub work), so the boot waits for it.
BENCH_DISK_WORDS = {disk: ("linux.disks=1",)
                    for disk in ("usb-uhci", "usb-ohci", "usb-ehci",
                                 "usb-xhci")}


def bench_disk_suite(disk: str,
                     prepare: Callable[[Suite, Path], Suite] | None
                     ) -> QemuSuite:
    """bench-disk-`disk`: the disk glue figures (icount) of
    DISK_BENCH_REQUESTS requests of each size over the disk `prepare`
    puts in the machine, named with `disk` (disk.cmd.glue/`disk`/16384,
    ...); with `disk` "" and `prepare` None, bench-disk: ata_piix on
    the first IDE disk, names without a driver."""
    named = (f"bench_disk={disk}",) if disk else ()
    layout = BENCH_DISK_LAYOUTS.get(disk, DISK)
    return QemuSuite(
        name="bench-disk" + (f"-{disk}" if disk else ""), test="bench-disk",
        mode="icount", hidden=True, timeout=300.0,
        cmdline=((*bench_words("icount"), "linux") + named
                 + BENCH_DISK_WORDS.get(disk, ())),
        prepare=prepare or qemu_ide_disk(False),
        modules=((DISK_PROBE, "disk_lat mode=lat "
                  f"count={DISK_BENCH_REQUESTS} {disk_args(False, layout)} "
                  "bench_mode=icount "
                  + "".join(f"{word} " for word in named)
                  + "device=${device-port}"),))


def bochs_usb_disk_on(controller: str, speed: str = "", port: int = 1
                      ) -> Callable[[Suite, Path], Suite]:
    """Prepare hook of the disk-usb-*-bochs suites: the image as a USB
    disk (Bochs' usb_msd, Bulk-Only) on root hub port `port` of Bochs'
    `controller` (usb_uhci: the PIIX3's; usb_ohci, usb_ehci, usb_xhci: a
    PCI card), reporting `speed` if given (`high` on usb_ehci, which
    otherwise leaves it to a companion UHCI, and on usb_xhci's USB 2
    port 3)."""
    options = (f"speed:{speed}, " if speed else "") + "path:"

    def prepare(suite: Suite, suite_dir: Path) -> Suite:
        suite = disk_image(suite, suite_dir)
        return dataclasses.replace(suite, bochsrc=suite.bochsrc + (
            "pci: enabled=1, chipset=i440fx",
            f"{controller}: enabled=1, port{port}=disk, "
            f"options{port}=\"{options}{suite_dir / 'hd0.img'}\""))
    return prepare


def bochs_ide_disk(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of disk-ata-piix-bochs: the image as ata0-master, in
    place of boot/bochsrc.in's CD-ROM, which moves to ata1-master (the
    ISO boot.py builds in suite_dir; Bochs' BIOS boots the first CD)."""
    suite = disk_image(suite, suite_dir)
    return dataclasses.replace(suite, bochsrc=suite.bochsrc + (
        f"ata0-master: type=disk, path={suite_dir / 'hd0.img'}, mode=flat",
        "ata1: enabled=1, ioaddr1=0x170, ioaddr2=0x370, irq=15",
        f"ata1-master: type=cdrom, path={suite_dir / 'graft.iso'}, "
        "status=inserted"))


# device-fuzz: tests/user/device_fuzz.c against every device of a boot
# with "linux": console, irq, rd0 (the ramdisk image), eth0 (QEMU's
# e1000 on user networking: frames go out, little comes in) and hd0,
# hd0s1, hd0s2 (the disk suites' image, written to at random).  The
# guest learns the count and the task's time limit from the command line
# (fuzz_count=, fuzz_seconds=); the boot gets FUZZ_BOOT_SECONDS more.
# 100,000 messages took 5 s in QEMU TCG on an idle two-core machine when
# this was written, 5 to 8 s with both cores busy besides (make stress
# runs STRESS_SEEDS boots of STRESS_COUNT); the task may take three times
# SECONDS_PER_100K.
DEVICE_FUZZ = "{builddir}/tests/user/device_fuzz.elf"
FUZZ_COUNT = 100_000
SECONDS_PER_100K = 10
FUZZ_BOOT_SECONDS = 60
STRESS_SEEDS = range(2, 22)
STRESS_COUNT = 500_000


# make stress's fault campaigns: boots of the fault-inject and
# fault-inject-disk kinds with a fault every tick (10 ms) and
# STRESS_INJECT_FAULTS faults each, STRESS_INJECT_BOOTS of each kind:
# 100,000 faults at least in all.  Their FAULT-INJECT lines are summed
# into build/stress/results.json (run.py).  The client runs for
# STRESS_INJECT_SECONDS of its kind: a disk's server reads every write
# back (verify=1) and is restarted more often, so it injects fewer
# faults a second (about 50 on this machine with other work on it).
STRESS_INJECT_BOOTS = 5
STRESS_INJECT_FAULTS = 10_000
STRESS_INJECT_SECONDS = {"net": 200, "disk": 300}


def server_net_suite(name: str, driver: str, server: str,
                     device: str) -> QemuSuite:
    """The server-net cases over Linux's `driver` in a driver server at
    slot 3, the kernel leaving `server` (linux.server=) to servers, QEMU's
    NIC `device` (-device) at the net peer."""
    return QemuSuite(
        name=name, test="server-net",
        cmdline=("linux", f"linux.server={server}"),
        prepare=net_peer_for(f"{device},addr=03.0"),
        modules=((LXDRV, f"lxdrv drivers={driver} pci=03.0 "
                  "device=${driver-port}"), NET_PROBE_MODULES[0]))


def fault_inject_suite(name: str, kind: str, seconds: int,
                       cmdline: tuple[str, ...] = (), server: str = "",
                       hidden: bool = False) -> QemuSuite:
    """A fault campaign (tests/servers/inject.c) of `kind` "net" (e1000
    under restart_probe's frames to a counting sink) or "disk" (ata_piix
    under its write and read-back rounds on hd0s1, the image measured by
    disk_rounds_image; the server's data verified, verify=1), on q35
    with DMA remapping, so the faulty driver's device reaches only the
    server's memory, the client running `seconds`; `cmdline` and
    `server` add kernel and server words."""
    driver, pci, word, prepare, check, verify = (
        ("e1000", "03.0", "mode=load", dmar_net_sink, None, "")
        if kind == "net"
        else ("ata_piix", DMAR_IDE_PCI,
              "mode=disk failures=count name=hd0s1",
              qemu_dmar_ide_disk, disk_rounds_image, "verify=1 "))
    return QemuSuite(
        name=name, test="fault-inject" if kind == "net" else
        "fault-inject-disk", hidden=hidden, timeout=3.0 * seconds + 240.0,
        cmdline=("linux", f"linux.server={driver}") + cmdline,
        prepare=prepare, check=check,
        modules=(("{builddir}/tests/servers/lxdrv_inject.elf",
                  f"lxdrv_inject restart=100000 {verify}{server}"
                  f"drivers={driver} "
                  f"pci={pci} device=${{driver-port}}"),
                 ("{builddir}/tests/user/restart_probe.elf",
                  f"restart_probe {word} seconds={seconds} "
                  "device=${device-port}")))


def fault_inject_stress_suite(kind: str, boot: int) -> QemuSuite:
    """Boot `boot` of make stress's `kind` ("net" or "disk") campaign."""
    return fault_inject_suite(
        f"stress-fault-inject-{kind}-{boot}", kind,
        STRESS_INJECT_SECONDS[kind],
        cmdline=(f"inject_faults={STRESS_INJECT_FAULTS}",
                 f"inject_seconds={3 * STRESS_INJECT_SECONDS[kind]}"),
        server="inject_interval=1 ", hidden=True)


def restart_bench_suite(name: str, kind: str, mode: str) -> QemuSuite:
    """A supervised server killed ten times under its client, each
    recovery timed (tests/kernel/restart_test.c): `kind` "net" (e1000,
    frames to a counting sink; test bench-restart) or "disk" (ata_piix,
    64 KiB write and read-back rounds; bench-restart-disk), `mode`
    "icount" (restart.recovery/<driver>) or "wall" (.wall, in us)."""
    driver, pci, word, prepare, test = (
        ("e1000", "03.0", "mode=load", net_sink, "bench-restart")
        if kind == "net" else
        ("ata_piix", "01.1", "mode=disk name=hd0s1", qemu_ide_disk(False),
         "bench-restart-disk"))
    return QemuSuite(
        name=name, test=test, mode="icount" if mode == "icount" else "",
        hidden=True, timeout=600.0,
        cmdline=(*bench_words(mode), "linux", f"linux.server={driver}"),
        prepare=prepare,
        modules=((LXDRV, f"lxdrv restart=100 drivers={driver} pci={pci} "
                  "device=${driver-port}"),
                 ("{builddir}/tests/user/restart_probe.elf",
                  f"restart_probe {word} seconds=30 "
                  "device=${device-port}")))


def device_fuzz_machine(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of device-fuzz and stress-device-fuzz-*: the rd0
    image (ramdisk_image) and the IDE disk (qemu_ide_disk)."""
    return qemu_ide_disk(False)(ramdisk_image(suite, suite_dir), suite_dir)


def device_fuzz_suite(name: str, seed: int, count: int,
                      hidden: bool) -> QemuSuite:
    """The fuzz boot `name`: a warm-up run, then `count` messages from
    `seed`, with time limits in proportion."""
    seconds = 3 * SECONDS_PER_100K * max(1, count // FUZZ_COUNT)
    return QemuSuite(
        name=name, test="device-fuzz", hidden=hidden, memory_mib=256,
        timeout=float(seconds + FUZZ_BOOT_SECONDS),
        cmdline=("linux", f"fuzz_count={count}", f"fuzz_seconds={seconds}"),
        qemu_args=("-nic", "user,model=e1000"),
        prepare=device_fuzz_machine,
        modules=((DEVICE_FUZZ, "device_fuzz mode=warmup "
                  "device=${device-port}"),
                 (DEVICE_FUZZ, f"device_fuzz mode=fuzz seed={seed} "
                  f"count={count} device=${{device-port}}")))


def pktgen_prepare(suite: Suite, suite_dir: Path) -> Suite:
    """Prepare hook of `pktgen`: e1000 at a capturing peer."""
    import pktgen_check as check  # the harness directory is on sys.path

    return check.prepare(suite, suite_dir)


def pktgen_check(suite: Suite, suite_dir: Path) -> list:
    """Check hook of `pktgen`: each run's frames
    (tests/harness/pktgen_check.py)."""
    import pktgen_check as check  # the harness directory is on sys.path

    return check.check(suite, suite_dir)


# servers/pktgen's runs in suite pktgen (module word, arguments).
PKTGEN_RUNS = (
    ("pg_default", "count=20 dst_mac=02:00:00:00:00:01"),
    ("pg_ranges",
     "count=24 dst_mac=02:00:00:00:00:02 min_pkt_size=60 max_pkt_size=63 "
     "dst_min=10.0.0.1 dst_max=10.0.0.3 src_min=10.1.0.1 src_max=10.1.0.2 "
     "udp_src_min=1000 udp_src_max=1001 udp_dst_min=2000 udp_dst_max=2003"),
    ("pg_random",
     "count=100 dst_mac=02:00:00:00:00:03 min_pkt_size=60 max_pkt_size=1514 "
     "dst_min=10.0.0.1 dst_max=10.0.0.200 udp_dst_min=1 udp_dst_max=50000 "
     "flag=IPDST_RND+UDPDST_RND+TXSIZE_RND seed=7"),
    ("pg_clone",
     "count=30 clone_skb=9 dst_mac=02:00:00:00:00:04 dst_min=10.0.0.1 "
     "dst_max=10.0.0.255 flag=IPDST_RND"),
    ("pg_flows",
     "count=40 flows=4 flowlen=5 dst_mac=02:00:00:00:00:05 udp_src_min=1 "
     "udp_src_max=60000 flag=UDPSRC_RND"),
    ("pg_delay", "count=10 delay=20000000 dst_mac=02:00:00:00:00:06"),
    ("pg_bad01", "pkt_sz=60"),
    ("pg_bad02", "count=12x"),
    ("pg_bad03", "pkt_size=59"),
    ("pg_bad04", "pkt_size=1515"),
    ("pg_bad05", "dst=10.0.0.256"),
    ("pg_bad06", "dst_mac=02:00:00:00:00"),
    ("pg_bad07", "flag=IPDST_RANDOM"),
    ("pg_bad08", "min_pkt_size=100 max_pkt_size=80"),
    ("pg_bad09", "flows=4"),
    ("pg_bad10", "udp_dst_min=70000"),
    ("pg_bad11", "flows=2000 flowlen=1"),
    ("pg_bad12", "dst_min=10.0.0.9 dst_max=10.0.0.1"),
    ("pg_bad13", "count=0 runs=3"),
)


SUITES: tuple[Suite, ...] = (
    HostSuite(name="printf", argv=("tests/host/test_kprintf",)),
    HostSuite(name="stats", argv=("tests/host/test_stats",)),
    HostSuite(name="dev-info", argv=("tests/host/test_dev_info",)),
    HostSuite(name="crc32", argv=("tests/host/test_crc32",)),
    HostSuite(name="netd-chksum", argv=("tests/host/test_netd_chksum",)),
    HostSuite(name="cmdline", argv=("tests/host/test_cmdline",)),
    HostSuite(name="vm-page", argv=("tests/host/test_vm_page",)),
    HostSuite(name="vm-map", argv=("tests/host/test_vm_map",)),
    HostSuite(name="ipc-entry", argv=("tests/host/test_ipc_entry",)),
    HostSuite(name="netfilter-host", argv=("tests/host/test_net_filter",)),
    HostSuite(name="blk-cluster", argv=("tests/host/test_blk_cluster",)),
    HostSuite(name="blk-mbr", argv=("tests/host/test_blk_mbr",)),
    HostSuite(name="mig-coverage",
              argv=("{python}", "{srcdir}/tests/tools/check_mig_docs.py",
                    "{builddir}/kernel/mig/not_served.txt",
                    "{srcdir}/docs/mach-interfaces.md")),
    HostSuite(name="linux-unmodified",
              argv=("{python}", "{srcdir}/tests/tools/check_linux_unmodified.py",
                    "{builddir}/linux", "{builddir}/deps/linux-6.1",
                    "{builddir}/deps/linux-source-6.1.tar.xz")),
    HostSuite(name="linux-local",
              argv=("{python}", "{srcdir}/tests/tools/check_linux_local.py",
                    "{builddir}/linux", "{srcdir}")),
    HostSuite(name="linux-manifests",
              argv=("{python}",
                    "{srcdir}/tests/tools/check_linux_manifests.py",
                    "{builddir}/linux", "{srcdir}")),
    HostSuite(name="linux-exports",
              argv=("{python}", "{srcdir}/tests/tools/check_linux_exports.py",
                    "{builddir}/linux", "{srcdir}")),
    HostSuite(name="server-objects",
              argv=("{python}", "{srcdir}/tests/tools/check_shared_objects.py",
                    "{builddir}")),
    HostSuite(name="layers",
              argv=("{python}", "{srcdir}/tests/tools/check_layers.py",
                    "{srcdir}")),
    HostSuite(name="ktap-parser",
              argv=("{python}", "{srcdir}/tests/harness/test_ktap.py")),
    QemuSuite(name="boot", test="boot", prepare=boot_modules),
    # The boot modules too, to check their pages stay out of the allocator.
    QemuSuite(name="vm", test="vm", prepare=boot_modules),
    BochsSuite(name="boot-bochs", test="boot", prepare=boot_modules),
    QemuSuite(name="intr", test="intr", qemu_args=DETERMINISTIC_TIME),
    QemuSuite(name="sched", test="sched", qemu_args=DETERMINISTIC_TIME),
    QemuSuite(name="vm-user", test="vm-user"),
    QemuSuite(name="vm-copy-bytes", test="vm-copy-bytes"),
    QemuSuite(name="vm-copy-loan", test="vm-copy-loan"),
    QemuSuite(name="mach-user", test="mach-user",
              modules=(("{builddir}/tests/user/mach_probe.elf",
                        "mach_probe alpha host=${host-port} "
                        "device=${device-port}"),)),
    QemuSuite(name="ipc-user", test="ipc-user",
              modules=(("{builddir}/tests/user/rpc_server.elf", "rpc_server"),
                       ("{builddir}/tests/user/rpc_client.elf", "rpc_client"))),
    QemuSuite(name="task", test="task", prepare=task_modules,
              modules=tuple((TASK_PROBE, f"task_probe mode={mode}")
                            for mode in TASK_PROBE_MODES)),
    QemuSuite(name="thread", test="thread", timeout=150.0,
              modules=(("{builddir}/tests/user/thread_probe.elf",
                        "thread_probe mode=all"),
                       ("{builddir}/tests/user/thread_probe.elf",
                        "thread_probe mode=fault"))),
    QemuSuite(name="exception", test="exception",
              modules=tuple(("{builddir}/tests/user/exc_probe.elf",
                             f"exc_probe mode={mode}")
                            for mode in ("handled", "dead", "thread",
                                         "guarded"))),
    QemuSuite(name="ipc", test="ipc"),
    QemuSuite(name="hostio", test="hostio",
              modules=(("{builddir}/tests/user/host_probe.elf",
                        "host_probe mode=self host=${host-port}"),
                       ("{builddir}/tests/user/host_probe.elf",
                        "vm_reader mode=reader"),
                       ("{builddir}/tests/user/host_probe.elf",
                        "vm_peer mode=peer"),
                       ("{builddir}/tests/user/io_probe.elf",
                        "io_grant mode=grant device=${device-port}"),
                       ("{builddir}/tests/user/io_probe.elf",
                        "io_none mode=none"),
                       ("{builddir}/tests/user/io_probe.elf",
                        "io_revoke mode=revoke device=${device-port}"),
                       ("{builddir}/tests/user/io_probe.elf",
                        "io_drop mode=drop device=${device-port}"))),
    QemuSuite(name="netfilter", test="netfilter",
              modules=(("{builddir}/tests/user/net_rcv.elf", "net_rcv"),)),
    QemuSuite(name="boot-script", test="boot-script"),
    QemuSuite(name="linux-emu", test="linux-emu",
              qemu_args=DETERMINISTIC_TIME),
    QemuSuite(name="linux-net", test="linux-net",
              qemu_args=DETERMINISTIC_TIME),
    # The RTC's periodic interrupt is the interrupt source: on the
    # virtual clock, like the tick.
    QemuSuite(name="linux-irq", test="linux-irq",
              qemu_args=DETERMINISTIC_TIME + ("-rtc", "clock=vm")),
    # QEMU's e1000 and ne2k_pci at fixed slots, no default NIC, a device
    # behind a PCI-to-PCI bridge, and an e1000e for its PCI Express link.
    QemuSuite(name="linux-pci", test="linux-pci",
              qemu_args=DETERMINISTIC_TIME + (
                  "-nic", "none",
                  "-device", "e1000,addr=03.0,mac=52:54:00:12:34:56",
                  "-device", "ne2k_pci,addr=04.0,mac=52:54:00:12:34:57",
                  "-device", "pci-bridge,id=br1,chassis_nr=1,addr=05.0",
                  "-device", "pci-testdev,bus=br1,addr=01.0",
                  "-device", "e1000e,addr=06.0")),
    # ata_piix on libata over the emulated SCSI midlayer (linux-emu/
    # lx_scsi_*.c) and QEMU's PIIX3 IDE disk (scsi_disk).
    QemuSuite(name="linux-scsi", test="linux-scsi", prepare=scsi_disk,
              qemu_args=DETERMINISTIC_TIME),
    # The same in PIO: libata's module parameter on the command line.
    QemuSuite(name="linux-scsi-pio", test="linux-scsi", prepare=scsi_disk,
              cmdline=("libata.dma=0",), qemu_args=DETERMINISTIC_TIME),
    # linux-emu's blk-mq against a fake driver (tests/linux-emu/
    # lx_selftest_blk.c): no device, no NIC.
    QemuSuite(name="linux-blk", test="linux-blk",
              qemu_args=DETERMINISTIC_TIME + ("-nic", "none")),
    # The out-of-tree edu driver (tests/drivers/edu) on QEMU's edu device;
    # no NIC, so that only edu has a driver to probe.
    QemuSuite(name="linux-oot", test="linux-oot",
              qemu_args=DETERMINISTIC_TIME + (
                  "-nic", "none", "-device", "edu,addr=04.0")),
    # A WARN in an in-kernel driver (tests/drivers/rogue, act warn):
    # reported with its call chain, and the driver goes on.
    QemuSuite(name="linux-warn", test="linux-warn",
              qemu_args=("-nic", "none", "-device", "pci-testdev,addr=04.0")),
    # Longer than the 40 s the guest gives the fuzz task (ipc_fuzz_test.c).
    QemuSuite(name="ipc-fuzz", test="ipc-fuzz", timeout=60.0,
              modules=(("{builddir}/tests/user/ipc_fuzz.elf",
                        "ipc_fuzz seed=1 count=100000"),)),
    device_fuzz_suite("device-fuzz", 1, FUZZ_COUNT, hidden=False),
    # The sharing case times two tasks: instruction-count time.
    QemuSuite(name="device", test="device", qemu_args=DETERMINISTIC_TIME,
              modules=tuple(("{builddir}/tests/user/device_probe.elf",
                             f"device_probe {args} device=${{device-port}}")
                            for args in ("mode=sync", "mode=share hold=100",
                                         "mode=share hold=600"))),
    # Instruction-count time, the RTC on it too: the interrupt case's
    # order of events does not depend on a loaded host.
    QemuSuite(name="device-async", test="device-async",
              qemu_args=DETERMINISTIC_TIME + ("-rtc", "clock=vm"),
              modules=(("{builddir}/tests/user/device_probe.elf",
                        "device_probe mode=async device=${device-port}"),
                       ("{builddir}/tests/user/device_probe.elf",
                        "device_probe mode=intr device=${device-port}"))),
    # What tasks' requests hold in the kernel goes with the right it hangs
    # on, and is bounded per task: one lifetime_probe task per mode, over
    # every kind of device (QEMU's default NIC is an e1000 on user
    # networking; rd0 is the ramdisk suite's image).
    QemuSuite(name="device-lifetime", test="device-lifetime",
              cmdline=("linux",), memory_mib=256, prepare=ramdisk_image,
              timeout=120.0,
              modules=tuple(("{builddir}/tests/user/lifetime_probe.elf",
                             f"lifetime_probe mode={mode} "
                             "device=${device-port}")
                            for mode in ("warmup", "lines", "rtc", "kports",
                                         "selfreply", "bound", "filters",
                                         "ioperm", "flood"))),
    # PCI and ISA claims for user drivers (defs/claim.defs): an e1000 at
    # 00:03.0 is bound by the kernel's Linux world; an RTL8139 at 00:05.0
    # and an e1000e at 00:06.0, whose drivers the kernel's world leaves
    # to a server (linux.server=), are claimed by claim_probe; the
    # kernel's world holds the ISA ports of ne_io= (no card answers
    # there).
    # A claim's end resets the function where it can: nvme (PCI Express,
    # FLR), e1000e (power management, D3hot to D0), e1000 (neither).
    QemuSuite(name="claim-reset", test="claim-reset",
              qemu_args=("-nic", "none",
                         "-device", "e1000,addr=03.0,netdev=e",
                         "-netdev", "user,id=e",
                         "-blockdev", "driver=null-co,node-name=nv,"
                         "size=1048576",
                         "-device", "nvme,addr=04.0,drive=nv,serial=graft",
                         "-device", "e1000e,addr=05.0,netdev=e2",
                         "-netdev", "user,id=e2"),
              modules=tuple(("{builddir}/tests/user/claim_probe.elf",
                             f"claim_hold_{name} mode=hold slot={slot} "
                             "device=${device-port}")
                            for name, slot in (("nvme", 4), ("e1000e", 5),
                                               ("e1000", 3)))),
    QemuSuite(name="driver-claim", test="driver-claim",
              cmdline=("linux", f"ne_io={NE_ISA_IO:#x}",
                       "linux.server=8139cp,e1000e"),
              qemu_args=("-nic", "none",
                         "-device", "e1000,addr=03.0,netdev=e",
                         "-netdev", "user,id=e",
                         "-device", "rtl8139,addr=05.0,netdev=rtl,"
                         "mac=52:54:00:00:00:77", "-netdev", "user,id=rtl",
                         "-device", "e1000e,addr=06.0,netdev=e2,"
                         "mac=52:54:00:00:00:88", "-netdev", "user,id=e2"),
              modules=tuple(("{builddir}/tests/user/claim_probe.elf",
                             f"claim_probe mode={mode} device=${{device-port}}")
                            for mode in ("refuse", "access", "outside",
                                         "release", "map", "isa"))
              + (("{builddir}/tests/user/claim_probe.elf",
                  "claim_probe mode=driver device=${driver-port}"),)),
    # DMA remapping (kernel/x86_64/dmar.c): q35 with QEMU's intel-iommu
    # and its edu device, whose DMA engine a user task drives; with
    # dmar=off the same DMA reaches a page nobody was given.
    *(QemuSuite(name=name, test=name, cmdline=cmdline,
                qemu_args=DMAR_MACHINE + ("-device", "edu,addr=04.0"),
                modules=(("{builddir}/tests/user/dmar_probe.elf",
                          f"dmar_probe target=0x6000000 expect={expect} "
                          "device=${driver-port}"),))
      for name, cmdline, expect in (("dmar", (), "blocked"),
                                    ("dmar-off", ("dmar=off",), "reached"))),
    # The Linux e1000 driver in a user-mode server (servers/lxdrv): the
    # kernel's Linux world starts without it (linux.server=e1000).
    QemuSuite(name="server-net-e1000", test="server-net",
              cmdline=("linux", "linux.server=e1000"),
              prepare=net_peer,
              modules=((LXDRV,
                        "lxdrv drivers=e1000 pci=03.0 device=${driver-port}"),
                       NET_PROBE_MODULES[0])),
    # The same over Linux's ne2k-pci (+ 8390) in the server.
    server_net_suite("server-net-ne2k-pci", "ne2k-pci", "ne2k-pci",
                     "ne2k_pci"),
    # virtio_net (on the virtio core) in the server; virtio_scsi leaves
    # the kernel too, or the kernel's virtio transport, which both
    # share, would bind the NIC's function first.
    server_net_suite("server-net-virtio", "virtio_net",
                     "virtio_net,virtio_scsi,virtio_blk",
                     "virtio-net-pci,disable-legacy=on"),
    # The same over Linux's vmxnet3 in the server.
    server_net_suite("server-net-vmxnet3", "vmxnet3", "vmxnet3", "vmxnet3"),
    # ISA ne in the server: its ports claimed (isa=), its line found by
    # autoIRQ through the claim, compared with the line QEMU was given;
    # then the net-ne-isa program against its eth0.
    QemuSuite(name="server-net-ne-isa", test="server-net-ne-isa",
              cmdline=("linux", "linux.server=ne", f"isa_io={NE_ISA_IO:#x}",
                       f"expect_irq={NE_ISA_IRQ}"),
              prepare=net_peer_for(
                  f"ne2k_isa,iobase={NE_ISA_IO:#x},irq={NE_ISA_IRQ}"),
              modules=((LXDRV, f"lxdrv drivers=ne isa=ne:{NE_ISA_IO:#x} "
                        "device=${driver-port}"),
                       NET_PROBE_MODULES[0])),
    # libata + ata_piix in the server: the disk-ata-piix suites' client
    # and host-side checks against the server's hd0, hd0s1, hd0s2 (the
    # kernel's Linux world leaves ata_piix to it).  For PIO the server's
    # world gets libata.dma=0 from its module line, and a 3 MiB pool:
    # its bounce buffer is smaller than the client's 1 MiB requests,
    # which are served in chunks.
    QemuSuite(name="server-disk-ata-piix", test="server-disk-ata-piix",
              timeout=90.0, cmdline=("linux", "linux.server=ata_piix"),
              prepare=qemu_ide_disk(True), check=disk_check_mode("DMA"),
              modules=((LXDRV, "lxdrv drivers=ata_piix pci=01.1 "
                        "device=${driver-port}"),) + disk_modules(True)),
    QemuSuite(name="server-disk-ata-piix-pio", test="server-disk-ata-piix",
              timeout=90.0, cmdline=("linux", "linux.server=ata_piix"),
              prepare=qemu_ide_disk(True), check=disk_check_mode("PIO"),
              modules=((LXDRV, "lxdrv drivers=ata_piix pci=01.1 "
                        "libata.dma=0 pool=3 device=${driver-port}"),)
              + disk_modules(True)),
    # The same in-kernel suite over the SCSI host adapters' servers
    # (sym53c8xx with its SPI domain validation, vmw_pvscsi).
    QemuSuite(name="server-disk-sym53c8xx", test="server-disk-ata-piix",
              timeout=180.0, cmdline=("linux", "linux.server=sym53c8xx"),
              prepare=qemu_scsi_disk("lsi53c895a"), check=disk_check,
              modules=((LXDRV, "lxdrv drivers=sym53c8xx pci=04.0 "
                        "device=${driver-port}"),) + disk_modules(True)),
    QemuSuite(name="server-disk-pvscsi", test="server-disk-ata-piix",
              timeout=90.0, cmdline=("linux", "linux.server=pvscsi"),
              prepare=qemu_scsi_disk("pvscsi"), check=disk_check,
              modules=((LXDRV, "lxdrv drivers=pvscsi pci=04.0 "
                        "device=${driver-port}"),) + disk_modules(True)),
    # nvme in the server: its admin and I/O queues, its interrupt line
    # and its namespace's disk in the server's world.
    QemuSuite(name="server-disk-nvme", test="server-disk-ata-piix",
              timeout=90.0, cmdline=("linux", "linux.server=nvme"),
              prepare=qemu_device_disk(NVME_DISK), check=disk_check,
              modules=((LXDRV, "lxdrv drivers=nvme pci=04.0 "
                        "device=${driver-port}"),) + disk_modules(True)),
    # A supervised driver server (restart=N on its module line) killed
    # twice under its client, which notices nothing: eth0 written to a
    # counting sink, and the disk-ata-piix program with its image
    # checked on the host; with restart=1 the second death gives up.
    QemuSuite(name="restart-net-e1000", test="restart-net-e1000",
              timeout=120.0, cmdline=("linux", "linux.server=e1000"),
              prepare=net_sink,
              modules=((LXDRV, "lxdrv restart=3 drivers=e1000 pci=03.0 "
                        "device=${driver-port}"),
                       ("{builddir}/tests/user/restart_probe.elf",
                        "restart_probe mode=net device=${device-port}"))),
    QemuSuite(name="restart-disk-ata-piix", test="restart-disk-ata-piix",
              timeout=300.0, cmdline=("linux", "linux.server=ata_piix"),
              prepare=qemu_ide_disk(True), check=disk_check_mode("DMA"),
              modules=((LXDRV, "lxdrv restart=3 drivers=ata_piix pci=01.1 "
                        "device=${driver-port}"),) + disk_modules(True)[:1]),
    # The same with nvme in the server, killed twice under the disk
    # program: each new instance probes the controller again.
    QemuSuite(name="restart-disk-nvme", test="restart-disk-ata-piix",
              timeout=300.0, cmdline=("linux", "linux.server=nvme"),
              prepare=qemu_device_disk(NVME_DISK), check=disk_check,
              modules=((LXDRV, "lxdrv restart=3 drivers=nvme pci=04.0 "
                        "device=${driver-port}"),) + disk_modules(True)[:1]),
    QemuSuite(name="restart-root-disk", test="restart-root-disk",
              timeout=120.0, cmdline=("linux", "linux.server=ata_piix"),
              prepare=qemu_ide_disk(False),
              modules=((LXDRV, "lxdrv restart=100 drivers=ata_piix "
                        "pci=01.1 device=${driver-port}"),
                       ("{builddir}/tests/user/restart_probe.elf",
                        "restart_probe mode=disk name=hd0s1 "
                        "device=${device-port}"))),
    QemuSuite(name="restart-give-up", test="restart-give-up",
              timeout=120.0, cmdline=("linux", "linux.server=e1000"),
              prepare=net_sink,
              modules=((LXDRV, "lxdrv restart=1 drivers=e1000 pci=03.0 "
                        "device=${driver-port}"),
                       ("{builddir}/tests/user/restart_probe.elf",
                        "restart_probe mode=down device=${device-port}"))),
    # Faults injected into the Linux world of a supervised e1000 server
    # (tests/servers/inject.c: code bytes flipped, NOPed or made a loop,
    # pointers made NULL or wild, each undone 50 ms later) while a client
    # writes frames to a counting sink for 100 s: at least 1,000 faults.
    fault_inject_suite("fault-inject", "net", 100),
    # The same faults in a supervised ata_piix server while a client
    # writes 64 KiB and reads it back on hd0s1 for 100 s, failed rounds
    # counted; the image measured on the host afterwards.
    fault_inject_suite("fault-inject-disk", "disk", 100),
    # A supervised test server whose driver never gives its thread back
    # (tests/drivers/rogue, rogue.act=spin): noticed, restarted once,
    # given up.
    QemuSuite(name="restart-hang", test="restart-hang", timeout=120.0,
              cmdline=("linux", "linux.server=rogue"),
              qemu_args=("-device", "pci-testdev,addr=04.0"),
              modules=(("{builddir}/tests/servers/lxdrv_test.elf",
                        "lxdrv_test restart=1 drivers=rogue pci=04.0 pool=6 "
                        "rogue.act=spin device=${driver-port}"),
                       ("{builddir}/tests/user/restart_probe.elf",
                        "restart_probe mode=down name=rogue0 "
                        "device=${device-port}"))),
    # A test server whose driver's probe calls a function linux-emu
    # lacks (rogue.act=missing), with restart=2: each instance ends
    # alone, naming it; the third is given up.
    QemuSuite(name="restart-missing", test="restart-missing", timeout=120.0,
              cmdline=("linux", "linux.server=rogue"),
              qemu_args=("-device", "pci-testdev,addr=04.0"),
              modules=(("{builddir}/tests/servers/lxdrv_test.elf",
                        "lxdrv_test restart=2 drivers=rogue pci=04.0 pool=6 "
                        "rogue.act=missing device=${driver-port}"),)),
    # A driver server is confined and one that faults ends alone: the
    # e1000 server as in server-net-e1000, and the test server (the
    # server's objects over linux-test.o) running tests/drivers/rogue on
    # a pci-testdev at 04.0, one server per act, each with its client;
    # then the net-e1000 program.
    QemuSuite(name="server-confine", test="server-confine", timeout=60.0,
              cmdline=("linux", "linux.server=e1000,rogue"),
              prepare=net_peer,
              qemu_args=("-device", "pci-testdev,addr=04.0"),
              modules=(((LXDRV, "lxdrv drivers=e1000 pci=03.0 "
                         "device=${driver-port}"),)
                       + tuple(("{builddir}/tests/servers/lxdrv_test.elf",
                                "lxdrv_test drivers=rogue pci=04.0 pool=6 "
                                f"rogue.act={act} device=${{driver-port}}")
                               for act in ("mmio", "irq", "ports", "null",
                                           "wild", "warn", "bug"))
                       + tuple(("{builddir}/tests/user/confine_probe.elf",
                                f"confine_probe mode={mode} "
                                "device=${device-port}")
                               for mode in ("serve", "fault"))
                       + (("{builddir}/tests/user/confine_probe.elf",
                           "confine_probe mode=master "
                           "device=${driver-port}"),)
                       + (NET_PROBE_MODULES[0],))),
    # Devices a driver server publishes (defs/proxy.defs): a fake server
    # and its client as a pair of tasks per mode.
    QemuSuite(name="device-proxy", test="device-proxy", timeout=90.0,
              modules=tuple(m for mode in ("serve", "bad", "die", "lend")
                            for m in (
                                # a bad server holds the device master
                                # port, the others the driver master port
                                ("{builddir}/tests/user/proxy_server.elf",
                                 f"proxy_{mode} mode={mode} device=${{"
                                 f"{'device' if mode == 'bad' else 'driver'}"
                                 "-port}"),
                                ("{builddir}/tests/user/proxy_probe.elf",
                                 f"probe_{mode} mode={mode} "
                                 "device=${device-port}")))),
    # A supervised fake server that fails some disk calls and frames:
    # they are sent again, to it and to its next instance.
    QemuSuite(name="proxy-retry", test="proxy-retry", timeout=90.0,
              modules=(("{builddir}/tests/user/proxy_server.elf",
                        "proxy_flaky mode=flaky restart=7 "
                        "device=${driver-port}"),
                       ("{builddir}/tests/user/proxy_probe.elf",
                        "probe_flaky mode=flaky device=${device-port}"))),
    # A supervised fake server with verify=1 that stores and answers
    # data wrongly: the kernel reads writes back and checks reads
    # against what was written, and sends them to its next instance.
    QemuSuite(name="proxy-verify", test="proxy-verify", timeout=120.0,
              modules=(("{builddir}/tests/user/proxy_server.elf",
                        "proxy_liar mode=liar restart=10 verify=1 "
                        "device=${driver-port}"),
                       ("{builddir}/tests/user/proxy_probe.elf",
                        "probe_liar mode=liar device=${device-port}"))),
    # The Linux e1000 driver as Mach's eth0, linked to a host peer.
    QemuSuite(name="net-e1000", test="net-e1000", cmdline=("linux",),
              prepare=net_peer,
              modules=NET_PROBE_MODULES),
    # The same program and peer over the Linux ne2k-pci (+ 8390) driver.
    QemuSuite(name="net-ne2k-pci", test="net-ne2k-pci", cmdline=("linux",),
              prepare=net_peer_for("ne2k_pci,addr=03.0"),
              modules=NET_PROBE_MODULES),
    # The same over the other PCI NICs QEMU emulates (PCI_NICS).
    *(QemuSuite(name=name, test=test, cmdline=("linux",),
                prepare=net_peer_for(f"{nic},addr=03.0"),
                modules=NET_PROBE_MODULES)
      for name, test, nic in PCI_NICS),
    # ISA ne at NE_ISA_IO: lx_boot registers the board's platform device
    # (ne_io=), ne finds the IRQ by autoIRQ and the suite compares it with
    # the line QEMU was given (expect_irq=).
    QemuSuite(name="net-ne-isa", test="net-ne-isa",
              cmdline=("linux", f"ne_io={NE_ISA_IO:#x}",
                       f"expect_irq={NE_ISA_IRQ}"),
              prepare=net_peer_for(
                  f"ne2k_isa,iobase={NE_ISA_IO:#x},irq={NE_ISA_IRQ}"),
              modules=NET_PROBE_MODULES),
    # The same over Bochs' e1000 and PCI NE2000 (ethmod=socket).
    BochsSuite(name="net-e1000-bochs", test="net-e1000", cmdline=("linux",),
               prepare=bochs_net_peer_for("e1000", "e1000: enabled=1"),
               modules=NET_PROBE_MODULES_BOCHS),
    # e1000 in the driver server on Bochs (its e1000 sits at slot 2).
    # Bochs' PIIX3 always has its UHCI (01.2), on the e1000's line 9: the
    # kernel's uhci_hcd would hold the line the server needs (a line is
    # the kernel's or one server's), so USB is off (usbcore.nousb).
    BochsSuite(name="server-net-e1000-bochs", test="server-net",
               cmdline=("linux", "linux.server=e1000", "nic_slot=2",
                        "usbcore.nousb"),
               prepare=bochs_net_peer_for("e1000", "e1000: enabled=1"),
               modules=((LXDRV, "lxdrv drivers=e1000 pci=02.0 "
                         "device=${driver-port}"),
                        NET_PROBE_MODULES_BOCHS[0])),
    BochsSuite(name="net-ne2k-pci-bochs", test="net-ne2k-pci",
               cmdline=("linux",),
               prepare=bochs_net_peer_for("ne2k", "ne2k: type=pci"),
               modules=NET_PROBE_MODULES_BOCHS),
    BochsSuite(name="net-ne-isa-bochs", test="net-ne-isa",
               cmdline=("linux", f"ne_io={NE_ISA_IO:#x}",
                        f"expect_irq={NE_ISA_IRQ}"),
               prepare=bochs_net_peer_for(
                   None, f"ne2k: type=isa, ioaddr={NE_ISA_IO:#x}, "
                   f"irq={NE_ISA_IRQ}"),
               modules=NET_PROBE_MODULES_BOCHS),
    # ISA ne in the driver server on Bochs, as server-net-ne-isa.
    BochsSuite(name="server-net-ne-isa-bochs", test="server-net-ne-isa",
               cmdline=("linux", "linux.server=ne", f"isa_io={NE_ISA_IO:#x}",
                        f"expect_irq={NE_ISA_IRQ}"),
               prepare=bochs_net_peer_for(
                   None, f"ne2k: type=isa, ioaddr={NE_ISA_IO:#x}, "
                   f"irq={NE_ISA_IRQ}"),
               modules=((LXDRV, f"lxdrv drivers=ne isa=ne:{NE_ISA_IO:#x} "
                         "device=${driver-port}"),
                        NET_PROBE_MODULES_BOCHS[0])),
    # servers/pingd on e1000 answers the peer's ARP and ICMP echo
    # requests (tests/harness/ping_peer.py).
    QemuSuite(name="net-ping", test="net-ping", cmdline=("linux",),
              prepare=ping_peer,
              modules=(("{builddir}/servers/pingd/pingd.elf",
                        f"pingd ip={PING_GUEST_IP} count=2 "
                        "device=${device-port}"),)),
    # pingd on e1000 again, reached by the host's `ping` through a tap
    # device in a network namespace (tests/harness/ping_host.py).
    QemuSuite(name="net-ping-host", test="net-ping-host", cmdline=("linux",),
              prepare=ping_from_host,
              modules=(("{builddir}/servers/pingd/pingd.elf",
                        f"pingd ip={PING_GUEST_IP} count=4 "
                        "device=${device-port}"),)),
    # servers/pktgen: runs whose frames the capturing peer keeps and
    # tests/harness/pktgen_check.py checks, then bad arguments, each
    # refused by name (tests/kernel/pktgen_test.c).
    QemuSuite(name="pktgen", test="pktgen", cmdline=("linux",),
              timeout=180.0, prepare=pktgen_prepare, check=pktgen_check,
              modules=tuple(
                  ("{builddir}/servers/pktgen/pktgen.elf",
                   f"{word} {args} device=${{device-port}}")
                  for word, args in PKTGEN_RUNS)),
    # servers/netd (lwIP) on eth0, reached from a tap device in a network
    # namespace by the host's ping, curl and iperf; netd-client runs
    # tests/user/netd_client.c over netd.defs against peers on the tap
    # side (tests/harness/netd_host.py boots QEMU itself).
    HostSuite(name="netd-host", timeout=300.0, argv=NETD_HOST + (
        "--suite", "netd-host", "--nic", "e1000,addr=03.0",
        "--checks", "ping,ipv6,http,big,echo,iperf")),
    HostSuite(name="netd-host-ne2k-pci", timeout=300.0, argv=NETD_HOST + (
        "--suite", "netd-host-ne2k-pci", "--nic", "ne2k_pci,addr=03.0",
        "--checks", "ping,ipv6,http,big,echo")),
    # The same with e1000 in the driver server (lxdrv): the status page
    # says so, with the server's counters and probes.
    HostSuite(name="netd-host-server", timeout=300.0, argv=NETD_HOST + (
        "--suite", "netd-host-server", "--nic", "e1000,addr=03.0",
        "--server", "e1000", "--checks", "ping,http,big,echo")),
    HostSuite(name="netd-client", timeout=300.0, argv=NETD_HOST + (
        "--suite", "netd-client", "--nic", "e1000,addr=03.0",
        "--checks", "client")),
    # The same client booted as a module of its own: the boot script
    # hands it netd's port ($(netd-port=port-create), ${netd-port}).
    HostSuite(name="netd-client-module", timeout=300.0, argv=NETD_HOST + (
        "--suite", "netd-client-module", "--nic", "e1000,addr=03.0",
        "--checks", "client", "--client-module")),
    # Bad input from the wire (raw frames on the tap), then netd still
    # serves, its memory is back to its baseline, the kernel said nothing.
    HostSuite(name="netd-wire", timeout=300.0, argv=NETD_HOST + (
        "--suite", "netd-wire", "--nic", "e1000,addr=03.0",
        "--checks", "wire")),
    # All of it on Bochs' e1000, its tuntap back end on the same tap.
    HostSuite(name="netd-bochs", timeout=600.0, argv=NETD_HOST + (
        "--suite", "netd-bochs", "--emulator", "bochs",
        "--boot-seconds", "300",
        "--checks", "ping,ipv6,http,big,echo,iperf,client")),
    # `make run` and `make run-bochs` as a user types them, bounded in
    # time: DHCP, the disk, the status page through the forwarded port
    # (tests/harness/make_run.py).
    HostSuite(name="make-run", timeout=300.0, argv=(
        "{python}", "{srcdir}/tests/harness/make_run.py", "--srcdir",
        "{srcdir}", "--suitedir", "{suitedir}", "--target", "run",
        "--seconds", "240")),
    HostSuite(name="make-run-bochs", timeout=600.0, argv=(
        "{python}", "{srcdir}/tests/harness/make_run.py", "--srcdir",
        "{srcdir}", "--suitedir", "{suitedir}", "--target", "run-bochs",
        "--seconds", "540")),
    QemuSuite(name="ramdisk", test="ramdisk", prepare=ramdisk_image,
              modules=((RAMDISK_PROBE,
                        "ramdisk_probe device=${device-port}"),)),
    # The Linux block module over a RAM disk of the test's own
    # (tests/kernel/disk_fake.c): no Linux, bounces, splits, a bad sector.
    QemuSuite(name="lxblk", test="lxblk", cmdline=disk_cmdline(True),
              prepare=disk_image_module, modules=disk_modules(True)),
    # Linux's libata + ata_piix on QEMU's PIIX3 IDE: hd0, hd0s1, hd0s2
    # over the image, which the host checks after the run; reads of
    # DISK_BAD fail (blkdebug).  Bus-master DMA, then PIO (libata.dma=0).
    QemuSuite(name="disk-ata-piix", test="disk-ata-piix", timeout=180.0,
              cmdline=("linux",) + disk_cmdline(True),
              prepare=qemu_ide_disk(True), check=disk_check_mode("DMA"),
              modules=disk_modules(True)),
    QemuSuite(name="disk-ata-piix-pio", test="disk-ata-piix", timeout=180.0,
              cmdline=("linux", "libata.dma=0") + disk_cmdline(True),
              prepare=qemu_ide_disk(True), check=disk_check_mode("PIO"),
              modules=disk_modules(True)),
    # The same program and checks over ahci (libahci, libata): QEMU's
    # ICH9 AHCI on -M pc, then q35's built-in one.
    QemuSuite(name="disk-ahci", test="disk-ahci", timeout=180.0,
              cmdline=("linux",) + disk_cmdline(True),
              prepare=qemu_ahci_disk("pc"), check=disk_check_mode("DMA"),
              modules=disk_modules(True)),
    QemuSuite(name="disk-ahci-q35", test="disk-ahci", timeout=180.0,
              cmdline=("linux",) + disk_cmdline(True),
              prepare=qemu_ahci_disk("q35"), check=disk_check_mode("DMA"),
              modules=disk_modules(True)),
    # The same over virtio_scsi (the virtio core, the emulated SCSI
    # midlayer): a scsi-hd on QEMU's virtio-scsi-pci.
    QemuSuite(name="disk-virtio-scsi", test="disk-virtio-scsi",
              timeout=180.0, cmdline=("linux",) + disk_cmdline(True),
              prepare=qemu_device_disk(VIRTIO_SCSI_DISK),
              check=disk_check,
              modules=disk_modules(True)),
    # The same over virtio_blk (the virtio core, linux-emu's blk-mq and
    # gendisk): QEMU's virtio-blk-pci.
    QemuSuite(name="disk-virtio-blk", test="disk-virtio-blk",
              timeout=180.0, cmdline=("linux",) + disk_cmdline(True),
              prepare=qemu_device_disk(VIRTIO_BLK_DISK),
              check=disk_check,
              modules=disk_modules(True)),
    # The same over nvme (nvme-core, linux-emu's blk-mq with its admin
    # queue, passthrough requests and timeouts): QEMU's nvme.
    QemuSuite(name="disk-nvme", test="disk-nvme",
              timeout=180.0, cmdline=("linux",) + disk_cmdline(True),
              prepare=qemu_device_disk(NVME_DISK),
              check=disk_check,
              modules=disk_modules(True)),
    # The same over usb-storage (usbcore, uhci_hcd, the emulated SCSI
    # midlayer): QEMU's usb-storage on a PIIX3 UHCI.
    QemuSuite(name="disk-usb-storage", test="disk-usb-storage",
              timeout=300.0,
              cmdline=("linux", "linux.disks=1") + disk_cmdline(True),
              prepare=qemu_device_disk(USB_STORAGE_DISK),
              check=disk_check,
              modules=disk_modules(True)),
    # The same on QEMU's OHCI (ohci-hcd, ohci-pci), EHCI (ehci-hcd,
    # ehci-pci, the disk at high speed) and xHCI (xhci-hcd, xhci-pci,
    # the disk at super speed).
    *(QemuSuite(name=name, test="disk-usb-storage", timeout=300.0,
                cmdline=("linux", "linux.disks=1") + disk_cmdline(True),
                prepare=qemu_device_disk(devices), check=disk_check,
                modules=disk_modules(True))
      for name, devices in (("disk-usb-ohci", USB_OHCI_DISK),
                            ("disk-usb-ehci", USB_EHCI_DISK),
                            ("disk-usb-xhci", USB_XHCI_DISK))),
    # The same over the SCSI host adapters QEMU emulates (SCSI_HBAS).
    *(QemuSuite(name=name, test=test, timeout=180.0,
                cmdline=("linux",) + disk_cmdline(True),
                prepare=qemu_scsi_disk(adapter), check=disk_check,
                modules=disk_modules(True))
      for name, test, adapter in SCSI_HBAS),
    # The same over Linux's floppy driver (ISA DMA channel 2, IRQ 6, the
    # drive type from CMOS): a 1.44 MB image (FLOPPY: no bad sector) on
    # QEMU's floppy controller, then on Bochs' floppya.
    QemuSuite(name="disk-floppy", test="disk-floppy", timeout=300.0,
              cmdline=("linux",) + disk_cmdline(False, FLOPPY),
              prepare=qemu_floppy_disk, check=floppy_check,
              modules=disk_modules(False, FLOPPY)),
    BochsSuite(name="disk-floppy-bochs", test="disk-floppy", timeout=600.0,
               cmdline=("linux",) + disk_cmdline(False, FLOPPY),
               prepare=bochs_floppy_disk, check=floppy_check,
               modules=disk_modules(False, FLOPPY)),
    # The same over usb-storage on Bochs' PIIX3 UHCI (no bad sector:
    # Bochs fails no read on purpose).
    BochsSuite(name="disk-usb-storage-bochs", test="disk-usb-storage",
               timeout=900.0,
               cmdline=("linux", "linux.disks=1") + disk_cmdline(False),
               prepare=bochs_usb_disk_on("usb_uhci"), check=disk_check,
               modules=disk_modules(False)),
    # The same on Bochs' OHCI, EHCI (the disk at high speed) and xHCI
    # (at high speed on port 3, a USB 2 port; on the USB 3 ports 1 and 2
    # Bochs 2.7's disk stalls the SET_ISOCH_DELAY request usbcore sends a
    # SuperSpeed device, and its xHCI does not implement the Reset
    # Endpoint command with which xhci-hcd clears the halt).
    *(BochsSuite(name=name, test="disk-usb-storage", timeout=900.0,
                 cmdline=("linux", "linux.disks=1") + disk_cmdline(False),
                 prepare=bochs_usb_disk_on(controller, speed, port),
                 check=disk_check, modules=disk_modules(False))
      for name, controller, speed, port in (
          ("disk-usb-ohci-bochs", "usb_ohci", "", 1),
          ("disk-usb-ehci-bochs", "usb_ehci", "high", 1),
          ("disk-usb-xhci-bochs", "usb_xhci", "high", 3))),
    # The same on Bochs' PIIX3 IDE (ata0-master), without a bad sector
    # (so libata never names its transfer mode: MWDMA2 is what ata_piix
    # picks for Bochs' drive and controller).
    BochsSuite(name="disk-ata-piix-bochs", test="disk-ata-piix",
               timeout=600.0, cmdline=("linux",) + disk_cmdline(False),
               prepare=bochs_ide_disk, check=disk_check,
               modules=disk_modules(False)),
    # ata_piix in the driver server on Bochs' PIIX3 IDE.
    BochsSuite(name="server-disk-ata-piix-bochs", test="server-disk-ata-piix",
               timeout=600.0, cmdline=("linux", "linux.server=ata_piix"),
               prepare=bochs_ide_disk, check=disk_check,
               modules=((LXDRV, "lxdrv drivers=ata_piix pci=01.1 "
                         "device=${driver-port}"),) + disk_modules(False)),
    SelftestSuite(name="harness-selftest",
                  argv=("{python}", "{srcdir}/tests/harness/test_run.py",
                        "--build-dir", "{builddir}", "--srcdir", "{srcdir}",
                        "--results-dir", "{suitedir}/runs")),
    # Deliberately broken guests, run by harness-selftest.
    QemuSuite(name="selftest-fail", test="selftest-fail", hidden=True),
    QemuSuite(name="selftest-panic", test="selftest-panic", hidden=True),
    QemuSuite(name="selftest-hang", test="selftest-hang", hidden=True,
              timeout=5.0),
    QemuSuite(name="selftest-noplan", test="selftest-noplan", hidden=True),
    QemuSuite(name="selftest-triple", test="selftest-triple", hidden=True),
    # netd's figures from the host (tests/harness/netd_host.py, wall
    # clock): netd.tcp.rate, netd.ping.rtt, netd.http.rate.
    HostSuite(name="bench-netd", hidden=True, timeout=300.0,
              argv=NETD_HOST + ("--suite", "bench-netd", "--nic",
                                "e1000,addr=03.0", "--checks", "bench")),
    # Its twin: native Linux on the same QEMU machine and tap link.
    HostSuite(name="bench-netd-linux", hidden=True, timeout=300.0,
              argv=NETD_HOST + ("--suite", "bench-netd-linux", "--nic",
                                "e1000,addr=03.0", "--checks", "bench",
                                "--linux")),
    # Benchmarks, run by `run.py --bench`; bench_mode= tells the guest
    # which mode its BENCH lines are measured in.
    QemuSuite(name="bench", test="bench", mode="icount", hidden=True,
              cmdline=(*bench_words("icount"), "linux"), timeout=300.0,
              prepare=bench_prepare,
              modules=(("{builddir}/tests/user/rpc_server.elf", "rpc_server"),
                       ("{builddir}/tests/user/rpc_client.elf",
                        "rpc_client bench=10000 mode=icount"),
                       (RAMDISK_PROBE, "ramdisk_probe device=${device-port} "
                        "bench=1000 mode=icount"),
                       ("{builddir}/tests/user/net_probe.elf",
                        f"net_probe bench={NET_BENCH_FRAMES} "
                        "device=${device-port}"))),
    # The net benchmark again over every other NIC's Linux driver;
    # bench_nic= puts the driver in its names (net.tx.glue/ne2k-pci/60,
    # ...).
    *(bench_nic_suite(nic, device) for nic, device in BENCH_NICS),
    # The disk glue figures over Linux's ata_piix (disk.cmd.glue,
    # disk.int.glue), then over every other controller's driver
    # (BENCH_DISKS; bench_disk= puts it in the names).
    bench_disk_suite("", None),
    *(bench_disk_suite(disk, prepare) for disk, prepare in BENCH_DISKS),
    # The same client's figures with e1000 in the driver server
    # (server.net.tx.instr/<size>), and the server's glue figures
    # (server.net.*.glue/<size>) from its bench build.
    QemuSuite(name="bench-server", test="bench-server", mode="icount",
              hidden=True, timeout=300.0,
              cmdline=(*bench_words("icount"), "linux", "linux.server=e1000"),
              prepare=bench_prepare,
              modules=((LXDRV_BENCH, "lxdrv drivers=e1000 pci=03.0 "
                        f"bench_frames={NET_BENCH_FRAMES} "
                        "bench_mode=icount device=${driver-port}"),
                       ("{builddir}/tests/user/net_probe.elf",
                        f"net_probe bench={NET_BENCH_FRAMES} "
                        "bench_prefix=server. device=${device-port}"))),
    # The disk client's figures with ata_piix in the driver server
    # (server.disk.read.instr/<size>, ...), as bench-disk, and the
    # server's glue figures (server.disk.*.glue/...) from its bench build.
    QemuSuite(name="bench-server-disk", test="bench-server-disk",
              mode="icount", hidden=True, timeout=300.0,
              cmdline=(*bench_words("icount"), "linux",
                       "linux.server=ata_piix"),
              prepare=qemu_ide_disk(False),
              modules=((LXDRV_BENCH, "lxdrv drivers=ata_piix pci=01.1 "
                        f"bench_requests={DISK_BENCH_REQUESTS} "
                        "bench_mode=icount "
                        "device=${driver-port}"),
                       (DISK_PROBE, "disk_lat mode=lat "
                        f"count={DISK_BENCH_REQUESTS} "
                        f"{disk_args(False)} bench_mode=icount "
                        "bench_prefix=server. device=${device-port}"))),
    # The same client against a supervised server with verify=1, whose
    # writes are read back and reads checked: what checked data costs
    # (server.verify.disk.{read,write}.instr/<size>).
    QemuSuite(name="bench-server-verify", test="bench-server-verify",
              mode="icount", hidden=True, timeout=300.0,
              cmdline=(*bench_words("icount"), "linux",
                       "linux.server=ata_piix"),
              prepare=qemu_ide_disk(False),
              modules=((LXDRV, "lxdrv restart=1 verify=1 drivers=ata_piix "
                        "pci=01.1 device=${driver-port}"),
                       (DISK_PROBE, "disk_lat mode=lat "
                        f"count={DISK_BENCH_REQUESTS} "
                        f"{disk_args(False)} bench_mode=icount "
                        "bench_prefix=server.verify. "
                        "device=${device-port}"))),
    # The same client against a supervised server on q35 with a PIIX3
    # IDE function, DMA remapping off and on: what confining the
    # server's device costs (server.q35.disk.* beside server.dmar.*).
    *(QemuSuite(name=f"bench-server-{name}", test="bench-server-verify",
                mode="icount", hidden=True, timeout=300.0,
                cmdline=(*bench_words("icount"), "linux",
                         "linux.server=ata_piix") + dmar,
                prepare=qemu_dmar_ide_disk,
                modules=((LXDRV, "lxdrv restart=1 drivers=ata_piix "
                          f"pci={DMAR_IDE_PCI} device=${{driver-port}}"),
                         (DISK_PROBE, "disk_lat mode=lat "
                          f"count={DISK_BENCH_REQUESTS} "
                          f"{disk_args(False)} bench_mode=icount "
                          f"bench_prefix=server.{name}. "
                          "device=${device-port}")))
      for name, dmar in (("q35", ("dmar=off",)), ("dmar", ()))),
    # Recovery time of a supervised server (restart.recovery/<driver>):
    # killed ten times under a client, from each kill to the first call
    # its new instance answers.
    restart_bench_suite("bench-restart", "net", "icount"),
    restart_bench_suite("bench-restart-disk", "disk", "icount"),
    # The same recoveries on the wall clock (restart.recovery.wall/<driver>,
    # microseconds), booted in compare.py's rounds as graft-wall is.
    restart_bench_suite("graft-wall-restart", "net", "wall"),
    restart_bench_suite("graft-wall-restart-disk", "disk", "wall"),
    # The wall-clock boot (disk throughput, frame rate): not a bench-*
    # suite, since bench/native/compare.py runs it in rounds alternating
    # with native Linux's; by name it runs alone.
    QemuSuite(name="graft-wall", test="bench-disk-wall", hidden=True,
              timeout=600.0, cmdline=("bench_mode=wall", "linux"),
              prepare=wall_prepare,
              modules=((DISK_PROBE, f"disk_tput mode=tput "
                        f"{disk_args(False)} device=${{device-port}}"),
                       ("{builddir}/tests/user/net_probe.elf",
                        f"net_rate rate={WALL_RATE_SECONDS} "
                        "device=${device-port}"),
                       ("{builddir}/servers/pktgen/pktgen.elf",
                        f"pktgen count={PKTGEN_BENCH_COUNT} "
                        f"runs={PKTGEN_BENCH_RUNS} "
                        "dst_mac=02:47:52:41:46:54 "
                        "device=${device-port}"))),
    # Its disk throughput alone (compare.py --disk-only).
    QemuSuite(name="graft-wall-disk", test="bench-disk-seq", hidden=True,
              timeout=600.0, cmdline=("bench_mode=wall", "linux"),
              prepare=wall_prepare,
              modules=((DISK_PROBE, f"disk_tput mode=tput "
                        f"{disk_args(False)} device=${{device-port}}"),)),
    # The same with e1000 and ata_piix in one driver server
    # (server.net.tx.rate/60, server.disk.*.seq/<size>), booted in the
    # same rounds.
    QemuSuite(name="graft-wall-server", test="bench-server-wall",
              hidden=True, timeout=600.0,
              cmdline=("bench_mode=wall", "linux",
                       "linux.server=e1000,ata_piix"),
              prepare=wall_prepare,
              modules=((LXDRV, "lxdrv drivers=e1000+ata_piix "
                        "pci=03.0+01.1 device=${driver-port}"),
                       (DISK_PROBE, f"disk_tput mode=tput "
                        f"{disk_args(False)} bench_prefix=server. "
                        "device=${device-port}"),
                       ("{builddir}/tests/user/net_probe.elf",
                        f"net_rate rate={WALL_RATE_SECONDS} "
                        "bench_prefix=server. device=${device-port}"))),
) + tuple(
    # make stress (run.py --stress): the fuzzer from other seeds, longer.
    device_fuzz_suite(f"stress-device-fuzz-{seed}", seed, STRESS_COUNT,
                      hidden=True)
    for seed in STRESS_SEEDS) + tuple(
    # make stress: the fault campaigns, STRESS_INJECT_BOOTS boots of each
    # kind, STRESS_INJECT_FAULTS faults each, a fault every 10 ms.
    fault_inject_stress_suite(kind, boot)
    for kind in ("net", "disk") for boot in range(STRESS_INJECT_BOOTS))


def by_name(suites=SUITES) -> dict[str, Suite]:
    """Return the suites of `suites` keyed by name (names are unique)."""
    table = {suite.name: suite for suite in suites}
    assert len(table) == len(suites), "duplicate suite name"
    return table


def select(names: list[str] | None, suites=SUITES) -> list[Suite]:
    """Return the suites to run: `names` in order, or all non-hidden ones.

    Raises KeyError whose args[0] lists the unknown names when some of
    `names` are not in `suites`.
    """
    table = by_name(suites)
    if not names:
        return [suite for suite in suites if not suite.hidden]
    unknown = [name for name in names if name not in table]
    if unknown:
        raise KeyError(unknown)
    return [table[name] for name in dict.fromkeys(names)]
