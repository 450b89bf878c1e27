"""Game logs of any game: header tags, then one decision per line.

    [Game "GAME"]
    [Players "anna, bas, chris, dirk"]
    * CHANCE                   (what chance decided: a deal, a draw, a roll)
    anna: COMMAND
    round 1
    bas: COMMAND               # a comment
    # a whole-line comment

The tags, `round N` markers, comments and player names are read here, the same in
every game; the commands and chance lines by the game's grammar
(`notation.grammar`), which the [Game] tag picks (no tag: the default game).

`iter_log` reads lazily and stops at the first bad line with a NotationError whose
`line` and `column` are set, so a replayer can apply items as they come;
`iter_log_raw` reads the same, most moves as plain tuples (a replayer's reading).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import field
from functools import lru_cache
from typing import Any, cast

from engine.errors import NotationError
from engine.frozen import dataclass, quick_init
from engine.registry import UnknownGameError, default_name

from .grammar import Grammar
from .limits import MAX_DIGITS, MAX_LINE, MAX_LINES, MAX_NAME, MAX_NAMES, MAX_TAG_VALUE
from .reader import END_OF_LINE, Reader
from .registry import GRAMMARS, grammar_for
from .words import (
    ROUND_WORDS,
    Vocabulary,
    alternatives,
    bad_player_name_char,
    player_vocabulary,
    quote,
)

KNOWN_TAGS = (
    "Game", "Rules", "Engine", "Variant", "Players", "SeedCommit", "Seed", "Salt",
    "Event", "Date", "Result", "Head",
)
"""Tags with a meaning to pbem in every game; their names are read case-insensitively
and written as spelled here, and so are the game's own tags (`Grammar.tags`, see
`known_tags`). Any other tag is kept as written. Tags keep the order they were given
in. `Engine`, `SeedCommit`, `Salt` and `Head` are written by `pbem export` and checked
by `pbem verify` (docs/trust.md)."""

_GAME_OPTIONS_AFTER = KNOWN_TAGS.index("Variant") + 1


def known_tags(grammar: Grammar) -> tuple[str, ...]:
    """The tags with a meaning in a log of `grammar`'s game, in the order `pbem export`
    writes them: the generic ones, the game's own (its options) after `Variant`."""
    at = _GAME_OPTIONS_AFTER
    return (*KNOWN_TAGS[:at], *grammar.tags, *KNOWN_TAGS[at:])


@lru_cache(maxsize=64)
def _canonical_tags(game_tags: tuple[str, ...]) -> dict[str, str]:
    """Known tag names by their lowercase spelling, with a game's own `game_tags`."""
    return {t.lower(): t for t in (*KNOWN_TAGS, *game_tags)}


_GENERIC_TAGS = _canonical_tags(())
_FAST_PATH = True
"""Whether `iter_log` tries its fast path for the body's lines first (tests turn it
off to check that both ways read every log alike)."""
_SIMPLE_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_-]*) ?"([^"\\]*)" ?\]')
"""A tag as it is usually written: `_read_tag` reads these without its loop."""
_TAG_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


# The log's items are built quickly (`engine.frozen`): Move and Chance are most of
# a log's lines.


@quick_init
@dataclass(frozen=True, slots=True)
class Tag:
    """A header tag `[Name "value"]`. Known tag names are spelled as in KNOWN_TAGS."""

    line: int = field(compare=False)
    name: str
    value: str


@quick_init
@dataclass(frozen=True, slots=True)
class RoundMarker:
    """A `round N` line."""

    line: int = field(compare=False)
    number: int


@quick_init
@dataclass(frozen=True, slots=True)
class Move:
    """An `ACTOR: command` line; `actor` is the player's name as in the Players tag,
    lowercased."""

    line: int = field(compare=False)
    actor: str
    command: Any  # the game's player command


@quick_init
@dataclass(frozen=True, slots=True)
class Chance:
    """A `* ...` line: what chance decided (a deal, a draw, a roll)."""

    line: int = field(compare=False)
    command: Any  # the game's chance command


