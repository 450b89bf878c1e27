"""Each player's mail setting: how often the moderator writes to a seat.

* `every` (the default): a status mail after every accepted move.
* `turn`: a status mail only when the seat is told something it must see now
  (`Reasons.tell`): it is to act, the undo protocol moved (a request for its
  consent, a consent, a refusal), a move of another seat (or of the deadline
  policy) happened to it, its own mail changed its setting, the game starts or
  ends. A mail of its own that is accepted and leaves it nothing to do is not
  answered (the next status mail lists it); private mails (the seat's own cards)
  and error replies go out as always.
* `daily`: as `turn`, plus one digest a day at `Config.digest_hour` UTC, sent by the
  deadline pass (`pbem.deadlines.send_digests`) when moves are waiting for the seat.

Nothing is lost: every status mail lists every move since the seat's last status
mail (`Seat.mailed_version`), whatever the setting. A player sets it at `pbem new`
(`--mail NAME=SETTING`) or with a line `mail SETTING` in any mail to the moderator.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING

from engine.errors import NotationError

from .i18n import gettext as _
from .playing import CommandFailed

if TYPE_CHECKING:
    from .inbound import Envelope

EVERY, TURN, DAILY = "every", "turn", "daily"
SETTINGS = (EVERY, TURN, DAILY)
DEFAULT = EVERY

def _descriptions() -> dict[str, str]:
    """What each setting does, in the current language (`pbem.i18n`)."""
    return {
        EVERY: _("a status mail after every move"),
        TURN: _("a status mail only when you must act or a move concerns you, with every "
                "move since your last mail"),
        DAILY: _("a status mail when you must act or a move concerns you, and one digest "
                 "a day of the moves since your last mail"),
    }

MAIL_LINE = re.compile(r"^mail\s*:?(?:\s+(\S+))?\s*$", re.IGNORECASE)
"""A line `mail SETTING` in a player's mail (`pbem.inbound.split_envelope` takes it
out before the game's command lines are read; no game has `mail` as a command word:
the notation contract in tests/contract checks every registered grammar)."""


class MailSettingError(ValueError):
    """A mail setting that is none of `SETTINGS`."""


def check_setting(value: str) -> str:
    """`value` as a mail setting (lowercased, trimmed).

    Raises:
        MailSettingError: none of every, turn, daily.
    """
    setting = value.strip().lower()
    if setting not in SETTINGS:
        what = f"{value.strip()!r} is no mail setting" if setting else "no mail setting given"
        raise MailSettingError(
            f"{what}; write 'mail every' (a status mail after every move), 'mail turn' "
            "(only when you must act, with every move since your last mail) or 'mail "
            "daily' (your turns and one digest a day)")
    return setting


def mail_setting(env: Envelope) -> str | None:
    """The setting a mail's `mail SETTING` line asks for (None: no such line).

    Raises:
        CommandFailed: a value that is no setting (nothing in the mail is applied).
    """
    line = env.mail
    if line is None:
        return None
    m = MAIL_LINE.match(line.text)
    value = m.group(1) if m is not None else None
    try:
        return check_setting(value or "")
    except MailSettingError as e:
        column = line.text.lower().find(value.lower()) + 1 if value else len(line.text) + 2
        raise CommandFailed(line, NotationError(str(e), column=column,
                                                expected=SETTINGS)) from None


def confirmation(setting: str, hour: int) -> str:
    """The sentence that confirms a seat's new setting, in the current language."""
    what = _descriptions()[setting]
    if setting == DAILY:
        what = _("%(what)s at %(hour)s UTC") % {"what": what, "hour": f"{hour:02d}:00"}
    return _("Your mail setting is now '%(setting)s': %(what)s. Change it with a line "
             "'mail every', 'mail turn' or 'mail daily' in any mail to the moderator."
             ) % {"setting": setting, "what": what}


def settings_for(names: Sequence[str], specs: Iterable[str]) -> dict[str, str]:
    """Each seat's setting from `pbem new --mail` values: `NAME=SETTING` for one
    seat, a bare `SETTING` for every seat not named (the default for all).

    Raises:
        MailSettingError: a bad setting, or a name of no seat.
    """
    default, named = DEFAULT, {}
    for spec in specs:
        name, eq, value = spec.partition("=")
        if not eq:
            default = check_setting(spec)
            continue
        key = name.strip().lower()
        if key not in names:
            raise MailSettingError(f"--mail {spec}: no player {name.strip()!r} in this game "
                                   f"(players: {', '.join(names)})")
        named[key] = check_setting(value)
    return {n: named.get(n, default) for n in names}


@dataclass(frozen=True)
class Reasons:
    """Why a seat on `turn` or `daily` is sent a status mail after a change (any one
    suffices); a seat on `every` always is."""

    to_act: bool = False  # the game waits for the seat
    consent: bool = False  # the undo protocol moved (a request, a consent, a refusal)
    confirm: bool = False  # the seat's own mail changed its mail setting
    concerned: bool = False  # a move of another seat (or the deadline's) happened to it
    everyone: bool = False  # the game starts or ends

    def tell(self, setting: str) -> bool:
        return setting == EVERY or any((self.to_act, self.consent, self.confirm,
                                        self.concerned, self.everyone))


def digest_time(now: datetime, hour: int) -> datetime:
    """The latest daily digest time at or before `now`: `hour`:00 UTC today, or
    yesterday's when that is still to come."""
    now = now.astimezone(UTC)
    today = datetime.combine(now.date(), time(hour), tzinfo=UTC)
    return today if now >= today else today - timedelta(days=1)
