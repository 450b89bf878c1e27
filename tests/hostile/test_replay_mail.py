"""A mail already played, sent again under a new Message-ID, is not played again."""

from __future__ import annotations

import copy
from email.message import EmailMessage
from email.utils import make_msgid

from engine.princes.game import to_act
from pbem.guard import mail_digest, normal_date
from pbem.moderator import Moderator
from pbem.store import PlayedMail, moves_of
from tests.pbem.fakes import FakeMailbox, FakeSmtp
from tests.pbem.helpers import keep_line, reply_address, run, send, state_of

ANNA, BAS, CHRIS = "anna@example.org", "bas@example.org", "chris@example.org"
DATE_1 = "Tue, 01 Dec 2026 13:05:00 +0100"
DATE_2 = "Tue, 01 Dec 2026 14:40:00 +0100"


def _auction(mod: Moderator, game: str, mailbox: FakeMailbox, smtp: FakeSmtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    for seat, addr in enumerate((ANNA, BAS, CHRIS)):
        send(mailbox, smtp, addr, keep_line(state, seat))
    run(mod, mailbox, smtp)


def _play(mod: Moderator, mailbox: FakeMailbox, smtp: FakeSmtp, msg: EmailMessage) -> str:
    smtp.sent.clear()
    mailbox.put(msg)
    outcome = run(mod, mailbox, smtp).outcomes[0]
    return outcome.status


def _again(msg: EmailMessage) -> EmailMessage:
    """The same mail under a new Message-ID, as a client's retry or a copy sent again."""
    copied = copy.deepcopy(msg)
    copied.replace_header("Message-ID", make_msgid(domain="example.net"))
    return copied


def test_a_pass_sent_again_under_a_new_message_id_is_refused(mod, game, mailbox, smtp) -> None:
    _auction(mod, game, mailbox, smtp)
    send(mailbox, smtp, ANNA, "open jester")
    run(mod, mailbox, smtp)
    first = send(mailbox, smtp, BAS, "pass", Date=DATE_1, In_Reply_To="<status-9@example.org>")
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"
    played_at = state_of(mod, game).version - 1  # the pass was given at this version
    send(mailbox, smtp, CHRIS, "pass")
    run(mod, mailbox, smtp)
    before = state_of(mod, game)
    assert to_act(before) == (1,)  # bas names now: a replayed 'pass' would be legal
    assert _play(mod, mailbox, smtp, _again(first)) == "rejected"
    after = state_of(mod, game)
    assert after.version == before.version and after == before
    assert [str(m["To"]) for m in smtp.sent] == [BAS]  # nobody else is mailed
    text = smtp.text(smtp.sent[0])
    assert f"this mail repeats one already played at v{played_at}" in text
    assert str(first["Message-ID"]) in text
    assert "not applied: repeated mail" in smtp.headline(smtp.sent[0])
    with mod.store.read() as s:
        assert [m.command for m in moves_of(s, game)].count("pass") == 2


def test_the_same_command_in_a_new_mail_is_played(mod, game, mailbox, smtp) -> None:
    _auction(mod, game, mailbox, smtp)
    send(mailbox, smtp, ANNA, "open jester")
    run(mod, mailbox, smtp)
    send(mailbox, smtp, BAS, "pass", Date=DATE_1, In_Reply_To="<status-9@example.org>")
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"
    send(mailbox, smtp, CHRIS, "pass")
    run(mod, mailbox, smtp)
    version = state_of(mod, game).version
    # bas really wants to pass again: a new mail, with its own Date and In-Reply-To
    send(mailbox, smtp, BAS, "pass", Date=DATE_2, In_Reply_To="<status-12@example.org>")
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"
    assert state_of(mod, game).version > version
    with mod.store.read() as s:
        assert len(list(s.exec(PlayedMail.__table__.select()))) == 2


def test_a_retry_with_the_same_date_in_another_zone_is_the_same_mail(mod, game, mailbox,
                                                                      smtp) -> None:
    _auction(mod, game, mailbox, smtp)
    first = send(mailbox, smtp, ANNA, "open jester", Date=DATE_1)
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"
    retry = _again(first)
    retry.replace_header("Date", "Tue, 01 Dec 2026 12:05:00 +0000")  # the same instant
    retry.set_content("OPEN   Jester\n")  # the same command, spelled otherwise
    # (the game moved on: a repeat is named as such, not as an illegal move)
    send(mailbox, smtp, BAS, "pass")
    run(mod, mailbox, smtp)
    assert _play(mod, mailbox, smtp, retry) == "rejected"
    assert "repeats one already played at v8" in smtp.text(smtp.sent[0])


def test_a_copy_sent_from_another_address_plays_nothing_and_the_owner_is_told(
        mod, game, mailbox, smtp) -> None:
    """A copy from an address not registered for the seat is refused by the seat rules
    before the digest is looked at: the seat's owner is told, the sender gets a refusal
    that names nothing of the seat."""
    _auction(mod, game, mailbox, smtp)
    first = send(mailbox, smtp, ANNA, "open jester", Date=DATE_1)
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"
    copied = _again(first)
    copied.replace_header("From", "mallory@example.com")
    copied.replace_header("To", reply_address(smtp, ANNA))
    token = reply_address(smtp, ANNA)
    assert _play(mod, mailbox, smtp, copied) == "rejected"
    assert sorted(str(m["To"]) for m in smtp.sent) == [ANNA, "mallory@example.com"]
    to_mallory = next(m for m in smtp.sent if str(m["To"]) == "mallory@example.com")
    assert token.split("@")[0].split("+")[1] not in to_mallory.as_string()
    assert "jester" not in smtp.text(to_mallory)


def test_the_digest_names_seat_commands_date_and_reply() -> None:
    base = mail_digest(1, ["pass"], DATE_1, "<a@x>")
    assert base is not None
    assert mail_digest(1, [" PASS "], "Tue, 1 Dec 2026 12:05:00 GMT", "<a@x>") == base
    assert mail_digest(2, ["pass"], DATE_1, "<a@x>") != base
    assert mail_digest(1, ["pass"], DATE_2, "<a@x>") != base
    assert mail_digest(1, ["pass"], DATE_1, "<b@x>") != base
    assert mail_digest(1, ["bid 300"], DATE_1, "<a@x>") != base
    assert mail_digest(1, ["pass"], "", "<a@x>") is None
    assert normal_date("not a date  at all") == "not a date at all"
