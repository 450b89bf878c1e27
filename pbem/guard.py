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
  mail (checked by the moderator).
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

from sqlalchemy import func
from sqlmodel import Session, col, select

from .store import InboundMail, PlayedMail

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


def played_before(s: Session, game_id: str, digest: str) -> PlayedMail | None:
    """The stored mail of this game with this digest, if any."""
    return s.exec(select(PlayedMail).where(PlayedMail.game_id == game_id)
                  .where(PlayedMail.digest == digest)).first()


def accepted_since(s: Session, game_id: str, seat: int, since: datetime) -> int:
    """How many mails of the seat were accepted (played) since `since`."""
    n = s.exec(select(func.count()).select_from(InboundMail)
               .where(InboundMail.game_id == game_id).where(InboundMail.seat == seat)
               .where(InboundMail.status == "accepted")
               .where(col(InboundMail.received) >= since)).one()
    return int(n)


def flood_refused_since(s: Session, game_id: str, seat: int, since: datetime) -> bool:
    """True if a mail of the seat was refused by the rate limit since `since` (its
    sender was told then; later refusals in the window are not answered)."""
    row = s.exec(select(InboundMail.id).where(InboundMail.game_id == game_id)
                 .where(InboundMail.seat == seat)
                 .where(col(InboundMail.note).startswith(FLOOD_NOTE))
                 .where(col(InboundMail.received) >= since)).first()
    return row is not None
