"""What one move asks of the database: each read once, the writes batched. Every
statement is a round trip to a database some milliseconds away, so these counts are
what a worker waits for (scripts/bench_moderator.py --latency measures it). On SQLite
and (when `scripts/test.sh` started it) PostgreSQL."""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import timedelta

from sqlalchemy import event
from sqlmodel import select

from engine.princes.legal import legal_commands
from engine.protocol import CHANCE
from notation.registry import grammar_for
from pbem.moderator import Moderator
from pbem.runner import PassReport, process_inbox
from pbem.store import Game, OutMail, claim_due

from .fakes import NOW, PLAYERS, FakeMailbox, FakeSmtp, make_moderator
from .helpers import run, send, state_of


def kinds(statements: list[str]) -> Counter[str]:
    """Statements by what they do and to which table: `SELECT pbem_seat`, ..."""
    out: Counter[str] = Counter()
    for sql in statements:
        verb = sql.split(None, 1)[0].upper()
        if verb == "SELECT":  # by the first table it names
            table = re.search(r"\b(pbem_[a-z_]+)", sql)
            out[f"SELECT {table.group(1) if table else sql[:40]}"] += 1
        else:
            table = re.search(r"\b(?:INTO|UPDATE) (pbem_\w+)", sql)
            out[f"{verb} {table.group(1) if table else ''}"] += 1
    return out


def test_a_move_reads_each_thing_once_and_writes_each_table_once(url: str) -> None:
    """A worker that has not seen the game yet (the snapshot is read) processes one
    move and queues three status mails: the threads of the three recipients in one
    query, the game's seats, row, sender check, addresses and command count with the
    token, the chain head
    and the command count with the snapshot, and each table written by one
    statement (the outbox rows and the seats' mailed versions together)."""
    mod = make_moderator(url)
    game = mod.new_game(PLAYERS, NOW, game_id="pof-1", seed="s1")
    mailbox, smtp = FakeMailbox(), FakeSmtp()
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    seat = next(s for s in _to_act(mod, game) if s != CHANCE)
    line = grammar_for(None).format_command(
        random.Random(1).choice(legal_commands(state, seat, free=False)))
    send(mailbox, smtp, PLAYERS[seat].email, f"@v{state.version}\n{line}\n")
    cold = Moderator(mod.store, mod.cfg)  # a new worker: nothing cached
    seen: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(mod.store.engine, "before_cursor_execute", record)
    try:
        report = PassReport()
        process_inbox(cold, mailbox, lambda: NOW, report)
    finally:
        event.remove(mod.store.engine, "before_cursor_execute", record)
    assert [o.status for o in report.outcomes] == ["accepted"]
    got = kinds(seen)
    assert got["SELECT pbem_outbox"] == 1  # the threads of the three recipients
    assert got["SELECT pbem_seat"] == 1  # with the game row, sender check, addresses
    assert got["SELECT pbem_seat_address"] == 0
    assert got["SELECT pbem_game"] == got["SELECT pbem_game_auth"] == 0
    assert got["SELECT pbem_event"] == 0
    assert got["SELECT pbem_inbound"] == 2  # the claim; the seat's mails this hour
    assert got["SELECT pbem_snapshot"] == 1  # with the chain head and the command count
    assert got["SELECT pbem_move"] == 0
    # the three rows in one executemany INSERT (one statement on PostgreSQL)
    assert got["INSERT pbem_outbox"] == 1
    assert got["UPDATE pbem_seat"] == 1
    assert got["INSERT pbem_event"] == 1 and got["INSERT pbem_move"] == 1
    assert got["UPDATE pbem_snapshot"] == 1 and got["UPDATE pbem_game"] == 1
    assert got["INSERT pbem_inbound"] == 1


def _to_act(mod: Moderator, game: str) -> tuple[int, ...]:
    with mod.store.read() as s:
        row = s.get(Game, game)
        assert row is not None
        loaded = mod.games.load(s, row)
        return tuple(loaded.rules.game.to_act(loaded.state))


def test_an_outbox_claim_is_one_statement_on_postgresql(url: str) -> None:
    """The rows are chosen, locked and leased by one UPDATE that returns them, in no
    transaction of its own; SQLite reads and then writes in its transaction."""
    mod = make_moderator(url)
    mod.new_game(PLAYERS, NOW, game_id="pof-1", seed="s1")
    seen: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        seen.append(statement)

    event.listen(mod.store.engine, "before_cursor_execute", record)
    try:
        rows = claim_due(mod.store, NOW, 2, "me/1", timedelta(seconds=60))
    finally:
        event.remove(mod.store.engine, "before_cursor_execute", record)
    assert [r.claimed_by for r in rows] == ["me/1", "me/1"]
    assert rows[0].id is not None and rows[1].id is not None and rows[0].id < rows[1].id
    if url.startswith("postgresql"):
        assert len(seen) == 1 and seen[0].startswith("UPDATE pbem_outbox")
    with mod.store.read() as s:
        leased = s.exec(select(OutMail.id).where(OutMail.claimed_by == "me/1")).all()
    assert sorted(leased) == [r.id for r in rows]
