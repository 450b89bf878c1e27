"""Signorie's quick fold and checks against the plain ones they replace: over random
self-played games of 2, 3 and 4 players (with stray commands, mostly illegal, mixed
in), the same events, states, views and errors when the game is replayed in place
(`Match(..., in_place=True)`, quick copies) and when it is played by value
(`Game.apply`, each command on a copy of the state) with every state, board and
city copied by `dataclasses.replace`, every "can this seat take a die" asked of the full
search of `legal.take_options` and every "can this helper be used" of
`legal.helper_options` (as the engine did before `engine.frozen.quick_replace`, the
fold in place and the quick yes of `legal.can_take` and `legal.can_activate`).

PBEM_SIGNORIE_FAST_GAMES sets the games per player count (default 8).
"""

from __future__ import annotations

import dataclasses
import os
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from engine.errors import IllegalMoveError
from engine.match import Match
from engine.protocol import CHANCE
from engine.selfplay import NAMES
from engine.signorie import decide, definition, evolve, legal
from engine.signorie import state as state_module
from engine.signorie.actions import Builder
from engine.signorie.commands import COLOURS, Activate, Florins, Hire, Offspring, Reward, Take
from engine.signorie.definition import GAME
from engine.signorie.state import ACTIONS, EXTRA, REWARDS

GAMES_PER_COUNT = int(os.environ.get("PBEM_SIGNORIE_FAST_GAMES", "8"))
STRAY_RATE = 0.15


def _plain_replace(obj: Any, **changes: Any) -> Any:
    return dataclasses.replace(obj, **changes)


def _full_can_take(state: Any, seat: int) -> bool:
    return next(legal.take_options(state, seat), None) is not None


def _full_can_activate(state: Any, seat: int, space: int) -> bool:
    return next(legal.helper_options(state, seat, space), None) is not None


QUICK_COPY = evolve.copy_state


def _plain_copy(state: Any) -> Any:
    return state_module.replace(state)  # dataclasses.replace, the boards shared


@contextmanager
def plain_engine() -> Iterator[None]:
    """The engine with its quick copies and checks swapped for the plain ones."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(state_module, "copy_board", _plain_replace)
        for module in list(sys.modules.values()):
            if module is not None and module.__name__.startswith("engine.signorie.") \
                    and getattr(module, "copy_state", None) is QUICK_COPY:
                mp.setattr(module, "copy_state", _plain_copy)
        mp.setattr(legal, "can_take", _full_can_take)
        mp.setattr(decide, "can_take", _full_can_take)
        mp.setattr(legal, "can_activate", _full_can_activate)
        mp.setattr(decide, "can_activate", _full_can_activate)
        mp.setattr(decide, "ALWAYS", ())  # no quick yes of a helper in `automatic` either
        yield


def outcome(match: Match, seat: int, command: Any) -> Any:
    try:
        return [GAME.to_dict(e) for e in match.play(seat, command)]
    except Exception as e:  # the error's type, text and rule, a bug's too
        return (type(e).__name__, str(e), getattr(e, "rule", None))


def walk(players: int, seed: int) -> tuple[list[tuple[int, Any]], list[Any], list[Any]]:
    """A random game on the engine as it is: the commands tried (stray ones among them),
    each one's outcome, and the state after each."""
    rng = random.Random(f"fast-fold|{players}|{seed}")
    match = Match.start(GAME, NAMES[:players], seed=f"fast-fold-{seed}", in_place=True)
    tried: list[tuple[int, Any]] = []
    outcomes: list[Any] = []
    states: list[Any] = []
    given: list[tuple[int, Any]] = []
    while not match.finished:
        assert len(tried) < 20_000
        if given and rng.random() < STRAY_RATE:
            seat, command = rng.choice(given)
            other = rng.randrange(players)
            options = GAME.legal_commands(match.state, other)
            if options and rng.random() < 0.5:
                seat, command = other, rng.choice(options)
        else:
            seat = rng.choice(match.to_act())
            command = (match.seeded_command() if seat == CHANCE
                       else GAME.random_command(match.state, seat, rng))
        got = outcome(match, seat, command)
        if isinstance(got, list):
            given.append((seat, command))
        tried.append((seat, command))
        outcomes.append(got)
        states.append(GAME.owned_copy(match.state))  # the match goes on changing its own
    return tried, outcomes, states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_quick_engine_plays_as_the_plain_one(players: int) -> None:
    for seed in range(GAMES_PER_COUNT):
        tried, outcomes, states = walk(players, seed)
        assert any(isinstance(o, tuple) for o in outcomes)  # errors were compared too
        with plain_engine():
            match = Match.start(GAME, NAMES[:players], seed=f"fast-fold-{seed}")
            for k, (seat, command) in enumerate(tried):
                where = f"{players}p seed {seed}, command {k} ({seat}, {command!r})"
                before = match.state
                assert outcome(match, seat, command) == outcomes[k], where
                assert match.state == states[k], where
                assert isinstance(outcomes[k], list) or match.state is before, where
            assert definition.copy_state is _plain_copy  # the plain engine was played
        assert match.finished
        for seat in (None, *range(players)):
            assert GAME.view(match.state, seat) == GAME.view(states[-1], seat)


