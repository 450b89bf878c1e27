"""Game logs: header tags, then one decision per line.

    [Game "princes-of-florence"]
    [Players "anna, bas, chris, dirk"]
    * deal anna: alchemist composer theologian sculptor
    anna: keep alchemist composer sculptor
    round 1
    anna: open park            # a comment
    # a whole-line comment

`iter_log` reads lazily and stops at the first bad line with a NotationError whose
`line` and `column` are set, so a replayer can apply items as they come.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.errors import NotationError
from engine.princes.commands import ChanceCommand, Choose, Keep, PlayerCommand

from .commands import (
    HIDDEN,
    fast_chance,
    fast_command,
    format_command,
    hidden_cards,
    read_chance,
    read_command,
)
from .limits import MAX_LINE, MAX_LINES, MAX_NAME, MAX_NAMES, MAX_TAG_VALUE
from .reader import END_OF_LINE, Reader
from .words import (
    ROUND_WORDS,
    VERBS,
    Vocabulary,
    bad_player_name_char,
    player_vocabulary,
    quote,
)

KNOWN_TAGS = (
    "Game", "Rules", "Engine", "Variant", "Money", "Players", "SeedCommit", "Seed", "Salt",
    "Event", "Date", "Result", "Head",
)
"""Tags with a meaning to pbem; their names are read case-insensitively and written as
spelled here. Any other tag is kept as written. Tags keep the order they were given in.
`Engine`, `Money`, `SeedCommit`, `Salt` and `Head` are written by `pbem export` and
checked by `pbem verify` (docs/trust.md)."""

_CANONICAL_TAG = {t.lower(): t for t in KNOWN_TAGS}
_TAG_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


@dataclass(frozen=True, slots=True)
class Tag:
    """A header tag `[Name "value"]`. Known tag names are spelled as in KNOWN_TAGS."""

    line: int = field(compare=False)
    name: str
    value: str


@dataclass(frozen=True, slots=True)
class RoundMarker:
    """A `round N` line."""

    line: int = field(compare=False)
    number: int


# Move and Chance are most of a log's lines. Their __init__ sets the slots through
# their descriptors: the same frozen dataclass, built in half the time of the
# generated __init__ (which goes through object.__setattr__ for every field).


@dataclass(frozen=True, slots=True, init=False)
class Move:
    """An `ACTOR: command` line; `actor` is the player's name as in the Players tag,
    lowercased."""

    line: int = field(compare=False)
    actor: str
    command: PlayerCommand

    def __init__(self, line: int, actor: str, command: PlayerCommand) -> None:
        _MOVE_LINE(self, line)
        _MOVE_ACTOR(self, actor)
        _MOVE_COMMAND(self, command)


@dataclass(frozen=True, slots=True, init=False)
class Chance:
    """A `* deal ...` or `* draw ...` line."""

    line: int = field(compare=False)
    command: ChanceCommand

    def __init__(self, line: int, command: ChanceCommand) -> None:
        _CHANCE_LINE(self, line)
        _CHANCE_COMMAND(self, command)


_MOVE_LINE, _MOVE_ACTOR, _MOVE_COMMAND = (
    getattr(Move, name).__set__ for name in ("line", "actor", "command")
)
_CHANCE_LINE, _CHANCE_COMMAND = (getattr(Chance, name).__set__ for name in ("line", "command"))


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
    """A whole game log: `tags` as (name, value) pairs in order, then the items."""

    tags: tuple[tuple[str, str], ...] = ()
    items: tuple[LogItem, ...] = ()

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

    Returns the name (known names canonically spelled), the value, and the index of
    the first character of the name.
    """
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
    return _CANONICAL_TAG.get(name.lower(), name), "".join(chars), start


def _line_error(line: str, k: int, wanted: str, expected: tuple[str, ...]) -> NotationError:
    """`expected <wanted>, found <what is at index k>` at index k of `line`."""
    if k >= len(line) or not line[k:].strip():
        found, column = END_OF_LINE, len(line.rstrip()) + 1
    else:
        while line[k].isspace():
            k += 1
        found, column = quote(line[k:].split()[0]), k + 1
    return NotationError(f"expected {wanted}, found {found}", column=column, expected=expected)


def _players_vocabulary(line: str, value: str, name_at: int) -> Vocabulary:
    """Check the names of a Players tag and make their vocabulary."""
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


