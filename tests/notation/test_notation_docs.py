"""docs/notation.md stays true to the code: its ids, examples and error table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.errors import NotationError
from engine.princes.ruleset import DECKS, FREEDOMS, LANDSCAPES, OBJECTS, STANDARD_RULES
from notation import parse_log
from notation.princes import VERBS, format_command, parse_command

DOC = (Path(__file__).parents[2] / "docs" / "notation.md").read_text(encoding="utf-8")
PLAYERS = ("anna", "bas", "chris", "dirk")


def _section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end >= 0 else len(DOC)]


def test_every_id_is_listed() -> None:
    listed = set(re.findall(r"`([a-z0-9-]+)`", _section("## Ids")))
    ids = [
        *STANDARD_RULES.professions, *STANDARD_RULES.buildings, *STANDARD_RULES.bonus,
        *STANDARD_RULES.prestige,
        *OBJECTS, *LANDSCAPES, *FREEDOMS, *DECKS,
    ]
    assert set(ids) <= listed
    commands = _section("## Ids").split("**Commands**: `")[1].split("`")[0].split()
    assert sorted(commands) == sorted(VERBS.words)


def test_command_table_examples_are_canonical() -> None:
    rows = re.findall(r"^\| `[a-z]+[^|]*\|[^|]*\| `([^`]+)` \|$", _section("## Commands"), re.M)
    assert len(rows) == len(VERBS.words)
    for example in rows:
        assert format_command(parse_command(example, PLAYERS)) == example


def test_example_log_parses() -> None:
    block = _section("### Example").split("```")[1]
    log = parse_log("\n".join(line for line in block.splitlines() if line != "..."))
    assert log.players == PLAYERS


ERROR_ROWS = re.findall(r"^\| `([^`]*)` \| (\d+) \| (.+) \|$", _section("## Errors"), re.M)


def test_error_table_is_found() -> None:
    assert len(ERROR_ROWS) >= 9


@pytest.mark.parametrize(("line", "column", "message"), ERROR_ROWS)
def test_error_table(line: str, column: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_command(line, PLAYERS)
    assert caught.value.column == int(column)
    assert caught.value.message == message
