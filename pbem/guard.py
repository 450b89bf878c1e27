"""Limits on player mail: a mail is played at most once, whatever its Message-ID, and
no seat floods the table.

* `mail_digest` names what a mail says for its seat: the seat, its command lines
  (normalised: NFKC, case-folded, single spaces), its Date header (as an instant in
  UTC) and its In-Reply-To header. Every accepted mail's digest is stored
  (`pbem_played_mail`, unique per game), so the same mail sent again under a new
  Message-ID, by a mail client retrying or by anyone who got hold of a copy, is
  found and refused. Two real mails that say the same (`pass` twice in a game) differ
  in their Date and In-Reply-To headers, which a client writes anew for each mail
  and keeps when it sends a mail again. A mail without a Date header (RFC 5322
  requires one; every mail client writes it) has no digest: only its Message-ID and
  an `@vN` line guard it.
* `accepted_since` counts a seat's accepted mails in the last hour, for
  `Config.seat_mails_per_hour`; `Config.max_commands` caps the command lines of one
  mail.
* `admit` runs every check on a routed mail before it is played: its version stamp
  (a reply to an older status mail is stale), that it holds commands, the command
  cap, a repeat, and the rate limit.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

from sqlalchemy import bindparam, func
from sqlmodel import Session, col, select

from engine.errors import IllegalMoveError, NotationError, StaleOrderError

from .config import Config
from .inbound import Envelope, MailRejected, ParsedMail
from .loading import Loaded
from .notifying import changes_for
from .outbound import answered_version
from .playing import CommandFailed
from .replies import no_commands
from .store import Game, InboundMail, OutMail, PlayedMail, Seat, as_utc

WINDOW = timedelta(hours=1)
"""The window of the per-seat rate limit."""

FLOOD_NOTE = "flood: "
"""Start of the stored note of a mail refused by the rate limit."""


def normal_date(header: str) -> str:
    """A Date header as an ISO instant in UTC ("" when empty); an unreadable date is
    kept as written, with its spaces collapsed."""
    header = " ".join(header.split())
    if not header:
        return ""
    try:
        when = parsedate_to_datetime(header)
    except (TypeError, ValueError, IndexError):
        return header
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat()


def normal_command(text: str) -> str:
    """A command line as compared for repeats: NFKC, case-folded, single spaces."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def mail_digest(seat: int, commands: Sequence[str], date: str, in_reply_to: str) -> str | None:
    """The digest of a mail's content for its seat, or None without a Date header."""
    when = normal_date(date)
    if not when:
        return None
    material = json.dumps([seat, [normal_command(c) for c in commands], when,
                           in_reply_to.strip()], ensure_ascii=False)
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


_PLAYED = select(PlayedMail).where(PlayedMail.game_id == bindparam("game_id")) \
    .where(PlayedMail.digest == bindparam("digest"))
_ACCEPTED = select(func.count()).select_from(InboundMail) \
    .where(InboundMail.game_id == bindparam("game_id")) \
    .where(InboundMail.seat == bindparam("seat")) \
    .where(InboundMail.status == "accepted") \
    .where(col(InboundMail.received) >= bindparam("since"))
# (both built once: they are asked for every mail played)


def played_before(s: Session, game_id: str, digest: str) -> PlayedMail | None:
    """The stored mail of this game with this digest, if any."""
    return s.exec(_PLAYED, params={"game_id": game_id, "digest": digest}).first()


def accepted_since(s: Session, game_id: str, seat: int, since: datetime) -> int:
    """How many mails of the seat were accepted (played) since `since`."""
    n = s.exec(_ACCEPTED, params={"game_id": game_id, "seat": seat, "since": since}).one()
    return int(n)


def flood_refused_since(s: Session, game_id: str, seat: int, since: datetime) -> bool:
    """True if a mail of the seat was refused by the rate limit since `since` (its
    sender was told then; later refusals in the window are not answered)."""
    row = s.exec(select(InboundMail.id).where(InboundMail.game_id == game_id)
                 .where(InboundMail.seat == seat)
                 .where(col(InboundMail.note).startswith(FLOOD_NOTE))
                 .where(col(InboundMail.received) >= since)).first()
    return row is not None


