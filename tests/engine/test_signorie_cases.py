"""Every case of tests/cases/signorie/*.case as its own test (format:
tests/cases/signorie/README.md), and the catalogue's coverage of the topics and rulings."""

from __future__ import annotations

import re

import pytest
from signorie_cases import CASES_DIR, Case, load_cases, run_case

CASES = load_cases()
BY_ID = {c.id: c for c in CASES}
TOPICS = {
    "setup", "dice-and-costs", "hire", "helpers", "tasks", "signoria-florins", "marriage",
    "offspring", "tracks", "mission", "alliance-tiles", "turn-order", "reward-check",
    "rewards", "final-scoring", "chance", "undo", "rulings",
}


def _param(case: Case) -> object:
    marks = [pytest.mark.xfail(reason=case.xfail, strict=True)] if case.xfail else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_case(case: Case) -> None:
    run_case(case, BY_ID)


def test_catalogue_covers_every_topic() -> None:
    assert {p.stem for p in CASES_DIR.glob("*.case")} == TOPICS
    assert len(CASES) >= 100


def test_every_ruling_is_stated_as_a_case() -> None:
    stated = {m for c in CASES for r in c.rules for m in re.findall(r"\bS\d+\b", r)}
    assert stated >= {f"S{i}" for i in range(1, 13)}


def test_every_ruling_has_a_case_in_the_rulings_file() -> None:
    in_file = {m for c in CASES if c.file.stem == "rulings"
               for r in c.rules for m in re.findall(r"\bS\d+\b", r)}
    assert in_file >= {f"S{i}" for i in range(1, 13)}


def test_every_rule_cites_a_source_or_a_ruling() -> None:
    """A RULE names a section (§) with a source tag, a ruling Sn, or pbem's own rule."""
    for c in CASES:
        for r in c.rules:
            assert re.search(r"§\d|\bS\d+\b|^pbem ", r), f"{c.where}: RULE {r!r}"
            if "§" in r and not r.startswith("data-2"):
                assert re.search(r"\[[A-Z-]+\]|§3", r), f"{c.where}: RULE {r!r} has no source tag"


# --------------------------------------------------------------------------- the rules page

DOC = CASES_DIR.parents[1].parent / "docs" / "rules-signorie.md"


def _data_statuses() -> dict[str, str]:
    import tomllib
    from importlib.resources import files

    text = files("engine.signorie").joinpath("data/signorie.toml").read_text("utf-8")
    return {name: table["status"] for name, table in tomllib.loads(text).items()
            if isinstance(table, dict)}


def test_doc_lists_every_data_table_with_its_status() -> None:
    text = DOC.read_text("utf-8")
    listed = dict(re.findall(r"^\| `(\w+)` \| (sourced|provisional) \|", text, re.M))
    assert listed == _data_statuses()


def test_doc_names_the_provisional_tables() -> None:
    text = DOC.read_text("utf-8")
    sentence = re.search(r"Provisional tables: (.*?)\.", text, re.S)
    assert sentence is not None
    named = set(re.findall(r"`(\w+)`", sentence.group(1)))
    assert named == {t for t, s in _data_statuses().items() if s == "provisional"}


def test_doc_states_every_ruling() -> None:
    text = DOC.read_text("utf-8")
    assert [int(n) for n in re.findall(r"^\*\*S(\d+) ", text, re.M)] == list(range(1, 13))


def test_doc_cites_existing_cases() -> None:
    text = DOC.read_text("utf-8")
    cited = {token.strip() for group in re.findall(r"(?<!`)\[([a-z0-9][a-z0-9.,\s-]*)\]", text)
             for token in re.split(r"[,\s]+", group) if "-" in token}
    assert len(cited) > 30
    assert sorted(cited - set(BY_ID)) == []
