#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Build the native-Linux baseline's initramfs (make bench).

From Debian's kernel image unpacked by tools/deps.sh (deps/linux-image:
boot/vmlinuz-*, lib/modules/<version>/), Debian's busybox-static, our
/init (bench/native/init) and our static lxbench program, write a newc
cpio archive holding

    /init, /bin/busybox, /bin/lxbench, /dev/console,
    /lib/modules/<name>.ko   every module of MODULES and what it depends
                             on (the `depends=` of its .modinfo section)
    /modules.load            those file names, dependencies first

and copy the kernel beside it as vmlinuz.  The archive is uncompressed
and built without root (the device node is only a cpio header).
"""

from __future__ import annotations

import argparse
import lzma
import struct
import sys
from pathlib import Path

MODULES = ("e1000", "ata_piix", "sd_mod", "pktgen")


def norm(name: str) -> str:
    """A module's name as the kernel compares them ('-' and '_' alike)."""
    return name.replace("-", "_")


def module_files(modules_dir: Path) -> dict[str, Path]:
    """Every .ko (or .ko.xz) under `modules_dir`, keyed by module name."""
    found = {}
    for path in modules_dir.rglob("*.ko*"):
        base = path.name.split(".ko")[0]
        found[norm(base)] = path
    return found


def read_module(path: Path) -> bytes:
    """The ELF bytes of a module file, decompressed if it is .ko.xz."""
    data = path.read_bytes()
    return lzma.decompress(data) if path.name.endswith(".xz") else data


def modinfo(elf: bytes) -> dict[str, str]:
    """The key=value strings of a 64-bit little-endian ELF's .modinfo."""
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)

    def section(index: int) -> tuple[int, int, int]:
        base = shoff + index * shentsize
        name, = struct.unpack_from("<I", elf, base)
        offset, size = struct.unpack_from("<QQ", elf, base + 0x18)
        return name, offset, size

    _, names_at, _ = section(shstrndx)
    for index in range(shnum):
        name, offset, size = section(index)
        end = elf.index(b"\0", names_at + name)
        if elf[names_at + name:end] == b".modinfo":
            fields = elf[offset:offset + size].split(b"\0")
            return dict(field.decode(errors="replace").split("=", 1)
                        for field in fields if b"=" in field)
    return {}


def load_order(wanted: tuple[str, ...], files: dict[str, Path]
               ) -> list[tuple[str, bytes]]:
    """(name, ELF bytes) of `wanted` and their dependencies, each after
    what it depends on.  Raises KeyError naming a module not found."""
    order: list[tuple[str, bytes]] = []
    done: set[str] = set()

    def visit(name: str) -> None:
        name = norm(name)
        if name in done:
            return
        done.add(name)
        if name not in files:
            raise KeyError(name)
        elf = read_module(files[name])
        for dep in filter(None, modinfo(elf).get("depends", "").split(",")):
            visit(dep)
        order.append((name, elf))

    for name in wanted:
        visit(name)
    return order


class Cpio:
    """A newc ("070701") cpio archive written entry by entry."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.ino = 1

    def _pad(self) -> None:
        self.data += b"\0" * (-len(self.data) % 4)

    def add(self, name: str, mode: int, content: bytes = b"",
            rdev: tuple[int, int] = (0, 0)) -> None:
        """Add an entry: `mode` holds the type and permission bits."""
        fields = (self.ino, mode, 0, 0, 1, 0, len(content), 0, 0,
                  rdev[0], rdev[1], len(name) + 1, 0)
        self.data += b"070701" + b"".join(b"%08X" % f for f in fields)
        self.data += name.encode() + b"\0"
        self._pad()
        self.data += content
        self._pad()
        self.ino += 1

    def finish(self) -> bytes:
        self.add("TRAILER!!!", 0)
        return bytes(self.data)


DIR, FILE, CHAR = 0o040000, 0o100000, 0o020000


def build(image: Path, busybox: Path, init: Path, program: Path,
          out: Path) -> list[str]:
    """Write `out` (the cpio) and `out`'s sibling vmlinuz; return the
    modules in load order."""
    kernels = sorted((image / "boot").glob("vmlinuz-*"))
    trees = sorted((image / "lib" / "modules").iterdir())
    if len(kernels) != 1 or len(trees) != 1:
        raise FileNotFoundError(f"{image}: want one boot/vmlinuz-* and one "
                                "lib/modules/<version>")
    modules = load_order(MODULES, module_files(trees[0]))
    archive = Cpio()
    for directory in ("bin", "dev", "proc", "sys", "lib", "lib/modules"):
        archive.add(directory, DIR | 0o755)
    archive.add("dev/console", CHAR | 0o600, rdev=(5, 1))
    archive.add("init", FILE | 0o755, init.read_bytes())
    archive.add("bin/busybox", FILE | 0o755, busybox.read_bytes())
    archive.add("bin/lxbench", FILE | 0o755, program.read_bytes())
    for name, elf in modules:
        archive.add(f"lib/modules/{name}.ko", FILE | 0o644, elf)
    archive.add("modules.load", FILE | 0o644,
                "".join(f"{name}.ko\n" for name, _ in modules).encode())
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(archive.finish())
    (out.parent / "vmlinuz").write_bytes(kernels[0].read_bytes())
    return [name for name, _ in modules]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--image", type=Path, required=True,
                        help="the unpacked linux-image package")
    parser.add_argument("--busybox", type=Path, default=Path("/bin/busybox"))
    parser.add_argument("--init", type=Path, required=True)
    parser.add_argument("--program", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    try:
        names = build(args.image, args.busybox, args.init, args.program,
                      args.out)
    except (OSError, KeyError) as error:
        print(f"linux_baseline: {error}", file=sys.stderr)
        return 1
    print(f"  INITRAMFS {args.out} ({', '.join(names)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
