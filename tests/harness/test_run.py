#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Harness selftest: the runner against fake and real broken guests, as KTAP.

Usage: test_run.py [--build-dir B --srcdir S --results-dir R]
Without --build-dir the checks against the real kernel are skipped.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
import zlib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import boot  # noqa: E402
import ktap  # noqa: E402
import report  # noqa: E402
import run  # noqa: E402
import suites  # noqa: E402

sys.path.insert(0, str(HERE.parents[1] / "tools"))
import bench_hist  # noqa: E402
import native_profile  # noqa: E402
import qemu_profile  # noqa: E402

RUN_PY = HERE / "run.py"
BENCH_REPORT = HERE.parents[1] / "tools" / "bench_report.py"
# The interpreter make bench runs bench_report.py with (bench/local.mk):
# Debian's, for which tools/deps.sh installs python3-matplotlib.
DEBIAN_PYTHON3 = "/usr/bin/python3"
FINAL_LINE = re.compile(r"^(\d+) passed, (\d+) failed$")

GOOD_KTAP = """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: boot
    1..2
    ok 1 first
    ok 2 second
ok 1 boot
GRAFT-EXIT: pass
"""


# --------------------------------------------------------------------------
# Checks against real guests: run.py as a subprocess on hidden suites.

@dataclass(frozen=True)
class GuestContext:
    """Where the guest checks find the build and put their runs."""

    build_dir: Path
    srcdir: Path
    results_dir: Path
    env: dict | None = None


class GuestSelftest(unittest.TestCase):
    """run.py must fail each deliberately broken guest, for the right reason.

    `context` (a GuestContext) must be set; otherwise every check skips.
    """

    context: GuestContext | None = None

    def harness(self, suite: str):
        """Run run.py on one suite; return (status, stdout, result.json)."""
        ctx = self.context
        if ctx is None:
            self.skipTest("no --build-dir given")
        results = ctx.results_dir / suite
        argv = [sys.executable, str(RUN_PY), "--build-dir", str(ctx.build_dir),
                "--srcdir", str(ctx.srcdir), "--results-dir", str(results),
                "--suites", suite]
        done = subprocess.run(argv, capture_output=True, text=True,
                              timeout=900, env=ctx.env)
        print(done.stdout, end="")
        print(done.stderr, end="")
        path = results / suite / "result.json"
        data = json.loads(path.read_text()) if path.is_file() else {}
        return done.returncode, done.stdout, data

    def assertFailedRun(self, status, stdout):
        """Assert run.py exited 1 and its last line counts a failure."""
        self.assertEqual(status, 1, "run.py should exit 1")
        lines = stdout.splitlines()
        match = FINAL_LINE.match(lines[-1]) if lines else None
        self.assertTrue(match, "last line is not 'N passed, N failed'")
        self.assertGreater(int(match.group(2)), 0)

    def test_failing_guest_case_fails_the_run(self):
        status, stdout, result = self.harness("selftest-fail")
        self.assertFailedRun(status, stdout)
        self.assertEqual(result.get("status"), "fail")
        self.assertTrue(any(f["reason"].startswith("not ok")
                            for f in result["failures"]),
                        "no failing case reported")

    def test_guest_panic_is_reported_as_panic(self):
        status, stdout, result = self.harness("selftest-panic")
        self.assertFailedRun(status, stdout)
        self.assertEqual(result.get("status"), "panic")
        self.assertIn(boot.PANIC_PREFIX, stdout)

    def test_hanging_guest_is_killed_at_time_limit(self):
        start = time.monotonic()
        status, stdout, result = self.harness("selftest-hang")
        self.assertFailedRun(status, stdout)
        self.assertEqual(result.get("status"), "hang")
        self.assertIn("last console lines", stdout)
        limit = suites.by_name()["selftest-hang"].timeout
        self.assertLess(time.monotonic() - start, limit + 30)

    def test_guest_without_plan_fails_the_run(self):
        status, stdout, result = self.harness("selftest-noplan")
        self.assertFailedRun(status, stdout)
        self.assertTrue(any("missing plan" in f["reason"]
                            for f in result["failures"]),
                        "no missing-plan failure")

    def test_triple_fault_is_reported(self):
        status, stdout, result = self.harness("selftest-triple")
        self.assertFailedRun(status, stdout)
        self.assertEqual(result.get("status"), "triple-fault")

    def test_passing_boot_exits_zero(self):
        status, stdout, result = self.harness("boot")
        self.assertEqual(status, 0, "run.py should exit 0")
        self.assertEqual(result.get("status"), "pass")
        self.assertEqual(result.get("failed"), 0)
        self.assertGreater(result.get("passed", 0), 0)
        self.assertRegex(stdout.splitlines()[-1], r"^[1-9]\d* passed, 0 "
                         "failed$")


# --------------------------------------------------------------------------
# Pure parts: classification, commands, prepare hooks, bench lines.

PANIC_CONSOLE = ("KTAP version 1\n1..1\n*** PANIC: #PF at 0x10\n"
                 "rip=0x1234\nbacktrace: f g\nGRAFT-EXIT: panic\n")
HANG_CONSOLE = "".join(f"line {n}\n" for n in range(1, 31))

