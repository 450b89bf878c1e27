"""Storing a move: its events and commands each in one statement, chained to the head
a warm worker holds; a commit that is rolled back leaves nothing of it in the cache;
a mail's seat, game, addresses and stored commands found in one query. On SQLite and (when the test
servers run) PostgreSQL."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event
from sqlmodel import select

import pbem.moderator
from engine.chain import GENESIS, link
from engine.match import fold
from engine.registry import get_game
from pbem.config import Config
from pbem.moderator import Moderator
from pbem.store import EventRow, Game, Store

from .fakes import DOMAIN, NOW, PLAYERS, FakeMailbox, FakeSmtp
from .helpers import keep_line, run, send, state_of


@pytest.fixture
def mod(url: str) -> Iterator[Moderator]:
    store = Store(url)
    store.create_all()
    yield Moderator(store, Config(moderator_address=f"moderator@{DOMAIN}"))
    store.dispose()


class Statements(Counter[str]):
    """Statements run, by their text with single spaces."""

    def starting(self, prefix: str) -> int:
        return sum(n for text, n in self.items() if text.startswith(prefix))


@contextmanager
def statements(store: Store) -> Iterator[Statements]:
    """Every statement run on `store` meanwhile."""
    seen = Statements()

    def count(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        seen[" ".join(statement.split())] += 1

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(store.engine, "before_cursor_execute", count)


def stored_chain(mod: Moderator, game_id: str) -> tuple[bool, object]:
    """Whether the stored events chain from GENESIS, each hash the link of its
    event to the one before; and the state they fold to."""
    with mod.store.read() as s:
        row = s.get(Game, game_id)
        assert row is not None
        rows = list(s.exec(select(EventRow).where(EventRow.game_id == game_id)
                           .order_by(EventRow.seq)))  # type: ignore[arg-type]
        rules = get_game(row.game)
    prev, ok, events = GENESIS, True, []
    for r in rows:
        e = rules.from_dict(json.loads(r.payload))
        ok = ok and r.prev_hash == prev and r.hash == link(prev, e, row.seed)
        prev = r.hash
        events.append(e)
    return ok and len(rows) == row.version, fold(rules, events)


def test_a_warm_move_stores_each_kind_of_row_in_one_statement(mod: Moderator) -> None:
    game = mod.new_game(PLAYERS, NOW, game_id="pof-1", seed="commit-seed")
    mailbox, smtp = FakeMailbox(), FakeSmtp()
    run(mod, mailbox, smtp)
    send(mailbox, smtp, PLAYERS[0].email, keep_line(state_of(mod, game), 0))
    run(mod, mailbox, smtp)  # the game is warm now
    for seat in (1, 2):  # the last keep also deals the first round: several events
        before = state_of(mod, game).version
        send(mailbox, smtp, PLAYERS[seat].email, keep_line(state_of(mod, game), seat))
        with statements(mod.store) as seen:
            assert [o.status for o in run(mod, mailbox, smtp).outcomes] == ["accepted"]
        assert state_of(mod, game).version > before
        assert seen.starting("INSERT INTO pbem_event") == 1
        assert seen.starting("INSERT INTO pbem_move") == 1
        assert seen.starting("SELECT pbem_event.hash") == 0  # the head the worker holds
        # read with the seat: its addresses and the game's stored commands
        assert seen.starting("SELECT pbem_seat_address.address") == 0
        assert seen.starting("SELECT count(*) AS count_1 FROM pbem_move") == 0
    ok, folded = stored_chain(mod, game)
    assert ok and folded == state_of(mod, game)


def test_a_commit_rolled_back_leaves_no_game_in_the_cache(
        mod: Moderator, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker crashes after committing a move in its session; another worker plays
    a different move for the same version. The first must play on from what is
    stored, not from the state and hash chain head of its lost commit."""
    game = mod.new_game(PLAYERS, NOW, game_id="pof-1", seed="commit-seed")
    mailbox, smtp = FakeMailbox(), FakeSmtp()
    run(mod, mailbox, smtp)
    start = state_of(mod, game)
    dealt = start.players[0].dealt

    def crash(*_: object, **__: object) -> None:
        raise RuntimeError("crashed while telling the seats")

    lost = send(mailbox, smtp, PLAYERS[0].email, "keep " + " ".join(dealt[:3]))
    mailbox.mails.clear()
    monkeypatch.setattr(pbem.moderator, "tell", crash)
    with pytest.raises(RuntimeError):
        mod.process_mail(lost.as_bytes(), NOW)
    monkeypatch.undo()

    other = Moderator(Store(url), mod.cfg)
    kept = send(mailbox, smtp, PLAYERS[0].email, "keep " + " ".join(dealt[1:]))
    mailbox.mails.clear()
    assert other.process_mail(kept.as_bytes(), NOW).status == "accepted"
    other.store.dispose()

    send(mailbox, smtp, PLAYERS[1].email, keep_line(start, 1))
    assert [o.status for o in run(mod, mailbox, smtp).outcomes] == ["accepted"]
    ok, folded = stored_chain(mod, game)
    assert ok
    assert folded == state_of(mod, game)
