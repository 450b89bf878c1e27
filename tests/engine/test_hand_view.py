"""Issue 14: what a seat's view tells it about its own hand and the auction, checked
against what the engine then decides.

* the work value a profession in hand "would reach now" is the value the engine gives
  the work when it is completed (with the bonus cards' values now added);
* a prestige card's value "if the game ended now" is what it scores at the game's end;
* the remaining bidders start with the seat to bid, and the next bid is a legal one;
* every bonus, prestige and character card has a text in the rules data, whose numbers
  agree with the card's data.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import pytest
from princes_playouts import playout, steps

from engine.princes.commands import Bid
from engine.princes.court import CHARACTERS
from engine.princes.definition import GAME
from engine.princes.events import Event, GameEnded, PrestigeScored, Recruited, WorkCompleted
from engine.princes.evolve import evolve
from engine.princes.game import new_state
from engine.princes.legal import legal_commands
from engine.princes.ruleset import rules_for
from engine.princes.state import State
from engine.princes.views import view_for
from engine.selfplay import Playout, play_random

GAMES = [(n, seed) for n in (3, 4, 5) for seed in range(3)]


@cache
def _expansion(seed: int) -> Playout:
    return play_random(GAME, 4, seed, options={"expansion": "muse-and-princess"})


def _games() -> list[Playout]:
    return [*(playout(n, seed) for n, seed in GAMES), _expansion(3), _expansion(9)]


def _events(game: Playout) -> Iterator[tuple[State, Event]]:
    """(state before, event) for every event of a game after its start."""
    state = new_state(game.events[0])
    for e in game.events[1:]:
        yield state, e
        state = evolve(state, e)


def test_the_work_value_in_hand_is_the_value_the_engine_gives_the_work() -> None:
    works = with_bonus = muse = 0
    for game in _games():
        for before, e in _events(game):
            if isinstance(e, WorkCompleted):
                seat = e.seat
                me = view_for(before, seat).players[seat]
                assert me.professions is not None and me.cards is not None
                wv = {p.name: p.wv for p in me.professions}[e.profession]
                bonus = {c.name: c.value for c in me.cards if c.deck == "bonus"}
                assert wv + sum(bonus[b] for b in e.bonuses) == e.wv
                works += 1
                with_bonus += bool(e.bonuses)
                muse += before.court is not None and before.court.holder("muse") == seat
    assert works > 20 and with_bonus > 5 and muse  # seed 9 has a work with the Muse


def test_a_profession_shows_the_card_it_is_in_the_rules() -> None:
    state = _late_state(playout(4, 0))
    for seat in range(4):
        me = view_for(state, seat).players[seat]
        assert me.professions is not None
        assert [p.name for p in me.professions] == list(dict.fromkeys(state.players[seat].hand))
        for p in me.professions:
            card = state.rules.professions[p.name]
            assert (p.building, p.landscape, p.freedom) == \
                (card.building, card.landscape, card.freedom)


def _late_state(game: Playout) -> State:
    return next(s for s, _ in _events(game) if s.round == 4)


def test_a_prestige_cards_value_now_is_what_it_scores_at_the_end() -> None:
    scored = 0
    for game in _games():
        end: State | None = None  # before the first scoring: the game as it ended
        for before, e in _events(game):
            if isinstance(e, PrestigeScored | GameEnded) and end is None:
                end = before
            if isinstance(e, PrestigeScored):
                assert end is not None
                me = view_for(end, e.seat).players[e.seat]
                assert me.cards is not None
                values = {c.name: c.value for c in me.cards if c.deck == "prestige"}
                assert values[e.card] == e.fame
                scored += 1
        assert end is not None
    assert scored > 5


def test_the_remaining_bidders_start_with_the_seat_to_bid_and_the_next_bid_is_legal() -> None:
    seen = 0
    for game in _games()[:4]:
        for before, _, _, _, _ in steps(game):  # the standard games: no options
            if before.phase != "auction" or before.lot is None or before.turn is None:
                continue
            view = view_for(before, before.turn)
            assert view.bidders[0] == before.names[before.turn]
            assert before.names[before.high or 0] not in view.bidders
            legal = legal_commands(before, before.turn, free=False)
            bids = [c for c in legal if isinstance(c, Bid)]
            assert bids in ([], [Bid(view.next_bid)])
            seen += 1
    assert seen > 50


def test_work_is_not_in_another_seats_view() -> None:
    state = _late_state(playout(4, 1))
    for viewer in (None, 0, 1, 2, 3):
        for p in view_for(state, viewer).players:
            if p.seat != viewer:
                assert p.professions is None and p.cards is None


@pytest.mark.parametrize("expansion", ["none", "muse-and-princess"])
def test_every_card_has_a_text_whose_numbers_agree_with_its_data(expansion: str) -> None:
    rules = rules_for("standard", expansion)
    for name, bonus in rules.bonus.items():
        assert bonus.text.startswith(f"+{bonus.per} work value for each "), name
    for name, card in rules.prestige.items():
        numbers = [int(n) for n in re.findall(r"(\d+) fame|(\d+) if tied", card.text)
                   for n in n if n]
        assert numbers == ([card.full] if card.kind == "at-least" else [card.full, card.tie]), \
            (name, card.text)
    if rules.court is not None:
        assert set(rules.court.texts) == set(CHARACTERS)
        princess = rules.court.texts["princess"]
        for thing, value in rules.court.princess.items():
            word = "profession or recruiting card" if thing == "card" else thing
            assert f"{value} per {word}" in princess
        view = view_for(_late_state(_expansion(3)), 0)
        assert view.characters
        assert all(c.text == rules.court.texts[c.name] for c in view.characters)


def test_each_work_on_display_keeps_the_value_it_was_completed_at() -> None:
    recruited = 0
    for game in _games():
        values: dict[tuple[int, str], int] = {}
        state = game.state
        for _, e in _events(game):
            if isinstance(e, WorkCompleted):
                values[e.seat, e.profession] = e.wv
            elif isinstance(e, Recruited):
                del values[e.victim, e.profession]
                recruited += 1
        for seat, p in enumerate(view_for(state, None).players):
            assert [prof for prof, _ in p.works] == list(p.table)
            assert all(values[seat, prof] == wv for prof, wv in p.works)
    assert recruited
