"""No header a sender controls can break an outgoing mail or stop the outbox.

Every variant in `poison.VARIANTS` once made the moderator's reply impossible to
build (the email package refuses line breaks in header values), and `send_due`
built the whole batch first, so one mail from anyone stopped all outgoing mail.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import json
import os
import subprocess
import sys
import time
import unicodedata
from email.message import EmailMessage
from pathlib import Path

import pytest

# The real-server fixtures and helpers (tests/ is on sys.path while testing).
from integration.conftest import MailStack, database_url, mailstack  # noqa: F401
from integration.test_moderator_mail import ImapPost, env_for, moderator_config, post  # noqa: F401
from sqlmodel import select

from pbem.config import Config
from pbem.headers import BIDI_CONTROLS, LINE_BREAKS, clean_address, clean_msgid, clean_text
from pbem.inbound import parse_mail
from pbem.moderator import Moderator
from pbem.outbound import make_mail, send_due, to_message
from pbem.runner import poll_once
from pbem.store import Game, OutMail, Seat, Store, seats_of, utcnow

from .poison import INJECT, VARIANTS, fakes, poison_mail

NOW = fakes.NOW
CFG = Config(moderator_address="moderator@example.org")
STRANGER = "mallory@evil.example"
PBEM = Path(sys.executable).parent / "pbem"


def unsafe(value: str) -> list[str]:
    """The characters of `value` that may not be in a header value on one line."""
    return [c for c in value if c in LINE_BREAKS or c in BIDI_CONTROLS
            or unicodedata.category(c) in ("Cc", "Cs")]


def reread(msg: EmailMessage) -> EmailMessage:
    out = email.message_from_bytes(msg.as_bytes(policy=email.policy.SMTP),
                                   policy=email.policy.default)
    assert isinstance(out, EmailMessage)
    return out


def assert_clean(msg: EmailMessage) -> None:
    """The message flattens, reads back with the same headers, and none of them
    holds a line break or a control character; nothing was injected."""
    back = reread(msg)
    assert [k.lower() for k in back.keys()] == [k.lower() for k in msg.keys()]
    assert "Bcc" not in back and "bcc" not in {k.lower() for k in back.keys()}
    for k, v in msg.items():
        assert not unsafe(str(v)), (k, str(v)[:80])
        assert len(str(v)) <= 1000


def test_line_breaks_are_exactly_what_the_email_package_refuses() -> None:
    breaks = {chr(i) for i in range(0x110000) if len(f"a{chr(i)}b".splitlines()) > 1}
    assert breaks == set(LINE_BREAKS)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_parse_mail_cleans_every_header(variant: str) -> None:
    parsed = parse_mail(poison_mail(variant, "anna@example.org", "moderator@example.org",
                                    "pass"))
    for value in (parsed.subject, parsed.sender, parsed.message_id, *parsed.references,
                  *parsed.recipients):
        assert not unsafe(value), (variant, value[:80])
    assert parsed.sender == "anna@example.org"
    assert len(parsed.subject) <= 300 and len(parsed.message_id) <= 500


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_reply_to_any_variant_can_be_built(variant: str) -> None:
    parsed = parse_mail(poison_mail(variant, STRANGER, "moderator@example.org", "pass"))
    row = make_mail(CFG, game_id=None, kind="error", to=parsed.sender,
                    subject="Re: " + parsed.subject, text="t", html="", now=NOW,
                    in_reply_to=parsed.message_id, references=parsed.references)
    msg = to_message(CFG, row)
    assert_clean(msg)
    assert str(msg["To"]) == STRANGER
    for header in ("In-Reply-To", "References"):
        for mid in str(msg.get(header, "")).split():
            assert clean_msgid(mid) == mid


@pytest.mark.parametrize("value", [
    "a\nb", "a\rb", "a\r\nb", "a\u2028b", "a\u2029b", "a\x85b", "a\x0cb", "a\x0bb", "a\x1cb",
    "a\x1db", "a\x1eb", "a\x1fb", "a\x00b", "a\x7fb", "a\x9bb", "a\u202eb", "a\u2066b",
    "a\udce9b", "a\tb", "  a   b  ",
])
def test_clean_text_keeps_one_line(value: str) -> None:
    out = clean_text(value)
    assert out in ("a b", "ab", "a\ufffdb", "a\xe9b")
    assert not unsafe(out)


@pytest.mark.parametrize("value, expected", [
    ("<a@b>", "<a@b>"), (" <a@b> ", "<a@b>"), ("<a b@c>", None), ("<a@b>\r\n <c@d>", None),
    ("<a\x0c@b>", None), ("a@b", None), ("<<a@b>>", None), ("<é@b>", None),
    ("<" + "x" * 300 + ">", None),
])
def test_message_ids_are_one_token_or_dropped(value: str, expected: str | None) -> None:
    assert clean_msgid(value) == expected


@pytest.mark.parametrize("value, expected", [
    ("anna@example.org", "anna@example.org"), ("a b@example.org", ""), ("a\n@x.org", ""),
    ("anna@example.org\nbcc:x@y", ""), ("a@b@c", ""), ("", ""), ("jörg@example.org", ""),
    ("x" * 300 + "@example.org", ""),
])
def test_addresses_are_bare_and_valid_or_empty(value: str, expected: str) -> None:
    assert clean_address(value) == expected


def test_a_row_queued_before_the_cleaning_is_cleaned_when_sent() -> None:
    store = Store("sqlite://")
    store.create_all()
    with store.transaction() as s:
        s.add(OutMail(message_id="<old.1@example.org>", kind="error", to_addr="anna@example.org",
                      subject="hi\nBcc: victim@evil.example", text="t",
                      headers=json.dumps({"In-Reply-To": "<a@b>\r\n <c@d>",
                                          "References": "<ok@x> <bad\x0c@y>",
                                          "X-Note": "one\u2028two", "Bcc": "victim@x.org"}),
                      next_attempt=NOW, created=NOW))
    smtp = fakes.FakeSmtp()
    report = send_due(store, smtp, CFG, NOW)
    assert (report.sent, report.failed) == (1, 0)
    msg = smtp.sent[0]
    assert_clean(msg)
    assert str(msg["Subject"]) == "hi Bcc: victim@evil.example"
    assert "In-Reply-To" not in msg and "Bcc" not in msg
    assert str(msg["References"]) == "<ok@x>"
    assert str(msg["X-Note"]) == "one two"


def test_one_unbuildable_row_is_failed_and_the_others_are_sent(
        caplog: pytest.LogCaptureFixture) -> None:
    store = Store("sqlite://")
    store.create_all()
    with store.transaction() as s:
        for i in range(3):
            s.add(OutMail(message_id=f"<m{i}@example.org>", kind="status",
                          to_addr="a b@example.org" if i == 0 else f"p{i}@example.org",
                          subject="s", text="t", headers="{not json" if i == 1 else "{}",
                          next_attempt=NOW, created=NOW))
    smtp = fakes.FakeSmtp()
    report = send_due(store, smtp, CFG, NOW)
    assert (report.sent, report.failed, report.retry) == (1, 2, 0)
    assert [str(m["To"]) for m in smtp.sent] == ["p2@example.org"]
    with store.read() as s:
        rows = {r.message_id: r for r in s.exec(select(OutMail))}
    assert rows["<m0@example.org>"].status == "failed"
    assert "recipient" in rows["<m0@example.org>"].last_error
    assert rows["<m1@example.org>"].status == "failed"
    assert "JSON" in rows["<m1@example.org>"].last_error
    assert len(report.problems) == 2
    assert sum("failed for good" in r.getMessage() for r in caplog.records) == 2


class CrashingSmtp(fakes.FakeSmtp):  # type: ignore[misc, name-defined]
    """A transport with a bug: it crashes on the mail to `crash_to`."""

    crash_to = "p1@example.org"

    def send_batch(self, messages, done):  # type: ignore[no-untyped-def]
        for i, msg in enumerate(messages):
            if str(msg["To"]) == self.crash_to:
                raise RuntimeError("bug in the transport")
            self.sent.append(msg)
            done(i, None)


def test_a_crashing_sender_holds_back_no_other_mail() -> None:
    store = Store("sqlite://")
    store.create_all()
    with store.transaction() as s:
        for i in range(4):
            s.add(OutMail(message_id=f"<c{i}@example.org>", kind="status",
                          to_addr=f"p{i}@example.org", subject="s", text="t",
                          next_attempt=NOW, created=NOW))
    smtp = CrashingSmtp()
    report = send_due(store, smtp, CFG, NOW)
    assert sorted(str(m["To"]) for m in smtp.sent) == [
        "p0@example.org", "p2@example.org", "p3@example.org"]
    assert (report.sent, report.retry) == (3, 1)


def test_send_attempts_then_failed() -> None:
    store = Store("sqlite://")
    store.create_all()
    with store.transaction() as s:
        s.add(OutMail(message_id="<t@example.org>", kind="status", to_addr="p@example.org",
                      subject="s", text="t", next_attempt=NOW, created=NOW))
    smtp = fakes.FakeSmtp(down=True)
    cfg = Config(moderator_address="moderator@example.org", send_attempts=3)
    from datetime import timedelta
    reports = [send_due(store, smtp, cfg, NOW + timedelta(days=i)) for i in range(5)]
    assert [(r.retry, r.failed) for r in reports] == [(1, 0), (1, 0), (0, 1), (0, 0), (0, 0)]
    with store.read() as s:
        row = s.exec(select(OutMail)).one()
    assert (row.status, row.attempts) == ("failed", 3)
    assert "connection refused (attempt 3 of 3)" in row.last_error


# --------------------------------------------------------------------------- the moderator


def player_reply_to(smtp, address: str) -> str:  # type: ignore[no-untyped-def]
    for m in reversed(smtp.history):
        if str(m["To"]) == address and m["Reply-To"]:
            return str(m["Reply-To"])
    raise AssertionError(f"no mail to {address}")


def keep_line(mod: Moderator, game_id: str, seat: int) -> str:
    with mod.store.read() as s:
        game = s.get(Game, game_id)
        assert game is not None
        state = mod.load(s, game)[1]
    return "keep " + " ".join(state.players[seat].dealt[:3])


def test_every_variant_from_strangers_and_players_then_mail_still_flows() -> None:
    mod = fakes.make_moderator()
    game = mod.new_game(fakes.PLAYERS, NOW, game_id="pof-17", seed="test-seed")
    mailbox, smtp = fakes.FakeMailbox(), fakes.FakeSmtp()
    poll_once(mod, lambda: mailbox, smtp, lambda: NOW)
    anna_to = player_reply_to(smtp, "anna@example.org")
    smtp.sent.clear()
    n = 0
    for variant in sorted(VARIANTS):
        n += 1
        mailbox.put(poison_mail(variant, STRANGER, "moderator@example.org", "pass", n))
        n += 1
        mailbox.put(poison_mail(variant, "bas@example.org", "moderator@example.org",
                                "not a command", n))
    report = poll_once(mod, lambda: mailbox, smtp, lambda: NOW)
    assert not report.errors and not mailbox.failed_uids
    assert len(report.outcomes) == 2 * len(VARIANTS)
    assert {o.status for o in report.outcomes} == {"rejected"}
    assert (report.sent.failed, report.sent.retry) == (0, 0)
    # the player is answered every time; the stranger once a day (no backscatter)
    assert report.sent.sent == len(VARIANTS) + 1
    for msg in smtp.sent:
        assert_clean(msg)
        assert INJECT not in {f"{k}: {v}" for k, v in msg.items()}
    assert {str(m["To"]) for m in smtp.sent} == {STRANGER, "bas@example.org"}

    # a following normal move is processed and its status mails are delivered
    smtp.sent.clear()
    mailbox.put(poison_mail("subject-q-lf", "anna@example.org", anna_to,
                            keep_line(mod, game, 0), 9999))
    report = poll_once(mod, lambda: mailbox, smtp, lambda: NOW)
    assert [o.status for o in report.outcomes] == ["accepted"]
    assert sorted(str(m["To"]) for m in smtp.sent) == [
        "anna@example.org", "bas@example.org", "chris@example.org"]
    for msg in smtp.sent:
        assert_clean(msg)


def test_a_player_name_with_a_line_break_cannot_break_a_subject() -> None:
    mod = fakes.make_moderator()
    mod.new_game(fakes.PLAYERS, NOW, game_id="pof-17", seed="test-seed")
    with mod.store.transaction() as s:
        for seat in seats_of(s, "pof-17"):
            seat.person = "Eve\nBcc: victim@evil.example"
            s.add(seat)
    rows = [make_mail(CFG, game_id="pof-17", kind="notice", to="anna@example.org",
                      subject="[pof-17] anna\u2028Bcc: x@y to act", text="t", html="", now=NOW)]
    assert_clean(to_message(CFG, rows[0]))
    with mod.store.read() as s:
        assert all(isinstance(x, Seat) for x in seats_of(s, "pof-17"))


# --------------------------------------------------------------------------- the CLI


def cli(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(PBEM), *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_pbem_poll_exits_0_after_every_variant(tmp_path: Path) -> None:
    from pbem.transport import MailDirs

    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PBEM_") and k != "DATABASE_URL"}
    env.update(PBEM_DB=str(tmp_path / "db.sqlite"), PBEM_MAIL_DIR=str(tmp_path / "mail"),
               PBEM_MODERATOR_ADDRESS="moderator@example.org")
    players = [f"{p.name}:{p.email}" for p in fakes.PLAYERS]
    made = cli(["new", "--game", "pof-1", "--seed", "s", *sum((["-p", p] for p in players), [])],
               env, tmp_path)
    assert made.returncode == 0, made.stderr
    dirs = MailDirs(tmp_path / "mail")
    for i, variant in enumerate(sorted(VARIANTS)):
        for who in (STRANGER, "bas@example.org"):
            dirs.deliver("moderator@example.org",
                         poison_mail(variant, who, "moderator@example.org", "pass", i * 2
                                     + (who == STRANGER)), f"{i:04d}-{who}.eml")
    first = cli(["poll", "--once"], env, tmp_path)
    assert first.returncode == 0, first.stderr
    assert f"{2 * len(VARIANTS)} rejected" in first.stdout
    assert "failed 0" in first.stdout
    stranger = dirs.new(STRANGER)
    assert len(stranger) == 1  # a stranger is answered once a day (no backscatter)
    replies = dirs.new("bas@example.org")  # the player is answered every time
    assert len(replies) >= len(VARIANTS)
    for path in [*stranger, *replies]:
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        assert "Bcc" not in msg and not unsafe(str(msg["Subject"]))
    assert not dirs.new("victim@evil.example")
    assert not list((dirs.folder("moderator@example.org") / "failed").glob("*"))

    # the next pass: a normal move is applied and every player gets a status mail
    anna_mails = dirs.new("anna@example.org")
    reply_to = str(email.message_from_bytes(anna_mails[-1].read_bytes(),
                                            policy=email.policy.default)["Reply-To"])
    mod = Moderator(Store(f"sqlite:///{tmp_path / 'db.sqlite'}"), CFG)
    move = keep_line(mod, "pof-1", 0)
    mod.store.dispose()
    before = {p.email: len(dirs.new(p.email)) for p in fakes.PLAYERS}
    dirs.deliver("moderator@example.org",
                 poison_mail("from-ff-display-name", "anna@example.org", reply_to, move, 999),
                 "9999-anna.eml")
    second = cli(["poll", "--once"], env, tmp_path)
    assert second.returncode == 0, second.stderr
    assert "1 accepted" in second.stdout
    for p in fakes.PLAYERS:
        assert len(dirs.new(p.email)) == before[p.email] + 1


# --------------------------------------------------------------------------- real servers


def receive(imap: ImapPost, address: str, count: int) -> list[EmailMessage]:
    """Read `address`'s mailbox until `count` mails arrived (or 15 s passed)."""
    got: list[EmailMessage] = []
    end = time.monotonic() + 15
    while len(got) < count and time.monotonic() < end:
        got += imap.receive(address)
        time.sleep(0.05)
    return got


