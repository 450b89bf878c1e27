"""Signorie's position as lines of text, section by section, from a view: the dice on
offer, the task tiles, each player's board, the career and initiative tracks, the
cities, the reward row. The status mail (`templates/signorie/status.*`) and the text
board (`pbem show`) print the same sections, so a mail shows what `show` shows.

A view holds no face-down alliance tile (S8), only how many lie beside each row, so no
line here can name one; the referee's `FullView` adds them, for `pbem show --full`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.signorie.commands import COLOURS
from pbem.i18n import N_, _, ngettext, tr

from .terms import name

SEX = {"m": N_("male"), "f": N_("female")}
PHASES = {"setup": N_("setup"), "prepare": N_("preparation"), "actions": N_("action phase"),
          "rewards": N_("reward phase"), "extra": N_("extra actions"), "over": N_("game over")}


def phase_name(phase: str) -> str:
    """A phase in words, in the reader's language."""
    return _(PHASES[phase]) if phase in PHASES else phase


@dataclass(frozen=True, slots=True)
class Section:
    """A titled block of lines (each line short enough for a phone's screen)."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FullView:
    """The referee's view: the public view and every face-down alliance tile, as
    (player, row, tile) in drawing order. Never for a player."""

    view: Any  # engine.signorie.views.View
    face_down: tuple[tuple[str, str, str], ...]


def cost_text(cost: int | None) -> str:
    if cost is None:
        return ""
    return _("free") if cost == 0 else tr("%(cost)s fl", cost=cost)


EFFECTS = {
    "florins": N_("+%(amount)s florins"),
    "figure": N_("1 figure from your General Supply"),
    "points": N_("+%(amount)s VP"),
    "progress": N_("up to %(amount)s points on %(track)s"),
    "die-progress": N_("the die's value in points on %(track)s"),
    "marriage-alliance": N_("a marriage, a face-down tile instead of the city's"),
    "mission-alliance": N_("a mission, a face-down tile instead of the city's"),
    "males-in-cities": N_("%(amount)s VP per male of yours in a city"),
    "offspring": N_("1 white offspring die"),
    "alliance": N_("a face-down alliance tile beside any row"),
    "task": N_("a task of any colour, 1 figure"),
}


def effect_text(h: Any) -> str:
    """A helper space's effect in words, from its data (effect id, track, amount)."""
    if h.effect in EFFECTS:
        return _(EFFECTS[h.effect]) % {"amount": h.amount,
                                       "track": name(h.track) if h.track else ""}
    extra = " ".join(str(x) for x in (h.track, h.amount or "") if x)
    return f"{h.effect} {extra}".strip()


def florins_text(n: int) -> str:
    return ngettext("%(n)s florin", "%(n)s florins", n) % {"n": n}


def dice_lines(view: Any) -> list[str]:
    """One line per colour: its dice on offer, each with the viewer's cost."""
    lines = []
    for colour in COLOURS:
        dice = [d for d in view.dice if d.colour == colour]
        if not dice:
            continue
        shown = ", ".join(f"{d.value} ({cost_text(d.cost)})" if d.cost is not None
                          else str(d.value) for d in dice)
        lines.append(f"{name(colour)}: {shown}")
    return lines or [_("none left")]


def task_lines(view: Any) -> list[str]:
    """The task tiles on offer, per colour: the tile and the figures it takes."""
    lines = []
    for colour in COLOURS:
        fields = [t for t in view.tasks if t.colour == colour]
        if fields:
            lines.append(f"{name(colour)}: " + ", ".join(
                f"{name(t.tile)} ({_(SEX[t.sex]) if t.sex in SEX else t.sex})" for t in fields))
    return lines or [_("none laid yet")]


def _dice_placed(b: Any) -> str:
    return ", ".join(f"{name(c)} {v}" for c, v in b.dice) or _("none")


def row_text(r: Any) -> str:
    """A plan row: the tiles beside it (open ones by name, face-down ones counted)
    and the families its plan shows."""
    beside = list(r.open) + ([ngettext("%(n)s face-down", "%(n)s face-down", r.face_down)
                              % {"n": r.face_down}] if r.face_down else [])
    return tr("%(row)s: %(tiles)s; plan %(plan)s", row=name(r.row),
              tiles=", ".join(beside) or _("none"), plan=" ".join(r.plan))


