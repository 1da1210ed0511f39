#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Configure the pristine Linux 6.1 tree and compile the drivers named in
drivers-linux/*.manifest with Linux's own Kbuild, into an output directory.

Usage: linux_build.py --src TREE --tarball TARBALL --out DIR
                      --fragment CONFIG [--local LOCAL_MANIFEST...]
                      MANIFEST...

The tree (Debian's linux-source-6.1, unpacked by tools/deps.sh) is only
read: Kbuild runs with O=DIR, so every generated file lands in DIR.

Steps, each skipped when its inputs have not changed (DIR/build.stamp):
 1. tinyconfig, then the in-repo fragment plus every manifest's `kconfig`
    symbols (local drivers' too: --local, see drivers-linux/README.md)
    merged with scripts/kconfig/merge_config.sh, olddefconfig,
    prepare.  A symbol that does not end up `=y` stops the build, unless
    its manifest lists it under `kconfig-unavailable` (with the reason).
 2. Kbuild compiles each manifest source as a single target.  A source
    that Kconfig cannot select (listed under `compile-like: SOURCE`) is
    compiled with exactly the command line Kbuild used for SOURCE, with
    the file names and KBUILD_* names substituted (the .cmd file Kbuild
    leaves beside SOURCE's object holds that line).
 3. Written into DIR:
    objects/NAME.list   the objects of driver NAME, one per line
    objects/NAME.uses   the shared manifests NAME uses (`uses:`), with
                        those they use in turn, each after what it
                        uses; only for a manifest that uses one
    files.tsv           every Linux file the drivers' objects were
                        compiled from, within the drivers' folders (the
                        sources and the local headers and .c files they
                        include), with its SHA-256 in the tree and in the
                        package tarball
    undefined.txt       the symbols the objects need and do not define:
                        what linux-emu must provide

Local (out-of-tree) drivers only take part in step 1: their sources are
not Linux's, tools/linux_link.py compiles them, and they are in neither
files.tsv nor undefined.txt.

Exits 1 with a message naming the step on any failure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

ARCH = "x86_64"


class BuildError(Exception):
    pass


@dataclass
class Manifest:
    path: Path
    name: str = ""
    kconfig: list[str] = field(default_factory=list)
    unavailable: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    like: str = ""
    devices: str = ""
    shared: bool = False
    uses: list[str] = field(default_factory=list)


KEYS = {"driver", "kconfig", "kconfig-unavailable", "sources",
        "compile-like", "devices", "library", "shared", "uses"}
KINDS = ("driver", "library", "shared")


def read_manifest(path: Path) -> Manifest:
    """Parse `key: value` lines; a line starting with blanks continues the
    previous key; '#' starts a comment line."""
    m = Manifest(path=path)
    values: dict[str, str] = {}
    key = None
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0] in " \t" and key is not None:
            values[key] += " " + line.strip()
            continue
        key, sep, value = line.partition(":")
        key = key.strip()
        if not sep or key not in KEYS:
            raise BuildError(f"{path}:{number}: expected one of "
                             f"{sorted(KEYS)} followed by ':'")
        values[key] = value.strip()
    kinds = [k for k in KINDS if k in values]
    m.name = values[kinds[0]] if len(kinds) == 1 else ""
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", m.name):
        raise BuildError(f"{path}: one 'driver:', 'library:' or 'shared:' "
                         "must name what the manifest builds")
    m.shared = kinds == ["shared"]
    m.uses = values.get("uses", "").split()
    m.kconfig = values.get("kconfig", "").split()
    m.unavailable = re.findall(r"CONFIG_\w+",
                               values.get("kconfig-unavailable", ""))
    m.sources = values.get("sources", "").split()
    m.like = values.get("compile-like", "")
    m.devices = values.get("devices", "")
    if not m.sources:
        raise BuildError(f"{path}: no 'sources:'")
    for s in m.sources:
        if not s.endswith(".c") or s.startswith("/") or ".." in s:
            raise BuildError(f"{path}: bad source {s!r}")
    for c in m.kconfig + m.unavailable:
        if not re.fullmatch(r"CONFIG_\w+(=n)?", c):
            raise BuildError(f"{path}: bad Kconfig symbol {c!r}")
    return m


def run(step: str, argv: list[str], cwd: Path | None = None) -> str:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-25:])
        raise BuildError(f"{step} failed: {' '.join(argv)}\n{tail}")
    return done.stdout


def kmake(src: Path, out: Path, *targets: str, jobs: int = 2) -> None:
    run(f"make {' '.join(targets)}",
        ["make", "-s", "-C", str(src), f"O={out}", f"ARCH={ARCH}",
         f"-j{min(jobs, os.cpu_count() or 1)}", *targets])


def configure(src: Path, out: Path, fragment: Path,
              manifests: list[Manifest]) -> None:
    wanted = out / "graft.config"
    lines = [fragment.read_text().rstrip("\n")]
    for m in manifests:
        lines += [f"# {c[:-2]} is not set" if c.endswith("=n") else f"{c}=y"
                  for c in m.kconfig]
    wanted.write_text("\n".join(lines) + "\n")
    kmake(src, out, "tinyconfig")
    run("merge_config.sh",
        [str(src / "scripts/kconfig/merge_config.sh"), "-m", "-O", str(out),
         str(out / ".config"), str(wanted)], cwd=src)
    kmake(src, out, "olddefconfig")
    config = (out / ".config").read_text()
    unavailable = {c for m in manifests for c in m.unavailable}
    for line in wanted.read_text().splitlines():
        off = re.fullmatch(r"# (CONFIG_\w+) is not set", line)
        if off and f"\n{off.group(1)}=" in "\n" + config:
            raise BuildError(f"Kconfig turned {off.group(1)} on although "
                             "the fragment or a manifest turns it off")
        symbol, _, value = line.partition("=")
        if not symbol.startswith("CONFIG_") or symbol in unavailable:
            continue
        if f"\n{symbol}={value}\n" not in "\n" + config:
            raise BuildError(f"Kconfig did not keep {symbol}={value} "
                             f"(see {out}/.config and the symbol's "
                             "dependencies)")
    kmake(src, out, "prepare")


def cmd_file(out: Path, obj: str) -> Path:
    d, base = os.path.split(obj)
    return out / d / f".{base}.cmd"


def kbuild_command(out: Path, obj: str) -> str:
    """The command Kbuild recorded for @obj (relative to @out)."""
    text = cmd_file(out, obj).read_text()
    found = re.search(rf"^cmd_{re.escape(obj)} := (.*)$", text, re.M)
    if not found:
        raise BuildError(f"no Kbuild command recorded for {obj}")
    return found.group(1)


def retarget(command: str, obj: str, pairs: list[tuple[str, str]],
             target: str) -> str:
    """@command (Kbuild's for @obj) with each (a, b) of @pairs replaced;
    BuildError if an a is not in it (then @target cannot be derived)."""
    for a, b in pairs:
        if a not in command:
            raise BuildError(f"the Kbuild command for {obj} lacks {a!r}; "
                             f"cannot derive {target}")
        command = command.replace(a, b)
    return command


def compile_like(src: Path, out: Path, source: str, like: str) -> None:
    """Compile @source with the command Kbuild used for @like."""
    like_obj = like[:-2] + ".o"
    command = kbuild_command(out, like_obj)
    old = Path(like).stem
    new = Path(source).stem
    d = os.path.dirname(like)
    if os.path.dirname(source) != d:
        raise BuildError(f"compile-like: {source} and {like} must share "
                         "a folder")
    pairs = [
        (f"{d}/.{old}.o.d", f"{d}/.{new}.o.d"),
        (f"{d}/{old}.o", f"{d}/{new}.o"),
        (f"{d}/{old}.c", f"{d}/{new}.c"),
        (f"\"{d}/{old}\"", f"\"{d}/{new}\""),
        (f"BASENAME='\"{old}\"'", f"BASENAME='\"{new}\"'"),
        (f"MODNAME='\"{old}\"'", f"MODNAME='\"{new}\"'"),
        (f"__KBUILD_MODNAME=kmod_{old}", f"__KBUILD_MODNAME=kmod_{new}"),
    ]
    command = retarget(command, like_obj, pairs, f"{source}'s")
    run(f"compiling {source} like {like}", ["sh", "-c", command], cwd=out)
    (cmd_file(out, source[:-2] + ".o")).write_text(
        f"cmd_{d}/{new}.o := {command}\n\nsource_{d}/{new}.o := "
        f"{src / source}\n")


def compile_drivers(src: Path, out: Path, manifests: list[Manifest]) -> None:
    likes = [m for m in manifests if m.like]
    targets = {s[:-2] + ".o" for m in manifests if not m.like
               for s in m.sources}
    targets |= {m.like[:-2] + ".o" for m in likes}
    # One Kbuild run per folder: single targets of different folders in one
    # parallel run can descend into a shared parent twice at once and race
    # (seen: fixdep missing arch/x86/lib/.csum-partial_64.o.d).  Two
    # single targets of one folder race the same way under -j2 (the
    # parent's descent and the folder's both build the first), so -j1.
    folders: dict[str, list[str]] = {}
    for t in sorted(targets):
        folders.setdefault(os.path.dirname(t), []).append(t)
    for group in folders.values():
        kmake(src, out, *group, jobs=1)
    for m in likes:
        for s in m.sources:
            compile_like(src, out, s, m.like)
    for m in manifests:
        for s in m.sources:
            if not (out / (s[:-2] + ".o")).is_file():
                raise BuildError(f"{m.path}: Kbuild built no object for {s} "
                                 "(is it selected by the manifest's "
                                 "kconfig symbols?)")


def compiled_files(src: Path, out: Path, m: Manifest) -> list[str]:
    """The sources of @m and every file of their folders they include."""
    files = set(m.sources)
    folders = {os.path.dirname(s) for s in m.sources}
    prefix = str(src) + "/"
    for s in m.sources:
        dep = out / os.path.dirname(s) / f".{Path(s).stem}.o.d"
        text = cmd_file(out, s[:-2] + ".o").read_text()
        if dep.is_file():
            text += dep.read_text()
        for word in re.findall(r"\S+", text.replace("\\\n", " ")):
            word = word.rstrip(":")
            if word.startswith(prefix):
                rel = word[len(prefix):]
                if os.path.dirname(rel) in folders and (
                        rel.endswith(".c") or rel.endswith(".h")):
                    files.add(rel)
    return sorted(files)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def tarball_hashes(tarball: Path, wanted: set[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    with tarfile.open(tarball, "r:xz") as tar:
        for member in tar:
            name = member.name.split("/", 1)[-1]
            if name in wanted and member.isfile():
                found[name] = sha256(tar.extractfile(member).read())
                if len(found) == len(wanted):
                    break
    return found


def sources_once(manifests: list[Manifest]) -> None:
    """BuildError if two manifests compile one Linux source: a file
    several drivers need belongs in one shared manifest they use."""
    owner: dict[str, Path] = {}
    for m in manifests:
        for source in m.sources:
            if source in owner:
                raise BuildError(f"{m.path} and {owner[source]} both list "
                                 f"{source}: move it to a shared manifest "
                                 "(drivers-linux/shared/) both use")
            owner[source] = m.path


def uses_closure(manifests: list[Manifest]) -> dict[str, list[str]]:
    """For each manifest that uses shared ones: every shared manifest it
    needs, each after those it uses itself.  BuildError for a name no
    shared manifest has, or a cycle."""
    shared = {m.name: m for m in manifests if m.shared}
    closures: dict[str, list[str]] = {}

    def visit(m: Manifest, trail: list[str], out: list[str]) -> None:
        for u in m.uses:
            if u not in shared:
                raise BuildError(f"{m.path}: uses {u!r}, which no "
                                 "'shared:' manifest names")
            if u in trail:
                raise BuildError(f"{m.path}: shared manifests use each "
                                 f"other: {' -> '.join(trail + [u])}")
            visit(shared[u], trail + [u], out)
            if u not in out:
                out.append(u)

    for m in manifests:
        if m.uses:
            closures[m.name] = []
            visit(m, [m.name], closures[m.name])
    return closures


def symbols(objects: list[Path]) -> tuple[set[str], set[str]]:
    """(defined globals, undefined) over @objects: a symbol one object
    needs and only another's local (static) symbol names stays needed."""
    defined, needed = set(), set()
    for line in run("nm", ["nm", *map(str, objects)]).splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            needed.add(parts[1])
        elif len(parts) == 3 and parts[1] not in "Uw" and parts[1].isupper():
            defined.add(parts[2])
    return defined, needed - defined


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, required=True)
    ap.add_argument("--tarball", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--fragment", type=Path, required=True)
    ap.add_argument("--local", type=Path, nargs="*", default=[],
                    help="local drivers' manifests (Kconfig symbols only)")
    ap.add_argument("manifests", type=Path, nargs="+")
    args = ap.parse_args()
    src, out = args.src.resolve(), args.out.resolve()
    try:
        manifests = [read_manifest(p) for p in sorted(args.manifests)]
        local = [read_manifest(p) for p in args.local]
        names = [m.name for m in manifests + local]
        if len(set(names)) != len(names):
            raise BuildError(f"two manifests name the same driver: {names}")
        sources_once(manifests)
        closures = uses_closure(manifests + local)
        inputs = json.dumps({
            "version": (src / ".graft-version").read_text().strip(),
            "fragment": args.fragment.read_text(),
            "manifests": [p.read_text() for p in sorted(args.manifests)],
            "local": [m.kconfig + m.unavailable + m.uses for m in local],
            "tool": Path(__file__).read_text(),
        })
        stamp = out / "build.stamp"
        if stamp.is_file() and stamp.read_text() == sha256(inputs.encode()):
            stamp.touch()  # now newer than the inputs make compared
            return 0
        out.mkdir(parents=True, exist_ok=True)
        stamp.unlink(missing_ok=True)
        configure(src, out, args.fragment, manifests + local)
        compile_drivers(src, out, manifests)
        (out / "objects").mkdir(exist_ok=True)
        for stale in (out / "objects").glob("*.uses"):
            stale.unlink()
        for name, uses in closures.items():
            (out / "objects" / f"{name}.uses").write_text(
                "".join(f"{u}\n" for u in uses))
        objects, files = [], {}
        for m in manifests:
            objs = [out / (s[:-2] + ".o") for s in m.sources]
            objects += objs
            (out / "objects" / f"{m.name}.list").write_text(
                "".join(f"{o}\n" for o in objs))
            for f in compiled_files(src, out, m):
                files[f] = m.name
        pristine = tarball_hashes(args.tarball, set(files))
        rows = ["# file\tdriver\tsha256 in the tree\tsha256 in the tarball"]
        for f, driver in sorted(files.items()):
            rows.append(f"{f}\t{driver}\t{sha256((src / f).read_bytes())}"
                        f"\t{pristine.get(f, 'missing')}")
        (out / "files.tsv").write_text("\n".join(rows) + "\n")
        (out / "undefined.txt").write_text(
            "".join(f"{s}\n" for s in sorted(symbols(objects)[1])))
        stamp.write_text(sha256(inputs.encode()))
    except (BuildError, OSError) as error:
        print(f"linux_build: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
