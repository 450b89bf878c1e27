"""Only a seat's owner plays that seat: its token AND a registered From address (and,
where the game demands it, the moderator's mail server vouching for that From).
Refusals name no seat's cards, options or token; strangers get at most one fixed
reply a day; a reply to an old mail is judged against that mail's version."""

from __future__ import annotations

import dataclasses
import re
from datetime import timedelta

import pytest
from sqlmodel import select

from pbem.errors import PbemError
from pbem.moderator import PlayerSpec
from pbem.store import InboundMail, Seat

from .fakes import NOW, PLAYERS, mail, raw
from .helpers import keep_line, reply_address, run, send, state_of

WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def token_of(mod, name: str) -> str:
    with mod.store.read() as s:
        return s.exec(select(Seat.token).where(Seat.name == name)).one()


def body(msg) -> str:
    parts = [p.get_content() for p in msg.walk()
             if p.get_content_type() in ("text/plain", "text/html")]
    return "\n".join([str(msg["Subject"]), str(msg["Reply-To"] or ""), *parts])


def assert_leaks_nothing_of(mod, game, seat: int, name: str, msg) -> None:
    """No card the seat holds or was dealt, and not its token, in `msg`."""
    p = state_of(mod, game).players[seat]
    secret = set(p.dealt) | set(p.hand) | set(p.bonus_hand) | set(p.prestige_hand)
    text = body(msg).lower()
    assert not set(WORD.findall(text)) & secret, text
    assert token_of(mod, name) not in text
    assert "your commands now" not in text and "keep" not in text


