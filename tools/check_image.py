#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that a linked Graft kernel image is loadable as its header promises.

Usage: check_image.py FIRST_PASS.elf FINAL.elf

- the multiboot header lies in the first 8 KiB, 4-byte aligned;
- every PT_LOAD segment sits in the file at the same distance from the
  first segment as in physical memory (the header's address fields make
  loaders copy the file as one image);
- the load and bss ends in the header match the segments;
- the final image's text symbols have the addresses of the first pass
  (so the generated symbol table describes the code it is linked with).
Exits 1 with a message naming what is wrong.
"""
import struct
import subprocess
import sys

MB_MAGIC = 0x1BADB002
PT_LOAD = 1


def fail(msg):
    sys.stderr.write("check_image: %s\n" % msg)
    sys.exit(1)


def load_segments(data):
    """Return [(offset, paddr, filesz, memsz)] of the PT_LOAD segments."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        fail("not an ELF64 file")
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    segs = []
    for i in range(phnum):
        p_type, _, off, _, paddr, filesz, memsz, _ = struct.unpack_from(
            "<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type == PT_LOAD:
            segs.append((off, paddr, filesz, memsz))
    return segs


def check_layout(path):
    data = open(path, "rb").read()
    segs = load_segments(data)
    if not segs:
        fail("%s has no loadable segment" % path)
    for i in range(0, min(len(data), 8192) - 32, 4):
        magic, flags, csum = struct.unpack_from("<III", data, i)
        if magic == MB_MAGIC and (magic + flags + csum) & 0xFFFFFFFF == 0:
            break
    else:
        fail("no multiboot header in the first 8 KiB of %s" % path)
    hdr_addr, load, load_end, bss_end, entry = struct.unpack_from(
        "<IIIII", data, i + 12)
    first_off, first_pa = segs[0][0], segs[0][1]
    if first_pa != load or hdr_addr - load != i - first_off:
        fail("header address fields do not match the first segment")
    for off, pa, filesz, memsz in segs:
        if off - first_off != pa - first_pa:
            fail("segment at paddr 0x%x is at file offset 0x%x, expected 0x%x"
                 % (pa, off, first_off + pa - first_pa))
    last = segs[-1]
    if last[1] + last[2] != load_end:
        fail("load_end_addr 0x%x is not the end of file data 0x%x"
             % (load_end, last[1] + last[2]))
    if last[1] + last[3] > bss_end:
        fail("bss_end_addr 0x%x is below the end of memory 0x%x"
             % (bss_end, last[1] + last[3]))
    if not load <= entry < load_end:
        fail("entry 0x%x lies outside the loaded image" % entry)


def text_symbols(path):
    out = subprocess.run(["nm", "--defined-only", path], check=True,
                         capture_output=True, text=True).stdout
    return {l.split()[2]: l.split()[0] for l in out.splitlines()
            if len(l.split()) == 3 and l.split()[1] in "Tt"}


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    first, final = argv[1:]
    check_layout(final)
    a, b = text_symbols(first), text_symbols(final)
    moved = sorted(n for n in a if b.get(n) != a[n])
    if moved:
        fail("text symbols moved between link passes: %s" % ", ".join(moved[:5]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
