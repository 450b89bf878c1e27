"""Every case of tests/cases/princes/*.case as its own test (format: tests/cases/README.md)."""

from __future__ import annotations

import re

import pytest
from princes_cases import CASES_DIR, Case, load_cases, run_case

from engine.princes.ruleset import STANDARD_RULES

CASES = load_cases()
BY_ID = {c.id: c for c in CASES}
TOPICS = {
    "setup", "auction", "objects", "builders", "prestige-draw", "recruiting", "actions",
    "work-value", "bonus-cards", "prestige-scoring", "buildings", "supplies", "fame",
    "rounds", "chance", "rulings", "undo", "two-player", "expansion",
}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: Case) -> None:
    run_case(case, BY_ID)


def test_catalogue_covers_every_topic() -> None:
    assert {p.stem for p in CASES_DIR.glob("*.case")} == TOPICS
    assert len(CASES) >= 120


def test_every_ruling_is_stated_as_a_case() -> None:
    stated = {m for c in CASES for r in c.rules for m in re.findall(r"\bR\d+\b", r)}
    assert stated >= {f"R{i}" for i in range(1, 17)}


def _case_text(c: Case) -> str:
    lines = [*c.given, *(ln for b in c.blocks for ln in (*b.log, *b.expect))]
    return " ".join(ln.text for ln in lines)


@pytest.mark.parametrize("card", [*STANDARD_RULES.bonus, *STANDARD_RULES.prestige])
def test_every_card_is_played_in_a_case(card: str) -> None:
    pattern = re.compile(rf"(?<![\w-]){re.escape(card)}(?![\w-])")
    assert any(pattern.search(_case_text(c)) for c in CASES), card


def test_docs_cite_existing_cases() -> None:
    """Every case id that docs/rules.md cites in [brackets] exists (wildcards allowed)."""
    import fnmatch
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text("utf-8")
    cited = {
        token.strip()
        for group in re.findall(r"(?<!`)\[([a-z0-9*][a-z0-9.*, \n-]*)\]", text)
        for token in re.split(r"[,\s]+", group)
        if token.strip() and token.strip() != "..."
    }
    assert len(cited) > 50
    missing = [t for t in sorted(cited) if not fnmatch.filter(BY_ID, t)]
    assert not missing, missing
