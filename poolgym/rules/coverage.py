"""Rule-ID test coverage: ``python -m poolgym.rules.coverage [--rules DIR] [--tests DIR] [-v]``.

**What counts as tested.** A rule ID is tested when a test that CI runs carries the marker
``@pytest.mark.rule("<ID>", ...)`` (on the function, its class, its module's ``pytestmark``, or
one case: ``pytest.param(..., marks=pytest.mark.rule("<ID>"))``). The marker is a claim that
the test asserts the referee's ruling for that rule -- a verdict, a foul with its rule ID, an
option offered or refused, a state the rule defines -- so that the test fails when the rule is
adjudicated differently. Naming an ID in a test's name, docstring or a comment does not count.

The markers are read by pytest's own collection of ``tests/`` (with the project's ``addopts``,
so deselected ``slow`` tests do not count, nor do tests skipped at collection). A marker that
names an ID absent from every rules file is a collection error (``tests/conftest.py``).

**What must be tested.** Every ``*.md`` in the rules directory (``README.md`` and
``conflicts.md`` excepted) is parsed for rule IDs and their labels -- headings
``### 9B-5.6 Title — DECL``, bold paragraphs ``**SP-6.7.2 Title — SIM.**``, table rows
``| T-1.16.4 | Title | SIM | ...`` and numbered sub-rules under a heading (``6. **Claiming 41 —
DECL.**`` under ``### 41-9`` is ``41-9.6``). An ID is

- *human-only* when its label is HUMAN without SIM or DECL (the rules file's HUMAN label is the
  reason: the simulator cannot observe it);
- *unlabelled* when the rules file gives it none of these labels (a heading over sub-rules, a
  lost rule, a row of a cross-reference table such as ``| 9S-1 | 9B-5.1 | ... |``);
- *not simulated* when it is listed in :data:`NOT_SIMULATED` with the reason;
- otherwise *required*: it must be tested.

A rules file is *implemented* (marked) when a registered discipline names it as its
``rules_file`` (:data:`poolgym.rules.game.DISCIPLINES`); ``general.md``
(:mod:`poolgym.rules.general`) always is. Every rules file is reported, and so are registered
disciplines that do not name a rules file yet; the exit status is 1 when a required ID of an
implemented file is untested (``tests/rules/test_rule_coverage.py`` runs the same check).
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

__all__ = ["Label", "RuleEntry", "NOT_SIMULATED", "parse_rules_file", "default_rules_dir", "rule_table", "implemented_files",
           "collect_tested", "FileReport", "report", "main"]

GENERAL = "general.md"
_NOT_RULES = ("README.md", "conflicts.md")
_ID = r"(?:[A-Z0-9]+-)+[0-9]+(?:\.[0-9]+)*|GW-P[0-9]+"
_HEAD = re.compile(r"^#{2,4}\s+(" + _ID + r")\b([^\n]*)$")
_BOLD = re.compile(r"^\*\*(" + _ID + r")\b([^\n]*?)\*\*")
_ROW = re.compile(r"^\|\s*(" + _ID + r")\s*\|[^|]*\|\s*([^|]*)\|")
#: a numbered sub-rule under a heading: ``6. **Claiming 41 — DECL.**`` under ``### 41-9`` is 41-9.6
_SUB = re.compile(r"^([0-9]+)\.\s+\*\*([^\n]*?)\*\*")

#: Rule IDs labelled SIM or DECL that no test can adjudicate in this simulator, with the reason.
NOT_SIMULATED: dict = {
    "G-3.31": "balls moving spontaneously (settling, a ball falling into a pocket seconds later) "
              "cannot happen: the physics ends every shot with all balls at rest and none moves afterwards",
    "GB-25": "as G-3.31: no ball moves after the shot has ended",
    "GW-7": "ball settling (as G-3.31): no ball moves after the shot has ended",
    "G-3.33": "jawed balls that several balls hold in a pocket's jaws do not occur: the physics "
              "resolves every ball to rest on the bed or in a pocket; there is nothing to re-place",
    "G-3.24": "push shot: the cue stick is not modelled (the strike is one instantaneous impulse, C-55)",
    "GB-21": "push shot: the cue stick is not modelled (C-55)",
    "9B-5.12": "jump / masse foul: the impeding ball can only move by cue or hand contact; the cue "
               "stick is not modelled (C-55)",
    "8B-4.18": "jump / masse foul (as 9B-5.12): the cue stick is not modelled (C-55)",
    "T-1.16.2": "jump / masse foul without a referee: cue or hand contact with a ball; the cue stick "
                "is not modelled (C-55)",
    "T-1.11": "shot clock: wall-clock time does not apply to an environment step (optional in the rules file)",
    "T-1.8": "practice shots: there is no practice action, so there is nothing to adjudicate",
    "SP-6.7.5": "intentional foul (touching or catching a moving ball): actions start from rest and "
                "no hand or cue contact with a moving ball exists",
    "R-2.7": "the referee's racking inspection: the rack is exact by construction (T-1.16.5 is tested)",
}


class Label(Enum):
    """How a rule ID is treated by the coverage check."""
    REQUIRED = "required"          # SIM or DECL: a test must assert it
    NOT_SIMULATED = "not simulated"  # SIM or DECL, listed in NOT_SIMULATED
    HUMAN = "human-only"           # HUMAN, neither SIM nor DECL
    UNLABELLED = "unlabelled"      # no SIM / DECL / HUMAN label (a section heading, a lost rule, an alias row)


@dataclass(frozen=True)
class RuleEntry:
    rule_id: str
    label: Label
    text_label: str   # the label as written in the rules file


def parse_rules_file(path: Path) -> list:
    """[RuleEntry] of one rules file, in order of appearance (first occurrence of each ID).
    A numbered paragraph ``n. **Title — SIM.**`` under a heading with an ID (``### CW-6``) is
    the sub-rule ``CW-6.n``."""
    out, seen = [], set()
    parent = None
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            h = _HEAD.match(line)
            parent = h.group(1) if h else None
        m = _HEAD.match(line) or _BOLD.match(line) or _ROW.match(line)
        if m is not None:
            rid, rest = m.group(1), m.group(2)
        else:
            m = _SUB.match(line) if parent is not None else None
            if m is None:
                continue
            rid, rest = f"{parent}.{m.group(1)}", " " + m.group(2)
        if rid in seen:
            continue
        if m.re is _ROW:
            text = rest.strip()
        else:
            parts = re.split(r"\s[—–]\s|\s-{1,2}\s", rest)
            text = parts[-1].strip().rstrip(".") if len(parts) > 1 else ""
        seen.add(rid)
        if re.search(r"\b(SIM|DECL)\b", text) is None:
            label = Label.HUMAN if re.search(r"\bHUMAN\b", text) else Label.UNLABELLED
        elif rid in NOT_SIMULATED:
            label = Label.NOT_SIMULATED
        else:
            label = Label.REQUIRED
        out.append(RuleEntry(rid, label, text))
    return out


def default_rules_dir() -> Path:
    """``shared/rules`` next to the checkout (``../shared/rules``), else ``/work/shared/rules``."""
    here = Path(__file__).resolve()
    for cand in (here.parents[2].parent / "shared" / "rules", here.parents[2] / "shared" / "rules"):
        if cand.is_dir():
            return cand
    return Path("/work/shared/rules")


def rule_table(rules_dir: Path) -> dict:
    """{file name: [RuleEntry]} for every rules file of ``rules_dir``, sorted by name."""
    files = sorted(p for p in Path(rules_dir).glob("*.md") if p.name not in _NOT_RULES)
    return {p.name: parse_rules_file(p) for p in files}


def implemented_files() -> set:
    """Rules files marked implemented: ``general.md`` and the ``rules_file`` of each
    registered discipline that names one (the mark a discipline sets once every SIM / DECL
    rule of its file is asserted by a test)."""
    return {GENERAL} | {rf for rf in _registered_rules_files().values() if rf}


def _registered_rules_files() -> dict:
    """{registered discipline name: its ``rules_file`` or None}."""
    from .game import DISCIPLINES, get_discipline

    return {name: getattr(get_discipline(name), "rules_file", None) for name in DISCIPLINES}


class _Collector:
    """pytest plugin: the rule IDs of the ``rule`` markers of every selected, not skipped item."""

    def __init__(self):
        self.tested: dict = {}
        self.errors: list = []

    def pytest_collectreport(self, report):
        if report.failed:
            self.errors.append(f"{report.nodeid}: {report.longreprtext.strip().splitlines()[-1:]}")

    def pytest_collection_finish(self, session):
        from _pytest.skipping import evaluate_skip_marks

        for item in session.items:
            if evaluate_skip_marks(item) is not None:
                continue
            for mark in item.iter_markers("rule"):
                for rid in mark.args:
                    self.tested.setdefault(str(rid), []).append(item.nodeid)


def collect_tested(tests_dir: Path) -> dict:
    """{rule ID: [test node ids]} from a pytest collection of ``tests_dir`` (no test runs).
    A collection error raises (an import error must not shrink the coverage silently)."""
    import contextlib
    import io

    import pytest

    tests_dir = Path(tests_dir).resolve()
    col = _Collector()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "--rootdir", str(tests_dir.parent),
                          str(tests_dir)], plugins=[col])
    if col.errors or rc not in (0, 5):
        raise RuntimeError(f"pytest collection of {tests_dir} failed (exit {rc}):\n{out.getvalue()[-4000:]}")
    return col.tested


@dataclass
class FileReport:
    name: str
    implemented: bool
    tested: list = field(default_factory=list)
    untested: list = field(default_factory=list)
    not_simulated: list = field(default_factory=list)
    human: list = field(default_factory=list)
    unlabelled: list = field(default_factory=list)

    @property
    def required(self) -> int:
        return len(self.tested) + len(self.untested)

    @property
    def complete(self) -> bool:
        return not self.untested


def report(table: dict, tested: dict, implemented: set) -> list:
    """[FileReport] per rules file from :func:`rule_table` and :func:`collect_tested`."""
    out = []
    for name, entries in table.items():
        fr = FileReport(name, name in implemented)
        for e in entries:
            if e.label is Label.HUMAN:
                fr.human.append(e.rule_id)
            elif e.label is Label.UNLABELLED:
                fr.unlabelled.append(e.rule_id)
            elif e.label is Label.NOT_SIMULATED:
                fr.not_simulated.append(e.rule_id)
            elif e.rule_id in tested:
                fr.tested.append(e.rule_id)
            else:
                fr.untested.append(e.rule_id)
        out.append(fr)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m poolgym.rules.coverage", description=__doc__.splitlines()[0])
    ap.add_argument("--rules", type=Path, default=default_rules_dir(), help="rules directory")
    ap.add_argument("--tests", type=Path, default=Path(__file__).resolve().parents[2] / "tests",
                    help="tests directory")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the tested IDs with their tests")
    args = ap.parse_args(argv)
    table = rule_table(args.rules)
    tested = collect_tested(args.tests)
    impl = implemented_files()
    reports = report(table, tested, impl)
    failing = []
    for fr in reports:
        pct = 100.0 * len(fr.tested) / fr.required if fr.required else 100.0
        status = "implemented" if fr.implemented else "not implemented"
        print(f"{fr.name} ({status}): tested {len(fr.tested)}/{fr.required} ({pct:.0f}%), "
              f"not simulated {len(fr.not_simulated)}, human-only {len(fr.human)}, unlabelled {len(fr.unlabelled)}")
        if fr.untested and fr.implemented:
            print("  UNTESTED: " + " ".join(fr.untested))
            failing.append(fr.name)
        if fr.implemented:
            for rid in fr.not_simulated:
                print(f"  not simulated {rid}: {NOT_SIMULATED[rid]}")
            if fr.human:
                print("  human-only (HUMAN in the rules file): " + " ".join(fr.human))
            if fr.unlabelled:
                print("  unlabelled in the rules file: " + " ".join(fr.unlabelled))
        if args.verbose:
            for rid in fr.tested:
                print(f"  {rid}: " + ", ".join(tested[rid]))
    unmarked = sorted(name for name, rf in _registered_rules_files().items() if not rf)
    if unmarked:
        print("registered disciplines not marked implemented (no rules_file): " + " ".join(unmarked))
    total = sum(len(fr.tested) for fr in reports if fr.implemented)
    req = sum(fr.required for fr in reports if fr.implemented)
    print(f"implemented files: tested {total}/{req}" + (f"; incomplete: {' '.join(failing)}" if failing else ""))
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
