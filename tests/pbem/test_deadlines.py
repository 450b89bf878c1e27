"""Deadlines with a frozen clock: reminder, then the late policy (wait or auto)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from freezegun import freeze_time
from sqlalchemy import event

from engine.princes.commands import Choose, Done, Keep, Pass, Place
from engine.princes.definition import GAME
from engine.princes.game import decide, replay, to_act
from engine.princes.state import CHANCE
from engine.selfplay import play_random
from pbem.deadlines import DeadlineReport, check_deadlines
from pbem.moderator import auto_command
from pbem.runner import poll_once
from pbem.store import Game, as_utc, next_due, utcnow

from .fakes import NOW, PLAYERS
from .helpers import keep_line, send, state_of


def run_at(mod, mailbox, smtp, when):
    with freeze_time(when):
        return poll_once(mod, lambda: mailbox, smtp)  # the real clock, frozen


def test_deadline_is_shown_in_utc_and_each_zone(mod, mailbox, smtp) -> None:
    with freeze_time(NOW):
        mod.new_game(PLAYERS, utcnow(), game_id="pof-1", turn_hours=48)
    run_at(mod, mailbox, smtp, NOW)
    anna = smtp.text(smtp.to("anna@example.org")[0])
    bas = smtp.text(smtp.to("bas@example.org")[0])
    assert "Deadline: Thu 03 Dec 2026 12:00 UTC (Thu 03 Dec 13:00 Europe/Amsterdam)" in anna
    assert "(Thu 03 Dec 07:00 America/New_York)" in bas


def test_reminder_then_wait_policy(mod, mailbox, smtp) -> None:
    with freeze_time(NOW):
        game = mod.new_game(PLAYERS, utcnow(), game_id="pof-1", turn_hours=48,
                            reminder_hours=12, late_policy="wait")
    run_at(mod, mailbox, smtp, NOW)
    state = state_of(mod, game)
    send(mailbox, smtp, "anna@example.org", keep_line(state, 0))
    run_at(mod, mailbox, smtp, NOW + timedelta(hours=1))  # to_act changed: new deadline
    smtp.sent.clear()
    assert run_at(mod, mailbox, smtp, NOW + timedelta(hours=36)).deadlines.reminded == []
    report = run_at(mod, mailbox, smtp, NOW + timedelta(hours=37, minutes=1))
    assert report.deadlines.reminded == [game]
    assert sorted(str(m["To"]) for m in smtp.sent) == ["bas@example.org", "chris@example.org"]
    assert run_at(mod, mailbox, smtp, NOW + timedelta(hours=38)).deadlines.reminded == []
    smtp.sent.clear()
    report = run_at(mod, mailbox, smtp, NOW + timedelta(hours=49, minutes=1))
    assert report.deadlines.late == [game] and len(smtp.sent) == 3
    assert "Still waiting for bas, chris" in smtp.text(smtp.sent[0])
    assert run_at(mod, mailbox, smtp, NOW + timedelta(hours=60)).deadlines.late == []
    assert state_of(mod, game).version == state.version + 1  # waiting: nothing played


def test_auto_policy_plays_for_late_seats_without_revealing_their_cards(
        mod, mailbox, smtp) -> None:
    with freeze_time(NOW):
        game = mod.new_game(PLAYERS, utcnow(), game_id="pof-1", turn_hours=24,
                            late_policy="auto")
    run_at(mod, mailbox, smtp, NOW)
    before = state_of(mod, game)
    smtp.sent.clear()
    report = run_at(mod, mailbox, smtp, NOW + timedelta(hours=24, seconds=1))
    assert len(report.deadlines.auto) == 3
    after = state_of(mod, game)
    assert after.phase == "auction"
    for seat, p in enumerate(after.players):
        assert p.hand == before.players[seat].dealt[:3]
    for m in smtp.sent:
        text = smtp.text(m)
        assert "played for anna, bas, chris" in text
        me = ["anna", "bas", "chris"].index(str(m["To"]).split("@")[0])
        for other, p in enumerate(before.players):
            if other != me:
                assert ", ".join(p.dealt[:3]) not in text
    with mod.store.read() as s:
        g = s.get(Game, game)
        assert g is not None and g.deadline is not None  # a new deadline for the next turn


def test_paused_games_have_no_deadline(mod, mailbox, smtp) -> None:
    with freeze_time(NOW):
        game = mod.new_game(PLAYERS, utcnow(), game_id="pof-1", turn_hours=24,
                            late_policy="auto")
        mod.pause(game, utcnow())
    report = run_at(mod, mailbox, smtp, NOW + timedelta(days=5))
    assert report.deadlines.auto == []
    with freeze_time(NOW + timedelta(days=5)):
        mod.resume(game, utcnow())
    assert run_at(mod, mailbox, smtp, NOW + timedelta(days=5, hours=23)).deadlines.auto == []
    assert run_at(mod, mailbox, smtp, NOW + timedelta(days=6, hours=1)).deadlines.auto


def test_extend_moves_the_deadline(mod, mailbox, smtp) -> None:
    with freeze_time(NOW):
        game = mod.new_game(PLAYERS, utcnow(), game_id="pof-1", turn_hours=24,
                            late_policy="auto")
        new = mod.extend(game, 12, utcnow())
    assert new == NOW + timedelta(hours=36)
    assert run_at(mod, mailbox, smtp, NOW + timedelta(hours=30)).deadlines.auto == []
    assert run_at(mod, mailbox, smtp, NOW + timedelta(hours=37)).deadlines.auto


@pytest.mark.parametrize("seed", range(3))
def test_auto_command_is_always_legal(seed: int) -> None:
    """Over a random game: for every seat to act, the policy's command is legal, and
    it has the kind the policy names."""
    playout = play_random(GAME, 4, seed)
    rng = random.Random(seed)
    kinds: set[str] = set()
    for k in range(1, len(playout.events)):
        if rng.random() > 0.3:
            continue
        try:
            state = replay(playout.events[:k])
        except AssertionError:
            continue
        for seat in to_act(state):
            if seat == CHANCE:
                continue
            cmd = auto_command(state, seat)
            decide(state, seat, cmd)  # raises if illegal
            kinds.add(type(cmd).__name__)
            if state.pending is not None and state.pending.seat == seat:
                assert isinstance(cmd, Choose | Place)
            elif state.phase == "keep":
                assert isinstance(cmd, Keep)
            elif state.phase == "auction":
                assert isinstance(cmd, Pass)
            else:
                assert isinstance(cmd, Done)
    assert {"Pass", "Done"} <= kinds


class Reads:
    """The SQL statements a block runs, and the games it loads from the database."""

    def __init__(self, mod) -> None:
        self.engine = mod.store.engine
        self.statements: list[tuple[str, object]] = []
        self.games: list[str] = []

    def _statement(self, _conn, _cursor, statement, params, _context, _many) -> None:
        self.statements.append((statement, params))

    def _game(self, game, _context) -> None:
        self.games.append(game.id)

    def __enter__(self) -> Reads:
        event.listen(self.engine, "before_cursor_execute", self._statement)
        event.listen(Game, "load", self._game)
        return self

    def __exit__(self, *_exc: object) -> None:
        event.remove(self.engine, "before_cursor_execute", self._statement)
        event.remove(Game, "load", self._game)


def test_a_pass_reads_only_the_due_games_through_the_index(mod) -> None:
    """An idle pass is two queries that load no game, however many wait: the due
    games through their index, the due daily digests through the seats' mail setting
    index; a pass with due games loads those and no other."""
    games = [mod.new_game(PLAYERS, NOW, game_id=f"pof-{i}", seed=f"s{i}", turn_hours=48,
                          reminder_hours=12) for i in range(12)]
    for game in games[4:]:
        mod.extend(game, 24, NOW)  # reminder due at 60 h
    mod.pause(games[3], NOW)
    with Reads(mod) as idle:
        report = check_deadlines(mod, NOW + timedelta(hours=35))
    assert report == DeadlineReport() and idle.games == []
    (sql, params), (digest_sql, digest_params) = idle.statements
    plan = mod.store.engine.raw_connection().execute(f"EXPLAIN QUERY PLAN {sql}", params)
    assert "ix_pbem_game_due_at" in " ".join(str(row) for row in plan)
    plan = mod.store.engine.raw_connection().execute(f"EXPLAIN QUERY PLAN {digest_sql}",
                                                     digest_params)
    assert "ix_pbem_seat_mail" in " ".join(str(row) for row in plan)
    with Reads(mod) as due:
        report = check_deadlines(mod, NOW + timedelta(hours=37))
    assert report.reminded == games[:3] and sorted(set(due.games)) == games[:3]
    with Reads(mod) as after:
        assert check_deadlines(mod, NOW + timedelta(hours=37)) == DeadlineReport()
    assert after.games == [] and len(after.statements) == 2
    assert sorted(check_deadlines(mod, NOW + timedelta(hours=61)).reminded) == sorted(games[4:])


@pytest.mark.parametrize("policy", ["wait", "auto"])
def test_the_stored_due_time_follows_every_change(mod, policy: str) -> None:
    """`due_at` is what `next_due` says after each change the moderator makes: new
    game, reminder, late policy, extend, pause, resume."""
    game = mod.new_game(PLAYERS, NOW, game_id="pof-1", turn_hours=48, reminder_hours=12,
                        late_policy=policy)

    def stored():
        with mod.store.read() as s:
            row = s.get(Game, game)
            assert as_utc(row.due_at) == next_due(row)
            return as_utc(row.due_at)

    assert stored() == NOW + timedelta(hours=36)
    check_deadlines(mod, NOW + timedelta(hours=37))
    assert stored() == NOW + timedelta(hours=48)
    check_deadlines(mod, NOW + timedelta(hours=49))
    # wait: told once, nothing more is due; auto: played, to_act changed, new deadline
    assert stored() == (None if policy == "wait" else NOW + timedelta(hours=85))
    mod.extend(game, 10, NOW + timedelta(hours=50))
    extended = stored()
    assert extended is not None and extended < NOW + timedelta(hours=100)
    mod.pause(game, NOW + timedelta(hours=50))
    assert stored() is None
    mod.resume(game, NOW + timedelta(hours=51))
    assert stored() == NOW + timedelta(hours=51 + 36)
