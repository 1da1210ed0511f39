#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Suite `layers`: the include rules between Graft's layers hold.

Usage: check_layers.py SRCDIR.  Layers call downward only: `kernel/`
includes nothing of `mach-glue/`, `linux-emu/` or `tests/` (modules and
boot steps register themselves, test suites through their linker
section); `linux-emu/` sees only Linux headers and its own `lx_*.h`;
`mach-glue/` reaches linux-emu only through `linux-emu/include/` and
never includes a Linux header; no production program (`servers/`,
`user/`, `mach-glue/`) includes a test or benchmark header (`tests/`,
`bench/`).  Each rule is one case; a failure names
every offending line.
"""

import re
import sys
from pathlib import Path

import ktap_cases

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
KERNEL_DIRS = ("kern/", "ipc/", "vm/", "device/", "net/", "mig/", "x86_64/")


def includes(root: Path, folder: str):
    """(file, line number, quote, path) of every #include under
    root/folder's .c, .h and .S files."""
    for path in sorted((root / folder).rglob("*")):
        if path.suffix not in (".c", ".h", ".S") or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(errors="replace")
                                      .splitlines(), 1):
            match = INCLUDE.match(line)
            if match:
                yield (path.relative_to(root), number, match.group(1),
                       match.group(2))


def rule(root: Path, folder: str, bad) -> str | None:
    """None if no include under @folder is @bad(quote, path), else the
    offenders."""
    found = [f"{path}:{number} {name}"
             for path, number, quote, name in includes(root, folder)
             if bad(quote, name)]
    return "; ".join(found) if found else None


def main() -> int:
    root = Path(sys.argv[1])
    cases = [
        ("kernel_includes_no_upper_layer",
         rule(root, "kernel", lambda q, n: n.startswith(
             ("mach-glue/", "linux-emu/", "tests/")))),
        ("linux_emu_includes_no_kernel_header",
         rule(root, "linux-emu", lambda q, n: q == '"' and n.startswith(
             KERNEL_DIRS + ("mach-glue/", "tests/")))),
        ("mach_glue_reaches_linux_emu_only_through_its_include_folder",
         rule(root, "mach-glue", lambda q, n: n.startswith("linux-emu/")
              and not n.startswith("linux-emu/include/"))),
        ("mach_glue_includes_no_linux_header",
         rule(root, "mach-glue", lambda q, n: q == "<" and n.startswith(
             ("linux/", "asm/", "uapi/")))),
    ] + [
        (f"{folder.replace('-', '_')}_includes_no_test_header",
         rule(root, folder, lambda q, n: n.startswith(("tests/", "bench/"))))
        for folder in ("servers", "user", "mach-glue")
    ]
    return ktap_cases.report("layers", cases)


if __name__ == "__main__":
    sys.exit(main())