@quick_init
@dataclass(frozen=True, slots=True)
class Comment:
    """A whole-line `# comment` (its text stripped). Comments after a command on the
    same line are dropped."""

    line: int = field(compare=False)
    text: str


LogItem = RoundMarker | Move | Chance | Comment
"""What a log holds after its tags. `line` (1-based, in the text read) is not part of
equality, so a reformatted log equals the log it came from."""

LogEntry = Tag | LogItem
"""What `iter_log` yields."""


def split_players(value: str) -> tuple[str, ...]:
    """The player names of a Players tag value, lowercased, in seat order."""
    return tuple(name for name in (part.strip().lower() for part in value.split(",")) if name)


@dataclass(frozen=True, slots=True)
class GameLog:
    """A whole game log: `tags` as (name, value) pairs in order, then the items.

    `game` names the game whose grammar read it ('' for a log built by hand: then its
    [Game] tag, else the default game, says which)."""

    tags: tuple[tuple[str, str], ...] = ()
    items: tuple[LogItem, ...] = ()
    game: str = field(default="", compare=False)

    def tag(self, name: str) -> str | None:
        """The value of tag `name` (case-insensitive), or None."""
        low = name.lower()
        for key, value in self.tags:
            if key.lower() == low:
                return value
        return None

    @property
    def players(self) -> tuple[str, ...]:
        """The seated players (lowercased), clockwise from seat 1; () without a tag."""
        value = self.tag("Players")
        return split_players(value) if value is not None else ()


# -- reading -----------------------------------------------------------------------


def _read_tag(line: str, at: int) -> tuple[str, str, int]:
    """Read `[Name "value"]` with its '[' at index `at`.

    Returns the name as written, the value, and the index of the first character of
    the name.
    """
    simple = _SIMPLE_TAG.match(line, at)
    if simple is not None and len(simple[2]) <= MAX_TAG_VALUE:
        after = simple.end()
        if after == len(line) or line[after:].lstrip()[:1] in ("", "#"):
            return simple[1], simple[2], at + 1
    n = len(line)
    start = k = at + 1
    while k < n and line[k] in _TAG_NAME_CHARS:
        k += 1
    name = line[start:k]
    if not name or not name[0].isalpha():
        raise _line_error(line, start, "a tag name like 'Players' after '['",
                          ("tag name",))
    while k < n and line[k].isspace():
        k += 1
    if k >= n or line[k] != '"':
        raise _line_error(line, k, f"'\"' and the value of tag [{name}]", ("'\"'",))
    k += 1
    chars: list[str] = []
    while True:
        if len(chars) >= MAX_TAG_VALUE and k < n and line[k] != '"':
            raise NotationError(
                f"the value of tag [{name}] is longer than {MAX_TAG_VALUE:,} characters,"
                " the most a tag may hold",
                column=k + 1,
                expected=("'\"'",),
            )
        if k >= n:
            raise _line_error(line, k, f"a closing '\"' for the value of tag [{name}]",
                              ("'\"'",))
        ch = line[k]
        if ch == "\\" and k + 1 < n and line[k + 1] in '"\\':
            chars.append(line[k + 1])
            k += 2
        elif ch == '"':
            k += 1
            break
        else:
            chars.append(ch)
            k += 1
    while k < n and line[k].isspace():
        k += 1
    if k >= n or line[k] != "]":
        raise _line_error(line, k, f"']' to close tag [{name}]", ("']'",))
    k += 1
    while k < n and line[k].isspace():
        k += 1
    if k < n and line[k] != "#":
        raise _line_error(line, k, f"end of line after tag [{name}]", (END_OF_LINE,))
    return name, "".join(chars), start


def _line_error(line: str, k: int, wanted: str, expected: tuple[str, ...]) -> NotationError:
    """`expected <wanted>, found <what is at index k>` at index k of `line`."""
    if k >= len(line) or not line[k:].strip():
        found, column = END_OF_LINE, len(line.rstrip()) + 1
    else:
        while line[k].isspace():
            k += 1
        found, column = quote(line[k:].split()[0]), k + 1
    return NotationError(f"expected {wanted}, found {found}", column=column, expected=expected)


