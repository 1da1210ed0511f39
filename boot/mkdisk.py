# SPDX-License-Identifier: GPL-2.0-only
"""Write the IDE disk image `make run` gives Graft: SIZE MiB of zeros with
an MBR holding one Linux partition (type 0x83) from sector 2048 to the end,
so that the Linux block module serves hd0 and hd0s1.

Usage: mkdisk.py OUT.img [SIZE_MIB]
"""

import struct
import sys


def main() -> int:
    out = sys.argv[1]
    mib = int(sys.argv[2]) if len(sys.argv) > 2 else 32
    sectors = mib * 2048
    start = 2048
    mbr = bytearray(512)
    # One partition entry: not bootable, CHS fields unused (0xfe, 0xff,
    # 0xff as for LBA-only disks), type 0x83, LBA start and length.
    mbr[446:462] = struct.pack("<B3sB3sII", 0, b"\xfe\xff\xff", 0x83,
                               b"\xfe\xff\xff", start, sectors - start)
    mbr[510:512] = b"\x55\xaa"
    with open(out, "wb") as f:
        f.write(mbr)
        f.truncate(sectors * 512)
    return 0


if __name__ == "__main__":
    sys.exit(main())
