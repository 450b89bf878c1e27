"""`SmtpSender` sends a batch over several SMTP connections at once: each recipient's
mails over one connection in the batch's order, every mail reported once, and a
lost connection charging only its own recipient's unsent mails (aiosmtplib's client
replaced by a fake that yields to the event loop at each step, as a network would)."""

from __future__ import annotations

import asyncio
import email
import email.policy
from collections import Counter
from email.message import EmailMessage

import aiosmtplib
import pytest
from sqlmodel import select

from pbem.config import Config
from pbem.errors import TransportError
from pbem.outbound import make_mail, send_due
from pbem.store import OutMail, Store
from pbem.transport import SmtpSender

from .fakes import NOW

CFG = Config(moderator_address="moderator@example.org", smtp_tls="none")


class FakeSmtp:
    """One connection: records (connection, recipient, Message-ID) as it sends; a
    mail whose subject is "drop" loses the connection."""

    opened: list[FakeSmtp] = []
    sent: list[tuple[int, str, str]] = []
    refuse_connect = False

    def __init__(self, **_: object) -> None:
        self.n = len(FakeSmtp.opened)
        FakeSmtp.opened.append(self)

    async def connect(self) -> None:
        await asyncio.sleep(0)
        if FakeSmtp.refuse_connect:
            raise OSError("connection refused")

    async def send_message(self, msg: EmailMessage, sender: str) -> None:
        for _ in range(3):  # MAIL, RCPT, DATA: the other connections run meanwhile
            await asyncio.sleep(0)
        if str(msg["Subject"]) == "drop":
            raise aiosmtplib.SMTPServerDisconnected("gone")
        FakeSmtp.sent.append((self.n, str(msg["To"]), str(msg["Message-ID"])))

    async def sendmail(self, sender: str, to: list[str], raw: bytes) -> None:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(msg, EmailMessage) and [str(msg["To"])] == to
        await self.send_message(msg, sender)

    async def noop(self) -> None: ...

    async def quit(self) -> None: ...

    def close(self) -> None: ...


@pytest.fixture(autouse=True)
def fake_smtp(monkeypatch: pytest.MonkeyPatch) -> None:
    FakeSmtp.opened, FakeSmtp.sent, FakeSmtp.refuse_connect = [], [], False
    monkeypatch.setattr(aiosmtplib, "SMTP", FakeSmtp)


def message(to: str, n: int, subject: str = "status") -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "moderator@example.org", to, subject
    msg["Message-ID"] = f"<{to.split('@')[0]}-{n}@example.org>"
    msg.set_content("hello\n")
    return msg


def send(sender: SmtpSender, messages: list[EmailMessage]
         ) -> list[tuple[int, Exception | None]]:
    reported: list[tuple[int, Exception | None]] = []
    sender.send_batch(messages, lambda i, e: reported.append((i, e)))
    return reported


def test_each_recipients_mails_go_over_one_connection_in_order() -> None:
    batch = [message(to, n) for n in range(3) for to in ("anna@x.org", "bas@x.org",
                                                        "chris@x.org", "dirk@x.org")]
    sender = SmtpSender(CFG, connections=3)
    reported = send(sender, batch)
    assert sorted(i for i, _ in reported) == list(range(12))  # each once
    assert all(e is None for _, e in reported)
    assert sender.connections == 3
    assert len({n for n, _, _ in FakeSmtp.sent}) == 3  # the connections worked at once
    for to in ("anna@x.org", "bas@x.org", "chris@x.org", "dirk@x.org"):
        mine = [(n, mid) for n, rcpt, mid in FakeSmtp.sent if rcpt == to]
        assert len({n for n, _ in mine}) == 1  # one connection
        assert [mid for _, mid in mine] == [f"<{to.split('@')[0]}-{n}@example.org>"
                                            for n in range(3)]  # as queued
    # not in the batch's order: the connections interleave
    assert [i for i, _ in reported] != list(range(12))


def test_one_connection_sends_in_the_batchs_order() -> None:
    batch = [message(to, n) for n in range(2) for to in ("anna@x.org", "bas@x.org")]
    sender = SmtpSender(CFG, connections=1)
    assert [i for i, e in send(sender, batch) if e is None] == [0, 2, 1, 3]  # by recipient
    assert sender.connections == 1


def test_a_lost_connection_charges_its_recipients_unsent_mails_only() -> None:
    batch = [message("anna@x.org", 0), message("anna@x.org", 1, "drop"),
             message("anna@x.org", 2), message("bas@x.org", 0), message("bas@x.org", 1),
             message("chris@x.org", 0)]
    reported = dict(send(SmtpSender(CFG, connections=2), batch))
    assert len(reported) == 6  # each once
    assert reported[0] is None
    assert isinstance(reported[1], TransportError) and isinstance(reported[2], TransportError)
    assert all(reported[i] is None for i in (3, 4, 5))  # the other connection sent them
    assert Counter(rcpt for _, rcpt, _ in FakeSmtp.sent) == Counter(
        {"anna@x.org": 1, "bas@x.org": 2, "chris@x.org": 1})


def test_no_connection_at_all_charges_every_mail_once() -> None:
    FakeSmtp.refuse_connect = True
    batch = [message(to, 0) for to in ("anna@x.org", "bas@x.org", "chris@x.org",
                                       "dirk@x.org", "eva@x.org")]
    reported = send(SmtpSender(CFG, connections=3), batch)
    assert sorted(i for i, _ in reported) == [0, 1, 2, 3, 4]
    assert all(isinstance(e, TransportError) for _, e in reported)
    assert FakeSmtp.sent == []


def test_the_outbox_is_marked_whatever_order_the_connections_finish_in() -> None:
    store = Store("sqlite://")
    store.create_all()
    with store.transaction() as s:
        for n in range(7):
            for to in ("anna@x.org", "bas@x.org", "chris@x.org"):
                s.add(make_mail(CFG, game_id="g", kind="status", to=to, subject=f"m{n}",
                                text="hello\n", html="", now=NOW))
    report = send_due(store, SmtpSender(CFG, connections=3), CFG, NOW)
    assert (report.sent, report.retry, report.failed) == (21, 0, 0)
    assert len(FakeSmtp.sent) == 21 and len(FakeSmtp.opened) == 3
    with store.read() as s:
        assert {r.status for r in s.exec(select(OutMail))} == {"sent"}
    store.dispose()