# name, classifier, args, expected status, text that must be in the details
CLASSIFY_CASES = [
    ("qemu_pass", boot.classify_qemu, (33, False, GOOD_KTAP), "pass", None),
    ("qemu_guest_fail", boot.classify_qemu,
     (35, False, "GRAFT-EXIT: fail\n"), "fail", None),
    ("qemu_fail_line_wins_over_status_33", boot.classify_qemu,
     (33, False, "GRAFT-EXIT: fail\n"), "fail", None),
    ("qemu_panic_status", boot.classify_qemu, (37, False, PANIC_CONSOLE),
     "panic", "rip=0x1234"),
    ("qemu_panic_line_without_status_37", boot.classify_qemu,
     (0, False, "*** PANIC: double fault\n"), "panic", "*** PANIC"),
    ("qemu_panic_report_stops_at_exit_line", boot.classify_qemu,
     (37, False, PANIC_CONSOLE), "panic", "!GRAFT-EXIT"),
    ("qemu_status_37_without_report_shows_last_lines", boot.classify_qemu,
     (37, False, "booting\n"), "panic", "booting"),
    ("qemu_triple_fault", boot.classify_qemu, (0, False, "booting\n"),
     "triple-fault", "booting"),
    ("qemu_timeout_is_hang_with_last_15_lines", boot.classify_qemu,
     (None, True, HANG_CONSOLE), "hang", "line 16"),
    ("qemu_hang_drops_older_lines", boot.classify_qemu,
     (None, True, HANG_CONSOLE), "hang", "!line 15"),
    ("qemu_timeout_wins_over_panic", boot.classify_qemu,
     (None, True, PANIC_CONSOLE), "hang", None),
    ("qemu_status_33_without_exit_line", boot.classify_qemu,
     (33, False, "KTAP version 1\n"), "no-exit-line", None),
    ("qemu_unknown_exit_word", boot.classify_qemu,
     (33, False, "GRAFT-EXIT: maybe\n"), "fail", None),
    ("qemu_other_status_is_emulator_error", boot.classify_qemu,
     (1, False, "", "qemu: could not load kernel\n"), "emulator-error",
     "could not load kernel"),
    ("qemu_exit_line_with_carriage_return", boot.classify_qemu,
     (33, False, "x\r\nGRAFT-EXIT: pass\r\n"), "pass", None),
    ("bochs_pass_despite_status_1", boot.classify_bochs,
     (1, False, GOOD_KTAP), "pass", None),
    ("bochs_fail", boot.classify_bochs, (1, False, "GRAFT-EXIT: fail\n"),
     "fail", None),
    ("bochs_panic", boot.classify_bochs, (1, False, PANIC_CONSOLE), "panic",
     "backtrace"),
    ("bochs_without_exit_line", boot.classify_bochs,
     (1, False, "KTAP version 1\n", ">>PANIC<< triple fault\n"),
     "no-exit-line", "triple fault"),
    ("bochs_timeout_is_hang", boot.classify_bochs, (None, True, "x\n"),
     "hang", "x"),
    ("host_pass", boot.classify_host, (0, False), "pass", None),
    ("host_exit_status", boot.classify_host, (3, False, "boom\n"), "fail",
     "boom"),
    ("host_signal", boot.classify_host, (-11, False), "signal", None),
    ("host_timeout", boot.classify_host, (None, True), "hang", None),
]


class ClassifyTest(unittest.TestCase):
    """Table-driven classification cases; one method per row."""

    def check(self, classify, args, status, detail):
        """Assert classify(*args) has `status`; `detail` in (or, with a
        leading '!', not in) its details."""
        verdict = classify(*args)
        self.assertEqual(verdict.status, status, verdict)
        self.assertEqual(verdict.ok, status == "pass")
        if status != "pass":
            self.assertTrue(verdict.reason)
        text = "\n".join(verdict.details)
        if detail is not None and detail.startswith("!"):
            self.assertNotIn(detail[1:], text)
        elif detail is not None:
            self.assertIn(detail, text)


def _add_classify_case(name, classify, args, status, detail):
    def method(self):
        self.check(classify, args, status, detail)
    method.__name__ = f"test_classify_{name}"
    setattr(ClassifyTest, method.__name__, method)


for _case in CLASSIFY_CASES:
    _add_classify_case(*_case)


