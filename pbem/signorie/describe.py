"""Words for Signorie's players: events as short lines, legal commands grouped.

Everything here works on what a seat may see: events already redacted for it. The
only hidden value in Signorie is the face of a face-down alliance tile (S8), which no
line names before the final scoring, not even to its owner: a draw says only beside
which row the tile went.
"""

from __future__ import annotations

import re
import textwrap
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
from pbem.i18n import N_, _, current_language, ngettext, pgettext, term, tr

from .terms import name as _name

WIDTH = 74
"""The widest line an event's text may have: a text mail prints it after `  - `, and
a mail's line is at most 78 characters, so a client need not wrap it. A longer line
is broken at spaces, its continuation indented by 4."""


KEEP = "\x00"
"""Stands for a space that `fit` does not break a line at (inside a name or an item
of a list); `fit` writes it as a space."""


POINTS = re.compile(r"\b\d+ (?:VP|OP|ΠΝ)\b")
"""A number of VP (in any language): never broken from its unit."""


def fit(text: str) -> str:
    """`text`, each of its lines broken at spaces to `WIDTH` (continuations indented),
    never inside a kept group (`keep`)."""
    out: list[str] = []
    text = POINTS.sub(lambda m: m.group(0).replace(" ", KEEP), text)
    for line in text.split("\n"):
        indent = " " * (len(line) - len(line.lstrip(" ")))
        out.extend(textwrap.wrap(line, WIDTH, subsequent_indent=indent + "    ",
                                 break_long_words=False, break_on_hyphens=False) or [""])
    return "\n".join(out).replace(KEEP, " ")


def keep(text: str) -> str:
    """`text` as one group that `fit` does not break."""
    return text.replace(" ", KEEP)


def name(word: str) -> str:
    """A name in the reader's language, its notation word beside it, kept whole."""
    return keep(_name(word))


def terms(words: Sequence[str], sep: str = ", ") -> str:
    """Several names, each kept whole."""
    return sep.join(name(w) for w in words)


def _who(seat: int, names: Sequence[str], viewer: int | None) -> str:
    return _("you") if seat == viewer else names[seat]


def _florins(n: int) -> str:
    return keep(ngettext("%(n)s florin", "%(n)s florins", n) % {"n": n})


def _row(row: str) -> str:
    """A plan row named in a line: "the political row", "the marriage row"."""
    return tr("the %(row)s row", row=name(row))


def _figures(males: int, females: int) -> str:
    if males and females:
        return tr("%(males)s and %(females)s", males=_males(males), females=_females(females))
    if males:
        return _males(males)
    return _females(females) if females else _("no figure")


def _males(n: int) -> str:
    return ngettext("%(n)s male", "%(n)s males", n) % {"n": n}


def _females(n: int) -> str:
    return ngettext("%(n)s female", "%(n)s females", n) % {"n": n}


def describe_event(event: Any, names: Sequence[str], viewer: int | None) -> str:
    """One line about an event already redacted for `viewer` (a long one broken into
    lines of at most `WIDTH`, its continuations indented)."""
    return fit(_describe(event, names, viewer))


