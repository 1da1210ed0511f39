#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compile linux-emu with Kbuild's flags and link the Linux world into one
relocatable object whose only global symbols are lx_emul_*.

Usage: linux_link.py --build DIR --include DIR --out FILE
                     --emu SRC... --library NAME --drivers NAME...

DIR is tools/linux_build.py's output.  Steps:
 1. Each --emu source (linux-emu's own C, written against Linux's headers)
    is compiled with the command line Kbuild used for lib/ctype.o, the
    file names substituted and --include added (DIR/emu/).
 2. The library (DIR/objects/NAME.list) and the emu objects form the base.
    Each driver is added only if everything it needs is then defined or
    can be stubbed; otherwise it is left out and DIR/unlinked.txt says
    which symbols it lacks.
 3. A symbol still undefined that every object only calls (R_X86_64_PLT32
    relocations alone) gets a generated stub calling lx_host_missing(),
    which names it and stops (DIR/stubs.txt lists them).  Anything else
    still undefined -- data, or a function whose address is taken -- must
    be written in linux-emu: for the base it is an error.
 4. ld -r, then every global symbol except lx_emul_* is made local, so
    Linux's names cannot collide with Graft's.  The result may only need
    lx_host_* from outside (checked).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from linux_build import BuildError, cmd_file, run

REFERENCE = "lib/ctype"
HOST_PREFIX = "lx_host_"
EXPORT_PATTERN = "lx_emul_*"
STUB_CFLAGS = ["-O2", "-ffreestanding", "-fno-pic", "-mcmodel=kernel",
               "-mno-red-zone", "-mgeneral-regs-only", "-fno-builtin",
               "-fno-asynchronous-unwind-tables", "-w"]


def emu_command(build: Path, source: Path, obj: str, include: Path) -> str:
    """Kbuild's command for REFERENCE, retargeted at @source -> @obj."""
    text = cmd_file(build, REFERENCE + ".o").read_text()
    found = re.search(rf"^cmd_{re.escape(REFERENCE)}\.o := (.*)$", text,
                      re.M)
    if not found:
        raise BuildError(f"no Kbuild command recorded for {REFERENCE}.o")
    command = found.group(1).split(";")[0].strip()	# no objtool pass
    d, stem = os.path.split(REFERENCE)
    new = Path(obj).stem
    tree = os.path.realpath(build / "source")
    pairs = [
        (f"-Wp,-MMD,{d}/.{stem}.o.d", f"-Wp,-MMD,emu/.{new}.o.d"),
        (f"-I {tree}/{d} -I ./{d}", f"-I {include}"),
        (f"KBUILD_MODFILE='\"{REFERENCE}\"'",
         f"KBUILD_MODFILE='\"linux-emu/{new}\"'"),
        (f"BASENAME='\"{stem}\"'", f"BASENAME='\"{new}\"'"),
        (f"MODNAME='\"{stem}\"'", f"MODNAME='\"{new}\"'"),
        (f"__KBUILD_MODNAME=kmod_{stem}", f"__KBUILD_MODNAME=kmod_{new}"),
        (f"-c -o {REFERENCE}.o {tree}/{REFERENCE}.c",
         f"-c -o {obj} {source}"),
    ]
    for a, b in pairs:
        if a not in command:
            raise BuildError(f"the Kbuild command for {REFERENCE}.o lacks "
                             f"{a!r}; cannot derive linux-emu's")
        command = command.replace(a, b)
    return command


def compile_emu(build: Path, sources: list[Path], include: Path) -> list[Path]:
    (build / "emu").mkdir(exist_ok=True)
    headers = [p.stat().st_mtime for p in include.glob("*.h")]
    headers += [h.stat().st_mtime for s in sources
                for h in s.parent.glob("*.h")]
    objects = []
    for source in sources:
        obj = f"emu/{source.stem}.o"
        command = emu_command(build, source.resolve(), obj, include.resolve())
        record = build / "emu" / f".{source.stem}.o.cmd"
        target = build / obj
        newest = max([source.stat().st_mtime] + headers)
        if not (target.is_file() and target.stat().st_mtime >= newest and
                record.is_file() and record.read_text() == command):
            run(f"compiling {source}", ["sh", "-c", command], cwd=build)
            record.write_text(command)
        objects.append(target)
    return objects


def symbols(objects: list[Path]) -> tuple[set[str], set[str]]:
    """(defined globals, undefined) over @objects."""
    defined, needed = set(), set()
    for line in run("nm", ["nm", *map(str, objects)]).splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            needed.add(parts[1])
        elif len(parts) == 3 and parts[1] not in "Uw" and parts[1].isupper():
            defined.add(parts[2])
    return defined, needed - defined


