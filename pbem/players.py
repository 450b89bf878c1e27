"""The players of a new game: names, mail addresses, time zones, and seat tokens."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class PlayerSpec:
    """A player of a new game: `name` (the seat's name in the notation), the main
    address (where mails go), the zone, further addresses the player may also send
    from, how often the player is mailed (`pbem.mail_settings`) and in which
    language (`pbem.i18n`)."""

    name: str
    email: str
    tz: str = "UTC"
    extra: tuple[str, ...] = ()
    mail: str = "every"
    language: str = "en"

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """`name:address[,address...][:Area/City]`.

        Raises:
            ValueError: not in that form, or an unknown time zone.
        """
        parts = text.split(":")
        if len(parts) not in (2, 3) or not parts[0].strip():
            raise ValueError(f"expected NAME:ADDRESS[,ADDRESS...][:TIMEZONE], not {text!r}")
        addresses = addresses_of(parts[1].split(","))
        tz = parts[2] if len(parts) == 3 else "UTC"
        check_tz(tz)
        return cls(parts[0].strip().lower(), addresses[0], tz, addresses[1:])


def addresses_of(texts: Sequence[str]) -> tuple[str, ...]:
    """Mail addresses, lowercased, without repeats, in the given order.

    Raises:
        ValueError: none given, or one that is not a plain address.
    """
    out: list[str] = []
    for text in texts:
        addr = text.strip().lower()
        local, at, domain = addr.rpartition("@")
        if not at or not local or "." not in domain or not _ADDRESS.fullmatch(addr):
            raise ValueError(f"expected a mail address like anna@example.org, not {text!r}")
        if addr not in out:
            out.append(addr)
    if not out:
        raise ValueError("expected at least one mail address")
    return tuple(out)


_ADDRESS = re.compile(r"[a-z0-9!#$%&'*+/=?^_`{|}~.-]+@[a-z0-9.-]+")


def check_tz(tz: str) -> None:
    """Raises:
        ValueError: an unknown time zone.
    """
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {tz!r} (use e.g. Europe/Amsterdam)") from None


def new_token() -> str:
    return secrets.token_hex(8)