def _describe(event: Any, names: Sequence[str], viewer: int | None) -> str:
    who = lambda seat: _who(seat, names, viewer)  # noqa: E731
    own = lambda seat: seat == viewer  # noqa: E731
    match event:
        case GameStarted(players=players):
            return tr("the game starts: %(players)s", players=", ".join(players))
        case OrderDrawn(order=order):
            return tr("the first turn order: %(order)s", order=", ".join(names[s] for s in order))
        case CitiesDrawn(cities=cities):
            return tr("the cities in play: %(cities)s", cities=terms(cities))
        case RewardsLaid(tiles=tiles):
            return tr("the reward row: %(tiles)s", tiles=terms(tiles))
        case RoundStarted(round=rnd):
            return tr("round %(round)s begins", round=rnd)
        case AlliancesLaid(tiles=tiles):
            if not tiles:
                return _("no alliance tile field was empty")
            laid = ", ".join(keep(f"{name(city)} {name(field)} {tile}")
                             for city, field, tile in tiles)
            return tr("alliance tiles laid face up: %(tiles)s", tiles=laid)
        case DiceRolled(dice=dice):
            rolled = "; ".join(keep(f"{name(c)} {' '.join(map(str, v))}") for c, v in dice if v)
            return tr("the dice: %(dice)s", dice=rolled)
        case TasksLaid(tiles=tiles):
            # per colour its upper / lower tile; a line each when one line is too short
            fields = [f"{name(c)}{KEEP}{terms(tiles[2 * i:2 * i + 2], ' / ')}"
                      for i, c in enumerate(COLOURS) if tiles[2 * i:2 * i + 2]]
            line = tr("task tiles: %(tiles)s", tiles="; ".join(fields))
            if len(line) <= WIDTH:
                return line
            return tr("task tiles: %(tiles)s", tiles="").rstrip() + "".join(
                "\n    " + f for f in fields)
        case BirthsDue(seat=seat, n=n):
            if own(seat):
                return ngettext("you roll %(n)s white die", "you roll %(n)s white dice", n) % {
                    "n": n}
            return ngettext("%(who)s rolls %(n)s white die", "%(who)s rolls %(n)s white dice",
                            n) % {"who": who(seat), "n": n}
        case BirthsRolled(seat=seat, values=values, males=males, females=females):
            return tr("%(who)s rolled %(values)s: %(figures)s to the available supply",
                      who=who(seat), values=" ".join(map(str, values)) or _("nothing"),
                      figures=_figures(males, females))
        case AllianceDue(seat=seat, row=row):
            return tr("%(who)s will take a face-down alliance tile beside %(row)s",
                      who=who(seat), row=_row(row))
        case AllianceDrawn(player=seat, row=row):
            # the tile itself: nobody's, not even its owner's, until the end (S8)
            return tr("%(who)s took a face-down alliance tile beside %(row)s", who=who(seat),
                      row=_row(row))
        case DieTaken(seat=seat, colour=colour, value=value, cost=cost, free=free):
            die = tr("the %(colour)s %(value)s", colour=name(colour), value=value)
            if free:
                return tr("%(who)s took %(die)s, free (an extra action)", who=who(seat), die=die)
            if cost:
                return tr("%(who)s took %(die)s for %(florins)s", who=who(seat), die=die,
                          florins=_florins(cost))
            return tr("%(who)s took %(die)s, free", who=who(seat), die=die)
        case HelperHired(seat=seat, colour=colour, space=space, cost=cost):
            if cost:
                return tr("%(who)s hired a helper onto %(colour)s space %(space)s for "
                          "%(florins)s", who=who(seat), colour=name(colour), space=space,
                          florins=_florins(cost))
            return tr("%(who)s hired a helper onto %(colour)s space %(space)s free",
                      who=who(seat), colour=name(colour), space=space)
        case FlorinsGained(seat=seat, florins=florins):
            return tr("%(who)s gained %(florins)s", who=who(seat), florins=_florins(florins))
        case PointsScored(seat=seat, points=points, why=why):
            if why:
                return tr("%(who)s scored %(points)s VP (%(why)s)", who=who(seat), points=points,
                          why=name(why))
            return tr("%(who)s scored %(points)s VP", who=who(seat), points=points)
        case Married(seat=seat, city=city, space=space, dowry=dowry, points=points, tile=tile):
            line = tr("%(who)s married a daughter in %(city)s (space %(space)s) for "
                      "%(florins)s: %(points)s VP", who=who(seat), city=name(city),
                      space=space + 1, florins=_florins(dowry), points=points)
            return line + (tr(", took the tile %(tile)s", tile=tile) if tile else "")
        case MissionSent(seat=seat, career=career, start=start, city=city, space=space,
                         points=points, tile=tile):
            line = tr("%(who)s sent the %(career)s diplomat from space %(start)s to "
                      "%(city)s (space %(space)s): %(points)s VP", who=who(seat),
                      career=name(career), start=start, city=name(city), space=space + 1,
                      points=points)
            return line + (tr(", took the tile %(tile)s", tile=tile) if tile else "")
        case FigureMoved(seat=seat, career=career, start=start, to=to):
            if start == 0:
                return tr("%(who)s put a male figure on the %(career)s track, space %(to)s",
                          who=who(seat), career=name(career), to=to)
            if own(seat):
                return tr("your %(career)s figure moved from %(start)s to %(to)s",
                          career=name(career), start=start, to=to)
            return tr("%(who)s's %(career)s figure moved from %(start)s to %(to)s",
                      who=names[seat], career=name(career), start=start, to=to)
        case InitiativeMoved(seat=seat, to=to):
            if own(seat):
                return tr("your initiative disc moved up to %(to)s", to=to)
            return tr("%(who)s's initiative disc moved up to %(to)s", who=names[seat], to=to)
        case TaskUsed(seat=seat, tile=tile, sex=sex, count=count):
            return tr("%(who)s used the task %(tile)s, returning %(figures)s", who=who(seat),
                      tile=name(tile), figures=_figures(count if sex == "m" else 0,
                                                        count if sex == "f" else 0))
        case FiguresTaken(seat=seat, males=males, females=females):
            return tr("%(who)s took %(figures)s from the General Supply", who=who(seat),
                      figures=_figures(males, females))
        case HelperUsed(seat=seat, space=space):
            return tr("%(who)s activated the helper on space %(space)s", who=who(seat),
                      space=space)
        case TurnEnded(seat=seat):
            if own(seat):
                return _("your turn ended")
            return tr("%(who)s's turn ended", who=names[seat])
        case Passed(seat=seat, auto=auto):
            if auto:
                return tr("%(who)s passed (no die left to take)", who=who(seat))
            return tr("%(who)s passed", who=who(seat))
        case TurnOrderSet(order=order):
            return tr("the new turn order: %(order)s", order=", ".join(names[s] for s in order))
        case RewardChecked(rewarded=rewarded):
            if not rewarded:
                return _("nobody stayed within the reward threshold")
            return tr("within the reward threshold: %(players)s",
                      players=", ".join(who(s) for s in rewarded))
        case RewardTaken(seat=seat, choice=choice):
            return tr("%(who)s took the reward: %(reward)s", who=who(seat),
                      reward=_reward(choice))
        case SonMarried(seat=seat, son=son, points=points, florins=florins):
            gained = [tr("%(points)s VP", points=points)] if points else []
            gained += [_florins(florins)] if florins else []
            if own(seat):
                line = tr("your son %(son)s married", son=son)
            else:
                line = tr("%(who)s's son %(son)s married", who=names[seat], son=son)
            return line + (f": {', '.join(gained)}" if gained else "")
        case DiceCleared():
            return _("every die left the player boards (the extra action)")
        case ExtraSkipped(seat=seat):
            return tr("%(who)s could use no leftover die for the extra action", who=who(seat))
        case RoundEnded(round=rnd):
            return tr("round %(round)s is over", round=rnd)
        case GameEnded(revealed=revealed, careers=careers, rows=rows, winners=winners):
            return _ended(revealed, careers, rows, winners, names, viewer)
        case Reverted(seat=seat, to_version=version):
            if own(seat):
                return tr("your command was taken back (to v%(version)s)", version=version)
            return tr("%(who)s's command was taken back (to v%(version)s)", who=names[seat],
                      version=version)
    return type(event).__name__


