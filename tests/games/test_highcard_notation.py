"""The notation of high-card, the toy game the tests register: its lines, its
public-log lines with hidden cards, and its errors, placed exactly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.consent import Agree, Refuse, Undo
from engine.errors import NotationError
from notation import Chance, Grammar, Move, Tag, iter_log, parse_log
from notation.registry import GRAMMARS
from tests.games import register_test_games
from tests.games.highcard.commands import Bid, Deal, Pass, Play, Reveal
from tests.games.highcard.notation import GRAMMAR

NAMES = ("anna", "bas")


@pytest.fixture
def registered() -> Iterator[None]:
    unregister = register_test_games()
    yield
    unregister()


def test_the_grammar_is_a_grammar_registered_with_the_game(registered: None) -> None:
    assert isinstance(GRAMMAR, Grammar)
    assert GRAMMARS.get("high-card") is GRAMMAR
    assert GRAMMAR.naming("anna") is None


def test_the_tests_register_the_grammar_and_take_it_back() -> None:
    registered = "high-card" in GRAMMARS.names()
    unregister = register_test_games()
    assert GRAMMARS.get("high-card") is GRAMMAR
    unregister()
    assert ("high-card" in GRAMMARS.names()) == registered


@pytest.mark.parametrize(("text", "command"), [
    ("bid 3", Bid(3)),
    ("  BID   07 # my last coins", Bid(7)),
    ("pass", Pass()),
    ("pla 12", Play("12")),
    ("undo", Undo()),
    ("Agree", Agree()),
    ("refuse", Refuse()),
])
def test_commands(text: str, command: object) -> None:
    assert GRAMMAR.parse_command(text, NAMES) == command


@pytest.mark.parametrize(("text", "command"), [
    ("* deal anna: 3 9 12", Deal("anna", ("3", "9", "12"))),
    ("  *  Deal BAS: 15 1 2 # by hand", Deal("bas", ("15", "1", "2"))),
    ("* rev 7", Reveal("7")),
])
def test_chance_lines(text: str, command: object) -> None:
    assert GRAMMAR.parse_chance(text, NAMES) == command
    assert GRAMMAR.parse_chance(GRAMMAR.format_command(command), NAMES) == command


@pytest.mark.parametrize(("text", "column", "expected", "message"), [
    ("", 1, ("command",), "expected a command (bid, pass, play, undo, agree or refuse),"
     " found end of line"),
    ("pas", 1, ("command",), "command 'pas' is too short: write 'pass' in full"),
    ("und", 1, ("command",), "command 'und' is too short: write 'undo' in full"),
    ("bid", 4, ("number",), "expected a number like '3' after 'bid', found end of line"),
    ("bid  x", 6, ("number",), "expected a number like '3' after 'bid', found 'x'"),
    ("play 16", 6, ("card",), "unknown card '16'; did you mean '6' or '1'?"),
    ("play 3 4", 8, ("end of line",), "expected end of line after 'play 3', found '4'"),
    ("* reveal 3", 1, ("command",), "a chance line ('* deal ...' or '* reveal ...') is no"
     " player command; expected a command, found '*'"),
])
def test_command_errors(text: str, column: int, expected: tuple[str, ...],
                        message: str) -> None:
    with pytest.raises(NotationError) as caught:
        GRAMMAR.parse_command(text, NAMES)
    error = caught.value
    assert (error.column, error.expected, error.message) == (column, expected, message)


@pytest.mark.parametrize(("text", "column", "expected", "message"), [
    ("deal anna: 1", 1, ("'*'",), "expected a chance line starting with '*', found 'deal'"),
    ("*", 2, ("chance event",), "expected a chance event (deal or reveal) after '*', found"
     " end of line"),
    ("* deal", 7, ("player",), "expected a player (anna or bas) after '* deal', found end"
     " of line"),
    ("* deal zed: 1", 8, ("player",), "unknown player 'zed'; expected 'anna' or 'bas'"),
    ("* deal anna 3", 13, ("':'",), "expected ':' after '* deal anna', found '3'"),
    ("* deal anna: 3 x", 16, ("card",), "unknown card 'x'"),
    ("* reveal 7: 3", 11, ("end of line",), "expected end of line after '* reveal 7',"
     " found ':'"),
])
def test_chance_errors(text: str, column: int, expected: tuple[str, ...],
                       message: str) -> None:
    with pytest.raises(NotationError) as caught:
        GRAMMAR.parse_chance(text, NAMES)
    error = caught.value
    assert (error.column, error.expected, error.message) == (column, expected, message)


PUBLIC = """[Game "high-card"]
[purse "30"]
[Players "anna, bas"]

* deal anna: ? ? ?
* deal bas: ? ? ?
* reveal 7
anna: bid 2
bas: pass
anna: play ?
bas: play ?
"""


def test_a_public_log_writes_hidden_cards_as_question_marks(registered: None) -> None:
    log = parse_log(PUBLIC)
    assert log.game == "high-card"
    assert log.tags[1] == ("Purse", "30")
    hidden = Deal("anna", ("?", "?", "?"))
    assert log.items[0] == Chance(0, hidden)
    assert log.items[-1] == Move(0, "bas", Play("?"))
    assert [GRAMMAR.is_hidden(i.command) for i in log.items if isinstance(i, Move | Chance)] \
        == [True, True, False, False, False, True, True]
    assert GRAMMAR.format_command(hidden) == "* deal anna: ? ? ?"
    assert GRAMMAR.hidden_command(" play ? ") == Play("?")
    assert GRAMMAR.hidden_command("play ? ?") is None
    with pytest.raises(NotationError, match="unknown card '\\?'"):
        GRAMMAR.parse_command("play ?")  # a player's own command never hides a card


def test_a_bad_line_of_a_log_is_placed(registered: None) -> None:
    text = PUBLIC.replace("anna: bid 2", "anna: bid two")
    with pytest.raises(NotationError) as caught:
        list(iter_log(text))
    assert (caught.value.line, caught.value.column) == (8, 11)
    assert next(iter_log(text)) == Tag(1, "Game", "high-card")
