#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run Graft's test suites (`make check`) and report `N passed, N failed`."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import shlex
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import boot  # noqa: E402
import ktap  # noqa: E402
import report  # noqa: E402
import suites as suite_table  # noqa: E402
from ktap import Failure  # noqa: E402

KERNEL = Path("kernel") / "graft.elf"
BENCH_SUITE = "bench"
STRESS_PREFIX = "stress-"


@dataclass(frozen=True)
class Context:
    """Where things are for one run: directories and emulator commands."""

    build_dir: Path
    srcdir: Path
    results_dir: Path
    qemu: str
    bochs: str


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Parse run.py's command line; exits 2 on a usage error."""
    parser = argparse.ArgumentParser(
        description="Run Graft's test suites; the last line printed is "
        "'N passed, N failed'.")
    parser.add_argument("--build-dir", type=Path, required=True,
                        help="the build directory (has kernel/graft.elf)")
    parser.add_argument("--srcdir", type=Path,
                        default=Path(__file__).resolve().parents[2],
                        help="the source tree (default: this file's)")
    parser.add_argument("--results-dir", type=Path,
                        help="where per-suite logs and summary.tsv go "
                        "(default: BUILD/tests)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--suites", help="comma-separated suite names "
                       "(default: every suite that is not hidden)")
    group.add_argument("--list", action="store_true",
                       help="list the suites and exit")
    parser.add_argument("--bench", action="store_true",
                        help="run the benchmarks (with --suites: those "
                        "of them named) and write BUILD/bench/"
                        "results.json and samples.json")
    group.add_argument("--stress", action="store_true",
                       help="run the stress suites (stress-*, long fuzz "
                       "runs from many seeds)")
    parser.add_argument("--qemu", default=os.environ.get(
        "GRAFT_QEMU", "qemu-system-x86_64"),
        help="QEMU command (default: $GRAFT_QEMU or qemu-system-x86_64)")
    parser.add_argument("--bochs", default=os.environ.get("GRAFT_BOCHS",
                                                          "bochs"),
                        help="Bochs command (default: $GRAFT_BOCHS or bochs)")
    args = parser.parse_args(argv)
    if args.bench and (args.list or args.stress):
        parser.error("--bench goes with neither --list nor --stress")
    return args


def host_argv(suite, ctx: Context, suite_dir: Path) -> list[str]:
    """Return the argv of a host or selftest suite, placeholders filled.

    {python}, {srcdir}, {builddir} and {suitedir} are replaced; a relative
    argv[0] containing '/' is made relative to the build dir.
    """
    values = {"python": sys.executable, "srcdir": str(ctx.srcdir),
              "builddir": str(ctx.build_dir), "suitedir": str(suite_dir)}
    argv = [word.format(**values) for word in suite.argv]
    if "/" in argv[0] and not os.path.isabs(argv[0]):
        argv[0] = str(ctx.build_dir / argv[0])
    return argv


def run_host(suite, ctx: Context, suite_dir: Path):
    """Run a host/selftest suite; return (verdict, ran) like the boots."""
    argv = host_argv(suite, ctx, suite_dir)
    (suite_dir / "command.txt").write_text(
        f"cd {shlex.quote(str(ctx.build_dir))} && {shlex.join(argv)}\n")
    console = suite_dir / "console.log"
    console.write_bytes(b"")
    if "/" in argv[0] and not Path(argv[0]).is_file():
        return boot.Verdict("not-run", f"no program {argv[0]} (not built?)"), \
            False
    try:
        outcome = boot.run_process(argv, cwd=ctx.build_dir, stdout=console,
                                   stderr=suite_dir / "stderr.log",
                                   timeout=suite.timeout)
    except boot.BootError as error:
        return boot.Verdict("not-run", str(error)), False
    verdict = boot.classify_host(outcome.returncode, outcome.timed_out,
                                 boot.read_text(suite_dir / "stderr.log"),
                                 suite.timeout)
    return verdict, True


def run_guest(suite, ctx: Context, suite_dir: Path):
    """Boot a qemu or bochs suite; return (verdict, ran)."""
    kernel = ctx.build_dir / KERNEL
    # Module paths may name the build directory: "{builddir}/tests/...".
    suite = dataclasses.replace(suite, modules=tuple(
        (path.format(builddir=ctx.build_dir), args)
        for path, args in suite.modules))
    if suite.kind == suite_table.QEMU:
        verdict, outcome = boot.boot_qemu(ctx.qemu, kernel, suite, suite_dir)
    else:
        verdict, outcome = boot.boot_bochs(ctx.bochs, kernel, ctx.srcdir,
                                           suite, suite_dir)
    return verdict, outcome is not None