class PureTest(unittest.TestCase):
    """Commands, prepare hooks, result merging, bench lines, suite table."""

    def test_qemu_command_follows_contract(self):
        suite = suites.QemuSuite(name="x", test="boot", cmdline=("a=1",),
                                 memory_mib=64, modules=(("/m0", "p q"),
                                                         ("/m1", "")),
                                 qemu_args=("-smp", "2"))
        argv = boot.qemu_command("qemu", Path("/k.elf"), suite)
        self.assertEqual(argv, [
            "qemu", "-accel", "tcg", "-M", "pc", "-m", "64", "-display",
            "none", "-monitor", "none", "-serial", "stdio", "-no-reboot",
            "-device", "isa-debug-exit,iobase=0x501,iosize=1", "-kernel",
            "/k.elf", "-append", "test=boot a=1", "-initrd", "/m0 p q,/m1",
            "-smp", "2"])

    def test_icount_mode_adds_icount(self):
        suite = suites.QemuSuite(name="b", test="bench", mode="icount")
        argv = boot.qemu_command("qemu", Path("/k"), suite)
        self.assertEqual(argv[-2:], ["-icount", "shift=0,sleep=off"])

    def test_icount_boots_halt_without_polling(self):
        icount = [suite for suite in suites.by_name().values()
                  if getattr(suite, "mode", "") == "icount"]
        self.assertTrue(icount)
        for suite in icount:
            self.assertIn("idle_poll=0", suite.cmdline, suite.name)
        self.assertEqual(suites.bench_words("wall"), ("bench_mode=wall",))

    def test_command_prefix_comes_before_qemu(self):
        suite = suites.QemuSuite(name="b", test="t", qemu_args=("-x",),
                                 command_prefix=("ip", "netns", "exec", "n"))
        argv = boot.qemu_command("qemu", Path("/k"), suite)
        self.assertEqual(argv[:5], ["ip", "netns", "exec", "n", "qemu"])
        self.assertEqual(argv[-1], "-x")

    def test_module_path_with_comma_is_refused(self):
        suite = suites.QemuSuite(name="x", test="t", modules=(("/a,b", ""),))
        with self.assertRaises(boot.BootError):
            boot.qemu_command("qemu", Path("/k"), suite)

    def test_bochs_cmdline_and_config(self):
        suite = suites.BochsSuite(name="x", test="boot", cmdline=("k=v",))
        self.assertEqual(boot.bochs_cmdline(suite), "test=boot exit=bochs k=v")
        config = boot.bochs_config("a @ISO@ b @SERIAL_LOG@ c @MEGS@ @ISO@",
                                   Path("/i.iso"), Path("/s.log"), 128)
        self.assertEqual(config, "a /i.iso b /s.log c 128 /i.iso")

    def test_bochs_net_prepare_links_the_nic_to_a_peer_on_p_plus_1(self):
        import socket
        with tempfile.TemporaryDirectory() as tmp:
            suite = suites.by_name()["net-ne2k-pci-bochs"]
            ready = suite.prepare(dataclasses.replace(suite, timeout=1.0),
                                  Path(tmp))
            self.assertIsNone(ready.prepare)
            self.assertEqual(ready.bochsrc[0],
                             "pci: enabled=1, chipset=i440fx, slot1=ne2k")
            nic = ready.bochsrc[1]
            self.assertTrue(nic.startswith(
                "ne2k: type=pci, mac=52:54:00:12:34:56, ethmod=socket, "
                "ethdev="), nic)
            guest = int(nic.rsplit("=", 1)[1])
            # As Bochs would: send from P to P + 1, where the peer is.
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as bx:
                bx.bind(("127.0.0.1", guest))
                bx.settimeout(5)
                frame = (bytes((2,)) + b"GRAFT" + bytes.fromhex(
                    "525400123456") + b"\x88\xb5").ljust(60, b"\0")
                bx.sendto(frame, ("127.0.0.1", guest + 1))
                answer, _ = bx.recvfrom(2048)
            self.assertEqual(answer[:6], bytes.fromhex("525400123456"))

    def test_isa_bochs_suite_has_no_pci_slot(self):
        with tempfile.TemporaryDirectory() as tmp:
            suite = suites.by_name()["net-ne-isa-bochs"]
            ready = suite.prepare(dataclasses.replace(suite, timeout=0.5),
                                  Path(tmp))
            self.assertEqual(len(ready.bochsrc), 1)
            self.assertTrue(ready.bochsrc[0].startswith(
                "ne2k: type=isa, ioaddr=0x300, irq=10, "), ready.bochsrc)

    def test_boot_prepare_writes_modules_with_known_crcs(self):
        with tempfile.TemporaryDirectory() as tmp:
            suite = suites.by_name()["boot"]
            ready = suite.prepare(suite, Path(tmp))
            paths = [Path(path) for path, _ in ready.modules]
            self.assertEqual(len(paths[0].read_bytes()), 3000)
            self.assertEqual([args for _, args in ready.modules],
                             ["alpha beta", ""])
            crcs = [f"0x{zlib.crc32(p.read_bytes()):08x}" for p in paths]
            self.assertEqual(ready.cmdline, (
                "expect_mem_mib=128", "expect_mods=2", f"mod0_crc={crcs[0]}",
                f"mod1_crc={crcs[1]}", "mod0_cmdline_has=alpha"))
            self.assertIsNone(ready.prepare)

    def test_disk_check_finds_what_changed_where(self):
        suite = suites.by_name()["disk-ata-piix"]
        start, count = suites.DISK_P1
        cases = (("untouched image", None, (False, True)),
                 ("as the guest leaves it", "written", (True, True)),
                 ("one byte outside", (start + count) * 512 + 100,
                  (True, False)),
                 ("one byte inside", start * 512 + 7, (False, True)))
        for name, change, verdicts in cases:
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                image = bytearray(suites.disk_image_content())
                if change is not None:
                    image = bytearray(suites.disk_expected())
                if isinstance(change, int):
                    image[change] ^= 0xFF
                (Path(tmp) / "hd0.img").write_bytes(bytes(image))
                found = suites.disk_check(suite, Path(tmp))
                self.assertEqual([problem is None for _, problem in found],
                                 list(verdicts))
                self.assertTrue((Path(tmp) / "hd0.img").exists())
        image = suites.disk_image_content()
        self.assertEqual(len(image), suites.DISK_BLOCKS * 512)
        self.assertEqual(image[510:512], b"\x55\xaa")
        self.assertEqual(image[512 * 7:512 * 7 + 16],
                         (7).to_bytes(8, "little") + b"GRAFTHD0")

    def test_module_pattern_is_deterministic(self):
        self.assertEqual(suites.module0_content(), suites.module0_content())
        self.assertGreater(len(set(suites.module0_content())), 200)

    def test_suite_table_defaults(self):
        table = suites.by_name()
        visible = [s.name for s in suites.select(None)]
        # The foundation's suites run by default; later issues add more.
        for name in ("printf", "stats", "crc32", "cmdline", "ktap-parser",
                     "boot", "boot-bochs", "harness-selftest"):
            self.assertIn(name, visible)
        self.assertEqual(len(visible), len(set(visible)))
        self.assertEqual(visible[-1], "harness-selftest")
        for name in ("selftest-fail", "selftest-panic", "selftest-hang",
                     "selftest-noplan", "selftest-triple", "bench",
                     "bench-ne2k-pci"):
            self.assertTrue(table[name].hidden, name)
            self.assertEqual(table[name].kind, suites.QEMU)
        self.assertEqual(table["selftest-hang"].timeout, 5)
        self.assertEqual(table["boot"].timeout, 60)
        self.assertEqual(table["boot-bochs"].timeout, 180)
        self.assertEqual(table["boot-bochs"].test, "boot")
        self.assertEqual(table["bench"].mode, "icount")
        self.assertIn("bench_mode=icount", table["bench"].cmdline)
        self.assertTrue(all(s.kind in suites.KINDS for s in suites.SUITES))

    def test_select_reports_unknown_names(self):
        with self.assertRaises(KeyError) as raised:
            suites.select(["boot", "nope", "neither"])
        self.assertEqual(raised.exception.args[0], ["nope", "neither"])

    def test_guest_fail_with_failing_case_counts_once(self):
        document = ktap.parse("KTAP version 1\n1..1\nnot ok 1 a\n")
        result = run.combine("s", "qemu", boot.Verdict("fail", "said fail"),
                             document)
        self.assertEqual((result.passed, result.failed), (0, 1))
        self.assertIn("(fail: said fail)", result.reasons)

    def test_guest_fail_without_failing_case_is_a_failure(self):
        document = ktap.parse("KTAP version 1\n1..1\nok 1 a\n")
        result = run.combine("s", "qemu", boot.Verdict("fail", "said fail"),
                             document)
        self.assertEqual((result.passed, result.failed), (1, 1))

    def test_panic_adds_a_failure_and_hides_missing_ktap(self):
        result = run.combine("s", "qemu", boot.Verdict("panic", "boom",
                                                       ("*** PANIC",)),
                             ktap.parse("no ktap here\n"))
        self.assertEqual(result.failed, 1)
        self.assertEqual(result.failures[0].reason, "panic: boom")
        self.assertEqual(result.failures[0].diagnostics, ("*** PANIC",))

    def test_pass_without_ktap_is_a_failure(self):
        result = run.combine("s", "host", boot.Verdict("pass"),
                             ktap.parse(""))
        self.assertEqual(result.failures[0].reason, "no KTAP output")

    def test_bench_lines_are_validated(self):
        good = {"name": "probe.empty", "unit": "ticks", "mode": "icount",
                "count": 10000, "min": 12, "median": 12, "p99": 12,
                "variance": 0.0}
        lines = [f"BENCH {json.dumps(good)}",
                 "BENCH {not json",
                 "BENCH " + json.dumps({**good, "name": "b", "mode": "x"}),
                 "BENCH " + json.dumps({**good, "name": "c", "count": 0}),
                 "BENCH " + json.dumps({k: v for k, v in good.items()
                                        if k != "p99"}),
                 "BENCH " + json.dumps({**good, "name": "d", "min": 13}),
                 "BENCH " + json.dumps({**good, "name": "e",
                                        "variance": -1}),
                 "BENCH " + json.dumps(good),
                 "ok 1 BENCH is not at line start"]
        records, errors = report.parse_bench("\r\n".join(lines))
        self.assertEqual(records, [good])
        self.assertEqual(len(errors), 7, errors)
        self.assertIn("duplicate", errors[-1])
        table = report.bench_table(records)
        self.assertTrue(table[0].startswith("name"))
        self.assertIn("probe.empty", table[1])

    def test_bench_samples_are_checked_against_their_records(self):
        records = [{"name": "a/60", "count": 5}, {"name": "b", "count": 2}]
        lines = ["BENCH-SAMPLES a/60 10x1 11x2",
                 "BENCH-SAMPLES a/60 40x2",       # continued: 5 in all
                 "BENCH-SAMPLES b 7x1",           # 1 of 2
                 "BENCH-SAMPLES c 7x2",           # no such record
                 "BENCH-SAMPLES a/60 12",         # no count
                 "BENCH-SAMPLES a/60 12x0",       # a zero count
                 "BENCH-SAMPLES",                 # no name
                 "BENCH {not samples}"]
        samples, errors = report.parse_samples("\r\n".join(lines), records)
        self.assertEqual(samples, {"a/60": [[10, 1], [11, 2], [40, 2]],
                                   "b": [[7, 1]]})
        self.assertEqual(len(errors), 4, errors)
        self.assertIn("no BENCH line names", errors[0])
        self.assertIn("b: 1 samples, its BENCH line counts 2", errors[-1])
        _, errors = report.parse_samples(
            "BENCH-SAMPLES a/60 11x3\nBENCH-SAMPLES a/60 10x2", records)
        self.assertIn("not ascending", errors[0])

    def test_summary_tsv_format(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "summary.tsv"
            report.write_summary(path, [report.SuiteResult(
                "a", "host", "pass", 3, 1, 2)])
            self.assertEqual(path.read_text(), "suite\tpassed\tfailed\t"
                             "skipped\na\t3\t1\t2\n")


class NativeProfileTest(unittest.TestCase):
    """tools/native_profile.py's symbols of native Linux, as
    tools/qemu_profile.py reads them."""

    def test_kernel_and_module_functions_from_ksym_lines(self):
        console = ("native-linux: 6.1\n"
                   "KSYM ffffffff8d400000 T _text\n"
                   "KSYM ffffffff8d5a1000 t packet_sendmsg\n"
                   "KSYM ffffffffc0345000 t e1000_xmit_frame\t[e1000]\n"
                   "not KSYM ffffffff00000000 t nothing\n")
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "linux.map"
            self.assertEqual(native_profile.kernel_map(console, out), "")
            syms = qemu_profile.text_symbols([str(out)])
        self.assertEqual(syms, [
            (0xffffffff8d400000, "_text", 0),
            (0xffffffff8d5a1000, "packet_sendmsg", 0),
            (0xffffffffc0345000, "e1000_xmit_frame[e1000]", 0)])

    def test_a_boot_without_ksym_lines_is_a_problem(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "linux.map"
            self.assertIn("no KSYM line",
                          native_profile.kernel_map("GRAFT-EXIT: pass\n",
                                                    out))
            self.assertFalse(out.exists())


class BenchReportTest(unittest.TestCase):
    """tools/bench_report.py's histograms (tools/bench_hist.py)."""

    def test_histogram_bins_up_to_p99_and_counts_the_rest(self):
        h = bench_hist.histogram([[10, 150], [12, 49], [5000, 1]])
        self.assertEqual((h["lo"], h["width"], h["heights"], h["beyond"],
                          h["count"], h["median"], h["max"]),
                         (10, 1, [150, 0, 49], 1, 200, 10, 5000))
        wide = bench_hist.histogram([[0, 1], [599, 1]])
        self.assertEqual((wide["width"], len(wide["heights"]),
                          wide["heights"][0], wide["heights"][-1]),
                         (10, 60, 1, 1))
        with self.assertRaises(ValueError):
            bench_hist.histogram([])

    def test_series_are_the_default_driver_then_the_others(self):
        names = ("disk.cmd.glue/ahci/16384", "disk.cmd.glue/write/16384",
                 "disk.cmd.glue/16384", "disk.cmd.glue/ahci/write/16384",
                 "disk.cmd.glue/virtio_blk/16384", "disk.cmd.glue/4096")
        samples = {name: [[1, 1]] for name in names}
        figure = next(f for f in bench_hist.FIGURES
                      if f[0] == "hist-disk.cmd.glue-16384.png")
        self.assertEqual(bench_hist.series(samples, figure[2], figure[3]),
                         [("ata_piix", "disk.cmd.glue/16384"),
                          ("ahci", "disk.cmd.glue/ahci/16384"),
                          ("virtio_blk", "disk.cmd.glue/virtio_blk/16384")])
        pair = ("net.tx.instr/60", "linux.net.tx.instr/60")
        self.assertEqual(bench_hist.series({pair[1]: [[1, 1]]}, pair, ""),
                         [("Linux", "linux.net.tx.instr/60")])

    def test_section_links_a_figure_per_set_of_samples(self):
        drawn = []
        samples = {"net.rx.glue/60": [[700, 299], [9000000, 1]],
                   "linux.syscall.null": [[342, 10000]],
                   "net.rx.glue/256": [[800, 300]]}
        lines, pngs = bench_hist.section(
            samples, Path("/nowhere"),
            plot=lambda path, title, rows: drawn.append((path.name, rows)))
        self.assertEqual(pngs, ["hist-net.rx.glue-60.png",
                                "hist-rpc.user-kernel.png"])
        self.assertEqual([name for name, _ in drawn], pngs)
        self.assertEqual(drawn[0][1][0][2]["beyond"], 1)
        self.assertIn("![net.rx.glue, 60-byte frames, per NIC driver]"
                      "(hist-net.rx.glue-60.png)", lines)
        self.assertIn("- e1000 (net.rx.glue/60): 300 samples, median 700; "
                      "1 beyond p99 not drawn (max 9,000,000)", lines)
        lines, pngs = bench_hist.section(None, Path("/nowhere"))
        self.assertEqual(pngs, [])
        self.assertIn("No `samples.json`", "\n".join(lines))

    def _report(self, bench: Path) -> str:
        done = subprocess.run([DEBIAN_PYTHON3, str(BENCH_REPORT), str(bench)],
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        return (bench / "report.md").read_text()

    def test_report_draws_and_links_the_histograms(self):
        record = {"name": "disk.int.glue/pvscsi/16384", "unit": "ticks",
                  "mode": "icount", "count": 100, "min": 1500,
                  "median": 1500, "p99": 1754, "variance": 1.0}
        with tempfile.TemporaryDirectory() as tmp:
            bench = Path(tmp)
            (bench / "results.json").write_text(json.dumps([record]))
            (bench / "samples.json").write_text(json.dumps(
                {record["name"]: [[1500, 60], [1754, 40]]}))
            text = self._report(bench)
            links = re.findall(r"^!\[[^]]*\]\((hist-[^)]+\.png)\)$", text,
                               re.M)
            self.assertEqual(links, ["hist-disk.int.glue-16384.png"])
            self.assertEqual((bench / links[0]).read_bytes()[:8],
                             b"\x89PNG\r\n\x1a\n")
            self.assertIn("- pvscsi (disk.int.glue/pvscsi/16384): 100 "
                          "samples, median 1,500", text)

    def test_report_of_a_partial_run_without_samples(self):
        record = {"name": "probe.empty", "unit": "ticks", "mode": "icount",
                  "count": 10000, "min": 12, "median": 12, "p99": 12,
                  "variance": 0.0}
        with tempfile.TemporaryDirectory() as tmp:
            bench = Path(tmp)
            (bench / "results.json").write_text(json.dumps([record]))
            text = self._report(bench)
            self.assertIn("No `samples.json`", text)
            self.assertIn("| `probe.empty` | ticks | icount | 10000 |", text)
            self.assertEqual(list(bench.glob("hist-*.png")), [])


# --------------------------------------------------------------------------
# The runner end to end, with fake host programs and fake emulators.

FAKE_EMULATOR = r'''
import json, os, sys, time, zlib

def arg(name):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None

def guest(cmdline, modules, megs, icount, out):
    """Behave like Graft for test=NAME; return the QEMU exit status."""
    words = dict(w.split("=", 1) for w in cmdline.split() if "=" in w)
    test = words.get("test")
    say = lambda text="": out.write(text + "\n") or out.flush()
    say("Graft (fake) booting")
    if test == "selftest-hang":
        say("KTAP version 1")
        time.sleep(3600)
    if test == "selftest-triple":
        say("about to triple fault")
        return 0
    if test == "selftest-noplan":
        say("KTAP version 1\n1..1\n    KTAP version 1\n"
            "    # Subtest: selftest-noplan\n    ok 1 a\nok 1 selftest-noplan")
        say("GRAFT-EXIT: pass")
        return 33
    if test == "selftest-panic":
        say("KTAP version 1\n1..1\n    KTAP version 1\n"
            "    # Subtest: selftest-panic\n    1..1")
        say("*** PANIC: unexpected #UD at rip=0xffffffff80001000\n"
            "rax=0 rbx=0\nbacktrace: selftest_panic+0x10")
        say("GRAFT-EXIT: panic")
        return 37
    checks = []
    if test == "boot":
        checks.append(("memory", words.get("expect_mem_mib") == str(megs)))
        checks.append(("modules", words.get("expect_mods") == str(len(modules))))
        for index, (path, args) in enumerate(modules):
            with open(path, "rb") as f:
                crc = "0x%08x" % zlib.crc32(f.read())
            checks.append((f"mod{index}_crc", words.get(f"mod{index}_crc") == crc))
        checks.append(("mod0_args", bool(modules) and
                       words.get("mod0_cmdline_has", "?") in modules[0][1]))
        checks.append(("exit_method", words.get("exit", "qemu") in ("qemu", "bochs")))
    elif test == "selftest-fail":
        checks = [("passes", True), ("fails_on_purpose", False)]
    elif test == "bench":
        checks = [("icount", icount), ("bench_mode", words.get("bench_mode")
                                        == ("icount" if icount else "wall"))]
        say('BENCH {"name": "probe.empty", "unit": "ticks", "mode": "icount", '
            '"count": 10000, "min": 12, "median": 12, "p99": 12, "variance": 0.0}')
    elif test == "bench-net":
        nic = words.get("bench_nic", "")
        checks = [("bench_nic", nic != "")]
        say('BENCH {"name": "net.tx.glue/' + nic + '/60", "unit": "ticks", '
            '"mode": "icount", "count": 300, "min": 90, "median": 99, '
            '"p99": 120, "variance": 4.5}')
        say(f"BENCH-SAMPLES net.tx.glue/{nic}/60 90x100 99x197 120x3")
    elif test == "bench-disk":
        disk = words.get("bench_disk", "")
        checks = [("icount", icount)]
        name = "disk.cmd.glue/" + (disk + "/" if disk else "") + "16384"
        say('BENCH {"name": "' + name + '", "unit": "ticks", '
            '"mode": "icount", "count": 200, "min": 2000, "median": 2000, '
            '"p99": 2100, "variance": 9.0}')
        say(f"BENCH-SAMPLES {name} 2000x120 2001x70")
        say(f"BENCH-SAMPLES {name} 2100x10")
    elif test in ("bench-server", "bench-server-disk"):
        checks = [("icount", icount),
                  ("server_module", any(a.startswith("lxdrv ")
                                        for _, a in modules)),
                  ("bench_build", any(p.endswith("/bench/lxdrv_bench.elf")
                                      for p, _ in modules))]
        what, glue = (("net.tx", "net.tx.glue/60") if test == "bench-server"
                      else ("disk.read", "disk.cmd.glue/4096"))
        say(f'BENCH {{"name": "server.{what}.instr/4096", "unit": "ticks", '
            '"mode": "icount", "count": 100, "min": 9000, "median": 9100, '
            '"p99": 9900, "variance": 16.0}')
        say(f'BENCH {{"name": "server.{glue}", "unit": "ticks", '
            '"mode": "icount", "count": 100, "min": 900, "median": 910, '
            '"p99": 990, "variance": 1.0}')
    elif test == "bench-server-verify":
        prefix = next((word.split("=", 1)[1] for _, a in modules
                       for word in a.split()
                       if word.startswith("bench_prefix=")), "")
        checks = [("icount", icount),
                  ("supervised", any(" restart=" in a for _, a in modules)),
                  ("verified", (prefix == "server.verify.") ==
                   any(" verify=1 " in a for _, a in modules))]
        say('BENCH {"name": "' + prefix + 'disk.read.instr/4096", '
            '"unit": "ticks", "mode": "icount", "count": 100, "min": 9500, '
            '"median": 9600, "p99": 9900, "variance": 16.0}')
    elif test in ("bench-restart", "bench-restart-disk"):
        checks = [("icount", icount),
                  ("supervised", any(" restart=" in a for _, a in modules))]
        driver = "e1000" if test == "bench-restart" else "ata_piix"
        say(f'BENCH {{"name": "restart.recovery/{driver}", '
            '"unit": "ticks", "mode": "icount", "count": 10, '
            '"min": 400000000, "median": 410000000, "p99": 450000000, '
            '"variance": 1.0}')
    elif test == "bench-disk-wall":
        checks = [("wall", not icount and words.get("bench_mode") == "wall")]
        say('BENCH {"name": "disk.read.seq/4096", "unit": "MiB/s", '
            '"mode": "wall", "count": 9, "min": 15.5, "median": 17.25, '
            '"p99": 20.0, "variance": 1.5}')
        checks.append(("pktgen_module", any(a.startswith("pktgen ")
                                            for _, a in modules)))
        say('BENCH {"name": "pktgen.rate/60", "unit": "frames/s", '
            '"mode": "wall", "count": 5, "min": 60000.0, '
            '"median": 61000.0, "p99": 62000.0, "variance": 4.0}')
    else:
        say(f"unknown test {test}")
        checks = [("known_test", False)]
    say(f"KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: {test}")
    say(f"    1..{len(checks)}")
    for number, (name, ok) in enumerate(checks, 1):
        if not ok:
            say(f"    # fake: check {name} failed")
        say(f"    {'ok' if ok else 'not ok'} {number} {name}")
    good = all(ok for _, ok in checks)
    say(f"{'ok' if good else 'not ok'} 1 {test}")
    say(f"GRAFT-EXIT: {'pass' if good else 'fail'}")
    return 33 if good else 35

if "-f" in sys.argv:                     # Bochs
    config = dict(line.split("=", 1) for line in
                  open(arg("-f")).read().splitlines() if "=" in line)
    assert open(arg("-rc")).read() == "c\n"
    made = json.load(open(config["iso"]))
    pairs = list(zip(made["rest"][0::2], made["rest"][1::2]))
    with open(config["serial"], "w") as out:
        if "exit=bochs" in made["cmdline"]:
            guest(made["cmdline"], pairs, int(config["megs"]), False, out)
        else:
            out.write("no exit=bochs: cannot shut down\n")
    print("bochs: shutdown requested")
    sys.exit(1)
else:                                    # QEMU
    initrd = arg("-initrd")
    modules = [tuple((part + " ").split(" ", 1)) for part in initrd.split(",")] if initrd else []
    modules = [(path, args.strip()) for path, args in modules]
    assert os.path.isfile(arg("-kernel"))
    sys.exit(guest(arg("-append"), modules, int(arg("-m")), "-icount" in sys.argv, sys.stdout))
'''

FAKE_MKISO = r'''
import json, sys
iso, kernel, cmdline, *rest = sys.argv[1:]
json.dump({"kernel": kernel, "cmdline": cmdline, "rest": rest}, open(iso, "w"))
'''


def write_script(path: Path, body: str) -> Path:
    """Write an executable Python script running `body`; return its path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!{sys.executable}\n{textwrap.dedent(body)}")
    path.chmod(0o755)
    return path


def host_program(body: str) -> str:
    """Body of a fake host program printing `body` then running nothing."""
    return f"import sys\nsys.stdout.write({body!r})\n"


class RunnerTest(unittest.TestCase):
    """run.main() on fake suites in a temporary build directory."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.build = Path(self.tmp.name) / "build"
        self.src = Path(self.tmp.name) / "src"
        (self.build / "kernel").mkdir(parents=True)
        (self.build / "kernel" / "graft.elf").write_bytes(b"\x7fELF fake")
        self.emulator = write_script(Path(self.tmp.name) / "fake-emu",
                                     FAKE_EMULATOR)
        write_script(self.src / "boot" / "mkiso.sh", FAKE_MKISO)
        (self.src / "boot" / "bochsrc.in").write_text(
            "iso=@ISO@\nserial=@SERIAL_LOG@\nmegs=@MEGS@\n")

    def program(self, name: str, body: str) -> suites.HostSuite:
        """Write a fake host program and return a suite running it."""
        write_script(self.build / "tests" / "host" / name, body)
        return suites.HostSuite(name=name, argv=(f"tests/host/{name}",),
                                timeout=10)

    def main(self, args, table):
        """Run run.main() with fake emulators; return (status, out, err)."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err):
            status = run.main(["--build-dir", str(self.build), "--srcdir",
                               str(self.src), "--qemu", str(self.emulator),
                               "--bochs", str(self.emulator)] + args,
                              suites=table, out=out)
        return status, out.getvalue(), err.getvalue()

    def test_passing_host_suite_exits_zero_and_keeps_files(self):
        table = (self.program("good", host_program(GOOD_KTAP)),)
        status, out, _ = self.main([], table)
        self.assertEqual(status, 0, out)
        lines = out.splitlines()
        self.assertRegex(lines[0], r"^good: 2 passed, 0 failed, 0 skipped "
                         r"\(\d+\.\d s\)$")
        self.assertEqual(lines[-1], "2 passed, 0 failed")
        suite_dir = self.build / "tests" / "good"
        self.assertEqual((suite_dir / "console.log").read_text(), GOOD_KTAP)
        self.assertTrue((suite_dir / "ktap.txt").read_text()
                        .startswith("KTAP version 1\n"))
        self.assertIn("tests/host/good", (suite_dir / "command.txt")
                      .read_text())
        self.assertEqual((self.build / "tests" / "summary.tsv").read_text(),
                         "suite\tpassed\tfailed\tskipped\ngood\t2\t0\t0\n")

    def test_failing_case_is_named_with_its_diagnostics(self):
        text = ("KTAP version 1\n1..2\nok 1 a\n# x.c:3: want 1, got 2\n"
                "not ok 2 b\n")
        table = (self.program("bad", host_program(text)
                              + "sys.exit(1)\n"),)
        status, out, _ = self.main([], table)
        self.assertEqual(status, 1)
        self.assertIn("  FAIL b: not ok\n      # x.c:3: want 1, got 2\n",
                      out)
        self.assertIn("(fail: exit status 1)", out)
        self.assertEqual(out.splitlines()[-1], "1 passed, 1 failed")

    def test_check_hook_cases_count_after_the_run(self):
        def check(suite, suite_dir):
            self.assertTrue((suite_dir / "console.log").exists())
            return [("image_ok", None), ("image_bad", "LBA 5 differs")]
        suite = dataclasses.replace(
            self.program("checked", host_program(GOOD_KTAP)), check=check)
        status, out, _ = self.main([], (suite,))
        self.assertEqual(status, 1)
        self.assertIn("checked.host.image_bad", out)
        self.assertIn("LBA 5 differs", out)
        self.assertEqual(out.splitlines()[-1], "3 passed, 1 failed")

    def test_bad_exit_status_alone_is_a_failure(self):
        table = (self.program("crash", host_program(GOOD_KTAP)
                              + "sys.exit(3)\n"),)
        status, out, _ = self.main([], table)
        self.assertEqual(status, 1)
        self.assertIn("FAIL crash: fail: exit status 3", out)
        self.assertEqual(out.splitlines()[-1], "2 passed, 1 failed")

    def test_hanging_program_group_is_killed(self):
        pidfile = Path(self.tmp.name) / "child.pid"
        body = (f"import subprocess, time\nprint('KTAP version 1', "
                f"flush=True)\nchild = subprocess.Popen(['sleep', '600'])\n"
                f"open({str(pidfile)!r}, 'w').write(str(child.pid))\n"
                f"time.sleep(600)\n")
        suite = suites.HostSuite(name="stuck", argv=("tests/host/stuck",),
                                 timeout=1.5)
        write_script(self.build / "tests" / "host" / "stuck", body)
        start = time.monotonic()
        status, out, _ = self.main([], (suite,))
        self.assertLess(time.monotonic() - start, 10)
        self.assertEqual(status, 1)
        self.assertIn("FAIL stuck: hang:", out)
        child = int(pidfile.read_text())
        time.sleep(0.2)
        state = Path(f"/proc/{child}/stat")
        if state.exists():
            self.assertIn(" Z ", state.read_text(), "child still running")

    def test_nothing_ran_exits_one(self):
        table = (self.program("empty", host_program("KTAP version 1\n1..0\n")),)
        status, out, _ = self.main([], table)
        self.assertEqual(status, 1)
        self.assertEqual(out.splitlines()[-2:], ["no test ran",
                                                 "0 passed, 0 failed"])

    def test_unknown_suite_exits_two_and_lists_known(self):
        table = (self.program("good", host_program(GOOD_KTAP)),)
        status, out, err = self.main(["--suites", "good,nope"], table)
        self.assertEqual(status, 2)
        self.assertIn("unknown suite(s): nope", err)
        self.assertIn("known suites: good", err)
        self.assertEqual(out, "")

    def test_hidden_suite_runs_only_by_name(self):
        shown = self.program("shown", host_program(GOOD_KTAP))
        hidden = suites.HostSuite(name="secret", argv=shown.argv,
                                  hidden=True)
        status, out, _ = self.main([], (shown, hidden))
        self.assertNotIn("secret", out)
        status, out, _ = self.main(["--suites", "secret"], (shown, hidden))
        self.assertEqual(status, 0)
        self.assertTrue(out.startswith("secret: 2 passed"))

    def test_list_prints_names(self):
        status, out, _ = self.main(["--list"], suites.SUITES)
        self.assertEqual(status, 0)
        self.assertEqual([line.split("\t")[0] for line in out.splitlines()],
                         [s.name for s in suites.SUITES])

    def test_missing_program_is_one_failure(self):
        table = (suites.HostSuite(name="gone", argv=("tests/host/gone",)),)
        status, out, _ = self.main([], table)
        self.assertEqual(status, 1)
        self.assertIn("FAIL gone: not-run: no program", out)
        self.assertEqual(out.splitlines()[-1], "0 passed, 1 failed")

    def test_results_dir_option_moves_results(self):
        table = (self.program("good", host_program(GOOD_KTAP)),)
        elsewhere = Path(self.tmp.name) / "elsewhere"
        status, _, _ = self.main(["--results-dir", str(elsewhere)], table)
        self.assertEqual(status, 0)
        self.assertTrue((elsewhere / "good" / "console.log").is_file())
        self.assertTrue((elsewhere / "summary.tsv").is_file())
        self.assertFalse((self.build / "tests" / "good").exists())

    def test_fake_qemu_boot_suite_passes_with_modules(self):
        status, out, _ = self.main(["--suites", "boot"], suites.SUITES)
        self.assertEqual(status, 0, out)
        self.assertTrue(out.startswith("boot: 6 passed, 0 failed"), out)
        command = (self.build / "tests" / "boot" / "command.txt").read_text()
        self.assertIn("-initrd", command)

    def test_fake_bochs_boot_suite_passes_with_modules(self):
        status, out, _ = self.main(["--suites", "boot-bochs"], suites.SUITES)
        self.assertEqual(status, 0, out)
        self.assertTrue(out.startswith("boot-bochs: 6 passed, 0 failed"), out)
        suite_dir = self.build / "tests" / "boot-bochs"
        self.assertIn("megs=128", (suite_dir / "bochsrc").read_text())
        self.assertIn("bochs: shutdown requested",
                      (suite_dir / "bochs.log").read_text())

    def test_bochs_without_exit_line_fails(self):
        (self.src / "boot" / "mkiso.sh").write_text(
            (self.src / "boot" / "mkiso.sh").read_text().replace(
                "cmdline, \"rest\"", "cmdline.replace('exit=bochs', ''), "
                "\"rest\""))
        status, out, _ = self.main(["--suites", "boot-bochs"], suites.SUITES)
        self.assertEqual(status, 1)
        self.assertIn("no-exit-line", out)
        self.assertIn("bochs: shutdown requested", out)

    def test_bench_mode_writes_results_json(self):
        # bench-netd and its Linux twin drive a real QEMU from the host
        # through a network namespace (tests/harness/netd_host.py): no
        # fake emulator for them.
        table = tuple(s for s in suites.SUITES
                      if s.name not in ("bench-netd", "bench-netd-linux"))
        status, out, _ = self.main(["--bench"], table)
        self.assertEqual(status, 0, out)
        records = json.loads((self.build / "bench" / "results.json")
                             .read_text())
        self.assertEqual([r["name"] for r in records],
                         ["probe.empty"]
                         + [f"net.tx.glue/{nic}/60"
                            for nic, _ in suites.BENCH_NICS]
                         + ["disk.cmd.glue/16384"]
                         + [f"disk.cmd.glue/{disk}/16384"
                            for disk, _ in suites.BENCH_DISKS]
                         + ["server.net.tx.instr/4096",
                          "server.net.tx.glue/60",
                          "server.disk.read.instr/4096",
                          "server.disk.cmd.glue/4096",
                          "server.verify.disk.read.instr/4096",
                          "server.q35.disk.read.instr/4096",
                          "server.dmar.disk.read.instr/4096",
                          "restart.recovery/e1000",
                          "restart.recovery/ata_piix"])
        self.assertIn("probe.empty  ticks  icount", out)
        samples = json.loads((self.build / "bench" / "samples.json")
                             .read_text())
        self.assertEqual(samples["disk.cmd.glue/ahci/16384"],
                         [[2000, 120], [2001, 70], [2100, 10]])
        self.assertEqual(sorted(samples), sorted(
            [f"net.tx.glue/{nic}/60" for nic, _ in suites.BENCH_NICS]
            + ["disk.cmd.glue/16384"]
            + [f"disk.cmd.glue/{disk}/16384"
               for disk, _ in suites.BENCH_DISKS]))

    def test_bench_with_suites_runs_only_bench_suites_named(self):
        status, out, err = self.main(["--bench", "--suites", "bench,boot"],
                                     suites.SUITES)
        self.assertEqual(status, 2)
        self.assertIn("not bench suites: boot", err)
        status, out, _ = self.main(["--bench", "--suites", "bench-disk-ahci"],
                                   suites.SUITES)
        self.assertEqual(status, 0, out)
        records = json.loads((self.build / "bench" / "results.json")
                             .read_text())
        self.assertEqual([r["name"] for r in records],
                         ["disk.cmd.glue/ahci/16384"])

    def test_bench_samples_not_matching_fail_the_suite(self):
        table = (suites.QemuSuite(name="bench-disk", test="bench-disk",
                                  mode="icount", hidden=True,
                                  cmdline=("bench_mode=icount",
                                           "bench_disk=x/y")),)
        status, out, _ = self.main(["--bench"], table)
        self.assertEqual(status, 0, out)
        self.emulator.write_text(self.emulator.read_text().replace(
            '2100x10")', '2100x9")'))
        status, out, _ = self.main(["--bench"], table)
        self.assertEqual(status, 1)
        self.assertIn("BENCH: disk.cmd.glue/x/y/16384: 199 samples, its "
                      "BENCH line counts 200", out)
        self.assertFalse((self.build / "bench" / "samples.json").exists())

    def test_bench_mode_without_bench_lines_fails(self):
        (self.build / "bench").mkdir()
        (self.build / "bench" / "results.json").write_text("[]")
        table = (suites.QemuSuite(name="bench", test="selftest-fail",
                                  hidden=True),)
        status, out, _ = self.main(["--bench"], table)
        self.assertEqual(status, 1)
        self.assertIn("BENCH: no BENCH line", out)
        self.assertFalse((self.build / "bench" / "results.json").exists())

    def test_guest_selftest_passes_against_fake_guests(self):
        env = dict(os.environ, GRAFT_QEMU=str(self.emulator))
        context = GuestContext(self.build, self.src,
                               Path(self.tmp.name) / "runs", env)
        checks = type("FakeGuestSelftest", (GuestSelftest,),
                      {"context": context})
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(checks)
        result = unittest.TestResult()
        with contextlib.redirect_stdout(io.StringIO()):
            suite.run(result)
        problems = [str(test) + "\n" + text
                    for test, text in result.failures + result.errors]
        self.assertEqual(problems, [])
        self.assertEqual((result.testsRun, len(result.skipped)), (6, 0))

    def test_kernel_missing_is_one_failure(self):
        (self.build / "kernel" / "graft.elf").unlink()
        status, out, _ = self.main(["--suites", "boot"], suites.SUITES)
        self.assertEqual(status, 1)
        self.assertIn("not-run: no kernel image", out)
        self.assertEqual(out.splitlines()[-1], "0 passed, 1 failed")


def main() -> int:
    """Parse options, run every check, print KTAP; 0 iff all passed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", type=Path)
    parser.add_argument("--srcdir", type=Path, default=HERE.parents[1])
    parser.add_argument("--results-dir", type=Path)
    args = parser.parse_args()
    if args.build_dir is not None:
        build = args.build_dir.resolve()
        results = args.results_dir or build / "tests" / "harness-selftest" \
            / "runs"
        GuestSelftest.context = GuestContext(build, args.srcdir.resolve(),
                                             results.resolve())
    suite = unittest.defaultTestLoader.loadTestsFromModule(
        sys.modules[__name__])
    ok = ktap.run_unittests_as_ktap(suite, "harness-selftest", sys.stdout)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
