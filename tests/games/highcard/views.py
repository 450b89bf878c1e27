"""What a seat (or the public) sees of high-card: its own hand only."""

from __future__ import annotations

from dataclasses import dataclass

from engine.decks import deck_size

from .state import State


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    name: str
    money: int
    points: int
    tricks: int
    lots: tuple[str, ...]
    hand_count: int
    played: bool  # has a card face down this round
    hand: tuple[str, ...] | None  # the viewer's own only
    card: str | None  # the viewer's own face-down card only


@dataclass(frozen=True, slots=True)
class View:
    viewer: int | None
    phase: str
    round: int
    rounds: int
    lot: str | None
    high: str | None
    price: int
    passed: tuple[str, ...]
    turn: str | None
    deck_size: int
    players: tuple[PlayerView, ...]
    winners: tuple[str, ...]
    version: int


def view_for(state: State, seat: int | None, *, reveal_all: bool = False) -> View:
    """The game as `seat` sees it (None: the public). `reveal_all` shows every hand:
    only the contract test's deliberately leaking game uses it."""
    names = state.names
    players = tuple(
        PlayerView(
            seat=i, name=p.name, money=p.money, points=p.points, tricks=p.tricks,
            lots=p.lots, hand_count=len(p.hand), played=p.played is not None,
            hand=p.hand if reveal_all or i == seat else None,
            card=p.played if reveal_all or i == seat else None,
        )
        for i, p in enumerate(state.players)
    )
    return View(
        viewer=seat, phase=state.phase, round=state.round, rounds=state.rules.rounds,
        lot=state.lot, high=names[state.high] if state.high is not None else None,
        price=state.price, passed=tuple(names[s] for s in sorted(state.passed)),
        turn=names[state.turn] if state.turn is not None else None,
        deck_size=deck_size(state.deck), players=players,
        winners=tuple(names[w] for w in state.winners), version=state.version,
    )
