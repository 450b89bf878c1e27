"""Logs written as at a table: every bidder the bidding skips (3 builders, no room for
a landscape) says pass where their turn comes, as the rulebooks have it (docs/rules.md
R18). They replay to the same game as the logs pbem writes without those passes."""

from __future__ import annotations

from typing import Any

import pytest

from engine.match import Match
from engine.princes.auction import skipped_bidder
from engine.princes.commands import Bid, Open, Pass
from engine.princes.definition import GAME
from engine.princes.events import BidPassed
from engine.princes.state import CHANCE
from pbem.logs import format_game_log, replay_log

from .helpers import HEADER, playout

SEEDS = [(3, 2), (3, 16), (3, 23), (4, 9), (4, 13), (4, 23), (5, 7), (5, 11), (5, 25), (5, 28)]
"""Self-played games (tests/logs/helpers.playout) in which the bidding skips someone."""


def table_moves(players: tuple[str, ...], moves: tuple[tuple[int, Any], ...]
                ) -> tuple[list[tuple[int, Any]], int]:
    """The moves with the skipped bidders' passes put where their turns come: after
    each naming, bid or pass, the seats clockwise from the one who acted up to the
    one who bids next (or, once the object is sold, up to its winner), each skipped
    one saying pass. Not the seat to act next: its pass would decline to name (R3).
    Also how many passes were put in."""
    match = Match.start(GAME, players, seeded=False)
    n = len(players)
    out: list[tuple[int, Any]] = []
    added = 0
    for seat, cmd in moves:
        match.play(seat, cmd)
        out.append((seat, cmd))
        if seat == CHANCE or not isinstance(cmd, (Open, Bid, Pass)):
            continue
        state = match.state
        if state.lot is not None:
            upto = state.turn
        elif state.sold is not None:
            upto = state.sold[0]
        else:
            continue
        s = (seat + 1) % n
        while s != upto and s != seat:
            if skipped_bidder(match.state, s):
                match.play(s, Pass())
                out.append((s, Pass()))
                added += 1
            s = (s + 1) % n
    return out, added


@pytest.mark.parametrize(("n", "seed"), SEEDS, ids=[f"{n}p-{s}" for n, s in SEEDS])
def test_table_log_with_skipped_passes_replays_the_same(n: int, seed: int) -> None:
    p = playout(n, seed)
    moves, added = table_moves(p.players, p.moves)
    text = format_game_log(p.players, moves, HEADER, include_chance=True)
    r = replay_log(text)
    assert r.ok, r.error
    assert r.finished and r.state is not None
    assert r.state.winners == p.state.winners
    assert [s.fields for s in r.players] == [s.fields for s in GAME.standings(p.state)]
    assert sum(isinstance(e, BidPassed) for e in r.events) \
        == sum(isinstance(e, BidPassed) for e in p.events) + added
    assert _without_passes(r.events[1:]) == _without_passes(p.events[1:])


def _without_passes(events: tuple[Any, ...]) -> list[Any]:
    return [e for e in events if not isinstance(e, BidPassed)]


def test_every_table_log_has_skipped_passes() -> None:
    """The games above do exercise the reading (else the test proves nothing), with
    passes said while the object is out and once it is sold."""
    kinds = set()
    for n, seed in SEEDS:
        p = playout(n, seed)
        moves, added = table_moves(p.players, p.moves)
        assert added, (n, seed)
        match = Match.start(GAME, p.players, seeded=False)
        for (seat, cmd), nxt in zip(moves, moves[1:], strict=False):
            match.play(seat, cmd)
            if nxt[1] == Pass() and skipped_bidder(match.state, nxt[0]):
                kinds.add("out" if match.state.lot is not None else "sold")
    assert kinds == {"out", "sold"}