def test_can_take_agrees_with_the_full_search() -> None:
    """At every position of random games where the engine asks (the action phase and
    the extra actions of R-Extra, dice and task tiles laid), for every seat and not
    only the one it asks about (the quick yes reads the rules data)."""
    asked = extra = 0
    for players in (2, 3, 4):
        for seed in range(GAMES_PER_COUNT):
            _, _, states = walk(players, seed)
            for state in states:
                if state.phase not in (ACTIONS, EXTRA):
                    continue
                for seat in range(players):
                    assert legal.can_take(state, seat) == _full_can_take(state, seat)
                    asked += 1
                    extra += state.phase == EXTRA
    assert asked and extra


def test_can_activate_agrees_with_the_full_search() -> None:
    """At every position of random games with a die just taken, for every helper space
    of its column and every seat (the quick yes reads the seat's own helpers)."""
    asked = yes = 0
    for players in (2, 3, 4):
        for seed in range(GAMES_PER_COUNT):
            _, _, states = walk(players, seed)
            for state in states:
                a = state.active
                if a is None:
                    continue
                for hs in state.rules.columns[a.colour].helpers:
                    for seat in range(players):
                        got = legal.can_activate(state, seat, hs.space)
                        assert got == _full_can_activate(state, seat, hs.space)
                        asked += 1
                        yes += got
    assert asked and yes


def test_can_activate_answers_each_effect_both_ways() -> None:
    """`can_activate` works out the answer of most effects from the position (no
    choice tried): at every position of random games with a die just taken, for each
    seat holding a helper below it, and for the same seat with no florins, no figures
    in its available supply, none in the General Supply and the initiative disc on
    top, the same answer as the full search; and each worked-out effect answers both
    yes and no."""
    seen: set[tuple[str, bool]] = set()
    for players in (2, 3, 4):
        for seed in range(GAMES_PER_COUNT):
            _, _, states = walk(players, seed)
            for state in states:
                a = state.active
                if a is None:
                    continue
                top = state.rules.initiative_top
                for hs in state.rules.columns[a.colour].helpers:
                    for seat in range(players):
                        if not state.players[seat].has_helper(a.colour, hs.space):
                            continue
                        for changes in ({}, {"florins": 0}, {"males": 0, "females": 0},
                                        {"general_m": 0, "general_f": 0},
                                        {"initiative": top}):
                            s = state_module.replace_board(state, seat, **changes)
                            got = legal.can_activate(s, seat, hs.space)
                            assert got == _full_can_activate(s, seat, hs.space), (hs, changes)
                            seen.add((hs.effect, got))
    worked_out = {"progress", "die-progress", "figure", "males-in-cities", "mission-alliance",
                  "marriage-alliance"}
    assert {(e, b) for e in worked_out for b in (True, False)} <= seen, seen


def _candidates(state: Any, seat: int) -> Iterator[Any]:
    """Commands whose fold in place may skip the undo (`decide._sure_*`), legal or not."""
    r = state.rules
    for colour in COLOURS:
        for value in range(1, r.die_faces + 1):
            yield Take(colour, value, Florins())
            yield Take(colour, value, Offspring())
            for space in range(1, 2 + len(r.columns[colour].helpers)):
                yield Take(colour, value, Hire(space))
    if state.active is not None:
        for space in range(1, 2 + len(r.columns[state.active.colour].helpers)):
            yield Activate(space)
    yield from (Reward("florins"), Reward("points"), Reward("buy"))


