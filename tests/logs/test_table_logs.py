"""Logs written as at a table: every bidder the bidding skips (3 builders, no room for
a landscape) says pass where their turn comes, as the rulebooks have it (docs/rules.md
R18). They replay to the same game as the logs pbem writes without those passes, also
when the skipped player is the one to name next (or the last player), whose pass then
comes right before their own naming or pass (`X: pass` twice, or `X: pass` and
`X: open jester`)."""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any

import pytest

from engine.match import Match
from engine.princes.auction import ambiguous_pass, skipped_bidder
from engine.princes.commands import Bid, Open, Pass, Sell, SkippedPass
from engine.princes.definition import GAME
from engine.princes.events import BidPassed, NamingDeclined
from engine.princes.state import CHANCE
from engine.protocol import variant_for
from engine.selfplay import NAMES, Playout
from pbem.logs import format_game_log, replay_log

from .helpers import HEADER, playout

SEEDS = [(3, 2), (3, 16), (3, 23), (4, 9), (4, 13), (4, 23), (5, 7), (5, 11), (5, 25), (5, 28)]
"""Self-played games (tests/logs/helpers.playout) in which the bidding skips someone."""


def table_moves(players: tuple[str, ...], moves: tuple[tuple[int, Any], ...],
                options: Mapping[str, str] | None = None, *, late: bool = False
                ) -> tuple[list[tuple[int, Any]], int]:
    """The moves with the skipped bidders' passes put where their turns come: after
    each naming, bid or pass, the seats clockwise from the one who acted up to the
    one who bids next (or, once the object is sold, up to its winner), each skipped
    one saying pass; and a skipped one who is to act next (to name, or as the last
    player) says it right before their own move, which may be another pass (the pass
    that reads two ways, R18: played here as `SkippedPass`, written `pass`). `late`:
    while the winner places or draws, the one who names next waits for their turn
    to say it. Also how many passes were put in."""
    match = Match.start(GAME, players, options=options, seeded=False)
    n = len(players)
    out: list[tuple[int, Any]] = []
    added = 0
    for seat, cmd in moves:
        if seat != CHANCE and ambiguous_pass(match.state, seat):
            match.play(seat, SkippedPass())
            out.append((seat, SkippedPass()))
            added += 1
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
        waits = _next_namer(state) if late and state.pending is not None else None
        while s != upto and s != seat:
            if s != waits and skipped_bidder(match.state, s):
                match.play(s, Pass())
                out.append((s, Pass()))
                added += 1
            s = (s + 1) % n
    return out, added


def _next_namer(state: Any) -> int:
    """Who names once the object just sold is placed or drawn for (or takes, as the
    last player): the namer, else the next one clockwise still in the auction."""
    n = len(state.players)
    return next(s for s in ((state.namer + i) % n for i in range(n)) if state.in_auction(s))


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


# --------------------------------------------------------------------------- the pass
# of the player to act next, which reads two ways (R18)


@functools.cache
def builder_playout(n: int, seed: int, expansion: str = "none") -> Playout:
    """A random game in which the players go for builders (and now and then pass), so
    that players with 3 builders are skipped often, also by a sale at once: the player
    to name next, or the last player, is often one of them."""
    game = GAME
    rng = random.Random(f"table|{seed}")
    options = {"expansion": expansion}
    match = Match.start(game, NAMES[:n], options=options, seed=f"table-{seed}")
    moves: list[tuple[int, Any]] = []
    while not match.finished:
        seat = rng.choice(match.to_act())
        if seat == CHANCE:
            cmd = match.seeded_command()
        else:
            legal = game.legal_commands(match.state, seat, anytime=False)
            bids = [c for c in legal if isinstance(c, Bid)]
            if Open("builder") in legal and rng.random() < 0.9:
                cmd = Open("builder")
            elif match.state.lot == "builder" and bids and rng.random() < 0.5:
                cmd = bids[0]
            elif Pass() in legal and rng.random() < 0.3:
                cmd = Pass()
            else:
                cmd = game.random_command(match.state, seat, rng)
        match.play(seat, cmd)
        moves.append((seat, cmd))
    return Playout(NAMES[:n], f"table-{seed}", tuple(moves), tuple(match.events), match.state)


TWO_WAY = [(2, 1, "none"), (2, 8, "none"), (3, 17, "none"), (3, 11, "muse-and-princess"),
           (3, 14, "muse-and-princess")]
"""Builder games (`builder_playout`) whose table logs (`table_moves`) have the pass of
the player to act next, skipped on the object just sold, right before their own `take`
or `pass` (as the last player; with the expansion, before the character auction)."""

AT_THE_NAMING = [(3, 0), (3, 10)]
"""Builder games in which the player to name next was skipped on the object just sold
(a landscape: they had passed on it by the table order, while its winner placed it)
and names next, selling fame first in the first."""


