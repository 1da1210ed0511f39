#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""KTAP check: manifests with shared code (drivers-linux/shared/, `uses:`).

Usage: check_linux_manifests.py LINUX_BUILD_DIR SRCDIR

Table cases over manifests written to a temporary folder: how
tools/linux_build.py reads `shared:` and `uses:`, orders what a driver
uses, and refuses a name no shared manifest has, a cycle, and a Linux
source two manifests list.  Then the real build: every manifest of
drivers-linux/ passes the same checks, and in what tools/linux_link.py
linked (LINUX_BUILD_DIR/link/linux/initcalls.c, objects.sha256) each
shared entry comes before the drivers that use it and no object is
linked twice.
"""
import re
import sys
import tempfile
from pathlib import Path

from ktap_cases import report


def write(root, name, text):
    path = Path(root, f"{name}.manifest")
    path.write_text(text)
    return path


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    build, src = Path(argv[1]).resolve(), Path(argv[2]).resolve()
    sys.path.insert(0, str(src / "tools"))
    from linux_build import (BuildError, read_manifest, sources_once,
                             uses_closure)

    cases = []

    def refused(case, texts, expect, check):
        with tempfile.TemporaryDirectory() as root:
            try:
                ms = [read_manifest(write(root, n, t)) for n, t in texts]
                check(ms)
                cases.append((case, f"expected an error with '{expect}', "
                              "none came"))
            except BuildError as error:
                cases.append((case, None if expect in str(error) else
                              f"expected '{expect}' in: {error}"))

    with tempfile.TemporaryDirectory() as root:
        ms = [read_manifest(write(root, n, t)) for n, t in (
            ("drv", "driver: drv\nuses: mid\nsources: d.c\n"),
            ("mid", "shared: mid\nuses: base\nsources: m.c\n"),
            ("base", "shared: base\nsources: b.c\n"))]
        kinds = [(m.name, m.shared) for m in ms]
        cases.append(("shared_manifest_reads_as_shared",
                      None if kinds == [("drv", False), ("mid", True),
                                        ("base", True)]
                      else f"expected drv, mid, base shared, got {kinds}"))
        closure = uses_closure(ms)
        cases.append(("uses_come_after_what_they_use",
                      None if closure == {"drv": ["base", "mid"],
                                          "mid": ["base"]}
                      else f"expected drv: base, mid; got {closure}"))
    refused("unknown_shared_name_is_refused",
            [("drv", "driver: drv\nuses: nothing\nsources: d.c\n")],
            "which no 'shared:' manifest names", uses_closure)
    refused("cycle_is_refused",
            [("a", "shared: a\nuses: b\nsources: a.c\n"),
             ("b", "shared: b\nuses: a\nsources: b.c\n"),
             ("drv", "driver: drv\nuses: a\nsources: d.c\n")],
            "use each other", uses_closure)
    refused("driver_and_shared_at_once_is_refused",
            [("x", "driver: x\nshared: x\nsources: x.c\n")],
            "must name what the manifest builds", lambda ms: None)
    refused("source_in_two_manifests_is_refused",
            [("a", "driver: a\nsources: drivers/ata/libata-core.c\n"),
             ("b", "driver: b\nsources: drivers/ata/libata-core.c\n")],
            "move it to a shared manifest", sources_once)

    real = sorted((src / "drivers-linux").glob("*.manifest")) + \
        sorted((src / "drivers-linux/shared").glob("*.manifest")) + \
        [src / "linux-emu/library.manifest"]
    try:
        ms = [read_manifest(p) for p in real]
        sources_once(ms)
        uses_closure(ms)
        cases.append(("real_manifests_list_each_source_once", None))
    except BuildError as error:
        cases.append(("real_manifests_list_each_source_once", str(error)))

    table = (build / "link/linux/initcalls.c").read_text()
    entries = re.findall(r'^\t\{ "([^"]+)", calls_(\d+), \d+, uses_(\d+), '
                         r'(\d) \},$', table, re.M)
    uses = {i: [int(u) for u in re.findall(r"\d+", body)]
            for i, body in re.findall(r"static const short uses_(\d+)\[\] "
                                      r"= \{ ([^}]*)-1 \};", table)}
    why = None if entries else "no entries in the generated table"
    for n, (name, _, u, shared) in enumerate(entries):
        late = [x for x in uses.get(u, []) if x >= n or
                entries[x][3] != "1"]
        if late:
            why = f"{name} uses entries {late}: not shared ones before it"
    cases.append(("shared_entries_come_before_their_users", why))
    sums = (build / "objects.sha256").read_text().split("\n")
    paths = [line.split("  ", 1)[1] for line in sums if line]
    twice = sorted({p for p in paths if paths.count(p) > 1})
    cases.append(("no_object_is_linked_twice",
                  f"linked twice: {twice}" if twice else None))
    return report("linux-manifests", cases)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
