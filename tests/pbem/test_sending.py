"""Outgoing mail built once (`pbem.mime`) and the outbox marked a batch at a time."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Callable, Sequence
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import event
from sqlmodel import select

from pbem.config import Config
from pbem.mime import BOUNDARY, Outgoing, compose, read_back
from pbem.outbound import build_message, make_mail, send_due
from pbem.store import OutMail, Store
from pbem.transport import DirSender, MailDirs, _digest, message_bytes

from .fakes import NOW

CFG = Config(moderator_address="moderator@example.org", moderator_name="pbem moderator")


def row(**kw: str) -> OutMail:
    fields = {"text": "hello\n", "html": "<p>hello</p>\n", "subject": "[pof-1] anna to act",
              **kw}
    mail = make_mail(CFG, game_id="pof-1", kind="status", to="anna@example.org",
                     now=NOW, reply_to="moderator+tok@example.org", in_reply_to="<p@x.org>",
                     references=[f"<r{i}@x.org>" for i in range(12)], version=3, **fields)
    mail.id = 1
    return mail


def parsed(raw: bytes) -> EmailMessage:
    """The mail as a reader stores it (line ends as LF) and the email package reads it."""
    msg = email.message_from_bytes(raw.replace(b"\r\n", b"\n"), policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def test_a_mail_reads_back_as_the_email_package_reads_what_is_sent() -> None:
    text = "Würfel: 3\n" + "long " * 40 + "\n\nend\n"
    html = "<p>Würfel</p>\n"
    msg = build_message(CFG, row(text=text, html=html, subject="[pof-1] Zoë — to act"))
    back = parsed(msg.raw)
    assert back["Subject"] == msg["Subject"] == "[pof-1] Zoë — to act"
    assert str(back["To"]) == "anna@example.org"
    assert str(back["From"]) == "pbem moderator <moderator@example.org>"
    assert back["References"].split()[-1] == "<p@x.org>"
    assert back.get_content_type() == "multipart/alternative"
    plain = back.get_body(preferencelist=("plain",))
    rich = back.get_body(preferencelist=("html",))
    assert plain is not None and rich is not None
    assert plain.get_content() == text and rich.get_content() == html
    assert plain["Content-Transfer-Encoding"] == "quoted-printable"
    # and the message handed to the transports has the same headers, its body unread
    assert [(k, str(v)) for k, v in msg.items()] == [(k, str(v)) for k, v in back.items()]
    assert msg.get_payload() == "" and not msg.is_multipart()
    assert all(len(line) <= 78 for line in msg.raw.split(b"\r\n"))
    assert b"\n" not in msg.raw.replace(b"\r\n", b"")
    assert msg.raw.isascii()


def test_a_plain_mail_is_one_part_and_7bit() -> None:
    msg = build_message(CFG, row(html=""))
    back = parsed(msg.raw)
    assert back.get_content_type() == "text/plain"
    assert back["Content-Transfer-Encoding"] == "7bit"
    assert back.get_content() == "hello\n"


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from("ab =\t\r\n.éü—€\x00\x7f\x0cFrom")
               | st.characters(blacklist_categories=("Cs",)),
               max_size=400))
def test_any_text_reads_back_as_it_was_written(text: str) -> None:
    # what a reader gets of a part is the text with its line ends as LF
    raw = compose([("To", "a@b.org")], text, "<p>x</p>\n")
    plain = parsed(raw).get_body(preferencelist=("plain",))
    assert plain is not None
    lines = text.encode("utf-8").splitlines()
    assert plain.get_payload(decode=True) == b"".join(ln + b"\n" for ln in lines) or \
        (not lines and plain.get_payload(decode=True) in (b"", b"\n"))
    assert all(len(line) <= 78 for line in raw.split(b"\r\n"))
    assert b"\n" not in raw.replace(b"\r\n", b"") and raw.isascii()


def test_a_part_holding_the_boundary_gets_another_one() -> None:
    raw = compose([("To", "a@b.org")], f"--{BOUNDARY}\n", "<p>x</p>\n")
    back = parsed(raw)
    assert back.get_boundary() != BOUNDARY
    plain = back.get_body(preferencelist=("plain",))
    assert plain is not None and plain.get_content() == f"--{BOUNDARY}\n"


def test_the_transports_send_the_bytes_built_once(tmp_path: Path) -> None:
    msg = build_message(CFG, row())
    assert isinstance(msg, Outgoing) and message_bytes(msg) is msg.raw
    dirs = MailDirs(tmp_path)
    DirSender(dirs).send_batch([msg], lambda i, e: None)
    [path] = dirs.new("anna@example.org")
    assert path.read_bytes() == msg.raw
    assert read_back(msg.raw).raw == msg.raw


class Taker:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.batches: list[int] = []

    def send_batch(self, messages: Sequence[EmailMessage],
                   done: Callable[[int, Exception | None], None]) -> None:
        self.batches.append(len(messages))
        for i, m in enumerate(messages):
            self.sent.append(str(m["Message-ID"]))
            done(i, None)


@pytest.mark.parametrize(("n", "share", "batches"), [
    (20, 6, [10, 6, 4]), (45, 6, [20, 13, 6, 6]), (20, 0, [20]), (45, 0, [20, 20, 5])])
def test_a_batch_is_marked_sent_in_one_transaction(n: int, share: int,
                                                   batches: list[int]) -> None:
    """Each claim takes half of what is due (at least `share`, at most 20; `share` 0:
    20), and its batch is marked in one transaction."""
    store = Store("sqlite://")
    store.create_all()
    with store.transaction() as s:
        for i in range(n):
            s.add(make_mail(CFG, game_id=None, kind="notice", to=f"p{i}@example.org",
                            subject=f"mail {i}", text="hi\n", html="", now=NOW))
    commits: list[int] = []
    event.listen(store.engine, "commit", lambda conn: commits.append(1))
    taker = Taker()
    report = send_due(store, taker, CFG, NOW, limit=20, share=share)
    assert report.sent == n and len(set(taker.sent)) == n
    assert taker.batches == batches
    # per batch: its claim and its marks; then, when the last claim took as many as
    # the smallest claim may, one that finds nothing
    assert len(commits) == 2 * len(batches) + (batches[-1] >= min(20, share or 20))
    with store.read() as s:
        rows = list(s.exec(select(OutMail)))
    assert all(r.status == "sent" and r.attempts == 1 and r.claimed_until is None
               for r in rows)


def _delivered(dirs: MailDirs, address: str) -> list[Path]:
    box = dirs.folder(address)
    return [p for sub in ("new", "cur", "processed") for p in (box / sub).glob("*.eml")]


def test_a_message_id_is_delivered_once_without_listing_the_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first delivery reads the folder's notes (`.sent/`), not its mails; a resend
    (a crash came before the row was marked) finds the note, then the mail, and
    writes nothing, wherever the reader moved the mail."""
    dirs, msg = MailDirs(tmp_path), build_message(CFG, row())
    listed: list[Path] = []
    real_glob = Path.glob

    def glob(self: Path, pattern: str) -> object:
        listed.append(self)
        return real_glob(self, pattern)

    monkeypatch.setattr(Path, "glob", glob)
    DirSender(dirs).send_batch([msg], lambda i, e: None)
    assert listed == []
    [path] = _delivered(dirs, "anna@example.org")
    (path.parent.parent / "cur").mkdir()
    path.rename(path.parent.parent / "cur" / path.name)
    errors: list[Exception | None] = []
    DirSender(dirs).send_batch([msg], lambda i, e: errors.append(e))
    assert errors == [None] and listed
    assert [p.name for p in _delivered(dirs, "anna@example.org")] == [path.name]