def helper_lines(b: Any, *, own: bool) -> list[str]:
    """The board's helper spaces by column, top to bottom: for the board's owner every
    space (a hired one marked `*`, an empty one with its hire cost), for the others
    the hired ones only."""
    lines = []
    for h in b.helpers:
        if h.hired:
            lines.append(f"  * {name(h.colour)} {h.space}: {effect_text(h)}")
        elif own:
            lines.append(f"    {name(h.colour)} {h.space} ({cost_text(h.cost)}): "
                         f"{effect_text(h)}")
    if not own:
        return ["  " + _("helpers:"), *lines] if lines else ["  " + _("helpers: none")]
    return ["  " + _("helpers (* hired, else the cost to hire):"), *lines]


def board_lines(b: Any, *, own: bool) -> list[str]:
    """A player's board: money, VP, figures, dice, sons and helpers; the owner's plan
    rows too (everyone's tiles are in `alliance_lines`)."""
    head = tr("%(name)s (%(plan)s board): %(florins)s, %(points)s VP", name=b.name,
              plan=name(b.plan), florins=florins_text(b.florins), points=b.points)
    lines = [
        head + (_(", passed") if b.passed else ""),
        "  " + tr("figures: %(m)sm %(f)sf available, %(gm)sm %(gf)sf in the General Supply",
                  m=b.males, f=b.females, gm=b.general_m, gf=b.general_f),
        "  " + tr("dice: %(dice)s (sum %(sum)s, threshold %(threshold)s)",
                  dice=_dice_placed(b), sum=b.dice_sum, threshold=b.threshold),
        "  " + tr("sons married: %(sons)s of %(all)s", sons=b.sons, all=b.sons + b.sons_left),
    ]
    m, f = b.threshold_figures
    if m or f:
        lines.append("  " + tr("on the threshold space: %(m)sm %(f)sf", m=m, f=f))
    if own:
        lines.append("  " + _("plan rows (tiles beside them; the plan's families):"))
        lines.extend(f"    {row_text(r)}" for r in b.rows)
    lines.extend(helper_lines(b, own=own))
    return lines


def track_lines(view: Any) -> list[str]:
    """The career tracks, a line per space with figures (space, its VP and rank, the
    owners), and the initiative stack."""
    lines = []
    for t in view.careers:
        held = ["  " + tr("%(space)s (%(vp)s VP, r%(rank)s): %(owners)s", space=i, vp=vp,
                          rank=rank, owners=" ".join(owners))
                for i, (vp, rank, owners) in enumerate(t.spaces, 1) if owners]
        lines.extend([f"{name(t.career)}:", *held] if held else
                     [tr("%(career)s: no figure", career=name(t.career))])
    points = view.initiative_points
    stack = ", ".join(
        f"{player} {space}" + (" (" + tr("%(points)s VP", points=points[space]) + ")"
                               if 0 <= space < len(points) and points[space] else "")
        for player, space in view.initiative)
    lines.append(tr("%(initiative)s, top of the stack first:",
                    initiative=name("initiative")))
    lines.append(f"  {stack}")
    return lines


def _spaces(spaces: Sequence[tuple[int, str | None]]) -> str:
    return " ".join(f"{v}:{owner or '-'}" for v, owner in spaces)


def city_lines(view: Any) -> list[str]:
    """Each city in play: its marriage and mission spaces (value: owner or -) and the
    open alliance tile on each field."""
    lines = []
    for c in view.cities:
        lines.append(f"{name(c.name)}:")
        lines.append("  " + tr("wives %(spaces)s [tile %(tile)s]", spaces=_spaces(c.marriage),
                               tile=c.marriage_tile or "-"))
        lines.append("  " + tr("diplomats %(spaces)s [tile %(tile)s]",
                               spaces=_spaces(c.mission), tile=c.mission_tile or "-"))
    return lines or [_("not drawn yet")]


def alliance_lines(view: Any) -> list[str]:
    """Every player's alliance tiles by row: open ones by name, face-down ones counted."""
    lines = []
    for b in view.players:
        rows = [f"{r.row[:3]} " + " ".join([*r.open, *(["+" + str(r.face_down) + "?"]
                                                      if r.face_down else [])])
                for r in b.rows if r.open or r.face_down]
        lines.append(f"{b.name}: " + ("; ".join(rows) if rows else _("none")))
    return lines


