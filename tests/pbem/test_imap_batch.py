"""`ImapInbox` reads and moves mails in batches, against a scripted folder: a few
round trips whatever the number of mails, moves only when flushed (after the
commits), and a MOVE refused because another worker took a mail first is made again
for the rest. The real server: tests/integration/test_workers.py."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

import pytest

from pbem import transport
from pbem.config import Config
from pbem.errors import StoreError
from pbem.inbound import ParsedMail
from pbem.moderator import Outcome, Waiting
from pbem.runner import PassReport, process_inbox
from pbem.transport import Fetched, ImapInbox, TransportError

from .fakes import NOW


def _expand(uid_set: str, top: int) -> list[int]:
    out: list[int] = []
    for part in uid_set.split(","):
        a, _, b = part.partition(":")
        lo, hi = int(a), (top if b == "*" else int(b or a))
        out += range(lo, hi + 1)
    return out


class Folders:
    """The other folders of the account (imap-tools' `MailBox.folder`)."""

    def __init__(self, commands: list[str]) -> None:
        self.names = {"processed", "processed-failed"}
        self.commands = commands

    def exists(self, name: str) -> bool:
        self.commands.append(f"LIST {name}")
        return name in self.names

    def create(self, name: str) -> None:
        self.commands.append(f"CREATE {name}")
        self.names.add(name)


class Folder:
    """An IMAP folder behind the calls `ImapInbox` makes (imap-tools' `MailBox` and
    its imaplib `client`), recording each command sent to the server."""

    def __init__(self, mails: Sequence[bytes]) -> None:
        self.mails = {str(i + 1): raw for i, raw in enumerate(mails)}
        self.processed: list[str] = []
        self.commands: list[str] = []
        self.client = self
        self.folder = Folders(self.commands)

    def uid(self, command: str, uid_set: str, items: str) -> tuple[str, list[object]]:
        assert command == "FETCH"
        self.commands.append(f"FETCH {uid_set}")
        top = max(map(int, self.mails), default=0)
        cap = int(m.group(1)) if (m := re.search(r"<0\.(\d+)>", items)) else None
        data: list[object] = []
        for n in _expand(uid_set, top):
            raw = self.mails.get(str(n))
            if raw is None:
                continue
            head = f"{n} (UID {n} RFC822.SIZE {len(raw)}"
            if cap is None:
                data.append((head + ")").encode())
            else:
                body = raw[:cap]
                data += [(f"{head} BODY[]<0> {{{len(body)}}}".encode(), body), b")"]
        return "OK", data or [None]

    def move(self, uid_set: str, folder: str) -> None:
        self.commands.append(f"MOVE {uid_set}")
        if folder not in self.folder.names:  # as imap-tools words Dovecot's refusal
            raise RuntimeError(f'Response status "OK" expected, but "NO" received. Data: '
                               f'[b"[TRYCREATE] Mailbox doesn\'t exist: {folder}"]')
        nums = [str(n) for n in _expand(uid_set, 0)]
        if any(n not in self.mails for n in nums):
            raise RuntimeError("NO [EXPUNGEISSUED] Some of the requested messages no longer exist")
        for n in nums:
            del self.mails[n]
            self.processed.append(n)

    def noop(self) -> None:
        self.commands.append("NOOP")

    def uids(self, criteria: str) -> list[str]:
        self.commands.append(f"SEARCH {criteria}")
        if criteria == "ALL":
            return list(self.mails)
        return [str(n) for n in _expand(criteria.removeprefix("UID "), 0)
                if str(n) in self.mails]


def inbox(folder: Folder, **cfg: int) -> ImapInbox:
    box = ImapInbox(Config(**cfg))  # type: ignore[arg-type]
    box.mb = folder
    box.uidvalidity = "7"
    return box


def mails(n: int, size: int = 50) -> list[bytes]:
    return [f"Message-ID: <m{i}@x>\r\n\r\n".encode() + b"x" * size for i in range(n)]


def test_many_mails_are_read_in_two_round_trips() -> None:
    folder = Folder(mails(30))
    got = inbox(folder).fetch()
    assert [f.uid for f in got] == [f"INBOX/7/{i}" for i in range(1, 31)]
    assert [f.raw for f in got] == list(folder.mails.values())
    assert not any(f.truncated for f in got)
    assert folder.commands == ["FETCH 1:*", "FETCH 1:30"]


def test_the_first_mails_up_to_the_limit() -> None:
    folder = Folder(mails(30))
    got = inbox(folder).fetch(limit=10)
    assert [f.uid for f in got] == [f"INBOX/7/{i}" for i in range(1, 11)]
    assert folder.commands == ["FETCH 1:*", "FETCH 1:10"]


def test_an_empty_folder_costs_one_round_trip() -> None:
    folder = Folder([])
    assert inbox(folder).fetch() == []
    assert folder.commands == ["FETCH 1:*"]


def test_large_mails_are_read_a_few_at_a_time_and_cut_at_the_cap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A FETCH reads at most FETCH_BYTES of mail (each counted up to the cap)."""
    monkeypatch.setattr(transport, "FETCH_BYTES", 1000)
    folder = Folder(mails(5, size=2000))
    got = inbox(folder, max_mail_bytes=400).fetch()
    assert [len(f.raw) for f in got] == [400] * 5 and all(f.truncated for f in got)
    assert [f.raw for f in got] == [raw[:400] for raw in folder.mails.values()]
    assert folder.commands == ["FETCH 1:*", "FETCH 1:2", "FETCH 3:4", "FETCH 5"]


def test_done_moves_nothing_until_flushed_then_everything_in_one_move() -> None:
    folder = Folder(mails(6))
    box = inbox(folder)
    for f in box.fetch():
        if f.uid != "INBOX/7/4":
            box.done(f.uid)
    assert folder.processed == []
    box.flush()
    assert folder.processed == ["1", "2", "3", "5", "6"]
    assert folder.commands[-1] == "MOVE 1:3,5:6"
    box.flush()  # nothing left to move: no command
    assert folder.commands[-1] == "MOVE 1:3,5:6"


def test_a_long_pass_moves_a_batch_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Other workers list the folder too: committed mails do not stay long."""
    monkeypatch.setattr(transport, "MOVE_BATCH", 4)
    folder = Folder(mails(10))
    box = inbox(folder)
    for f in box.fetch():
        box.done(f.uid)
    box.flush()
    assert [c for c in folder.commands if c.startswith("MOVE")] \
        == ["MOVE 1:4", "MOVE 5:8", "MOVE 9:10"]


def test_the_next_fetch_moves_what_was_done_first() -> None:
    folder = Folder(mails(3))
    box = inbox(folder)
    box.done(box.fetch()[0].uid)
    assert [f.uid for f in box.fetch()] == ["INBOX/7/2", "INBOX/7/3"]
    assert folder.processed == ["1"]


def test_mails_another_worker_moved_first_are_skipped() -> None:
    """The server refuses the whole MOVE; the mails still there are moved, once."""
    folder = Folder(mails(4))
    box = inbox(folder)
    for f in box.fetch():
        box.done(f.uid)
    del folder.mails["2"]  # moved by another worker meanwhile
    box.flush()
    assert folder.processed == ["1", "3", "4"]
    assert folder.commands[-4:] == ["MOVE 1:4", "NOOP", "SEARCH UID 1:4", "MOVE 1,3:4"]


def test_mails_other_workers_keep_moving_away_are_chased_until_moved() -> None:
    """With several workers, the retried MOVE may be refused again: a mail that is
    still there after a refusal is tried again, until none is left."""
    folder = Folder(mails(5))
    box = inbox(folder)
    for f in box.fetch():
        box.done(f.uid)
    refusals = iter(["2", "4"])  # each MOVE, another worker takes one mail first
    move = folder.move

    def racing_move(uid_set: str, to: str) -> None:
        gone = next(refusals, None)
        if gone is not None:
            del folder.mails[gone]
        move(uid_set, to)

    folder.move = racing_move  # type: ignore[method-assign]
    box.flush()
    assert folder.processed == ["1", "3", "5"]
    assert [c for c in folder.commands if c.startswith("MOVE")] == [
        "MOVE 1:5", "MOVE 1,3:5", "MOVE 1,3,5"]


def test_a_move_refused_with_every_mail_still_there_is_an_error() -> None:
    folder = Folder(mails(2))
    box = inbox(folder)
    for f in box.fetch():
        box.done(f.uid)

    def refuse(uid_set: str, to: str) -> None:
        raise RuntimeError("NO [SERVERBUG] no")

    folder.move = refuse  # type: ignore[method-assign]
    with pytest.raises(TransportError, match="IMAP move 1:2"):
        box.flush()


def test_a_processed_folder_gone_since_the_connection_is_made_again() -> None:
    """The server says the folder is missing (NO [TRYCREATE]: deleted, or made by
    another session this one has not seen yet): it is made and the move tried again."""
    folder = Folder(mails(3))
    box = inbox(folder)
    for f in box.fetch():
        box.done(f.uid)
    folder.folder.names.discard("processed")
    box.flush()
    assert folder.processed == ["1", "2", "3"]
    assert folder.commands[-4:] == ["MOVE 1:3", "LIST processed", "CREATE processed",
                                    "MOVE 1:3"]


def test_a_folder_still_missing_after_it_was_made_is_an_error() -> None:
    folder = Folder(mails(2))
    box = inbox(folder)
    for f in box.fetch():
        box.done(f.uid)
    folder.folder.names.discard("processed")
    folder.folder.create = lambda name: None  # type: ignore[method-assign]
    with pytest.raises(TransportError, match="TRYCREATE"):
        box.flush()
    assert [c for c in folder.commands if c.startswith("MOVE")] == ["MOVE 1:2"] * 2


def test_a_folder_that_cannot_be_made_is_an_error() -> None:
    folder = Folder(mails(1))
    box = inbox(folder)
    box.done(box.fetch()[0].uid)
    folder.folder.names.discard("processed")

    def refuse(name: str) -> None:
        raise RuntimeError("NO [NOPERM] no")

    folder.folder.create = refuse  # type: ignore[method-assign]
    with pytest.raises(TransportError, match="IMAP create 'processed'"):
        box.flush()


def test_a_mail_of_another_uidvalidity_is_left_alone() -> None:
    folder = Folder(mails(2))
    box = inbox(folder)
    box.done("INBOX/6/1")  # the folder was rebuilt: its Message-ID check covers it
    box.flush()
    assert folder.processed == [] and not any(c.startswith("MOVE") for c in folder.commands)


def test_uid_sets_write_runs_as_ranges() -> None:
    assert transport._uid_set(["12", "3", "5", "6", "7", "9", "4"]) == "3:7,9,12"
    assert transport._uid_set(["8"]) == "8"


class Inbox:
    """An inbox that records what the pass asks of it."""

    def __init__(self, n: int) -> None:
        self.calls: list[str] = []
        self.n = n

    def fetch(self, limit: int = 100) -> list[Fetched]:
        self.calls.append("fetch")
        return [Fetched(f"INBOX/1/{i}", f"{i}".encode()) for i in range(1, self.n + 1)]

    def done(self, uid: str) -> None:
        self.calls.append(f"done {uid[-1]}")

    def failed(self, uid: str) -> None:
        self.calls.append(f"failed {uid[-1]}")

    def flush(self) -> None:
        self.calls.append("flush")


class Mod:
    """Processes mails "1", "2", ... in turn; the database fails at mail `broken`."""

    def __init__(self, calls: list[str], broken: int = 0) -> None:
        self.calls = calls
        self.broken = broken

    def parse(self, raw: bytes, **_: object) -> ParsedMail:
        return ParsedMail(raw.decode(), "", "", [], [], None, "")

    def waiting(self, uid: str, raw: bytes, **_: object) -> Waiting:
        return Waiting(uid, raw, raw.decode(), self.parse)

    def process_next(self, waiting: Sequence[Waiting], now: datetime
                     ) -> tuple[tuple[Waiting, Outcome] | None, list[Waiting]]:
        mail = waiting[0]
        self.calls.append(f"commit {mail.raw.decode()}")
        if int(mail.raw) == self.broken:
            raise StoreError("the database went away")
        return (mail, Outcome("accepted")), []


def test_a_pass_moves_its_mails_after_their_commits_together() -> None:
    box = Inbox(3)
    process_inbox(Mod(box.calls), box, lambda: NOW, PassReport())  # type: ignore[arg-type]
    assert box.calls == ["fetch", "commit 1", "done 1", "commit 2", "done 2",
                         "commit 3", "done 3", "flush"]


def test_a_database_failure_still_moves_the_mails_committed_before_it() -> None:
    box = Inbox(3)
    with pytest.raises(StoreError):
        process_inbox(Mod(box.calls, broken=2), box, lambda: NOW,  # type: ignore[arg-type]
                      PassReport())
    assert box.calls == ["fetch", "commit 1", "done 1", "commit 2", "flush"]
