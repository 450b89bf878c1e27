"""Committing what was played: the events (hash-chained), the commands, and the
game's row (finished, or a new deadline when the seats to act changed), and the
game's state snapshot (`pbem.snapshots`), in the session of the change."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import insert
from sqlmodel import Session

from . import snapshots
from .deadlines import new_deadline
from .loading import Games, Loaded, extended
from .playing import Played
from .store import Game, MoveRow, append_events, count_moves, moves_added

_ADD_MOVES = insert(MoveRow.__table__)


def commit(s: Session, games: Games, row: Game, before: Loaded, played: Played,
           now: datetime, *, source: str, first: bool = False) -> tuple[Loaded, str]:
    """Store what was played on `before`: the game after it, and the new head of its
    hash chain."""
    game, state = before.rules.game, played.state
    digest = append_events(s, row, played.events, now)
    first_n = count_moves(s, row.id)
    moves = [{"game_id": row.id, "n": n, "seat": seat_no, "command": text,
              "version": version, "source": source[:500], "created": now}
             for n, (seat_no, text, version) in enumerate(played.moves, first_n)]
    if moves:
        s.connection().execute(_ADD_MOVES, moves)
    n = first_n + len(moves)
    moves_added(s, row.id, n)
    if state.finished:
        row.finished, row.deadline = True, None
    elif first or set(game.to_act(state)) != set(game.to_act(before.state)):
        new_deadline(row, now)
    s.add(row)
    after = Loaded(before.rules, extended(before.events, played.events), state, digest)
    games.remember(row, after, n, played.tracker)
    snapshots.save(s, row, game, state, played.tracker, n)
    return after, digest
