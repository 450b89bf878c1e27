"""Reading mails: quoted text, signatures, HTML, charsets, auto-replies, routing."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.inbound import (
    auto_reason,
    command_lines,
    html_to_text,
    mail_key,
    parse_mail,
    split_envelope,
    token_from,
)

from .fakes import mail, raw


def texts(body: str) -> list[str]:
    return [ln.text for ln in command_lines(body)]


def test_quotes_attribution_and_signature_are_dropped() -> None:
    body = ("@v37\nwork poet +per-building pp 7\n\nbuild theater d1 e1 f1\n"
            "On Mon, 3 Dec 2026 at 10:00, pbem <moderator@x.org> wrote:\n> pass\n"
            "-- \nanna\npass\n")
    assert texts(body) == ["@v37", "work poet +per-building pp 7", "build theater d1 e1 f1"]


@pytest.mark.parametrize("stop", [
    "-- ", "--", "Op ma 3 dec. 2026 schreef pbem:", "-----Original Message-----",
    "Sent from my phone", "From: pbem moderator <moderator@example.org>",
])
def test_stop_lines(stop: str) -> None:
    assert texts(f"pass\n{stop}\nbid 400\n") == ["pass"]


def test_wrapped_attribution_stops() -> None:
    assert texts("pass\nOn Mon, 3 Dec 2026 at 10:00, a long name\n<m@x.org> wrote:\nbid 1\n") \
        == ["pass"]


def test_line_numbers_and_comments() -> None:
    lines = command_lines("\n# my plan\n> quoted\npass\n")
    assert [(ln.number, ln.text) for ln in lines] == [(4, "pass")]


def test_envelope_lines() -> None:
    env = split_envelope(command_lines("game POF-17\ntoken abc123\n@ v42\npass\n"))
    assert (env.game, env.token, env.version) == ("pof-17", "abc123", 42)
    assert [c.text for c in env.commands] == ["pass"]


def test_token_from_plus_address() -> None:
    rcpts = ["someone@else.org", "moderator+ab12cd@example.org"]
    assert token_from(rcpts, "moderator", "example.org") == "ab12cd"
    assert token_from(["moderator@example.org"], "moderator", "example.org") is None
    assert token_from(["moderator+x@other.org"], "moderator", "example.org") is None


def test_html_only_mail_is_read_as_text() -> None:
    html = ("<html><head><style>p{}</style></head><body><p>bid 400</p><div>pass</div>"
            "<blockquote>open park</blockquote></body></html>")
    assert texts(html_to_text(html)) == ["bid 400", "pass"]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@x.org", "m@x.org", "x"
    msg.set_content(html, subtype="html")
    assert texts(parse_mail(raw(msg)).text) == ["bid 400", "pass"]


def test_text_part_preferred_in_multipart() -> None:
    msg = mail("a@x.org", "m@x.org", "pass\n")
    msg.add_alternative("<p>bid 900</p>", subtype="html")
    assert parse_mail(raw(msg)).text.strip() == "pass"


@pytest.mark.parametrize("headers,reason", [
    ({"Auto-Submitted": "auto-replied"}, "Auto-Submitted"),
    ({"X-Autoreply": "yes"}, "X-Autoreply"),
    ({"Precedence": "bulk"}, "Precedence"),
    ({"Return-Path": "<>"}, "Return-Path"),
])
def test_auto_replies_are_recognised(headers: dict[str, str], reason: str) -> None:
    msg = mail("a@x.org", "m@x.org", "I am on holiday")
    for k, v in headers.items():
        msg[k] = v
    assert reason in (auto_reason(msg) or "")


def test_auto_submitted_no_is_a_person() -> None:
    msg = mail("a@x.org", "m@x.org", "pass", Auto_Submitted="no")
    assert auto_reason(msg) is None


def test_mailer_daemon_is_a_bounce() -> None:
    assert auto_reason(mail("MAILER-DAEMON@x.org", "m@x.org", "failed")) is not None


def _with_charset(body: bytes, charset: str) -> bytes:
    return (b"From: a@x.org\r\nTo: m@x.org\r\nSubject: x\r\nMessage-ID: <c@x>\r\n"
            b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=" + charset.encode()
            + b"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + body)


def test_unknown_charset_is_a_problem_not_a_crash() -> None:
    p = parse_mail(_with_charset(b"pass\r\n", "x-klingon"))
    assert p.problem and "x-klingon" in p.problem


def test_wrong_charset_is_a_problem() -> None:
    p = parse_mail(_with_charset("bid 400 \u2014 ok\r\n".encode("utf-16"), "utf-8"))
    assert p.problem and "not valid" in p.problem


def test_latin1_declared_is_read() -> None:
    p = parse_mail(_with_charset("pass # caf\u00e9\r\n".encode("latin-1"), "iso-8859-1"))
    assert p.problem is None and "caf\u00e9" in p.text


def test_huge_body_is_a_problem() -> None:
    p = parse_mail(raw(mail("a@x.org", "m@x.org", "pass\n" * 20000)), max_body=64 * 1024)
    assert p.problem and "64 KiB" in p.problem


def test_garbage_bytes_never_raise() -> None:
    for junk in (b"", b"\x00\xff" * 100, b"Content-Type: multipart/mixed; boundary=x\r\n\r\n--x"):
        p = parse_mail(junk)
        assert p.message_id.startswith("<")


def test_the_message_id_read_from_the_headers_alone_is_the_one_the_mail_gives() -> None:
    """A worker reads only the Message-ID of a mail it fetched (`mail_key`), and the
    rest once it has taken it: both must name the mail alike, whatever it holds."""
    corpus = [p.read_bytes() for p in sorted((Path(__file__).parent / "reply_corpus")
                                             .glob("*.eml"))]
    nested = b"Content-Type: multipart/mixed; boundary=x\r\n\r\n" + (
        b"--x\r\nContent-Type: multipart/mixed; boundary=x\r\n\r\n" * 2000)
    odd = [b"", b"\x00\xff" * 100, nested, _with_charset(b"pass\r\n", "x-klingon"),
           b"Message-ID:\r\n <folded@x>\r\n\r\npass\r\n",
           b"Message-ID: =?utf-8?q?=E2=80=94?= <\xe2\x80\x94@x>\r\n\r\npass\r\n",
           b"Message-ID: <a@x>\r\nMessage-ID: <b@x>\r\n\r\npass\r\n",
           b"message-id: <" + b"x" * 900 + b"@x>\r\n\r\npass\r\n",
           b"From: a@x.org\r\nSubject: no id\r\n\r\npass\r\n"]
    assert len(corpus) > 20
    for data in corpus + odd:
        assert mail_key(data) == parse_mail(data).message_id, data[:80]
