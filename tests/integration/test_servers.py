"""The server stack itself works from Python: SMTP (STARTTLS) -> IMAP, and PostgreSQL."""

from __future__ import annotations

import asyncio
import time
import uuid
from email.message import EmailMessage

import aiosmtplib
import pytest
from imap_tools import AND, MailBox, MailBoxStartTls
from imap_tools.errors import MailboxLoginError
from sqlalchemy.orm import registry
from sqlmodel import Field, Session, SQLModel, create_engine, select

from .conftest import MailAccount, MailStack

pytestmark = pytest.mark.integration

DELIVERY_TIMEOUT = 10.0  # seconds; delivery normally takes < 0.1 s


def unique_subject(what: str) -> str:
    return f"pbem {what} {uuid.uuid4().hex}"


def make_message(sender: str, to: str | list[str], subject: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to if isinstance(to, str) else ", ".join(to)
    msg["Subject"] = subject
    msg.set_content(body)
    return msg


def wait_for_uid(stack: MailStack, account: MailAccount, subject: str) -> str:
    """Poll the INBOX of ``account`` until a message with ``subject`` arrives; return its UID."""
    deadline = time.monotonic() + DELIVERY_TIMEOUT
    while True:
        with MailBoxStartTls(
            stack.imap_host, stack.imap_port, ssl_context=stack.ssl_context()
        ).login(account.address, account.password) as mb:
            uids = mb.uids(AND(subject=subject))
        if uids:
            assert len(uids) == 1, uids
            return uids[0]
        if time.monotonic() > deadline:
            raise AssertionError(
                f"{subject!r} not in {account.address}'s INBOX after {DELIVERY_TIMEOUT} s"
            )
        time.sleep(0.05)


def test_plus_addressed_mail_reaches_moderator_and_moves(mailstack: MailStack) -> None:
    player, moderator = mailstack.account("p1"), mailstack.moderator
    to = mailstack.plus_address("abc123")  # moderator+abc123@pbem.test
    subject = unique_subject("roundtrip")
    msg = make_message(player.address, to, subject, "Turn 3: buy jester\n")

    # Postfix with STARTTLS required and the certificate verified against the stack's CA
    errors, response = asyncio.run(
        aiosmtplib.send(
            msg,
            hostname=mailstack.smtp_host,
            port=mailstack.smtp_port,
            start_tls=True,
            tls_context=mailstack.ssl_context(),
        )
    )
    assert errors == {}, errors
    assert response.startswith("2.0.0"), response

    uid = wait_for_uid(mailstack, moderator, subject)
    ctx = mailstack.ssl_context()
    with MailBoxStartTls(mailstack.imap_host, mailstack.imap_port, ssl_context=ctx).login(
        moderator.address, moderator.password
    ) as mb:
        (got,) = mb.fetch(AND(uid=uid), mark_seen=False)
        assert got.subject == subject
        assert got.from_ == player.address
        assert got.to == (to,)  # the +token survives in To ...
        assert got.headers["delivered-to"] == (to,)  # ... and in the envelope recipient
        assert got.text.strip() == "Turn 3: buy jester"

        if not mb.folder.exists("processed"):
            mb.folder.create("processed")
        mb.move(uid, "processed")
        assert mb.uids(AND(subject=subject)) == []

    # the moved message, seen over implicit TLS (IMAPS)
    with MailBox(mailstack.imap_host, mailstack.imaps_port, ssl_context=ctx).login(
        moderator.address, moderator.password, initial_folder="processed"
    ) as mb:
        moved = list(mb.fetch(AND(subject=subject), mark_seen=False))
        assert [(m.subject, m.to) for m in moved] == [(subject, (to,))]


def test_authenticated_submission_reaches_every_player(mailstack: MailStack) -> None:
    moderator, players = mailstack.moderator, mailstack.players
    assert len(players) >= 6
    subject = unique_subject("broadcast")
    msg = make_message(moderator.address, [p.address for p in players], subject, "Game starts.")

    # Dovecot submission: STARTTLS + AUTH as the moderator, relayed through Postfix
    errors, _ = asyncio.run(
        aiosmtplib.send(
            msg,
            hostname=mailstack.smtp_host,
            port=mailstack.submission_port,
            start_tls=True,
            tls_context=mailstack.ssl_context(),
            username=moderator.address,
            password=moderator.password,
        )
    )
    assert errors == {}, errors
    for player in players:
        wait_for_uid(mailstack, player, subject)


def test_unknown_recipient_is_refused(mailstack: MailStack) -> None:
    msg = make_message(
        mailstack.moderator.address, f"nobody@{mailstack.domain}", unique_subject("x"), "x"
    )
    with pytest.raises(aiosmtplib.SMTPRecipientsRefused, match="550"):
        asyncio.run(
            aiosmtplib.send(
                msg,
                hostname=mailstack.smtp_host,
                port=mailstack.smtp_port,
                start_tls=True,
                tls_context=mailstack.ssl_context(),
            )
        )


def test_wrong_password_is_rejected(mailstack: MailStack) -> None:
    ctx = mailstack.ssl_context()
    with pytest.raises(MailboxLoginError):
        MailBoxStartTls(mailstack.imap_host, mailstack.imap_port, ssl_context=ctx).login(
            mailstack.account("p2").address, "wrong-password"
        )


# A private registry keeps this table out of SQLModel.metadata, which the app's models use.
class _ProbeBase(SQLModel, registry=registry()):
    pass


class IntegrationProbe(_ProbeBase, table=True):
    __tablename__ = "integration_probe"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    turn: int = 0


def test_postgres_roundtrip(database_url: str) -> None:
    engine = create_engine(database_url)
    assert engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg"
    metadata = _ProbeBase.metadata
    name = f"game-{uuid.uuid4().hex}"
    try:
        metadata.create_all(engine)
        with Session(engine) as session:
            session.add(IntegrationProbe(name=name, turn=3))
            session.commit()
        with Session(engine) as session:
            row = session.exec(select(IntegrationProbe).where(IntegrationProbe.name == name)).one()
            assert (row.name, row.turn) == (name, 3)
            assert row.id is not None
        with engine.connect() as conn:
            assert str(conn.exec_driver_sql("select version()").scalar()).startswith("PostgreSQL")
    finally:
        metadata.drop_all(engine)
        engine.dispose()
