# SPDX-License-Identifier: GPL-2.0-only
"""Parse, count and write KTAP version 1 (the format of docs/testing.md)."""

from __future__ import annotations

import contextlib
import io
import re
import traceback
import unittest
from dataclasses import dataclass, field

# Directives that turn a result into something other than pass/fail.
SKIP = "SKIP"
TODO = "TODO"
XFAIL = "XFAIL"
DIRECTIVES = (SKIP, TODO, XFAIL, "TIMEOUT", "ERROR")
# A "not ok" carrying one of these is not a failure.
NOT_A_FAILURE = (SKIP, TODO, XFAIL)

EXIT_PREFIX = "GRAFT-EXIT:"

_VERSION = re.compile(r"KTAP version (\S+)$")
_SUBTEST = re.compile(r"# Subtest:\s*(.*)$")
_PLAN_LIKE = re.compile(r"\d+\.\.")
_PLAN = re.compile(r"1\.\.(\d+)(\s+#.*)?$")
_RESULT_LIKE = re.compile(r"(not ok|ok)(\s|$)")
_RESULT = re.compile(r"(not ok|ok)\s+(\d+)(?:\s+(?:-\s+)?([^#]*?))?\s*(?:#\s*(.*))?$")


@dataclass
class Result:
    """One result line (`ok N name # DIRECTIVE reason`) of a test.

    `seen` is False for a subtest whose result line never came (truncated
    output); such a result only carries its `subtest`.
    """

    ok: bool
    number: int
    name: str
    directive: str = ""
    reason: str = ""
    diagnostics: list[str] = field(default_factory=list)
    line: int = 0
    subtest: Test | None = None
    seen: bool = True


@dataclass
class Test:
    """A KTAP document or subtest: its plan, results and structural errors."""

    name: str
    indent: int
    line: int
    plan: int | None = None
    plan_bad: bool = False
    results: list[Result] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    trailing: list[str] = field(default_factory=list)
    pending_diagnostics: list[str] = field(default_factory=list)
    pending_child: Test | None = None
    numbering_reported: bool = False


@dataclass
class Document:
    """The KTAP part of a console: `root` is None when there was none.

    `text` holds the recognised KTAP lines (what ktap.txt keeps), re-indented
    relative to the version line.
    """

    root: Test | None
    text: str


@dataclass(frozen=True)
class Failure:
    """One counted failure: a case path (`suite.case`) and why it failed."""

    case: str
    reason: str
    diagnostics: tuple[str, ...] = ()


