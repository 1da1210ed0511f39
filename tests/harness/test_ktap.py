#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of ktap.py; run directly, they print their results as KTAP."""

import io
import sys
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ktap  # noqa: E402


def doc(text: str) -> str:
    """Dedent a triple-quoted console log written in a test table."""
    return textwrap.dedent(text).lstrip("\n")


# Each case: name (the behaviour), console text, (passed, failed, skipped),
# and substrings that must appear in the failure reasons, in order.
CASES = [
    ("contract_example_counts_leaves", doc("""
        KTAP version 1
        1..1
            KTAP version 1
            # Subtest: boot
            1..3
            ok 1 memory_map_has_usable_ram
            # boot_test.c:40: expected 2 modules, got 1
            not ok 2 modules_found
            ok 3 tsc_runs # SKIP no invariant TSC
        not ok 1 boot
        GRAFT-EXIT: fail
        """), (1, 1, 1), ["not ok"]),
    ("all_passing_suite_has_no_failures", doc("""
        KTAP version 1
        1..1
            KTAP version 1
            # Subtest: boot
            1..2
            ok 1 a
            ok 2 b
        ok 1 boot
        GRAFT-EXIT: pass
        """), (2, 0, 0), []),
    ("flat_document_counts_each_case", doc("""
        KTAP version 1
        1..3
        ok 1 a
        not ok 2 b
        ok 3 c
        """), (2, 1, 0), ["not ok"]),
    ("missing_header_is_no_ktap_output", doc("""
        Graft booting
        ok 1 looks_like_ktap_but_has_no_header
        GRAFT-EXIT: pass
        """), (0, 1, 0), ["no KTAP output"]),
    ("empty_input_is_no_ktap_output", "", (0, 1, 0), ["no KTAP output"]),
    ("garbage_before_header_is_ignored", doc("""
        SeaBIOS (version 1.16)
        ok 7 this is a banner, not a result
        1..9
        Graft 0.1 booting
        KTAP version 1
        1..1
        ok 1 only_case
        """), (1, 0, 0), []),
    ("missing_top_plan_fails", doc("""
        KTAP version 1
        ok 1 a
        ok 2 b
        """), (2, 1, 0), ["missing plan"]),
    ("missing_subtest_plan_fails", doc("""
        KTAP version 1
        1..1
            KTAP version 1
            # Subtest: noplan
            ok 1 a
            ok 2 b
        ok 1 noplan
        """), (2, 1, 0), ["missing plan"]),
    ("plan_larger_than_results_fails", doc("""
        KTAP version 1
        1..3
        ok 1 a
        ok 2 b
        """), (2, 1, 0), ["plan says 3 results, saw 2"]),
    ("plan_smaller_than_results_fails", doc("""
        KTAP version 1
        1..1
        ok 1 a
        ok 2 b
        """), (2, 1, 0), ["plan says 1 results, saw 2"]),
    ("malformed_plan_fails_once", doc("""
        KTAP version 1
        1..two
        ok 1 a
        """), (1, 1, 0), ["malformed plan"]),
    ("plan_not_starting_at_one_is_malformed", doc("""
        KTAP version 1
        2..3
        ok 1 a
        ok 2 b
        """), (2, 1, 0), ["malformed plan"]),
    ("second_plan_fails", doc("""
        KTAP version 1
        1..1
        1..1
        ok 1 a
        """), (1, 1, 0), ["second plan"]),
    ("plan_after_results_fails", doc("""
        KTAP version 1
        ok 1 a
        1..1
        """), (1, 1, 0), ["comes after results"]),
    ("zero_plan_with_no_results_is_fine", doc("""
        KTAP version 1
        1..1
            KTAP version 1
            # Subtest: empty
            1..0
        ok 1 empty # SKIP nothing to test here
        """), (0, 0, 1), []),
    ("skip_counts_as_skipped_even_when_not_ok", doc("""
        KTAP version 1
        1..3
        ok 1 a # SKIP no device
        not ok 2 b # skip lowercase directive
        ok 3 c
        """), (1, 0, 2), []),
    ("todo_failure_is_not_a_failure", doc("""
        KTAP version 1
        1..2
        not ok 1 known_broken # TODO fix the allocator
        ok 2 fixed_already # TODO
        """), (1, 0, 1), []),
    ("xfail_is_like_todo", doc("""
        KTAP version 1
        1..1
        not ok 1 expected_to_fail # XFAIL
        """), (0, 0, 1), []),
    ("timeout_directive_is_a_failure", doc("""
        KTAP version 1
        1..1
        not ok 1 slow # TIMEOUT took too long
        """), (0, 1, 0), ["TIMEOUT took too long"]),
    ("unknown_directive_falls_back_to_result", doc("""
        KTAP version 1
        1..2
        ok 1 a # just a comment
        not ok 2 b # another comment
        """), (1, 1, 0), ["another comment"]),
    ("dash_before_description_is_accepted", doc("""
        KTAP version 1
        1..1
        ok 1 - dashed
        """), (1, 0, 0), []),
    ("not_ok_parent_with_passing_children_fails", doc("""
        KTAP version 1
        1..1
            KTAP version 1
            # Subtest: liar
            1..1
            ok 1 a
        not ok 1 liar
        """), (1, 1, 0), ["none of its cases failed"]),
    ("not_ok_parent_with_failing_child_counts_once", doc("""
        KTAP version 1
        1..1
            KTAP version 1
            # Subtest: s
            1..2
            ok 1 a
            not ok 2 b
        not ok 1 s
        """), (1, 1, 0), ["not ok"]),
    ("ok_parent_with_failing_child_still_fails", doc("""
        KTAP version 1
        1..1
            KTAP version 1
            # Subtest: s
            1..1
            not ok 1 b
        ok 1 s
        """), (0, 1, 0), ["not ok"]),
    ("not_ok_parent_with_only_skips_fails", doc("""
        KTAP version 1
        1..1
            KTAP version 1
            # Subtest: s
            1..1
            ok 1 b # SKIP
        not ok 1 s
        """), (0, 1, 1), ["none of its cases failed"]),
    ("deeply_nested_subtests_count_leaves", doc("""
        KTAP version 1
        1..2
            KTAP version 1
            # Subtest: outer
            1..2
                KTAP version 1
                # Subtest: inner
                1..2
                ok 1 x
                not ok 2 y
            not ok 1 inner
            ok 2 z
        not ok 1 outer
            KTAP version 1
            # Subtest: second
            1..1
            ok 1 w
        ok 2 second
        """), (3, 1, 0), ["not ok"]),
    ("two_space_indentation_works", doc("""
        KTAP version 1
        1..1
          KTAP version 1
          # Subtest: s
          1..2
            KTAP version 1
            # Subtest: t
            1..1
            ok 1 x
          ok 1 t
          ok 2 y
        ok 1 s
        """), (2, 0, 0), []),
    ("tab_indentation_works", "KTAP version 1\n1..1\n\tKTAP version 1\n"
     "\t# Subtest: s\n\t1..1\n\tok 1 x\nok 1 s\n", (1, 0, 0), []),
    ("subtest_without_version_line_works", doc("""
        KTAP version 1
        1..1
            # Subtest: s
            1..1
            ok 1 x
        ok 1 s
        """), (1, 0, 0), []),
    ("indented_document_is_rebased", doc("""
        [ 0.1] KTAP is below
          KTAP version 1
          1..1
              KTAP version 1
              # Subtest: s
              1..1
              ok 1 x
          ok 1 s
        """), (1, 0, 0), []),
    ("truncated_output_after_panic_fails", doc("""
        KTAP version 1
        1..1
            KTAP version 1
            # Subtest: boot
            1..3
            ok 1 first
        *** PANIC: page fault at 0xdeadbeef
        rip=0xffffffff80001234
        GRAFT-EXIT: panic
        """), (1, 2, 0), ["has no result line", "plan says 3 results, saw 1"]),
    ("truncated_output_without_exit_line_fails", doc("""
        KTAP version 1
        1..2
        ok 1 a
        """), (1, 1, 0), ["plan says 2 results, saw 1"]),
    ("header_only_fails_missing_plan", "KTAP version 1\n", (0, 1, 0),
     ["missing plan"]),
    ("sibling_subtest_without_result_line_fails", doc("""
        KTAP version 1
        1..2
            KTAP version 1
            # Subtest: s
            1..1
            ok 1 x
            KTAP version 1
            # Subtest: t
            1..1
            ok 1 y
        ok 2 t
        """), (2, 1, 0), ["subtest s (line 3) has no result line"]),
    ("kernel_messages_inside_ktap_are_ignored", doc("""
        KTAP version 1
        1..1
            KTAP version 1
            # Subtest: s
            1..2
        vm: mapped 4096 pages
            ok 1 x
        BENCH {"name": "x"}
            ok 2 y
        ok 1 s
        """), (2, 0, 0), []),
    ("lines_after_exit_are_ignored", doc("""
        KTAP version 1
        1..1
        ok 1 a
        GRAFT-EXIT: pass
        not ok 2 b
        """), (1, 0, 0), []),
    ("carriage_returns_are_ignored", "KTAP version 1\r\n1..1\r\nok 1 a\r\n",
     (1, 0, 0), []),
    ("second_document_after_restart_fails", doc("""
        KTAP version 1
        1..1
        ok 1 a
        KTAP version 1
        1..1
        ok 1 a
        """), (1, 1, 0), ["second 'KTAP version 1' header"]),
    ("wrong_result_number_fails_once", doc("""
        KTAP version 1
        1..3
        ok 1 a
        ok 3 b
        ok 4 c
        """), (3, 1, 0), ["result number 3, expected 2"]),
    ("result_without_number_is_malformed", doc("""
        KTAP version 1
        1..1
        ok a
        """), (0, 2, 0), ["malformed result line", "plan says 1 results, saw 0"]),
    ("indented_results_without_header_need_a_plan", doc("""
        KTAP version 1
        1..1
            ok 1 x
        ok 1 s
        """), (1, 1, 0), ["missing plan"]),
]


