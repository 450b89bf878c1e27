"""Impersonation through the real Postfix + Dovecot stack and PostgreSQL: a Reply-All
by another player, a stranger at a seat's reply address, and a forged From with a
valid token play nothing, and no refusal carries the seat's cards or token.

The test stack's Postfix stamps `Authentication-Results: mail.DOMAIN; dmarc=...` on
top of every mail (pass for clients at 127.0.0.2, fail for 127.0.0.1; see
scripts/mailstack.sh), standing in for a DMARC checker.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import time
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid

import aiosmtplib
import pytest
from integration.conftest import MailStack
from integration.test_moderator_mail import TIMEOUT, ImapPost, fresh_store, moderator_config
from sqlmodel import func, select

from pbem.moderator import Moderator, PlayerSpec
from pbem.runner import poll_once
from pbem.store import Game, InboundMail, Seat, utcnow
from pbem.transport import ImapInbox, SmtpSender

pytestmark = pytest.mark.integration

WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def start(stack: MailStack, url: str, game_id: str, require_auth: str = "none"):  # noqa: ANN201
    cfg = dataclasses.replace(moderator_config(stack, url),
                              authserv_id=f"mail.{stack.domain}")
    mod = Moderator(fresh_store(url), cfg)
    specs = [PlayerSpec(a.local_part, a.address) for a in stack.players[:4]]
    mod.new_game(specs, utcnow(), game_id=game_id, seed=f"{game_id}-seed",
                 require_auth=require_auth)  # v5: the start and four deals
    poll_once(mod, lambda: ImapInbox(cfg), SmtpSender(cfg))
    return mod, cfg


def secrets_of(mod: Moderator, game_id: str, seat: int) -> tuple[set[str], str]:
    """The seat's hidden cards (dealt, hand, bonus, prestige) and its token."""
    with mod.store.read() as s:
        game = s.get(Game, game_id)
        assert game is not None
        p = mod.load(s, game)[1].players[seat]
        token = s.exec(select(Seat.token).where(Seat.game_id == game_id)
                       .where(Seat.seat == seat)).one()
    return set(p.dealt) | set(p.hand) | set(p.bonus_hand) | set(p.prestige_hand), token


def assert_clean(msg: EmailMessage, cards: set[str], token: str) -> None:
    parts = [str(p.get_content()) for p in msg.walk()
             if p.get_content_type() in ("text/plain", "text/html")]
    text = "\n".join([*(f"{k}: {v}" for k, v in msg.items()), *parts]).lower()
    assert not set(WORD.findall(text)) & cards, text
    assert token not in text, text


def headline(msg: EmailMessage) -> str:
    """The first line of a mail's text: what it is about (its subject is the game's)."""
    body = msg.get_body(("plain",))
    return str(body.get_content()).lstrip().partition("\n")[0] if body is not None else ""


def collect(post: ImapPost, address: str, until: Callable[[list[EmailMessage]], bool],
            got: list[EmailMessage] | None = None) -> list[EmailMessage]:
    got = got if got is not None else []
    end = time.monotonic() + TIMEOUT
    while not until(got):
        assert time.monotonic() < end, f"{address} got {len(got)} mails only"
        got.extend(post.receive(address))
        time.sleep(0.05)
    return got


def process(mod: Moderator, cfg, count: int) -> None:
    end = time.monotonic() + TIMEOUT
    while True:
        poll_once(mod, lambda: ImapInbox(cfg), SmtpSender(cfg))
        with mod.store.read() as s:
            if s.exec(select(func.count()).select_from(InboundMail)).one() >= count:
                return
        assert time.monotonic() < end, "the moderator never got the mails"
        time.sleep(0.05)


def reply_to_of(post: ImapPost, address: str) -> tuple[str, str]:
    """The reply address of the seat's first status mail, and its keep line."""
    mails = collect(post, address, lambda got: any("Setup" in headline(m) for m in got))
    status = next(m for m in mails if "Setup" in headline(m))
    return str(status["Reply-To"]), status["Message-ID"]


def letter(sender: str, to: str, body: str, **headers: str) -> EmailMessage:
    msg = EmailMessage()
    for k, v in headers.items():  # headers the sender writes come first...
        msg[k.replace("_", "-")] = v
    msg["From"], msg["To"], msg["Subject"] = sender, to, "Re: [pof] Setup"
    msg["Message-ID"] = make_msgid(domain="example.test")
    msg.set_content(body)
    return msg


def send_from(stack: MailStack, msg: EmailMessage, source: str) -> None:
    asyncio.run(aiosmtplib.send(msg, hostname=stack.smtp_host, port=stack.smtp_port,
                                start_tls=True, tls_context=stack.ssl_context(),
                                source_address=(source, 0)))


