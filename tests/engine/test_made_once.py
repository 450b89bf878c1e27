"""The Princes events made once (`engine.princes.events`): the same values as made
anew, each made once, for every seat of every variant."""

from __future__ import annotations

import pytest

from engine.princes import events
from engine.princes.events import (
    AuctionWon,
    BidPassed,
    BidRaised,
    NamingDeclined,
    ObjectNamed,
    TurnEnded,
)
from engine.princes.game import VARIANTS
from engine.princes.ruleset import rules_for
from engine.princes.summary import EXPANSIONS


def test_every_seat_of_every_variant_has_its_events() -> None:
    most = max(rules_for(v, x).max_players for v in VARIANTS for x in EXPANSIONS.choices)
    assert most <= events.SEATS
    for seat in range(events.SEATS):
        assert events.BID_PASSED[seat] == BidPassed(seat)
        assert events.NAMING_DECLINED[seat] == NamingDeclined(seat)
        assert events.TURN_ENDED[seat] == TurnEnded(seat)


def test_made_once_and_equal_to_one_made_anew() -> None:
    raised = events.bid_raised(2, 700)
    assert raised == BidRaised(2, 700) and events.bid_raised(2, 700) is raised
    named = events.object_named(1, "jester", 200)
    assert named == ObjectNamed(1, "jester", 200) and events.object_named(1, "jester", 200) \
        is named
    won = events.auction_won(0, "builder", 400, 1, True)
    assert won == AuctionWon(0, "builder", 400, 1, taken=True)
    assert events.auction_won(0, "builder", 400, 1, True) is won
    assert events.auction_won(0, "builder", 400, 1) == AuctionWon(0, "builder", 400, 1)


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "MEMO_SIZE", 3)
    made = [events.bid_raised(1, 100 * k) for k in range(10)]
    assert made == [BidRaised(1, 100 * k) for k in range(10)]
    assert len(events._raised) <= 3
