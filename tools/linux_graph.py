#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Who calls and names whom in compiled Linux objects (objdump): what an
initcall reaches, directly or through the driver structures it
registers.  Used by tools/linux_link.py (a driver whose initcall reaches
a stub is not linked) and tools/linux_coverage.py (the per-driver
report)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from linux_build import run


class Graph:
    """Who refers to whom in a set of objects: functions' calls and
    address references (objdump -dr), data objects' relocations
    (objdump -r), local names qualified with their object."""

    def __init__(self, objs: list[Path] | None = None) -> None:
        self.calls: dict[str, set[str]] = {}
        self.refs: dict[str, set[str]] = {}
        self.inits: set[str] = set()
        self.functions: set[str] = set()
        for obj in objs or ():
            one = object_graph(obj)
            for mine, theirs in ((self.calls, one.calls),
                                 (self.refs, one.refs)):
                for k, v in theirs.items():
                    mine.setdefault(k, set()).update(v)
            self.inits |= one.inits
            self.functions |= one.functions

    def read(self, obj: Path) -> None:
        table: dict[str, list[tuple[int, int, str]]] = {}
        names: dict[str, str] = {}
        for line in run("objdump", ["objdump", "-t", str(obj)]).splitlines():
            m = re.match(r"^([0-9a-f]{16}) (.{7}) (\S+)\s+([0-9a-f]{16}) "
                         r"(?:\.hidden )?(\S+)$", line)
            if not m or m.group(3) in ("*UND*", "*ABS*"):
                continue
            flags, sect, name = m.group(2), m.group(3), m.group(5)
            key = name if flags[0] in "gu" else f"{obj}:{name}"
            names[name] = key if name not in names or flags[0] in "gu" \
                else names[name]
            if "F" in flags or "O" in flags:
                table.setdefault(sect, []).append(
                    (int(m.group(1), 16), int(m.group(4), 16), key))
                if "F" in flags:
                    self.functions.add(key)

        def resolve(target: str) -> str | None:
            m = re.match(r"^([^+-]+)([+-]0x[0-9a-f]+)?$", target)
            if not m:
                return None
            base, off = m.group(1), int(m.group(2) or "0", 16)
            if base in table or base.startswith("."):
                for start, size, key in table.get(base, []):
                    if start <= off < start + max(size, 1):
                        return key
                return None
            return names.get(base, base)

        cur = None
        dis = run("objdump", ["objdump", "-dr", "--no-show-raw-insn",
                              str(obj)])
        for line in dis.splitlines():
            m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
            if m:
                cur = names.get(m.group(1), m.group(1))
                continue
            if cur is None:
                continue
            m = re.search(r"\bR_X86_64_(\w+)\s+(\S+)", line)
            if m:
                to = resolve(m.group(2))
                if to and to != cur:
                    kind = self.calls if m.group(1) == "PLT32" else self.refs
                    kind.setdefault(cur, set()).add(to)
                continue
            m = re.search(r"\s(?:call|jmp)\s+[0-9a-f]+ <([^+>]+)", line)
            if m:
                to = names.get(m.group(1), m.group(1))
                if to != cur:
                    self.calls.setdefault(cur, set()).add(to)
        sect = None
        for line in run("objdump", ["objdump", "-r", str(obj)]).splitlines():
            m = re.match(r"^RELOCATION RECORDS FOR \[(.+)\]:", line)
            if m:
                sect = m.group(1)
                continue
            parts = line.split()
            if sect is None or len(parts) != 3 or \
                    not parts[1].startswith("R_X86_64_") or \
                    sect.startswith(".text") or sect.startswith(".init.text"):
                continue
            to = resolve(parts[2])
            if to is None:
                continue
            if sect.startswith(".initcall"):
                self.inits.add(to)
                continue
            owner = resolve(f"{sect}+0x{parts[0]}")
            if owner:
                self.refs.setdefault(owner, set()).add(to)

    def calls_from(self, roots: set[str]) -> set[str]:
        """@roots and what they call, directly or not."""
        seen, todo = set(), list(roots)
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            todo += self.calls.get(f, ())
        return seen

    def from_init(self) -> set[str]:
        """The initcalls and what they call."""
        return self.calls_from(self.inits)

    def from_init_and_probe(self) -> set[str]:
        """The initcalls and what they call; the functions the data they
        name refers to (the pci_driver's probe...) and what those call."""
        calls_from = self.calls_from
        first = self.from_init()
        named = {t for f in first for d in self.refs.get(f, ())
                 if d not in self.functions
                 for t in self.refs.get(d, ()) if t in self.functions}
        named |= {t for f in first for t in self.refs.get(f, ())
                  if t in self.functions}
        return first | calls_from(named)


@functools.lru_cache(maxsize=None)
def object_graph(obj: Path) -> Graph:
    """One object's graph (objdump, read once)."""
    graph = Graph()
    graph.read(obj)
    return graph
