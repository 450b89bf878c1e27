"""The moderator: one transaction per mail, per new game, per moderator command.

`Moderator.process_mail` is the whole inbound pipeline for one raw mail:

1. parse it (`pbem.inbound`); skip it if its Message-ID is already stored;
2. route it to a seat (reply-address token, a `token` or `game` line, or the From
   address) and authenticate the sender;
3. parse every command line, check the `@vN` stamp, and decide each command on the
   evolving state, applying the seeded deals and draws each one causes;
4. in one transaction: store the mail (raw bytes, Message-ID, IMAP UID), the
   events (hash-chained), the commands, and every mail it causes in the outbox.

On any error nothing but the mail itself and an error reply to its sender is stored.
The transport moves the mail to the processed folder only after the commit, and
sends the outbox after that: a crash at any point repeats only idempotent steps.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from engine.chain import head, seed_commitment
from engine.errors import GameError, IllegalMoveError, NotationError, StaleOrderError
from engine.princes.commands import Agree, Choose, Command, Done, Keep, Pass, Place, Refuse, Undo
from engine.princes.definition import GAME
from engine.princes.events import CardsDrawn, Event, ProfessionsDealt, Reverted
from engine.princes.game import new_state, replay, seeded_chance, start_game, to_act
from engine.princes.legal import legal_commands
from engine.princes.state import CHANCE, State
from engine.princes.views import events_visible_to, view_for
from engine.registry import get_game as get_registered_game
from engine.undo import START, Last, Tracker, legal_undo_commands
from engine.undo import play as play_command
from notation.princes import GRAMMAR, format_command, parse_command

from . import guard
from .config import Config
from .describe import describe_event, summarise_commands
from .errors import ConflictError, PbemError, UnknownGameError
from .games import id_prefix
from .inbound import (
    Envelope,
    Line,
    MailRejected,
    ParsedMail,
    command_lines,
    parse_mail,
    split_envelope,
    token_from,
)
from .names import check_game_names, check_person_name
from .outbound import (
    Renderer,
    answered_version,
    headline,
    make_mail,
    status_context,
    turn_line,
    when,
)
from .replies import no_commands, shown_lines
from .sender_auth import REQUIREMENTS, judge
from .store import (
    Game,
    GameAuth,
    InboundMail,
    MoveRow,
    OutMail,
    PlayedMail,
    Seat,
    SeatAddress,
    Store,
    StrangerReply,
    append_events,
    as_utc,
    count_moves,
    find_inbound,
    get_game,
    head_hash,
    is_registered,
    load_events,
    required_auth,
    seat_addresses,
    seat_by_token,
    seats_of,
)
from .workers import claim_mail

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
class PlayerSpec:
    """A player of a new game: `name` (the seat's name in the notation), the main
    address (where mails go), the zone, and further addresses the player may also
    send from."""

    name: str
    email: str
    tz: str = "UTC"
    extra: tuple[str, ...] = ()

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
        _check_tz(tz)
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


def shown_address(addr: str) -> str:
    """An address from a mail's From, safe to quote in a mail to someone else:
    printable address characters only, at most 80 of them."""
    clean = re.sub(r"[^A-Za-z0-9@._+-]", "?", addr)
    return clean[:80] + ("…" if len(clean) > 80 else "")


def _check_tz(tz: str) -> None:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {tz!r} (use e.g. Europe/Amsterdam)") from None


class CommandFailed(Exception):
    """A command line of a mail that cannot be applied: the line and the game error
    (and, for a stale mail, what changed since the version it was written against)."""

    def __init__(self, line: Line | None, error: GameError,
                 changes: Sequence[str] = ()) -> None:
        super().__init__(error.message)
        self.line = line
        self.error = error
        self.changes = list(changes)


class Intruder(MailRejected):
    """A mail at a seat's reply address (or with its token) from an address not
    registered for that seat: its owner is told, nothing in it is read further."""

    def __init__(self, reason: str, seat: Seat) -> None:
        super().__init__(reason)
        self.seat = seat


@dataclass
class Played:
    """Commands decided on a state: the state after them, the events, the moves
    (seat, canonical command, the state version it was given at), and the undo
    protocol's tracker (`engine.undo`) with the notices its commands cause."""

    state: State
    events: list[Event] = field(default_factory=list)
    moves: list[tuple[int, str, int]] = field(default_factory=list)
    echo: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # the mail's lines not read as commands
    tracker: Tracker = START
    notices: list[str] = field(default_factory=list)

    def play(self, seat: int, cmd: Command) -> list[Event]:
        """Decide one command (the undo protocol's included) on the evolving state.

        Raises:
            IllegalMoveError: the command is refused; nothing changes.
        """
        before, tracker = self.state, self.tracker
        self.state, events, self.tracker = play_command(GAME, before, tracker, seat, cmd)
        self.events.extend(events)
        self.moves.append((seat, format_command(cmd), before.version))
        if seat != CHANCE:
            notice = undo_notice(before, tracker, self.tracker, seat, cmd)
            if notice:
                self.notices.append(notice)
        return events


def undo_notice(state: State, before: Tracker, after: Tracker, seat: int,
                cmd: Command) -> str:
    """What every player is told about the undo protocol after `cmd` by `seat`."""
    names = [p.name for p in state.players]
    who = names[seat]
    if isinstance(cmd, Undo):
        assert after.last is not None and after.request is not None
        waiting = ", ".join(names[s] for s in after.waiting_for(len(names)))
        text = format_command(after.last.command)
        return (f"{who} asks to take back their last command, '{text}'"
                f" (back to v{after.request.to_version}). {waiting}: reply 'agree' or "
                "'refuse'. The undo is made when all agree; one 'refuse', or any other "
                "move, cancels it.")
    request = before.request
    if request is None:
        return ""
    asker = names[request.seat]
    if isinstance(cmd, Agree):
        if after.request is None:
            assert before.last is not None
            return (f"Everyone agreed: {asker}'s '{format_command(before.last.command)}' is "
                    f"taken back; the game is back at the position of v{request.to_version}.")
        waiting = ", ".join(names[s] for s in after.waiting_for(len(names)))
        return f"{who} agrees to {asker}'s undo; still waiting for: {waiting}."
    if isinstance(cmd, Refuse):
        if seat == request.seat:
            return f"{who} withdrew their undo request."
        return f"{who} refused {asker}'s undo; it is cancelled."
    return f"{asker}'s undo request was cancelled by {who}'s move."


def undo_line(state: State, tracker: Tracker, viewer: int) -> str:
    """The status mail's line about a pending undo request ("" if none)."""
    request = tracker.request
    if request is None or tracker.last is None:
        return ""
    names = [p.name for p in state.players]
    asker = "You" if request.seat == viewer else names[request.seat]
    waiting = tracker.waiting_for(len(names))
    text = (f"Undo asked: {asker} asked to take back '{format_command(tracker.last.command)}' "
            f"(back to v{request.to_version}); waiting for "
            f"{', '.join(names[s] for s in waiting)}.")
    if viewer in waiting:
        text += " Reply 'agree' or 'refuse'."
    return text


def resolve_chance(played: Played, seed: str) -> None:
    """Apply the seeded deals and draws that are due, one after another."""
    while to_act(played.state) == (CHANCE,):
        played.play(CHANCE, seeded_chance(played.state, seed))


def play_lines(state: State, seat: int, lines: Sequence[Line], seed: str,
               tracker: Tracker = START) -> Played:
    """Parse and decide the lines of one mail together, on the evolving state
    (`tracker`: the undo protocol's, before the mail).

    A command that makes chance draw private cards ends what one mail may hold: the
    sender has not seen the cards yet, so commands after it are refused (and never
    decided, so the reply cannot reveal the draw).

    Raises:
        CommandFailed: the first line that does not parse or is illegal.
    """
    names = tuple(p.name for p in state.players)
    played = Played(state, tracker=tracker)
    drew_after: Line | None = None
    for line in lines:
        if drew_after is not None:
            raise CommandFailed(line, IllegalMoveError(
                f"this line comes after {drew_after.text!r}, which draws cards you have not "
                "seen yet; send it again in a new mail once you have read your draw",
                "after-draw"))
        try:
            cmd = parse_command(line.text, players=names)
        except NotationError as e:
            raise CommandFailed(line, e) from None
        try:
            played.play(seat, cmd)
        except IllegalMoveError as e:
            raise CommandFailed(line, e) from None
        played.echo.append(format_command(cmd))
        before = len(played.events)
        resolve_chance(played, seed)
        if any(isinstance(e, CardsDrawn) for e in played.events[before:]):
            drew_after = line
    return played


def auto_command(state: State, seat: int) -> Command:
    """What the moderator plays for a seat whose deadline passed (policy `auto`):
    pass in an auction, `done` in the action phase, the first card of a pending
    choice, the first three professions dealt, the first listed placement."""
    pending = state.pending
    if pending is not None and pending.seat == seat:
        if pending.kind == "choose":
            return Choose(pending.cards[0])
        if pending.kind == "place":
            places = [c for c in legal_commands(state, seat) if isinstance(c, Place)]
            if places:
                return places[0]
    if state.phase == "keep":
        return Keep(state.players[seat].dealt[:state.rules.professions_kept])
    if state.phase == "auction":
        return Pass()
    return Done()


STRANGER_SUBJECT = "Your mail to the moderator"
STRANGER_REPLY = ("This address moderates games by mail for their registered players only. "
                  "Your address is registered for no seat, so your mail was not read. "
                  "Mails from your address get at most one such reply a day.")
STRANGER_INTERVAL = timedelta(days=1)


def _seat_name(seats: Sequence[Seat], i: int) -> str:
    return next((s.name for s in seats if s.seat == i), str(i))


def new_token() -> str:
    return secrets.token_hex(8)


class Moderator:
    """The shell around the engine for one database and one configuration."""

    def __init__(self, store: Store, cfg: Config, renderer: Renderer | None = None) -> None:
        self.store = store
        self.cfg = cfg
        self.renderer = renderer or Renderer()
        self._cache: dict[str, tuple[int, list[Event], State]] = {}
        # game -> (version, commands stored, tracker): undo, agree and refuse add
        # commands but no events, so the tracker is keyed by both counts.
        self._trackers: dict[str, tuple[int, int, Tracker]] = {}

    # ------------------------------------------------------------------- loading

    def load(self, s: Session, game: Game) -> tuple[list[Event], State]:
        """The game's events and state (cached per version: the log is append-only)."""
        hit = self._cache.get(game.id)
        if hit is not None and hit[0] == game.version:
            return hit[1], hit[2]
        events = load_events(s, game.id)
        state = replay(events)
        self._cache[game.id] = (game.version, events, state)
        return events, state

    def tracker(self, s: Session, game: Game) -> Tracker:
        """The undo protocol's tracker: the last command and any pending request.

        Rebuilt from the stored commands since the last player command (the events
        are the record of what they did; see `engine.undo`).
        """
        n = count_moves(s, game.id)
        hit = self._trackers.get(game.id)
        if hit is not None and hit[:2] == (game.version, n):
            return hit[2]
        events, state = self.load(s, game)
        tail: list[MoveRow] = []
        for row in s.exec(select(MoveRow).where(MoveRow.game_id == game.id)
                          .order_by(col(MoveRow.n).desc())):
            tail.append(row)
            if row.seat != CHANCE and row.command not in ("undo", "agree", "refuse"):
                break
        tail.reverse()
        tracker = START
        if tail and tail[0].seat != CHANCE and tail[0].command not in ("undo", "agree", "refuse"):
            first = tail[0]
            since = events[first.version:]
            if not any(isinstance(e, Reverted) for e in since):
                names = tuple(p.name for p in state.players)
                cmd = parse_command(first.command, players=names)
                tracker = Tracker(Last(first.seat, replay(events[:first.version]), cmd,
                                       tuple(since)))
                for row in tail[1:]:
                    if row.seat != CHANCE:
                        _, _, tracker = play_command(GAME, state, tracker, row.seat,
                                                     parse_command(row.command, players=names))
        self._trackers[game.id] = (game.version, n, tracker)
        return tracker

    # ------------------------------------------------------------------- new game

    def new_game(self, players: Sequence[PlayerSpec], now: datetime, *,
                 game_id: str | None = None, variant: str = "standard", seed: str | None = None,
                 money_open: bool = False, turn_hours: float = 0, reminder_hours: float = 0,
                 late_policy: str = "wait", require_auth: str = "none",
                 game: str | None = None) -> str:
        """Create a game, deal with its seed, and queue everyone's first status mail.

        `require_auth` (dmarc, dkim, spf or none): the alignment of the From address
        that the moderator's mail server must have found (`pbem.sender_auth`). `game`:
        the registered game (None: the default game); it is stored with the game, and
        new ids are its prefix and a number (`pbem.games.id_prefix`).

        Raises:
            UnknownGameError: no game called `game` is registered (engine.registry).
            IllegalMoveError: the engine refuses the setup (player count).
            NameRefused: a name the notation cannot write, or two that look alike
                (`pbem.names`).
            ValueError: a bad game id, policy or duplicate game id; an address given
                to two seats; a sender check without a configured authserv-id.
        """
        if late_policy not in ("wait", "auto"):
            raise ValueError("late policy must be 'wait' or 'auto'")
        if require_auth not in REQUIREMENTS:
            raise ValueError(f"--require-auth must be one of {', '.join(REQUIREMENTS)}")
        if require_auth != "none" and not self.cfg.authserv_id:
            raise ValueError(f"--require-auth {require_auth} needs the authserv-id of the "
                             "moderator's mail server (PBEM_AUTHSERV_ID)")
        owners: dict[str, str] = {}
        for p in players:
            for addr in (p.email, *p.extra):
                if owners.setdefault(addr, p.name) != p.name:
                    raise ValueError(f"{addr} is given for both {owners[addr]} and {p.name}")
        names = check_game_names([p.name for p in players])
        players = [dataclasses.replace(p, name=n) for p, n in zip(players, names, strict=True)]
        rules = get_registered_game(game)
        seed = seed or secrets.token_hex(16)
        salt = secrets.token_hex(8)
        started = start_game([p.name for p in players], variant=variant, money_open=money_open,
                             commitment=seed_commitment(seed, salt))
        played = Played(new_state(started), [started])
        resolve_chance(played, seed)
        with self.store.transaction() as s:
            if game_id is None:
                prefix = id_prefix(rules)
                n = len(list(s.exec(select(Game.id)))) + 1
                while s.get(Game, f"{prefix}-{n}") is not None:
                    n += 1
                game_id = f"{prefix}-{n}"
            elif s.get(Game, game_id) is not None:
                raise ValueError(f"game {game_id!r} exists already")
            if not game_id.replace("-", "").replace("_", "").isalnum():
                raise ValueError("a game id is letters, digits, - and _ only")
            game = Game(id=game_id, game=rules.name, variant=variant, money_open=money_open,
                        seed=seed, salt=salt, created=now, turn_hours=turn_hours,
                        reminder_hours=reminder_hours, late_policy=late_policy)
            s.add(game)
            seats = [Seat(game_id=game_id, seat=i, name=p.name, person=p.name, email=p.email,
                          tz=p.tz, token=new_token()) for i, p in enumerate(players)]
            for seat in seats:
                s.add(seat)
            s.flush()
            for i, p in enumerate(players):
                for addr in p.extra:
                    s.add(SeatAddress(game_id=game_id, seat=i, address=addr))
            if require_auth != "none":
                s.add(GameAuth(game_id=game_id, require=require_auth))
            names = ", ".join(p.name for p in players)
            notice = (f"A new game of The Princes of Florence: {names}, judged by pbem's "
                      f"engine {started.engine} with the rules edition {started.edition}. "
                      "Every deal and draw "
                      "comes from a secret seed, revealed when the game ends. The seed's "
                      f"commitment is sha256:{seed_commitment(seed, salt)}: keep this mail "
                      "to check the seed against it (docs/trust.md).")
            self._commit(s, game, seats, new_state(started), [], played, now, source="setup",
                         notice=notice, first=True)
        return game_id

    # ------------------------------------------------------------------- one mail

    def process_mail(self, raw: bytes, now: datetime, *, uid: str = "",
                     truncated: bool = False) -> Outcome:
        """Process one raw mail exactly once (see the module docstring)."""
        parsed = parse_mail(raw, max_body=self.cfg.max_body_bytes, truncated=truncated)
        for attempt in range(5):
            try:
                with self.store.transaction() as s:
                    if not claim_mail(s, parsed.message_id):
                        return Outcome("busy", note=parsed.message_id)
                    if find_inbound(s, parsed.message_id) is not None:
                        return Outcome("duplicate", note=parsed.message_id)
                    return self._handle(s, parsed, raw, uid, now)
            except (ConflictError, IntegrityError) as e:
                # Another worker stored this mail or moved the game on: try again.
                log.info("retrying %s after a concurrent write (%s)", parsed.message_id, e)
                self._cache.clear()
                if attempt == 4:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _handle(self, s: Session, parsed: ParsedMail, raw: bytes, uid: str,
                now: datetime) -> Outcome:
        inbound = InboundMail(message_id=parsed.message_id, imap_uid=uid, raw=raw,
                              received=now, sender=parsed.sender, subject=parsed.subject)
        game: Game | None = None
        seat: Seat | None = None
        try:
            if parsed.auto:
                raise MailRejected(f"auto-reply or bounce ({parsed.auto})", reply=False,
                                   status="ignored")
            if not parsed.sender:
                raise MailRejected("no sender address", reply=False, status="ignored")
            seat, game, env = self._route(s, parsed)
            inbound.game_id, inbound.seat = game.id, seat.seat
            outcome = self._play(s, game, seat, env, parsed, now)
            inbound.status, inbound.note = outcome.status, outcome.note
            s.add(inbound)
            return outcome
        except MailRejected as r:
            inbound.status, inbound.note = r.status, r.reason
            log.info("mail %s from %s %s: %s", parsed.message_id, shown_address(parsed.sender),
                     r.status, r.reason)
            if isinstance(r, Intruder):
                inbound.game_id, inbound.seat = r.seat.game_id, r.seat.seat
                self._tell_owner(s, r.seat, parsed.sender, now)
            if r.reply:
                self._refuse(s, parsed, now, r)
            s.add(inbound)
            return Outcome(r.status, inbound.game_id, inbound.seat, r.reason)
        except CommandFailed as f:
            assert game is not None and seat is not None
            inbound.status, inbound.note = "rejected", f.error.message
            self._queue_command_error(s, parsed, now, game, seat, f)
            s.add(inbound)
            return Outcome("rejected", game.id, seat.seat, f.error.message)

    def _route(self, s: Session, parsed: ParsedMail) -> tuple[Seat, Game, Envelope]:
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
        cfg = self.cfg
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
        if env is None:
            env = split_envelope(command_lines(parsed.text))
        game = get_game(s, seat.game_id)
        if game.finished:
            raise MailRejected(f"game {game.id} is over; nothing more can be played.")
        if game.paused:
            raise MailRejected(f"game {game.id} is paused by the moderator; your commands "
                               "were not applied. You will get a mail when it resumes.")
        return seat, game, env

    def _answered(self, s: Session, game: Game, parsed: ParsedMail) -> OutMail | None:
        """The moderator's mail of this game that the mail answers (the last of ours in
        In-Reply-To / References), if it names a version."""
        for ref in reversed(parsed.references):
            if answered_version(self.cfg, ref) is None:
                continue
            row = s.exec(select(OutMail).where(OutMail.message_id == ref)).first()
            if row is not None and row.game_id == game.id:
                return row
        return None

    def _play(self, s: Session, game: Game, seat: Seat, env: Envelope, parsed: ParsedMail,
              now: datetime) -> Outcome:
        events, state = self.load(s, game)
        version, answered = env.version, None
        if version is None:
            answered = self._answered(s, game, parsed)
            if answered is not None:
                found = answered_version(self.cfg, answered.message_id)
                assert found is not None
                version = found[1]
        if version is not None and version != game.version:
            names = [p.name for p in state.players]
            changes = [describe_event(e, names, seat.seat)
                       for e in events_visible_to(events[version:], seat.seat)] \
                if version < game.version else []
            if answered is not None:
                sent = as_utc(answered.created)
                assert sent is not None
                what = (f"your mail answers the moderator's mail of v{version} "
                        f"({sent.strftime('%a %d %b %Y %H:%M UTC')}), but the game is at "
                        f"v{game.version} now")
            else:
                what = (f"your mail was written against v{version}, but the game is at "
                        f"v{game.version} now")
            raise CommandFailed(env.version_line, StaleOrderError(
                f"{what}. Read the latest status mail and send your commands again in "
                "a reply to it (or begin with the line "
                f"'@v{game.version}')."), changes)
        if not env.commands:
            raise CommandFailed(None, NotationError(no_commands(env.ignored, grammar=GRAMMAR)))
        digest = self._guard(s, game, seat, env, parsed, now)
        if isinstance(digest, Outcome):
            return digest
        played = play_lines(state, seat.seat, env.commands, game.seed, self.tracker(s, game))
        played.ignored = shown_lines(env.ignored, grammar=GRAMMAR)
        seats = seats_of(s, game.id)
        self._commit(s, game, seats, state, events, played, now, source=parsed.message_id,
                     sender=seat, in_reply_to=parsed.message_id, references=parsed.references,
                     notice=" ".join(played.notices))
        if digest is not None:
            s.add(PlayedMail(game_id=game.id, seat=seat.seat, digest=digest,
                             version=state.version, message_id=parsed.message_id[:500],
                             created=now))
        return Outcome("accepted", game.id, seat.seat, "; ".join(played.echo),
                       len(played.events))

    def _guard(self, s: Session, game: Game, seat: Seat, env: Envelope, parsed: ParsedMail,
               now: datetime) -> str | None | Outcome:
        """The abuse limits of `pbem.guard`, checked before a mail is played: the
        command cap, a repeat of a mail already played (refused with a reply to the
        seat's owner; the returned Outcome), and the seat's hourly rate limit.

        Returns the mail's digest to store once it is played (None: it has none).

        Raises:
            CommandFailed: more command lines than `max_commands`.
            MailRejected: the seat is over its rate limit.
        """
        cap = self.cfg.max_commands
        if len(env.commands) > cap:
            raise CommandFailed(env.commands[cap], IllegalMoveError(
                f"your mail holds {len(env.commands)} command lines; the moderator takes at "
                f"most {cap} in one mail. Nothing was applied: send fewer commands at a "
                "time.", "too-many-commands"))
        digest = guard.mail_digest(seat.seat, [ln.text for ln in env.commands], parsed.date,
                                   parsed.in_reply_to)
        before = guard.played_before(s, game.id, digest) if digest else None
        if before is not None:
            reason = (f"this mail repeats one already played at v{before.version} (same "
                      f"commands, Date and In-Reply-To; first received as "
                      f"{before.message_id}), so it was not played again. To play the same "
                      "command once more, write a new mail.")
            self._queue_refusal(s, parsed, now, game, seat, reason)
            return Outcome("rejected", game.id, seat.seat, reason)
        limit = self.cfg.seat_mails_per_hour
        since = now - guard.WINDOW
        if guard.accepted_since(s, game.id, seat.seat, since) >= limit:
            told = guard.flood_refused_since(s, game.id, seat.seat, since)
            raise MailRejected(
                f"{guard.FLOOD_NOTE}the seat {seat.name} has had {limit} mails played in the "
                f"last hour, the most this moderator plays per seat; your commands were not "
                "applied. Send them again later (further mails this hour get no reply).",
                reply=not told)
        return digest

    def _queue_refusal(self, s: Session, parsed: ParsedMail, now: datetime, game: Game,
                       seat: Seat, reason: str) -> None:
        """An error reply to the seat's owner (not to whoever sent the mail)."""
        ctx = self._error_ctx(game, game.version)
        ctx.update(intro=f"Game {game.id}: a mail for your seat was not applied.",
                   reason=reason)
        text, html = self.renderer.render("error", ctx)
        s.add(make_mail(self.cfg, game_id=game.id, kind="error", to=seat.email,
                        subject=self._subject(game.id, "not applied: repeated mail"),
                        text=text, html=html, now=now,
                        reply_to=self.cfg.reply_address(seat.token),
                        in_reply_to=parsed.message_id, references=parsed.references))

    # ------------------------------------------------------------------- committing

    def _commit(self, s: Session, game: Game, seats: Sequence[Seat], before: State,
                events_before: Sequence[Event], played: Played, now: datetime, *,
                source: str, sender: Seat | None = None, in_reply_to: str | None = None,
                references: Sequence[str] = (), notice: str = "", first: bool = False) -> None:
        """Store what was played and queue every mail it causes, in session `s`."""
        state = played.state
        digest = append_events(s, game, played.events, now)
        n = count_moves(s, game.id)
        for seat_no, text, version in played.moves:
            s.add(MoveRow(game_id=game.id, n=n, seat=seat_no, command=text, version=version,
                          source=source[:500], created=now))
            n += 1
        self._trackers[game.id] = (game.version, n, played.tracker)
        if state.finished:
            game.finished, game.deadline = True, None
            notice = (notice + " " if notice else "") + (
                f"The seed of this game was {game.seed!r} with salt {game.salt!r}. Check them "
                "against the commitment in your first mail, and the whole game with "
                f"'pbem verify' on the log of 'pbem export {game.id}' (docs/trust.md).")
        elif first or set(to_act(state)) != set(to_act(before)):
            self._new_deadline(game, now)
        s.add(game)
        all_events = [*events_before, *played.events]
        self._cache[game.id] = (game.version, all_events, state)
        for seat in seats:
            own = sender is not None and seat.seat == sender.seat
            self._queue_status(s, game, seat, state, all_events, now, digest,
                               tracker=played.tracker, echo=played.echo if own else (),
                               ignored=played.ignored if own else (),
                               in_reply_to=in_reply_to if own else None,
                               references=references if own else (), notice=notice)
            drawn = [e for e in played.events
                     if isinstance(e, CardsDrawn | ProfessionsDealt) and e.seat == seat.seat]
            if drawn:
                self._queue_private(s, game, seat, state, drawn, now)

    def _new_deadline(self, game: Game, now: datetime) -> None:
        if game.turn_hours > 0 and not game.paused:
            game.deadline = now + timedelta(hours=game.turn_hours)
        else:
            game.deadline = None
        game.reminded = game.late_notified = False

    def _subject(self, game_id: str, text: str) -> str:
        return f"[{game_id}] {text}"

    def _legal(self, state: State, seat: int, tracker: Tracker = START) -> list[str]:
        costs = state.rules.building_cost
        cost = costs[min(state.players[seat].builders, len(costs) - 1)]
        return summarise_commands([*legal_commands(state, seat),
                                   *legal_undo_commands(GAME, state, tracker, seat)], cost)

    def _queue_status(self, s: Session, game: Game, seat: Seat, state: State,
                      events: Sequence[Event], now: datetime, digest: str, *,
                      tracker: Tracker = START, echo: Sequence[str] = (),
                      ignored: Sequence[str] = (), in_reply_to: str | None = None,
                      references: Sequence[str] = (), notice: str = "") -> None:
        view = view_for(state, seat.seat)
        names = [p.name for p in state.players]
        since = events[seat.mailed_version:]
        changes = [describe_event(e, names, seat.seat)
                   for e in events_visible_to(since, seat.seat)]
        ctx = status_context(view, game_id=game.id, changes=changes, echo=echo,
                             ignored=ignored,
                             legal=self._legal(state, seat.seat, tracker),
                             deadline=game.deadline, tz=seat.tz, notice=notice,
                             position=head(state.version, digest),
                             undo_line=undo_line(state, tracker, seat.seat))
        text, html = self.renderer.render("status", ctx)
        s.add(make_mail(self.cfg, game_id=game.id, kind="status", to=seat.email,
                        subject=self._subject(game.id, headline(view, seat.name)), text=text,
                        html=html, now=now, reply_to=self.cfg.reply_address(seat.token),
                        in_reply_to=in_reply_to, references=references, version=state.version))
        seat.mailed_version = state.version
        s.add(seat)

    def _queue_private(self, s: Session, game: Game, seat: Seat, state: State,
                       drawn: Sequence[Event], now: datetime) -> None:
        names = [p.name for p in state.players]
        lines = [describe_event(e, names, seat.seat) for e in drawn]
        ctx = {"game_id": game.id, "name": seat.name, "version": state.version,
               "lines": lines, "legal": self._legal(state, seat.seat)}
        text, html = self.renderer.render("private", ctx)
        s.add(make_mail(self.cfg, game_id=game.id, kind="private", to=seat.email,
                        subject=self._subject(game.id, "your cards (private)"), text=text,
                        html=html, now=now, reply_to=self.cfg.reply_address(seat.token),
                        version=state.version))

    def _error_ctx(self, game: Game, version: int) -> dict[str, Any]:
        return {"game_id": game.id, "version": version, "line_text": "",
                "line_number": 0, "caret": "", "candidates": [], "expected": [], "legal": [],
                "help": "", "changes": [], "position": ""}

    def _refuse(self, s: Session, parsed: ParsedMail, now: datetime, r: MailRejected) -> None:
        """Answer a mail that plays nothing, naming no seat's cards, options, position
        or token. A registered address gets the reason; any other address at most
        one fixed refusal a day (`stranger_replies`), with a fixed subject."""
        if is_registered(s, parsed.sender):
            reason = r.reason
            subject = parsed.subject if parsed.subject.lower().startswith("re:") \
                else f"Re: {parsed.subject}" if parsed.subject else STRANGER_SUBJECT
            threading: dict[str, Any] = {"in_reply_to": parsed.message_id,
                                         "references": parsed.references}
        elif self._may_answer_stranger(s, parsed.sender, now):
            reason, subject, threading = STRANGER_REPLY, STRANGER_SUBJECT, {}
        else:
            log.info("no reply to %s: not registered, answered within a day",
                     shown_address(parsed.sender))
            return
        text, html = self.renderer.render("refusal", {"reason": reason})
        s.add(make_mail(self.cfg, game_id=None, kind="error", to=parsed.sender,
                        subject=subject[:200], text=text, html=html, now=now, **threading))

    def _may_answer_stranger(self, s: Session, address: str, now: datetime) -> bool:
        """Whether an address registered for no seat may be answered now (and if so,
        note that it was)."""
        if self.cfg.stranger_replies == "never":
            return False
        row = s.get(StrangerReply, address)
        last = as_utc(row.last_reply) if row is not None else None
        if last is not None and now - last < STRANGER_INTERVAL:
            return False
        row = row or StrangerReply(address=address, last_reply=now)
        row.last_reply = now
        s.add(row)
        return True

    def _tell_owner(self, s: Session, seat: Seat, sender: str, now: datetime) -> None:
        """Tell a seat's registered addresses that a mail from another address reached
        its reply address; nothing of that mail is quoted."""
        game = get_game(s, seat.game_id)
        title = "a mail from another address reached your reply address"
        lines = [f"A mail from {shown_address(sender)} reached the reply address of your "
                 f"seat {seat.name} (or named its token). That address is not registered "
                 "for your seat, so nothing in the mail was executed.",
                 "If it was you, send from your registered address, or ask the moderator "
                 "to register the other one. If not, your reply address was passed on "
                 "(a Cc, a Reply-All or a forwarded mail): the moderator can give your "
                 "seat a new one."]
        ctx = {"game_id": game.id, "title": title, "lines": lines, "turn_line": "",
               "deadline_utc": "", "deadline_local": "", "version": game.version,
               "position": f"v{game.version}"}
        text, html = self.renderer.render("notice", ctx)
        for addr in seat_addresses(s, seat):
            s.add(make_mail(self.cfg, game_id=game.id, kind="notice", to=addr,
                            subject=self._subject(game.id, title), text=text, html=html,
                            now=now, reply_to=self.cfg.reply_address(seat.token),
                            version=game.version))

    def _queue_command_error(self, s: Session, parsed: ParsedMail, now: datetime, game: Game,
                             seat: Seat, f: CommandFailed) -> None:
        """The reply to a refused mail of the seat's owner: the line, the reason, and
        the commands legal in the position that still stands (the one before the mail)."""
        e = f.error
        ctx = self._error_ctx(game, game.version)
        ctx["intro"] = f"Game {game.id}: your commands were not applied."
        ctx["reason"] = e.message
        if f.line is not None:
            ctx["line_text"], ctx["line_number"] = f.line.text, f.line.number
            if isinstance(e, NotationError):
                ctx["caret"] = " " * max(0, e.column - 1) + "^ column " + str(e.column)
                ctx["candidates"] = list(e.candidates)
                ctx["expected"] = list(e.expected)
        _, before = self.load(s, game)
        ctx["legal"] = self._legal(before, seat.seat, self.tracker(s, game))
        ctx["changes"] = f.changes
        ctx["position"] = head(game.version, head_hash(s, game.id, game.version))
        text, html = self.renderer.render("error", ctx)
        s.add(make_mail(self.cfg, game_id=game.id, kind="error", to=parsed.sender,
                        subject=self._subject(game.id, "not applied: " + e.kind),
                        text=text, html=html, now=now,
                        reply_to=self.cfg.reply_address(seat.token),
                        in_reply_to=parsed.message_id, references=parsed.references,
                        version=game.version))

    # ------------------------------------------------------------------- moderator commands

    def announce(self, s: Session, game: Game, title: str, lines: Sequence[str], now: datetime,
                 *, seats: Sequence[Seat] | None = None, kind: str = "notice",
                 extra_to: Sequence[str] = ()) -> None:
        """Queue a notice to every seat of a game (or to `seats`)."""
        _, state = self.load(s, game)
        view = view_for(state, None)
        position = head(game.version, head_hash(s, game.id, game.version))
        targets = list(seats if seats is not None else seats_of(s, game.id))
        for seat in targets:
            utc, local = when(game.deadline, seat.tz)
            ctx = {"game_id": game.id, "title": title, "lines": list(lines),
                   "turn_line": turn_line(view, seat.name), "deadline_utc": utc,
                   "deadline_local": local, "version": game.version, "position": position}
            text, html = self.renderer.render("notice", ctx)
            s.add(make_mail(self.cfg, game_id=game.id, kind=kind, to=seat.email,
                            subject=self._subject(game.id, title), text=text, html=html,
                            now=now, reply_to=self.cfg.reply_address(seat.token),
                            version=game.version))
        for addr in extra_to:
            ctx = {"game_id": game.id, "title": title, "lines": list(lines),
                   "turn_line": "", "deadline_utc": "", "deadline_local": "",
                   "version": game.version, "position": position}
            text, html = self.renderer.render("notice", ctx)
            s.add(make_mail(self.cfg, game_id=game.id, kind=kind, to=addr,
                            subject=self._subject(game.id, title), text=text, html=html,
                            now=now))

    def _active(self, s: Session, game_id: str) -> Game:
        game = get_game(s, game_id)
        if game.finished:
            raise PbemError(f"game {game_id} is over")
        return game

    def pause(self, game_id: str, now: datetime, reason: str = "") -> None:
        with self.store.transaction() as s:
            game = self._active(s, game_id)
            game.paused, game.deadline = True, None
            s.add(game)
            self.announce(s, game, "paused", ["The moderator paused the game." +
                                              (f" Reason: {reason}" if reason else ""),
                                              "Mails sent while it is paused are not applied."],
                          now)

    def resume(self, game_id: str, now: datetime) -> None:
        with self.store.transaction() as s:
            game = self._active(s, game_id)
            game.paused = False
            self._new_deadline(game, now)
            s.add(game)
            self.announce(s, game, "resumed", ["The moderator resumed the game."], now)

    def extend(self, game_id: str, hours: float, now: datetime) -> datetime:
        """Move the current deadline `hours` later (from now if none is set)."""
        with self.store.transaction() as s:
            game = self._active(s, game_id)
            base = as_utc(game.deadline) or now
            game.deadline = base + timedelta(hours=hours)
            game.reminded = game.late_notified = False
            s.add(game)
            self.announce(s, game, "deadline extended",
                          [f"The moderator extended the deadline by {hours:g} hours."], now)
            return game.deadline

    def _seat(self, s: Session, game_id: str, seat_name: str) -> tuple[Game, Seat]:
        game = self._active(s, game_id)
        seat = next((x for x in seats_of(s, game_id) if x.name == seat_name.lower()), None)
        if seat is None:
            raise UnknownGameError(f"game {game_id} has no seat {seat_name!r}")
        return game, seat

    def _check_free(self, s: Session, seat: Seat, addresses: Sequence[str]) -> None:
        for other in seats_of(s, seat.game_id):
            if other.seat != seat.seat:
                taken = set(seat_addresses(s, other)) & set(addresses)
                if taken:
                    raise PbemError(f"{', '.join(sorted(taken))} is registered for "
                                    f"{other.name} in game {seat.game_id}")

    def replace(self, game_id: str, seat_name: str, now: datetime, *, emails: Sequence[str],
                person: str | None = None, tz: str | None = None) -> None:
        """Give a seat to a new player: new addresses (the first is where mails go) and
        a new token; the seat, its name in the notation and everything it holds stay.

        Raises:
            ValueError: a malformed address or time zone.
            PbemError: no such game or seat, or an address of another seat.
        """
        addresses = addresses_of(emails)
        if tz:
            _check_tz(tz)
        if person is not None:
            person = check_person_name(person)
        with self.store.transaction() as s:
            game, seat = self._seat(s, game_id, seat_name)
            self._check_free(s, seat, addresses)
            old = seat_addresses(s, seat)
            for row in s.exec(select(SeatAddress).where(SeatAddress.game_id == game_id)
                              .where(SeatAddress.seat == seat.seat)):
                s.delete(row)
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
            self.announce(s, game, f"{seat.name} has a new player", [line], now,
                          extra_to=[a for a in old if a not in addresses])
            events, state = self.load(s, game)
            self._queue_status(s, game, seat, state, events, now,
                               head_hash(s, game.id, game.version),
                               tracker=self.tracker(s, game),
                               notice=f"You now play the seat {seat.name}.")

    def addresses(self, game_id: str, seat_name: str) -> list[str]:
        """The addresses registered for a seat, the main one (where mails go) first."""
        with self.store.read() as s:
            game = get_game(s, game_id)
            seat = next((x for x in seats_of(s, game.id) if x.name == seat_name.lower()), None)
            if seat is None:
                raise UnknownGameError(f"game {game_id} has no seat {seat_name!r}")
            return seat_addresses(s, seat)

    def add_address(self, game_id: str, seat_name: str, address: str, now: datetime) -> None:
        """Register one more address for a seat; mails from it are played for the seat
        (with the seat's token). The seat's addresses are told.

        Raises:
            ValueError: not a mail address.
            PbemError: no such game or seat, already registered, or another seat's.
        """
        (addr,) = addresses_of([address])
        with self.store.transaction() as s:
            game, seat = self._seat(s, game_id, seat_name)
            if addr in seat_addresses(s, seat):
                raise PbemError(f"{addr} is already registered for {seat.name}")
            self._check_free(s, seat, [addr])
            s.add(SeatAddress(game_id=game_id, seat=seat.seat, address=addr))
            self.announce(s, game, "address added",
                          [f"The moderator registered {addr} for your seat {seat.name}: "
                           "replies from it to your status mails are played."], now,
                          seats=[seat], extra_to=[a for a in seat_addresses(s, seat)
                                                  if a != seat.email])

    def remove_address(self, game_id: str, seat_name: str, address: str,
                       now: datetime) -> None:
        """Unregister an address of a seat. Removing the main one makes the next one
        main; removing the last one is refused. The seat's addresses are told.

        Raises:
            PbemError: no such game, seat or registered address; the last address.
        """
        addr = address.strip().lower()
        with self.store.transaction() as s:
            game, seat = self._seat(s, game_id, seat_name)
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
            for row in rows:
                if row.address in (addr, seat.email):
                    s.delete(row)
            s.flush()
            self.announce(s, game, "address removed",
                          [f"The moderator removed {addr} from your seat {seat.name}: mails "
                           f"from it are no longer played. Mails now go to {seat.email}."],
                          now, seats=[seat],
                          extra_to=[a for a in registered if a != seat.email])

    # ------------------------------------------------------------------- deadlines

    def auto_move(self, s: Session, game: Game, now: datetime) -> list[str]:
        """Play the deadline policy's command for every seat to act. Returns
        `seat: command` lines for the operator; the players' notice names only the
        seats (a kept or chosen card is private), and each seat reads its own result
        in its status mail."""
        events, state = self.load(s, game)
        seats = seats_of(s, game.id)
        played = Played(state, tracker=self.tracker(s, game))
        done: list[str] = []
        late: list[str] = []
        for seat_no in to_act(state):
            if seat_no == CHANCE or seat_no not in to_act(played.state):
                continue
            cmd = auto_command(played.state, seat_no)
            played.play(seat_no, cmd)
            late.append(_seat_name(seats, seat_no))
            done.append(f"{late[-1]}: {format_command(cmd)}")
            resolve_chance(played, game.seed)
        notice = " ".join([f"The deadline passed; the moderator played for {', '.join(late)} "
                           "(this game's policy for late players).", *played.notices])
        self._commit(s, game, seats, state, events, played, now, source="auto", notice=notice)
        return done

    def due_games(self, now: datetime) -> list[str]:
        with self.store.read() as s:
            rows = s.exec(select(Game.id).where(col(Game.finished).is_(False))
                          .where(col(Game.paused).is_(False))
                          .where(col(Game.deadline).is_not(None)))
            return list(rows)

    def waiting_for(self, s: Session, game: Game) -> list[Seat]:
        _, state = self.load(s, game)
        acting = set(to_act(state))
        return [x for x in seats_of(s, game.id) if x.seat in acting]


def queued(store: Store, game_id: str | None = None) -> list[OutMail]:
    """Outbox rows (for tests and `status`)."""
    with store.read() as s:
        q = select(OutMail).order_by(col(OutMail.id))
        if game_id is not None:
            q = q.where(OutMail.game_id == game_id)
        return list(s.exec(q))
