#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""KTAP check: docs/mach-interfaces.md lists exactly the routines not served.

Usage: check_mig_docs.py NOT_SERVED_TXT DOC_MD

The build writes NOT_SERVED_TXT (tools/gen_mig_not_served.py); the doc's
section "## Routines not served" lists them as "- `name`" lines.
"""
import re
import sys


def documented(doc):
    """Names in the doc's "Routines not served" section."""
    section = doc.split("## Routines not served", 1)[-1].split("\n## ", 1)[0]
    return set(re.findall(r"^- `([a-z_0-9]+)`$", section, re.M))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    built = set(open(argv[1]).read().split())
    doc = documented(open(argv[2]).read())
    cases = [
        ("every_routine_not_served_is_documented", built - doc,
         "not served but missing from the doc"),
        ("no_documented_routine_is_served", doc - built,
         "listed in the doc but served (or unknown)"),
    ]
    print("KTAP version 1\n1..1\n    KTAP version 1\n"
          "    # Subtest: mig-coverage\n    1..%d" % len(cases))
    failed = 0
    for i, (name, diff, what) in enumerate(cases, 1):
        if diff:
            failed += 1
            print("    # %s: %s" % (what, ", ".join(sorted(diff))))
        print("    %sok %d %s" % ("not " if diff else "", i, name))
    print("%sok 1 mig-coverage" % ("not " if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