@dataclass
class Tally:
    """Leaf-case counts of a document plus the list of failures."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: list[Failure] = field(default_factory=list)

    def fail(self, case: str, reason: str, diagnostics=()) -> None:
        """Count one failure of `case` for `reason`."""
        self.failed += 1
        self.failures.append(Failure(case, reason, tuple(diagnostics)))

    def add(self, other: Tally) -> None:
        """Add the counts and failures of `other` to this tally."""
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.failures.extend(other.failures)


def _split_line(raw: str) -> tuple[int, str]:
    """Return (indentation, content) of one console line."""
    line = raw.replace("\r", "").rstrip().expandtabs(8)
    content = line.lstrip()
    return len(line) - len(content), content


class _Parser:
    """Line-by-line state machine behind parse(); not part of the API."""

    def __init__(self, header_indent: int, header_line: int):
        self.root = Test(name="", indent=header_indent, line=header_line)
        self.stack = [self.root]
        self.kept: list[str] = ["KTAP version 1"]

    def keep(self, indent: int, content: str) -> None:
        """Remember a KTAP line for ktap.txt, relative to the header."""
        self.kept.append(" " * max(indent - self.root.indent, 0) + content)

    def resolve_orphan(self, parent: Test) -> None:
        """A pending subtest of `parent` will never get its result line."""
        child = parent.pending_child
        if child is None:
            return
        parent.pending_child = None
        parent.results.append(Result(ok=False, number=len(parent.results) + 1,
                                     name=child.name, line=child.line,
                                     subtest=child, seen=False))
        parent.errors.append(f"subtest {child.name or '(unnamed)'} "
                             f"(line {child.line}) has no result line")

    def close_deeper(self, indent: int) -> None:
        """Close every open subtest indented deeper than `indent`."""
        while len(self.stack) > 1 and self.stack[-1].indent > indent:
            child = self.stack.pop()
            self.resolve_orphan(child)
            parent = self.stack[-1]
            self.resolve_orphan(parent)
            parent.pending_child = child

    def open_child(self, indent: int, number: int, name: str = "") -> Test:
        """Open a subtest of the innermost open test; return it."""
        parent = self.stack[-1]
        self.resolve_orphan(parent)
        child = Test(name=name, indent=indent, line=number)
        self.stack.append(child)
        return child

    def node_at(self, indent: int, number: int) -> Test:
        """The open test owning a structural line at `indent`.

        Deeper subtests are closed; a line deeper than every open test opens
        an implicit (unnamed, header-less) subtest.
        """
        self.close_deeper(indent)
        if self.stack[-1].indent < indent:
            return self.open_child(indent, number)
        return self.stack[-1]

    def diagnostic_target(self, indent: int) -> Test:
        """The innermost open test not deeper than a '#' line at indent."""
        for test in reversed(self.stack):
            if test.indent <= indent:
                return test
        return self.root

    def version(self, indent: int, content: str, number: int) -> bool:
        """Handle a version line; return False when the document ends."""
        if indent <= self.root.indent:
            self.root.errors.append(
                f"line {number}: a second '{content}' header (did the "
                "machine restart?); the rest is ignored")
            return False
        self.close_deeper(indent - 1)
        self.open_child(indent, number)
        self.keep(indent, content)
        return True

    def subtest(self, indent: int, name: str, number: int) -> None:
        """Handle '# Subtest: name': name a fresh test or open one."""
        top = self.stack[-1]
        fresh = not top.name and top.plan is None and not top.plan_bad \
            and not top.results
        if top.indent == indent and fresh:
            top.name = name
        elif indent > self.root.indent:
            self.close_deeper(indent - 1)
            self.open_child(indent, number, name)
        else:
            self.diagnostic_target(indent).pending_diagnostics.append(
                f"# Subtest: {name}")
        self.keep(indent, f"# Subtest: {name}")

    def plan(self, indent: int, content: str, number: int) -> None:
        """Handle a plan-like line ('1..N' or a malformed one)."""
        test = self.node_at(indent, number)
        self.resolve_orphan(test)
        self.keep(indent, content)
        match = _PLAN.match(content)
        if test.plan is not None or test.plan_bad:
            test.errors.append(f"line {number}: second plan '{content}'")
            return
        if not match:
            test.plan_bad = True
            test.errors.append(f"line {number}: malformed plan '{content}'")
            return
        test.plan = int(match.group(1))
        if test.results:
            test.errors.append(f"line {number}: plan '{content}' comes after "
                               "results")

    def result(self, indent: int, content: str, number: int) -> None:
        """Handle an 'ok'/'not ok' line; it closes a pending subtest."""
        test = self.node_at(indent, number)
        self.keep(indent, content)
        match = _RESULT.match(content)
        if not match:
            test.errors.append(f"line {number}: malformed result line "
                               f"'{content}'")
            return
        ok = match.group(1) == "ok"
        directive, reason = _directive(match.group(4) or "")
        res = Result(ok=ok, number=int(match.group(2)),
                     name=(match.group(3) or "").strip(), directive=directive,
                     reason=reason, diagnostics=test.pending_diagnostics,
                     line=number)
        test.pending_diagnostics = []
        if test.pending_child is not None:
            res.subtest = test.pending_child
            test.pending_child = None
            if not res.subtest.name:
                res.subtest.name = res.name
        expected = len(test.results) + 1
        if res.number != expected and not test.numbering_reported:
            test.numbering_reported = True
            test.errors.append(f"line {number}: result number {res.number}, "
                               f"expected {expected}")
        test.results.append(res)

    def diagnostic(self, indent: int, content: str) -> None:
        """Queue a '#' line for the next result of its test."""
        self.diagnostic_target(indent).pending_diagnostics.append(content)
        self.keep(indent, content)

    def finish(self) -> None:
        """Close everything at the end of the document and check plans."""
        self.close_deeper(-1)
        self.resolve_orphan(self.root)
        _check_plans(self.root)


def _directive(text: str) -> tuple[str, str]:
    """Split the text after '#' of a result line into (DIRECTIVE, reason)."""
    text = text.strip()
    word, _, rest = text.partition(" ")
    if word.upper() in DIRECTIVES:
        return word.upper(), rest.strip()
    return "", text


def _check_plans(test: Test) -> None:
    """Add missing-plan and plan-count errors to `test` and its subtests."""
    for res in test.results:
        if res.subtest is not None:
            _check_plans(res.subtest)
    if test.pending_diagnostics:
        test.trailing.extend(test.pending_diagnostics)
        test.pending_diagnostics = []
    if test.plan is None:
        if not test.plan_bad:
            test.errors.append("missing plan (no '1..N' line)")
    elif test.plan != len(test.results):
        test.errors.append(f"plan says {test.plan} results, saw "
                           f"{len(test.results)}")


def find_header(lines: list[str]) -> int | None:
    """Return the index of the first 'KTAP version 1' line, or None."""
    for index, raw in enumerate(lines):
        _, content = _split_line(raw)
        match = _VERSION.match(content)
        if match and match.group(1) == "1":
            return index
    return None


def parse(text: str) -> Document:
    """Parse the first KTAP version 1 document of a console log.

    Lines before 'KTAP version 1' are ignored; the document ends at a
    'GRAFT-EXIT:' line or at the end of `text`. Lines that are not KTAP
    (kernel messages, BENCH lines, panic reports) are ignored wherever they
    are. Never raises on bad input: problems become `errors` of the tests.
    Returns a Document whose root is None when no header was found.
    """
    lines = text.split("\n")
    start = find_header(lines)
    if start is None:
        return Document(root=None, text="")
    indent, _ = _split_line(lines[start])
    parser = _Parser(indent, start + 1)
    for index in range(start + 1, len(lines)):
        number = index + 1
        indent, content = _split_line(lines[index])
        if not content:
            continue
        if content.startswith(EXIT_PREFIX):
            break
        if _VERSION.match(content):
            if not parser.version(indent, content, number):
                break
        elif (match := _SUBTEST.match(content)):
            parser.subtest(indent, match.group(1).strip(), number)
        elif _PLAN_LIKE.match(content):
            parser.plan(indent, content, number)
        elif _RESULT_LIKE.match(content):
            parser.result(indent, content, number)
        elif content.startswith("#"):
            parser.diagnostic(indent, content)
    parser.finish()
    return Document(root=parser.root, text="\n".join(parser.kept) + "\n")


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else (name or "(unnamed)")


def _tally_test(test: Test, path: str) -> Tally:
    tally = Tally()
    for error in test.errors:
        tally.fail(path or "(KTAP)", error)
    for res in test.results:
        case = _join(path, res.name)
        sub = res.subtest
        if sub is not None:
            inner = _tally_test(sub, case)
            tally.add(inner)
            if sub.results:
                if (res.seen and not res.ok
                        and res.directive not in NOT_A_FAILURE
                        and inner.failed == 0):
                    tally.fail(case, "reported not ok but none of its cases "
                               "failed", res.diagnostics)
                continue
        if not res.seen:
            continue
        if res.directive == SKIP or (not res.ok and
                                     res.directive in NOT_A_FAILURE):
            tally.skipped += 1
        elif res.ok:
            tally.passed += 1
        else:
            reason = "not ok"
            if res.directive or res.reason:
                reason += " # " + " ".join(
                    part for part in (res.directive, res.reason) if part)
            tally.fail(case, reason, res.diagnostics)
    return tally


def tally(document: Document) -> Tally:
    """Count the leaf cases of `document` (passed, failed, skipped).

    A case with children is not itself counted, but a "not ok" case whose
    children all passed is one failure. Every structural error (missing or
    malformed plan, wrong count, missing result line, ...) is one failure. A
    document without KTAP counts one failure "no KTAP output". "not ok" with
    SKIP, TODO or XFAIL counts as skipped; "ok" with TODO or XFAIL as passed.
    """
    if document.root is None:
        result = Tally()
        result.fail("(KTAP)", "no KTAP output")
        return result
    return _tally_test(document.root, "")


class KtapWriter:
    """Write one KTAP document (optionally with one level of subtests)."""

    def __init__(self, stream):
        """Write to `stream` (any object with write() and flush())."""
        self.stream = stream
        self.indent = ""

    def line(self, text: str) -> None:
        """Write `text` at the current indentation and flush."""
        self.stream.write(f"{self.indent}{text}\n")
        self.stream.flush()

    def header(self, plan: int, subtest: str | None = None) -> None:
        """Write a version line, an optional '# Subtest:' line and a plan."""
        self.line("KTAP version 1")
        if subtest is not None:
            self.line(f"# Subtest: {subtest}")
        self.line(f"1..{plan}")

    def diagnostic(self, text: str) -> None:
        """Write each line of `text` as a '# ' diagnostic line."""
        for part in str(text).splitlines() or [""]:
            self.line(f"# {part}".rstrip())

    def result(self, ok: bool, number: int, name: str, directive: str = "",
               reason: str = "") -> None:
        """Write `ok|not ok NUMBER NAME [# DIRECTIVE reason]`."""
        name = name.replace("#", "_")
        text = f"{'ok' if ok else 'not ok'} {number} {name}"
        if directive or reason:
            text += " # " + " ".join(p for p in (directive, reason) if p)
        self.line(text)

    def enter(self) -> None:
        """Indent what follows by four spaces (start of a subtest)."""
        self.indent += "    "

    def leave(self) -> None:
        """Undo one enter()."""
        self.indent = self.indent[:-4]


class _KtapResult(unittest.TestResult):
    """unittest result that prints one KTAP case per finished test."""

    def __init__(self, writer: KtapWriter, captured: io.StringIO):
        super().__init__()
        self.writer = writer
        self.captured = captured
        self.number = 0
        self.outcome: tuple[bool, str, list[str]] = (True, "", [])

    def startTest(self, test):
        super().startTest(test)
        self.outcome = (True, "", [])

    def _set(self, ok, directive="", lines=()):
        old_ok, old_directive, old_lines = self.outcome
        self.outcome = (old_ok and ok, directive or old_directive,
                        old_lines + list(lines))

    def _error_lines(self, err) -> list[str]:
        return "".join(traceback.format_exception(*err)).splitlines()

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._set(False, lines=self._error_lines(err))

    def addError(self, test, err):
        super().addError(test, err)
        self._set(False, lines=self._error_lines(err))

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._set(False, lines=[str(subtest)] + self._error_lines(err))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._set(True, f"{SKIP} {reason}")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._set(False, f"{XFAIL} expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._set(False, lines=["unexpected success"])

    def stopTest(self, test):
        super().stopTest(test)
        self.number += 1
        ok, directive, lines = self.outcome
        output = self.captured.getvalue()
        self.captured.seek(0)
        self.captured.truncate()
        lines = output.splitlines() + lines
        if not ok and not directive.startswith(XFAIL):
            for line in lines:
                self.writer.diagnostic(line)
        name = getattr(test, "_testMethodName", str(test))
        if name.startswith("test_"):
            name = name[len("test_"):]
        self.writer.result(ok, self.number, name, *(directive.split(" ", 1)
                                                    if directive else ()))


def run_unittests_as_ktap(suite: unittest.TestSuite, name: str,
                          stream) -> bool:
    """Run a unittest suite and print it as a KTAP document on `stream`.

    The document has one subtest called `name` with one case per test
    method (the method name without its `test_` prefix); a failing case is
    preceded by its traceback as diagnostic lines. Output the tests print
    themselves is captured and shown only for failing cases. Returns True
    when every test passed (skips and expected failures allowed).
    """
    writer = KtapWriter(stream)
    writer.header(1)
    writer.enter()
    writer.header(suite.countTestCases(), subtest=name)
    captured = io.StringIO()
    result = _KtapResult(writer, captured)
    with contextlib.redirect_stdout(captured), \
            contextlib.redirect_stderr(captured):
        suite.run(result)
    writer.leave()
    ok = result.wasSuccessful()
    writer.result(ok, 1, name)
    return ok