def test_a_noted_message_id_whose_mail_was_never_written_is_delivered(tmp_path: Path) -> None:
    """The note is written before the mail: a crash between them leaves a note
    without a mail, and the resend delivers it."""
    dirs, msg = MailDirs(tmp_path), build_message(CFG, row())
    other = build_message(CFG, row(subject="another"))
    DirSender(dirs).send_batch([other], lambda i, e: None)  # the folder exists
    box = dirs.folder("anna@example.org")
    (box / ".sent" / _digest(msg.message_id)).touch()
    DirSender(dirs).send_batch([msg], lambda i, e: None)
    assert len(_delivered(dirs, "anna@example.org")) == 2


def test_a_folder_without_notes_is_listed_for_an_earlier_delivery(tmp_path: Path) -> None:
    """A folder made before the notes (no `.sent/`) holds deliveries nobody noted:
    a resend looks for the mail itself, and delivers one it does not find."""
    dirs, msg = MailDirs(tmp_path), build_message(CFG, row())
    DirSender(dirs).send_batch([msg], lambda i, e: None)
    box = dirs.folder("anna@example.org")
    for note in (box / ".sent").iterdir():
        note.unlink()
    (box / ".sent").rmdir()
    DirSender(dirs).send_batch([msg], lambda i, e: None)
    assert len(_delivered(dirs, "anna@example.org")) == 1
    fresh = build_message(CFG, row(subject="new"))
    DirSender(dirs).send_batch([fresh], lambda i, e: None)
    assert len(_delivered(dirs, "anna@example.org")) == 2
    assert not (box / ".sent").exists()


def test_queued_rows_are_inserted_at_commit_and_dropped_with_a_rollback() -> None:
    """`queue_mail` rows are written together when the transaction commits, in the
    order queued, and seen by the thread of a later mail of the same transaction; a
    transaction rolled back leaves none."""
    from pbem.outbound import mail_row, queue_mail, thread_of

    store = Store("sqlite://")
    store.create_all()

    def values(i: int) -> dict[str, object]:
        return mail_row(CFG, game_id="pof-1", kind="status", to="anna@example.org",
                        subject=f"mail {i}", text="hi\n", html="", now=NOW)

    with pytest.raises(RuntimeError), store.transaction() as s:
        queue_mail(s, values(0))
        raise RuntimeError("the move failed")
    queued = [values(i) for i in range(3)]
    with store.transaction() as s:
        queue_mail(s, queued[0])
        assert thread_of(s, "pof-1", "anna@example.org") == (queued[0]["message_id"],)
        queue_mail(s, queued[1])
        queue_mail(s, queued[2])
        assert thread_of(s, "pof-1", "anna@example.org") == (queued[0]["message_id"],
                                                             queued[2]["message_id"])
    with store.read() as s:
        rows = list(s.exec(select(OutMail).order_by(OutMail.id)))  # type: ignore[arg-type]
    assert [r.message_id for r in rows] == [q["message_id"] for q in queued]
    assert all(r.status == "pending" and r.attempts == 0 for r in rows)
