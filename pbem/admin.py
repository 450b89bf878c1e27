"""The moderator's commands on a running game: pause, resume, extend the deadline,
give a seat to a new player, and a seat's addresses. Each is one transaction and
tells the players what changed."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlmodel import Session, select

from .deadlines import new_deadline
from .errors import PbemError, UnknownGameError
from .i18n import Said, said
from .names import check_person_name
from .notifying import announce, status
from .players import addresses_of, check_tz, new_token
from .store import Game, Seat, SeatAddress, as_utc, get_game, head_hash, seat_addresses, seats_of

if TYPE_CHECKING:
    from .moderator import Moderator


def _active(s: Session, game_id: str) -> Game:
    row = get_game(s, game_id)
    if row.finished:
        raise PbemError(f"game {game_id} is over")
    return row


def _seat(s: Session, game_id: str, seat_name: str) -> tuple[Game, Seat]:
    row = _active(s, game_id)
    seat = next((x for x in seats_of(s, game_id) if x.name == seat_name.lower()), None)
    if seat is None:
        raise UnknownGameError(f"game {game_id} has no seat {seat_name!r}")
    return row, seat


def _check_free(s: Session, seat: Seat, addresses: Sequence[str]) -> None:
    for other in seats_of(s, seat.game_id):
        if other.seat != seat.seat:
            taken = set(seat_addresses(s, other)) & set(addresses)
            if taken:
                raise PbemError(f"{', '.join(sorted(taken))} is registered for "
                                f"{other.name} in game {seat.game_id}")


def _announce(mod: Moderator, s: Session, row: Game, title: str | Said,
              lines: Sequence[str | Said],
              now: datetime, *, seats: Sequence[Seat] | None = None,
              extra_to: Sequence[str] = ()) -> None:
    announce(mod.post, s, row, mod.games.load(s, row), title, lines, now, seats=seats,
             extra_to=extra_to)


def pause(mod: Moderator, game_id: str, now: datetime, reason: str = "") -> None:
    with mod.store.transaction() as s:
        row = _active(s, game_id)
        row.paused, row.deadline = True, None
        s.add(row)
        paused = said("The moderator paused the game. Reason: %(reason)s", reason=reason) \
            if reason else said("The moderator paused the game.")
        _announce(mod, s, row, said("paused"),
                  [paused, said("Mails sent while it is paused are not applied.")], now)


def resume(mod: Moderator, game_id: str, now: datetime) -> None:
    with mod.store.transaction() as s:
        row = _active(s, game_id)
        row.paused = False
        new_deadline(row, now)
        s.add(row)
        _announce(mod, s, row, said("resumed"), [said("The moderator resumed the game.")], now)


def extend(mod: Moderator, game_id: str, hours: float, now: datetime) -> datetime:
    """Move the current deadline `hours` later (from now if none is set)."""
    with mod.store.transaction() as s:
        row = _active(s, game_id)
        base = as_utc(row.deadline) or now
        row.deadline = base + timedelta(hours=hours)
        row.reminded = row.late_notified = False
        s.add(row)
        shown = f"{hours:g}"
        _announce(mod, s, row, said("deadline extended"),
                  [said("The moderator extended the deadline by %(hours)s hours.",
                        hours=shown)], now)
        return row.deadline


def replace(mod: Moderator, game_id: str, seat_name: str, now: datetime, *,
            emails: Sequence[str], person: str | None = None, tz: str | None = None) -> None:
    """Give a seat to a new player: new addresses (the first is where mails go) and
    a new token; the seat, its name in the notation and everything it holds stay.

    Raises:
        ValueError: a malformed address or time zone.
        PbemError: no such game or seat, or an address of another seat.
    """
    addresses = addresses_of(emails)
    if tz:
        check_tz(tz)
    if person is not None:
        person = check_person_name(person)
    with mod.store.transaction() as s:
        row, seat = _seat(s, game_id, seat_name)
        _check_free(s, seat, addresses)
        old = seat_addresses(s, seat)
        for extra in s.exec(select(SeatAddress).where(SeatAddress.game_id == game_id)
                            .where(SeatAddress.seat == seat.seat)):
            s.delete(extra)
        seat.email = addresses[0]
        for addr in addresses[1:]:
            s.add(SeatAddress(game_id=game_id, seat=seat.seat, address=addr))
        seat.person = person or seat.person
        seat.tz = tz or seat.tz
        seat.token = new_token()  # the old reply address stops working
        seat.mailed_version = 0  # the new player gets the whole story
        s.add(seat)
        line = (f"The seat {seat.name} is now played by {seat.person} <{seat.email}>; "
                f"it keeps everything it holds.")
        _announce(mod, s, row, f"{seat.name} has a new player", [line], now,
                  extra_to=[a for a in old if a not in addresses])
        status(mod.post, s, row, seat, mod.games.load(s, row), now,
               head_hash(s, row.id, row.version), tracker=mod.games.tracker(s, row),
               notice=f"You now play the seat {seat.name}.")


def addresses(mod: Moderator, game_id: str, seat_name: str) -> list[str]:
    """The addresses registered for a seat, the main one (where mails go) first."""
    with mod.store.read() as s:
        row = get_game(s, game_id)
        seat = next((x for x in seats_of(s, row.id) if x.name == seat_name.lower()), None)
        if seat is None:
            raise UnknownGameError(f"game {game_id} has no seat {seat_name!r}")
        return seat_addresses(s, seat)


def add_address(mod: Moderator, game_id: str, seat_name: str, address: str,
                now: datetime) -> None:
    """Register one more address for a seat; mails from it are played for the seat
    (with the seat's token). The seat's addresses are told.

    Raises:
        ValueError: not a mail address.
        PbemError: no such game or seat, already registered, or another seat's.
    """
    (addr,) = addresses_of([address])
    with mod.store.transaction() as s:
        row, seat = _seat(s, game_id, seat_name)
        if addr in seat_addresses(s, seat):
            raise PbemError(f"{addr} is already registered for {seat.name}")
        _check_free(s, seat, [addr])
        s.add(SeatAddress(game_id=game_id, seat=seat.seat, address=addr))
        _announce(mod, s, row, "address added",
                  [f"The moderator registered {addr} for your seat {seat.name}: "
                   "replies from it to your status mails are played."], now,
                  seats=[seat], extra_to=[a for a in seat_addresses(s, seat)
                                          if a != seat.email])


def remove_address(mod: Moderator, game_id: str, seat_name: str, address: str,
                   now: datetime) -> None:
    """Unregister an address of a seat. Removing the main one makes the next one
    main; removing the last one is refused. The seat's addresses are told.

    Raises:
        PbemError: no such game, seat or registered address; the last address.
    """
    addr = address.strip().lower()
    with mod.store.transaction() as s:
        row, seat = _seat(s, game_id, seat_name)
        registered = seat_addresses(s, seat)
        if addr not in registered:
            raise PbemError(f"{addr} is not registered for {seat.name}")
        if len(registered) == 1:
            raise PbemError(f"{addr} is the only address of {seat.name}; register "
                            "another first (or use 'pbem replace')")
        rows = list(s.exec(select(SeatAddress).where(SeatAddress.game_id == game_id)
                           .where(SeatAddress.seat == seat.seat)))
        if addr == seat.email:
            seat.email = registered[1]
            s.add(seat)
        for extra in rows:
            if extra.address in (addr, seat.email):
                s.delete(extra)
        s.flush()
        _announce(mod, s, row, "address removed",
                  [f"The moderator removed {addr} from your seat {seat.name}: mails "
                   f"from it are no longer played. Mails now go to {seat.email}."],
                  now, seats=[seat], extra_to=[a for a in registered if a != seat.email])
