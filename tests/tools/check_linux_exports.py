#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Suite `linux-exports`: what the two Linux-world objects export and hold.

Usage: check_linux_exports.py LINUX_BUILD_DIR SRCDIR

LINUX_BUILD_DIR/linux.o is the production object a driver server links:
its global defined symbols are exactly the names of
SRCDIR/linux-emu/exports.list (read by tools/linux_link.py's own
parser), it holds nothing compiled from tests/ (no lx_emul_selftest_*
symbol, no object of a tests/linux-emu/ or tests/drivers/ source: the
file symbols the compiler leaves name the sources), and it needs nothing
but lx_host_*.  LINUX_BUILD_DIR/linux-test.o, which the kernel image
links, exports both lists.  Each rule is one case; a failure names the
offending symbols.
"""

import subprocess
import sys
from pathlib import Path

import ktap_cases

SELFTEST_PREFIX = "lx_emul_selftest_"
HOST_PREFIX = "lx_host_"


def run(argv: list[str]) -> str:
    """@argv's standard output; its failure ends the check."""
    return subprocess.run(argv, check=True, capture_output=True,
                          text=True).stdout


def globals_defined(obj: Path) -> set[str]:
    """The global symbols @obj defines."""
    return {line.split()[2] for line in
            run(["nm", "-g", "--defined-only", str(obj)]).splitlines()}


def undefined(obj: Path) -> set[str]:
    """The symbols @obj needs from outside."""
    return {line.split()[1] for line in
            run(["nm", "-u", str(obj)]).splitlines()}


def every_symbol(obj: Path) -> set[str]:
    """Every named symbol of @obj, local ones too."""
    return {line.split()[-1] for line in run(["nm", str(obj)]).splitlines()
            if len(line.split()) >= 2}


def source_files(obj: Path) -> set[str]:
    """The source file names @obj's FILE symbols give (one per object
    that went into it)."""
    names = set()
    for line in run(["readelf", "-sW", str(obj)]).splitlines():
        parts = line.split()
        if len(parts) == 8 and parts[3] == "FILE":
            names.add(parts[7])
    return names


def differ(what: str, found: set[str], expected: set[str]) -> str | None:
    """None if @found is @expected, else what is missing and extra."""
    if found == expected:
        return None
    return (f"{what}: missing {' '.join(sorted(expected - found)) or '-'}; "
            f"extra {' '.join(sorted(found - expected)) or '-'}")


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    build, src = Path(argv[1]), Path(argv[2])
    sys.path.insert(0, str(src / "tools"))
    from linux_link import read_exports

    linux_o, test_o = build / "linux.o", build / "linux-test.o"
    exports = set(read_exports(src / "linux-emu" / "exports.list"))
    test_exports = set(read_exports(src / "tests" / "linux-emu" /
                                    "exports.list"))

    selftests = sorted(s for s in every_symbol(linux_o)
                       if s.startswith(SELFTEST_PREFIX))
    test_sources = {p.name for p in (src / "tests" / "linux-emu").glob("*.c")}
    test_sources |= {p.name for p in (src / "tests" / "drivers").glob("*/*.c")}
    in_test_o = source_files(test_o)
    if not test_sources <= in_test_o:
        from_tests = ("cannot tell: linux-test.o names no file symbol for "
                      + " ".join(sorted(test_sources - in_test_o)))
    else:
        found = sorted(test_sources & source_files(linux_o))
        from_tests = (f"objects of tests/ sources: {' '.join(found)}"
                      if found else None)
    foreign = sorted(s for s in undefined(linux_o)
                     if not s.startswith(HOST_PREFIX))

    cases = [
        ("linux_o_exports_exactly_linux_emu_exports_list",
         differ("linux.o's global symbols", globals_defined(linux_o),
                exports)),
        ("linux_o_has_no_selftest_symbol",
         f"found {' '.join(selftests)}" if selftests else None),
        ("linux_o_has_no_object_of_tests", from_tests),
        ("linux_o_needs_only_lx_host",
         f"also needs {' '.join(foreign)}" if foreign else None),
        ("linux_test_o_exports_both_lists",
         differ("linux-test.o's global symbols", globals_defined(test_o),
                exports | test_exports)),
    ]
    return ktap_cases.report("linux-exports", cases)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