def reward_lines(view: Any) -> list[str]:
    row = list(view.reward_row)
    if not row:
        return [_("not laid yet")]
    sep = " " if all(name(t) == t for t in row) else ", "  # names of several words
    shown = sep.join(f"[{name(t)}]" if i == view.round - 1 else name(t)
                     for i, t in enumerate(row, 0))
    lines = [tr("row: %(tiles)s", tiles=shown)]
    if view.reward_tile is not None:
        lines.append(tr("this round (%(round)s): %(tile)s", round=view.round,
                        tile=name(view.reward_tile)))
    if view.rewarded:
        lines.append(tr("still to take it: %(players)s", players=", ".join(view.rewarded)))
    if view.extra:
        lines.append(tr("owed an extra action: %(players)s", players=", ".join(view.extra)))
    return lines


def order_line(view: Any) -> str:
    passed = set(view.passed)
    return ", ".join(n + (_(" (passed)") if n in passed else "") for n in view.order) or "-"


WIDTH = 76
"""The widest line of a section: a mail and `pbem show` print it indented by 2, and a
mail's line is at most 78 characters. A longer one (a long name, a long translation)
goes on in the next line, indented by 4 more."""


def _fitted(lines: Sequence[str]) -> tuple[str, ...]:
    """`lines`, each broken at spaces to `WIDTH` (continuations indented)."""
    out: list[str] = []
    for line in lines:
        if len(line) <= WIDTH:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip(" ")))
        out.extend(textwrap.wrap(line, WIDTH, subsequent_indent=indent + "    ",
                                 break_long_words=False, break_on_hyphens=False))
    return tuple(out)


def sections(view: Any) -> list[Section]:
    """The position in sections, for the viewer (its own board first and in full), each
    line at most `WIDTH` long."""
    return [Section(s.title, _fitted(s.lines)) for s in _sections(view)]


def _sections(view: Any) -> list[Section]:
    me = view.players[view.viewer] if view.viewer is not None else None
    if view.phase == "over":
        ranked = sorted(view.players, key=lambda b: (b.name not in view.winners, -b.points))
        out = [Section(_("Final scores"), tuple(
            tr("%(name)s: %(points)s VP", name=b.name, points=b.points)
            + (_(" (won)") if b.name in view.winners else "")
            for b in ranked))]
    else:
        out = [Section(_("Dice on offer (your cost)") if me is not None else _("Dice on offer"),
                       tuple(dice_lines(view))),
               Section(_("Tasks (tile, figures it takes)"), tuple(task_lines(view)))]
    if me is not None:
        out.append(Section(_("Your board"), tuple(board_lines(me, own=True))))
    out.append(Section(_("Players"), tuple(
        line for b in view.players if b is not me for line in board_lines(b, own=False))))
    out.append(Section(_("Career tracks and initiative"), tuple(track_lines(view))))
    out.append(Section(_("Cities (value:owner)"), tuple(city_lines(view))))
    out.append(Section(_("Alliance tiles (open; +N? face down)"), tuple(alliance_lines(view))))
    out.append(Section(_("Rewards"), tuple(reward_lines(view))))
    out.append(Section(_("Turn order"), (order_line(view),)))
    return out


def round_line(view: Any) -> str:
    """Round N of 7, the phase, and the viewer's threshold and dice sum."""
    if view.phase == "over" or view.round == 0:
        return ""
    line = tr("Round %(round)s of %(rounds)s, %(phase)s.", round=view.round,
              rounds=view.rounds, phase=phase_name(view.phase))
    if view.viewer is not None:
        me = view.players[view.viewer]
        line += " " + tr("Your dice sum %(sum)s, your reward threshold %(threshold)s.",
                         sum=me.dice_sum, threshold=me.threshold)
    return line


def render_view(view: Any) -> str:
    """The position as text (`pbem show`): every section; the referee's view adds the
    face-down alliance tiles."""
    face_down: tuple[tuple[str, str, str], ...] = ()
    if isinstance(view, FullView):
        view, face_down = view.view, view.face_down
    if view.phase == "over":
        head = "Game over: won by " + ", ".join(view.winners)
    elif view.round == 0:
        head = "Setup"
    else:
        head = f"Round {view.round} of {view.rounds}, {phase_name(view.phase)}"
    lines = [head]
    if view.awaited:
        lines.append(f"Waiting for {view.awaited}")
    for sec in sections(view):
        lines.append("")
        lines.append(sec.title + ":")
        lines.extend(f"  {line}" for line in sec.lines)
    if face_down:
        lines.append("")
        lines.append("Face-down alliance tiles (referee only):")
        lines.extend(f"  {player}: {tile} beside the {row} row" for player, row, tile in face_down)
    return "\n".join(lines) + "\n"
