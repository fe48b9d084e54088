"""``ARCHITECTURE.md`` names files that exist, each once, and points at the start of the
reading path (``DisciplineBase.apply``) and the generated env reference."""
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_named_files_exist_once():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    paths = re.findall(r"\b((?:physics|poolgym|agents|experiments|docs)/[\w/]+\.(?:py|md))", text)
    assert len(paths) >= 15
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, f"ARCHITECTURE.md names missing files: {missing}"
    twice = [p for p, n in Counter(paths).items() if n > 1]
    assert not twice, f"named more than once: {twice}"
    assert "DisciplineBase.apply" in text and "docs/environments.md" in text
