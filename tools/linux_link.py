#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compile linux-emu with Kbuild's flags and link the Linux world into one
relocatable object whose only global symbols are the listed exports.

Usage: linux_link.py --build DIR --include DIR --out FILE
                     --emu SRC... --library NAME --drivers NAME...
                     [--local FOLDER...] --exports LIST...
                     [--reports DIR]

DIR is tools/linux_build.py's output.  The build links two objects with
it: DIR/linux.o (linux-emu, the library, the drivers) and DIR/linux-test.o
(the same plus the checks of tests/linux-emu/ and the drivers of
tests/drivers/).  Compiled objects are shared between links, each being
recompiled only when out of date; what belongs to one output is written
to DIR/link/STEM/ (STEM: the output's name without .o), the reports
(unlinked.txt, stubs.txt) to --reports, by default that same folder.
Steps:
 1. Each --emu source (linux-emu's own C, or a check written against
    Linux's headers) is compiled with the command line Kbuild used for
    lib/ctype.o, the file names substituted and --include added
    (DIR/emu/).
 1b. Each --local FOLDER is an out-of-tree driver: FOLDER/NAME.manifest
    (drivers-linux/README.md) names .c files relative to FOLDER, compiled
    the same way with KBUILD_MODNAME=NAME and -I FOLDER
    (DIR/local/NAME/, where undefined.txt lists what it needs).
 2. The library (DIR/objects/NAME.list) and the emu objects form the base.
    Each driver is added, with the shared manifests it uses
    (DIR/objects/NAME.uses) that are not linked yet, only if everything
    it needs is then defined or can be stubbed, and no function that
    would be a stub is reached from its initcalls or the shared
    manifests' it brings (direct calls, tools/linux_graph.py), so that
    a missing function never stops a boot that does not use the
    driver; otherwise it is left out and unlinked.txt says which
    symbols it lacks or its initcalls reach.  A driver never uses
    another driver's objects, so the order of the drivers does not
    matter, and a shared manifest's objects are linked once.
 3. A symbol still undefined that every object only calls (R_X86_64_PLT32
    relocations alone) gets a generated stub calling lx_host_missing(),
    which names it and stops (stubs.txt lists them).  Anything else
    still undefined -- data, or a function whose address is taken -- must
    be written in linux-emu: for the base it is an error.
 3b. Each linked driver's and shared manifest's initcalls are listed
    in a generated table (initcalls.c, struct lx_driver_initcalls in
    lx_initcall.h; a shared manifest's entry comes before its users',
    which name it), their entries made global in copies of the objects
    so that the table can name them: lx_emul_driver_init() starts one
    driver by name, after the shared code it uses.
 3c. Each linked driver's module parameters (the __param section: what
    module_param() defines, "libata.dma" for a built-in driver) are
    listed in the same generated file (lx_driver_param_table, read by
    lx_params.c), their entries renamed unique and made global the same
    way: lx_emul_params_set() parses them from the host's command line.
 4. ld -r, then every global symbol is made local except the names the
    --exports files list (one a line, lx_emul_* only, `#` starts a
    comment), so Linux's names cannot collide with Graft's; a listed
    name the linked object does not define is an error.  The result may
    only need lx_host_* from outside (checked).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

from linux_build import (BuildError, kbuild_command, read_manifest,
                         retarget, run, symbols)
from linux_graph import Graph

REFERENCE = "lib/ctype"
HOST_PREFIX = "lx_host_"
EXPORT_PREFIX = "lx_emul_"
GENERATED = {"lx_driver_initcall_table",	# written at step 3b
             "lx_driver_param_table"}		# and 3c
STUB_CFLAGS = ["-O2", "-ffreestanding", "-fno-pic", "-mcmodel=kernel",
               "-mno-red-zone", "-mgeneral-regs-only", "-fno-builtin",
               "-fno-asynchronous-unwind-tables", "-w"]


def emu_command(build: Path, source: Path, obj: str, include: Path,
                modname: str = "") -> str:
    """Kbuild's command for REFERENCE, retargeted at @source -> @obj (@obj
    relative to @build), -I @include; KBUILD_MODNAME is @modname (a local
    driver's name, KBUILD_MODFILE local/@modname) or else the object's
    name (KBUILD_MODFILE linux-emu/NAME)."""
    command = kbuild_command(build, REFERENCE + ".o")
    command = command.split(";")[0].strip()	# no objtool pass
    d, stem = os.path.split(REFERENCE)
    new = Path(obj).stem
    objdir = os.path.dirname(obj)
    mod = (modname or new).replace("-", "_")
    modfile = f"local/{mod}" if modname else f"linux-emu/{new}"
    tree = os.path.realpath(build / "source")
    pairs = [
        (f"-Wp,-MMD,{d}/.{stem}.o.d", f"-Wp,-MMD,{objdir}/.{new}.o.d"),
        (f"-I {tree}/{d} -I ./{d}", f"-I {include}"),
        (f"KBUILD_MODFILE='\"{REFERENCE}\"'",
         f"KBUILD_MODFILE='\"{modfile}\"'"),
        (f"BASENAME='\"{stem}\"'", f"BASENAME='\"{new}\"'"),
        (f"MODNAME='\"{stem}\"'", f"MODNAME='\"{mod}\"'"),
        (f"__KBUILD_MODNAME=kmod_{stem}", f"__KBUILD_MODNAME=kmod_{mod}"),
        (f"-c -o {REFERENCE}.o {tree}/{REFERENCE}.c",
         f"-c -o {obj} {source}"),
    ]
    return retarget(command, REFERENCE + ".o", pairs, "linux-emu's")


def compile_emu(build: Path, sources: list[Path], include: Path,
                objdir: str = "emu", modname: str = "") -> list[Path]:
    """Compile @sources into DIR/@objdir (see emu_command); only what is
    older than its source, a header beside it or in @include, the
    configuration (autoconf.h), or whose command changed."""
    (build / objdir).mkdir(parents=True, exist_ok=True)
    shared = [p.stat().st_mtime for p in include.glob("*.h")]
    shared.append((build / "include/generated/autoconf.h").stat().st_mtime)
    objects = []
    for source in sources:
        headers = shared + [h.stat().st_mtime
                            for h in source.parent.glob("*.h")]
        obj = f"{objdir}/{source.stem}.o"
        command = emu_command(build, source.resolve(), obj, include.resolve(),
                              modname)
        record = build / objdir / f".{source.stem}.o.cmd"
        target = build / obj
        newest = max([source.stat().st_mtime] + headers)
        if not (target.is_file() and target.stat().st_mtime >= newest and
                record.is_file() and record.read_text() == command):
            run(f"compiling {source}", ["sh", "-c", command], cwd=build)
            record.write_text(command)
        objects.append(target)
    return objects


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


def uses_of(build: Path, name: str) -> list[str]:
    """The shared manifests @name uses, each after those it uses
    (tools/linux_build.py's DIR/objects/NAME.uses; none without it)."""
    path = build / "objects" / f"{name}.uses"
    return path.read_text().split() if path.is_file() else []


def compile_local(build: Path, folder: Path) -> tuple[str, list[Path]]:
    """Compile the out-of-tree driver in @folder: (its name, its objects).
    Writes DIR/local/NAME/undefined.txt: what it needs and does not
    define."""
    found = sorted(folder.glob("*.manifest"))
    if len(found) != 1:
        raise BuildError(f"{folder}: a local driver folder holds exactly "
                         f"one NAME.manifest (found {len(found)})")
    m = read_manifest(found[0])
    if found[0].stem != m.name:
        raise BuildError(f"{found[0]}: 'driver: {m.name}' must match the "
                         "file's name")
    sources = [folder / s for s in m.sources]
    for s in sources:
        if not s.is_file():
            raise BuildError(f"{found[0]}: no source {s}")
    objects = compile_emu(build, sources, folder, f"local/{m.name}", m.name)
    _, needed = symbols(objects)
    (build / "local" / m.name / "undefined.txt").write_text(
        "".join(f"{n}\n" for n in sorted(needed)))
    return m.name, objects


def initcall_level(section: str) -> tuple[int, str]:
    """Linux's order of initcall sections (the host's linker script sorts
    .initcall[0-9]*.init by name after .initcallearly.init)."""
    return (0, "") if section == ".initcallearly.init" else (1, section)


def initcall_copies(build: Path, driver: str, objects: list[Path]
                    ) -> tuple[list[Path], list[str], list[str]]:
    """Copies of @objects whose initcall entries and module parameters
    are global symbols (parameters renamed lx_param_<driver>_<n>_<name>,
    as two objects may use one name), the initcall entries in Linux's
    order and the parameters."""
    out, entries, params = [], [], []
    (build / "emu" / "drivers").mkdir(parents=True, exist_ok=True)
    for n, obj in enumerate(objects):
        table = run("objdump", ["objdump", "-t", str(obj)])
        found = re.findall(r"^\S+\s+l\s+(?:O\s+)?(\.initcall\w*\.init)"
                           r"\s+\S+\s+(\S+)$", table, re.M)
        found_params = re.findall(r"^\S+\s+l\s+O\s+__param\s+\S+\s+"
                                  r"(__param_\w+)$", table, re.M)
        if not found and not found_params:
            out.append(obj)
            continue
        tag = re.sub(r"\W", "_", driver)
        renamed = {p: f"lx_param_{tag}_{n}_{p[len('__param_'):]}"
                   for p in found_params}
        copy = build / "emu" / "drivers" / \
            str(obj.resolve().relative_to(build)).replace("/", "_")
        run("objcopy", ["objcopy", *[f"--globalize-symbol={name}"
                                     for _, name in found],
                        *[f"--redefine-sym={old}={new}"
                          for old, new in renamed.items()],
                        *[f"--globalize-symbol={new}"
                          for new in renamed.values()],
                        str(obj), str(copy)])
        out.append(copy)
        entries += [(initcall_level(sec), name) for sec, name in found]
        params += list(renamed.values())
    return out, [name for _, name in sorted(entries, key=lambda e: e[0])], \
        params


def write_initcall_table(work: Path, include: Path,
                         drivers: list[tuple[str, list[str], list[str]]],
                         shared: set[str], params: list[str]) -> Path:
    """Generate and compile the per-driver initcall table (lx_initcall.h)
    and the table of the drivers' module parameters into @work.
    @drivers: (name, initcall entries, the names it uses), each after
    those it uses; @shared: the names that are shared manifests."""
    lines = ["/* Generated by tools/linux_link.py: each linked driver's "
             "initcalls. */",
             "#include <lx_initcall.h>", ""]
    index = {name: i for i, (name, _, _) in enumerate(drivers)}
    for i, (_, entries, uses) in enumerate(drivers):
        lines += [f"extern const int {e};" for e in entries]
        lines.append(f"static const int *const calls_{i}[] = {{ " +
                     "".join(f"&{e}, " for e in entries) + "0 };")
        lines.append(f"static const short uses_{i}[] = {{ " +
                     "".join(f"{index[u]}, " for u in uses) + "-1 };")
    lines.append("const struct lx_driver_initcalls "
                 "lx_driver_initcall_table[] = {")
    lines += [f"\t{{ \"{name}\", calls_{i}, {len(entries)}, uses_{i}, "
              f"{int(name in shared)} }},"
              for i, (name, entries, _) in enumerate(drivers)]
    lines += ["\t{ 0, 0, 0, 0, 0 }", "};", ""]
    lines += [f"extern const char {p}[];" for p in params]
    lines.append("const void *const lx_driver_param_table[] = { " +
                 "".join(f"{p}, " for p in params) + "0 };")
    c = work / "initcalls.c"
    c.write_text("\n".join(lines))
    o = work / "initcalls.o"
    run("compiling the initcall table", ["gcc", *STUB_CFLAGS, "-I",
                                         str(include), "-c", "-o", str(o),
                                         str(c)])
    return o


def unresolved(objects: list[Path]) -> tuple[set[str], set[str]]:
    """(symbols that need a stub, symbols that need a real definition)."""
    _, missing = symbols(objects)
    missing = {s for s in missing
               if not s.startswith(HOST_PREFIX) and s not in GENERATED}
    calls = call_only(objects, missing)
    return calls, missing - calls


def write_stubs(work: Path, stubs: set[str]) -> Path:
    """Generate and compile into @work a function for each of @stubs that
    calls lx_host_missing() with its name."""
    stub_c = work / "stubs.c"
    stub_c.write_text(
        "/* Generated by tools/linux_link.py: Linux functions the linked "
        "drivers call\n * and linux-emu does not implement.  Each stops "
        "loudly. */\n"
        "void lx_host_missing(const char *name) "
        "__attribute__((noreturn));\n" +
        "".join(f"void {s}(void) {{ lx_host_missing(\"{s}\"); }}\n"
                for s in sorted(stubs)))
    stub_o = work / "stubs.o"
    run("compiling the stubs", ["gcc", *STUB_CFLAGS, "-c", "-o",
                                str(stub_o), str(stub_c)])
    return stub_o


def read_exports(path: Path) -> list[str]:
    """The names the export list @path holds: one a line, `#` to the end
    of a line a comment.  Each must be lx_emul_* and listed once."""
    names: list[str] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{path}:{number}"
        if len(words) > 1 or not words[0].startswith(EXPORT_PREFIX):
            raise BuildError(f"{where}: one {EXPORT_PREFIX}* name a line, "
                             f"not '{line.strip()}'")
        if words[0] in names:
            raise BuildError(f"{where}: {words[0]} is listed twice")
        names.append(words[0])
    return names


def export(whole: Path, out: Path, lists: list[Path]) -> None:
    """Write @out: @whole with every global symbol made local but those
    the export @lists name, each of which @whole must define."""
    defined, _ = symbols([whole])
    names: dict[str, Path] = {}
    for path in lists:
        for name in read_exports(path):
            if name in names:
                raise BuildError(f"{path}: {name} is listed in "
                                 f"{names[name]} too")
            if name not in defined:
                raise BuildError(f"{path}: {name} is not defined in "
                                 f"what was linked into {out.name}")
            names[name] = path
    run("objcopy", ["objcopy", *[f"--keep-global-symbol={n}"
                                 for n in sorted(names)],
                    str(whole), str(out)])


def write_sums(path: Path, objects: list[Path], build: Path) -> None:
    """Write @path: the SHA-256 and the path (below @build) of each of
    @objects, the inputs of one link (what tests/tools/
    check_shared_objects.py compares between the kernel's and a
    server's)."""
    lines = []
    for obj in objects:
        digest = hashlib.sha256(obj.read_bytes()).hexdigest()
        lines.append(f"{digest}  {obj.resolve().relative_to(build)}\n")
    path.write_text("".join(lines))


def pv_slots(whole: Path) -> None:
    """Refuse @whole if its code calls a pv_ops slot that linux-emu's
    pv_ops (lx_paravirt.c) leaves NULL: a call site's PC-relative
    relocation names pv_ops + slot - 4; a filled slot is an absolute
    relocation in .data at pv_ops + slot."""
    base = next((int(w[0], 16) for w in map(str.split, run(
        "nm", ["nm", "--defined-only", str(whole)]).splitlines())
        if len(w) == 3 and w[2] == "pv_ops"), None)
    if base is None:
        raise BuildError("linux-emu must define pv_ops")
    called, filled, section = set(), set(), ""
    for line in run("objdump -r", ["objdump", "-r", str(whole)]).splitlines():
        if line.startswith("RELOCATION RECORDS FOR"):
            section = line.split("[", 1)[1].rstrip("]:")
        words = line.split()
        if len(words) != 3:
            continue
        if words[1] == "R_X86_64_PC32" and words[2].startswith("pv_ops"):
            called.add(int(words[2][6:].replace("+", "") or "0", 16) + 4)
        elif section == ".data" and words[1] == "R_X86_64_64":
            filled.add(int(words[0], 16) - base)
    empty = sorted(called - filled)
    if empty:
        raise BuildError("linked code calls pv_ops slots linux-emu leaves "
                         "NULL (lx_paravirt.c): offsets " +
                         " ".join(hex(o) for o in empty))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", type=Path, required=True)
    ap.add_argument("--include", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--emu", type=Path, nargs="+", required=True)
    ap.add_argument("--library", required=True)
    ap.add_argument("--drivers", nargs="*", default=[])
    ap.add_argument("--local", type=Path, nargs="*", default=[])
    ap.add_argument("--exports", type=Path, nargs="+", required=True)
    ap.add_argument("--reports", type=Path)
    args = ap.parse_args()
    build = args.build.resolve()
    work = build / "link" / args.out.stem
    reports = args.reports.resolve() if args.reports else work
    try:
        def listed(name: str) -> list[Path]:
            return [Path(p) for p in
                    (build / "objects" / f"{name}.list").read_text().split()]

        work.mkdir(parents=True, exist_ok=True)
        base = library_copies(build, listed(args.library)) + \
            compile_emu(build, args.emu, args.include)
        stubs, lacking = unresolved(base)
        if lacking:
            raise BuildError("linux-emu must define: " +
                             " ".join(sorted(lacking)))
        drivers = [(d, listed(d)) for d in args.drivers]
        drivers += [compile_local(build, f.resolve()) for f in args.local]
        names = [d for d, _ in drivers]
        if len(set(names)) != len(names):
            raise BuildError(f"two drivers have one name: {names}")
        linked, report, tables, params = list(base), [], [], []
        shared: set[str] = set()
        for driver, objects in sorted(drivers):
            uses = uses_of(build, driver)
            added = [(u, listed(u)) for u in uses if u not in shared]
            trial = linked + [o for _, objs in added for o in objs] + \
                objects
            trial_stubs, lacking = unresolved(trial)
            if lacking:
                report.append(f"{driver}: not linked; linux-emu does not "
                              f"define {' '.join(sorted(lacking))}")
                continue
            reached = Graph([o for _, objs in added for o in objs] +
                            objects).from_init() & trial_stubs
            if reached:
                report.append(f"{driver}: not linked; its initcalls reach "
                              f"{' '.join(sorted(reached))}, which "
                              "linux-emu does not define")
                continue
            for name, objs in added + [(driver, objects)]:
                copies, entries, found = initcall_copies(build, name, objs)
                linked += copies
                tables.append((name, entries, uses_of(build, name)))
                params += found
            shared |= {u for u, _ in added}
            stubs = trial_stubs
        table_o = write_initcall_table(work, args.include.resolve(), tables,
                                       shared, params)
        (reports / "unlinked.txt").write_text("".join(f"{r}\n"
                                                      for r in report))
        for line in report:
            print(f"linux_link: {args.out.name}: {line.split(';')[0]} "
                  f"(see {reports}/unlinked.txt)")
        (reports / "stubs.txt").write_text("".join(f"{s}\n"
                                                   for s in sorted(stubs)))
        stub_o = write_stubs(work, stubs)
        whole = work / "whole.o"
        run("ld -r", ["ld", "-r", "-o", str(whole), *map(str, linked),
                      str(stub_o), str(table_o)])
        pv_slots(whole)
        write_sums(reports / "objects.sha256", linked + [stub_o, table_o],
                   build)
        export(whole, args.out, args.exports)
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