class KtapTableTest(unittest.TestCase):
    """Table-driven cases; a test method per row is added below."""

    def check(self, text, counts, reasons):
        """Assert the counts of `text` and its failure reasons, in order."""
        result = ktap.tally(ktap.parse(text))
        got = [f"{f.case}: {f.reason}" for f in result.failures]
        self.assertEqual((result.passed, result.failed, result.skipped),
                         counts, f"failures: {got}")
        self.assertEqual(len(result.failures), result.failed)
        position = 0
        for wanted in reasons:
            for index in range(position, len(got)):
                if wanted in got[index]:
                    position = index + 1
                    break
            else:
                self.fail(f"no failure mentioning {wanted!r} "
                          f"(in order) among {got}")


def _add_case(name, text, counts, reasons):
    def method(self):
        self.check(text, counts, reasons)
    method.__name__ = f"test_{name}"
    setattr(KtapTableTest, method.__name__, method)


for _case in CASES:
    _add_case(*_case)


class KtapDetailTest(unittest.TestCase):
    """Properties of the parse tree, ktap.txt text and the writer."""

    def test_failure_keeps_diagnostics_before_result(self):
        text = doc("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: boot
                1..1
                # boot_test.c:40: expected 2 modules, got 1
                    # deeper detail line
                not ok 1 modules_found
            not ok 1 boot
            """)
        failure = ktap.tally(ktap.parse(text)).failures[0]
        self.assertEqual(failure.case, "boot.modules_found")
        self.assertEqual(failure.diagnostics,
                         ("# boot_test.c:40: expected 2 modules, got 1",
                          "# deeper detail line"))

    def test_tree_holds_names_and_plans(self):
        text = doc("""
            KTAP version 1
            1..1
                KTAP version 1
                # Subtest: boot
                1..1
                ok 1 a # SKIP why
            ok 1 boot
            """)
        root = ktap.parse(text).root
        self.assertEqual(root.plan, 1)
        sub = root.results[0].subtest
        self.assertEqual((sub.name, sub.plan, sub.indent), ("boot", 1, 4))
        case = sub.results[0]
        self.assertEqual((case.ok, case.number, case.name, case.directive,
                          case.reason), (True, 1, "a", "SKIP", "why"))

    def test_kept_text_drops_noise_and_rebases(self):
        text = "banner\n  KTAP version 1\n  1..1\n  noise\n  ok 1 a\n" \
               "GRAFT-EXIT: pass\n"
        self.assertEqual(ktap.parse(text).text, "KTAP version 1\n1..1\n"
                         "ok 1 a\n")

    def test_no_header_keeps_no_text(self):
        document = ktap.parse("hello\n")
        self.assertIsNone(document.root)
        self.assertEqual(document.text, "")

    def test_writer_output_parses_back(self):
        out = io.StringIO()
        writer = ktap.KtapWriter(out)
        writer.header(1)
        writer.enter()
        writer.header(3, subtest="w")
        writer.result(True, 1, "a")
        writer.diagnostic("two\nlines")
        writer.result(False, 2, "b#c")
        writer.result(True, 3, "c", "SKIP", "reason")
        writer.leave()
        writer.result(False, 1, "w")
        result = ktap.tally(ktap.parse(out.getvalue()))
        self.assertEqual((result.passed, result.failed, result.skipped),
                         (1, 1, 1))
        self.assertEqual(result.failures[0].case, "w.b_c")
        self.assertEqual(result.failures[0].diagnostics,
                         ("# two", "# lines"))

    def test_unittest_adapter_reports_each_outcome(self):
        class Sample(unittest.TestCase):
            def test_passes(self):
                pass

            def test_fails(self):
                print("printed by the test")
                self.assertEqual(1, 2)

            @unittest.skip("not today")
            def test_skipped(self):
                pass

        suite = unittest.defaultTestLoader.loadTestsFromTestCase(Sample)
        out = io.StringIO()
        self.assertFalse(ktap.run_unittests_as_ktap(suite, "sample", out))
        result = ktap.tally(ktap.parse(out.getvalue()))
        self.assertEqual((result.passed, result.failed, result.skipped),
                         (1, 1, 1), out.getvalue())
        failure = result.failures[0]
        self.assertEqual(failure.case, "sample.fails")
        self.assertIn("# printed by the test", failure.diagnostics)
        self.assertTrue(any("AssertionError" in line
                            for line in failure.diagnostics))


def main() -> int:
    """Run this file's tests, print KTAP, return 0 iff all passed."""
    suite = unittest.defaultTestLoader.loadTestsFromModule(
        sys.modules[__name__])
    return 0 if ktap.run_unittests_as_ktap(suite, "ktap-parser",
                                           sys.stdout) else 1


if __name__ == "__main__":
    sys.exit(main())
