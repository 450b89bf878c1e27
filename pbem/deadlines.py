"""Deadlines: a reminder before, and the game's policy once one passes.

The clock is read by the caller and passed in as `now` (the engine has none).
Per game: `turn_hours` (0: no deadline), `reminder_hours` before it, and
`late_policy`: `wait` (tell everyone once who is late, then keep waiting) or `auto`
(the moderator plays for the late seats: pass in an auction, `done` in the action
phase, the first card of a pending choice, the first three professions dealt).
A new deadline starts whenever the set of seats to act changes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from .errors import ConflictError
from .moderator import Moderator
from .store import Game, as_utc
from .workers import lock_game

log = logging.getLogger(__name__)


@dataclass
class DeadlineReport:
    reminded: list[str] = field(default_factory=list)  # game ids
    late: list[str] = field(default_factory=list)
    auto: list[str] = field(default_factory=list)  # "game: seat: command"


def action_due(game: Game, now: datetime) -> bool:
    """Whether a deadline pass has something to do for `game` at `now`."""
    deadline = as_utc(game.deadline)
    if game.finished or game.paused or deadline is None:
        return False
    if now >= deadline:
        return game.late_policy == "auto" or not game.late_notified
    return (not game.reminded and game.reminder_hours > 0
            and now >= deadline - timedelta(hours=game.reminder_hours))


def check_deadlines(mod: Moderator, now: datetime) -> DeadlineReport:
    """Send due reminders and apply the late policy of every game past its deadline.

    Each game is handled in its own transaction, on its row locked with SKIP LOCKED
    (`pbem.workers.lock_game`): of several workers one acts, on the game as it is
    then; a game another worker holds is left to it (or to the next pass). A game a
    player's mail moved on meanwhile is left to the next pass too.
    """
    report = DeadlineReport()
    with mod.store.read() as s:
        due = [g.id for g in s.exec(select(Game).where(col(Game.finished).is_(False))
                                    .where(col(Game.deadline).is_not(None)))
               if action_due(g, now)]
    for game_id in due:
        try:
            _act(mod, game_id, now, report)
        except (ConflictError, IntegrityError) as e:
            log.info("deadline of %s: a concurrent write won (%s); next pass", game_id, e)
            mod._cache.pop(game_id, None)
    return report


def _act(mod: Moderator, game_id: str, now: datetime, report: DeadlineReport) -> None:
    with mod.store.transaction() as s:
        game = lock_game(s, game_id)
        if game is None or not action_due(game, now):
            return
        deadline = as_utc(game.deadline)
        assert deadline is not None
        waiting = mod.waiting_for(s, game)
        names = ", ".join(x.name for x in waiting)
        if now >= deadline:
            if game.late_policy == "auto":
                for line in mod.auto_move(s, game, now):
                    report.auto.append(f"{game.id}: {line}")
            else:
                game.late_notified = game.reminded = True
                s.add(game)
                mod.announce(s, game, "deadline passed",
                             [f"The deadline passed. Still waiting for {names}.",
                              "This game waits for late players; the moderator may "
                              "extend the deadline or replace a player."], now)
                report.late.append(game.id)
        else:
            game.reminded = True
            s.add(game)
            mod.announce(s, game, "reminder: your turn",
                         ["A reminder: the game is waiting for you, and the deadline is "
                          "near."], now, seats=waiting, kind="reminder")
            report.reminded.append(game.id)
