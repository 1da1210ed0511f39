#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""KTAP check: tools/linux_link.py's handling of out-of-tree driver folders.

Usage: check_linux_local.py LINUX_BUILD_DIR SRCDIR

Builds small driver folders in a temporary directory with
linux_link.compile_local against LINUX_BUILD_DIR (tools/linux_build.py's
output, which holds Kbuild's command for lib/ctype.o): a good folder
compiles with KBUILD_MODNAME its driver name and -I its folder, and the
malformed ones are refused with a message saying why; a whole link with
it and a driver whose module init calls a function linux-emu lacks
leaves that driver out, naming the function.  The objects go to
LINUX_BUILD_DIR/local/NAME/ under names no real driver takes
(check-local-*), removed afterwards; the local driver's files are never in
files.tsv (the linux-unmodified suite's list).
"""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ktap_cases import report

GOOD_C = """\
#include <linux/module.h>
#include "check.h"

static int __init check_init(void)
{
	pr_info("%s %d\\n", KBUILD_MODNAME, CHECK_VALUE);
	return 0;
}
module_init(check_init);
MODULE_LICENSE("GPL");
"""


# A module init that calls a function linux-emu does not define.
INIT_STUB_C = """\
#include <linux/fs.h>
#include <linux/module.h>

static int __init check_init(void)
{
	return simple_pin_fs(NULL, NULL, NULL);
}
module_init(check_init);
MODULE_LICENSE("GPL");
"""


def link_case(build, srcdir, root, good):
    """Link the world with the good folder and one whose init calls a
    stub: the good driver is linked, the other left out, named with the
    function its initcall reaches.  None, or what went wrong."""
    stub = folder(root, "initstub", {
        "check-local-initstub.manifest": manifest("check-local-initstub",
                                                  "initstub.c"),
        "initstub.c": INIT_STUB_C})
    emu = sorted(str(p) for p in Path(srcdir, "linux-emu").glob("*.c"))
    out = Path(root, "check-local-link.o")
    done = subprocess.run(
        [sys.executable, str(Path(srcdir, "tools", "linux_link.py")),
         "--build", str(build), "--include",
         str(Path(srcdir, "linux-emu", "include")), "--library", "library",
         "--out", str(out), "--reports", root, "--emu", *emu,
         "--local", str(good), str(stub),
         "--exports", str(Path(srcdir, "linux-emu", "exports.list"))],
        capture_output=True, text=True)
    shutil.rmtree(Path(build, "link", out.stem), ignore_errors=True)
    if done.returncode != 0:
        return f"linux_link failed: {done.stderr.strip()}"
    unlinked = Path(root, "unlinked.txt").read_text()
    expect = ("check-local-initstub: not linked; its initcalls reach "
              "simple_pin_fs")
    if expect not in unlinked:
        return f"expected '{expect}' in unlinked.txt, got: {unlinked!r}"
    if "check-local-good" in unlinked:
        return f"the good driver was left out: {unlinked!r}"
    return None


def manifest(name, sources="good.c"):
    return f"driver: {name}\nkconfig: CONFIG_PCI\nsources: {sources}\n"


def folder(root, name, files):
    d = Path(root, name)
    d.mkdir()
    for f, text in files.items():
        Path(d, f).write_text(text)
    return d


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    build = Path(argv[1]).resolve()
    sys.path.insert(0, str(Path(argv[2], "tools")))
    import linux_link
    from linux_build import BuildError

    good = {"check-local-good.manifest": manifest("check-local-good"),
            "good.c": GOOD_C, "check.h": "#define CHECK_VALUE 4321\n"}
    refused = [
        ("folder_without_a_manifest_is_refused",
         {"good.c": GOOD_C}, "exactly one NAME.manifest (found 0)"),
        ("folder_with_two_manifests_is_refused",
         {"check-local-a.manifest": manifest("check-local-a"),
          "check-local-b.manifest": manifest("check-local-b"),
          "good.c": GOOD_C}, "exactly one NAME.manifest (found 2)"),
        ("manifest_named_unlike_its_driver_is_refused",
         {"check-local-c.manifest": manifest("check-local-other"),
          "good.c": GOOD_C}, "must match the file's name"),
        ("missing_source_is_refused",
         {"check-local-d.manifest": manifest("check-local-d", "absent.c")},
         "no source"),
        ("source_outside_the_folder_is_refused",
         {"check-local-e.manifest": manifest("check-local-e", "../x.c")},
         "bad source"),
        ("missing_header_fails_the_compile",
         {"check-local-f.manifest": manifest("check-local-f"),
          "good.c": GOOD_C}, "compiling"),
    ]
    cases = []
    with tempfile.TemporaryDirectory() as root:
        try:
            d = folder(root, "good", good)
            name, objects = linux_link.compile_local(build, d)
            strings = subprocess.run(["strings", str(objects[0])],
                                     capture_output=True, text=True).stdout
            undefined = Path(build, "local", name,
                             "undefined.txt").read_text().split()
            why = None
            if name != "check-local-good":
                why = f"expected the name check-local-good, got {name}"
            elif "check_local_good" not in strings:
                why = ("expected KBUILD_MODNAME check_local_good in "
                       f"{objects[0]}")
            elif "_printk" not in undefined:
                why = f"expected _printk in undefined.txt, got {undefined}"
            cases.append(("good_folder_compiles_with_its_name_and_headers",
                          why))
            cases.append(("driver_whose_init_reaches_a_stub_is_not_linked",
                          link_case(build, argv[2], root, d)))
        except BuildError as error:
            cases.append(("good_folder_compiles_with_its_name_and_headers",
                          f"expected success, got: {error}"))
        for case, files, expect in refused:
            d = folder(root, case, files)
            try:
                linux_link.compile_local(build, d)
                cases.append((case, f"expected an error with '{expect}', "
                              "it compiled"))
            except BuildError as error:
                cases.append((case, None if expect in str(error) else
                              f"expected '{expect}' in: {error}"))
    for leftover in Path(build, "local").glob("check-local-*"):
        shutil.rmtree(leftover)
    tsv = Path(build, "files.tsv").read_text()
    cases.append(("local_drivers_are_not_in_files_tsv",
                  "expected no tests/drivers file in files.tsv"
                  if "edu.c" in tsv or "check-local" in tsv else None))
    return report("linux-local", cases)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
