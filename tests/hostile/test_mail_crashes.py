"""Mails that once crashed the moderator are processed: a reply where a sender has an
address, an "ignored" outcome otherwise; never an exception out of `parse_mail` or
`process_mail`, never a mail moved to failed/ without a word."""

from __future__ import annotations

import pytest
from sqlmodel import select

from pbem.inbound import parse_mail
from pbem.runner import poll_once
from pbem.store import InboundMail

from .poison import fakes

NOW = fakes.NOW
SENDER = "anna@example.org"


def nested_multipart(depth: int) -> bytes:
    head = (f"From: {SENDER}\r\nTo: moderator@example.org\r\nSubject: deep\r\n"
            "Message-ID: <deep@example.org>\r\nMIME-Version: 1.0\r\n").encode()
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
                       for i in range(depth))
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\npass" + closing


def plain(headers: str, body: bytes = b"pass\r\n") -> bytes:
    return headers.replace("\n", "\r\n").encode() + b"\r\n" + body


CRASHERS: dict[str, tuple[bytes, bool]] = {  # name -> (raw mail, a reply is due)
    "multipart-1000-deep": (nested_multipart(1000), True),
    "from-5000-nested-comments": (plain(
        "From: " + "(" * 5000 + ")" * 5000 + f" {SENDER}\nSubject: c\n"
        "Message-ID: <comments@example.org>\n"), True),
    "to-5000-nested-comments": (plain(
        f"From: {SENDER}\nTo: " + "(" * 5000 + ")" * 5000 + " moderator@example.org\n"
        "Subject: c\nMessage-ID: <to-comments@example.org>\n"), True),
    "version-5000-digits": (plain(
        f"From: {SENDER}\nSubject: v\nMessage-ID: <digits@example.org>\n",
        b"@v" + b"9" * 5000 + b"\r\npass\r\n"), True),
    "message-id-100k": (plain(
        f"From: {SENDER}\nSubject: m\nMessage-ID: <" + "m" * 100_000 + "@example.org>\n"), True),
    "header-line-1mb": (plain(
        f"From: {SENDER}\nSubject: " + "s" * (1 << 20) + "\nMessage-ID: <line@example.org>\n"),
        True),
    "binary-garbage": (bytes(range(256)) * 64, False),
    "empty": (b"", False),
    "nul-in-body": (plain(f"From: {SENDER}\nSubject: n\nMessage-ID: <nul@example.org>\n",
                          b"pa\x00ss\r\n"), True),
    "from-raw-8bit": (plain("From: J\xf6rg <" + SENDER + ">\nSubject: x\n"
                            "Message-ID: <8bit@example.org>\n"), True),
}


@pytest.mark.parametrize("name", sorted(CRASHERS))
def test_parse_mail_never_raises(name: str) -> None:
    raw, reply = CRASHERS[name]
    parsed = parse_mail(raw[:1 << 20], truncated=len(raw) > 1 << 20)
    assert parsed.sender == (SENDER if reply else "")
    assert len(parsed.message_id) <= 500 and len(parsed.subject) <= 300
    assert "\x00" not in parsed.text


@pytest.mark.parametrize("name", sorted(CRASHERS))
def test_each_crasher_is_answered_or_ignored(name: str) -> None:
    raw, reply = CRASHERS[name]
    mod = fakes.make_moderator()
    mod.new_game(fakes.PLAYERS, NOW, game_id="pof-17", seed="test-seed")
    mailbox, smtp = fakes.FakeMailbox(), fakes.FakeSmtp()
    poll_once(mod, lambda: mailbox, smtp, lambda: NOW)
    smtp.sent.clear()
    mailbox.mails["INBOX/1/1"] = raw[:1 << 20]
    report = poll_once(mod, lambda: mailbox, smtp, lambda: NOW)
    assert not report.errors and not mailbox.failed_uids
    assert mailbox.processed == ["INBOX/1/1"]
    [outcome] = report.outcomes
    with mod.store.read() as s:
        [stored] = s.exec(select(InboundMail)).all()
    assert stored.status == outcome.status
    if reply:
        assert outcome.status == "rejected", outcome
        assert [str(m["To"]) for m in smtp.sent] == [SENDER]
        assert report.sent.failed == 0
    else:
        assert outcome.status == "ignored"
        assert smtp.sent == []


def test_a_long_version_line_is_named_in_the_reply() -> None:
    mod = fakes.make_moderator()
    mod.new_game(fakes.PLAYERS, NOW, game_id="pof-17", seed="test-seed")
    mailbox, smtp = fakes.FakeMailbox(), fakes.FakeSmtp()
    poll_once(mod, lambda: mailbox, smtp, lambda: NOW)
    smtp.sent.clear()
    mailbox.put(CRASHERS["version-5000-digits"][0])
    poll_once(mod, lambda: mailbox, smtp, lambda: NOW)
    text = smtp.text(smtp.to(SENDER)[0])
    assert "at most 9 digits" in text and "has 5000" in text
    assert "9" * 50 not in text
