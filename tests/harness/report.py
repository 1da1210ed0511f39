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


SAMPLES_PREFIX = "BENCH-SAMPLES "


def parse_samples(console: str, records: list[dict]
                  ) -> tuple[dict[str, list[list[int]]], list[str]]:
    """Collect the `BENCH-SAMPLES NAME VALUExCOUNT ...` lines of a
    console log (docs/testing.md) for the BENCH `records` parsed from it.

    Returns (samples, errors): for each name whose samples came, its
    [value, count] pairs in ascending order of value, and one message
    per problem: a malformed line, a name no record has, values out of
    order, or counts that do not add up to the record's count.
    """
    counts = {record["name"]: record["count"] for record in records}
    samples: dict[str, list[list[int]]] = {}
    errors = []
    for number, raw in enumerate(console.splitlines(), start=1):
        line = raw.replace("\r", "").strip()
        if not line.startswith(SAMPLES_PREFIX):
            continue
        words = line[len(SAMPLES_PREFIX):].split()
        pairs = [word.split("x") for word in words[1:]]
        if (len(words) < 2 or any(
                len(pair) != 2 or not all(part.isdigit() for part in pair)
                or int(pair[1]) == 0 for pair in pairs)):
            errors.append(f"line {number}: malformed BENCH-SAMPLES line")
            continue
        name = words[0]
        if name not in counts:
            errors.append(f"line {number}: samples of {name!r}, "
                          "which no BENCH line names")
            continue
        have = samples.setdefault(name, [])
        for value, count in ((int(v), int(c)) for v, c in pairs):
            if have and value <= have[-1][0]:
                errors.append(f"line {number}: {name} values not "
                              "ascending")
                break
            have.append([value, count])
    for name, pairs in samples.items():
        total = sum(count for _, count in pairs)
        if total != counts[name]:
            errors.append(f"{name}: {total} samples, its BENCH line "
                          f"counts {counts[name]}")
    return samples, errors


def write_samples(path: Path, samples: dict[str, list[list[int]]]) -> None:
    """Write `samples` (name to [value, count] pairs) as a JSON object
    to `path` (parents are created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(samples, separators=(",", ":")) + "\n")


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
