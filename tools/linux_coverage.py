#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""How far linux-emu carries every driver Kconfig can select on x86_64
under drivers/net/ethernet, drivers/ata and the PCI SCSI host adapters of
drivers/scsi (`make coverage`; never part of `make check`).

Usage: linux_coverage.py --src LINUX --build BUILD/linux --out DIR
                         --fragment linux-emu/graft.config
                         --manifests drivers-linux --doc FILE

Steps:
 1. Candidates: every tristate `config` of those Kconfig files (for
    drivers/scsi, only those whose dependencies name PCI), with the
    objects its Makefile builds for it (`obj-$(CONFIG_X) += x.o` or
    `dir/`).
 2. Configuration in DIR (not BUILD/linux, whose configuration the
    linked world keeps): tinyconfig, linux-emu's fragment, the
    manifests' symbols and every candidate =y, merged and run through
    olddefconfig.  A candidate Kconfig drops is not selectable in Graft's
    configuration: it depends on another architecture, or on a bus or
    subsystem that configuration leaves out (ACPI, PTP, PHYLIB, HWMON,
    MSI...), which would change the structures linux-emu is compiled
    against.
 3. Kbuild compiles each selected candidate's objects and the shared
    manifests' sources (make -k: a file that does not compile does not
    stop the rest).
 4. Each compiled driver is resolved as tools/linux_link.py would link
    it: against what linux.o's world defines (BUILD/linux/emu/*.o and
    the library), then against the other compiled objects that are not
    the SCSI midlayer linux-emu emulates (libata, libahci, transport
    classes, mii...) and the shared manifests' objects
    (drivers-linux/shared/: the I2C core, the SSB bus...), compiled in
    DIR too, transitively.  It links if every data symbol and
    every function whose address it takes is then defined; the
    functions it only calls and nobody defines would be stubs.
 5. Stubs reachable from init and probe: from the driver's initcalls,
    direct calls, and the functions its initcalls' data names (the
    pci_driver: probe, remove...), then direct calls from those.  An
    approximation: function pointers stored later (net_device_ops,
    timers, interrupt handlers) are not followed.
