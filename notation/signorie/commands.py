"""Signorie's commands, one per line: read player commands and chance lines (the slow
path, which parses or explains with exact columns), and write them back.

Grammar (words case-insensitive, any unique prefix of 3+ letters, `#` starts a comment;
docs/notation-signorie.md has every id):

    take COLOUR VALUE ACTION        helper N [ACTION]       done         pass
    reward bonus [ACTION]           reward florins          reward points   reward buy
    undo        agree        refuse

    ACTION:  hire N                 florins                 offspring
             marry CITY DOWRY       mission CAREER SPACE CITY
             tracks STEP...         alliance ROW            figures SEX...
             helper COLOUR N        task TILE ...
    STEP:    mil+   mil+3   mil2>5  (pol, ecc, mil)         ini   ini+2

    * order PLAYER...               * cities CITY...        * rewards TILE...
    * alliances CITY FIELD TILE, ...                         * roll COLOUR VALUE..., ...
    * tasks TILE...                 * births PLAYER VALUE...     * draw PLAYER TILE|?
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from engine.consent import Agree, Refuse, Undo
from engine.errors import AmbiguousError, NotationError
from engine.signorie.commands import (
    Action,
    Activate,
    Alliance,
    Alliances,
    Births,
    ChanceCommand,
    Cities,
    Command,
    Done,
    Draw,
    Figures,
    Florins,
    Helper,
    Hire,
    Marry,
    Mission,
    Offspring,
    Order,
    Pass,
    PlayerCommand,
    Reward,
    Rewards,
    Roll,
    Step,
    Take,
    Task,
    Tasks,
    Tracks,
)
from engine.signorie.ruleset import INITIATIVE
from notation.limits import MAX_DIGITS
from notation.reader import END_OF_LINE, Reader
from notation.words import Vocabulary, quote

from .words import (
    ACTION_WORDS,
    ALLIANCE_TILES,
    CAREER_WORDS,
    CHANCE_WORDS,
    CITY_WORDS,
    COLOUR_WORDS,
    DIE_FACES,
    FIELD_WORDS,
    REWARD_CHOICES,
    REWARD_TILES,
    ROW_WORDS,
    SEX_WORDS,
    TASK_TILES,
    TASK_WORDS,
    TRACK_SHORT,
    TRACK_WORDS,
    VERBS,
)

HIDDEN = "?"
"""A face-down alliance tile in a public log: `* draw anna ?` (S8: nobody saw it)."""

SIMPLE: dict[str, PlayerCommand] = {
    "done": Done(), "pass": Pass(), "undo": Undo(), "agree": Agree(), "refuse": Refuse(),
}
"""The commands of one word."""

_T = TypeVar("_T")

_STEP_WANTED = "a step like 'mil+', 'mil+3', 'mil2>5' or 'ini'"


# --- small pieces -------------------------------------------------------------------


def _word(r: Reader, vocab: Vocabulary) -> str:
    """`r.word(vocab)`; a token that is no word and near none is refused naming what
    was expected (the words of a long vocabulary are not listed by `Vocabulary.error`)."""
    try:
        return r.word(vocab)
    except AmbiguousError:
        raise
    except NotationError as e:
        if e.candidates or r.at_end:
            raise
        raise r.unexpected(vocab.wanted, vocab.expected) from None


def _die(r: Reader) -> int:
    """Read a die value, 1 to 6."""
    i = r.i
    if i < r.n and r.toks[i] in _FACES:
        value = _FACES[r.toks[i]]
        r.said.append(str(value))
        r.i = i + 1
        return value
    raise r.unexpected("a die value (1 to 6)", ("die value",))


_FACES = {str(v): v for v in DIE_FACES}


def _words(r: Reader, vocab: Vocabulary) -> tuple[str, ...]:
    """Read one or more words of `vocab`, up to the end of the segment."""
    got = [_word(r, vocab)]
    while not r.at_end:
        got.append(_word(r, vocab))
    return tuple(got)


def _dice(r: Reader) -> tuple[int, ...]:
    """Read one or more die values, up to the end of the segment."""
    got = [_die(r)]
    while not r.at_end:
        got.append(_die(r))
    return tuple(got)


def _number_at(tok: str, start: int) -> int | None:
    """The plain number `tok[start:]`, or None."""
    digits = tok[start:]
    if digits.isdigit() and digits.isascii() and len(digits) <= MAX_DIGITS:
        return int(digits)
    return None


def read_step(r: Reader) -> Step:
    """Read one step: `mil+`, `mil+3`, `mil2>5`, `ini` or `ini+2` (the track as any
    unique prefix of 3+ letters of a track)."""
    i = r.i
    if i >= r.n:
        raise r.unexpected(_STEP_WANTED, ("step",))
    tok = r.toks[i]
    k = 0
    while k < len(tok) and tok[k].isascii() and tok[k].isalpha():
        k += 1
    if k == 0:
        raise r.unexpected(_STEP_WANTED, ("step",))
    track = TRACK_WORDS.get(tok[:k].lower())
    if track is None:
        raise TRACK_WORDS.error(tok[:k], r.column(i))
    step = _step_rest(track, tok[k:])
    if step is None:
        raise _bad_step(r, tok, k, track)
    r.said.append(format_step(step))
    r.i = i + 1
    return step


def _step_rest(track: str, rest: str) -> Step | None:
    """The step of `track` that `rest` (what follows the track's name) writes, or None."""
    if not rest:
        return Step(track, 0, 1) if track == INITIATIVE else None
    if rest[0] == "+":
        to = 1 if rest == "+" else _number_at(rest, 1)
        return Step(track, 0, to) if to else None
    if track == INITIATIVE:
        return None
    start_text, sep, to_text = rest.partition(">")
    start = _number_at(start_text, 0)
    to = _number_at(to_text, 0)
    if not sep or not start or to is None or to <= start:
        return None
    return Step(track, start, to)


def _bad_step(r: Reader, tok: str, k: int, track: str) -> NotationError:
    """Why `tok` (whose first `k` characters name `track`) is no step."""
    short = TRACK_SHORT[track]
    rest = tok[k:]
    column = r.column(r.i) + k
    if track == INITIATIVE:
        wanted = "'ini' (1 space) or 'ini+N' (N spaces)"
        expected: tuple[str, ...] = ("'+'", END_OF_LINE)
    else:
        wanted = (f"'{short}+' (a new figure), '{short}+N' (a new figure to space N) or"
                  f" '{short}N>M' (your figure on space N to space M)")
        expected = ("'+'", "space")
    if rest[:1] == "+":
        column += 1
        wanted = "a space above 0"
        expected = ("space",)
    elif ">" in rest and track != INITIATIVE:
        start_text, _, to_text = rest.partition(">")
        start = _number_at(start_text, 0)
        if not start:
            wanted = "the space your figure is on (1 or more)"
            expected = ("space",)
        else:
            column += len(start_text) + 1
            wanted = f"a space above {start}"
            expected = ("space",)
    return NotationError(
        f"expected {wanted} after {quote(short)}, found {quote(tok)}",
        column=column, expected=expected,
    )


def format_step(step: Step) -> str:
    """The canonical text of a step: `mil+`, `mil+3`, `mil2>5`, `ini`, `ini+2`."""
    short = TRACK_SHORT.get(step.track, step.track)
    if step.start:
        return f"{short}{step.start}>{step.to}"
    if step.to == 1:
        return short if step.track == INITIATIVE else f"{short}+"
    return f"{short}+{step.to}"


def _steps(r: Reader) -> tuple[Step, ...]:
    got = [read_step(r)]
    while not r.at_end:
        got.append(read_step(r))
    return tuple(got)


def _sexes(r: Reader) -> tuple[str, ...]:
    return r.words(SEX_WORDS)


# --- actions --------------------------------------------------------------------------


def _hire(r: Reader) -> Action:
    return Hire(r.number())


def _florins(r: Reader) -> Action:
    return Florins()


def _marry(r: Reader) -> Marry:
    city = r.word(CITY_WORDS)
    return Marry(city, r.number())


def _offspring(r: Reader) -> Action:
    return Offspring()


def _tracks(r: Reader) -> Action:
    return Tracks(_steps(r))


def _mission(r: Reader) -> Mission:
    career = r.word(CAREER_WORDS)
    space = r.number()
    return Mission(career, space, r.word(CITY_WORDS))


def _alliance(r: Reader) -> Alliance:
    return Alliance(r.word(ROW_WORDS))


def _figures(r: Reader) -> Action:
    return Figures(_sexes(r))


def _helper(r: Reader) -> Action:
    colour = r.word(COLOUR_WORDS)
    return Helper(colour, r.number())


def _task(r: Reader) -> Action:
    tile = TASK_TILES[_word(r, TASK_WORDS)]
    kind = tile.kind
    if kind == "tracks":
        count = r.number()
        return Task(tile.id, count, Tracks(_steps(r)))
    if kind == "count":
        return Task(tile.id, r.number())
    if kind == "marry":
        return Task(tile.id, tile.figures, _marry(r))
    if kind == "mission":
        return Task(tile.id, tile.figures, _mission(r))
    if kind == "alliance":
        return Task(tile.id, tile.figures, _alliance(r))
    sexes = _sexes(r)
    return Task(tile.id, tile.figures or len(sexes), Figures(sexes))


_ACTIONS: dict[str, Callable[[Reader], Action]] = {
    "hire": _hire,
    "florins": _florins,
    "marry": _marry,
    "offspring": _offspring,
    "tracks": _tracks,
    "mission": _mission,
    "alliance": _alliance,
    "figures": _figures,
    "helper": _helper,
    "task": _task,
}
assert set(_ACTIONS) == set(ACTION_WORDS.words)


def read_action(r: Reader) -> Action:
    """Read one action, its word first, up to the end of the line."""
    action = _ACTIONS[_word(r, ACTION_WORDS)](r)
    r.end()
    return action


def format_action(action: Action) -> str:
    """The canonical text of an action, its word first."""
    match action:
        case Hire(space):
            return f"hire {space}"
        case Florins() | Offspring():
            return action.word
        case Marry(city, dowry):
            return f"marry {city} {dowry}"
        case Tracks(steps):
            return " ".join(("tracks", *map(format_step, steps)))
        case Mission(career, space, city):
            return f"mission {career} {space} {city}"
        case Alliance(row):
            return f"alliance {row}"
        case Figures(sexes):
            return " ".join(("figures", *sexes))
        case Helper(colour, space):
            return f"helper {colour} {space}"
        case Task():
            return _format_task(action)
    raise TypeError(f"not an action of signorie: {action!r}")


def _format_task(task: Task) -> str:
    tile = TASK_TILES.get(task.tile)
    then = task.then
    kind = tile.kind if tile is not None else "count"
    if kind in ("tracks", "count"):
        head = f"task {task.tile} {task.count}"
    else:
        head = f"task {task.tile}"
    if then is None:
        return head
    # the tile says which action it gives: the action's own word is not written
    return f"{head} {format_action(then).partition(' ')[2]}".rstrip()


# --- player commands -------------------------------------------------------------------


def _take(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    colour = r.word(COLOUR_WORDS)
    value = _die(r)
    return Take(colour, value, read_action(r))


def _activate(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    space = r.number()
    if r.at_end:
        return Activate(space)
    return Activate(space, read_action(r))


def _reward(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    choice = r.word(REWARD_CHOICES)
    if choice == "bonus" and not r.at_end:
        return Reward(choice, read_action(r))
    r.end()
    return Reward(choice)


def _simple(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    r.end()
    return SIMPLE[r.said[-1]]


_READERS: dict[str, Callable[[Reader, Vocabulary | None], PlayerCommand]] = {
    "take": _take,
    "helper": _activate,
    "reward": _reward,
    **dict.fromkeys(SIMPLE, _simple),
}
assert set(_READERS) == set(VERBS.words)


def read_command(r: Reader, players: Vocabulary | None) -> PlayerCommand:
    """Read a whole player command from `r` (up to the end of its segment).

    Raises:
        NotationError: the tokens are no command of Signorie.
    """
    if not r.at_end and r.peek()[0] == "*":
        raise r.fail(
            "a chance line ('* roll ...', '* draw ...') is no player command; expected"
            f" a command{r.context()}, found {r.found()}",
            expected=("command",),
        )
    return _READERS[r.word(VERBS)](r, players)


def hidden_command(text: str) -> PlayerCommand | None:
    """None: no player command of Signorie holds a hidden value (a face-down tile is
    drawn by chance, `* draw PLAYER ?`)."""
    return None


# --- chance lines -------------------------------------------------------------------


def _segments(text: str, start: int) -> list[tuple[int, int]]:
    """The (start, stop) of each comma-separated segment of `text[start:]`."""
    spans = []
    while True:
        comma = text.find(",", start)
        if comma < 0:
            spans.append((start, len(text)))
            return spans
        spans.append((start, comma))
        start = comma + 1


def _listed(text: str, head: Reader, spans: list[tuple[int, int]],
            item: Callable[[Reader], _T]) -> tuple[_T, ...]:
    """The items of a comma-separated chance line, the first in `head` (its event word
    read), the others in `spans[1:]`."""
    got: list[_T] = []
    r = head
    for n, (start, stop) in enumerate(spans):
        last = n == len(spans) - 1
        if n:
            r.said[-1] += ","
            r = Reader(text, start, stop, r.said, END_OF_LINE if last else quote(","))
        got.append(item(r))
        r.end("',' or end of line" if last else quote(","))
    return tuple(got)


def _alliance_item(r: Reader) -> tuple[str, str, str]:
    city = r.word(CITY_WORDS)
    field = r.word(FIELD_WORDS)
    return city, field, _word(r, ALLIANCE_TILES)


def _roll_item(r: Reader) -> tuple[str, tuple[int, ...]]:
    colour = r.word(COLOUR_WORDS)
    return colour, tuple(sorted(_dice(r)))


def _players(r: Reader, players: Vocabulary | None) -> tuple[str, ...]:
    got = [r.player(players)]
    while not r.at_end:
        got.append(r.player(players))
    return tuple(got)


def read_chance(text: str, star: int, players: Vocabulary | None) -> ChanceCommand:
    """Read the chance line in `text` (comment already cut off) whose '*' is at `star`;
    a drawn tile may be hidden (`HIDDEN`).

    Raises:
        NotationError: the line is no chance line of Signorie.
    """
    spans = _segments(text, star + 1)
    first_stop = spans[0][1]
    head = Reader(text, star + 1, first_stop, ["*"],
                  END_OF_LINE if len(spans) == 1 else quote(","))
    event = head.word(CHANCE_WORDS)
    if event == "alliances":
        if len(spans) == 1 and head.at_end:
            return Alliances(())
        return Alliances(_listed(text, head, spans, _alliance_item))
    if event == "roll":
        return Roll(_listed(text, head, spans, _roll_item))
    if len(spans) > 1:  # no commas here: read the whole line, to fail at the first one
        head = Reader(text, star + 1, len(text), ["*"])
        head.word(CHANCE_WORDS)
    chance: ChanceCommand
    if event == "order":
        chance = Order(_players(head, players))
    elif event == "cities":
        chance = Cities(head.words(CITY_WORDS))
    elif event == "rewards":
        chance = Rewards(_words(head, REWARD_TILES))
    elif event == "tasks":
        chance = Tasks(_words(head, TASK_WORDS))
    elif event == "births":
        player = head.player(players)
        chance = Births(player, _dice(head))
    else:
        player = head.player(players)
        if not head.at_end and head.peek() == HIDDEN:
            head.said.append(HIDDEN)
            head.i += 1
            chance = Draw(player, HIDDEN)
        else:
            chance = Draw(player, _word(head, ALLIANCE_TILES))
        head.end()
    return chance


# --- writing ---------------------------------------------------------------------------


def format_command(cmd: Command) -> str:
    """The canonical text of a command: lowercase, full names, single spaces, no
    comment; a chance command as its `* ...` line.

    Raises:
        TypeError: `cmd` is no command of Signorie.
    """
    match cmd:
        case Take(colour, value, action):
            return f"take {colour} {value} {format_action(action)}"
        case Activate(space, action):
            return f"helper {space}" if action is None else \
                f"helper {space} {format_action(action)}"
        case Reward(choice, action):
            return f"reward {choice}" if action is None else \
                f"reward {choice} {format_action(action)}"
        case Done() | Pass() | Undo() | Agree() | Refuse():
            return cmd.verb
        case Order(names):
            return " ".join(("* order", *names))
        case Cities(cities):
            return " ".join(("* cities", *cities))
        case Rewards(tiles):
            return " ".join(("* rewards", *tiles))
        case Alliances(tiles):
            return " ".join(("* alliances", ", ".join(" ".join(t) for t in tiles))).rstrip()
        case Roll(dice):
            return "* roll " + ", ".join(
                " ".join((colour, *map(str, sorted(values)))) for colour, values in dice)
        case Tasks(tiles):
            return " ".join(("* tasks", *tiles))
        case Births(player, values):
            return " ".join(("* births", player, *map(str, values)))
        case Draw(player, tile):
            return f"* draw {player} {tile}"
    raise TypeError(f"not a command of signorie: {cmd!r}")


def is_hidden(cmd: Command) -> bool:
    """True if the command holds a hidden tile (`* draw PLAYER ?`, a public log)."""
    return type(cmd) is Draw and cmd.tile == HIDDEN


def public(cmd: Command) -> Command:
    """The command as every player may see it: a drawn face-down tile as `?` (S8: its
    owner does not see it either)."""
    if type(cmd) is Draw:
        return Draw(cmd.player, HIDDEN)
    return cmd
