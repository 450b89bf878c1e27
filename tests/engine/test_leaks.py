"""No seat ever sees another seat's hidden values, in views or in the event log.

Hidden: professions in hand, bonus and prestige cards in hand, the cards dealt at setup,
the cards drawn for a choice, and florins while money is hidden (ruling R12). Checked at
every step of self-played games, for every seat and for the public view (None):

* the fields: another seat's `hand`, `bonus_hand`, `prestige_hand`, `dealt` and
  `florins` are None, `pending.cards` is None for everyone but the drawer, and the
  public view shows no hand and no money at all;
* a scan of the whole rendered view (every string in the dataclass tree) for the cards
  that lie only in another seat's hidden places: each card exists once, so a card in
  another hand cannot lie face up anywhere;
* the event log as `events_visible_to` gives it: other seats' private events carry only
  '?', and no public or redacted event names a card hidden in another seat's hand unless
  it was shown publicly (recruited from a table, played on a work, scored at game end)
  or the viewer saw it in a draw of their own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from princes_playouts import playout, steps

from engine.errors import IllegalMoveError
from engine.princes.commands import Command
from engine.princes.events import Event, PrestigeScored, Recruited, WorkCompleted, is_visible
from engine.princes.game import decide
from engine.princes.ruleset import STANDARD_RULES
from engine.princes.state import State
from engine.princes.views import View, events_visible_to, view_for

GAMES = [(n, seed) for n in (3, 4, 5) for seed in range(3)]
CARD_NAMES = frozenset((*STANDARD_RULES.professions, *STANDARD_RULES.bonus,
                        *STANDARD_RULES.prestige))
SECRET_FIELDS = ("hand", "bonus_hand", "prestige_hand", "dealt", "professions", "cards")


def strings(obj: Any) -> Iterator[str]:
    """Every string in a tree of dataclasses, tuples and mappings."""
    if isinstance(obj, str):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from strings(getattr(obj, f.name))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(obj, tuple | list | frozenset | set):
        for v in obj:
            yield from strings(v)


def hidden_cards(state: State, seat: int) -> set[str]:
    """The cards only `seat` may know of now: its hands, its deal, its drawn cards."""
    p = state.players[seat]
    cards = {*p.hand, *p.bonus_hand, *p.prestige_hand, *p.dealt}
    if state.pending is not None and state.pending.seat == seat:
        cards |= set(state.pending.cards)
    return cards


def check_view(state: State, viewer: int | None) -> View:
    view = view_for(state, viewer)
    for i, (p, pv) in enumerate(zip(state.players, view.players, strict=True)):
        if i == viewer:
            assert (pv.hand, pv.bonus_hand, pv.prestige_hand, pv.dealt) == (
                p.hand, p.bonus_hand, p.prestige_hand, p.dealt)
            assert pv.florins == p.florins
            continue
        for name in SECRET_FIELDS:
            assert getattr(pv, name) is None, (viewer, i, name)
        if not state.money_open:
            assert pv.florins is None, (viewer, i)
        assert pv.hand_count == len(p.hand)
    if view.pending is not None:
        assert state.pending is not None
        if state.pending.seat != viewer:
            assert view.pending.cards is None
    secret = set().union(*(hidden_cards(state, i) for i in range(len(state.players))
                           if i != viewer))
    shown = {s for s in strings(view) if s in CARD_NAMES}
    assert not shown & secret, (viewer, shown & secret)
    return view


def check_log(events: list[Event], state: State, viewer: int | None,
              public: set[str]) -> None:
    """The redacted log shows `viewer` no card hidden in another seat's hands now."""
    seen_own: set[str] = set()
    log = events_visible_to(events, viewer)
    for original, shown in zip(events, log, strict=True):
        if is_visible(original, viewer):
            assert shown == original
            if original.private:
                seen_own |= {s for s in strings(original) if s in CARD_NAMES}
            continue
        for name in ("cards", "kept", "returned", "card"):
            if hasattr(shown, name):
                value = getattr(shown, name)
                assert value == "?" or set(value) <= {"?"}, (viewer, shown)
    secret = set().union(*(hidden_cards(state, i) for i in range(len(state.players))
                           if i != viewer)) - public - seen_own
    names = {s for e in log for s in strings(e) if s in CARD_NAMES}
    assert not names & secret, (viewer, names & secret)


@pytest.mark.parametrize(("n_players", "seed"), GAMES, ids=[f"{n}p-{s}" for n, s in GAMES])
def test_no_leak_at_any_step(n_players: int, seed: int) -> None:
    game = playout(n_players, seed)
    viewers: list[int | None] = [None, *range(n_players)]
    events: list[Event] = list(game.events[:1])
    public: set[str] = set()
    for _, _, _, after, new in steps(game):
        events.extend(new)
        for e in new:
            if isinstance(e, Recruited):
                public.add(e.profession)
            elif isinstance(e, WorkCompleted):
                public |= {e.profession, *e.bonuses}
            elif isinstance(e, PrestigeScored):  # shown when scored at game end
                public.add(e.card)
        for viewer in viewers:
            check_view(after, viewer)
            for e, shown in zip(new, events_visible_to(new, viewer), strict=True):
                if not is_visible(e, viewer):
                    assert {s for s in strings(shown) if s in CARD_NAMES} == set(), shown
    for viewer in viewers:
        check_log(events, game.state, viewer, public)


def test_public_view_shows_no_hand_and_no_money() -> None:
    game = playout(4, 0)
    for _, _, _, after, _ in steps(game):
        view = view_for(after, None)
        for pv in view.players:
            assert (pv.hand, pv.bonus_hand, pv.prestige_hand, pv.dealt, pv.florins) == (
                None, None, None, None, None)
        if view.pending is not None:
            assert view.pending.cards is None


def test_open_money_shows_florins() -> None:
    game = playout(3, 0)
    state = dataclasses.replace(game.state, money_open=True)
    assert [pv.florins for pv in view_for(state, None).players] == [
        p.florins for p in state.players]


def _sweep(state: State, seat: int) -> Iterator[Command]:
    from engine.princes.commands import Choose, Keep, Recruit, Work

    for i, p in enumerate(state.players):
        if i == seat:
            continue
        for c in (*p.hand, *p.dealt):
            yield Work(c)
            yield Keep((c, c, c))
            for v in state.players:
                yield Recruit(c, v.name)
        for c in (*p.bonus_hand, *p.prestige_hand):
            yield Choose(c)
        if state.pending is not None and state.pending.seat == i:
            for c in state.pending.cards:
                yield Choose(c)


def test_error_messages_name_no_hidden_card() -> None:
    """A refused command's message never names a card hidden from its sender."""
    game = playout(4, 1)
    for k, (before, _, _, _, _) in enumerate(steps(game)):
        if k % 5:
            continue
        for seat in range(len(before.players)):
            secret = set().union(*(hidden_cards(before, i)
                                   for i in range(len(before.players)) if i != seat))
            for cmd in _sweep(before, seat):
                try:
                    decide(before, seat, cmd)
                except IllegalMoveError as e:
                    words = set(e.message.replace("'", " ").replace(",", " ").split())
                    named = words & secret
                    # Naming the card the sender wrote is an echo, not a leak.
                    named -= set(strings(cmd))
                    assert not named, (cmd, e.message)
