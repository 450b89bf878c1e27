"""Every case of tests/cases/signorie/*.case as its own test (format:
tests/cases/signorie/README.md), and the catalogue's coverage of the topics and rulings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from signorie_cases import CASES_DIR, Case, CaseFailure, CaseFormatError, load_cases, run_case

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


BUILD = {
    # issue 13, "Build": each rule of the game and the cases that state it
    "setup by player count": ["setup-four-players", "setup-three-players", "setup-two-players",
                              "setup-cities-by-player-count", "chance-three-players-family-limit"],
    "seven rounds of three phases": ["round-end-resets", "alliance-fields-refilled-where-empty",
                                     "final-careers-half-rounded-down"],
    "taking a die: cost = field value - die value": ["cost-turquoise-one-costs-four",
                                                     "cost-value-at-or-above-cost-is-free"],
    "hire a helper": ["hire-red-onto-yellow-middle-costs-three", "hire-yellow-wraps-to-turquoise"],
    "a task": ["task-career-points-per-figure", "task-threshold", "task-marriage",
               "task-mission", "task-initiative", "task-florins", "task-alliance", "task-figures"],
    "Signoria: tracks": ["tracks-rulebook-example"],
    "Signoria: diplomatic mission": ["mission-milano-example-thirteen"],
    "Signoria: marriage": ["marriage-firenze-dowry-four"],
    "Signoria: offspring": ["offspring-married-sons"],
    "Signoria: florins": ["florins-three"],
    "helper activation top to bottom in the same column": ["helpers-top-to-bottom",
                                                           "helpers-only-the-die-column"],
    "initiative and turn order with its stacking tie-break": ["new-order-by-initiative",
                                                              "s12-tie-goes-to-the-later-disc"],
    "the reward check against the threshold": [
        "reward-check-thirteen-is-rewarded", "reward-check-raised-threshold", "s05-threshold-cap"],
    "the reward tiles": [
        "rewards-bonus-mission", "rewards-bonus-marriage", "rewards-bonus-extra-action",
        "rewards-bonus-figures", "rewards-bonus-progress", "rewards-bonus-alliance",
        "rewards-bonus-helper", "rewards-round-six-points-and-buy", "rewards-vp-cities-distinct",
        "rewards-vp-figures-count"],
    "son marriages": ["rewards-son-marriage-round-two", "s03-son-marriage-automatic"],
    "face-down alliance tiles": ["alliance-face-down-unseen-by-all", "final-face-down-revealed"],
    "end scoring with its tie-break": ["final-alliance-rows", "final-tie-break-turn-order"],
    "dice rolls and tile draws from the seed": ["setup-seeded-four-players",
                                                "chance-seeded-offspring"],
}


@pytest.mark.parametrize("rule", BUILD)
def test_every_build_rule_has_a_case(rule: str) -> None:
    assert [c for c in BUILD[rule] if c not in BY_ID] == []


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


# --------------------------------------------------------------------------- the runner itself

GOOD = """
CASE t-florins
RULE S1
Anna takes a yellow die and 3 florins.
PLAYERS anna, bas
GIVEN
  offer yellow 1
  field milano marriage sforza3
LOG
  anna: take yellow 1 florins
EXPECT
  anna florins 13
  shown sforza3
  anna dice yellow 1
  offer yellow none
  turn bas
  event DieTaken seat=anna colour=yellow value=1 cost=0
  legal bas: pass
  not legal anna: pass
END
"""


def _run_text(tmp_path: Path, text: str) -> None:
    (tmp_path / "t.case").write_text(text)
    cases = load_cases(tmp_path)
    by_id = {c.id: c for c in cases}
    for c in cases:
        run_case(c, by_id)


def test_a_good_case_passes(tmp_path: Path) -> None:
    _run_text(tmp_path, GOOD)


@pytest.mark.parametrize("wrong", [
    "anna florins 12", "turn anna", "anna dice none", "offer yellow 1", "bas florins 9",
    "event DieTaken seat=bas", "no event DieTaken", "legal anna: pass", "not legal bas: pass",
    "anna available m3 f3", "anna helpers yellow 1", "order bas anna", "passed anna",
    "round 2", "anna threshold 14", "anna political 1", "pool 1", "hidden sforza3",
    "field milano marriage empty", "shown este2",
])
def test_a_wrong_expectation_fails(tmp_path: Path, wrong: str) -> None:
    with pytest.raises(CaseFailure):
        _run_text(tmp_path, GOOD.replace("  turn bas\n", f"  turn bas\n  {wrong}\n"))


def test_an_accepted_line_expected_to_be_refused_fails(tmp_path: Path) -> None:
    with pytest.raises(CaseFailure, match="accepted"):
        _run_text(tmp_path, GOOD.replace("  anna florins 13\n", "  error illegal\n"))


def test_a_refused_line_not_expected_fails(tmp_path: Path) -> None:
    with pytest.raises(CaseFailure, match="refused"):
        _run_text(tmp_path, GOOD.replace("take yellow 1 florins", "take yellow 6 florins"))


def test_the_error_text_is_checked(tmp_path: Path) -> None:
    text = GOOD.replace("take yellow 1 florins", "take yellow 6 florins").replace(
        "  anna florins 13\n", '  error illegal "no such words in it"\n')
    with pytest.raises(CaseFailure, match="message"):
        _run_text(tmp_path, text)


@pytest.mark.parametrize("broken", [
    ("  offer yellow 1\n", "  offer yellow 1, comets 3\n"),  # unknown GIVEN item
    ("  offer yellow 1\n", "  offer yellow 1\n  anna: political 9\n"),  # no such space
    ("  offer yellow 1\n", "  offer yellow 1\n  anna: available m5 f3\n"),  # 13 men
    ("  offer yellow 1\n", "  offer yellow 1 2 3\n"),  # 3 dice of a colour with 2 players
    ("  offer yellow 1\n", "  offer yellow 1, rewarded anna\n"),  # not the reward phase
    ("  turn bas\n", "  turn bas\n  anna mood happy\n"),  # unknown fact
    ("RULE S1\n", ""),  # no RULE
    ("END\n", ""),  # no END
])
def test_a_malformed_case_is_reported(tmp_path: Path, broken: tuple[str, str]) -> None:
    with pytest.raises(CaseFormatError):
        _run_text(tmp_path, GOOD.replace(*broken))


def test_xfail_is_read(tmp_path: Path) -> None:
    (tmp_path / "t.case").write_text(GOOD.replace("PLAYERS", "XFAIL a reason\nPLAYERS"))
    assert load_cases(tmp_path)[0].xfail == "a reason"
