"""The fast path of Signorie's notation: common well-formed lines read with plain dict
lookups and no bookkeeping.

The readers of `notation.signorie.commands` explain every error; the functions here
only recognise well-formed spellings and return None for anything unusual (every error
included), and the log reader then takes the slow path, which is the reference: a fast
result always equals the slow one (tests/notation/test_signorie_fast.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from engine.signorie.commands import (
    CAREERS,
    TRACKS,
    Action,
    Activate,
    Alliance,
    Alliances,
    Births,
    ChanceCommand,
    Cities,
    Draw,
    Figures,
    Florins,
    Helper,
    Hire,
    Marry,
    Mission,
    Offspring,
    Order,
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
from notation.words import Vocabulary

from .commands import HIDDEN, SIMPLE, format_step
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
    VERBS,
)

_VERB = VERBS.lookup
_ACTION = ACTION_WORDS.lookup
_COLOUR = COLOUR_WORDS.lookup
_CITY = CITY_WORDS.lookup
_CAREER = CAREER_WORDS.lookup
_ROW = ROW_WORDS.lookup
_SEX = SEX_WORDS.lookup
_TASK = TASK_WORDS.lookup
_CHOICE = REWARD_CHOICES.lookup
_CHANCE = CHANCE_WORDS.lookup
_TILE = ALLIANCE_TILES.lookup
_FIELD = FIELD_WORDS.lookup
_REWARD_TILE = REWARD_TILES.lookup
_FACE = {str(v): v for v in DIE_FACES}

FAST_SPACES = 20
"""Steps up to this space are in the step table; higher ones take the slow path."""


def _step_table() -> dict[str, Step]:
    steps = [Step(INITIATIVE, 0, to) for to in range(1, FAST_SPACES + 1)]
    for track in CAREERS:
        steps += [Step(track, 0, to) for to in range(1, FAST_SPACES + 1)]
        steps += [Step(track, start, to) for start in range(1, FAST_SPACES + 1)
                  for to in range(start + 1, FAST_SPACES + 1)]
    return {format_step(step): step for step in steps}


STEPS = _step_table()
"""Every canonical step up to space `FAST_SPACES`, by its text."""
assert {step.track for step in STEPS.values()} == set(TRACKS)

# Tokens are looked up as written first: a canonical log is lowercase, and every key
# of these tables is, so a token found as written is the word its lowercase gives.
assert all(k == k.lower() for lookup in (
    _VERB, _ACTION, _COLOUR, _CITY, _CAREER, _ROW, _SEX, _TASK, _CHOICE, _CHANCE, _TILE,
    _FIELD, _REWARD_TILE) for k in lookup)
assert all(k == k.lower() for k in STEPS)


def _word(tok: str, lookup: dict[str, str]) -> str | None:
    return lookup.get(tok) or lookup.get(tok.lower())


def _number(tok: str) -> int | None:
    if tok.isdigit() and tok.isascii() and len(tok) <= MAX_DIGITS:
        return int(tok)
    return None


def _steps(toks: list[str]) -> tuple[Step, ...] | None:
    if not toks:
        return None
    steps = []
    for tok in toks:
        step = STEPS.get(tok) or STEPS.get(tok.lower())
        if step is None:
            return None
        steps.append(step)
    return tuple(steps)


def _words(toks: list[str], lookup: dict[str, str]) -> tuple[str, ...] | None:
    words: tuple[Any, ...] = tuple(map(lookup.get, toks))  # each as written, mostly found
    if None in words:
        words = tuple([lookup.get(tok) or lookup.get(tok.lower()) for tok in toks])
        if None in words:
            return None
    return words or None


def _dice(toks: list[str]) -> tuple[int, ...] | None:
    values: tuple[Any, ...] = tuple(map(_FACE.get, toks))
    return values if values and None not in values else None


# --- actions: the tokens after the action's word --------------------------------------


def _hire(args: list[str]) -> Action | None:
    space = _number(args[0]) if len(args) == 1 else None
    return Hire(space) if space is not None else None


def _florins(args: list[str]) -> Action | None:
    return None if args else Florins()


def _offspring(args: list[str]) -> Action | None:
    return None if args else Offspring()


def _marry(args: list[str]) -> Marry | None:
    if len(args) != 2:
        return None
    city = _word(args[0], _CITY)
    dowry = _number(args[1])
    return Marry(city, dowry) if city is not None and dowry is not None else None


def _tracks(args: list[str]) -> Action | None:
    steps = _steps(args)
    return Tracks(steps) if steps is not None else None


def _mission(args: list[str]) -> Mission | None:
    if len(args) != 3:
        return None
    career = _word(args[0], _CAREER)
    space = _number(args[1])
    city = _word(args[2], _CITY)
    if career is None or space is None or city is None:
        return None
    return Mission(career, space, city)


def _alliance(args: list[str]) -> Alliance | None:
    row = _word(args[0], _ROW) if len(args) == 1 else None
    return Alliance(row) if row is not None else None


def _figures(args: list[str]) -> Action | None:
    sexes = _words(args, _SEX)
    return Figures(sexes) if sexes is not None else None


def _helper(args: list[str]) -> Action | None:
    if len(args) != 2:
        return None
    colour = _word(args[0], _COLOUR)
    space = _number(args[1])
    return Helper(colour, space) if colour is not None and space is not None else None


def _task(args: list[str]) -> Action | None:
    if not args:
        return None
    name = _word(args[0], _TASK)
    if name is None:
        return None
    tile = TASK_TILES[name]
    kind = tile.kind
    rest = args[1:]
    if kind == "tracks" or kind == "count":
        if not rest:
            return None
        count = _number(rest[0])
        if count is None:
            return None
        if kind == "count":
            return Task(name, count) if len(rest) == 1 else None
        steps = _steps(rest[1:])
        return Task(name, count, Tracks(steps)) if steps is not None else None
    then: Action | None
    if kind == "marry":
        then = _marry(rest)
    elif kind == "mission":
        then = _mission(rest)
    elif kind == "alliance":
        then = _alliance(rest)
    else:
        sexes = _words(rest, _SEX)
        if sexes is None:
            return None
        return Task(name, tile.figures or len(sexes), Figures(sexes))
    return Task(name, tile.figures, then) if then is not None else None


_ACTIONS: dict[str, Callable[[list[str]], Action | None]] = {
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


def _action(toks: list[str]) -> Action | None:
    """The action of `toks` (its word first, nothing after it), or None."""
    word = _word(toks[0], _ACTION)
    return _ACTIONS[word](toks[1:]) if word is not None else None


# --- commands -------------------------------------------------------------------------


def fast_command(toks: list[str], players: Vocabulary | None) -> PlayerCommand | None:
    """The command the tokens spell if they are a common well-formed command, else None
    (the slow path `read_command` then parses or explains)."""
    if not toks:
        return None
    verb = _word(toks[0], _VERB)
    n = len(toks)
    if verb is None:
        return None
    if n == 1:
        return SIMPLE.get(verb)
    if verb == "take":
        if n < 4:
            return None
        colour = _word(toks[1], _COLOUR)
        value = _FACE.get(toks[2])
        action = _action(toks[3:])
        if colour is None or value is None or action is None:
            return None
        return Take(colour, value, action)
    if verb == "helper":
        space = _number(toks[1])
        if space is None:
            return None
        if n == 2:
            return Activate(space)
        action = _action(toks[2:])
        return Activate(space, action) if action is not None else None
    if verb == "reward":
        choice = _word(toks[1], _CHOICE)
        if choice is None:
            return None
        if n == 2:
            return Reward(choice)
        if choice != "bonus":
            return None
        action = _action(toks[2:])
        return Reward(choice, action) if action is not None else None
    return None


# --- chance lines ------------------------------------------------------------------------


T = TypeVar("T")

ITEMS = 1 << 12
"""At most this many items of `* roll` and `* alliances` lines are remembered (then they
are forgotten and remembered anew)."""

_ROLLED: dict[str, tuple[str, tuple[int, ...]]] = {}
"""The item of a `* roll` line by its text between commas (`yellow 1 2 4 4`): a roll as
a whole seldom comes again, but the dice of one colour do (126 sorted rolls of 4 dice)."""

_LAID: dict[str, tuple[str, str, str]] = {}
"""The item of an `* alliances` line by its text between commas (`milano marriage
este2`), for the same reason."""


def _player(tok: str, players: Vocabulary | None) -> str | None:
    if players is None:
        return tok.lower()
    return players.lookup.get(tok) or players.lookup.get(tok.lower())


def _roll_item(toks: list[str]) -> tuple[str, tuple[int, ...]] | None:
    if len(toks) < 2:
        return None
    colour = _word(toks[0], _COLOUR)
    values = _dice(toks[1:])
    if colour is None or values is None:
        return None
    return colour, tuple(sorted(values))


def _alliance_item(toks: list[str]) -> tuple[str, str, str] | None:
    if len(toks) != 3:
        return None
    city = _word(toks[0], _CITY)
    field = _word(toks[1], _FIELD)
    tile = _word(toks[2], _TILE)
    if city is None or field is None or tile is None:
        return None
    return city, field, tile


def _remembered(items: list[str], memo: dict[str, T],
                read: Callable[[list[str]], T | None]) -> tuple[T, ...] | None:
    """Each item read by `read` from its words, or as `memo` remembers it by its text
    (at most ITEMS texts); None if one is not a good item."""
    out = []
    for item in items:
        value = memo.get(item)
        if value is None:
            value = read(item.split())
            if value is None:
                return None
            if len(memo) >= ITEMS:
                memo.clear()
            memo[item] = value
        out.append(value)
    return tuple(out)


def _roll(items: list[str]) -> Roll | None:
    rolled = _remembered(items, _ROLLED, _roll_item)
    return None if rolled is None else Roll(rolled)


def _alliances(items: list[str]) -> Alliances | None:
    tiles = _remembered(items, _LAID, _alliance_item)
    return None if tiles is None else Alliances(tiles)


def fast_chance(text: str, star: int, players: Vocabulary | None) -> ChanceCommand | None:
    """The chance command of a common well-formed chance line, else None (the slow path
    `read_chance` then parses or explains)."""
    head = text[star + 1 :].split(None, 1)
    if not head:
        return None
    tok = head[0]
    event = _CHANCE.get(tok) or _CHANCE.get(tok.lower())
    if event is None:
        return None
    if len(head) == 1:  # the event's word alone (a comma in it is no event word)
        return Alliances(()) if event == "alliances" else None
    rest = head[1]
    if event == "roll":
        return _roll(rest.split(","))
    if event == "alliances":
        return _alliances(rest.split(","))
    if "," in rest:
        return None
    args = rest.split()
    if event == "births" or event == "draw":
        player = _player(args[0], players)
        if player is None:
            return None
        if event == "births":
            values = _dice(args[1:])
            return Births(player, values) if values is not None else None
        if len(args) != 2:
            return None
        drawn = HIDDEN if args[1] == HIDDEN else _word(args[1], _TILE)
        return Draw(player, drawn) if drawn is not None else None
    if event == "order":
        names = [_player(tok, players) for tok in args]
        return None if None in names else Order(tuple(n for n in names if n is not None))
    words = _words(args, _TASK if event == "tasks" else
                   _CITY if event == "cities" else _REWARD_TILE)
    if words is None:
        return None
    if event == "tasks":
        return Tasks(words)
    return Cities(words) if event == "cities" else Rewards(words)
