"""Signorie's fast paths equal its slow path: on every canonical line they answer, with
the command the slow path reads; on any other line (other spellings, mutations, garbage)
they answer the same command or None, never another one."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from signorie_strategies import PLAYERS, chance_command, player_command

from engine.errors import NotationError
from engine.signorie.commands import ChanceCommand, PlayerCommand
from notation.reader import Reader
from notation.signorie import format_command
from notation.signorie.commands import read_chance, read_command, read_step
from notation.signorie.fast import FAST_SPACES, STEPS, fast_chance, fast_command
from notation.signorie.words import ACTION_WORDS, CHANCE_WORDS, VERBS
from notation.words import Vocabulary, player_vocabulary

VOCABULARY = player_vocabulary(PLAYERS)
ODD = ("", "?", ",", ",,", "+", ">", "0", "7", "10", "mil", "ini+", "mil1>1", "m", "gray",
       "*", "#", "\u200d", "é", "MIL+", "x>y", "2,", "este", "anna", "o'brien-2")


def _slow_command(text: str, players: Vocabulary | None) -> PlayerCommand | None:
    try:
        return read_command(Reader(text, 0, len(text), []), players)
    except NotationError:
        return None


def _slow_chance(text: str, players: Vocabulary | None) -> ChanceCommand | None:
    try:
        return read_chance(text, 0, players)
    except NotationError:
        return None


def _mutations(text: str, rng: random.Random) -> list[str]:
    """`text` in other spellings and broken: prefixes, case, dropped, doubled, swapped
    and replaced tokens, cut short."""
    toks = text.split()
    out = [text.upper(), text.title(), "  ".join(toks), text + " ,", text[: rng.randrange(
        len(text) + 1)]]
    out.append(" ".join(t[:3] if len(t) > 3 and t.isalpha() else t for t in toks))
    for _ in range(12):
        changed = list(toks)
        i = rng.randrange(len(changed))
        kind = rng.randrange(5)
        if kind == 0:
            del changed[i]
        elif kind == 1:
            changed.insert(i, changed[i])
        elif kind == 2:
            j = rng.randrange(len(changed))
            changed[i], changed[j] = changed[j], changed[i]
        elif kind == 3:
            changed[i] = rng.choice((*ODD, *ACTION_WORDS.words, *VERBS.words,
                                     *CHANCE_WORDS.words))
        else:
            k = rng.randrange(len(changed[i]) + 1)
            changed[i] = changed[i][:k] + rng.choice(ODD) + changed[i][k:]
        out.append(" ".join(changed))
    return out


def _steps_in_table(text: str) -> bool:
    numbers = [int(n) for n in text.replace(">", " ").replace("+", " ").split() if n.isdigit()]
    return all(n <= FAST_SPACES for n in numbers)


@settings(max_examples=500, deadline=None)
@given(player_command, st.randoms(use_true_random=False))
def test_fast_command_equals_the_slow_path(cmd: PlayerCommand, rng: random.Random) -> None:
    text = format_command(cmd)
    fast = fast_command(text.split(), VOCABULARY)
    assert _slow_command(text, VOCABULARY) == cmd
    if _steps_in_table(text):
        assert fast == cmd, text  # the fast path reads every common canonical line
    else:
        assert fast in (None, cmd), text
    for line in _mutations(text, rng):
        fast = fast_command(line.split(), VOCABULARY)
        if fast is not None:
            assert fast == _slow_command(line, VOCABULARY), line


@settings(max_examples=500, deadline=None)
@given(chance_command, st.randoms(use_true_random=False))
def test_fast_chance_equals_the_slow_path(cmd: ChanceCommand, rng: random.Random) -> None:
    text = format_command(cmd)
    assert fast_chance(text, 0, VOCABULARY) == cmd, text
    assert fast_chance(text, 0, None) == cmd, text
    for line in _mutations(text, rng):
        if not line.lstrip().startswith("*"):
            line = "* " + line
        star = line.index("*")
        for players in (VOCABULARY, None):
            fast = fast_chance(line, star, players)
            if fast is not None:
                assert fast == _slow_chance(line, players), line


def test_odd_tokens_never_reach_the_fast_path_wrongly() -> None:
    lines = [
        "take red 03 hire 1", "take red 3 hire 1,", "take grey 4 tracks mil+1",
        "take grey 4 tracks mil+21", "take grey 4 tracks mil0>3", "helper 1 task figures",
        "reward florins hire 1", "reward bonus", "take grey 4 task threshold 1 mil+",
        "take grey 4 tracks ini2>3", "take gray 4 tracks poli2>3", "helper",
    ]
    for line in lines:
        fast = fast_command(line.split(), None)
        assert fast is None or fast == _slow_command(line, None), line
    for line in ["* roll yellow 1 2,", "* roll yellow 1 2, , red 3", "* alliances ,",
                 "* draw anna ? ?", "* births anna 2, 3", "* order anna, bas",
                 "* alliances milano marriage este3,", "* draw anna este"]:
        fast = fast_chance(line, 0, VOCABULARY)
        assert fast is None or fast == _slow_chance(line, VOCABULARY), line


def test_every_step_of_the_fast_table_is_the_slow_step() -> None:
    for text, step in STEPS.items():
        r = Reader(text, 0, len(text), [])
        assert read_step(r) == step and r.at_end, text
        assert fast_command(["take", "grey", "4", "tracks", text], None) == \
            _slow_command(f"take grey 4 tracks {text}", None)


def test_remembered_roll_and_alliance_items_read_as_the_slow_path() -> None:
    """The items of `* roll` and `* alliances` lines are remembered by their text: a
    line read again, or another line with some of the same items, reads the same as
    the slow path, and a bad item spelled like a remembered good one stays bad."""
    roll = ("* roll yellow 1 2 4 4, red 6 6 6 6, purple 1 1 1 1, grey 2 3 4 5,"
            " turquoise 1 2 3 6")
    laid = "* alliances milano marriage este3, roma mission visconti2"
    for line in [roll, laid, roll, laid, roll.replace("red 6 6 6 6", "red 4 4 4 4"),
                 laid.replace("milano", "napoli"), roll.upper(), laid.upper()]:
        fast = fast_chance(line, 0, VOCABULARY)
        assert fast is not None and fast == _slow_chance(line, VOCABULARY), line
    for line in [roll.replace(", red", ",, red"), roll.replace("yellow", "yellow yellow"),
                 roll.replace("grey 2 3 4 5", "grey 2 3 4 7"), roll + ",",
                 laid.replace(", roma", " roma"), laid.replace("este3", "este3 este3"),
                 "* roll  ,red 6 6 6 6", "* roll, red 6 6 6 6"]:
        assert fast_chance(line, 0, VOCABULARY) is None, line


def test_remembered_items_are_bounded() -> None:
    from notation.signorie import fast as module

    for k in range(module.ITEMS + 10):
        line = f"* roll yellow {' '.join('1' * (1 + k % 50))}, red 1{' ' * (k // 50)}"
        fast = fast_chance(line, 0, None)
        assert fast is not None and fast == _slow_chance(line, None)
        assert len(module._ROLLED) <= module.ITEMS
