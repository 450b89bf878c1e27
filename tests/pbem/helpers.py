from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage

from engine.princes.state import State
from pbem.moderator import Moderator
from pbem.runner import PassReport, poll_once
from pbem.store import Game

from .fakes import NOW, FakeMailbox, FakeSmtp, mail


def run(mod: Moderator, mailbox: FakeMailbox, smtp: FakeSmtp,
        now: datetime = NOW) -> PassReport:
    return poll_once(mod, lambda: mailbox, smtp, lambda: now)


def state_of(mod: Moderator, game_id: str) -> State:
    with mod.store.read() as s:
        g = s.get(Game, game_id)
        assert g is not None
        return mod.load(s, g)[1]


def reply_address(smtp: FakeSmtp, address: str) -> str:
    for m in reversed([m for m in smtp.history if str(m["To"]) == address]):
        if m["Reply-To"]:
            return str(m["Reply-To"])
    raise AssertionError(f"no mail with Reply-To to {address}")


def send(mailbox: FakeMailbox, smtp: FakeSmtp, sender: str, body: str,
         to: str | None = None, **headers: str) -> EmailMessage:
    msg = mail(sender, to or reply_address(smtp, sender), body, **headers)
    mailbox.put(msg)
    return msg


def keep_line(state: State, seat: int) -> str:
    return "keep " + " ".join(state.players[seat].dealt[:3])