Writes BUILD/linux/coverage.tsv (driver: its Kconfig symbol; compiles:
yes, no or not-selectable; links: yes or no; the stubs it calls; those
reachable from init and probe; those reachable from its initcalls alone,
which must be none: a probe that reaches a stub stops on it, naming it,
but a driver's init must not) and FILE, the totals (Markdown).
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import subprocess
import sys
from pathlib import Path

from linux_build import read_manifest, run
from linux_graph import Graph

AREAS = ("drivers/net/ethernet", "drivers/ata", "drivers/scsi")
# The SCSI midlayer linux-emu emulates (drivers/scsi/Makefile's scsi_mod
# and the upper-level drivers): never taken to resolve a driver.
MIDLAYER = re.compile(r"drivers/scsi/(scsi(?!_devinfo|_transport|_common)"
                      r"\w*|hosts|sd(_\w+)?|sr(_\w+)?|sg|st|ch|ses|"
                      r"scsicam)\.o$")


def kconfig_entries(src: Path) -> dict[str, dict]:
    """NAME -> {dir, tristate, depends} for every config of AREAS."""
    entries: dict[str, dict] = {}
    for area in AREAS:
        for d, _, files in os.walk(src / area):
            for f in files:
                if not f.startswith("Kconfig"):
                    continue
                cur = None
                for line in (Path(d) / f).read_text(errors="replace") \
                        .splitlines():
                    m = re.match(r"^\s*(?:menu)?config\s+(\w+)", line)
                    if m:
                        cur = entries.setdefault(m.group(1), {
                            "dir": Path(d), "tristate": False,
                            "depends": []})
                        continue
                    if re.match(r"^(menu|endmenu|if|endif|choice|source|"
                                r"comment)\b", line):
                        cur = None
                    if cur is None:
                        continue
                    if re.match(r"^\s*tristate\b", line):
                        cur["tristate"] = True
                    m = re.match(r"^\s*depends on\s+(.*)", line)
                    if m:
                        cur["depends"].append(m.group(1))
    return entries


def candidates(src: Path, entries: dict[str, dict], every: bool = False
               ) -> dict[str, list[str]]:
    """Candidate symbol -> the objects (or dir/) its Makefiles build;
    with @every, any symbol of AREAS with objects."""
    objs: dict[str, list[str]] = {}
    for area in AREAS:
        for d, _, files in os.walk(src / area):
            if "Makefile" not in files:
                continue
            rel = Path(d).relative_to(src)
            text = (Path(d) / "Makefile").read_text(errors="replace")
            text = text.replace("\\\n", " ")
            for m in re.finditer(r"^obj-\$\(CONFIG_(\w+)\)\s*\+?=\s*(.*)$",
                                 text, re.M):
                for word in m.group(2).split():
                    if word.endswith(".o") or word.endswith("/"):
                        objs.setdefault(m.group(1), []).append(
                            str(rel / word) + ("/" if word.endswith("/")
                                               else ""))
    result = {}
    for name, e in entries.items():
        if name not in objs:
            continue
        if every:
            result[name] = objs[name]
            continue
        if not e["tristate"]:
            continue
        if str(e["dir"].relative_to(src)).startswith("drivers/scsi") and \
                not any(re.search(r"\bPCI\b", d) for d in e["depends"]):
            continue
        result[name] = objs[name]
    return result


def library_targets(src: Path, out: Path, cands: dict[str, list[str]]
                    ) -> list[str]:
    """What the drivers may call besides linux-emu, compiled alongside
    (step 4's pool): the objects of the other symbols of AREAS the
    configuration turned on (transport classes, libsas, libfc...) but the
    SCSI midlayer, the MII and PHY libraries, scsi_devinfo."""
    on = set(re.findall(r"^CONFIG_(\w+)=y$", (out / ".config").read_text(),
                        re.M))
    entries = kconfig_entries(src)
    everything = candidates(src, entries, every=True)
    libs = {t for s, ts in everything.items()
            if s in on and s not in cands and entries[s]["tristate"]
            for t in ts
            if not MIDLAYER.search(t) and not t.endswith("scsi_mod.o")}
    libs.add("drivers/scsi/scsi_devinfo.o")
    if "MII" in on:
        libs.add("drivers/net/mii.o")
    if "PHYLIB" in on:
        libs.add("drivers/net/phy/")
    return sorted(libs)


def shared_targets(manifests: Path) -> list[str]:
    """The objects of the shared manifests (drivers-linux/shared/): the
    code a driver's manifest may `uses:` (the I2C core, the SSB bus...),
    linked with it by tools/linux_link.py, so in step 4's pool too."""
    return sorted({s[:-2] + ".o"
                   for path in sorted(manifests.glob("shared/*.manifest"))
                   for s in read_manifest(path).sources})


def kmake(src: Path, out: Path, *args: str, check: bool = True) -> str:
    argv = ["make", "-s", "-C", str(src), f"O={out}", "ARCH=x86_64",
            f"-j{min(2, os.cpu_count() or 1)}", *args]
    done = subprocess.run(argv, capture_output=True, text=True)
    if check and done.returncode != 0:
        sys.exit(f"linux_coverage: {' '.join(argv)} failed:\n"
                 + (done.stdout + done.stderr)[-3000:])
    return done.stdout + done.stderr


def configure(src: Path, out: Path, fragment: Path, manifests: Path,
              cands: dict[str, list[str]]) -> set[str]:
    """Step 2; the candidates Kconfig keeps =y."""
    want = [fragment.read_text()]
    for path in sorted(manifests.glob("*.manifest")) + \
            sorted(manifests.glob("shared/*.manifest")):
        want += [f"{c}=y" for c in read_manifest(path).kconfig
                 if not c.endswith("=n")]
    want += [f"CONFIG_{s}=y" for s in sorted(cands)]
    out.mkdir(parents=True, exist_ok=True)
    (out / "coverage.config").write_text("\n".join(want) + "\n")
    kmake(src, out, "tinyconfig")
    run("merge_config.sh",
        [str(src / "scripts/kconfig/merge_config.sh"), "-m", "-O",
         str(out), str(out / ".config"), str(out / "coverage.config")],
        cwd=src)
    kmake(src, out, "olddefconfig")
    on = set(re.findall(r"^CONFIG_(\w+)=y$", (out / ".config").read_text(),
                        re.M))
    return {s for s in cands if s in on}


def compile_all(src: Path, out: Path, targets: list[str]) -> None:
    """Step 3: Kbuild with -k over @targets (folders, and objects: a
    composite one as its parts, which Kbuild builds, not it)."""
    kmake(src, out, "prepare")
    parts = sorted({p for t in targets
                    for p in ([t] if t.endswith("/")
                              else composite(src, out, t))})
    kmake(src, out, "-k", *parts, check=False)


def composite(src: Path, out: Path, target: str) -> list[str]:
    """The objects a composite built-in object is made of, from its
    Makefile's `NAME-y`, `NAME-objs` and `NAME-$(CONFIG_X)` lines (Kbuild
    puts them straight into the folder's built-in.a); [@target] when it
    is not one."""
    folder, name = os.path.split(target)
    stem = name[:-2]
    config = set(re.findall(r"^CONFIG_(\w+)=y$",
                            (out / ".config").read_text(), re.M))
    text = (src / folder / "Makefile").read_text(errors="replace")
    text = text.replace("\\\n", " ")
    # Plain variables the lists name ($(common-objs) in liquidio's).
    plain = {m.group(1): m.group(2) for m in
             re.finditer(r"^([A-Za-z_][\w-]*)\s*:?=\s*(.*)$", text, re.M)}
    parts = []
    for m in re.finditer(rf"^{re.escape(stem)}-(y|objs|\$\(CONFIG_(\w+)\))"
                         r"\s*[:+]?=\s*(.*)$", text, re.M):
        if m.group(2) and m.group(2) not in config:
            continue
        words = re.sub(r"\$\(([\w-]+)\)",
                       lambda v: plain.get(v.group(1), v.group(0)),
                       m.group(3))
        parts += [os.path.join(folder, w) for w in words.split()
                  if w.endswith(".o")]
    return parts or [target]


def members(src: Path, out: Path, target: str) -> list[Path] | None:
    """The object files of @target once compiled (a folder's built-in.a
    is a thin archive; a composite object is its parts), or None."""
    if not target.endswith("/"):
        paths = [out / p for p in composite(src, out, target)]
        return paths if all(p.exists() for p in paths) else None
    path = out / (target + "built-in.a")
    if not path.exists():
        return None
    head = path.read_bytes()[:8]
    if head != b"!<thin>\n":
        return [path]
    names = run("ar", ["ar", "t", str(path)]).split()
    found = []
    for n in names:
        p = Path(n) if os.path.isabs(n) else path.parent / n
        found.append(p.resolve())
    return found


@functools.lru_cache(maxsize=None)
def object_symbols(obj: Path) -> tuple[frozenset[str], frozenset[str]]:
    """(defined globals, undefined) of one object (nm, read once)."""
    defined, needed = set(), set()
    for line in run("nm", ["nm", str(obj)]).splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            needed.add(parts[1])
        elif len(parts) == 3 and parts[1] not in "Uw" and parts[1].isupper():
            defined.add(parts[2])
    return frozenset(defined), frozenset(needed)


def symbols_of(objs: list[Path]) -> tuple[set[str], set[str]]:
    """(defined globals, undefined) of @objs together."""
    defined, needed = set(), set()
    for obj in objs:
        d, n = object_symbols(obj)
        defined |= d
        needed |= n
    return defined, needed - defined


def world_symbols(build: Path) -> set[str]:
    """What linux.o's world defines: linux-emu's objects and the
    library's (step 4)."""
    objs = [p for p in sorted((build / "emu").glob("lx_*.o"))
            if not p.name.startswith("lx_selftest")]
    objs += [Path(p) for p in
             (build / "objects/library.list").read_text().split()]
    return symbols_of(objs)[0]


def resolve(driver: list[Path], pool: dict[str, Path],
            world: set[str]) -> tuple[list[Path], set[str]]:
    """(the driver's objects and the pool's it pulls in, the symbols
    still undefined)."""
    objs = list(driver)
    while True:
        defined, needed = symbols_of(objs)
        missing = needed - world
        more = {pool[s] for s in missing if s in pool} - set(objs)
        if not more:
            return objs, missing
        objs += sorted(more)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", type=Path, required=True)
    ap.add_argument("--build", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--fragment", type=Path, required=True)
    ap.add_argument("--manifests", type=Path, required=True)
    ap.add_argument("--doc", type=Path, required=True)
    args = ap.parse_args()
    for name in ("src", "build", "out", "fragment", "manifests", "doc"):
        setattr(args, name, getattr(args, name).resolve())
    from linux_link import call_only

    entries = kconfig_entries(args.src)
    cands = candidates(args.src, entries)
    kept = configure(args.src, args.out, args.fragment, args.manifests,
                     cands)
    targets = sorted({t for s in kept for t in cands[s]})
    libs = library_targets(args.src, args.out, cands)
    shared = shared_targets(args.manifests)
    compile_all(args.src, args.out, targets + libs + shared)
    built = {t: members(args.src, args.out, t)
             for t in targets + libs + shared}
    pool: dict[str, Path] = {}
    for t in targets + libs + shared:	# shared last: AREAS' come first
        for o in built[t] or ():
            if MIDLAYER.search(str(o)):
                continue
            for s in symbols_of([o])[0]:
                pool.setdefault(s, o)
    world = world_symbols(args.build)
    rows = []
    for sym in sorted(cands):
        if sym not in kept:
            rows.append((sym, "not-selectable", "-", "", "", ""))
            continue
        parts = [built[t] for t in cands[sym]]
        if any(p is None for p in parts):
            rows.append((sym, "no", "-", "", "", ""))
            continue
        driver = sorted({o for p in parts for o in p})
        objs, missing = resolve(driver, pool, world)
        calls = call_only(objs, missing)
        graph = Graph(objs)
        reach = graph.from_init_and_probe() & calls
        init = graph.from_init() & calls
        rows.append((sym, "yes", "yes" if calls == missing else "no",
                     ",".join(sorted(calls)), ",".join(sorted(reach)),
                     ",".join(sorted(init))))
    tsv = args.build / "coverage.tsv"
    tsv.write_text("driver\tcompiles\tlinks\tstubs_called\t"
                   "stubs_reachable_from_init_and_probe\t"
                   "stubs_reachable_from_init\n"
                   + "".join("\t".join(r) + "\n" for r in rows))
    write_doc(args.doc, rows, len(cands))
    print(f"linux_coverage: {tsv}: {len(rows)} drivers")
    return 0


def write_doc(doc: Path, rows: list[tuple[str, ...]], total: int) -> None:
    selectable = [r for r in rows if r[1] != "not-selectable"]
    compiles = [r for r in selectable if r[1] == "yes"]
    links = [r for r in compiles if r[2] == "yes"]
    clean = [r for r in links if not r[4]]
    init_clean = [r for r in links if not r[5]]
    doc.write_text(f"""\
# Driver coverage (generated by `make coverage`)

Every driver (a tristate Kconfig symbol with objects) under
drivers/net/ethernet, drivers/ata and the PCI SCSI host adapters of
drivers/scsi in Linux 6.1, configured over linux-emu's fragment and the
manifests' symbols, compiled by Kbuild and resolved against linux-emu
as `tools/linux_link.py` links (`tools/linux_coverage.py` says how;
the table per driver is `build/linux/coverage.tsv`).  Stubs are
functions a driver calls that linux-emu does not define; "reachable"
follows direct calls from its initcalls and from the functions its
driver structure names (probe, remove...); a probe that reaches a stub
stops there, naming it, but an initcall must reach none.

| | drivers |
|---|---|
| candidates | {total} |
| selectable in Graft's configuration on x86_64 | {len(selectable)} |
| compile | {len(compiles)} |
| link | {len(links)} |
| link, no stub reachable from init | {len(init_clean)} |
| link, no stub reachable from init and probe | {len(clean)} |
""")


if __name__ == "__main__":
    sys.exit(main())
