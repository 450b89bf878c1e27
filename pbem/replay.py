"""One game log replayed: the replay loop behind `pbem.logs.replay_log`, its error
and its result.

Pure, as `pbem.logs`, and importing engine and notation only (the shell's words for
an error's hint are passed in), so the compiled build (setup.py) can compile it: the
loop runs once for every line of every log replayed.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from itertools import chain
from typing import Any

from engine.errors import GameError, IllegalMoveError, NotationError
from engine.frozen import dataclass, quick_init
from engine.match import Match
from engine.protocol import CHANCE, Game, Standing, Variant, variant_for
from engine.registry import GAMES, get_game
from engine.undo import is_undo_command
from notation import (
    Chance,
    Comment,
    LogEntry,
    LogItem,
    Move,
    RoundMarker,
    Tag,
    split_players,
)
from notation.grammar import Grammar
from notation.limits import MAX_LINES
from notation.log import RawMove, iter_log_raw
from notation.registry import grammar_for
from notation.words import quote, visible

LEGAL_CAP = 20
"""At most this many legal alternatives are listed with an illegal-move error."""

LOOK_AHEAD = 8
"""A line that reads two ways (`engine.protocol.TableLog`) is judged by at most this
many of the same player's next lines."""

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


@quick_init  # one per replayed log: built quickly (`engine.frozen`)
@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What a log replays to, up to its end or its first bad line.

    `state` is the position after the last good line (None when no game could be set
    up, e.g. no Players tag); `events` are the engine events that led to it. `lines` is
    the number of lines read: the error's line, else the log's length (or the `upto`
    line). `players` are the standings in seat order (`engine.protocol.Standing`);
    `standings()` sorts them. `game` is the game that judged the log.
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
    state: Any
    events: tuple[Any, ...]
    lines: int
    hidden: int = 0  # a public log: its first line with hidden cards (0: none)
    game: Game[Any] | None = None

    def standings(self) -> list[Standing]:
        """Players best first (by place, then seat)."""
        return sorted(self.players, key=lambda s: (s.place, s.seat))

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
            "players": [standing_json(s) for s in self.players],
            "winner": ", ".join(self.winners) if self.finished and self.winners else None,
            "winners": list(self.winners),
            "to_act": list(self.to_act),
            "lines": self.lines,
            "hidden": self.hidden or None,
        }

def standing_json(s: Standing) -> dict[str, Any]:
    """A player's standing as `--json` shows it: name, the game's own numbers, score."""
    return {"name": s.name, **s.fields, "score": s.score}



def score_unit(s: Standing) -> str:
    """The word for a standing's score: the name of the game's first field when it
    holds the score (an abbreviation upper-cased: `PP`), else "points"."""
    first = next(iter(s.fields.items()), None)
    if first is None or first[1] != s.score:
        return "points"
    return first[0].upper() if len(first[0]) <= 3 else first[0]

class _Stop(Exception):
    """Ends a replay at a bad line."""

    def __init__(self, error: LogError) -> None:
        super().__init__(error.message)
        self.error = error


def legal_alternatives(
    game: Game[Any], state: Any, seat: int, cap: int = LEGAL_CAP,
) -> tuple[tuple[str, ...], int]:
    """The canonical strings of the seat's legal commands now (those legal at any time
    left out), at most `cap` of them, and how many more there are."""
    if seat == CHANCE:
        return (), 0
    commands = game.legal_commands(state, seat, anytime=False)
    format_command = grammar_for(game.name).format_command
    shown = tuple(format_command(c) for c in commands[:cap])
    return shown, max(0, len(commands) - cap)


RESULT_UNITS = ("pp", "vp", "points")
"""The units a Result tag's score may be followed by (any case)."""


def parse_result_tag(value: str) -> dict[str, int]:
    """The score per player of a Result tag value like "anna 66, dirk 61, bas 58".

    Each entry is a name and a number, optionally followed by a unit (`RESULT_UNITS`:
    "PP", "VP", "points"). Raises ValueError with a message for anything else.
    """
    out: dict[str, int] = {}
    for part in value.split(","):
        words = part.split()
        if len(words) == 3 and words[2].lower() in RESULT_UNITS:
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