def _tags(p: Playout, expansion: str) -> list[tuple[str, str]]:
    variant = variant_for(GAME.variants, len(p.players))
    return [("Game", GAME.name), ("Variant", variant), ("Expansions", expansion)]


@pytest.mark.parametrize(("n", "seed", "expansion"), TWO_WAY,
                         ids=[f"{n}p-{s}-{e}" for n, s, e in TWO_WAY])
def test_the_pass_of_the_player_to_act_reads_as_at_the_table(
        n: int, seed: int, expansion: str) -> None:
    """The table log and the log pbem writes replay to the same game, with one
    BidPassed more per pass put in. (Recorded logs: a seed's draws depend on the
    events before them, which the passes put in change.)"""
    p = builder_playout(n, seed, expansion)
    moves, added = table_moves(p.players, p.moves, {"expansion": expansion})
    assert any(isinstance(cmd, SkippedPass) for _, cmd in moves)
    tags = _tags(p, expansion)
    pbem = replay_log(format_game_log(p.players, p.moves, tags))
    text = format_game_log(p.players, moves, tags)
    assert "SkippedPass" not in text
    table = replay_log(text)
    assert pbem.ok, pbem.error
    assert table.ok, table.error
    assert table.finished and pbem.finished
    assert table.winners == pbem.winners
    assert [s.fields for s in table.players] == [s.fields for s in pbem.players]
    assert sum(isinstance(e, BidPassed) for e in table.events) \
        == sum(isinstance(e, BidPassed) for e in pbem.events) + added
    assert _without_passes(table.events) == _without_passes(pbem.events)
    assert _without_passes(pbem.events[1:]) == _without_passes(p.events[1:])


def test_the_two_way_games_have_both_shapes() -> None:
    """The games above have the table pass before each kind of move of the last
    player: taking, and the pass that takes nothing; with the expansion too."""
    shapes = set()
    for n, seed, expansion in TWO_WAY:
        p = builder_playout(n, seed, expansion)
        moves, _ = table_moves(p.players, p.moves, {"expansion": expansion})
        shapes |= {(moves[i + 1][1].verb, expansion) for i, (_, cmd) in enumerate(moves)
                   if isinstance(cmd, SkippedPass)}
    assert shapes == {("take", "none"), ("pass", "none"), ("take", "muse-and-princess"),
                      ("pass", "muse-and-princess")}


@pytest.mark.parametrize(("n", "seed"), AT_THE_NAMING, ids=[f"{n}p-{s}" for n, s in AT_THE_NAMING])
def test_the_pass_said_right_before_the_naming_replays_the_same(n: int, seed: int) -> None:
    """`X: pass` put right before the naming of X, skipped on the object just sold:
    the table log replays to the game pbem played, with X's pass recorded."""
    p = builder_playout(n, seed)
    at = _first_two_way(p)
    seat, cmd = p.moves[at]
    assert isinstance(p.moves[at + 1 if isinstance(cmd, Sell) else at][1], Open)
    moves = [*p.moves[:at], (seat, SkippedPass()), *p.moves[at:]]
    tags = _tags(p, "none")
    pbem = replay_log(format_game_log(p.players, p.moves, tags))
    table = replay_log(format_game_log(p.players, moves, tags))
    assert pbem.ok and table.ok, table.error
    assert table.finished and table.winners == pbem.winners
    assert [s.fields for s in table.players] == [s.fields for s in pbem.players]
    assert table.events.count(BidPassed(seat)) == pbem.events.count(BidPassed(seat)) + 1
    assert _without_passes(table.events) == _without_passes(pbem.events)


def _first_two_way(p: Playout) -> int:
    """Where the first move comes from a player whose `pass` would read two ways."""
    match = Match.start(GAME, p.players, seeded=False)
    for at, (seat, cmd) in enumerate(p.moves):
        if seat != CHANCE and ambiguous_pass(match.state, seat):
            return at
        match.play(seat, cmd)
    raise AssertionError("no pass that reads two ways")


def test_a_pass_that_declines_stays_a_decline_when_the_player_goes_on() -> None:
    """pbem's own reading wins a tie: `X: pass` declining to name, then `X: sell 1`
    (free, at any time) replays as pbem played it, though X was skipped on the
    object just sold and the sale would be accepted after either pass."""
    p = builder_playout(3, 10)
    at = _first_two_way(p)
    seat = p.moves[at][0]
    moves = [*p.moves[:at], (seat, Pass()), (seat, Sell(1))]
    match = Match.start(GAME, p.players, seeded=False)
    for s, cmd in moves:
        match.play(s, cmd)
    assert NamingDeclined(seat) in match.events
    r = replay_log(format_game_log(p.players, moves, _tags(p, "none")))
    assert r.ok, r.error
    assert list(r.events[1:]) == match.events[1:]