def test_reply_all_by_another_player_plays_nothing(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    anna_to = reply_address(smtp, "anna@example.org")
    mailbox.put(mail("bas@example.org", anna_to, f"{keep_line(state, 0)}\n",
                     subject="Re: [pof-17] Setup", Cc="anna@example.org"))
    smtp.sent.clear()
    (outcome,) = run(mod, mailbox, smtp).outcomes
    assert outcome.status == "rejected" and state_of(mod, game).version == state.version
    (refusal,) = smtp.to("bas@example.org")
    assert "not registered for" in smtp.text(refusal) and not refusal["Reply-To"]
    assert_leaks_nothing_of(mod, game, 0, "anna", refusal)
    (told,) = smtp.to("anna@example.org")
    assert "bas@example.org" in smtp.text(told) and "nothing in the mail was executed" in \
        smtp.text(told)
    assert keep_line(state, 0) not in smtp.text(told)  # the mail is not quoted
    assert {str(m["To"]) for m in smtp.sent} == {"bas@example.org", "anna@example.org"}


def test_stranger_at_a_reply_address_once_a_day(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    anna_to = reply_address(smtp, "anna@example.org")
    for _ in range(2):
        mailbox.put(mail("Mallory <mallory@evil.example>", anna_to, "bid 300",
                         subject="=?utf-8?q?pwn=0D=0ABcc:_x@y?="))
    smtp.sent.clear()
    assert [o.status for o in run(mod, mailbox, smtp).outcomes] == ["rejected"] * 2
    assert state_of(mod, game).version == state.version
    (refusal,) = smtp.to("mallory@evil.example")
    assert str(refusal["Subject"]) == "Your mail to the moderator"
    assert_leaks_nothing_of(mod, game, 0, "anna", refusal)
    assert len(smtp.to("anna@example.org")) == 2  # the owner hears of each
    assert "mallory@evil.example" in smtp.text(smtp.to("anna@example.org")[0])
    with mod.store.read() as s:
        rows = s.exec(select(InboundMail)).all()
        assert [(r.game_id, r.seat, r.status) for r in rows] == [("pof-17", 0, "rejected")] * 2
    smtp.sent.clear()
    mailbox.put(mail("mallory@evil.example", anna_to, "bid 300"))
    run(mod, mailbox, smtp, NOW + timedelta(hours=23))
    assert smtp.to("mallory@evil.example") == []
    mailbox.put(mail("mallory@evil.example", anna_to, "bid 300"))
    run(mod, mailbox, smtp, NOW + timedelta(hours=25))
    assert len(smtp.to("mallory@evil.example")) == 1


def test_strangers_never_answered_when_so_configured(mod, game, mailbox, smtp) -> None:
    mod.cfg = dataclasses.replace(mod.cfg, stranger_replies="never")
    run(mod, mailbox, smtp)
    mailbox.put(mail("mallory@evil.example", "moderator@example.org", "hello"))
    mailbox.put(mail("mallory@evil.example", "moderator+00ff@example.org", "hello"))
    smtp.sent.clear()
    assert [o.status for o in run(mod, mailbox, smtp).outcomes] == ["rejected"] * 2
    assert smtp.sent == []


def test_a_player_plays_from_every_registered_address(mod, mailbox, smtp) -> None:
    specs = [PlayerSpec.parse("anna:Anna@Example.org,anna@work.example:Europe/Amsterdam"),
             *PLAYERS[1:]]
    assert specs[0].extra == ("anna@work.example",)
    game = mod.new_game(specs, NOW, game_id="pof-2", seed="s")
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    assert smtp.to("anna@work.example") == []  # mails go to the main address
    anna_to = reply_address(smtp, "anna@example.org")
    mailbox.put(mail("anna@work.example", anna_to, keep_line(state, 0)))
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"
    with pytest.raises(ValueError, match="both"):
        mod.new_game([PlayerSpec("a", "a@x.org"), PlayerSpec("b", "b@x.org", extra=("a@x.org",)),
                      PlayerSpec("c", "c@x.org")], NOW)


def test_address_add_and_remove(mod, game, mailbox, smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    anna_to = reply_address(smtp, "anna@example.org")
    mailbox.put(mail("anna@phone.example", anna_to, keep_line(state, 0)))
    assert run(mod, mailbox, smtp).outcomes[0].status == "rejected"
    smtp.sent.clear()
    mod.add_address(game, "anna", "Anna@Phone.example", NOW)
    run(mod, mailbox, smtp)
    assert {str(m["To"]) for m in smtp.sent} == {"anna@example.org", "anna@phone.example"}
    with pytest.raises(PbemError, match="registered for bas"):
        mod.add_address(game, "anna", "bas@example.org", NOW)
    mailbox.put(mail("anna@phone.example", anna_to, keep_line(state, 0)))
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"
    mod.remove_address(game, "anna", "anna@example.org", NOW)  # the main one
    assert mod.addresses(game, "anna") == ["anna@phone.example"]
    with pytest.raises(PbemError, match="only address"):
        mod.remove_address(game, "anna", "anna@phone.example", NOW)
    smtp.sent.clear()
    run(mod, mailbox, smtp)
    assert {str(m["To"]) for m in smtp.sent} == {"anna@example.org", "anna@phone.example"}
    state = state_of(mod, game)
    mailbox.put(mail("anna@example.org", anna_to, "undo"))
    (outcome,) = run(mod, mailbox, smtp).outcomes
    assert outcome.status == "rejected" and state_of(mod, game).version == state.version


AR = "Authentication-Results: mx.example.org; dmarc={} header.from=example.org\r\n"


def test_a_game_may_require_dmarc(mod, mailbox, smtp) -> None:
    with pytest.raises(ValueError, match="PBEM_AUTHSERV_ID"):
        mod.new_game(PLAYERS, NOW, require_auth="dmarc")
    mod.cfg = dataclasses.replace(mod.cfg, authserv_id="mx.example.org")
    game = mod.new_game(PLAYERS, NOW, game_id="pof-3", seed="s", require_auth="dmarc")
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    anna_to = reply_address(smtp, "anna@example.org")
    msg = mail("anna@example.org", anna_to, keep_line(state, 0))
    mailbox.put(raw(msg))  # no header from the moderator's server
    forged = mail("anna@example.org", anna_to, keep_line(state, 0))
    mailbox.put(AR.format("fail").encode() + AR.format("pass").encode() + raw(forged))
    smtp.sent.clear()
    assert [o.status for o in run(mod, mailbox, smtp).outcomes] == ["rejected"] * 2
    assert state_of(mod, game).version == state.version
    texts = [smtp.text(m) for m in smtp.sent]
    assert all(str(m["To"]) == "anna@example.org" and not m["Reply-To"] for m in smtp.sent)
    assert "did not check" in texts[0] and "dmarc=fail" in texts[1]
    good = mail("anna@example.org", anna_to, keep_line(state, 0))
    mailbox.put(AR.format("pass").encode() + raw(good))
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"


def test_a_reply_to_an_old_status_mail_is_judged_at_its_version(mod, game, mailbox,
                                                                 smtp) -> None:
    run(mod, mailbox, smtp)
    v4 = state_of(mod, game)
    old = [m for m in smtp.to("anna@example.org") if "Setup" in smtp.headline(m)][-1]
    send(mailbox, smtp, "bas@example.org", keep_line(v4, 1))
    run(mod, mailbox, smtp)
    assert state_of(mod, game).version == v4.version + 1
    smtp.sent.clear()
    send(mailbox, smtp, "anna@example.org", keep_line(v4, 0),
         In_Reply_To=str(old["Message-ID"]), References=str(old["Message-ID"]))
    assert run(mod, mailbox, smtp).outcomes[0].status == "rejected"
    (error,) = smtp.sent
    text = smtp.text(error)
    assert f"answers the moderator's mail of v{v4.version} (Tue 01 Dec 2026 12:00 UTC)" in text
    assert "What changed since then:\n  bas kept 3 professions" in text
    assert f"The game now: v{v4.version + 1} sha256:" in text
    assert keep_line(v4, 0) in text  # the commands legal now are still listed
    # A reply to that error mail is judged at the version it showed: accepted.
    mailbox.put(mail("anna@example.org", reply_address(smtp, "anna@example.org"),
                     keep_line(v4, 0), In_Reply_To=str(error["Message-ID"]),
                     References=f"{old['Message-ID']} {error['Message-ID']}"))
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"


def test_an_explicit_version_line_wins_over_the_answered_mail(mod, game, mailbox,
                                                              smtp) -> None:
    run(mod, mailbox, smtp)
    v4 = state_of(mod, game)
    old = smtp.to("anna@example.org")[0]
    send(mailbox, smtp, "bas@example.org", keep_line(v4, 1))
    run(mod, mailbox, smtp)
    send(mailbox, smtp, "anna@example.org", f"@v{v4.version + 1}\n{keep_line(v4, 0)}",
         In_Reply_To=str(old["Message-ID"]))
    assert run(mod, mailbox, smtp).outcomes[0].status == "accepted"


def test_error_replies_list_the_commands_of_the_standing_position(mod, game, mailbox,
                                                                  smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    send(mailbox, smtp, "anna@example.org", f"{keep_line(state, 0)}\nbid 400\n")
    smtp.sent.clear()
    run(mod, mailbox, smtp)
    text = smtp.text(smtp.to("anna@example.org")[0])
    legal = text.split("Your commands now:")[1]
    assert keep_line(state, 0) in legal  # the keep was not applied: it is still to do
