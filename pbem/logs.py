"""Game logs: replay one to a checked result, and write one from moves.

Pure: text in, a `ReplayResult` out; no I/O, no clock, no global random.

`replay_log` applies each line as the notation reader yields it and stops at the first
error. It never raises: a bad log, whatever its bytes, is a result with `ok=False` and
an error naming the line and column (an exception inside would be a bug, and is reported
as an error of kind "internal" rather than raised).

Two kinds of log (see docs/logs.md):

* **seeded** (a `Seed` tag): every deal and draw is derived from the seed with
  `engine.princes.game.seeded_chance`. Chance lines are optional; a chance line that is there
  must name the cards the seed gives (compared as sets).
* **recorded** (no `Seed` tag): a chance line is required wherever a deal or draw is
  due; the engine checks that the named cards could be there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalMoveError, NotationError
from engine.princes.commands import Command, Deal, Draw
from engine.princes.definition import GAME
from engine.princes.events import Event
from engine.princes.game import chance_due, new_state, seeded_chance, start_game, to_act
from engine.princes.legal import legal_commands
from engine.princes.state import CHANCE, State
from engine.undo import START, Tracker
from engine.undo import play as play_command
from notation import (
    Chance,
    Comment,
    GameLog,
    LogItem,
    Move,
    RoundMarker,
    Tag,
    format_log,
    iter_log,
    known_tags,
    split_players,
)
from notation.princes import GRAMMAR, format_command, is_hidden
from notation.words import quote, visible

GAME_NAME = "princes-of-florence"
VARIANTS = ("standard",)
MIN_PLAYERS, MAX_PLAYERS = 3, 5
LEGAL_CAP = 20
"""At most this many legal alternatives are listed with an illegal-move error."""

KINDS = ("syntax", "ambiguous", "illegal", "internal")
"""Error kinds `replay_log` gives. The CLI adds "io" for a file it cannot read."""


@dataclass(frozen=True, slots=True)
class LogError:
    """The first bad line of a log.

    `line` and `column` are 1-based (line 0: no line, e.g. an unreadable file). `rule`
    is the engine's id of the rule broken (illegal errors only). `legal` lists the
    acting player's legal commands at that point as canonical strings (illegal errors
    only; selling fame, legal at any time, is left out), at most LEGAL_CAP of them,
    with `legal_more` counting the rest. `expected` and `candidates` come from the
    notation reader (syntax and ambiguous errors).
    """

    line: int
    column: int
    kind: str
    message: str
    rule: str | None = None
    legal: tuple[str, ...] = ()
    legal_more: int = 0
    expected: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Names and tag values come from the log: what does not show is escaped.
        object.__setattr__(self, "message", visible(self.message))
        object.__setattr__(self, "candidates", tuple(map(visible, self.candidates)))
        object.__setattr__(self, "legal", tuple(map(visible, self.legal)))

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "column": self.column,
            "kind": self.kind,
            "message": self.message,
            "rule": self.rule,
            "legal": list(self.legal),
            "legal_more": self.legal_more,
            "expected": list(self.expected),
            "candidates": list(self.candidates),
        }


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's score: fame (prestige points, PP) and florins."""

    name: str
    fame: int
    florins: int


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What a log replays to, up to its end or its first bad line.

    `state` is the position after the last good line (None when no game could be set
    up, e.g. no Players tag); `events` are the engine events that led to it. `lines` is
    the number of lines read: the error's line, else the log's length (or the `upto`
    line). `players` are in seat order; `standings()` sorts them.
    """

    file: str
    ok: bool
    error: LogError | None
    finished: bool
    round: int
    phase: str
    players: tuple[Standing, ...]
    winners: tuple[str, ...]
    to_act: tuple[str, ...]
    seeded: bool
    tags: tuple[tuple[str, str], ...]
    state: State | None
    events: tuple[Event, ...]
    lines: int
    hidden: int = 0  # a public log: its first line with hidden cards (0: none)

    def standings(self) -> list[Standing]:
        """Players by fame, then florins (the tie-break of ruling R16), best first."""
        return sorted(self.players, key=lambda s: (-s.fame, -s.florins))

    def to_json(self) -> dict[str, Any]:
        """The JSON object `pbem replay --json` prints (see docs/logs.md)."""
        return {
            "file": self.file,
            "ok": self.ok,
            "error": self.error.to_json() if self.error else None,
            "finished": self.finished,
            "round": self.round,
            "phase": self.phase,
            "seeded": self.seeded,
            "players": [{"name": s.name, "pp": s.fame, "florins": s.florins}
                        for s in self.players],
            "winner": ", ".join(self.winners) if self.finished and self.winners else None,
            "winners": list(self.winners),
            "to_act": list(self.to_act),
            "lines": self.lines,
            "hidden": self.hidden or None,
        }


class _Stop(Exception):
    """Ends a replay at a bad line."""

    def __init__(self, error: LogError) -> None:
        super().__init__(error.message)
        self.error = error


def legal_alternatives(
    state: State, seat: int, cap: int = LEGAL_CAP,
) -> tuple[tuple[str, ...], int]:
    """The canonical strings of the seat's legal commands now (selling fame left out),
    at most `cap` of them, and how many more there are."""
    if seat == CHANCE:
        return (), 0
    commands = legal_commands(state, seat, free=False)
    shown = tuple(format_command(c) for c in commands[:cap])
    return shown, max(0, len(commands) - cap)


def parse_result_tag(value: str) -> dict[str, int]:
    """The fame per player of a Result tag value like "anna 66, dirk 61, bas 58".

    Each entry is a name and a number, optionally followed by "PP". Raises ValueError
    with a message for anything else.
    """
    out: dict[str, int] = {}
    for part in value.split(","):
        words = part.split()
        if len(words) == 3 and words[2].lower() == "pp":
            words = words[:2]
        if len(words) != 2 or not (words[1].isdigit() and words[1].isascii()) \
                or len(words[1]) > 6:
            shown = part.strip() or "an empty entry"
            raise ValueError(f"expected entries like 'anna 66' separated by commas, found "
                             f"{quote(shown)}")
        name = words[0].lower()
        if name in out:
            raise ValueError(f"player {quote(name)} is named twice")
        out[name] = int(words[1])
    return out


def result_tag(state: State) -> str:
    """The Result tag value of a position: every player and fame, best first."""
    ranked = sorted(state.players, key=lambda p: (-p.fame, -p.florins))
    return ", ".join(f"{p.name} {p.fame}" for p in ranked)


def _same_draw(cmd: Deal | Draw, state: State) -> bool:
    """True if `cmd` states the deal or draw due now (cards aside)."""
    due = chance_due(state)
    if due is None or isinstance(cmd, Deal) != (due.kind == "deal"):
        return False
    if cmd.player != state.players[due.seat].name:
        return False
    return not isinstance(cmd, Draw) or cmd.deck == due.deck


class _Replay:
    """One replay in progress (see `replay_log`)."""

    def __init__(self, text: str, file: str, game: str | None = None) -> None:
        self.text = text
        self.file = file
        self.game = game  # the game named by the caller (--game), if any
        self.state: State | None = None
        self.events: list[Event] = []
        self.tags: list[tuple[str, str]] = []
        self.tag_lines: dict[str, int] = {}
        self.players: tuple[str, ...] = ()
        self.seats: dict[str, int] = {}
        self.variant = "standard"
        self.seed: str | None = None
        self.result: dict[str, int] | None = None
        self.marked: dict[int, int] = {}  # round -> line of its marker
        self.tracker: Tracker = START  # the undo protocol (engine.undo)
        self.line = 0
        self.hidden = 0  # the first line with hidden cards: played no further

    # -- helpers ------------------------------------------------------------------

    def _line_text(self, number: int) -> str:
        text = self.text[1:] if self.text.startswith("\ufeff") else self.text
        lines = text.split("\n")
        if not 1 <= number <= len(lines):
            return ""
        line = lines[number - 1]
        return line[:-1] if line.endswith("\r") else line

    def _column(self, number: int, item: LogItem | Tag) -> int:
        """Where the meaningful part of a line starts (1-based)."""
        line = self._line_text(number)
        hash_at = line.find("#")
        content = line if hash_at < 0 else line[:hash_at]
        if isinstance(item, Tag):
            quote_at = content.find('"')
            return quote_at + 2 if quote_at >= 0 else 1
        if isinstance(item, Move):
            colon = content.find(":")
            rest = content[colon + 1:]
            return colon + 2 + len(rest) - len(rest.lstrip())
        if isinstance(item, RoundMarker):
            words = content.split()
            if len(words) >= 2:
                return content.find(words[1], content.find(words[0]) + len(words[0])) + 1
        return len(content) - len(content.lstrip()) + 1

    def _stop(self, item: LogItem | Tag, kind: str, message: str, rule: str | None = None,
              legal: tuple[tuple[str, ...], int] = ((), 0)) -> _Stop:
        return _Stop(LogError(item.line, self._column(item.line, item), kind, message, rule,
                              legal[0], legal[1]))

    def _illegal(self, item: LogItem | Tag, error: IllegalMoveError, seat: int) -> _Stop:
        legal: tuple[tuple[str, ...], int] = ((), 0)
        if self.state is not None and seat != CHANCE:
            legal = legal_alternatives(self.state, seat)
        return self._stop(item, "illegal", error.message, error.rule, legal)

    # -- tags ---------------------------------------------------------------------

    def tag(self, tag: Tag) -> None:
        self.tags.append((tag.name, tag.value))
        key = tag.name.lower()
        self.tag_lines[key] = tag.line
        value = tag.value.strip()
        if key == "game":
            if self.game is not None and value.lower() != self.game:
                raise self._stop(tag, "illegal", f"this is a log of {quote(value)}, not of "
                                 f"{self.game!r} (--game)", "game")
            if value.lower() != GAME_NAME:
                raise self._stop(tag, "illegal", f"this is a log of {quote(value)}; pbem reads "
                                 f"logs of {GAME_NAME!r} only", "game")
        elif key == "variant":
            if value.lower() not in VARIANTS:
                raise self._stop(tag, "illegal", f"unknown variant {quote(value)}; known: "
                                 f"{', '.join(VARIANTS)}", "variant")
            self.variant = value.lower()
        elif key == "players":
            names = split_players(tag.value)
            if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
                raise self._stop(tag, "illegal", f"the game is for {MIN_PLAYERS} to "
                                 f"{MAX_PLAYERS} players, not {len(names)}", "players")
            self.players = names
        elif key == "seed":
            if not tag.value:
                raise self._stop(tag, "illegal", "the Seed tag is empty; a recorded log "
                                 "has no Seed tag at all", "seed")
            self.seed = tag.value
        elif key == "result":
            try:
                self.result = parse_result_tag(tag.value)
            except ValueError as e:
                raise self._stop(tag, "syntax", f"bad Result tag: {e}") from None

    def setup(self, item: LogItem) -> None:
        """Start the game once the tags are read (at the first line after them)."""
        if self.game not in (None, GAME_NAME) and "game" not in self.tag_lines:
            raise _Stop(LogError(item.line, 1, "illegal", f"pbem reads logs of {GAME_NAME!r} "
                                 f"only, not of {self.game!r} (--game)", "game"))
        if self.result is not None and set(self.result) != set(self.players):
            line = self.tag_lines["result"]
            bad = sorted(set(self.result) ^ set(self.players))
            where = "is not a player" if bad[0] in self.result else "is missing"
            raise _Stop(LogError(line, self._column(line, Tag(line, "Result", "")), "illegal",
                                 f"the Result tag does not match the players: {quote(bad[0])} "
                                 f"{where}", "result"))
        try:
            started = start_game(self.players, variant=self.variant,
                                 seeded=self.seed is not None)
        except IllegalMoveError as e:  # not reached: the tags were checked
            line = self.tag_lines.get("players", item.line)
            raise _Stop(LogError(line, 1, "illegal", e.message, e.rule)) from None
        self.state = new_state(started)
        self.seats = {name: seat for seat, name in enumerate(self.players)}
        self.events.append(started)

    # -- the body -----------------------------------------------------------------

    def resolve_seeded(self) -> None:
        """Apply the deals and draws the seed gives, while one is due."""
        state = self.state
        assert state is not None and self.seed is not None
        while chance_due(state) is not None:
            state, new, self.tracker = play_command(GAME, state, self.tracker, CHANCE,
                                                    seeded_chance(state, self.seed))
            self.events.extend(new)
        self.state = state

    def move(self, item: Move) -> None:
        state = self.state
        assert state is not None
        seat = self.seats[item.actor]
        if self.seed is not None:
            self.resolve_seeded()
            state = self.state
            assert state is not None
        else:
            due = chance_due(state)
            if due is not None and state.phase != "over":
                who = state.players[due.seat].name
                line = f"* deal {who}: ..." if due.kind == "deal" else \
                    f"* draw {who} {due.deck}: ..."
                raise self._stop(item, "illegal", f"a chance line is due before any move: "
                                 f"expected '{line}' naming the {due.n} cards, as this log "
                                 "has no Seed tag", "chance-missing")
        try:  # engine.undo: `undo`, `agree` and `refuse` lines too
            self.state, new, self.tracker = play_command(GAME, state, self.tracker, seat,
                                                         item.command)
        except IllegalMoveError as e:
            raise self._illegal(item, e, seat) from None
        self.events.extend(new)

    def chance(self, item: Chance) -> None:
        state = self.state
        assert state is not None
        cmd = item.command
        if self.seed is not None and chance_due(state) is not None:
            # Deals and draws the log leaves out come from the seed first.
            ahead, tracker, skipped = state, self.tracker, []
            while chance_due(ahead) is not None and not _same_draw(cmd, ahead):
                ahead, new, tracker = play_command(GAME, ahead, tracker, CHANCE,
                                                   seeded_chance(ahead, self.seed))
                skipped.extend(new)
            if chance_due(ahead) is not None:
                state = ahead
                self.events.extend(skipped)
                self.state, self.tracker = state, tracker
            want = seeded_chance(state, self.seed)
            if _same_draw(cmd, state) and sorted(cmd.cards) != sorted(want.cards):
                what = f"{want.deck} draw by" if isinstance(want, Draw) else "deal to"
                stray = [c for c in cmd.cards if c not in want.cards]
                detail = (f"{stray[0]!r} is not among its cards" if stray
                          else f"it gives {len(want.cards)} cards, not {len(cmd.cards)}")
                raise self._stop(item, "illegal", f"the {what} {want.player} does not match "
                                 f"the seed: {detail}", "chance-seed",
                                 ((format_command(want),), 0))
        try:
            self.state, new, self.tracker = play_command(GAME, state, self.tracker, CHANCE, cmd)
        except IllegalMoveError as e:
            raise self._illegal(item, e, CHANCE) from None
        self.events.extend(new)

    def round_marker(self, item: RoundMarker) -> None:
        state = self.state
        assert state is not None
        if item.number != state.round:
            if state.round == 0:
                message = (f"round {item.number} cannot start yet: round 1 starts once every "
                           "player has kept 3 professions")
            elif state.phase == "over":
                message = f"the game ended in round {state.round}; there is no round {item.number}"
            else:
                message = f"this is round {state.round}, not round {item.number}"
            raise self._stop(item, "illegal", message, "round")
        if item.number in self.marked:
            raise self._stop(item, "illegal", f"round {item.number} was already marked on line "
                             f"{self.marked[item.number]}", "round")
        self.marked[item.number] = item.line

    def run(self, upto: int | None) -> None:
        try:
            for entry in iter_log(self.text, grammar=GRAMMAR):
                if upto is not None and entry.line > upto and not isinstance(entry, Tag):
                    break  # the header is always read: the game exists from line 0 on
                self.line = entry.line
                if isinstance(entry, Tag):
                    self.tag(entry)
                    continue
                if isinstance(entry, Comment):
                    continue
                if self.state is None:
                    self.setup(entry)
                if not self.hidden and isinstance(entry, Move | Chance) \
                        and is_hidden(entry.command):
                    self.hidden = entry.line
                if self.hidden:
                    continue  # a public log: the rest is read for its notation only
                if isinstance(entry, Move):
                    self.move(entry)
                elif isinstance(entry, Chance):
                    self.chance(entry)
                else:
                    self.round_marker(entry)
        except NotationError as e:
            line = e.line if e.line is not None else self.line
            if upto is None or line <= upto:
                raise _Stop(LogError(line, e.column, e.kind, e.message,
                                     expected=e.expected, candidates=e.candidates)) from None
        if self.state is None:
            if not self.players:
                end = self.text.count("\n") + 1  # where the missing tag was looked for
                raise _Stop(LogError(end, 1, "syntax", 'expected a [Players "..."] tag naming 3 '
                                     "to 5 players before the end of the log"))
            self.setup(RoundMarker(self.line or 1, 0))
        if self.seed is not None and not self.hidden:
            self.resolve_seeded()
        if not self.hidden:
            self.check_result()

    def check_result(self) -> None:
        state = self.state
        if self.result is None or state is None or not state.finished:
            return
        for p in state.players:
            said = self.result[p.name]
            if said != p.fame:
                line = self.tag_lines["result"]
                raise _Stop(LogError(line, self._column(line, Tag(line, "Result", "")),
                                     "illegal", f"the Result tag gives {p.name} {said}, but the "
                                     f"game ends with {p.name} on {p.fame} PP", "result"))

    def finish(self, error: LogError | None, upto: int | None) -> ReplayResult:
        state = self.state
        if error is not None:
            lines = error.line
        else:
            text = self.text
            total = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
            lines = total if upto is None else min(upto, total)
        names = tuple(p.name for p in state.players) if state else self.players
        return ReplayResult(
            file=self.file,
            ok=error is None,
            error=error,
            finished=bool(state and state.finished),
            round=state.round if state else 0,
            phase=state.phase if state else "setup",
            players=tuple(Standing(p.name, p.fame, p.florins) for p in state.players)
            if state else (),
            winners=tuple(names[w] for w in state.winners) if state else (),
            to_act=tuple("chance" if s == CHANCE else names[s] for s in to_act(state))
            if state else (),
            seeded=self.seed is not None,
            tags=tuple(self.tags),
            state=state,
            events=tuple(self.events),
            lines=lines,
            hidden=self.hidden,
        )


def replay_log(text: str, *, file: str = "<log>", upto: int | None = None,
               game: str | None = None) -> ReplayResult:
    """Replay a game log, checking every line, up to its end or its first error.

    `upto`: stop after that line (1-based), for the position at a point of the log
    (the header tags are read whatever `upto` says; 0 gives the position at the start);
    errors after it are not looked for. Never raises: whatever the text, the result
    says what is wrong (an unexpected exception is reported as kind "internal").
    `game`: the game of a log without a [Game] tag (a log whose tag names another game
    is an error).
    """
    replay = _Replay(text, file, game)
    error: LogError | None = None
    try:
        replay.run(upto)
    except _Stop as stop:
        error = stop.error
    except Exception as exc:  # a bug: reported, never raised
        error = LogError(replay.line, 1, "internal",
                         f"internal error ({type(exc).__name__}: {exc}); please report it")
    return replay.finish(error, upto)


# --------------------------------------------------------------------------- writing


def _ordered_tags(tags: Iterable[tuple[str, str]] | Mapping[str, str],
                  players: Sequence[str]) -> list[tuple[str, str]]:
    pairs = list(tags.items()) if isinstance(tags, Mapping) else list(tags)
    if not any(name.lower() == "players" for name, _ in pairs):
        pairs.append(("Players", ", ".join(players)))
    rank = {name.lower(): i for i, name in enumerate(known_tags(GRAMMAR))}
    indexed = sorted(enumerate(pairs),
                     key=lambda ip: (rank.get(ip[1][0].lower(), len(rank)), ip[0]))
    return [pair for _, pair in indexed]


def format_game_log(
    players: Sequence[str],
    moves: Iterable[tuple[int, Command]],
    tags: Iterable[tuple[str, str]] | Mapping[str, str] = (),
    include_chance: bool = True,
) -> str:
    """The log text of a game: tags, then one line per move with `round N` markers.

    `moves` are (seat, command) pairs, seat CHANCE for deals and draws (written as
    chance lines unless `include_chance` is false: a seeded log may leave them out).
    `tags` are (name, value) pairs; known tags are written in the order of
    notation.known_tags(GRAMMAR), others after them, and a Players tag is added from
    `players` unless given. The moves are replayed to place the round markers.

    Raises:
        IllegalMoveError: a move is not legal where it stands.
    """
    names = tuple(players)
    state, tracker = new_state(start_game(names)), START
    items: list[LogItem] = []
    for seat, cmd in moves:
        round_before = state.round
        state, _, tracker = play_command(GAME, state, tracker, seat, cmd)
        if seat == CHANCE:
            if include_chance:
                assert isinstance(cmd, Deal | Draw)
                items.append(Chance(0, cmd))
        else:
            assert not isinstance(cmd, Deal | Draw)
            items.append(Move(0, names[seat], cmd))
        if state.round != round_before:
            items.append(RoundMarker(0, state.round))
    return format_log(GameLog(tuple(_ordered_tags(tags, names)), tuple(items)), grammar=GRAMMAR)


__all__ = [
    "KINDS",
    "LEGAL_CAP",
    "LogError",
    "ReplayResult",
    "Standing",
    "format_game_log",
    "legal_alternatives",
    "parse_result_tag",
    "replay_log",
    "result_tag",
]
