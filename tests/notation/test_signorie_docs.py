"""docs/notation-signorie.md stays true to the code: its ids, examples and error table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.errors import NotationError
from engine.signorie.commands import CAREERS, CITIES, COLOURS, ROWS, SEXES
from notation import parse_log
from notation.signorie import format_command, parse_chance, parse_command
from notation.signorie.words import (
    ACTION_WORDS,
    ALLIANCE_TILES,
    CHANCE_WORDS,
    REWARD_CHOICES,
    REWARD_TILES,
    TASK_TILES,
    TRACK_SHORT,
    VERBS,
)
from pbem.logs import replay_log

ROOT = Path(__file__).parents[2]
DOC = (ROOT / "docs" / "notation-signorie.md").read_text(encoding="utf-8")
PLAYERS = ("anna", "bas", "chris")


def _section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end >= 0 else len(DOC)]


def _listed(label: str) -> list[str]:
    return _section("## Ids").split(f"**{label}**: `")[1].split("`")[0].split()


def test_every_id_is_listed() -> None:
    listed = set(re.findall(r"`([a-z0-9+-]+)`", _section("## Ids")))
    ids = [*COLOURS, *CITIES, *CAREERS, *ROWS, *SEXES, *TRACK_SHORT.values(),
           *ALLIANCE_TILES.words, *TASK_TILES, *REWARD_TILES.words, *REWARD_CHOICES.words]
    assert set(ids) <= listed, sorted(set(ids) - listed)
    assert sorted(_listed("Commands")) == sorted(VERBS.words)
    assert sorted(_listed("Actions")) == sorted(ACTION_WORDS.words)
    assert sorted(_listed("Chance lines")) == sorted(CHANCE_WORDS.words)


def _examples(text: str) -> list[str]:
    return re.findall(r"^\|[^|]*\|[^|]*\| `([^`]+)` \|$", text, re.M)


def test_command_and_action_tables_are_canonical() -> None:
    commands, actions = _section("## Commands").split("### Actions")
    assert len(_examples(commands)) == len(VERBS.words)
    for example in _examples(commands):
        assert format_command(parse_command(example)) == example
    assert len(_examples(actions)) == len(ACTION_WORDS.words) + 6  # and the task tiles
    for example in _examples(actions):
        line = f"take grey 4 {example}"
        assert format_command(parse_command(line)) == line


def test_chance_examples_are_canonical() -> None:
    block = _section("## Chance lines").split("```")[3]
    lines = [line for line in block.splitlines() if line]
    assert {line.split()[1] for line in lines} == set(CHANCE_WORDS.words)
    for line in lines:
        assert format_command(parse_chance(line, PLAYERS)) == line


def _example_log() -> str:
    return _section("### Example").split("```")[1]


def test_example_turn_and_log_parse() -> None:
    turn = _section("## A turn").split("```")[1]
    for line in turn.strip().splitlines():
        if line.startswith("*"):
            assert format_command(parse_chance(line, PLAYERS)) == line
        else:
            _, _, text = line.partition(": ")
            assert format_command(parse_command(text)) == text
    log = parse_log(_example_log())
    assert log.game == "signorie" and log.players == PLAYERS
    assert len(log.items) > 40
    assert turn.strip() in _example_log()


def test_example_log_replays() -> None:
    """The example is a game of the engine: it replays to the position it says."""
    result = replay_log(_example_log())
    assert result.ok, result.error
    assert not result.finished and result.round == 3 and result.to_act == ("anna",)


ERROR_ROWS = re.findall(r"^\| `([^`]*)` \| (\d+) \| (.+) \|$", _section("## Errors"), re.M)


def test_error_table_is_found() -> None:
    assert len(ERROR_ROWS) >= 8


@pytest.mark.parametrize(("line", "column", "message"), ERROR_ROWS)
def test_error_table(line: str, column: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_command(line, PLAYERS)
    assert (caught.value.column, str(caught.value)) == (int(column), message)


def test_the_pages_link_to_it() -> None:
    for page in ("notation.md", "games.md"):
        assert "notation-signorie.md" in (ROOT / "docs" / page).read_text(encoding="utf-8")