def combine(name: str, kind: str, verdict: boot.Verdict,
            document: ktap.Document | None) -> report.SuiteResult:
    """Merge a run's verdict with its KTAP counts into a SuiteResult (pure).

    document is None when nothing ran. A bad verdict is one more failure,
    except "fail" (the guest/program said fail) when KTAP already has a
    failing case; "no KTAP output" is not counted on top of a bad verdict.
    """
    result = report.SuiteResult(name=name, kind=kind, status=verdict.status)
    if document is not None:
        counts = ktap.tally(document)
        if not verdict.ok and document.root is None:
            counts = ktap.Tally()
        result.passed, result.skipped = counts.passed, counts.skipped
        result.failures = list(counts.failures)
    if not verdict.ok:
        message = f"{verdict.status}: {verdict.reason}"
        if verdict.status == "fail" and result.failures:
            result.reasons = [f"({message})"] + list(verdict.details)
        else:
            result.failures.append(Failure(name, message, verdict.details))
    result.failed = len(result.failures)
    return result


def add_host_checks(result: report.SuiteResult,
                    cases: list[tuple[str, str | None]]) -> None:
    """Count a suite's host-side cases (its `check` hook's (case, problem)
    pairs) in `result`: passed when problem is None, else failed."""
    for case, problem in cases:
        if problem is None:
            result.passed += 1
        else:
            result.failures.append(Failure(f"{result.name}.host.{case}",
                                           problem))
    result.failed = len(result.failures)


def fresh_dir(path: Path) -> Path:
    """Empty (or create) the directory `path` and return it."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.mkdir(parents=True)
    return path


def run_suite(suite, ctx: Context) -> report.SuiteResult:
    """Run one suite and keep its files in RESULTS/<name>/.

    Files: console.log, ktap.txt, command.txt, result.json (plus what the
    kind adds: stderr.log, bochs.log, modules, ISO...). Returns its result;
    problems of the suite itself are reported as failures, never raised.
    """
    start = time.monotonic()
    suite_dir = fresh_dir(ctx.results_dir / suite.name)
    try:
        if suite.prepare is not None:
            suite = suite.prepare(suite, suite_dir)
        if suite.kind in (suite_table.HOST, suite_table.SELFTEST):
            verdict, ran = run_host(suite, ctx, suite_dir)
        elif suite.kind in (suite_table.QEMU, suite_table.BOCHS):
            verdict, ran = run_guest(suite, ctx, suite_dir)
        else:
            verdict, ran = boot.Verdict("not-run", f"unknown kind "
                                        f"{suite.kind!r}"), False
    except OSError as error:
        verdict, ran = boot.Verdict("not-run", f"setup failed: {error}"), False
    document = None
    if ran:
        document = ktap.parse(boot.read_text(suite_dir / "console.log"))
    (suite_dir / "ktap.txt").write_text(document.text if document else "")
    result = combine(suite.name, suite.kind, verdict, document)
    if ran and suite.check is not None:
        add_host_checks(result, suite.check(suite, suite_dir))
    result.duration = time.monotonic() - start
    result.suite_dir = str(suite_dir)
    (suite_dir / "result.json").write_text(
        json.dumps(result.as_json(), indent=2) + "\n")
    return result


def print_result(result: report.SuiteResult, out) -> None:
    """Print a suite's summary line and, if any, its failure details."""
    print(report.suite_line(result), file=out)
    for line in report.failure_lines(result):
        print(line, file=out)
    out.flush()


def add_bench(result: report.SuiteResult, records: list[dict],
              samples: dict[str, list[list[int]]]) -> list[str]:
    """Check a bench suite's BENCH and BENCH-SAMPLES lines and add them
    to `records` and `samples`.

    Malformed lines, no BENCH line at all, a name an earlier bench suite
    gave already, or samples that do not match their BENCH line become
    failures of `result`. Returns the lines to print: the suite's table.
    """
    console = boot.read_text(Path(result.suite_dir) / "console.log")
    mine, errors = report.parse_bench(console)
    if not mine and not errors:
        errors = ["no BENCH line"]
    seen = {record["name"] for record in records}
    errors += [f"duplicate name {record['name']} (an earlier bench suite)"
               for record in mine if record["name"] in seen]
    mine_samples, sample_errors = report.parse_samples(console, mine)
    for error in errors + sample_errors:
        result.failures.append(Failure(result.name, f"BENCH: {error}"))
    result.failed = len(result.failures)
    records.extend(mine)
    samples.update(mine_samples)
    return report.bench_table(mine) if mine else []


def write_bench(results: list[report.SuiteResult], records: list[dict],
                samples: dict[str, list[list[int]]],
                ctx: Context) -> list[str]:
    """Write BUILD/bench/results.json from every bench suite's `records`
    and BUILD/bench/samples.json from their `samples` when none of
    `results` failed (else remove both); the lines to print."""
    bench = ctx.build_dir / "bench"
    paths = (bench / "results.json", bench / "samples.json")
    if records and all(result.failed == 0 for result in results):
        report.write_bench(paths[0], records)
        report.write_samples(paths[1], samples)
        return [f"wrote {paths[0]} and {paths[1].name}"]
    for path in paths:
        if path.exists():
            path.unlink()
    return []


