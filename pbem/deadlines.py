"""Deadlines: a reminder before, and the game's policy once one passes; and the
daily digests of the seats whose mail setting is `daily` (`pbem.mail_settings`).

The clock is read by the caller and passed in as `now` (the engine has none).
Per game: `turn_hours` (0: no deadline), `reminder_hours` before it, and
`late_policy`: `wait` (tell everyone once who is late, then keep waiting) or `auto`
(the moderator plays for the late seats what the game says: `Game.late_command`).
A new deadline starts whenever the set of seats to act changes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from engine.protocol import CHANCE
from engine.registry import get_game

from .errors import ConflictError
from .i18n import said
from .loading import Loaded
from .notifying import announce, due_digests, send_digest
from .playing import Played
from .store import Game, Seat, as_utc, next_due, seats_of
from .workers import lock_game

if TYPE_CHECKING:
    from .moderator import Moderator

log = logging.getLogger(__name__)


@dataclass
class DeadlineReport:
    reminded: list[str] = field(default_factory=list)  # game ids
    late: list[str] = field(default_factory=list)
    auto: list[str] = field(default_factory=list)  # "game: seat: command"
    digests: list[str] = field(default_factory=list)  # "game: seat" sent a daily digest


def new_deadline(row: Game, now: datetime) -> None:
    """Start the game's next deadline (none without `turn_hours`, or while paused)."""
    if row.turn_hours > 0 and not row.paused:
        row.deadline = now + timedelta(hours=row.turn_hours)
    else:
        row.deadline = None
    row.reminded = row.late_notified = False


def auto_command(state: Any, seat: int, game: Any = None) -> Any:
    """What the moderator plays for a seat whose deadline passed (policy `auto`): the
    game's `late_command` (`game` None: the default game)."""
    return (game or get_game()).late_command(state, seat)


def play_late(played: Played, seat_name: Callable[[int], str]) -> tuple[list[str], list[str]]:
    """Play the late command for every seat to act, each followed by its chance.
    Returns the late seats' names and `seat: command` lines for the operator."""
    game = played.match.game
    late: list[str] = []
    done: list[str] = []
    for seat in game.to_act(played.state):
        if seat == CHANCE or seat not in game.to_act(played.state):
            continue
        cmd = game.late_command(played.state, seat)
        played.play(seat, cmd)
        late.append(seat_name(seat))
        done.append(f"{late[-1]}: {played.grammar.format_command(cmd)}")
        played.resolve_chance()
    return late, done


def auto_move(mod: Moderator, s: Session, row: Game, now: datetime) -> list[str]:
    """Play the deadline policy's command for every seat to act. Returns
    `seat: command` lines for the operator; the players' notice names only the
    seats (a kept or chosen card is private), and each seat reads its own result
    in its status mail."""
    before = mod.games.load(s, row)
    seats = seats_of(s, row.id)
    played = before.played(row.seed, mod.games.tracker(s, row))
    late, done = play_late(played, lambda i: _seat_name(seats, i))
    notice = [said("The deadline passed; the moderator played for %(seats)s (this game's "
                   "policy for late players).", seats=", ".join(late)), *played.notices]
    mod.record(s, row, seats, before, played, now, source="auto", notice=notice)
    return done


def _seat_name(seats: Sequence[Seat], i: int) -> str:
    return next((x.name for x in seats if x.seat == i), str(i))


def waiting_for(s: Session, loaded: Loaded, row: Game) -> list[Seat]:
    """The seats the game waits for."""
    acting = set(loaded.rules.game.to_act(loaded.state))
    return [x for x in seats_of(s, row.id) if x.seat in acting]


def action_due(game: Game, now: datetime) -> bool:
    """Whether a deadline pass has something to do for `game` at `now`."""
    due = next_due(game)
    return due is not None and now >= due


def check_deadlines(mod: Moderator, now: datetime) -> DeadlineReport:
    """Send due reminders and apply the late policy of every game past its deadline.

    Only the due games are read: those whose stored `due_at` (`pbem.store.next_due`)
    has passed, found through its index, so an idle pass costs one query however
    many games wait. Each is handled in its own transaction, on its row locked with
    SKIP LOCKED (`pbem.workers.lock_game`): of several workers one acts, on the game
    as it is then; a game another worker holds is left to it (or to the next pass).
    A game a player's mail moved on meanwhile is left to the next pass too.
    """
    report = DeadlineReport()
    with mod.store.read() as s:
        due = list(s.exec(select(Game.id).where(col(Game.due_at) <= now)
                          .order_by(col(Game.due_at), col(Game.id))))
    for game_id in due:
        try:
            _act(mod, game_id, now, report)
        except (ConflictError, IntegrityError) as e:
            log.info("deadline of %s: a concurrent write won (%s); next pass", game_id, e)
            mod.games.forget(game_id)
    send_digests(mod, now, report)
    return report


def send_digests(mod: Moderator, now: datetime, report: DeadlineReport) -> None:
    """Send every daily digest due at `now` (`pbem.notifying.due_digests`), each
    game's in its own transaction on its locked row, as the deadlines are."""
    with mod.store.read() as s:
        games = sorted({g for g, _ in due_digests(s, now, mod.cfg.digest_hour)})
    for game_id in games:
        try:
            with mod.store.transaction() as s:
                row = lock_game(s, game_id)
                if row is None:
                    continue
                due = {seat for _, seat in due_digests(s, now, mod.cfg.digest_hour, game_id)}
                loaded = mod.games.load(s, row)
                tracker = mod.games.tracker(s, row)
                for seat in seats_of(s, game_id):
                    if seat.seat in due:
                        send_digest(mod.post, s, row, seat, loaded, tracker, now)
                        report.digests.append(f"{game_id}: {seat.name}")
        except (ConflictError, IntegrityError) as e:
            log.info("digest of %s: a concurrent write won (%s); next pass", game_id, e)
            mod.games.forget(game_id)


def _act(mod: Moderator, game_id: str, now: datetime, report: DeadlineReport) -> None:
    with mod.store.transaction() as s:
        game = lock_game(s, game_id)
        if game is None or not action_due(game, now):
            return
        deadline = as_utc(game.deadline)
        assert deadline is not None
        loaded = mod.games.load(s, game)
        waiting = waiting_for(s, loaded, game)
        names = ", ".join(x.name for x in waiting)
        if now >= deadline:
            if game.late_policy == "auto":
                for line in auto_move(mod, s, game, now):
                    report.auto.append(f"{game.id}: {line}")
            else:
                game.late_notified = game.reminded = True
                s.add(game)
                announce(mod.post, s, game, loaded, said("deadline passed"),
                         [said("The deadline passed. Still waiting for %(names)s.",
                               names=names),
                          said("This game waits for late players; the moderator may "
                               "extend the deadline or replace a player.")], now)
                report.late.append(game.id)
        else:
            game.reminded = True
            s.add(game)
            announce(mod.post, s, game, loaded, said("reminder: your turn"),
                     [said("A reminder: the game is waiting for you, and the deadline is "
                           "near.")], now, seats=waiting, kind="reminder")
            report.reminded.append(game.id)
