"""Words for Signorie's players: events as short lines, legal commands grouped.

Everything here works on what a seat may see: events already redacted for it. The
only hidden value in Signorie is the face of a face-down alliance tile (S8), which no
line names before the final scoring, not even to its owner: a draw says only beside
which row the tile went.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.consent import Reverted
from engine.signorie.commands import (
    COLOURS,
    Activate,
    Alliance,
    Florins,
    Helper,
    Hire,
    Marry,
    Mission,
    Offspring,
    Reward,
    Take,
    Task,
)
from engine.signorie.events import (
    AllianceDrawn,
    AllianceDue,
    AlliancesLaid,
    BirthsDue,
    BirthsRolled,
    CitiesDrawn,
    DiceCleared,
    DiceRolled,
    DieTaken,
    ExtraSkipped,
    FigureMoved,
    FiguresTaken,
    FlorinsGained,
    GameEnded,
    GameStarted,
    HelperHired,
    HelperUsed,
    InitiativeMoved,
    Married,
    MissionSent,
    OrderDrawn,
    Passed,
    PointsScored,
    RewardChecked,
    RewardsLaid,
    RewardTaken,
    RoundEnded,
    RoundStarted,
    SonMarried,
    TasksLaid,
    TaskUsed,
    TurnEnded,
    TurnOrderSet,
)

ROW_WORDS = {"marriage": "marriage row"}
"""How a plan row is named in a line (a career row: "the military row")."""


def _who(seat: int, names: Sequence[str], viewer: int | None) -> str:
    return "you" if seat == viewer else names[seat]


def _owns(seat: int, names: Sequence[str], viewer: int | None) -> str:
    return "your" if seat == viewer else f"{names[seat]}'s"


def _s(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _row(row: str) -> str:
    return ROW_WORDS.get(row, f"{row} row")


def _figures(males: int, females: int) -> str:
    parts = [_s(males, "male")] if males else []
    parts += [_s(females, "female")] if females else []
    return " and ".join(parts) or "no figure"


def describe_event(event: Any, names: Sequence[str], viewer: int | None) -> str:
    """One line about an event already redacted for `viewer`."""
    who = lambda seat: _who(seat, names, viewer)  # noqa: E731
    match event:
        case GameStarted(players=players):
            return f"the game starts: {', '.join(players)}"
        case OrderDrawn(order=order):
            return "the first turn order: " + ", ".join(names[s] for s in order)
        case CitiesDrawn(cities=cities):
            return "the cities in play: " + ", ".join(cities)
        case RewardsLaid(tiles=tiles):
            return "the reward row: " + " ".join(tiles)
        case RoundStarted(round=rnd):
            return f"round {rnd} begins"
        case AlliancesLaid(tiles=tiles):
            laid = ", ".join(f"{city} {field} {tile}" for city, field, tile in tiles)
            return f"alliance tiles laid face up: {laid}" if laid else \
                "no alliance tile field was empty"
        case DiceRolled(dice=dice):
            return "the dice: " + "; ".join(f"{c} {' '.join(map(str, v))}" for c, v in dice if v)
        case TasksLaid(tiles=tiles):
            return "task tiles: " + " ".join(tiles)
        case BirthsDue(seat=seat, n=n):
            dice = "1 white die" if n == 1 else f"{n} white dice"
            return f"{who(seat)} {'roll' if seat == viewer else 'rolls'} {dice}"
        case BirthsRolled(seat=seat, values=values, males=males, females=females):
            rolled = " ".join(map(str, values)) or "nothing"
            return (f"{who(seat)} rolled {rolled}: {_figures(males, females)} to the "
                    "available supply")
        case AllianceDue(seat=seat, row=row):
            return f"{who(seat)} will take a face-down alliance tile beside the {_row(row)}"
        case AllianceDrawn(player=seat, row=row):
            # the tile itself: nobody's, not even its owner's, until the end (S8)
            return f"{who(seat)} took a face-down alliance tile beside the {_row(row)}"
        case DieTaken(seat=seat, colour=colour, value=value, cost=cost, free=free):
            paid = "free (an extra action)" if free else \
                (f"for {_s(cost, 'florin')}" if cost else "free")
            return f"{who(seat)} took the {colour} {value}, {paid}"
        case HelperHired(seat=seat, colour=colour, space=space, cost=cost):
            paid = f" for {_s(cost, 'florin')}" if cost else " free"
            return f"{who(seat)} hired a helper onto {colour} space {space}{paid}"
        case FlorinsGained(seat=seat, florins=florins):
            return f"{who(seat)} gained {_s(florins, 'florin')}"
        case PointsScored(seat=seat, points=points, why=why):
            return f"{who(seat)} scored {points} VP" + (f" ({why})" if why else "")
        case Married(seat=seat, city=city, space=space, dowry=dowry, points=points, tile=tile):
            took = f", took the tile {tile}" if tile else ""
            return (f"{who(seat)} married a daughter in {city} (space {space + 1}) for "
                    f"{_s(dowry, 'florin')}: {points} VP{took}")
        case MissionSent(seat=seat, career=career, start=start, city=city, space=space,
                         points=points, tile=tile):
            took = f", took the tile {tile}" if tile else ""
            article = "an" if career[:1] in "aeiou" else "a"
            return (f"{who(seat)} sent {article} {career} diplomat from space {start} to "
                    f"{city} (space {space + 1}): {points} VP{took}")
        case FigureMoved(seat=seat, career=career, start=start, to=to):
            if start == 0:
                return f"{who(seat)} put a male figure on the {career} track, space {to}"
            return f"{_owns(seat, names, viewer)} {career} figure moved from {start} to {to}"
        case InitiativeMoved(seat=seat, to=to):
            return f"{_owns(seat, names, viewer)} initiative disc moved up to {to}"
        case TaskUsed(seat=seat, tile=tile, sex=sex, count=count):
            return (f"{who(seat)} used the task {tile}, returning "
                    f"{_figures(count if sex == 'm' else 0, count if sex == 'f' else 0)}")
        case FiguresTaken(seat=seat, males=males, females=females):
            return f"{who(seat)} took {_figures(males, females)} from the General Supply"
        case HelperUsed(seat=seat, space=space):
            return f"{who(seat)} activated the helper on space {space}"
        case TurnEnded(seat=seat):
            return f"{_owns(seat, names, viewer)} turn ended"
        case Passed(seat=seat, auto=auto):
            return f"{who(seat)} passed" + (" (no die left to take)" if auto else "")
        case TurnOrderSet(order=order):
            return "the new turn order: " + ", ".join(names[s] for s in order)
        case RewardChecked(rewarded=rewarded):
            if not rewarded:
                return "nobody stayed within the reward threshold"
            return "within the reward threshold: " + ", ".join(who(s) for s in rewarded)
        case RewardTaken(seat=seat, choice=choice):
            return f"{who(seat)} took the reward: {REWARD_WORDS.get(choice, choice)}"
        case SonMarried(seat=seat, son=son, points=points, florins=florins):
            gained = [f"{points} VP"] if points else []
            gained += [_s(florins, "florin")] if florins else []
            return (f"{_owns(seat, names, viewer)} son {son} married"
                    + (f": {', '.join(gained)}" if gained else ""))
        case DiceCleared():
            return "every die left the player boards (the extra action)"
        case ExtraSkipped(seat=seat):
            return f"{who(seat)} could use no leftover die for the extra action"
        case RoundEnded(round=rnd):
            return f"round {rnd} is over"
        case GameEnded(revealed=revealed, careers=careers, rows=rows, winners=winners):
            return _ended(revealed, careers, rows, winners, names, viewer)
        case Reverted(seat=seat, to_version=version):
            return f"{_owns(seat, names, viewer)} command was taken back (to v{version})"
    return type(event).__name__


REWARD_WORDS = {"bonus": "the bonus tile", "florins": "florins", "points": "the VP tile",
                "buy": "the VP tile, and 5 VP bought"}


def _ended(revealed: Sequence[tuple[int, str, str]], careers: Sequence[int],
           rows: Sequence[int], winners: Sequence[int], names: Sequence[str],
           viewer: int | None) -> str:
    parts = []
    for seat in range(len(names)):
        tiles = " ".join(f"{tile} ({row})" for s, row, tile in revealed if s == seat)
        who = _who(seat, names, viewer)
        score = f"{who}: {careers[seat]} VP for career figures, {rows[seat]} VP for plan rows" \
            if seat < len(careers) and seat < len(rows) else who
        parts.append(score + (f", face-down tiles {tiles}" if tiles else ""))
    won = ", ".join(_who(w, names, viewer) for w in winners)
    return f"final scoring: {'; '.join(parts)}. Won by {won}" if won else \
        f"final scoring: {'; '.join(parts)}"


# --------------------------------------------------------------------------- commands


def _span(values: Sequence[int]) -> str:
    """`1-3` for a run of numbers, `1/3` otherwise."""
    vs = sorted(set(values))
    if len(vs) > 1 and vs == list(range(vs[0], vs[-1] + 1)):
        return f"{vs[0]}-{vs[-1]}"
    return "/".join(map(str, vs))


def _kinds(pairs: Sequence[tuple[Any, Any]], fmt: Callable[[Any], str],
           hire_onto: str = "") -> list[str]:
    """What one die (or helper, or reward) allows, a line per kind of action and per
    task tile: the choices in short (`hire yellow 1-3`, `marry firenze 1-4, roma 2-4`),
    or, where a command needs more words, how many and one legal command written out
    (`task military 1-3, e.g. take grey 4 task military 2 mil+2`). `pairs`: (action,
    command); `fmt` writes a command."""
    groups: dict[str, list[tuple[Any, Any]]] = {}
    for a, cmd in pairs:
        if a is None:
            continue
        key = f"task {a.tile}" if isinstance(a, Task) else a.word
        groups.setdefault(key, []).append((a, cmd))
    lines = []
    for key, group in groups.items():
        first, cmd = group[0]
        actions = [a for a, _ in group]
        if isinstance(first, Hire):
            column = f"{hire_onto} " if hire_onto else ""
            lines.append(f"hire {column}{_span([a.space for a in actions])}")
        elif isinstance(first, Marry):
            cities: dict[str, list[int]] = {}
            for a in actions:
                cities.setdefault(a.city, []).append(a.dowry)
            lines.append("marry " + ", ".join(f"{c} {_span(d)}" for c, d in cities.items()))
        elif isinstance(first, Mission):
            who = ", ".join(dict.fromkeys(f"{a.career} {a.space}" for a in actions))
            where = "/".join(dict.fromkeys(a.city for a in actions))
            lines.append(f"mission {who} to {where}")
        elif isinstance(first, Helper):
            lines.append("helper " + ", ".join(dict.fromkeys(f"{a.colour} {a.space}"
                                                             for a in actions)))
        elif isinstance(first, Alliance):
            lines.append("alliance " + "/".join(dict.fromkeys(a.row for a in actions)))
        elif isinstance(first, Task) and all(a.then is None for a in actions):
            lines.append(f"{key} {_span([a.count for a in actions])}")
        elif isinstance(first, Florins | Offspring) or len(group) == 1:
            lines.append(_action_text(cmd, fmt))
        elif isinstance(first, Task):
            counts = {a.count for a in actions}
            many = f" {_span(sorted(counts))}" if len(counts) > 1 else ""
            lines.append(f"{key}{many}, e.g. {fmt(cmd)}")
        else:  # tracks, figures: too many ways to list
            lines.append(f"{key}, e.g. {fmt(cmd)}")
    return lines


def hire_column(colour: str) -> str:
    """The column a die of `colour` hires onto: the one to its left, the leftmost
    wrapping round to the rightmost (S2; a hire is only offered where the rules allow
    it)."""
    return COLOURS[COLOURS.index(colour) - 1]


def _action_text(cmd: Any, format_command: Callable[[Any], str]) -> str:
    """The part of a written command after its die, helper space or reward choice."""
    text = format_command(cmd)
    if isinstance(cmd, Take):
        head = f"take {cmd.colour} {cmd.value} "
    elif isinstance(cmd, Activate):
        head = f"helper {cmd.space} "
    elif isinstance(cmd, Reward):
        head = f"reward {cmd.choice} "
    else:
        head = ""
    return text[len(head):] if text.startswith(head) else text


def summarise_commands(cmds: Sequence[Any], view: Any = None,
                       format_command: Callable[[Any], str] | None = None) -> list[str]:
    """A seat's legal commands as a short list: a line per die on offer with its cost
    to the viewer (`view`: the seat's view; dice of a colour that allow the same
    actions on one line), per helper and per reward choice, each
    followed by what it allows (`_kinds`, indented), then the other commands as
    written (`format_command`: the game's notation; without it, a command's word)."""
    fmt = format_command or _plain
    costs = {(d.colour, d.value): d.cost for d in getattr(view, "dice", ()) or ()}
    takes: dict[tuple[str, int], list[tuple[Any, Any]]] = {}
    helpers: dict[int, list[tuple[Any, Any]]] = {}
    rewards: dict[str, list[tuple[Any, Any]]] = {}
    rest: list[str] = []
    for c in cmds:
        if isinstance(c, Take):
            takes.setdefault((c.colour, c.value), []).append((c.action, c))
        elif isinstance(c, Activate):
            helpers.setdefault(c.space, []).append((c.action, c))
        elif isinstance(c, Reward):
            rewards.setdefault(c.choice, []).append((c.action, c))
        else:
            rest.append(fmt(c))
    lines = []

    def group(head: str, pairs: list[tuple[Any, Any]], hire_onto: str = "") -> None:
        kinds = _kinds(pairs, fmt, hire_onto)
        if len(kinds) == 1 and len(head) + len(kinds[0]) < 60:
            lines.append(f"{head}: {kinds[0]}")
            return
        lines.append(f"{head}:" if kinds else head)
        lines.extend(f"  {k}" for k in kinds)

    # dice of one colour that allow the same actions share their lines
    alike: dict[tuple[str, tuple[Any, ...]], list[int]] = {}
    for (colour, value), pairs in takes.items():
        alike.setdefault((colour, tuple(a for a, _ in pairs)), []).append(value)
    for (colour, _), values in alike.items():
        dice = []
        for value in values:
            cost = costs.get((colour, value))
            price = "" if cost is None else (" (free)" if cost == 0 else f" ({cost} fl)")
            dice.append(f"{value}{price}")
        group(f"take {colour} {' or '.join(dice)}", takes[(colour, values[0])],
              hire_column(colour))
    for space, pairs in sorted(helpers.items()):
        group(f"helper {space}", pairs)
    for choice, pairs in rewards.items():
        group(f"reward {choice}", pairs)
    lines.extend(dict.fromkeys(rest))
    return lines


def _plain(cmd: Any) -> str:
    """A command's word, when no grammar is at hand to write it."""
    return str(getattr(cmd, "verb", getattr(cmd, "word", type(cmd).__name__.lower())))
