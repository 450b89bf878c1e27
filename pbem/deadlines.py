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

from .moderator import Moderator
from .store import as_utc, get_game

log = logging.getLogger(__name__)


@dataclass
class DeadlineReport:
    reminded: list[str] = field(default_factory=list)  # game ids
    late: list[str] = field(default_factory=list)
    auto: list[str] = field(default_factory=list)  # "game: seat: command"


def check_deadlines(mod: Moderator, now: datetime) -> DeadlineReport:
    """Send due reminders and apply the late policy of every game past its deadline.
    Each game is handled in its own transaction."""
    report = DeadlineReport()
    for game_id in mod.due_games(now):
        with mod.store.transaction() as s:
            game = get_game(s, game_id)
            deadline = as_utc(game.deadline)
            if game.finished or game.paused or deadline is None:
                continue
            waiting = mod.waiting_for(s, game)
            names = ", ".join(x.name for x in waiting)
            if now >= deadline:
                if game.late_policy == "auto":
                    for line in mod.auto_move(s, game, now):
                        report.auto.append(f"{game.id}: {line}")
                elif not game.late_notified:
                    game.late_notified = game.reminded = True
                    s.add(game)
                    mod.announce(s, game, "deadline passed",
                                 [f"The deadline passed. Still waiting for {names}.",
                                  "This game waits for late players; the moderator may "
                                  "extend the deadline or replace a player."], now)
                    report.late.append(game.id)
            elif (not game.reminded and game.reminder_hours > 0
                  and now >= deadline - timedelta(hours=game.reminder_hours)):
                game.reminded = True
                s.add(game)
                mod.announce(s, game, "reminder: your turn",
                             ["A reminder: the game is waiting for you, and the deadline is "
                              "near."], now, seats=waiting, kind="reminder")
                report.reminded.append(game.id)
    return report