_PLAYERS: dict[str, Vocabulary] = {}
"""The vocabularies of the good Players tag values read so far (at most
`SHARED_PLAYERS`): the checks are of the value alone."""
SHARED_PLAYERS = 1 << 10


def _players_vocabulary(line: str, value: str, name_at: int) -> Vocabulary:
    """Check the names of a Players tag and make their vocabulary."""
    vocabulary = _PLAYERS.get(value)
    if vocabulary is None:
        vocabulary = _check_players(line, value, name_at)
        if len(_PLAYERS) >= SHARED_PLAYERS:
            _PLAYERS.clear()
        _PLAYERS[value] = vocabulary
    return vocabulary


def _check_players(line: str, value: str, name_at: int) -> Vocabulary:
    """`_players_vocabulary`, worked out."""
    value_at = line.find('"', name_at) + 1  # index of the value's first character
    names: list[str] = []
    offset = 0
    for part in value.split(","):
        column = min(value_at + offset + len(part) - len(part.lstrip()), len(line)) + 1
        offset += len(part) + 1
        name = part.strip()
        if len(names) == MAX_NAMES:
            raise NotationError(
                f"the Players tag lists more than {MAX_NAMES} names; a game seats 3 to 5"
                " players",
                column=column,
                expected=(END_OF_LINE,),
            )
        if len(name) > MAX_NAME:
            raise NotationError(
                f"player name {quote(name)} is {len(name):,} characters long; a name may"
                f" have at most {MAX_NAME}",
                column=column,
                expected=("player",),
            )
        if not name:
            raise NotationError(
                "expected a player name in the Players tag, found an empty name;"
                ' write the names separated by commas, like "anna, bas, chris"',
                column=column,
                expected=("player",),
            )
        bad = bad_player_name_char(name)
        if bad >= 0:
            raise NotationError(
                f"player name {quote(name)} may not contain {quote(name[bad])}",
                column=column,
                expected=("player",),
            )
        if name.lower() in names:
            raise NotationError(
                f"player {quote(name.lower())} is listed twice in the Players tag",
                column=column,
                expected=("player",),
            )
        names.append(name.lower())
    vocabulary = player_vocabulary(names)
    assert vocabulary is not None  # names is never empty: split gives one part at least
    return vocabulary


def _game_grammar(line: str, value: str, name_at: int) -> Grammar:
    """The grammar the value of a [Game] tag names."""
    try:
        return GRAMMARS.get(value.strip().lower())
    except UnknownGameError:
        known = GRAMMARS.names()
        value_at = line.find('"', name_at) + 1
        raise NotationError(
            f"unknown game {quote(value.strip())} in tag [Game]; known games:"
            f" {alternatives(known, 'and') if known else 'none'}",
            column=value_at + len(value) - len(value.lstrip()) + 1,
            expected=("game",),
            candidates=tuple(known),
        ) from None


def _none(*args: Any) -> None:
    return None


NOBODY = Vocabulary("player", ())
"""No players: a fast command read with it names no player (`Grammar.fast_command`
gives None for a command that names one), so it is the same in every log."""

SHARED_COMMANDS = 1 << 15
"""At most this many command texts per game are remembered across logs (then they are
forgotten and remembered anew)."""

_shared: dict[Grammar, dict[str, Any]] = {}
"""The fast commands read with `NOBODY`, by grammar and by the text after `ACTOR:`:
the command texts of a game repeat from log to log (`iter_log`)."""


def _shared_commands(grammar: Grammar) -> dict[str, Any]:
    commands = _shared.get(grammar)
    if commands is None:
        commands = _shared[grammar] = {}
    return commands


def _is_number(word: str) -> bool:
    """Whether `Reader.number` takes `word`."""
    return word.isdigit() and word.isascii() and len(word) <= MAX_DIGITS


