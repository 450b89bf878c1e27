"""The replies to a mail that plays nothing: the refused line and why, a repeated
mail, a seat's owner told of an intruder, and the one fixed reply a day to an
address registered for no seat. None names another seat's cards, options, position
or token."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from engine.chain import head
from engine.errors import NotationError

from .i18n import gettext as _
from .i18n import speaking
from .inbound import MailRejected, ParsedMail
from .loading import Loaded
from .notifying import Post, legal_lines
from .playing import CommandFailed
from .routing import shown_address
from .store import (
    Game,
    Seat,
    SeatAddress,
    StrangerReply,
    as_utc,
    get_game,
    head_hash,
    is_registered,
    seat_addresses,
)

log = logging.getLogger(__name__)

STRANGER_SUBJECT = "Your mail to the moderator"
STRANGER_REPLY = ("This address moderates games by mail for their registered players only. "
                  "Your address is registered for no seat, so your mail was not read. "
                  "Mails from your address get at most one such reply a day.")
STRANGER_INTERVAL = timedelta(days=1)


def _error_ctx(row: Game) -> dict[str, Any]:
    return {"game_id": row.id, "version": row.version, "line_text": "",
            "line_number": 0, "caret": "", "candidates": [], "expected": [], "legal": [],
            "help": "", "changes": [], "position": ""}


def command_error(post: Post, s: Session, parsed: ParsedMail, now: datetime, row: Game,
                  seat: Seat, loaded: Loaded, tracker: Any, f: CommandFailed) -> None:
    """The reply to a refused mail of the seat's owner: the line, the reason, and
    the commands legal in the position that still stands (the one before the mail)."""
    with speaking(seat.language, loaded.rules.presenter):
        _command_error(post, s, parsed, now, row, seat, loaded, tracker, f)


def _command_error(post: Post, s: Session, parsed: ParsedMail, now: datetime, row: Game,
                   seat: Seat, loaded: Loaded, tracker: Any, f: CommandFailed) -> None:
    e = f.error
    ctx = _error_ctx(row)
    ctx["intro"] = _("Game %(game)s: your commands were not applied.") % {"game": row.id}
    ctx["reason"] = e.message
    if f.line is not None:
        ctx["line_text"], ctx["line_number"] = f.line.text, f.line.number
        if isinstance(e, NotationError):
            ctx["caret"] = " " * max(0, e.column - 1) + _("^ column %(n)s") % {"n": e.column}
            ctx["candidates"] = list(e.candidates)
            ctx["expected"] = list(e.expected)
    ctx["legal"] = legal_lines(loaded, seat.seat, tracker)
    ctx["changes"] = f.changes
    ctx["position"] = head(row.version, head_hash(s, row.id, row.version))
    post.queue(s, "error", ctx, kind="error", to=parsed.sender, game_id=row.id,
               title=_("not applied: %(kind)s") % {"kind": e.kind}, now=now,
               folder=loaded.rules.presenter.template_dir, reply_to=post.reply_to(seat),
               in_reply_to=parsed.message_id, references=parsed.references,
               version=row.version)


def repeated(post: Post, s: Session, parsed: ParsedMail, now: datetime, row: Game,
             seat: Seat, reason: str) -> None:
    """An error reply to the seat's owner (not to whoever sent the mail)."""
    with speaking(seat.language):
        ctx = _error_ctx(row)
        ctx.update(intro=_("Game %(game)s: a mail for your seat was not applied.")
                   % {"game": row.id}, reason=reason)
        post.queue(s, "error", ctx, kind="error", to=seat.email, game_id=row.id,
                   title=_("not applied: repeated mail"), now=now,
                   reply_to=post.reply_to(seat), in_reply_to=parsed.message_id,
                   references=parsed.references)


def refuse(post: Post, s: Session, parsed: ParsedMail, now: datetime, r: MailRejected) -> None:
    """Answer a mail that plays nothing. A registered address gets the reason; any
    other address at most one fixed refusal a day (`stranger_replies`), with a fixed
    subject."""
    language = None
    if is_registered(s, parsed.sender):
        language = language_of(s, parsed.sender)
        reason = r.reason
        title = parsed.subject if parsed.subject.lower().startswith("re:") \
            else f"Re: {parsed.subject}" if parsed.subject else STRANGER_SUBJECT
        threading: dict[str, Any] = {"in_reply_to": parsed.message_id,
                                     "references": parsed.references}
    elif may_answer_stranger(post, s, parsed.sender, now):
        reason, title, threading = STRANGER_REPLY, STRANGER_SUBJECT, {}
    else:
        log.info("no reply to %s: not registered, answered within a day",
                 shown_address(parsed.sender))
        return
    with speaking(language):  # the frame in the seat's language; the reason is English
        post.queue(s, "refusal", {"reason": reason}, kind="error", to=parsed.sender,
                   game_id=None, title=title[:200], now=now, **threading)


def language_of(s: Session, address: str) -> str | None:
    """The language of the newest seat an address is registered for (None: none)."""
    seat = s.exec(select(Seat).where(Seat.email == address)
                  .order_by(col(Seat.id).desc())).first()
    if seat is None:
        seat = s.exec(select(Seat).join(SeatAddress, (col(SeatAddress.game_id)
                                                      == col(Seat.game_id))
                                      & (col(SeatAddress.seat) == col(Seat.seat)))
                      .where(SeatAddress.address == address)
                      .order_by(col(Seat.id).desc())).first()
    return seat.language if seat is not None else None


def may_answer_stranger(post: Post, s: Session, address: str, now: datetime) -> bool:
    """Whether an address registered for no seat may be answered now (and if so,
    note that it was)."""
    if post.cfg.stranger_replies == "never":
        return False
    row = s.get(StrangerReply, address)
    last = as_utc(row.last_reply) if row is not None else None
    if last is not None and now - last < STRANGER_INTERVAL:
        return False
    row = row or StrangerReply(address=address, last_reply=now)
    row.last_reply = now
    s.add(row)
    return True


def tell_owner(post: Post, s: Session, seat: Seat, sender: str, now: datetime) -> None:
    """Tell a seat's registered addresses that a mail from another address reached
    its reply address; nothing of that mail is quoted."""
    row = get_game(s, seat.game_id)
    with speaking(seat.language):
        title = _("a mail from another address reached your reply address")
        lines = [_("A mail from %(sender)s reached the reply address of your seat %(seat)s "
                   "(or named its token). That address is not registered for your seat, "
                   "so nothing in the mail was executed.")
                 % {"sender": shown_address(sender), "seat": seat.name},
                 _("If it was you, send from your registered address, or ask the moderator "
                   "to register the other one. If not, your reply address was passed on "
                   "(a Cc, a Reply-All or a forwarded mail): the moderator can give your "
                   "seat a new one.")]
        ctx = {"game_id": row.id, "title": title, "lines": lines, "turn_line": "",
               "deadline_utc": "", "deadline_local": "", "version": row.version,
               "position": f"v{row.version}"}
        for addr in seat_addresses(s, seat):
            post.queue(s, "notice", ctx, kind="notice", to=addr, game_id=row.id,
                       title=title, now=now, reply_to=post.reply_to(seat),
                       version=row.version)
