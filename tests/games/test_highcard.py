"""The rules of high-card, the toy game the tests register."""

from __future__ import annotations

import pytest

from engine.errors import ChanceError, IllegalMoveError, NotYourTurnError
from engine.protocol import CHANCE, Setup
from engine.registry import GAMES
from tests.games import register_test_games
from tests.games.highcard import GAME
from tests.games.highcard.commands import Bid, Deal, Pass, Play, Reveal
from tests.games.highcard.events import (
    BidRaised,
    CardPlayed,
    GameEnded,
    HandDealt,
    LotDiscarded,
    LotWon,
    TrickShown,
)
from tests.games.highcard.state import Player, Rules, State

SEED = "toy"


def begin(players: int = 3, purse: str = "20", variant: str = "standard") -> State:
    options = {"purse": purse} if variant == "standard" else {}
    first = GAME.start(("anna", "bas", "chris")[:players], variant=variant, options=options,
                       commitment="", seeded=True)
    return GAME.new_state(first)


def to_auction(state: State) -> State:
    while GAME.to_act(state) == (CHANCE,):
        state, _ = GAME.apply(state, CHANCE, GAME.resolve_chance(state, SEED))
    return state


def test_the_deal_is_private_to_each_player_in_turn() -> None:
    state = begin()
    deal = GAME.resolve_chance(state, SEED)
    assert isinstance(deal, Deal) and deal.player == "anna" and len(deal.cards) == 3
    assert GAME.resolve_chance(state, SEED) == deal  # a function of seed and state
    state, events = GAME.apply(state, CHANCE, deal)
    assert events == [HandDealt(0, deal.cards)]
    assert GAME.redact(events[0], 1) == HandDealt(0, ("?", "?", "?"))
    assert GAME.view(state, 0).players[0].hand == deal.cards
    assert GAME.view(state, 1).players[0].hand is None
    assert GAME.view(state, 1).players[0].hand_count == 3
    assert GAME.resolve_chance(state, SEED).player == "bas"  # type: ignore[union-attr]


def test_a_stated_deal_must_be_the_one_due_and_possible() -> None:
    state = begin()
    with pytest.raises(ChanceError, match="deal to anna"):
        GAME.apply(state, CHANCE, Deal("bas", ("1", "2", "3")))
    with pytest.raises(ChanceError, match="not a card"):
        GAME.apply(state, CHANCE, Deal("anna", ("1", "2", "99")))
    state, _ = GAME.apply(state, CHANCE, Deal("anna", ("1", "2", "3")))
    with pytest.raises(ChanceError):
        GAME.apply(state, CHANCE, Deal("bas", ("3", "4", "5")))
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 0, Deal("bas", ("4", "5", "6")))
    assert GAME.same_chance(state, Deal("bas", ("7", "8", "9")))
    assert not GAME.same_chance(state, Deal("anna", ("7", "8", "9")))
    assert not GAME.same_chance(state, Reveal("7"))


def test_a_stated_chance_is_matched_to_the_step_and_told_apart_from_the_seed() -> None:
    state = begin()
    assert GAME.chance_wanted(state) == "the 3 cards dealt to anna"
    seeded = GAME.resolve_chance(state, SEED)
    assert isinstance(seeded, Deal)
    assert GAME.chance_mismatch(Deal("anna", tuple(reversed(seeded.cards))), seeded) is None
    stray = next(c for c in state.rules.cards if c not in seeded.cards)
    assert GAME.chance_mismatch(Deal("anna", (*seeded.cards[:2], stray)), seeded) == (
        f"{stray!r} is not among its cards")
    assert GAME.chance_mismatch(Deal("anna", seeded.cards[:2]), seeded) == (
        "it gives 3 cards, not 2")
    state = to_auction(state)
    assert GAME.chance_wanted(state) == "nothing"
    state, _ = GAME.apply(state, 0, Pass())
    state, _ = GAME.apply(state, 1, Pass())
    state, _ = GAME.apply(state, 2, Pass())
    for seat in range(3):
        state, _ = GAME.apply(state, seat, GAME.late_command(state, seat))
    assert GAME.chance_wanted(state) == "the card revealed for round 2"
    reveal = GAME.resolve_chance(state, SEED)
    assert GAME.same_chance(state, Reveal("1")) and not GAME.same_chance(state, Deal("anna", ()))
    assert GAME.chance_mismatch(reveal, reveal) is None
    assert GAME.chance_mismatch(Reveal(stray), Reveal("0")) == f"{stray!r} is not among its cards"


def test_the_auction_goes_to_the_highest_bidder_who_pays() -> None:
    state = to_auction(begin())
    card = state.lot
    assert card is not None and state.round == 1 and GAME.to_act(state) == (0,)
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 1, Bid(3))
    with pytest.raises(IllegalMoveError, match="more than 0"):
        GAME.apply(state, 0, Bid(0))
    with pytest.raises(IllegalMoveError, match="you have 20 coins"):
        GAME.apply(state, 0, Bid(21))
    state, events = GAME.apply(state, 0, Bid(4))
    assert events == [BidRaised(0, 4)]
    state, _ = GAME.apply(state, 1, Bid(6))
    state, _ = GAME.apply(state, 2, Pass())
    assert GAME.legal_commands(state, 0)[:2] == [Pass(), Bid(7)]
    state, events = GAME.apply(state, 0, Pass())
    assert events[-1] == LotWon(1, card, 6)
    assert state.players[1].money == 14 and state.players[1].points == int(card)
    assert state.phase == "play" and GAME.to_act(state) == (0, 1, 2)


