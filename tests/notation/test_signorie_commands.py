"""Signorie's notation: every command and chance line as text and back, canonical
spellings, prefixes and aliases, the hidden draw, and the grammar's registration."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given, settings
from signorie_strategies import PLAYERS, chance_command, player_command

from engine.signorie.commands import (
    Action,
    Activate,
    Agree,
    Alliance,
    Alliances,
    Births,
    ChanceCommand,
    Cities,
    Done,
    Draw,
    Figures,
    Florins,
    Helper,
    Hire,
    Marry,
    Mission,
    Offspring,
    Order,
    Pass,
    PlayerCommand,
    Refuse,
    Reward,
    Rewards,
    Roll,
    Step,
    Take,
    Task,
    Tasks,
    Tracks,
    Undo,
)
from notation import parse_log
from notation.grammar import Grammar
from notation.reader import Reader
from notation.registry import grammar_for
from notation.signorie import (
    GRAMMAR,
    format_command,
    is_hidden,
    parse_chance,
    parse_command,
    public,
)
from notation.signorie.commands import read_chance, read_command
from notation.words import UNDO_VERBS, player_vocabulary

MIL, POL, ECC, INI = "military", "political", "ecclesiastical", "initiative"

# Every command of engine.signorie.commands, as its docstring writes it.
DOCSTRING_EXAMPLES = [
    ("take red 3 marry firenze 2", Take("red", 3, Marry("firenze", 2))),
    ("take grey 4 hire 2", Take("grey", 4, Hire(2))),
    ("take yellow 1 florins", Take("yellow", 1, Florins())),
    ("take purple 2 offspring", Take("purple", 2, Offspring())),
    ("take grey 4 tracks ini mil+ pol2>4",
     Take("grey", 4, Tracks((Step(INI, 0, 1), Step(MIL, 0, 1), Step(POL, 2, 4))))),
    ("take turquoise 5 mission military 8 milano",
     Take("turquoise", 5, Mission(MIL, 8, "milano"))),
    ("take grey 4 task military 2 mil+ mil1>3",
     Take("grey", 4, Task("military", 2, Tracks((Step(MIL, 0, 1), Step(MIL, 1, 3)))))),
    ("take turquoise 6 task mission military 8 milano",
     Take("turquoise", 6, Task("mission", 2, Mission(MIL, 8, "milano")))),
    ("take red 2 task marriage roma 3",
     Take("red", 2, Task("marriage", 2, Marry("roma", 3)))),
    ("take purple 3 task alliance political",
     Take("purple", 3, Task("alliance", 1, Alliance(POL)))),
    ("take yellow 1 task figures m f", Take("yellow", 1, Task("figures", 2, Figures(("m", "f"))))),
    ("take yellow 1 task threshold 2", Take("yellow", 1, Task("threshold", 2))),
    ("take purple 5 task initiative 3 ini+6",
     Take("purple", 5, Task("initiative", 3, Tracks((Step(INI, 0, 6),))))),
    ("helper 1 tracks mil+ mil1>3", Activate(1, Tracks((Step(MIL, 0, 1), Step(MIL, 1, 3))))),
    ("helper 2", Activate(2)),
    ("helper 3 mission ecclesiastical 4 venezia", Activate(3, Mission(ECC, 4, "venezia"))),
    ("helper 1 figures f", Activate(1, Figures(("f",)))),
    ("helper 2 alliance marriage", Activate(2, Alliance("marriage"))),
    ("helper 3 task florins 1", Activate(3, Task("florins", 1))),
    ("done", Done()),
    ("pass", Pass()),
    ("reward bonus mission political 6 roma", Reward("bonus", Mission(POL, 6, "roma"))),
    ("reward bonus helper grey 3", Reward("bonus", Helper("grey", 3))),
    ("reward bonus tracks pol+2 ecc1>2", Reward("bonus", Tracks((Step(POL, 0, 2),
                                                                 Step(ECC, 1, 2))))),
    ("reward bonus", Reward("bonus")),
    ("reward florins", Reward("florins")),
    ("reward points", Reward("points")),
    ("reward buy", Reward("buy")),
    ("undo", Undo()),
]

CHANCE_EXAMPLES = [
    ("* order chris anna bas", Order(("chris", "anna", "bas"))),
    ("* cities firenze milano roma", Cities(("firenze", "milano", "roma"))),
    ("* rewards mission extra progress-careers figures-m helper helpers cities-m",
     Rewards(("mission", "extra", "progress-careers", "figures-m", "helper", "helpers",
              "cities-m"))),
    ("* alliances milano marriage este3, milano mission sforza5",
     Alliances((("milano", "marriage", "este3"), ("milano", "mission", "sforza5")))),
    ("* alliances", Alliances(())),
    ("* roll yellow 1 2 4 6, red 1 3 3 5", Roll((("yellow", (1, 2, 4, 6)),
                                                 ("red", (1, 3, 3, 5))))),
    ("* tasks florins threshold military", Tasks(("florins", "threshold", "military"))),
    ("* births anna 2 5 6", Births("anna", (2, 5, 6))),
    ("* draw anna este3", Draw("anna", "este3")),
]


@pytest.mark.parametrize(("text", "cmd"), DOCSTRING_EXAMPLES,
                         ids=[t for t, _ in DOCSTRING_EXAMPLES])
def test_every_command_as_its_docstring_writes_it(text: str, cmd: object) -> None:
    assert parse_command(text) == cmd
    assert format_command(cmd) == text
    assert parse_command(text.upper()) == cmd


@pytest.mark.parametrize(("text", "cmd"), CHANCE_EXAMPLES, ids=[t for t, _ in CHANCE_EXAMPLES])
def test_every_chance_line(text: str, cmd: object) -> None:
    assert parse_chance(text, PLAYERS) == cmd
    assert format_command(cmd) == text
    assert read_chance(text, 0, player_vocabulary(PLAYERS)) == cmd


def test_every_kind_of_command_is_covered() -> None:
    kinds = {type(c) for _, c in DOCSTRING_EXAMPLES + CHANCE_EXAMPLES}
    actions = {type(c.action) for _, c in DOCSTRING_EXAMPLES if getattr(c, "action", None)}
    everything = {*get_args(PlayerCommand), *get_args(ChanceCommand)}
    assert kinds == everything - {Agree, Refuse}  # the hypothesis tests write those
    assert actions == set(get_args(Action))


CANONICAL = [
    # prefixes of 3+ letters, aliases, spacing, case and comments
    ("tak tur 5 mis mil 8 mil", "take turquoise 5 mission military 8 milano"),
    ("Take  GRAY 4   hire 2   # the top space is taken", "take grey 4 hire 2"),
    ("take pur 3 fig male female f", "take purple 3 figures m f f"),
    ("take grey 4 tracks military+3 initiative+1 ini+2 pol+1 eccl2>3",
     "take grey 4 tracks mil+3 ini ini+2 pol+ ecc2>3"),
    ("take grey 4 tra ini+ mil+01", "take grey 4 tracks ini mil+"),
    ("hel 1 tas mil 2 mil+", "helper 1 task military 2 mil+"),
    ("rew bon all mar", "reward bonus alliance marriage"),
    ("rew flo", "reward florins"),
    ("take red 3 task figures female", "take red 3 task figures f"),
    ("take red 3 marry nap 04", "take red 3 marry napoli 4"),
]


@pytest.mark.parametrize(("text", "canonical"), CANONICAL)
def test_canonical_spelling(text: str, canonical: str) -> None:
    cmd = parse_command(text)
    assert format_command(cmd) == canonical
    assert parse_command(canonical) == cmd


def test_chance_lines_read_in_any_case_with_prefixes_and_sorted_dice() -> None:
    assert format_command(parse_chance("*  ROLL Tur 6 1 3, gray 2 2 # four players",
                                       PLAYERS)) == "* roll turquoise 1 3 6, grey 2 2"
    assert parse_chance("*order Chris ANNA", PLAYERS) == Order(("chris", "anna"))
    assert format_command(parse_chance("* all ven mar orsini4,napoli mis este2")) == \
        "* alliances venezia marriage orsini4, napoli mission este2"


def test_ended_turns_and_undo_words_only_in_full() -> None:
    for verb in ("done", "pass", *UNDO_VERBS):
        assert verb in GRAMMAR.verbs.whole
        with pytest.raises(Exception, match="in full"):
            parse_command(verb[:3])
    assert parse_command("tak red 3 hire 1") == Take("red", 3, Hire(1))
    assert parse_command("hel 2") == Activate(2)


def test_a_drawn_tile_is_hidden_from_everyone_in_a_public_log() -> None:
    drawn = Draw("anna", "este3")
    assert not is_hidden(drawn)
    seen = public(drawn)
    assert seen == Draw("anna", "?")
    assert is_hidden(seen)
    assert format_command(seen) == "* draw anna ?"
    assert parse_chance("* draw anna ?", PLAYERS) == seen
    assert "este3" not in format_command(seen)
    for _, cmd in DOCSTRING_EXAMPLES + CHANCE_EXAMPLES[:-1]:
        assert public(cmd) == cmd and not is_hidden(cmd)
    assert GRAMMAR.hidden_command("draw anna ?") is None


@settings(max_examples=400, deadline=None)
@given(player_command)
def test_every_player_command_round_trips(cmd: object) -> None:
    text = format_command(cmd)
    assert text == text.strip() and "#" not in text and "\n" not in text
    assert parse_command(text) == cmd
    assert parse_command(text.upper()) == cmd
    assert read_command(Reader(text, 0, len(text), []), None) == cmd
    assert format_command(parse_command(text)) == text


@settings(max_examples=400, deadline=None)
@given(chance_command)
def test_every_chance_line_round_trips(cmd: object) -> None:
    text = format_command(cmd)
    assert text.startswith("* ") and "#" not in text and "\n" not in text
    assert parse_chance(text, PLAYERS) == cmd
    assert parse_chance(text.upper(), PLAYERS) == cmd
    assert read_chance(text, 0, player_vocabulary(PLAYERS)) == cmd
    assert read_chance(text, 0, None) == cmd


def test_the_grammar_is_registered() -> None:
    assert grammar_for("signorie") is GRAMMAR
    assert isinstance(GRAMMAR, Grammar)
    assert GRAMMAR.name == "signorie" and GRAMMAR.tags == ()
    assert GRAMMAR.naming("anna") is None


def test_a_log_reads() -> None:
    log = parse_log(
        '[Game "signorie"]\n[Players "anna, bas"]\n\n'
        "* order bas anna\n* cities firenze roma napoli\n"
        "round 1\n"
        "* roll yellow 2 5, red 1 6, purple 3 3, grey 4 6, turquoise 1 5\n"
        "bas: take turquoise 5 mission military 1 roma\n"
        "bas: helper 2\n"
        "anna: take purple 3 offspring  # two sons married\n"
        "* births anna 2 5\n"
        "anna: done\n"
        "* draw anna ?\n"
    )
    commands = [getattr(item, "command", None) for item in log.items]
    assert Take("turquoise", 5, Mission(MIL, 1, "roma")) in commands
    assert Births("anna", (2, 5)) in commands
    assert Draw("anna", "?") in commands
    assert Done() in commands
