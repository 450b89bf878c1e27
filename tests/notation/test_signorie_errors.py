"""Signorie's notation refuses bad lines with a NotationError placed at the bad token
(1-based column), naming what was expected there."""

from __future__ import annotations

import pytest

from engine.errors import AmbiguousError, NotationError
from notation import parse_log
from notation.signorie import parse_chance, parse_command

PLAYERS = ("anna", "bas", "chris")

COMMAND_ERRORS = [
    # line, column, words of the message, what was expected
    ("take blu 3 hire 1", 6, "unknown colour 'blu'; expected 'yellow', 'red', 'purple',"
     " 'grey' or 'turquoise'", "colour"),
    ("take", 5, "expected a colour (yellow, red, purple, grey or turquoise) after 'take',"
     " found end of line", "colour"),
    ("take red 7 hire 1", 10, "expected a die value (1 to 6) after 'take red', found '7'",
     "die value"),
    ("take red 3", 11, "expected an action (hire, task, florins, marry", "action"),
    ("take red 3 wed roma 2", 12, "found 'wed'", "action"),
    ("take red 3 hire", 16, "expected a number like '3' after 'take red 3 hire'", "number"),
    ("take red 3 marry flo 2", 18, "unknown city 'flo'", "city"),
    ("take red 3 marry roma 2 4", 25, "expected end of line after 'take red 3 marry roma 2',"
     " found '4'", "end of line"),
    ("take grey 4 tracks", 19, "expected a step like 'mil+', 'mil+3', 'mil2>5' or 'ini'",
     "step"),
    ("take grey 4 tracks mil", 23, "expected 'mil+' (a new figure), 'mil+N'", "space"),
    ("take grey 4 tracks mil+0", 24, "expected a space above 0 after 'mil'", "space"),
    ("take grey 4 tracks mil3>2", 25, "expected a space above 3 after 'mil', found 'mil3>2'",
     "space"),
    ("take grey 4 tracks mil0>2", 23, "the space your figure is on (1 or more)", "space"),
    ("take grey 4 tracks ini2>3", 23, "expected 'ini' (1 space) or 'ini+N' (N spaces)",
     "'+'"),
    ("take grey 4 tracks mil+ xyz+", 25, "unknown track 'xyz'", "track"),
    ("take grey 4 tracks mil+ 3", 25, "expected a step like 'mil+'", "step"),
    ("take grey 4 tracks mi+", 20, "track 'mi' is too short", "track"),
    ("take grey 4 mission mil 8", 26, "expected a city (milano, venezia, firenze, roma or"
     " napoli) after 'take grey 4 mission military 8', found end of line", "city"),
    ("take grey 4 mission marriage 8 roma", 21, "unknown career 'marriage'", "career"),
    ("take grey 4 alliance ini", 22, "unknown row 'ini'", "row"),
    ("take grey 4 figures m x", 23, "unknown sex 'x'", "sex"),
    ("take grey 4 task nothing 2", 18, "expected a task tile (", "task tile"),
    ("take grey 4 task military two", 27, "expected a number like '3'", "number"),
    ("take grey 4 task military 2", 28, "expected a step like 'mil+'", "step"),
    ("take grey 4 task mission 2 military 8 roma", 26, "unknown career '2'", "career"),
    ("take grey 4 task threshold 2 mil+", 30, "expected end of line", "end of line"),
    ("helper", 7, "expected a number like '3' after 'helper', found end of line", "number"),
    ("helper top", 8, "expected a number like '3' after 'helper', found 'top'", "number"),
    ("helper 1 helper 3", 17, "unknown colour '3'", "colour"),
    ("reward", 7, "expected a reward choice (bonus, florins, points or buy)", "reward choice"),
    ("reward points 5", 15, "expected end of line after 'reward points', found '5'",
     "end of line"),
    ("reward bonus hire", 18, "expected a number like '3' after 'reward bonus hire'", "number"),
    ("don", 1, "command 'don' is too short: write 'done' in full", "command"),
    ("pas", 1, "command 'pas' is too short: write 'pass' in full", "command"),
    ("und", 1, "command 'und' is too short: write 'undo' in full", "command"),
    ("hello", 1, "unknown command 'hello'", "command"),
    ("* roll yellow 1", 1, "a chance line ('* roll ...', '* draw ...') is no player command",
     "command"),
    ("  take red 3 hire x", 19, "expected a number like '3' after 'take red 3 hire'", "number"),
]


