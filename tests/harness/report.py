# SPDX-License-Identifier: GPL-2.0-only
"""Format suite results, summary.tsv and benchmark (BENCH line) reports."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from ktap import Failure

BENCH_PREFIX = "BENCH "
BENCH_FIELDS = ("name", "unit", "mode", "count", "min", "median", "p99",
                "variance")
BENCH_MODES = ("icount", "wall")


@dataclass
class SuiteResult:
    """Everything reported about one suite run.

    `failures` lists every counted failure (failed == len(failures));
    `reasons` are suite-level lines (verdict reason and details) shown even
    when they were not counted separately.
    """

    name: str
    kind: str
    status: str
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    duration: float = 0.0
    failures: list[Failure] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    suite_dir: str = ""

    def as_json(self) -> dict:
        """Return a JSON-serialisable dict of this result (result.json)."""
        return {"suite": self.name, "kind": self.kind, "status": self.status,
                "passed": self.passed, "failed": self.failed,
                "skipped": self.skipped, "duration": round(self.duration, 3),
                "reasons": self.reasons,
                "failures": [{"case": f.case, "reason": f.reason,
                              "diagnostics": list(f.diagnostics)}
                             for f in self.failures]}


def suite_line(result: SuiteResult) -> str:
    """Return `NAME: P passed, F failed, S skipped (T s)`."""
    return (f"{result.name}: {result.passed} passed, {result.failed} failed, "
            f"{result.skipped} skipped ({result.duration:.1f} s)")


def failure_lines(result: SuiteResult) -> list[str]:
    """Return the indented lines explaining a suite's failures ([] if none).

    Failing cases come with their diagnostic lines; then the suite-level
    reasons (hang and last lines, panic report, bad exit status); then
    where the logs are.
    """
    if not result.failed and not result.reasons:
        return []
    lines = []
    for failure in result.failures:
        lines.append(f"  FAIL {failure.case}: {failure.reason}")
        lines += [f"      {line}" for line in failure.diagnostics]
    for reason in result.reasons:
        lines.append(f"  {reason}")
    if result.suite_dir:
        lines.append(f"  logs: {result.suite_dir}/")
    return lines


def final_line(passed: int, failed: int) -> str:
    """Return the last line of a run: `N passed, N failed`."""
    return f"{passed} passed, {failed} failed"


def write_summary(path: Path, results: list[SuiteResult]) -> None:
    """Write summary.tsv: a header, then suite, passed, failed, skipped."""
    rows = ["suite\tpassed\tfailed\tskipped"]
    rows += [f"{r.name}\t{r.passed}\t{r.failed}\t{r.skipped}"
             for r in results]
    path.write_text("\n".join(rows) + "\n")


def _is_number(value) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def check_bench(record) -> str | None:
    """Return why a decoded BENCH record is invalid, or None if valid.

    Valid: a JSON object with every BENCH_FIELDS key; name and unit
    non-empty strings; mode one of BENCH_MODES; count a positive integer;
    min <= median <= p99 numbers; variance a number >= 0.
    """
    if not isinstance(record, dict):
        return "not a JSON object"
    missing = [key for key in BENCH_FIELDS if key not in record]
    if missing:
        return f"missing field(s) {', '.join(missing)}"
    for key in ("name", "unit"):
        if not isinstance(record[key], str) or not record[key]:
            return f"{key} must be a non-empty string"
    if record["mode"] not in BENCH_MODES:
        return f"mode must be one of {', '.join(BENCH_MODES)}"
    count = record["count"]
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        return "count must be a positive integer"
    for key in ("min", "median", "p99", "variance"):
        if not _is_number(record[key]):
            return f"{key} must be a number"
    if not record["min"] <= record["median"] <= record["p99"]:
        return "expected min <= median <= p99"
    if record["variance"] < 0:
        return "variance must be >= 0"
    return None


def parse_bench(console: str) -> tuple[list[dict], list[str]]:
    """Collect the `BENCH {json}` lines of a console log.

    Returns (records, errors): the valid records in order, and one message
    per malformed line (line number, reason). Duplicate names are errors.
    """
    records, errors, names = [], [], set()
    for number, raw in enumerate(console.splitlines(), start=1):
        line = raw.replace("\r", "").strip()
        if not line.startswith(BENCH_PREFIX):
            continue
        try:
            record = json.loads(line[len(BENCH_PREFIX):])
        except json.JSONDecodeError as error:
            errors.append(f"line {number}: bad JSON ({error.msg})")
            continue
        problem = check_bench(record)
        if problem is None and record["name"] in names:
            problem = f"duplicate name {record['name']!r}"
        if problem:
            errors.append(f"line {number}: {problem}")
            continue
        names.add(record["name"])
        records.append({key: record[key] for key in BENCH_FIELDS})
    return records, errors


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def bench_table(records: list[dict]) -> list[str]:
    """Return an aligned text table of BENCH records, header first."""
    rows = [list(BENCH_FIELDS)]
    rows += [[_cell(record[key]) for key in BENCH_FIELDS]
             for record in records]
    widths = [max(len(row[col]) for row in rows)
              for col in range(len(BENCH_FIELDS))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1]),
                 row[2].ljust(widths[2])]
        cells += [cell.rjust(width) for cell, width in zip(row[3:],
                                                            widths[3:])]
        lines.append("  ".join(cells).rstrip())
    return lines


def write_bench(path: Path, records: list[dict]) -> None:
    """Write `records` as a JSON list to `path` (parents are created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records, indent=2) + "\n")
