"""The reply corpus: real client shapes (tests/pbem/reply_corpus/*.eml) read as expected
(tests/pbem/reply_corpus/expected.toml), and through the moderator where marked."""

from __future__ import annotations

import email
import email.policy
import tomllib
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from pbem.inbound import command_lines, html_to_text, parse_mail, split_envelope
from pbem.store import MoveRow

from .helpers import run, state_of

CORPUS = Path(__file__).parent / "reply_corpus"
EXPECTED: dict[str, dict[str, Any]] = tomllib.loads(
    (CORPUS / "expected.toml").read_text(encoding="utf-8"))
MODERATED = sorted(n for n, e in EXPECTED.items() if "moderator" in e)


def test_corpus_is_complete() -> None:
    assert len(EXPECTED) >= 40
    assert {p.stem for p in CORPUS.glob("*.eml")} == set(EXPECTED)
    assert len(MODERATED) >= 20


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reply_is_read_as_expected(name: str) -> None:
    expected = EXPECTED[name]
    parsed = parse_mail((CORPUS / f"{name}.eml").read_bytes())
    assert parsed.problem is None and parsed.auto is None
    env = split_envelope(command_lines(parsed.text))
    assert [ln.text for ln in env.commands] == expected["commands"]
    assert [ln.text for ln in env.ignored] == expected["ignored"]


def _moves(mod, game: str) -> list[str]:
    with mod.store.read() as s:
        rows = s.exec(select(MoveRow).where(MoveRow.game_id == game).order_by(MoveRow.n))
        return [m.command for m in rows]


@pytest.mark.parametrize("name", MODERATED)
def test_moderator_plays_what_was_read(name: str, mod, game, mailbox, smtp) -> None:
    expected = EXPECTED[name]
    run(mod, mailbox, smtp)
    before = state_of(mod, game)
    dealt = _moves(mod, game)
    reply_to = str(smtp.to("anna@example.org")[-1]["Reply-To"])
    smtp.sent.clear()
    # a real reply goes to the status mail's Reply-To, which names the seat
    raw = (CORPUS / f"{name}.eml").read_bytes()
    assert b"\nTo: pbem moderator <moderator@example.org>" in raw
    raw = raw.replace(b"\nTo: pbem moderator <moderator@example.org>",
                      f"\nTo: pbem moderator <{reply_to}>".encode(), 1)
    mailbox.put(raw)
    (outcome,) = run(mod, mailbox, smtp).outcomes
    assert outcome.status == expected["moderator"], outcome.note
    moves = _moves(mod, game)[len(dealt):]
    after = state_of(mod, game)
    reply = smtp.text(smtp.to("anna@example.org")[-1])
    if expected["moderator"] == "accepted":
        assert moves == ["keep composer mathematician poet"]
        assert set(after.players[0].hand) == {"composer", "mathematician", "poet"}
        assert "Accepted from you:\n  keep composer mathematician poet" in reply
        if expected["ignored"]:
            (shown,) = [ln for ln in reply.splitlines() if ln.startswith("Ignored")]
            for line in expected["ignored"]:
                assert line in shown
            assert shown == expected.get("shown", shown)
            for other in ("bas@example.org", "chris@example.org"):  # shown to the sender only
                assert "Ignored" not in smtp.text(smtp.to(other)[-1])
        else:
            assert "Ignored" not in reply
    else:
        assert moves == [] and after.version == before.version
        assert expected["reason"] in reply
        assert "Nothing from this mail was applied." in reply


def _parts(name: str) -> dict[str, Message]:
    msg = email.message_from_bytes((CORPUS / f"{name}.eml").read_bytes(),
                                   policy=email.policy.compat32)
    return {p.get_content_type(): p for p in msg.walk() if not p.is_multipart()}


ALTERNATIVES = [n for n in sorted(EXPECTED) if {"text/plain", "text/html"} <= set(_parts(n))]


def test_corpus_has_alternatives() -> None:
    assert len(ALTERNATIVES) >= 10


@pytest.mark.parametrize("name", ALTERNATIVES)
def test_html_alternative_reads_the_same(name: str) -> None:
    """The moderator reads the text/plain part; the HTML part of the same mail must read
    the same, as it is what an HTML-only client would have sent."""
    expected = EXPECTED[name]
    html = _parts(name)["text/html"]
    text = html_to_text(html.get_payload(decode=True).decode(html.get_content_charset()))
    env = split_envelope(command_lines(text))
    assert [ln.text for ln in env.commands] == expected["commands"]
    assert [ln.text for ln in env.ignored] == expected["ignored"]