def call_only(objects: list[Path], names: set[str]) -> set[str]:
    """The @names every relocation of which is a PLT32 (a call or jump)."""
    kinds: dict[str, set[str]] = {n: set() for n in names}
    text = run("objdump", ["objdump", "-r", *map(str, objects)])
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].startswith("R_X86_64_"):
            name = re.split(r"[-+]", parts[2])[0]
            if name in kinds:
                kinds[name].add(parts[1])
    return {n for n, k in kinds.items() if k == {"R_X86_64_PLT32"}}


def library_copies(build: Path, objects: list[Path]) -> list[Path]:
    """Copies of the library's objects whose initcalls are renamed
    .lx_library_initcall*: only drivers' initcalls stay in the table the
    host runs (library ones set up subsystems Graft does not have; see
    linux-emu/README.md)."""
    out = []
    (build / "emu" / "library").mkdir(parents=True, exist_ok=True)
    for obj in objects:
        sections = run("objdump", ["objdump", "-h", str(obj)])
        renames = sorted(set(re.findall(r"\s(\.initcall\w*\.init)\s",
                                        sections)))
        if not renames:
            out.append(obj)
            continue
        copy = build / "emu" / "library" / \
            (str(obj.relative_to(build)).replace("/", "_"))
        run("objcopy", ["objcopy", *[f"--rename-section={r}=.lx_library"
                                     f"{r[len('.initcall'):-len('.init')]}"
                                     f"_initcall" for r in renames],
                        str(obj), str(copy)])
        out.append(copy)
    return out


def unresolved(objects: list[Path]) -> tuple[set[str], set[str]]:
    """(symbols that need a stub, symbols that need a real definition)."""
    _, missing = symbols(objects)
    missing = {s for s in missing if not s.startswith(HOST_PREFIX)}
    calls = call_only(objects, missing)
    return calls, missing - calls


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", type=Path, required=True)
    ap.add_argument("--include", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--emu", type=Path, nargs="+", required=True)
    ap.add_argument("--library", required=True)
    ap.add_argument("--drivers", nargs="*", default=[])
    args = ap.parse_args()
    build = args.build.resolve()
    try:
        def listed(name: str) -> list[Path]:
            return [Path(p) for p in
                    (build / "objects" / f"{name}.list").read_text().split()]

        base = library_copies(build, listed(args.library)) + \
            compile_emu(build, args.emu, args.include)
        stubs, lacking = unresolved(base)
        if lacking:
            raise BuildError("linux-emu must define: " +
                             " ".join(sorted(lacking)))
        linked, report = list(base), []
        for driver in args.drivers:
            trial = linked + listed(driver)
            trial_stubs, lacking = unresolved(trial)
            if lacking:
                report.append(f"{driver}: not linked; linux-emu does not "
                              f"define {' '.join(sorted(lacking))}")
                continue
            linked, stubs = trial, trial_stubs
        (build / "unlinked.txt").write_text("".join(f"{r}\n" for r in report))
        for line in report:
            print(f"linux_link: {line.split(';')[0]} (see {build}/"
                  "unlinked.txt)")
        (build / "stubs.txt").write_text("".join(f"{s}\n"
                                                 for s in sorted(stubs)))
        stub_c = build / "emu" / "stubs.c"
        stub_c.write_text(
            "/* Generated by tools/linux_link.py: Linux functions the linked "
            "drivers call\n * and linux-emu does not implement.  Each stops "
            "loudly. */\n"
            "void lx_host_missing(const char *name) "
            "__attribute__((noreturn));\n" +
            "".join(f"void {s}(void) {{ lx_host_missing(\"{s}\"); }}\n"
                    for s in sorted(stubs)))
        stub_o = build / "emu" / "stubs.o"
        run("compiling the stubs", ["gcc", *STUB_CFLAGS, "-c", "-o",
                                    str(stub_o), str(stub_c)])
        whole = build / "emu" / "linux-whole.o"
        run("ld -r", ["ld", "-r", "-o", str(whole), *map(str, linked),
                      str(stub_o)])
        run("objcopy", ["objcopy", "-w",
                        f"--keep-global-symbol={EXPORT_PATTERN}",
                        str(whole), str(args.out)])
        _, left = symbols([args.out])
        foreign = sorted(s for s in left if not s.startswith(HOST_PREFIX))
        if foreign:
            raise BuildError(f"{args.out} still needs {' '.join(foreign)}")
    except (BuildError, OSError) as error:
        print(f"linux_link: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
