#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Suite `server-objects`: the kernel and the driver server run the same
compiled Linux objects.

Usage: check_shared_objects.py BUILD_DIR

tools/linux_link.py records the SHA-256 of every object it links:
BUILD_DIR/linux/objects.sha256 for linux.o (what servers/lxdrv links),
BUILD_DIR/linux/link/linux-test/objects.sha256 for linux-test.o (what the
kernel image links: the same plus tests).  Cases: every compiled object
of linux.o (drivers, Linux library, linux-emu) is in linux-test.o with
the same hash, except the two files the link generates per object (the
stubs of missing functions and the initcall table, which list the test
drivers too); the server's link map names linux/linux.o as an input; and
each function of the drivers' objects has one size in the kernel image
and in the server (the same code, relocated).  The hashes of the drivers'
objects are printed as KTAP comments.
"""

import subprocess
import sys
from collections import Counter
from pathlib import Path

import ktap_cases

GENERATED = {"stubs.o", "initcalls.o"}


def sums(path: Path) -> dict[str, str]:
    """path below the Linux build dir -> SHA-256, from an objects.sha256."""
    out = {}
    for line in path.read_text().splitlines():
        digest, name = line.split(None, 1)
        out[name.strip()] = digest
    return out


def funcs(elf: Path) -> Counter:
    """Every defined FUNC symbol of @elf (local ones too, so a name may
    come more than once) as (name, size) pairs, counted."""
    out: Counter = Counter()
    for line in subprocess.run(["readelf", "-sW", str(elf)], check=True,
                               capture_output=True,
                               text=True).stdout.splitlines():
        parts = line.split()
        if (len(parts) == 8 and parts[3] == "FUNC" and parts[6] != "UND"
                and int(parts[2], 0) > 0):
            out[(parts[7], int(parts[2], 0))] += 1
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    build = Path(argv[1])
    linux = build / "linux"
    server = sums(linux / "objects.sha256")
    kernel = sums(linux / "link" / "linux-test" / "objects.sha256")
    shared = {n: d for n, d in server.items()
              if Path(n).name not in GENERATED}
    differ = sorted(n for n, d in shared.items() if kernel.get(n) != d)
    drivers = sorted(n for n in shared
                     if n.startswith(("drivers/", "emu/drivers/")))
    for name in drivers:
        print(f"# {shared[name]}  {name}")

    mapfile = build / "servers" / "lxdrv" / "lxdrv.map"
    linked = mapfile.is_file() and "linux/linux.o" in mapfile.read_text()

    wanted: Counter = Counter()
    for name in drivers:
        wanted += funcs(linux / name)
    names = sum(wanted.values())
    bad = []
    for where, elf in (("the kernel", build / "kernel" / "graft.elf"),
                       ("the server",
                        build / "servers" / "lxdrv" / "lxdrv.elf")):
        lacking = wanted - funcs(elf)
        bad += [f"{sym} of {size} bytes not in {where}"
                for sym, size in sorted(lacking)]
    print(f"# {len(shared)} objects shared, {len(drivers)} of drivers, "
          f"{names} driver functions compared")

    cases = [
        ("every_object_of_linux_o_is_the_kernels",
         f"differ or absent in linux-test.o: {' '.join(differ)}"
         if differ else None if shared else "objects.sha256 is empty"),
        ("drivers_are_among_them",
         None if drivers else "no object under drivers/"),
        ("server_links_linux_o",
         None if linked else f"{mapfile} does not name linux/linux.o"),
        ("driver_functions_same_size_in_kernel_and_server",
         "; ".join(bad[:5]) if bad else
         None if names else "no driver function found"),
    ]
    return ktap_cases.report("server-objects", cases)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
