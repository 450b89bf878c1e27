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