def iter_log(text: str, *, grammar: Grammar | None = None) -> Iterator[LogEntry]:
    """Read a game log lazily, one item per meaningful line; blank lines are skipped.

    Its moves and chance lines are read by `grammar` if given, else by the grammar
    of the game its [Game] tag names, else by the default game's. Tags before [Game]
    are spelled as the default game's.

    Raises:
        NotationError: at the first bad line, with `line` (1-based) and `column` set:
            bad syntax, a move before the Players tag, an unknown actor, a duplicated
            tag, a tag after the first move, an unknown game in the [Game] tag, or a
            bound of notation.limits passed (a line, a tag value, a name or the
            number of lines or names).
        GameError: the log names no game and the installed package no default one.
    """
    return cast(Iterator[LogEntry], _iter_log(text, grammar, False))


RawMove = tuple[int, str, Any]
"""A move as `iter_log_raw` may give it: (line, actor, command), what its `Move` holds."""


def iter_log_raw(text: str, *, grammar: Grammar | None = None) -> Iterator[LogEntry | RawMove]:
    """`iter_log`, except that a move line read the quick way (most of them) comes as
    a `RawMove` tuple, not a `Move`: for a replayer, which needs no object for a good
    line, and making one costs more than reading the line. The same lines, values and
    errors. A `RawMove`'s command is never hidden (`Grammar.is_hidden`).
    """
    return _iter_log(text, grammar, True)