def iter_log(text: str) -> Iterator[LogEntry]:
    """Read a game log lazily, one item per meaningful line; blank lines are skipped.

    Raises:
        NotationError: at the first bad line, with `line` (1-based) and `column` set:
            bad syntax, a move before the Players tag, an unknown actor, a duplicated
            tag, a tag after the first move, or a bound of notation.limits passed (a
            line, a tag value, a name or the number of lines or names).
    """
    players: Vocabulary | None = None
    seen: dict[str, int] = {}  # tag name (lowercase) -> line
    in_body = False
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    over = len(lines) > MAX_LINES + 1 or (len(lines) == MAX_LINES + 1 and lines[-1] != "")
    for number, line in enumerate(lines[:MAX_LINES] if over else lines, 1):
        if line.endswith("\r"):
            line = line[:-1]
        try:
            if len(line) > MAX_LINE:
                raise _too_long(line, number)
            hash_at = line.find("#")
            content = line if hash_at < 0 else line[:hash_at]
            body = content.lstrip()
            if not body:
                if hash_at >= 0:
                    yield Comment(number, line[hash_at + 1 :].strip())
                continue
            first = body[0]
            if first == "[":
                at = len(content) - len(body)
                name, value, name_at = _read_tag(line, at)
                if in_body:
                    raise NotationError(
                        f"tag [{name}] comes after the first move; tags belong at the top",
                        column=at + 1,
                        expected=("move",),
                    )
                key = name.lower()
                if key in seen:
                    raise NotationError(
                        f"duplicate tag [{name}]; it was already given on line {seen[key]}",
                        column=name_at + 1,
                        expected=("tag",),
                    )
                seen[key] = number
                if key == "players":
                    players = _players_vocabulary(line, value, name_at)
                yield Tag(number, name, value)
                continue
            if players is None:
                raise NotationError(
                    'expected a [Players "..."] tag before the first move or round,'
                    f" found {quote(body.split()[0])}",
                    column=len(content) - len(body) + 1,
                    expected=("tag",),
                )
            in_body = True
            if first == "*":
                star = len(content) - len(body)
                chance = fast_chance(content, star, players)
                if chance is None:
                    chance = read_chance(content, star, players)
                yield Chance(number, chance)
                continue
            colon = content.find(":")
            if colon >= 0:
                actor_toks = content[:colon].split()
                actor = players.lookup.get(actor_toks[0].lower()) if actor_toks else None
                command = fast_command(content[colon + 1 :].split(), players)
                if actor is None or command is None or len(actor_toks) != 1:
                    yield _read_move(number, content, colon, players)
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
            if r.peek().lower() in VERBS:
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


def _read_move(number: int, content: str, colon: int, players: Vocabulary) -> Move:
    actor_part = Reader(content, 0, colon, [], quote(":"))
    if actor_part.at_end:
        raise actor_part.unexpected("a player name before ':'", ("player",))
    actor = actor_part.word(players)
    actor_part.end(quote(":"))
    hidden = _hidden_command(content[colon + 1 :])
    if hidden is not None:
        return Move(number, actor, hidden)
    r = Reader(content, colon + 1, len(content), [actor + ":"])
    return Move(number, actor, read_command(r, players))


def _hidden_command(text: str) -> PlayerCommand | None:
    """`keep ? ? ?` or `choose ?` (cards hidden in a public log), else None."""
    verb, _, rest = text.strip().partition(" ")
    cards = hidden_cards(rest)
    if cards is None:
        return None
    if verb.lower() == "keep":
        return Keep(cards)
    if verb.lower() == "choose" and len(cards) == 1:
        return Choose(HIDDEN)
    return None


def parse_log(text: str) -> GameLog:
    """Read a whole game log.

    Raises:
        NotationError: at the first bad line (see `iter_log`).
    """
    tags: list[tuple[str, str]] = []
    items: list[LogItem] = []
    for entry in iter_log(text):
        if isinstance(entry, Tag):
            tags.append((entry.name, entry.value))
        else:
            items.append(entry)
    return GameLog(tuple(tags), tuple(items))


# -- writing -----------------------------------------------------------------------


def format_tag(name: str, value: str) -> str:
    """`[Name "value"]`, with '"' and '\\' escaped by a backslash."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def format_item(item: LogEntry) -> str:
    """The canonical line of one log entry."""
    match item:
        case Tag(_, name, value):
            return format_tag(name, value)
        case RoundMarker(_, round_number):
            return f"round {round_number}"
        case Move(_, actor, command):
            return f"{actor}: {format_command(command)}"
        case Chance(_, command):
            return format_command(command)
        case Comment(_, comment):
            return f"# {comment}" if comment else "#"
    raise TypeError(f"not a log entry: {item!r}")


def format_log(log: GameLog) -> str:
    """The canonical text of a log: its tags, a blank line, then one line per item
    (a blank line before each round marker). Inline comments are not kept."""
    lines = [format_tag(name, value) for name, value in log.tags]
    for index, item in enumerate(log.items):
        if lines and (index == 0 or isinstance(item, RoundMarker)):
            lines.append("")
        lines.append(format_item(item))
    return "\n".join(lines) + "\n" if lines else ""