STRESS_INJECT_PREFIX = "stress-fault-inject-"
STRESS_COUNTS = ("faults", "crashes", "hangs", "failing", "restarts",
                 "calls_sent_again", "calls_checked", "calls_repeated",
                 "wrong_data_caught",
                 "requests",
                 "client_errors", "client_wrong_data", "sectors_lost",
                 "sectors_stray")


def write_stress(results: list[report.SuiteResult],
                 ctx: Context) -> list[str]:
    """Write BUILD/stress/results.json from the fault campaigns among
    `results`: each boot's FAULT-INJECT counts (the kernel suite's line),
    a disk campaign's image counts (suites.disk_rounds_image), the kernel
    panics its console shows, whether it passed, and the totals; the lines to print (none if no campaign ran)."""
    boots = []
    for result in results:
        if not result.name.startswith(STRESS_INJECT_PREFIX):
            continue
        console = boot.read_text(Path(result.suite_dir) / "console.log")
        found = re.search(r"^FAULT-INJECT (\{[^\r\n]*\})", console, re.M)
        counts = json.loads(found.group(1)) if found else {}
        image = Path(result.suite_dir) / "image.json"
        if image.exists():
            counts.update(json.loads(image.read_text()))
        boots.append({"suite": result.name,
                      "passed": result.failed == 0 and result.passed > 0,
                      "kernel_panics": console.count("*** PANIC"),
                      **counts})
    if not boots:
        return []
    totals = {key: sum(b.get(key, 0) for b in boots)
              for key in STRESS_COUNTS + ("kernel_panics",)}
    path = ctx.build_dir / "stress" / "results.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"boots": boots, "totals": totals},
                               indent=2) + "\n")
    return [f"fault campaigns: {json.dumps(totals)}", f"wrote {path}"]


def bench_suites(suites) -> list[str]:
    """The names of the bench suites: BENCH_SUITE and every bench-*."""
    return [suite.name for suite in suites if suite.name == BENCH_SUITE
            or suite.name.startswith(BENCH_SUITE + "-")]


def stress_suites(suites) -> list[str]:
    """The names of the stress suites: every stress-*."""
    return [suite.name for suite in suites
            if suite.name.startswith(STRESS_PREFIX)]


def main(argv: list[str] | None = None, suites=suite_table.SUITES,
         out=None) -> int:
    """Run the harness; return the exit status.

    0 iff no failure and at least one case ran; 1 otherwise; 2 for usage
    errors and unknown suite names (the known ones are listed).
    """
    if out is None:
        out = sys.stdout
        if hasattr(out, "reconfigure"):
            out.reconfigure(errors="backslashreplace")
    args = parse_args(argv)
    if args.list:
        for suite in suites:
            hidden = "\thidden" if suite.hidden else ""
            print(f"{suite.name}\t{suite.kind}{hidden}", file=out)
        return 0
    names = None
    if args.bench:
        names = bench_suites(suites)
        if args.suites is not None:
            wanted = [name.strip() for name in args.suites.split(",")
                      if name.strip()]
            others = [name for name in wanted if name not in names]
            if others or not wanted:
                print("run.py: --bench --suites names no bench suite"
                      if not wanted else "run.py: not bench suites: "
                      + ", ".join(others), file=sys.stderr)
                return 2
            names = wanted
    elif args.stress:
        names = stress_suites(suites)
        if not names:
            print("run.py: no stress suite", file=sys.stderr)
            return 2
    elif args.suites is not None:
        names = [name.strip() for name in args.suites.split(",")
                 if name.strip()]
        if not names:
            print("run.py: --suites names no suite", file=sys.stderr)
            return 2
    try:
        selected = suite_table.select(names, suites)
    except KeyError as error:
        known = ", ".join(suite.name for suite in suites)
        print(f"run.py: unknown suite(s): {', '.join(error.args[0])}\n"
              f"known suites: {known}", file=sys.stderr)
        return 2
    build_dir = args.build_dir.resolve()
    ctx = Context(build_dir=build_dir, srcdir=args.srcdir.resolve(),
                  results_dir=(args.results_dir or build_dir / "tests")
                  .resolve(), qemu=args.qemu, bochs=args.bochs)
    ctx.results_dir.mkdir(parents=True, exist_ok=True)
    results = []
    records: list[dict] = []
    samples: dict[str, list[list[int]]] = {}
    for suite in selected:
        result = run_suite(suite, ctx)
        table = add_bench(result, records, samples) if args.bench else []
        results.append(result)
        print_result(result, out)
        for line in table:
            print(line, file=out)
    if args.bench:
        for line in write_bench(results, records, samples, ctx):
            print(line, file=out)
    for line in write_stress(results, ctx):
        print(line, file=out)
    report.write_summary(ctx.results_dir / "summary.tsv", results)
    passed = sum(result.passed for result in results)
    failed = sum(result.failed for result in results)
    if passed + failed == 0:
        print("no test ran", file=out)
    print(report.final_line(passed, failed), file=out)
    out.flush()
    return 0 if failed == 0 and passed + failed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