def _iter_log(text: str, grammar: Grammar | None, raw: bool) -> Iterator[LogEntry | RawMove]:
    """`iter_log` (`raw`: `iter_log_raw`)."""
    forced = grammar is not None
    canonical = _canonical_tags(grammar.tags) if grammar is not None else _GENERIC_TAGS
    players: Vocabulary | None = None
    seen: dict[str, int] = {}  # tag name (lowercase) -> line
    in_body = False
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    over = len(lines) > MAX_LINES + 1 or (len(lines) == MAX_LINES + 1 and lines[-1] != "")
    crlf = "\r" in text
    # The body's fast path: a move `actor: command` with the actor's name as listed
    # (or a prefix of it) right before the colon, whose command the grammar's fast
    # path reads, a chance line with its '*' first and a plain `round N`. Anything
    # else, and every error, goes the general way below, which is the reference. A
    # command text seen before is not read again: fast results are values of their
    # text and the players alone (and those that name no player, of their text
    # alone: `_shared`), and a whole move line seen before (with no comment) is the
    # same actor and command again. A command with hidden values (`Grammar.is_hidden`)
    # goes the general way (so a `RawMove` never has one).
    fast = False  # set at the first line of the body
    fast_command: Callable[[list[str], Vocabulary | None], Any] = _none
    hidden: Callable[[Any], bool] = bool  # `Grammar.is_hidden`, set with `fast_command`
    fast_chance: Callable[[str, int, Vocabulary | None], Any] = _none
    actors: dict[str, str] = {}
    shared: dict[str, Any] = {}  # the text after `actor:` -> its fast command naming
    # no player, of every log of the game (`_shared`)
    commands: dict[str, Any] = {}  # the same, of the commands naming a player
    moves: dict[str, tuple[str, Any]] = {}  # a fast move's line -> (actor, command)
    for number, line in enumerate(lines[:MAX_LINES] if over else lines, 1):
        if crlf and line.endswith("\r"):
            line = line[:-1]
        if fast:
            seen_move = moves.get(line)
            if seen_move is not None:
                yield (number, seen_move[0], seen_move[1]) if raw \
                    else Move(number, seen_move[0], seen_move[1])
                continue
            if not line:
                continue
        try:
            if len(line) > MAX_LINE:
                raise _too_long(line, number)
            hash_at = line.find("#")
            content = line if hash_at < 0 else line[:hash_at]
            if fast:
                head, sep, rest = content.partition(":")
                if sep and (actor := actors.get(head)) is not None:
                    command = shared.get(rest)
                    if command is None:
                        command = commands.get(rest)
                        if command is None:
                            toks = rest.split()
                            command = fast_command(toks, NOBODY)
                            if command is not None:
                                if hidden(command):
                                    command = None
                                else:
                                    if len(shared) >= SHARED_COMMANDS:
                                        shared.clear()
                                    shared[rest] = command
                            else:
                                command = fast_command(toks, players)
                                if command is not None:
                                    if hidden(command):
                                        command = None
                                    else:
                                        commands[rest] = command
                    if command is not None:
                        if hash_at < 0:
                            moves[line] = (actor, command)
                        yield (number, actor, command) if raw \
                            else Move(number, actor, command)
                        continue
                elif content[:1] == "*":
                    chance = fast_chance(content, 0, players)
                    if chance is not None:
                        yield Chance(number, chance)
                        continue
                elif content[:6] == "round ":
                    words = content.split()
                    if len(words) == 2 and _is_number(words[1]):
                        yield RoundMarker(number, int(words[1]))
                        continue
            body = content.lstrip()
            if not body:
                if hash_at >= 0:
                    yield Comment(number, line[hash_at + 1 :].strip())
                continue
            first = body[0]
            if first == "[":
                at = len(content) - len(body)
                name, value, name_at = _read_tag(line, at)
                key = name.lower()
                spelled = canonical.get(key)
                if spelled is None and grammar is None:
                    spelled = _canonical_tags(grammar_for(None).tags).get(key)
                name = spelled or name
                if in_body:
                    raise NotationError(
                        f"tag [{name}] comes after the first move; tags belong at the top",
                        column=at + 1,
                        expected=("move",),
                    )
                if key in seen:
                    raise NotationError(
                        f"duplicate tag [{name}]; it was already given on line {seen[key]}",
                        column=name_at + 1,
                        expected=("tag",),
                    )
                seen[key] = number
                if key == "players":
                    players = _players_vocabulary(line, value, name_at)
                elif key == "game" and not forced:
                    grammar = _game_grammar(line, value, name_at)
                    canonical = _canonical_tags(grammar.tags)
                yield Tag(number, name, value)
                continue
            if players is None:
                raise NotationError(
                    'expected a [Players "..."] tag before the first move or round,'
                    f" found {quote(body.split()[0])}",
                    column=len(content) - len(body) + 1,
                    expected=("tag",),
                )
            if not in_body:
                in_body = True
                reading = grammar if grammar is not None else grammar_for(None)
                fast_command, fast_chance = reading.fast_command, reading.fast_chance
                hidden = reading.is_hidden
                shared = _shared_commands(reading)
                actors = players.lookup
                fast = _FAST_PATH
            if first == "*":
                star = len(content) - len(body)
                chance = fast_chance(content, star, players)
                if chance is None:
                    chance = reading.read_chance(content, star, players)
                yield Chance(number, chance)
                continue
            colon = content.find(":")
            if colon >= 0:
                actor_toks = content[:colon].split()
                actor = players.lookup.get(actor_toks[0].lower()) if actor_toks else None
                command = fast_command(content[colon + 1 :].split(), players)
                if actor is None or command is None or len(actor_toks) != 1:
                    yield _read_move(number, content, colon, players, reading)
                else:
                    yield Move(number, actor, command)
                continue
            r = Reader(content, 0, len(content), [])
            if r.peek().lower() in ROUND_WORDS:
                r.word(ROUND_WORDS)
                round_number = r.number()
                r.end()
                yield RoundMarker(number, round_number)
                continue
            if r.peek().lower() in reading.verbs:
                raise r.fail(
                    f"expected a player name and ':' before {quote(r.peek())};"
                    " every move in a log names its player, like 'anna: pass'",
                    expected=("player",),
                )
            raise r.fail(
                "expected a move like 'anna: pass', 'round N', a chance line '* ...' or a"
                f" tag, found {r.found()}",
                expected=("move", "round marker", "chance line", "tag"),
            )
        except NotationError as error:
            error.line = number
            raise
    if over:
        too_many = _too_long("", MAX_LINES + 1)
        too_many.line = MAX_LINES + 1
        raise too_many


