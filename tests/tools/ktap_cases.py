# SPDX-License-Identifier: GPL-2.0-only
"""Print a table of check results as one KTAP suite (for tests/tools/)."""


def report(suite, cases):
    """Print @cases, (name, None if passed else why it failed), as the
    KTAP document of one suite named @suite; return the exit status
    (1 if a case failed, else 0)."""
    print("KTAP version 1\n1..1\n    KTAP version 1\n"
          "    # Subtest: %s\n    1..%d" % (suite, len(cases)))
    failed = 0
    for i, (name, why) in enumerate(cases, 1):
        if why:
            failed += 1
            print("    # %s: %s" % (name, why))
        print("    %sok %d %s" % ("not " if why else "", i, name))
    print("%sok 1 %s" % ("not " if failed else "", suite))
    return 1 if failed else 0