def test_a_command_folded_without_undo_is_refused_before_it_changes_anything() -> None:
    """A command that `apply_in_place` folds without keeping what to put back, refused
    or not, gives what `apply` (on a copy, undo or none) gives, and a refused one
    leaves the state as it was."""
    sure = {Take: decide._sure_take, Activate: decide._sure_activate,
            Reward: decide._sure_reward}
    refused = folded = 0
    for players in (2, 4):
        for seed in range(GAMES_PER_COUNT // 2 or 1):
            _, _, states = walk(players, seed)
            for state in states:
                if state.chance is not None or not state.waiting():
                    continue
                seat = state.waiting()[0]
                for command in _candidates(state, seat):
                    if not sure[type(command)](state, seat, command):
                        continue
                    mine = GAME.owned_copy(state)
                    try:
                        expected: Any = decide.apply(state, seat, command)
                    except IllegalMoveError as e:
                        expected = e
                    try:
                        got: Any = (mine, decide.apply_in_place(mine, seat, command))
                    except IllegalMoveError as e:
                        got = e
                    if isinstance(expected, IllegalMoveError):
                        assert isinstance(got, IllegalMoveError), command
                        assert (str(got), got.rule) == (str(expected), expected.rule)
                        assert mine == state, command
                        refused += 1
                    else:
                        assert not isinstance(got, IllegalMoveError), (command, got)
                        assert got[1] == expected[1] and got[0] == expected[0], command
                        folded += 1
    assert refused and folded


def test_can_take_answers_without_the_full_search_as_it_would() -> None:
    """`can_take` answers every position from the position itself (the dice's columns,
    their helpers, task tiles and Signoria actions; no die tried on a copy): at every
    position of the action phase of random games, for each seat as it is and with few
    florins, no figures in its available supply, none in the General Supply, its
    initiative disc on top or its career figures at the top, the same answer as the
    full search, both yes and no."""
    seen = set()
    for players in (2, 4):
        for seed in range(GAMES_PER_COUNT):
            _, _, states = walk(players, seed)
            for state in states:
                if state.phase not in (ACTIONS, EXTRA) or not state.dice:
                    continue
                r = state.rules
                top = r.career_top
                for seat in range(players):
                    for changes in ({}, {"florins": 0}, {"florins": 1}, {"florins": 2},
                                    {"males": 0, "females": 0},
                                    {"males": 0, "florins": 0},
                                    {"general_m": 0, "general_f": 0, "males": 1},
                                    {"initiative": r.initiative_top, "males": 0,
                                     "females": 0, "florins": 0},
                                    {"initiative": r.initiative_top, "males": 0}):
                        s = state_module.replace_board(state, seat, **changes)
                        if changes.keys() == {"initiative", "males"}:
                            s = state_module.replace(s, careers=tuple(
                                tuple((o, top) for o, _ in figures) for figures in s.careers))
                        got = legal.can_take(s, seat)
                        assert got == _full_can_take(s, seat), (seat, changes)
                        seen.add(got)
    assert seen == {True, False}



def _settled(b: Any, state: Any) -> None:
    """What follows by itself, every step asked of `decide.automatic`."""
    while more := decide.automatic(state):
        b.emit_all(more)


def _shortcut(state: Any) -> str:
    """The answer of `decide._follow` a position gets before `automatic` is asked."""
    if state.chance is not None:
        return "chance due"
    a = state.active
    if state.phase in (ACTIONS, EXTRA) and a is not None:
        if any(c == a.colour and s >= a.next for c, s in state.players[a.seat].helpers):
            return "a helper may follow"
        return "the turn ends"
    if state.phase == ACTIONS and state.turn is not None:
        return "the next seat"
    if state.phase == REWARDS and state.rewarded:
        return "a reward awaited"
    return "automatic"


def test_what_follows_a_command_is_what_automatic_gives() -> None:
    """`decide._follow` answers the common positions itself (a helper may follow or
    the turn ends, the next seat takes a die or passes, a reward is awaited) and asks
    `automatic` only past them: at every position where the replay path asks it in
    random games (a legal command's own events folded), the same events and state as
    asking `automatic` every step, each shortcut both ending the command and not (a
    helper follows or not, the next seat may take a die or passes)."""
    seen: dict[str, set[bool]] = {}
    for players in (2, 4):
        for seed in range(GAMES_PER_COUNT // 2 or 1):
            tried, outcomes, states = walk(players, seed)
            for k in range(1, len(tried)):
                if not isinstance(outcomes[k], list):
                    continue
                seat, command = tried[k]
                state = GAME.owned_copy(states[k - 1])
                decide.decide(Builder(state), seat, command)  # its own events only
                quick, plain = GAME.owned_copy(state), GAME.owned_copy(state)
                b_quick, b_plain = Builder(quick), Builder(plain)
                decide._follow(b_quick, quick)
                _settled(b_plain, plain)
                assert b_quick.events == b_plain.events, (k, command)
                assert quick == plain, (k, command)
                got = outcomes[k]  # the replay path's events: what follows ends them
                assert [GAME.to_dict(e) for e in b_quick.events] == got[
                    len(got) - len(b_quick.events):], (k, command)
                seen.setdefault(_shortcut(state), set()).add(bool(b_quick.events))
    assert seen == {"chance due": {False}, "a helper may follow": {True, False},
                    "the turn ends": {True}, "the next seat": {True, False},
                    "a reward awaited": {False}, "automatic": {True, False}}, seen