REWARD_WORDS = {"bonus": N_("the bonus tile"), "florins": N_("florins"),
                "points": N_("the VP tile"), "buy": N_("the VP tile, and 5 VP bought")}


def _reward(choice: str) -> str:
    """A reward choice in words, its notation word beside them outside English."""
    words = _(REWARD_WORDS[choice]) if choice in REWARD_WORDS else choice
    return words if current_language() == "en" else term(choice, words)


def _ended(revealed: Sequence[tuple[int, str, str]], careers: Sequence[int],
           rows: Sequence[int], winners: Sequence[int], names: Sequence[str],
           viewer: int | None) -> str:
    """The final scoring: a line per player (its career figures' and plan rows' VP,
    its face-down tiles revealed), then the winners."""
    lines = [_("final scoring:")]
    for seat in range(len(names)):
        who = _who(seat, names, viewer)
        if seat < len(careers) and seat < len(rows):
            line = tr("%(who)s: %(careers)s VP for career figures, %(rows)s VP for plan rows",
                      who=who, careers=careers[seat], rows=rows[seat])
        else:
            line = who
        tiles = ", ".join(tr("%(tile)s beside %(row)s", tile=tile, row=_row(row))
                          for s, row, tile in revealed if s == seat)
        if tiles:
            line += tr("; face-down tiles %(tiles)s", tiles=tiles)
        lines.append("    " + line)
    won = ", ".join(pgettext("object", "you") if w == viewer else names[w] for w in winners)
    if won:
        lines.append("    " + tr("won by %(winners)s", winners=won))
    return "\n".join(lines)


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
            lines.append(tr("mission %(figures)s to %(cities)s", figures=who, cities=where))
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
            action = f"{key}{many}"
            lines.append(tr("%(action)s, e.g. %(command)s", action=action, command=fmt(cmd)))
        else:  # tracks, figures: too many ways to list
            lines.append(tr("%(action)s, e.g. %(command)s", action=key, command=fmt(cmd)))
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
        alike.setdefault((colour, tuple(a for a, _cmd in pairs)), []).append(value)
    for (colour, _same), values in alike.items():
        dice = []
        for value in values:
            cost = costs.get((colour, value))
            price = "" if cost is None else (_(" (free)") if cost == 0 else
                                             tr(" (%(cost)s fl)", cost=cost))
            dice.append(f"{value}{price}")
        either = _(" or ").join(dice)
        group(f"take {colour} {either}", takes[(colour, values[0])],
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
