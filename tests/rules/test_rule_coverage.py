"""Rule coverage (``python -m poolgym.rules.coverage``): every SIM / DECL rule ID of every
implemented rules file is asserted by a test carrying ``@pytest.mark.rule``; IDs named only
in comments or docstrings do not count; human-only and not-simulated IDs are reported apart."""
import subprocess
import sys
import textwrap
from pathlib import Path


from poolgym.rules import coverage
from poolgym.rules.coverage import Label

ROOT = Path(__file__).resolve().parents[2]
RULES = coverage.default_rules_dir()


def _run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "poolgym.rules.coverage", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd)


def test_parser_reads_labels_of_every_form():
    """Headings, bold paragraphs and table rows; HUMAN, SIM / DECL, unlabelled and the
    NOT_SIMULATED list."""
    table = coverage.rule_table(RULES)
    assert {"general.md", "nine_ball.md", "eight_ball.md", "straight_pool.md", "six_ball.md"} <= set(table)
    assert "conflicts.md" not in table and "README.md" not in table
    lab = {e.rule_id: e.label for entries in table.values() for e in entries}
    assert lab["9B-5.6"] is Label.REQUIRED            # heading "— DECL"
    assert lab["SP-6.7.2"] is Label.REQUIRED          # bold paragraph
    assert lab["T-1.16.4"] is Label.REQUIRED          # table row
    assert lab["G-3.1"] is Label.HUMAN and lab["T-1.1"] is Label.HUMAN
    assert lab["G-3.31"] is Label.NOT_SIMULATED and lab["9B-5.12"] is Label.NOT_SIMULATED
    assert lab["SP-6.7"] is Label.UNLABELLED          # heading over SP-6.7.x
    assert len([r for r, v in lab.items() if v is Label.REQUIRED]) >= 140


def test_numbered_sub_rules_under_a_heading_are_their_own_ids(tmp_path):
    """``n. **Title — SIM.**`` under ``### CW-6`` is CW-6.n with its own label (a sub-rule
    counts only under a heading with an ID); in the real files: CW-6.1 ... CW-6.8, 41-9.6
    (DECL), CR-9.x, 1S-7.x."""
    f = tmp_path / "x.md"
    f.write_text("### XX-6 Rules of play\n1. **Continuation — SIM.** text\n   more text\n"
                 "2. **Claim — DECL.** text\n3. **Etiquette — HUMAN.** text\n"
                 "## 2. Procedures\n1. **Not a rule — SIM.** under a heading without an ID\n")
    got = {e.rule_id: e.label for e in coverage.parse_rules_file(f)}
    assert got == {"XX-6": Label.UNLABELLED, "XX-6.1": Label.REQUIRED, "XX-6.2": Label.REQUIRED,
                   "XX-6.3": Label.HUMAN}
    lab = {e.rule_id: e.label for entries in coverage.rule_table(RULES).values() for e in entries}
    for rid in ("CW-6.1", "CW-6.8", "41-9.6", "CR-9.8", "1S-7.6", "MM-8.6", "OB-8.7", "PP-9.3"):
        assert lab[rid] is Label.REQUIRED


def test_not_simulated_list_names_sim_or_decl_ids_only():
    """Every NOT_SIMULATED entry is a SIM / DECL rule of some rules file, with a reason."""
    entries = {e.rule_id: e for es in coverage.rule_table(RULES).values() for e in es}
    for rid, reason in coverage.NOT_SIMULATED.items():
        assert rid in entries, rid
        assert entries[rid].label is Label.NOT_SIMULATED and len(reason) > 20, rid


def test_implemented_files_are_the_marked_ones():
    """general.md and every registered discipline's rules_file; all are rules files."""
    impl = coverage.implemented_files()
    assert {"general.md", "nine_ball.md", "eight_ball.md", "straight_pool.md"} <= impl
    assert impl <= set(coverage.rule_table(RULES))


def test_only_markers_count(tmp_path):
    """A rule named in a comment, a docstring or a test name is untested; a marker on a
    function or one parametrised case counts; a skipped test does not."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "general.md").write_text(textwrap.dedent("""\
        ### G-3.2 Racking — SIM
        ### G-3.4 Calling shots — DECL
        ### G-3.5 Miss — SIM
        ### G-3.7 Opening break — DECL
        ### G-3.1 Tables — HUMAN
        """), encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_x.py").write_text(textwrap.dedent('''\
        import pytest

        # G-3.5 is only named here
        def test_G_3_5_named():
            """G-3.5: named in the docstring."""

        @pytest.mark.rule("G-3.2")
        def test_marked():
            pass

        @pytest.mark.parametrize("x", [1, pytest.param(2, marks=pytest.mark.rule("G-3.4"))])
        def test_case(x):
            pass

        @pytest.mark.skip(reason="off")
        @pytest.mark.rule("G-3.7")
        def test_skipped():
            pass
        '''), encoding="utf-8")
    res = _run("--rules", rules, "--tests", tests, "-v")
    assert res.returncode == 1, res.stdout + res.stderr
    lines = res.stdout.splitlines()
    assert "general.md (implemented): tested 2/4 (50%), not simulated 0, human-only 1, unlabelled 0" in lines
    assert "  UNTESTED: G-3.5 G-3.7" in lines
    assert any(line.startswith("  G-3.4: ") and "test_case[2]" in line for line in lines)


def test_collection_error_is_an_error(tmp_path):
    """A test module that does not import fails the coverage run (it must not shrink it)."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_broken.py").write_text("import no_such_module_for_coverage\n", encoding="utf-8")
    res = _run("--tests", tests)
    assert res.returncode != 0 and "collection" in res.stderr


def test_implemented_rules_files_fully_tested():
    """The project's gate: 100% of the required IDs of every implemented rules file."""
    res = _run()
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    last = res.stdout.strip().splitlines()[-1]
    assert last.startswith("implemented files: tested ") and "incomplete" not in last
    x, y = map(int, last.split()[-1].split("/"))
    assert x == y >= 140
