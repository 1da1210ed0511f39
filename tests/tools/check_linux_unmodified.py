#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""KTAP check: every Linux file Graft compiles is byte-identical to Debian's.

Usage: check_linux_unmodified.py LINUX_BUILD_DIR TREE TARBALL

LINUX_BUILD_DIR is what tools/linux_build.py wrote: files.tsv lists every
Linux file the drivers were compiled from, objects/*.list their objects.
One case per file: its SHA-256 in TREE (the tree Kbuild compiled) equals
that of the same member of TARBALL (linux-source-6.1's tarball), hashed
here and now.  One case per object: Kbuild's record of it (.NAME.o.cmd)
names the source in TREE, so it was compiled from there and not from a
copy.
"""
import hashlib
import os
import re
import sys
import tarfile
from pathlib import Path

from ktap_cases import report


def tarball_hashes(tarball, wanted):
    found = {}
    with tarfile.open(tarball, "r:xz") as tar:
        for member in tar:
            name = member.name.split("/", 1)[-1]
            if name in wanted and member.isfile():
                found[name] = hashlib.sha256(
                    tar.extractfile(member).read()).hexdigest()
                if len(found) == len(wanted):
                    break
    return found


def object_case(build, tree, obj):
    """None if @obj's Kbuild record names a source in @tree, else why not."""
    rel = os.path.relpath(obj, build)
    cmd = Path(build, os.path.dirname(rel), "." + os.path.basename(rel) +
               ".cmd")
    if not Path(obj).is_file() or not cmd.is_file():
        return "no object or no Kbuild record %s" % cmd
    found = re.search(r"^source_%s := (\S+)$" % re.escape(rel),
                      cmd.read_text(), re.M)
    want = os.path.join(tree, rel[:-2] + ".c")
    if not found or os.path.realpath(found.group(1)) != os.path.realpath(
            want):
        return "expected source %s, Kbuild recorded %s" % (
            want, found.group(1) if found else "none")
    return None


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    build, tree, tarball = argv[1:]
    rows = [line.split("\t") for line in
            Path(build, "files.tsv").read_text().splitlines()
            if line and not line.startswith("#")]
    files = sorted(row[0] for row in rows)
    objects = sorted(line for lst in Path(build, "objects").glob("*.list")
                     for line in lst.read_text().split())
    pristine = tarball_hashes(tarball, set(files))
    cases = []
    for f in files:
        here = hashlib.sha256(Path(tree, f).read_bytes()).hexdigest()
        there = pristine.get(f, "absent from the tarball")
        cases.append((f, None if here == there else
                      "expected the tarball's %s, the tree has %s" %
                      (there, here)))
    for obj in objects:
        cases.append(("compiled_from_tree " + os.path.relpath(obj, build),
                      object_case(build, tree, obj)))
    if not files or not objects:
        cases.append(("drivers_were_built", "files.tsv or objects/ empty"))
    return report("linux-unmodified", cases)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