def test_when_everybody_passes_the_card_scores_for_nobody() -> None:
    state = to_auction(begin(2))
    card = state.lot
    state, _ = GAME.apply(state, 0, Pass())
    state, events = GAME.apply(state, 1, Pass())
    assert events[-1] == LotDiscarded(card or "")
    assert [p.points for p in state.players] == [0, 0]


def test_cards_go_face_down_and_the_highest_takes_the_trick() -> None:
    state = to_auction(begin(2))
    state, _ = GAME.apply(state, 0, Pass())
    state, _ = GAME.apply(state, 1, Pass())
    low, high = sorted((state.players[0].hand[0], state.players[1].hand[0]), key=int)
    seat_high = 0 if state.players[0].hand[0] == high else 1
    with pytest.raises(IllegalMoveError, match="you hold no"):
        GAME.apply(state, 0, Play(state.players[1].hand[0]))
    state, events = GAME.apply(state, seat_high, Play(high))
    assert events == [CardPlayed(seat_high, high)]
    other = GAME.view(state, 1 - seat_high).players[seat_high]
    assert other.played and other.card is None
    state, events = GAME.apply(state, 1 - seat_high, Play(low))
    shown = events[-1]
    assert isinstance(shown, TrickShown) and shown.winner == seat_high
    assert state.players[seat_high].points == 5 and state.phase == "reveal"


def test_the_late_command_passes_or_plays_the_lowest_card() -> None:
    state = to_auction(begin(2))
    assert GAME.late_command(state, 0) == Pass()
    with pytest.raises(IllegalMoveError):
        GAME.late_command(state, 1)
    state, _ = GAME.apply(state, 0, Pass())
    state, _ = GAME.apply(state, 1, Pass())
    lowest = min(state.players[1].hand, key=int)
    assert GAME.late_command(state, 1) == Play(lowest)


def test_undo_may_not_cross_chance_or_a_shown_trick() -> None:
    assert GAME.crossing_error([BidRaised(0, 3), LotWon(0, "7", 3)]) is None
    assert GAME.crossing_error([CardPlayed(0, "7")]) is None
    for barrier in (HandDealt(0, ("1",)), TrickShown(1, ("1", "2"), 1, 5), GameEnded((0,))):
        assert GAME.crossing_error([BidRaised(0, 3), barrier])


def test_a_true_tie_is_shared() -> None:
    rules = Rules()
    state = State(rules=rules, players=(Player("anna", 7, played="1", points=10),
                                        Player("bas", 7, hand=("2",), points=5)),
                  phase="play", round=rules.rounds, version=30)
    state, events = GAME.apply(state, 1, Play("2"))
    assert events[-1] == GameEnded((0, 1))
    result = GAME.result(state)
    assert result is not None and result.winners == (0, 1)
    assert [s.place for s in result.standings] == [1, 1]
    assert result.standings[1].fields["tricks"] == 1


def test_money_breaks_a_tie_in_points() -> None:
    state = State(rules=Rules(), players=(Player("anna", 8, points=10), Player("bas", 7, hand=(),
                                                                              points=10)),
                  phase="ending", round=3, winners=(0,))
    state = GAME.evolve(state, GameEnded((0,)))
    result = GAME.result(state)
    assert result is not None
    assert [(s.place, s.tiebreaks) for s in result.standings] == [(1, (8,)), (2, (7,))]


def test_options_and_variants_set_the_rules() -> None:
    assert [p.money for p in begin(3, purse="30").players] == [30, 30, 30]
    first = GAME.start(("anna", "bas"), variant="standard", options={"purse": "30"},
                       commitment="c0ffee", seeded=True)
    assert GAME.setup(first) == Setup(("anna", "bas"), "standard", {"purse": "30"}, True,
                                      GAME.edition, GAME.version, "c0ffee")
    duel_first = GAME.start(("anna", "bas"), variant="duel", options={}, commitment="",
                            seeded=False)
    assert GAME.setup(duel_first).options == {} and not GAME.setup(duel_first).seeded
    duel = begin(2, variant="duel")
    assert duel.rules.rounds == 4 and GAME.chance_due(duel).n == 4  # type: ignore[union-attr]
    with pytest.raises(IllegalMoveError, match="2 players"):
        begin(3, variant="duel")
    with pytest.raises(IllegalMoveError, match="Purse"):
        begin(2, purse="25")


def test_the_tests_register_the_game_and_take_it_back() -> None:
    registered = "high-card" in GAMES.names()
    unregister = register_test_games()
    assert GAMES.get("high-card") is GAME
    unregister()
    assert ("high-card" in GAMES.names()) == registered