class Repeated(MailRejected):
    """A mail that repeats one already played: refused with a reply to the seat's
    owner (not to whoever sent it)."""

    def __init__(self, reason: str, seat: Seat) -> None:
        super().__init__(reason, reply=False)
        self.seat = seat


def admit(s: Session, cfg: Config, row: Game, seat: Seat, loaded: Loaded, env: Envelope,
          parsed: ParsedMail, now: datetime) -> str | None:
    """Check a routed mail before it is played. Returns the mail's digest, to store
    once it is played (None: it has none).

    Raises:
        CommandFailed: a stale version stamp, no commands, more command lines than
            `max_commands`.
        Repeated: the mail repeats one already played.
        MailRejected: the seat is over its rate limit.
    """
    check_version(s, cfg, row, seat, loaded, env, parsed)
    if not env.commands:
        raise CommandFailed(None, NotationError(no_commands(env.ignored,
                                                            grammar=loaded.rules.grammar)))
    cap = cfg.max_commands
    if len(env.commands) > cap:
        raise CommandFailed(env.commands[cap], IllegalMoveError(
            f"your mail holds {len(env.commands)} command lines; the moderator takes at "
            f"most {cap} in one mail. Nothing was applied: send fewer commands at a "
            "time.", "too-many-commands"))
    digest = mail_digest(seat.seat, [ln.text for ln in env.commands], parsed.date,
                         parsed.in_reply_to)
    before = played_before(s, row.id, digest) if digest else None
    if before is not None:
        raise Repeated(f"this mail repeats one already played at v{before.version} (same "
                       f"commands, Date and In-Reply-To; first received as "
                       f"{before.message_id}), so it was not played again. To play the same "
                       "command once more, write a new mail.", seat)
    check_rate(s, cfg, row, seat, now)
    return digest


def check_rate(s: Session, cfg: Config, row: Game, seat: Seat, now: datetime) -> None:
    """Refuse a mail of a seat that had `Config.seat_mails_per_hour` mails accepted
    in the last hour (a mail that only sets the mail setting counts too).

    Raises:
        MailRejected: the seat is over its rate limit (answered once an hour).
    """
    limit = cfg.seat_mails_per_hour
    since = now - WINDOW
    if accepted_since(s, row.id, seat.seat, since) >= limit:
        told = flood_refused_since(s, row.id, seat.seat, since)
        raise MailRejected(
            f"{FLOOD_NOTE}the seat {seat.name} has had {limit} mails played in the "
            f"last hour, the most this moderator plays per seat; your commands were not "
            "applied. Send them again later (further mails this hour get no reply).",
            reply=not told)


def check_version(s: Session, cfg: Config, row: Game, seat: Seat, loaded: Loaded,
                  env: Envelope, parsed: ParsedMail) -> None:
    """Refuse a mail written against another version than the game's: its `@vN` line,
    else the version of the moderator's mail it answers.

    Raises:
        CommandFailed: a stale mail, with what changed since (as the seat may see it).
    """
    version, answered = env.version, None
    if version is None:
        answered = answered_mail(s, cfg, row, parsed)
        if answered is not None:
            found = answered_version(cfg, answered.message_id)
            assert found is not None
            version = found[1]
    if version is None or version == row.version:
        return
    changes = changes_for(loaded, loaded.events[version:], seat.seat) \
        if version < row.version else []
    if answered is not None:
        sent = as_utc(answered.created)
        assert sent is not None
        what = (f"your mail answers the moderator's mail of v{version} "
                f"({sent.strftime('%a %d %b %Y %H:%M UTC')}), but the game is at "
                f"v{row.version} now")
    else:
        what = (f"your mail was written against v{version}, but the game is at "
                f"v{row.version} now")
    raise CommandFailed(env.version_line, StaleOrderError(
        f"{what}. Read the latest status mail and send your commands again in "
        "a reply to it (or begin with the line "
        f"'@v{row.version}')."), changes)


def answered_mail(s: Session, cfg: Config, row: Game, parsed: ParsedMail) -> OutMail | None:
    """The moderator's mail of this game that the mail answers (the last of ours in
    In-Reply-To / References), if it names a version."""
    for ref in reversed(parsed.references):
        if answered_version(cfg, ref) is None:
            continue
        mail = s.exec(select(OutMail).where(OutMail.message_id == ref)).first()
        if mail is not None and mail.game_id == row.id:
            return mail
    return None
