# SPDX-License-Identifier: GPL-2.0-only
"""Run a program or boot Graft in QEMU/Bochs, and classify how it ended."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

# QEMU's isa-debug-exit status for each value the kernel writes.
QEMU_PASS, QEMU_FAIL, QEMU_PANIC = 33, 35, 37
LAST_LINES = 15
PANIC_LINES = 40
PANIC_PREFIX = "*** PANIC"
_EXIT_LINE = re.compile(r"^\s*GRAFT-EXIT:\s*(\S*)")


class BootError(Exception):
    """A boot could not be started (missing emulator, kernel, script...)."""


@dataclass(frozen=True)
class Outcome:
    """How a process ended: its status (None if killed on timeout)."""

    returncode: int | None
    timed_out: bool
    duration: float


@dataclass(frozen=True)
class Verdict:
    """Classification of a run.

    status is one of: pass; fail (the guest or program itself said fail);
    panic; hang; triple-fault; no-exit-line; emulator-error; signal;
    not-run. `reason` is one sentence (empty on pass), `details` the lines
    worth showing (panic report, last console lines, emulator messages).
    """

    status: str
    reason: str = ""
    details: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True iff the run passed."""
        return self.status == "pass"


def run_process(argv: list[str], *, cwd: Path, stdout: Path, stderr: Path,
                timeout: float, env: dict | None = None) -> Outcome:
    """Run argv with stdin /dev/null, its output going to the given files.

    stdout and stderr may be the same path. The process gets its own session;
    at `timeout` seconds its whole process group is killed (SIGKILL) and the
    outcome says timed_out. Raises BootError if argv[0] cannot be executed.
    """
    start = time.monotonic()
    with open(stdout, "wb") as out:
        err = out if Path(stderr) == Path(stdout) else open(stderr, "wb")
        try:
            try:
                process = subprocess.Popen(
                    argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out,
                    stderr=err, env=env, start_new_session=True)
            except OSError as error:
                raise BootError(f"cannot run {argv[0]}: "
                                f"{error.strerror or error}") from error
            try:
                code = process.wait(timeout=timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                kill_group(process)
                code, timed_out = None, True
        finally:
            if err is not out:
                err.close()
    return Outcome(code, timed_out, time.monotonic() - start)


def kill_group(process: subprocess.Popen) -> None:
    """SIGKILL the process group led by `process` and reap `process`."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def last_lines(text: str, count: int = LAST_LINES) -> tuple[str, ...]:
    """Return the last `count` non-empty lines of `text`, without CRs."""
    lines = [line.replace("\r", "").rstrip() for line in text.splitlines()]
    return tuple(line for line in lines if line)[-count:]


def exit_line(console: str) -> str | None:
    """Return the word after the last 'GRAFT-EXIT:' line, or None."""
    word = None
    for line in console.splitlines():
        match = _EXIT_LINE.match(line.replace("\r", ""))
        if match:
            word = match.group(1)
    return word


def panic_report(console: str) -> tuple[str, ...]:
    """Return the lines from the first '*** PANIC' line on (at most
    PANIC_LINES, stopping before 'GRAFT-EXIT:'), or () without a panic."""
    lines = [line.replace("\r", "").rstrip() for line in console.splitlines()]
    for index, line in enumerate(lines):
        if line.lstrip().startswith(PANIC_PREFIX):
            report = []
            for follow in lines[index:index + PANIC_LINES]:
                if _EXIT_LINE.match(follow):
                    break
                report.append(follow)
            return tuple(report)
    return ()


def _tail_section(title: str, text: str) -> tuple[str, ...]:
    tail = last_lines(text)
    return (f"{title}:",) + tail if tail else ()


def _hang(timeout: float | None, console: str) -> Verdict:
    limit = f" of {timeout:g} s" if timeout is not None else ""
    return Verdict("hang", f"no end of boot within the time limit{limit}; "
                   f"killed", _tail_section("last console lines", console))


def _panic(console: str, why: str) -> Verdict:
    report = panic_report(console)
    details = (("panic report:",) + report if report
               else _tail_section("last console lines", console))
    return Verdict("panic", f"the guest panicked ({why})", details)


def classify_qemu(returncode: int | None, timed_out: bool, console: str,
                  stderr: str = "", timeout: float | None = None) -> Verdict:
    """Classify a QEMU boot from its exit status and console (pure).

    Time limit reached = hang; a '*** PANIC' line, 'GRAFT-EXIT: panic' or
    status 37 = panic; status 35 or 'GRAFT-EXIT: fail' = fail; status 0 =
    triple-fault (or reset); status 33 with 'GRAFT-EXIT: pass' = pass, without
    it = no-exit-line; any other status = emulator-error.
    """
    word = exit_line(console)
    if timed_out:
        return _hang(timeout, console)
    if panic_report(console) or word == "panic" or returncode == QEMU_PANIC:
        return _panic(console, f"QEMU exit status {returncode}, "
                      f"GRAFT-EXIT: {word}")
    if returncode == QEMU_FAIL or word == "fail":
        return Verdict("fail", f"the guest reported failure (QEMU exit "
                       f"status {returncode}, GRAFT-EXIT: {word})")
    if returncode == 0:
        return Verdict("triple-fault", "QEMU exited with status 0: triple "
                       "fault or reset",
                       _tail_section("last console lines", console))
    if returncode == QEMU_PASS:
        if word == "pass":
            return Verdict("pass")
        if word is None:
            return Verdict("no-exit-line", "QEMU exit status 33 but no "
                           "'GRAFT-EXIT:' line",
                           _tail_section("last console lines", console))
        return Verdict("fail", f"unknown 'GRAFT-EXIT: {word}'")
    return Verdict("emulator-error", f"QEMU failed (exit status {returncode})",
                   _tail_section("QEMU messages", stderr)
                   + _tail_section("last console lines", console))


def classify_bochs(returncode: int | None, timed_out: bool, console: str,
                   log: str = "", timeout: float | None = None) -> Verdict:
    """Classify a Bochs boot from its serial console (pure).

    Bochs always exits 1, so only the console counts: time limit = hang;
    '*** PANIC' or 'GRAFT-EXIT: panic' = panic; 'GRAFT-EXIT: pass' = pass;
    'GRAFT-EXIT: fail' = fail; no 'GRAFT-EXIT:' line = no-exit-line (with
    the tail of Bochs' own log `log`).
    """
    word = exit_line(console)
    if timed_out:
        return _hang(timeout, console)
    if panic_report(console) or word == "panic":
        return _panic(console, f"GRAFT-EXIT: {word}")
    if word == "pass":
        return Verdict("pass")
    if word == "fail":
        return Verdict("fail", "the guest reported failure (GRAFT-EXIT: fail)")
    if word is None:
        return Verdict("no-exit-line", f"Bochs stopped (exit status "
                       f"{returncode}) without a 'GRAFT-EXIT:' line",
                       _tail_section("last console lines", console)
                       + _tail_section("Bochs messages", log))
    return Verdict("fail", f"unknown 'GRAFT-EXIT: {word}'")


def classify_host(returncode: int | None, timed_out: bool, stderr: str = "",
                  timeout: float | None = None) -> Verdict:
    """Classify a host program: 0 = pass, >0 = fail, <0 = signal (pure)."""
    if timed_out:
        limit = f" of {timeout:g} s" if timeout is not None else ""
        return Verdict("hang", f"still running at the time limit{limit}; "
                       "killed", _tail_section("last stderr lines", stderr))
    if returncode == 0:
        return Verdict("pass")
    if returncode is not None and returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = str(-returncode)
        return Verdict("signal", f"killed by signal {name}",
                       _tail_section("last stderr lines", stderr))
    return Verdict("fail", f"exit status {returncode}",
                   _tail_section("last stderr lines", stderr))


def qemu_command(qemu: str, kernel: Path, suite) -> list[str]:
    """Return the QEMU argv booting `kernel` for a QemuSuite (pure).

    Raises BootError if a module path contains ',' or a space (they would
    break -initrd).
    """
    append = " ".join((f"test={suite.test}",) + tuple(suite.cmdline))
    argv = [qemu, "-accel", "tcg", "-M", "pc", "-m", str(suite.memory_mib),
            "-display", "none", "-monitor", "none", "-serial", "stdio",
            "-no-reboot", "-device", "isa-debug-exit,iobase=0x501,iosize=1",
            "-kernel", str(kernel), "-append", append]
    if suite.modules:
        parts = []
        for path, args in suite.modules:
            if "," in path or " " in path or "," in args:
                raise BootError(f"module {path!r} {args!r}: no ',' allowed, "
                                "nor ' ' in the path")
            parts.append(f"{path} {args}".strip())
        argv += ["-initrd", ",".join(parts)]
    if suite.mode == "icount":
        argv += ["-icount", "shift=0,sleep=off"]
    elif suite.mode:
        raise BootError(f"unknown mode {suite.mode!r}")
    return list(suite.command_prefix) + argv + list(suite.qemu_args)


def boot_qemu(qemu: str, kernel: Path, suite, suite_dir: Path,
              env: dict | None = None) -> tuple[Verdict, Outcome | None]:
    """Boot a QemuSuite; console.log, stderr.log, command.txt go to suite_dir.

    Returns (verdict, outcome); outcome is None when nothing could run
    (verdict not-run). Never raises for guest or emulator problems.
    """
    console, stderr = suite_dir / "console.log", suite_dir / "stderr.log"
    console.write_bytes(b"")
    if not kernel.is_file():
        return Verdict("not-run", f"no kernel image {kernel} (build it "
                       "first)"), None
    try:
        argv = qemu_command(qemu, kernel, suite)
        (suite_dir / "command.txt").write_text(shlex.join(argv) + "\n")
        outcome = run_process(argv, cwd=suite_dir, stdout=console,
                              stderr=stderr, timeout=suite.timeout, env=env)
    except BootError as error:
        return Verdict("not-run", str(error)), None
    verdict = classify_qemu(outcome.returncode, outcome.timed_out,
                            read_text(console), read_text(stderr),
                            suite.timeout)
    return verdict, outcome


def bochs_config(template: str, iso: Path, serial_log: Path,
                 megs: int) -> str:
    """Fill the bochsrc template: replace @ISO@, @SERIAL_LOG@, @MEGS@."""
    return (template.replace("@ISO@", str(iso))
            .replace("@SERIAL_LOG@", str(serial_log))
            .replace("@MEGS@", str(megs)))


def bochs_cmdline(suite) -> str:
    """Return the kernel command line of a BochsSuite."""
    return " ".join((f"test={suite.test}", "exit=bochs")
                    + tuple(suite.cmdline))


def boot_bochs(bochs: str, kernel: Path, srcdir: Path, suite, suite_dir: Path,
               env: dict | None = None) -> tuple[Verdict, Outcome | None]:
    """Build the GRUB ISO with boot/mkiso.sh and boot it in Bochs.

    Writes graft.iso, mkiso.log, bochsrc (the template, then the suite's
    `bochsrc` lines), bochs.rc, bochs.log (Bochs' stdout+stderr),
    console.log (the serial port) and command.txt in suite_dir.  Returns
    (verdict, outcome) like boot_qemu().
    """
    console = suite_dir / "console.log"
    console.write_bytes(b"")
    mkiso, template = srcdir / "boot" / "mkiso.sh", srcdir / "boot" / "bochsrc.in"
    for needed in (kernel, mkiso, template):
        if not needed.is_file():
            return Verdict("not-run", f"missing {needed}"), None
    iso = suite_dir / "graft.iso"
    mkiso_argv = [str(mkiso), str(iso), str(kernel), bochs_cmdline(suite)]
    for path, args in suite.modules:
        mkiso_argv += [path, args]
    if not os.access(mkiso, os.X_OK):
        mkiso_argv.insert(0, "sh")
    rcfile, bochsrc = suite_dir / "bochs.rc", suite_dir / "bochsrc"
    argv = [bochs, "-q", "-f", str(bochsrc), "-rc", str(rcfile)]
    (suite_dir / "command.txt").write_text(
        shlex.join(mkiso_argv) + "\n" + shlex.join(argv) + "\n")
    try:
        built = run_process(mkiso_argv, cwd=suite_dir,
                            stdout=suite_dir / "mkiso.log",
                            stderr=suite_dir / "mkiso.log", timeout=120,
                            env=env)
    except BootError as error:
        return Verdict("not-run", str(error)), None
    if built.timed_out or built.returncode != 0 or not iso.is_file():
        log = read_text(suite_dir / "mkiso.log")
        return Verdict("not-run", f"mkiso.sh failed (status "
                       f"{built.returncode})",
                       _tail_section("mkiso.sh output", log)), None
    bochsrc.write_text(bochs_config(template.read_text(), iso, console,
                                    suite.memory_mib)
                       + "".join(f"{line}\n" for line in suite.bochsrc))
    rcfile.write_text("c\n")
    try:
        outcome = run_process(argv, cwd=suite_dir, stdout=suite_dir /
                              "bochs.log", stderr=suite_dir / "bochs.log",
                              timeout=suite.timeout, env=env)
    except BootError as error:
        return Verdict("not-run", str(error)), None
    verdict = classify_bochs(outcome.returncode, outcome.timed_out,
                             read_text(console),
                             read_text(suite_dir / "bochs.log"),
                             suite.timeout)
    return verdict, outcome


def read_text(path: Path) -> str:
    """Return a file's text (undecodable bytes replaced), '' if absent."""
    try:
        return Path(path).read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""
