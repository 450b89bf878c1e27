"""The case runner itself: a wrong expectation fails, a malformed case is reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from princes_cases import CaseFailure, CaseFormatError, load_cases, run_case

GOOD = """
CASE t-open
RULE test
Anna opens a jester.
GIVEN
  round 1, phase auction
LOG
  anna: open jester
EXPECT
  lot jester
  turn bas
END
"""


def _run(tmp_path: Path, text: str) -> None:
    (tmp_path / "t.case").write_text(text)
    cases = load_cases(tmp_path)
    by_id = {c.id: c for c in cases}
    for c in cases:
        run_case(c, by_id)


def test_a_good_case_passes(tmp_path: Path) -> None:
    _run(tmp_path, GOOD)


@pytest.mark.parametrize("wrong", [
    "turn chris", "lot builder", "anna florins 3400", "event ObjectNamed seat=bas",
    "no event ObjectNamed", "not legal bas: bid 300", "legal bas: bid 400",
    "bas hand poet", "phase action", "supply jester 6",
])
def test_a_wrong_expectation_fails(tmp_path: Path, wrong: str) -> None:
    with pytest.raises(CaseFailure):
        _run(tmp_path, GOOD.replace("turn bas", wrong))


def test_an_unexpected_refusal_fails(tmp_path: Path) -> None:
    with pytest.raises(CaseFailure, match="refused"):
        _run(tmp_path, GOOD.replace("anna: open jester", "anna: bid 300"))


def test_an_expected_refusal_must_happen(tmp_path: Path) -> None:
    text = GOOD.replace("  lot jester\n", '  error illegal auction-open\n')
    with pytest.raises(CaseFailure, match="accepted"):
        _run(tmp_path, text)


def test_the_wrong_rule_id_fails(tmp_path: Path) -> None:
    text = GOOD.replace("anna: open jester", "anna: bid 300").replace(
        "  lot jester\n  turn bas\n", "  error illegal auction-raise\n")
    with pytest.raises(CaseFailure, match="auction-naming"):
        _run(tmp_path, text)


@pytest.mark.parametrize("broken", [
    GOOD.replace("RULE test\n", ""),
    GOOD.replace("END", ""),
    GOOD.replace("round 1, phase auction", "round 1, phase lunch"),
    GOOD.replace("  turn bas", "  turnip bas"),
    GOOD + GOOD,
])
def test_a_malformed_case_is_reported(tmp_path: Path, broken: str) -> None:
    with pytest.raises(CaseFormatError):
        _run(tmp_path, broken)


def test_a_given_position(tmp_path: Path) -> None:
    _run(tmp_path, """
CASE t-given
RULE test
The brief's example position, with its supply kept consistent.
GIVEN
  round 3, phase action, turn anna
  anna: florins 500, fame 4, builders 2, jesters 1, forest c5 c6 d5 d6
  anna: building university a4 a5 a6 a7 b7 c7 d7, freedoms travel religion
  anna: hand poet painter, bonus per-building, prestige most-works, table doctor
EXPECT
  anna empty 32
  supply university 2
  supply forest 5
  supply jester 6
  supply builder 4
  supply travel 2
  deck profession 18
  deck bonus 19
  deck prestige 13
  round 3
  phase action
  turn anna
END
""")


@pytest.mark.parametrize("item", [
    "anna: forest a1 a3 a4 a5",  # on the Palazzo
    "anna: forest c5 c6 d5 d6, lake d6 e6 f6",  # overlap
    "anna: lake c5 c6",  # wrong size
    "anna: hand poet\n  bas: hand poet",  # a card held twice
    "anna: jesters 5\n  bas: jesters 3",  # more jesters than exist
])
def test_an_impossible_position_is_refused(tmp_path: Path, item: str) -> None:
    with pytest.raises(CaseFormatError):
        _run(tmp_path, GOOD.replace("round 1, phase auction", "round 1, phase auction\n  "
                                    + item))
