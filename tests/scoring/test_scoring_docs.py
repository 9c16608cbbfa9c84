"""The engine's documentation stays true: every error code, every heading of docs/rules.md
(and of the original rules page beside the checkout, when present), the options table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.errors import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT.parent / "shared" / "RULES.md"


def test_every_error_code_is_documented():
    documented = set(
        re.findall(
            r"^\| `([a-z_]+)` \|",
            (ROOT / "docs" / "scoring.md").read_text(encoding="utf-8"),
            flags=re.M,
        )
    )
    assert set(CATALOGUE) <= documented, set(CATALOGUE) - documented


@pytest.mark.parametrize("rules", [ROOT / "docs" / "rules.md", RULES], ids=["docs", "shared"])
def test_every_rules_heading_has_a_home_in_the_index(rules):
    if not rules.is_file():
        pytest.skip(f"{rules} is absent (a plain clone of the project)")
    index = (ROOT / "scoring" / "README.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", rules.read_text(encoding="utf-8"), flags=re.M)
    for heading in headings:
        short = heading.split(" (")[0].split(":")[0]
        assert f"| {short}" in index, heading


def test_every_function_the_index_names_exists():
    import importlib

    index = (ROOT / "scoring" / "README.md").read_text(encoding="utf-8")
    modules = {p.stem for p in (ROOT / "scoring").glob("*.py")}
    named = re.findall(r"`([a-z_]+)\.([A-Za-z_][\w.]*)`", index)
    checked = 0
    for module, path in named:
        if module not in modules or path == "py":
            continue
        target = importlib.import_module(f"scoring.{module}")
        for part in path.split("."):
            target = getattr(target, part)
        checked += 1
    assert checked >= 30


def test_the_options_table_in_docs_rules_is_the_engines():
    from scoring.options import options_table

    assert options_table() in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def test_the_engine_and_its_docs_cite_the_pages_in_the_repository():
    # The rules and the record format live in docs/rules.md and docs/hand-record.md; the
    # pages they were first written in sit outside the repository.
    paths = [*(ROOT / "docs").glob("*.md"), *(ROOT / "scoring").glob("*.*")]
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert "RULES.md" not in text and "HAND_RECORD.md" not in text, path