def game_of(name: str | None) -> Game[Any]:
    """The registered game a log's [Game] tag names (None: the default game).

    Raises:
        GameError: no such game is registered; the message names the known games.
    """
    key = name.strip().lower() if name is not None else None
    if key is not None and key not in GAMES.names():
        known = " or ".join(repr(n) for n in GAMES.names())
        raise GameError(f"this is a log of {quote(name or '')}; pbem reads logs of "
                        f"{known} only")
    game: Game[Any] = get_game(key)
    return game


def _variant_of(game: Game[Any], name: str | None, players: int | None = None) -> Variant:
    """The variant named, else the one for `players` players (`variant_for`), else the
    game's first."""
    if name is not None:
        return game.variants[name]
    if players is not None:
        return game.variants[variant_for(game.variants, players)]
    return next(iter(game.variants.values()))


def _option_tags(game: Game[Any]) -> dict[str, Any]:
    """The game's options by their log tag (lowercase)."""
    return {o.tag.lower(): o for v in game.variants.values() for o in v.options}


class _Replay:
    """One replay in progress (see `replay`)."""

    def __init__(self, text: str, file: str, game: str | None,
                 chance_hint: Callable[[Game[Any], Any], str]) -> None:
        self.text = text
        self.file = file
        self.wanted = game  # the game named by the caller (--game), if any
        self.chance_hint = chance_hint
        self.game: Game[Any] | None = None
        self.match: Match | None = None
        self.tags: list[tuple[str, str]] = []
        self.tag_lines: dict[str, int] = {}
        self.players: tuple[str, ...] = ()
        self.seats: dict[str, int] = {}
        self.variant: str | None = None
        self.options: dict[str, str] = {}
        self.seed: str | None = None
        self.result: dict[str, int] | None = None
        self.marked: dict[int, int] = {}  # round -> line of its marker
        self.line = 0
        self.read: list[LogEntry | RawMove] = []  # every entry read, in the order of the lines
        self.last = MAX_LINES  # no line after it is played
        self.hidden = 0  # the first line with hidden cards: played no further
        self.outcome: Any = None  # the game's result, once `check_result` asked for it

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
        match = self.match
        if match is not None and seat != CHANCE:
            legal = legal_alternatives(match.game, match.state, seat)
        return self._stop(item, "illegal", error.message, error.rule, legal)

    def _game(self) -> Game[Any]:
        """The log's game: the one its [Game] tag named, else the default game."""
        if self.game is None:
            self.game = game_of(self.wanted)
        return self.game

    def _wanted_grammar(self) -> Grammar | None:
        """The notation to read the log by: the [Game] tag's (None), unless the
        caller named the game of a log without the tag."""
        if self.wanted is None or re.search(r"^\s*\[\s*game\b", self.text, re.I | re.M):
            return None
        try:
            return grammar_for(self.wanted)
        except GameError as e:
            raise _Stop(LogError(1, 1, "illegal", f"{e.message} (--game)", "game")) from None

    # -- tags ---------------------------------------------------------------------

    def tag(self, tag: Tag) -> None:
        self.tags.append((tag.name, tag.value))
        key = tag.name.lower()
        self.tag_lines[key] = tag.line
        value = tag.value.strip()
        if key == "game":
            if self.wanted is not None and value.lower() != self.wanted:
                raise self._stop(tag, "illegal", f"this is a log of {quote(value)}, not of "
                                 f"{self.wanted!r} (--game)", "game")
            try:
                self.game = game_of(value)
            except GameError as e:
                raise self._stop(tag, "illegal", e.message, "game") from None
        elif key == "variant":
            variants = self._game().variants
            if value.lower() not in variants:
                raise self._stop(tag, "illegal", f"unknown variant {quote(value)}; known: "
                                 f"{', '.join(variants)}", "variant")
            self.variant = value.lower()
        elif key == "players":
            names = split_players(tag.value)
            v = _variant_of(self._game(), self.variant, len(names))
            if not v.admits(len(names)):
                raise self._stop(tag, "illegal", f"the game is for {_counts(v)} players, "
                                 f"not {len(names)}", "players")
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
        else:
            option = _option_tags(self._game()).get(key)
            if option is not None:
                if value.lower() not in option.choices:
                    raise self._stop(tag, "illegal", f"the {option.tag} tag is "
                                     f"{' or '.join(repr(c) for c in option.choices)}, not "
                                     f"{quote(value)}", "option")
                self.options[option.name] = value.lower()

    def setup(self, item: LogItem) -> None:
        """Start the game once the tags are read (at the first line after them)."""
        if self.result is not None and set(self.result) != set(self.players):
            line = self.tag_lines["result"]
            bad = sorted(set(self.result) ^ set(self.players))
            where = "is not a player" if bad[0] in self.result else "is missing"
            raise _Stop(LogError(line, self._column(line, Tag(line, "Result", "")), "illegal",
                                 f"the Result tag does not match the players: {quote(bad[0])} "
                                 f"{where}", "result"))
        game = self._game()
        try:
            self.match = Match.start(game, self.players, variant=self.variant,
                                     options=self.options, seed=self.seed, in_place=True)
        except IllegalMoveError as e:  # not reached: the tags were checked
            line = self.tag_lines.get("players", item.line)
            raise _Stop(LogError(line, 1, "illegal", e.message, e.rule)) from None
        self.seats = {name: seat for seat, name in enumerate(self.players)}

    # -- the body -----------------------------------------------------------------

    def _chance_missing(self, item: Move) -> _Stop:
        """The error for a move of a recorded log where a chance line is due (and the
        move is not one the game allows before it)."""
        match = self.match
        assert match is not None
        return self._stop(item, "illegal", "a chance line is due before any move: "
                          f"{self.chance_hint(match.game, match.state)}, as this log has no "
                          "Seed tag", "chance-missing")

    def chance(self, item: Chance) -> None:
        match = self.match
        assert match is not None
        game = match.game
        cmd = item.command
        if self.seed is not None and game.chance_due(match.state) is not None:
            # Chance steps the log leaves out come from the seed first (on a copy: a
            # line that states none of the steps due is refused where it stands).
            ahead = Match(game, match.state, [], tracker=match.tracker, seed=self.seed)
            while ahead.chance_due() and not game.same_chance(ahead.state, cmd):
                ahead.play(CHANCE, ahead.seeded_command())
            if ahead.chance_due():
                match.state, match.tracker = ahead.state, ahead.tracker
                match.events.extend(ahead.events)
            want = match.seeded_command()
            if game.same_chance(match.state, cmd):
                why = game.chance_mismatch(cmd, want)
                if why is not None:
                    raise self._stop(item, "illegal", f"{game.chance_wanted(match.state)} "
                                     f"do not match the seed: {why}", "chance-seed",
                                     ((grammar_for(game.name).format_command(want),), 0))
        try:
            match.play(CHANCE, cmd)
        except IllegalMoveError as e:
            raise self._illegal(item, e, CHANCE) from None

    def round_marker(self, item: RoundMarker) -> None:
        match = self.match
        assert match is not None
        if self.seed is not None and match.game.progress(match.state)[0] != item.number:
            match.resolve_chance()  # a round may open with chance (a card turned up)
        number, phase = match.game.progress(match.state)
        if item.number != number:
            if number == 0:
                message = (f"round {item.number} cannot start yet: the game is still in its "
                           f"{phase} phase")
            elif match.finished:
                message = f"the game ended in round {number}; there is no round {item.number}"
            else:
                message = f"this is round {number}, not round {item.number}"
            raise self._stop(item, "illegal", message, "round")
        if item.number in self.marked:
            raise self._stop(item, "illegal", f"round {item.number} was already marked on line "
                             f"{self.marked[item.number]}", "round")
        self.marked[item.number] = item.line

    def run(self, upto: int | None) -> None:
        last = self.last = upto if upto is not None else MAX_LINES  # no line after it is read
        try:
            read, failure = _read_ahead(iter_log_raw(self.text,
                                                     grammar=self._wanted_grammar()), last)
            self.read = read
            entries = iter(read)
            first = self.header(entries)
            if first is not None:
                self.body(first, entries)
            if failure is not None:  # reached: every line before it was good
                raise failure
        except NotationError as e:
            line = e.line if e.line is not None else self.line
            if upto is None or line <= upto:
                # a [Game] tag naming no registered game: the log is of another game
                kind, rule = ("illegal", "game") if e.expected == ("game",) else (e.kind, None)
                raise _Stop(LogError(line, e.column, kind, e.message, rule,
                                     expected=e.expected, candidates=e.candidates)) from None
        if self.match is None:
            if not self.players:
                end = self.text.count("\n") + 1  # where the missing tag was looked for
                v = _variant_of(self._game(), self.variant)
                raise _Stop(LogError(end, 1, "syntax", 'expected a [Players "..."] tag naming '
                                     f"{_counts(v)} players before the end of the log"))
            self.setup(RoundMarker(self.line or 1, 0))
        assert self.match is not None
        if self.seed is not None and not self.hidden:
            self.match.resolve_chance()
        if not self.hidden:
            self.check_result()

    def header(self, entries: Iterator[LogEntry | RawMove]) -> LogItem | RawMove | None:
        """Read the tags up to the first line after them, which is returned (None if
        there is none)."""
        for entry in entries:
            self.line = _line_of(entry)
            if isinstance(entry, Tag):
                self.tag(entry)
            elif not isinstance(entry, Comment):
                return entry
        return None

    def body(self, first: LogItem | RawMove, entries: Iterator[LogEntry | RawMove]) -> None:
        """Play the lines from `first` on. The log reader yields no tag after the
        first line of the body (it stops with an error). A move may come as a
        `RawMove` (`notation.log.iter_log_raw`): its `Move` is made only if needed."""
        if self.match is None:
            self.setup(_item(first))
        match = self.match
        assert match is not None
        is_hidden = grammar_for(self._game().name).is_hidden
        due = match.game.chance_due  # (the match's own methods: called on it, natively
        # when compiled)
        # engine.protocol.TableLog, without a runtime protocol check's cost
        reading = getattr(match.game, "table_reading", _one_reading)
        two_way: frozenset[type] = getattr(match.game, "two_way", frozenset())
        seats, seeded = self.seats, self.seed is not None
        entry: Any = first  # LogEntry | RawMove
        try:
            for entry in chain((first,), entries):
                kind = type(entry)
                if kind is tuple or kind is Move:
                    if kind is tuple:  # never hidden (`iter_log_raw`)
                        actor, command = entry[1], entry[2]
                    else:
                        actor, command = entry.actor, entry.command
                        if is_hidden(command):
                            break
                    seat = seats[actor]
                    if seeded and due(match.state) is not None:
                        match.resolve_chance()
                    if type(command) in two_way:
                        other = reading(match.state, seat, command)  # (a query: no change)
                        if other is not None and (seeded or due(match.state) is None) \
                                and self.reread(_item(entry), seat, other):
                            continue
                    try:
                        match.play(seat, command)
                    except IllegalMoveError as e:
                        # (a refused command changes nothing: the state is as before it)
                        if not seeded and due(match.state) is not None \
                                and not match.finished:
                            raise self._chance_missing(_item(entry)) from None
                        raise self._illegal(_item(entry), e, seat) from None
                elif kind is Chance:
                    command = entry.command
                    if is_hidden(command):
                        break
                    if seeded:
                        self.chance(entry)  # the seed's steps the log leaves out first
                        continue
                    try:
                        match.play(CHANCE, command)
                    except IllegalMoveError as e:
                        raise self._illegal(entry, e, CHANCE) from None
                elif kind is RoundMarker:
                    self.round_marker(entry)
            else:
                return
            # A public log: the rest is read for its notation only.
            self.hidden = _line_of(entry)
            for later in entries:
                entry = later
        finally:
            self.line = _line_of(entry)

    def reread(self, item: Move, seat: int, other: Any) -> bool:
        """Play `other`, the other command the move may mean in a log written at a
        table (`engine.protocol.TableLog.table_reading`), if the actor's next lines
        (up to LOOK_AHEAD of them, before anyone else's line) are accepted further
        after it than after the command as read: True if it was played. (So a line
        that, as read, leaves the player nothing to do next is read the other way when
        the same player goes on; a log that replays as read replays the same.)"""
        match = self.match
        assert match is not None
        run: list[Any] = []
        read = self.read
        for later in read[bisect_right(read, item.line, key=_line_of):]:
            entry = _item(later)
            if entry.line > self.last or len(run) == LOOK_AHEAD:
                break
            if type(entry) is Comment:
                continue
            if type(entry) is not Move or entry.actor != item.actor \
                    or is_undo_command(entry.command):
                break
            run.append(entry.command)
        if not run or self._accepted(seat, other, run) <= self._accepted(seat, item.command,
                                                                         run):
            return False
        match.play(seat, other)  # accepted on a copy just now
        return True

    def _accepted(self, seat: int, first: Any, then: list[Any]) -> int:
        """How many of the seat's commands `then`, after its command `first`, are
        accepted in a row from the position now (played on a copy; -1: not even
        `first`)."""
        match = self.match
        assert match is not None
        trial = Match(match.game, match.state, [], seed=self.seed, in_place=True)
        try:
            trial.play(seat, first)
        except IllegalMoveError:
            return -1
        for n, command in enumerate(then):
            try:
                if self.seed is not None:
                    trial.resolve_chance()
                trial.play(seat, command)
            except IllegalMoveError:
                return n
        return len(then)

    def check_result(self) -> None:
        match = self.match
        if self.result is None or match is None:
            return
        outcome = self.outcome = match.game.result(match.state)
        if outcome is None:
            return
        for s in outcome.standings:
            said = self.result[s.name]
            if said != s.score:
                line = self.tag_lines["result"]
                raise _Stop(LogError(line, self._column(line, Tag(line, "Result", "")),
                                     "illegal", f"the Result tag gives {s.name} {said}, but the "
                                     f"game ends with {s.name} on {s.score} {score_unit(s)}",
                                     "result"))

    def finish(self, error: LogError | None, upto: int | None) -> ReplayResult:
        match = self.match
        if error is not None:
            lines = error.line
        else:
            text = self.text
            total = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
            lines = total if upto is None else min(upto, total)
        if match is None:
            return ReplayResult(file=self.file, ok=error is None, error=error, finished=False,
                                round=0, phase="setup", players=(), winners=(), to_act=(),
                                seeded=self.seed is not None, tags=tuple(self.tags),
                                state=None, events=(), lines=lines, hidden=self.hidden,
                                game=self.game)
        game, state = match.game, match.state
        names = match.names
        # the state is final: a result worked out by `check_result` still holds
        outcome = self.outcome if self.outcome is not None else game.result(state)
        round_, phase = game.progress(state)
        return ReplayResult(
            file=self.file,
            ok=error is None,
            error=error,
            finished=match.finished,
            round=round_,
            phase=phase,
            players=outcome.standings if outcome is not None else game.standings(state),
            winners=tuple(names[w] for w in outcome.winners) if outcome is not None else (),
            to_act=tuple("chance" if s == CHANCE else names[s] for s in match.to_act()),
            seeded=self.seed is not None,
            tags=tuple(self.tags),
            state=state,
            events=tuple(match.events),
            lines=lines,
            hidden=self.hidden,
            game=game,
        )