def _too_long(line: str, number: int) -> NotationError:
    """The error for line `number` of a log, which is too long or one too many."""
    if number > MAX_LINES:
        return NotationError(
            f"the log has more than {MAX_LINES:,} lines (blank lines and comments"
            f" included); pbem reads logs of at most {MAX_LINES:,} lines",
            expected=(END_OF_LINE,),
        )
    return NotationError(
        f"the line is {len(line):,} characters long; pbem reads lines of at most"
        f" {MAX_LINE:,} characters",
        column=MAX_LINE + 1,
        expected=(END_OF_LINE,),
    )


def _read_move(
    number: int, content: str, colon: int, players: Vocabulary, grammar: Grammar
) -> Move:
    actor_part = Reader(content, 0, colon, [], quote(":"))
    if actor_part.at_end:
        raise actor_part.unexpected("a player name before ':'", ("player",))
    actor = actor_part.word(players)
    actor_part.end(quote(":"))
    hidden = grammar.hidden_command(content[colon + 1 :])
    if hidden is not None:
        return Move(number, actor, hidden)
    r = Reader(content, colon + 1, len(content), [actor + ":"])
    return Move(number, actor, grammar.read_command(r, players))


def parse_log(text: str, *, grammar: Grammar | None = None) -> GameLog:
    """Read a whole game log (by `grammar` if given, else as `iter_log` says).

    Raises:
        NotationError: at the first bad line (see `iter_log`).
        GameError: the log names no game and the installed package no default one.
    """
    tags: list[tuple[str, str]] = []
    items: list[LogItem] = []
    game: str | None = None
    for entry in iter_log(text, grammar=grammar):
        if isinstance(entry, Tag):
            tags.append((entry.name, entry.value))
            if entry.name == "Game":
                game = entry.value.strip().lower()
        else:
            items.append(entry)
    if grammar is not None:
        game = grammar.name
    return GameLog(tuple(tags), tuple(items), game or default_name())


# -- writing -----------------------------------------------------------------------


def format_tag(name: str, value: str) -> str:
    """`[Name "value"]`, with '"' and '\\' escaped by a backslash."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def format_item(item: LogEntry, grammar: Grammar | None = None) -> str:
    """The canonical line of one log entry; moves and chance lines as `grammar` (by
    default the default game's) writes them.

    Raises:
        TypeError: `item` is no log entry, or its command none of the game's.
        GameError: no grammar is given and the installed package names no default game.
    """
    match item:
        case Tag(_, name, value):
            return format_tag(name, value)
        case RoundMarker(_, round_number):
            return f"round {round_number}"
        case Move(_, actor, command):
            return f"{actor}: {(grammar or grammar_for(None)).format_command(command)}"
        case Chance(_, command):
            return (grammar or grammar_for(None)).format_command(command)
        case Comment(_, comment):
            return f"# {comment}" if comment else "#"
    raise TypeError(f"not a log entry: {item!r}")


def format_log(log: GameLog, *, grammar: Grammar | None = None) -> str:
    """The canonical text of a log: its tags, a blank line, then one line per item
    (a blank line before each round marker). Inline comments are not kept. Moves are
    written by `grammar`, else by that of the log's game (`GameLog.game`, else its
    [Game] tag, else the default game).

    Raises:
        UnknownGameError: no grammar is registered for the log's game.
        TypeError: a command is none of the game's.
    """
    if grammar is None and any(isinstance(i, Move | Chance) for i in log.items):
        game = log.game or (log.tag("Game") or "").strip().lower()
        grammar = grammar_for(game or None)
    lines = [format_tag(name, value) for name, value in log.tags]
    for index, item in enumerate(log.items):
        if lines and (index == 0 or isinstance(item, RoundMarker)):
            lines.append("")
        lines.append(format_item(item, grammar))
    return "\n".join(lines) + "\n" if lines else ""