@pytest.mark.parametrize(("line", "column", "message", "expected"), COMMAND_ERRORS,
                         ids=[row[0] for row in COMMAND_ERRORS])
def test_command_errors(line: str, column: int, message: str, expected: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_command(line, PLAYERS)
    assert caught.value.column == column, str(caught.value)
    assert message in str(caught.value)
    assert expected in caught.value.expected


CHANCE_ERRORS = [
    ("* nope", 3, "unknown chance event 'nope'", "chance event"),
    ("* roll", 7, "expected a colour", "colour"),
    ("* roll yellow 1 7", 17, "expected a die value (1 to 6) after '* roll yellow 1',"
     " found '7'", "die value"),
    ("* roll yellow 1 2 red 3", 19, "found 'red'", "die value"),
    ("* roll yellow 1 2,", 19, "expected a colour (yellow, red, purple, grey or turquoise)"
     " after '* roll yellow 1 2,', found end of line", "colour"),
    ("* roll yellow 1 2, , red 1", 20, "found ','", "colour"),
    ("* roll yellow 1 2, pink 3", 20, "unknown colour 'pink'", "colour"),
    ("* alliances milano marriage este3 mission", 35,
     "expected ',' or end of line after '* alliances milano marriage este3', found 'mission'",
     "',' or end of line"),
    ("* alliances milano marriage ester3", 29, "unknown alliance tile 'ester3'; did you mean"
     " 'este3'", "alliance tile"),
    ("* alliances milano marriage nobody", 29, "expected an alliance tile like 'este3'",
     "alliance tile"),
    ("* alliances milano marriage este", 29, "ambiguous alliance tile 'este'", "alliance tile"),
    ("* alliances milano bride este3", 20, "unknown tile field 'bride'", "tile field"),
    ("* births anna 2, 3", 15, "expected a die value (1 to 6) after '* births anna', found"
     " '2,'", "die value"),
    ("* births anna", 14, "expected a die value", "die value"),
    ("* births dirk 2", 10, "unknown player 'dirk'", "player"),
    ("* draw anna", 12, "expected an alliance tile like 'este3' after '* draw anna'",
     "alliance tile"),
    ("* draw anna este3 ?", 19, "expected end of line after '* draw anna este3', found '?'",
     "end of line"),
    ("* order", 8, "expected a player (anna, bas or chris) after '* order'", "player"),
    ("* cities roma pisa", 15, "unknown city 'pisa'", "city"),
    ("* tasks florins nothing", 17, "expected a task tile (", "task tile"),
    ("* rewards mission nothing", 19, "expected a reward tile (", "reward tile"),
    ("roll yellow 1", 1, "expected a chance line starting with '*'", "'*'"),
]


@pytest.mark.parametrize(("line", "column", "message", "expected"), CHANCE_ERRORS,
                         ids=[row[0] for row in CHANCE_ERRORS])
def test_chance_errors(line: str, column: int, message: str, expected: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_chance(line, PLAYERS)
    assert caught.value.column == column, str(caught.value)
    assert message in str(caught.value)
    assert expected in caught.value.expected


def test_ambiguous_prefixes_list_the_candidates() -> None:
    with pytest.raises(AmbiguousError) as caught:
        parse_chance("* draw anna sfo", PLAYERS)
    assert caught.value.candidates == ("sforza2", "sforza3", "sforza4", "sforza5")


def test_log_errors_are_placed_on_their_line_and_column() -> None:
    text = ('[Game "signorie"]\n[Players "anna, bas"]\n\n'
            "* order bas anna\n"
            "bas: take red 3 marry flo 2\n")
    with pytest.raises(NotationError) as caught:
        parse_log(text)
    assert (caught.value.line, caught.value.column) == (5, 23)
    assert "unknown city 'flo'" in str(caught.value)