def _one_reading(state: Any, seat: int, command: Any) -> None:
    """A game's `table_reading` when it has none (`engine.protocol.TableLog`)."""
    return None


def _line_of(entry: LogEntry | RawMove) -> int:
    return entry[0] if type(entry) is tuple else entry.line  # type: ignore[union-attr]


def _item(entry: LogEntry | RawMove) -> Any:
    """The entry, a `RawMove` made a `Move`."""
    return Move(*entry) if type(entry) is tuple else entry


def _read_ahead(entries: Iterator[LogEntry | RawMove],
                last: int) -> tuple[list[LogEntry | RawMove], Exception | None]:
    """The entries a replay up to line `last` plays (every tag, the lines up to line
    `last`), read before any is played, up to the first that cannot be read; and what
    stopped the reading there, if anything (raised by the caller once the lines before
    it are played, as if they were read one by one). Reading first and playing then is
    faster than reading and playing line by line."""
    read: list[LogEntry | RawMove] = []
    try:
        if last >= MAX_LINES:  # the reader yields no line after it: read them all
            for entry in entries:  # (not `read.extend`: compiled, it keeps nothing of
                read.append(entry)  # an iterator that raises; what is read must stay)
        else:
            for entry in entries:
                if _line_of(entry) > last and type(entry) is not Tag:
                    break
                read.append(entry)
    except Exception as e:  # raised again by the caller, where the reading got to
        return read, e
    return read, None


def _counts(v: Variant) -> str:
    """A variant's player counts in a sentence: "3 to 5" or "2"."""
    return str(v.min_players) if v.min_players == v.max_players \
        else f"{v.min_players} to {v.max_players}"

def replay(text: str, file: str, upto: int | None, game: str | None,
           chance_hint: Callable[[Game[Any], Any], str]) -> ReplayResult:
    """`pbem.logs.replay_log`, with `chance_hint(game, state)` saying what the chance
    line due in `state` looks like (for the error at a move where one is missing)."""
    replay = _Replay(text, file, game, chance_hint)
    error: LogError | None = None
    try:
        replay.run(upto)
    except _Stop as stop:
        error = stop.error
    except Exception as exc:  # a bug: reported, never raised
        error = LogError(replay.line, 1, "internal",
                         f"internal error ({type(exc).__name__}: {exc}); please report it")
    return replay.finish(error, upto)
