"""The moderator: one transaction per mail, per new game, per moderator command.

`Moderator.process_mail` is the whole inbound pipeline for one raw mail, a short
straight line:

1. parse it (`pbem.inbound`); skip it if its Message-ID is already stored;
2. route it to a seat (`pbem.routing`: the reply-address token, a `token` line, the
   From address, the sender check);
3. guard: its `@vN` stamp, the command cap, a repeat, the rate limit (`pbem.guard`);
4. play its command lines through the match driver, with the seeded chance each one
   causes (`pbem.playing`);
5. commit, in one transaction: the mail (raw bytes, Message-ID, IMAP UID), the
   events (hash-chained) and the commands (`pbem.committing`);
6. notify: every mail it causes goes to the outbox in that same transaction
   (`pbem.notifying`).

On any error nothing but the mail itself and an error reply to its sender is stored
(`pbem.refusals`). The transport moves the mail to the processed folder only after
the commit, and sends the outbox after that: a crash at any point repeats only
idempotent steps. The moderator's own commands are in `pbem.admin`, deadlines in
`pbem.deadlines`. Whatever the game: its rules, grammar and words come from the
registries by the game's name (`pbem.loading.Rules`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property, partial
from typing import Any

from sqlalchemy import insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import Session, col, select

from engine.undo import Tracker

from . import admin, guard, refusals, starting
from .committing import commit
from .config import Config
from .deadlines import auto_command, auto_move, waiting_for
from .errors import ConflictError, StoreError
from .guard import Repeated
from .i18n import Said, language_setting, speaking
from .i18n import confirmation as language_confirmation
from .inbound import Envelope, MailRejected, ParsedMail, mail_key, parse_mail
from .loading import Games, Loaded
from .mail_settings import confirmation, mail_setting
from .notifying import Post, announce, confirm_setting, tell
from .outbound import Renderer, bytecode_cache
from .players import PlayerSpec, addresses_of, new_token
from .playing import CommandFailed, Played, play_lines, play_mail, undo_line, undo_notice
from .replies import shown_lines
from .routing import Intruder, route, shown_address
from .store import (
    Game,
    InboundMail,
    OutMail,
    PlayedMail,
    Seat,
    Store,
    find_inbound,
    seats_of,
)
from .workers import claim_mail, claim_next, stored_among

__all__ = ["CommandFailed", "Intruder", "Moderator", "Outcome", "Played", "PlayerSpec",
           "addresses_of", "auto_command", "new_token", "play_lines", "queued",
           "shown_address", "undo_line", "undo_notice"]

log = logging.getLogger(__name__)


@dataclass
class Outcome:
    """What one mail did: `status` is accepted, rejected, ignored, duplicate, or busy
    (another worker is processing it right now: leave it in the inbox)."""

    status: str
    game_id: str | None = None
    seat: int | None = None
    note: str = ""
    events: int = 0


@dataclass(frozen=True)
class Waiting:
    """A mail fetched from the inbox (`Moderator.waiting`): its Message-ID, read from
    its headers at once, and the rest of it, `parsed`, read when it is first asked
    for (by the worker that takes the mail; the others never read it)."""

    uid: str
    raw: bytes
    message_id: str
    read: Callable[[bytes], ParsedMail] = field(repr=False, compare=False)

    @cached_property
    def parsed(self) -> ParsedMail:
        """The mail read (`Moderator.parse`), with the Message-ID it was claimed by."""
        parsed = self.read(self.raw)
        parsed.message_id = self.message_id  # the same header, read the same way
        return parsed


class MailCrashed(Exception):
    """Processing `mail` raised an unexpected error (the cause); nothing of it was
    stored."""

    def __init__(self, mail: Waiting) -> None:
        super().__init__(mail.uid)
        self.mail = mail


_ADD_INBOUND = insert(InboundMail.__table__)
_ADD_PLAYED = insert(PlayedMail.__table__)


class Moderator:
    """The shell around the engine for one database and one configuration."""

    def __init__(self, store: Store, cfg: Config, renderer: Renderer | None = None) -> None:
        self.store = store
        self.cfg = cfg
        self.renderer = renderer or Renderer(cache=bytecode_cache(cfg.template_cache))
        self.games = Games(cfg.game_cache_size)

    @property
    def post(self) -> Post:
        """Where mails are rendered and queued (with the configuration of now)."""
        return Post(self.cfg, self.renderer)

    @property
    def _cache(self) -> Games:
        """The cache of loaded games (tests clear it to read a game afresh)."""
        return self.games

    # ------------------------------------------------------------------- loading

    def load(self, s: Session, row: Game) -> tuple[list[Any], Any]:
        """The game's events and state (cached per version: the log is append-only)."""
        loaded = self.games.load(s, row)
        return loaded.events, loaded.state

    def tracker(self, s: Session, row: Game) -> Tracker:
        """The undo protocol's tracker: the last command and any pending request."""
        return self.games.tracker(s, row)

    # ------------------------------------------------------------------- new game

    def new_game(self, players: Sequence[PlayerSpec], now: datetime, *,
                 game_id: str | None = None, game: str | None = None,
                 variant: str | None = None, options: Mapping[str, str] | None = None,
                 seed: str | None = None, turn_hours: float = 0, reminder_hours: float = 0,
                 late_policy: str = "wait", require_auth: str = "none") -> str:
        """Create a game, deal with its seed, and queue everyone's first status mail
        (`pbem.starting.new_game`)."""
        return starting.new_game(self, players, now, game_id=game_id, game=game,
                                 variant=variant, options=options, seed=seed,
                                 turn_hours=turn_hours, reminder_hours=reminder_hours,
                                 late_policy=late_policy, require_auth=require_auth)

    def record(self, s: Session, row: Game, seats: Sequence[Seat], before: Loaded,
               played: Played, now: datetime, *, source: str,
               notice: str | Sequence[str | Said] = "",
               first: bool = False) -> None:
        """Commit what was played and tell every seat (a new game, a late move)."""
        after, digest = commit(s, self.games, row, before, played, now, source=source,
                               first=first)
        tell(self.post, s, row, seats, after, played, digest, now, notice=notice,
             everyone=first)

    # ------------------------------------------------------------------- one mail

    def parse(self, raw: bytes, *, truncated: bool = False) -> ParsedMail:
        """A raw mail read, its body within the configured limit (`pbem.inbound`)."""
        return parse_mail(raw, max_body=self.cfg.max_body_bytes, truncated=truncated)

    def waiting(self, uid: str, raw: bytes, *, truncated: bool = False) -> Waiting:
        """A fetched mail as the inbox's loop holds it: its Message-ID read now, the
        rest when it is taken (`Waiting.parsed`)."""
        return Waiting(uid, raw, mail_key(raw), partial(self.parse, truncated=truncated))

    def process_mail(self, raw: bytes, now: datetime, *, uid: str = "",
                     truncated: bool = False) -> Outcome:
        """Process one raw mail exactly once (see the module docstring)."""
        return self._process(self.waiting(uid, raw, truncated=truncated), now)

    def _process(self, mail: Waiting, now: datetime, *, claimed: bool = False) -> Outcome:
        """Process `mail` in a transaction of its own (`claimed`: the first one has
        taken it already, `pbem.workers.claim_next`), again after a concurrent write."""
        parsed = mail.parsed
        for attempt in range(5):
            try:
                with self.store.transaction() as s:
                    if not (claimed and attempt == 0):
                        if not claim_mail(s, parsed.message_id):
                            return Outcome("busy", note=parsed.message_id)
                        if find_inbound(s, parsed.message_id) is not None:
                            return Outcome("duplicate", note=parsed.message_id)
                    return self._handle(s, parsed, mail.raw, mail.uid, now)
            except (ConflictError, IntegrityError) as e:
                # Another worker stored this mail or moved the game on: try again.
                log.info("retrying %s after a concurrent write (%s)", parsed.message_id, e)
                self.games.forget()
                if attempt == 4:
                    raise
            except Exception:
                self.games.forget()  # it may hold a game as the rolled back commit left it
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    def process_next(self, waiting: Sequence[Waiting], now: datetime
                     ) -> tuple[tuple[Waiting, Outcome] | None, list[Waiting]]:
        """Process the first of `waiting` (mails fetched together) that no other
        worker holds and none has stored: one statement claims it and skips the
        others (`pbem.workers.claim_next`). Returns it with its outcome, or None when
        none is left to this worker; then also those of `waiting` that are stored
        (duplicates, to be moved out of the inbox), found in the same transaction.

        Raises:
            MailCrashed: processing the claimed mail raised an unexpected error (a
                bug; nothing of it was stored).
        """
        ids = list(dict.fromkeys(w.message_id for w in waiting))
        mail: Waiting | None = None
        try:
            with self.store.transaction() as s:
                mid = claim_next(s, ids)
                if mid is None:
                    stored = stored_among(s, ids)
                    return None, [w for w in waiting if w.message_id in stored]
                mail = next(w for w in waiting if w.message_id == mid)
                return (mail, self._handle(s, mail.parsed, mail.raw, mail.uid, now)), []
        except (ConflictError, IntegrityError) as e:
            if mail is None:
                raise
            # Another worker stored this mail or moved the game on: try again.
            log.info("retrying %s after a concurrent write (%s)", mail.message_id, e)
            self.games.forget()
        except (DBAPIError, StoreError):
            self.games.forget()  # it may hold a game as the rolled back commit left it
            raise
        except Exception as e:
            self.games.forget()
            if mail is None:
                raise
            raise MailCrashed(mail) from e
        try:
            return (mail, self._process(mail, now)), []
        except (DBAPIError, StoreError, ConflictError):
            raise
        except Exception as e:
            raise MailCrashed(mail) from e

    def _handle(self, s: Session, parsed: ParsedMail, raw: bytes, uid: str,
                now: datetime) -> Outcome:
        """Route, guard, play, commit and notify; or refuse. The mail is stored
        either way."""
        inbound = InboundMail(message_id=parsed.message_id, imap_uid=uid, raw=raw,
                              received=now, sender=parsed.sender, subject=parsed.subject)
        try:
            seat, row, env = route(s, self.cfg, parsed)
            inbound.game_id, inbound.seat = row.id, seat.seat
            try:
                outcome = self._play(s, row, seat, env, parsed, now)
            except CommandFailed as f:
                refusals.command_error(self.post, s, parsed, now, row, seat,
                                       self.games.load(s, row), self.games.tracker(s, row), f)
                outcome = Outcome("rejected", row.id, seat.seat, f.error.message)
        except MailRejected as r:
            log.info("mail %s from %s %s: %s", parsed.message_id, shown_address(parsed.sender),
                     r.status, r.reason)
            self._refused(s, parsed, now, r, inbound)
            outcome = Outcome(r.status, inbound.game_id, inbound.seat, r.reason)
        inbound.status, inbound.note = outcome.status, outcome.note
        s.connection().execute(_ADD_INBOUND, inbound.model_dump(exclude={"id"}))
        return outcome

    def _play(self, s: Session, row: Game, seat: Seat, env: Envelope, parsed: ParsedMail,
              now: datetime) -> Outcome:
        before = self.games.load(s, row)
        setting, language = mail_setting(env), language_setting(env)
        if (setting is not None or language is not None) and not env.commands:
            return self._set_mail(s, row, seat, before, setting, language, parsed, now)
        digest = guard.admit(s, self.cfg, row, seat, before, env, parsed, now)
        played = play_mail(before.played(row.seed, self.games.tracker(s, row)), seat.seat,
                           env.commands, before.rules.presenter)
        played.ignored = shown_lines(env.ignored, grammar=before.rules.grammar)
        version = before.state.version
        after, head = commit(s, self.games, row, before, played, now,
                             source=parsed.message_id)
        sender_notice = self._apply_settings(s, seat, before, setting, language)
        tell(self.post, s, row, seats_of(s, row.id), after, played, head, now, sender=seat,
             in_reply_to=parsed.message_id, references=parsed.references,
             notice=played.notices, sender_notice=sender_notice)
        if digest is not None:
            s.connection().execute(_ADD_PLAYED, {
                "game_id": row.id, "seat": seat.seat, "digest": digest, "version": version,
                "message_id": parsed.message_id[:500], "created": now})
        return Outcome("accepted", row.id, seat.seat, "; ".join(played.echo),
                       len(played.events))

    def _apply_settings(self, s: Session, seat: Seat, loaded: Loaded, setting: str | None,
                        language: str | None) -> str:
        """Store the seat's new mail setting and language (None: unchanged); the
        sentences that confirm them, in the seat's (new) language ("" if none)."""
        if setting is None and language is None:
            return ""
        if setting is not None:
            seat.mail = setting
        if language is not None:
            seat.language = language
        s.add(seat)
        with speaking(seat.language, loaded.rules.presenter):
            said = [*([confirmation(setting, self.cfg.digest_hour)] if setting else []),
                    *([language_confirmation(language)] if language else [])]
        return " ".join(said)

    def _set_mail(self, s: Session, row: Game, seat: Seat, loaded: Loaded,
                  setting: str | None, language: str | None, parsed: ParsedMail,
                  now: datetime) -> Outcome:
        """A mail that only sets the seat's mail setting or language: stored, and
        confirmed in a reply (whatever version it answers: it plays nothing), within
        the seat's rate limit."""
        guard.check_rate(s, self.cfg, row, seat, now)
        text = self._apply_settings(s, seat, loaded, setting, language)
        confirm_setting(self.post, s, row, seat, loaded, text, now,
                        in_reply_to=parsed.message_id, references=parsed.references)
        said = [*([f"mail {setting}"] if setting else []),
                *([f"language {language}"] if language else [])]
        return Outcome("accepted", row.id, seat.seat, "; ".join(said))

    def _refused(self, s: Session, parsed: ParsedMail, now: datetime, r: MailRejected,
                 inbound: InboundMail) -> None:
        """The replies to a refused mail: its seat's owner told of an intruder or of
        a repeated mail, the sender told why."""
        if isinstance(r, Intruder | Repeated):
            inbound.game_id, inbound.seat = r.seat.game_id, r.seat.seat
        if isinstance(r, Intruder):
            refusals.tell_owner(self.post, s, r.seat, parsed.sender, now)
        if isinstance(r, Repeated):
            row = s.get(Game, r.seat.game_id)
            assert row is not None
            refusals.repeated(self.post, s, parsed, now, row, r.seat, r.reason)
        if r.reply:
            refusals.refuse(self.post, s, parsed, now, r)

    # ------------------------------------------------------------------- moderator commands

    def announce(self, s: Session, row: Game, title: str, lines: Sequence[str], now: datetime,
                 *, seats: Sequence[Seat] | None = None, kind: str = "notice",
                 extra_to: Sequence[str] = ()) -> None:
        """Queue a notice to every seat of a game (or to `seats`)."""
        announce(self.post, s, row, self.games.load(s, row), title, lines, now, seats=seats,
                 kind=kind, extra_to=extra_to)

    def pause(self, game_id: str, now: datetime, reason: str = "") -> None:
        admin.pause(self, game_id, now, reason)

    def resume(self, game_id: str, now: datetime) -> None:
        admin.resume(self, game_id, now)

    def extend(self, game_id: str, hours: float, now: datetime) -> datetime:
        """Move the current deadline `hours` later (from now if none is set)."""
        return admin.extend(self, game_id, hours, now)

    def replace(self, game_id: str, seat_name: str, now: datetime, *, emails: Sequence[str],
                person: str | None = None, tz: str | None = None) -> None:
        """Give a seat to a new player (`pbem.admin.replace`)."""
        admin.replace(self, game_id, seat_name, now, emails=emails, person=person, tz=tz)

    def addresses(self, game_id: str, seat_name: str) -> list[str]:
        """The addresses registered for a seat, the main one (where mails go) first."""
        return admin.addresses(self, game_id, seat_name)

    def add_address(self, game_id: str, seat_name: str, address: str, now: datetime) -> None:
        """Register one more address for a seat (`pbem.admin.add_address`)."""
        admin.add_address(self, game_id, seat_name, address, now)

    def remove_address(self, game_id: str, seat_name: str, address: str,
                       now: datetime) -> None:
        """Unregister an address of a seat (`pbem.admin.remove_address`)."""
        admin.remove_address(self, game_id, seat_name, address, now)

    # ------------------------------------------------------------------- deadlines

    def auto_move(self, s: Session, row: Game, now: datetime) -> list[str]:
        """Play the deadline policy's command for every seat to act
        (`pbem.deadlines.auto_move`)."""
        return auto_move(self, s, row, now)

    def waiting_for(self, s: Session, row: Game) -> list[Seat]:
        return waiting_for(s, self.games.load(s, row), row)


def queued(store: Store, game_id: str | None = None) -> list[OutMail]:
    """Outbox rows (for tests and `status`)."""
    with store.read() as s:
        q = select(OutMail).order_by(col(OutMail.id))
        if game_id is not None:
            q = q.where(OutMail.game_id == game_id)
        return list(s.exec(q))
