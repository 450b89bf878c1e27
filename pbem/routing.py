"""Routing a mail to a seat: the seat's token (reply address or `token` line), the
sender's address registered for that seat, the sender check the game demands, and a
game that is neither over nor paused."""

from __future__ import annotations

import re

from sqlmodel import Session

from notation.registry import grammar_for

from .config import Config
from .inbound import Envelope, MailRejected, ParsedMail, command_lines, split_envelope, token_from
from .sender_auth import judge
from .store import Game, Seat, get_game, required_auth, seat_addresses, seat_by_token


class Intruder(MailRejected):
    """A mail at a seat's reply address (or with its token) from an address not
    registered for that seat: its owner is told, nothing in it is read further."""

    def __init__(self, reason: str, seat: Seat) -> None:
        super().__init__(reason)
        self.seat = seat


def shown_address(addr: str) -> str:
    """An address from a mail's From, safe to quote in a mail to someone else:
    printable address characters only, at most 80 of them."""
    clean = re.sub(r"[^A-Za-z0-9@._+-]", "?", addr)
    return clean[:80] + ("…" if len(clean) > 80 else "")


def check_readable(parsed: ParsedMail) -> None:
    """Refuse, silently, what no player wrote: bounces, auto-replies, no sender.

    Raises:
        MailRejected: such a mail (no reply).
    """
    if parsed.auto:
        raise MailRejected(f"auto-reply or bounce ({parsed.auto})", reply=False,
                           status="ignored")
    if not parsed.sender:
        raise MailRejected("no sender address", reply=False, status="ignored")


def route(s: Session, cfg: Config, parsed: ParsedMail) -> tuple[Seat, Game, Envelope]:
    """The seat a mail speaks for, the game, and its command lines.

    A seat is named by its token: the reply address `local+TOKEN@domain`, or a
    line `token TOKEN`. The mail is played for it only when it also comes from an
    address registered for the seat, and (where the game demands it) the
    moderator's mail server vouched for that From address.

    Raises:
        Intruder: a seat's token from an address not registered for that seat.
        MailRejected: no seat named, a failed sender check, an unreadable mail,
            a finished or paused game.
    """
    check_readable(parsed)
    env: Envelope | None = None
    token = token_from(parsed.recipients, cfg.moderator_local, cfg.moderator_domain)
    seat = seat_by_token(s, token) if token is not None else None
    if token is not None and seat is None:
        raise MailRejected("the reply address of your mail names no seat of any game "
                           "(an old or mistyped address?). Reply to your latest "
                           "status mail.")
    if seat is None:
        if parsed.problem:
            raise MailRejected(parsed.problem)
        env = split_envelope(command_lines(parsed.text))
        seat = seat_by_token(s, env.token.lower()) if env.token is not None else None
        if seat is None:
            raise MailRejected(
                "your mail names no seat: reply to your latest status mail from the "
                "moderator (its reply address holds your seat's key), or copy its "
                "'token' line into your mail." if env.token is None else
                "the token line names no seat of any game.")
    if parsed.sender not in seat_addresses(s, seat):
        raise Intruder("your mail reached a reply address (or holds a token) of a seat "
                       "your address is not registered for. Reply only to the mails "
                       "the moderator sent to you.", seat)
    need = required_auth(s, seat.game_id)
    verdict = judge(parsed.auth_results, cfg.authserv_id, need, parsed.sender)
    if not verdict.ok:
        raise MailRejected(f"this game plays only mail whose sender passes {need} at "
                           f"the moderator's mail server, and yours did not "
                           f"({verdict.reason}).")
    if parsed.problem:
        raise MailRejected(parsed.problem)
    game = get_game(s, seat.game_id)
    grammar = grammar_for(game.game)  # the lines are read again in the game's own words
    env = split_envelope(command_lines(parsed.text, grammar), grammar)
    if game.finished:
        raise MailRejected(f"game {game.id} is over; nothing more can be played.")
    if game.paused:
        raise MailRejected(f"game {game.id} is paused by the moderator; your commands "
                           "were not applied. You will get a mail when it resumes.")
    return seat, game, env