@pytest.mark.integration
def test_every_variant_through_postfix_dovecot_and_postgresql(
        mailstack: MailStack, database_url: str, post: ImapPost,  # noqa: F811
        tmp_path: Path) -> None:
    """The poison arrives in the moderator's real IMAP INBOX byte for byte (APPEND:
    not every relay passes such mail on unchanged), from a stranger and from a
    player; the replies go out through Postfix; then a normal move by real mail is
    applied, its status mails arrive, and the installed `pbem poll --once` exits 0."""
    from imap_tools import MailBoxStartTls

    from pbem.moderator import PlayerSpec
    from pbem.transport import ImapInbox, SmtpSender

    cfg = moderator_config(mailstack, database_url)
    store = Store(cfg.sqlalchemy_url())
    store.drop_all()
    store.create_all()
    mod = Moderator(store, cfg)
    seated, stranger = mailstack.players[:3], mailstack.players[3]
    specs = [PlayerSpec(a.local_part, a.address) for a in seated]
    game = mod.new_game(specs, utcnow(), game_id="hostile-1", seed="hostile-seed")
    poll_once(mod, lambda: ImapInbox(cfg), SmtpSender(cfg))
    first = receive(post, seated[0].address, 1)
    reply_to = str(first[-1]["Reply-To"])
    post.clear(*(a.address for a in seated))
    player = seated[1].address
    with MailBoxStartTls(mailstack.imap_host, mailstack.imap_port,
                         ssl_context=mailstack.ssl_context()).login(
            cfg.imap_user, cfg.imap_password) as mb:
        for i, variant in enumerate(sorted(VARIANTS)):
            mb.append(poison_mail(variant, stranger.address, cfg.moderator_address, "pass",
                                  2 * i), "INBOX")
            mb.append(poison_mail(variant, player, cfg.moderator_address, "not a command",
                                  2 * i + 1), "INBOX")
    report = poll_once(mod, lambda: ImapInbox(cfg), SmtpSender(cfg))
    assert not report.errors
    assert [o.status for o in report.outcomes] == ["rejected"] * (2 * len(VARIANTS))
    # the player is answered every time; the stranger once a day (no backscatter)
    assert (report.sent.sent, report.sent.failed) == (len(VARIANTS) + 1, 0)
    for address, count in ((stranger.address, 1), (player, len(VARIANTS))):
        got = receive(post, address, count)
        assert len(got) == count, address
        for msg in got:
            assert "Bcc" not in msg and not unsafe(str(msg["Subject"]))
            assert str(msg["To"]) == address
    assert post.receive(stranger.address) == []  # no second reply came later

    # a following normal move by real mail is applied and every seat hears of it
    post.clear(*(a.address for a in seated))
    move = EmailMessage()
    move["From"], move["To"], move["Subject"] = seated[0].address, reply_to, "my move"
    move["Message-ID"] = email.utils.make_msgid(domain="example.org")
    move.set_content(keep_line(mod, game, 0))
    post.send(move)
    env = env_for(cfg)
    result = None
    for _ in range(100):
        result = subprocess.run([str(PBEM), "poll", "--once"], env=env, capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        if "accepted" in result.stdout:
            break
    assert result is not None and "1 accepted" in result.stdout
    for a in seated:
        assert receive(post, a.address, 1), f"no status mail for {a.address}"
