"""Rule-ID test coverage: ``python -m poolgym.rules.coverage [--rules DIR] [--tests DIR] [-v]``.

Scans the rule files (general, eight_ball, nine_ball, straight_pool) for rule IDs
labelled SIM or DECL -- headings ``### 9B-5.6 Title — DECL``, bold paragraphs
``**SP-6.7.2 Title — SIM.**`` and table rows ``| T-1.16.4 | Title | SIM | ...`` -- then
greps every file under ``tests/`` for each ID string (exact, not followed by another
digit or ``.digit``). Prints the uncovered IDs per file and ``covered X/Y``.
Exit status 0 (it is a report, not a gate).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

__all__ = ["rule_ids", "covered_ids", "main"]

FILES = ("general.md", "eight_ball.md", "nine_ball.md", "straight_pool.md")
_ID = r"(?:[A-Z0-9]+-)+[0-9]+(?:\.[0-9]+)*|GW-P[0-9]+"
_HEAD = re.compile(r"^#{2,4}\s+(" + _ID + r")\b[^\n]*?[—-]{1,2}\s*([^\n]*)$")
_BOLD = re.compile(r"^\*\*(" + _ID + r")\b[^\n]*?[—-]{1,2}\s*([A-Z][A-Z /+]*)")
_ROW = re.compile(r"^\|\s*(" + _ID + r")\s*\|[^|]*\|\s*([^|]*)\|")


def _default_rules_dir() -> Path:
    here = Path(__file__).resolve()
    for cand in (here.parents[2].parent / "shared" / "rules", Path("/work/shared/rules"),
                 here.parents[2] / "shared" / "rules"):
        if cand.is_dir():
            return cand
    return Path("/work/shared/rules")


def rule_ids(rules_dir: Path, files=FILES) -> dict:
    """{file: [IDs labelled SIM or DECL, in order]}."""
    out = {}
    for name in files:
        p = Path(rules_dir) / name
        if not p.exists():
            continue
        ids = []
        for line in p.read_text(encoding="utf-8").splitlines():
            m = _HEAD.match(line) or _BOLD.match(line) or _ROW.match(line)
            if not m:
                continue
            rid, label = m.group(1), m.group(2)
            if re.search(r"\b(SIM|DECL)\b", label) and rid not in ids:
                ids.append(rid)
        out[name] = ids
    return out


def _test_text(tests_dir: Path) -> str:
    chunks = []
    for root, _, files in os.walk(tests_dir):
        for f in files:
            if f.endswith((".py", ".json", ".md", ".txt", ".yaml", ".toml")):
                try:
                    chunks.append(Path(root, f).read_text(encoding="utf-8", errors="replace"))
                except OSError:
                    pass
    return "\n".join(chunks)


def covered_ids(ids, tests_dir: Path) -> set:
    text = _test_text(Path(tests_dir))
    got = set()
    for rid in ids:
        if re.search(re.escape(rid) + r"(?![0-9]|\.[0-9])", text):
            got.add(rid)
    return got


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m poolgym.rules.coverage", description=__doc__.splitlines()[0])
    ap.add_argument("--rules", type=Path, default=_default_rules_dir(), help="rules directory")
    ap.add_argument("--tests", type=Path, default=Path(__file__).resolve().parents[2] / "tests",
                    help="tests directory")
    ap.add_argument("-v", "--verbose", action="store_true", help="list covered IDs too")
    args = ap.parse_args(argv)
    per_file = rule_ids(args.rules)
    all_ids = [rid for ids in per_file.values() for rid in ids]
    got = covered_ids(all_ids, args.tests)
    for name, ids in per_file.items():
        miss = [r for r in ids if r not in got]
        print(f"{name}: {len(ids) - len(miss)}/{len(ids)} covered")
        if miss:
            print("  uncovered: " + " ".join(miss))
        if args.verbose:
            print("  covered: " + " ".join(r for r in ids if r in got))
    print(f"covered {len(got)}/{len(all_ids)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