def keep_for(mod: Moderator, game_id: str, seat: int) -> str:
    cards, _ = secrets_of(mod, game_id, seat)
    with mod.store.read() as s:
        game = s.get(Game, game_id)
        assert game is not None
        dealt = mod.load(s, game)[1].players[seat].dealt
    assert set(dealt) <= cards
    return "keep " + " ".join(dealt[:3])


def test_reply_all_and_a_stranger_play_nothing_and_learn_nothing(
        mailstack: MailStack, database_url: str, post: ImapPost) -> None:
    anna, bas, stranger = mailstack.players[0], mailstack.players[1], mailstack.players[4]
    mod, cfg = start(mailstack, database_url, "pof-hostile")
    anna_to, _ = reply_to_of(post, anna.address)
    cards, token = secrets_of(mod, "pof-hostile", 0)
    keep = keep_for(mod, "pof-hostile", 0)
    post.send(letter(bas.address, anna_to, keep + "\n", Cc=anna.address))  # Reply-All
    post.send(letter(stranger.address, anna_to, "bid 300\n"))
    post.send(letter(stranger.address, anna_to, keep + "\n"))
    process(mod, cfg, 3)
    with mod.store.read() as s:
        assert s.get(Game, "pof-hostile").version == 5  # type: ignore[union-attr]
        assert set(s.exec(select(InboundMail.status)).all()) == {"rejected"}
    from_moderator = lambda m: cfg.moderator_address in str(m["From"])  # noqa: E731
    bas_got = collect(post, bas.address,
                      lambda got: any("not registered" in str(m.get_body(("plain",)))
                                      for m in got if from_moderator(m)))
    stranger_got = collect(post, stranger.address, lambda got: len(got) >= 1)
    time.sleep(1.0)  # a second reply to the stranger would have arrived by now
    poll_once(mod, lambda: ImapInbox(cfg), SmtpSender(cfg))
    stranger_got += post.receive(stranger.address)
    assert len(stranger_got) == 1, "a stranger is answered once a day"
    assert str(stranger_got[0]["Subject"]) == "Your mail to the moderator"
    for msg in [*bas_got, *stranger_got]:
        if from_moderator(msg) and "Setup" not in headline(msg):
            assert_clean(msg, cards, token)
    told = collect(post, anna.address,
                   lambda got: sum("another address" in headline(m) for m in got) >= 3)
    notices = [str(m.get_body(("plain",)).get_content()) for m in told
               if "another address" in headline(m)]
    assert any(bas.address in n for n in notices) and any(stranger.address in n for n in notices)
    assert not any("bid 300" in n or keep in n for n in notices)


def test_forged_from_with_a_valid_token_plays_nothing(
        mailstack: MailStack, database_url: str, post: ImapPost) -> None:
    anna, stranger = mailstack.players[0], mailstack.players[4]
    mod, cfg = start(mailstack, database_url, "pof-forged", require_auth="dmarc")
    anna_to, status_id = reply_to_of(post, anna.address)
    cards, token = secrets_of(mod, "pof-forged", 0)
    keep = keep_for(mod, "pof-forged", 0)
    # The attacker learned anna's reply address, writes her From and a forged "pass"
    # header with the moderator's authserv-id; Postfix stamps its own on top.
    forged = letter(anna.address, anna_to, keep + "\n", Authentication_Results=(
        f"mail.{mailstack.domain}; dmarc=pass header.from={mailstack.domain}"))
    send_from(mailstack, forged, "127.0.0.1")
    process(mod, cfg, 1)
    with mod.store.read() as s:
        (row,) = s.exec(select(InboundMail)).all()
        assert row.status == "rejected" and "dmarc=fail" in row.note
        assert s.get(Game, "pof-forged").version == 5  # type: ignore[union-attr]
    got = collect(post, anna.address, lambda got: any("did not act" in str(
        m.get_body(("plain",)).get_content()) for m in got))
    refusal = next(m for m in got if "did not act" in str(m.get_body(("plain",)).get_content()))
    assert not refusal["Reply-To"]
    assert_clean(refusal, cards, token)
    assert post.receive(stranger.address) == []  # the forger hears nothing
    # anna herself, vouched for by the server (client 127.0.0.2), is played.
    genuine = letter(anna.address, anna_to, keep + "\n", In_Reply_To=status_id)
    send_from(mailstack, genuine, "127.0.0.2")
    process(mod, cfg, 2)
    with mod.store.read() as s:
        statuses = s.exec(select(InboundMail.status).order_by(InboundMail.id)).all()
    assert statuses == ["rejected", "accepted"]
