"""`ImapInbox.wait` in IDLE, against a scripted connection: what ends the wait, and
how the connection is closed when a stop signal cut IDLE short (the real server:
tests/integration/test_workers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pbem.config import Config
from pbem.transport import ImapInbox


class Stop(BaseException):
    """What the stop signal handler raises into a wait (`pbem.runner._Interrupted`)."""


class Connection:
    """An IMAP connection whose IDLE answers `news` in turn (a BaseException: raised)."""

    def __init__(self, news: list[list[bytes] | BaseException]) -> None:
        self.news: Iterator[list[bytes] | BaseException] = iter(news)
        self.calls: list[str] = []
        self.idle = self
        self.client = self

    def start(self) -> None:
        self.calls.append("IDLE")

    def poll(self, timeout: float) -> list[bytes]:
        self.calls.append("poll")
        got = next(self.news)
        if isinstance(got, BaseException):
            raise got
        return got

    def stop(self) -> None:
        self.calls.append("DONE")

    def logout(self) -> None:
        self.calls.append("LOGOUT")

    def shutdown(self) -> None:
        self.calls.append("close")


def inbox(conn: Connection) -> ImapInbox:
    box = ImapInbox(Config(idle=True))
    box.mb = conn
    return box


def test_new_mail_ends_the_wait_and_another_workers_move_does_not() -> None:
    conn = Connection([[b"* 3 EXPUNGE"], [b"* 2 EXPUNGE", b"* 0 RECENT"],
                       [b"* 3 EXISTS", b"* 1 RECENT"], [b"* 4 EXISTS"]])
    box = inbox(conn)
    box.wait(60)
    assert conn.calls == ["IDLE", "poll", "poll", "poll", "DONE"]
    box.__exit__(None, None, None)
    assert conn.calls[-1] == "LOGOUT"


def test_nothing_new_ends_the_wait() -> None:
    conn = Connection([[]])  # the time is up (or the server hung up)
    inbox(conn).wait(60)
    assert conn.calls == ["IDLE", "poll", "DONE"]


def test_a_wait_cut_short_closes_the_connection_without_logout() -> None:
    """The server in IDLE answers nothing but DONE: a LOGOUT would wait forever."""
    conn = Connection([[b"* 3 EXPUNGE"], Stop()])
    box = inbox(conn)
    with pytest.raises(Stop):
        box.wait(60)
    box.__exit__(Stop, None, None)  # as leaving `with ImapInbox(cfg)` does
    assert conn.calls == ["IDLE", "poll", "poll", "close"]
    assert box.mb is None and not box.idling
