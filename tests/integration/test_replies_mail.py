"""Corpus replies through the real servers: each mail of tests/pbem/reply_corpus/ is
sent as its raw bytes (its charset and transfer encoding untouched) through Postfix to
the seat's `+token` address, read by the moderator over IMAP, and answered; the
sender's reply is read back over IMAP."""

from __future__ import annotations

import asyncio
import re
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import aiosmtplib
import pytest
from sqlmodel import select

from pbem.moderator import Moderator, PlayerSpec
from pbem.runner import poll_once
from pbem.store import MoveRow, Seat, utcnow
from pbem.transport import ImapInbox, SmtpSender

from .conftest import MailStack
from .test_moderator_mail import (
    ImapPost,
    clear_moderator,
    fresh_store,
    moderator_config,
    moderator_pass_until,
)

pytestmark = pytest.mark.integration

CORPUS = Path(__file__).parents[1] / "pbem" / "reply_corpus"
EXPECTED = tomllib.loads((CORPUS / "expected.toml").read_text(encoding="utf-8"))
SHAPES = ["greek_gmail", "russian_gmail", "outlook_desktop_de", "hotmail_hr", "apple_mail",
          "thunderbird_bottom", "bom_base64", "portuguese_gmail", "signoffs_only"]


@pytest.fixture
def mailboxes(mailstack: MailStack) -> Iterator[ImapPost]:
    p = ImapPost(mailstack)
    clear_moderator(mailstack)
    p.clear(*(a.address for a in mailstack.players[:3]))
    yield p
    p.close()


def _readdressed(raw: bytes, sender: str, to: str) -> bytes:
    """The corpus mail with From and To set to the test stack's addresses."""
    head, sep, body = raw.partition(b"\r\n\r\n")
    head = re.sub(rb"(?m)^From: .*$", b"From: Anna Example <" + sender.encode() + b">", head)
    head = re.sub(rb"(?m)^To: .*$", b"To: " + to.encode(), head)
    return head + sep + body


def test_corpus_replies_by_real_mail(mailstack: MailStack, database_url: str,
                                     mailboxes: ImapPost) -> None:
    post = mailboxes
    cfg = moderator_config(mailstack, database_url)
    store = fresh_store(database_url)
    mod = Moderator(store, cfg)
    accounts = mailstack.players[:3]
    anna = accounts[0].address
    for n, name in enumerate(SHAPES):
        expected = EXPECTED[name]
        game_id = f"rc-{n}"
        specs = [PlayerSpec(nm, a.address, "UTC") for nm, a in zip(("anna", "bas", "chris"),
                                                                   accounts, strict=True)]
        mod.new_game(specs, utcnow(), game_id=game_id, seed="test-seed")
        poll_once(mod, lambda: ImapInbox(cfg), SmtpSender(cfg))
        post.clear(*(a.address for a in accounts))
        with store.read() as s:
            seat = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.seat == 0)).one()
            token = seat.token
        raw = _readdressed((CORPUS / f"{name}.eml").read_bytes(), anna,
                           mailstack.plus_address(token))
        asyncio.run(aiosmtplib.send(raw, sender=anna, recipients=[mailstack.plus_address(token)],
                                    hostname=mailstack.smtp_host, port=mailstack.smtp_port,
                                    start_tls=True, tls_context=mailstack.ssl_context()))
        moderator_pass_until(mod, cfg, n + 1)
        with store.read() as s:
            moves = [m.command for m in s.exec(select(MoveRow).where(
                MoveRow.game_id == game_id, MoveRow.seat == 0))]
        replies = _wait_for_reply(post, anna, f"<{name}.corpus@example.org>")
        text = replies.get_body(("plain",)).get_content()  # type: ignore[union-attr]
        if expected["moderator"] == "accepted":
            assert moves == ["keep composer mathematician poet"], name
            assert "Accepted from you:\n  keep composer mathematician poet" in text
            if expected["ignored"]:
                (shown,) = [ln for ln in text.splitlines() if ln.startswith("Ignored")]
                assert all(line in shown for line in expected["ignored"])
        else:
            assert moves == [], name
            assert expected["reason"] in text
    store.dispose()


def _wait_for_reply(post: ImapPost, address: str, in_reply_to: str):  # noqa: ANN202
    deadline = time.monotonic() + 15
    while True:
        for msg in post.receive(address):
            if str(msg["In-Reply-To"]) == in_reply_to:
                return msg
        assert time.monotonic() < deadline, f"no reply to {in_reply_to}"
        time.sleep(0.05)
