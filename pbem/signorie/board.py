"""Signorie's position as lines of text, section by section, from a view: the dice on
offer, the task tiles, each player's board, the career and initiative tracks, the
cities, the reward row. The status mail (`templates/signorie/status.*`) and the text
board (`pbem show`) print the same sections, so a mail shows what `show` shows.

A view holds no face-down alliance tile (S8), only how many lie beside each row, so no
line here can name one; the referee's `FullView` adds them, for `pbem show --full`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.signorie.commands import COLOURS

SEX = {"m": "male", "f": "female"}
PHASES = {"setup": "setup", "prepare": "preparation", "actions": "action phase",
          "rewards": "reward phase", "extra": "extra actions", "over": "game over"}


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


def _s(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def cost_text(cost: int | None) -> str:
    if cost is None:
        return ""
    return "free" if cost == 0 else f"{cost} fl"


def effect_text(h: Any) -> str:
    """A helper space's effect in words, from its data (effect id, track, amount)."""
    track = "initiative" if h.track == "initiative" else f"{h.track}"
    words = {
        "florins": f"+{h.amount} florins",
        "figure": "1 figure from your General Supply",
        "points": f"+{h.amount} VP",
        "progress": f"up to {h.amount} points on {track}",
        "die-progress": f"the die's value in points on {track}",
        "marriage-alliance": "a marriage, a face-down tile instead of the city's",
        "mission-alliance": "a mission, a face-down tile instead of the city's",
        "males-in-cities": f"{h.amount} VP per male of yours in a city",
        "offspring": "1 white offspring die",
        "alliance": "a face-down alliance tile beside any row",
        "task": "a task of any colour, 1 figure",
    }
    if h.effect in words:
        return words[h.effect]
    extra = " ".join(str(x) for x in (h.track, h.amount or "") if x)
    return f"{h.effect} {extra}".strip()


def dice_lines(view: Any) -> list[str]:
    """One line per colour: its dice on offer, each with the viewer's cost."""
    lines = []
    for colour in COLOURS:
        dice = [d for d in view.dice if d.colour == colour]
        if not dice:
            continue
        shown = ", ".join(f"{d.value} ({cost_text(d.cost)})" if d.cost is not None
                          else str(d.value) for d in dice)
        lines.append(f"{colour}: {shown}")
    return lines or ["none left"]


def task_lines(view: Any) -> list[str]:
    """The task tiles on offer, per colour: the tile and the figures it takes."""
    lines = []
    for colour in COLOURS:
        fields = [t for t in view.tasks if t.colour == colour]
        if fields:
            lines.append(f"{colour}: " + ", ".join(f"{t.tile} ({SEX.get(t.sex, t.sex)})"
                                                   for t in fields))
    return lines or ["none laid yet"]


def _dice_placed(b: Any) -> str:
    return ", ".join(f"{c} {v}" for c, v in b.dice) or "none"


def row_text(r: Any) -> str:
    """A plan row: the tiles beside it (open ones by name, face-down ones counted)
    and the families its plan shows."""
    beside = list(r.open) + ([f"{_s(r.face_down, 'face-down')}"] if r.face_down else [])
    return f"{r.row}: {', '.join(beside) or 'none'}; plan {' '.join(r.plan)}"


def helper_lines(b: Any, *, own: bool) -> list[str]:
    """The board's helper spaces by column, top to bottom: for the board's owner every
    space (a hired one marked `*`, an empty one with its hire cost), for the others
    the hired ones only."""
    lines = []
    for h in b.helpers:
        if h.hired:
            lines.append(f"  * {h.colour} {h.space}: {effect_text(h)}")
        elif own:
            lines.append(f"    {h.colour} {h.space} ({h.cost} fl): {effect_text(h)}")
    if not own:
        return ["  helpers:", *lines] if lines else ["  helpers: none"]
    return ["  helpers (* hired, else the cost to hire):", *lines]


def board_lines(b: Any, *, own: bool) -> list[str]:
    """A player's board: money, VP, figures, dice, sons and helpers; the owner's plan
    rows too (everyone's tiles are in `alliance_lines`)."""
    lines = [
        f"{b.name} ({b.plan} board): {_s(b.florins, 'florin')}, {b.points} VP"
        + (", passed" if b.passed else ""),
        f"  figures: {b.males}m {b.females}f available, "
        f"{b.general_m}m {b.general_f}f in the General Supply",
        f"  dice: {_dice_placed(b)} (sum {b.dice_sum}, threshold {b.threshold})",
        f"  sons married: {b.sons} of {b.sons + b.sons_left}",
    ]
    m, f = b.threshold_figures
    if m or f:
        lines.append(f"  on the threshold space: {m}m {f}f")
    if own:
        lines.append("  plan rows (tiles beside them; the plan's families):")
        lines.extend(f"    {row_text(r)}" for r in b.rows)
    lines.extend(helper_lines(b, own=own))
    return lines


def track_lines(view: Any) -> list[str]:
    """The career tracks, a line per space with figures (space, its VP and rank, the
    owners), and the initiative stack."""
    lines = []
    for t in view.careers:
        held = [f"  {i} ({vp} VP, r{rank}): {' '.join(owners)}"
                for i, (vp, rank, owners) in enumerate(t.spaces, 1) if owners]
        lines.extend([f"{t.career}:", *held] if held else [f"{t.career}: no figure"])
    points = view.initiative_points
    stack = ", ".join(
        f"{name} {space}" + (f" ({points[space]} VP)" if 0 <= space < len(points) and points[space]
                             else "")
        for name, space in view.initiative)
    lines.append("initiative, top of the stack first:")
    lines.append(f"  {stack}")
    return lines


def _spaces(spaces: Sequence[tuple[int, str | None]]) -> str:
    return " ".join(f"{v}:{owner or '-'}" for v, owner in spaces)


def city_lines(view: Any) -> list[str]:
    """Each city in play: its marriage and mission spaces (value: owner or -) and the
    open alliance tile on each field."""
    lines = []
    for c in view.cities:
        lines.append(f"{c.name}:")
        lines.append(f"  wives {_spaces(c.marriage)} [tile {c.marriage_tile or '-'}]")
        lines.append(f"  diplomats {_spaces(c.mission)} [tile {c.mission_tile or '-'}]")
    return lines or ["not drawn yet"]


def alliance_lines(view: Any) -> list[str]:
    """Every player's alliance tiles by row: open ones by name, face-down ones counted."""
    lines = []
    for b in view.players:
        rows = [f"{r.row[:3]} " + " ".join([*r.open, *(["+" + str(r.face_down) + "?"]
                                                      if r.face_down else [])])
                for r in b.rows if r.open or r.face_down]
        lines.append(f"{b.name}: " + ("; ".join(rows) if rows else "none"))
    return lines


def reward_lines(view: Any) -> list[str]:
    row = list(view.reward_row)
    if not row:
        return ["not laid yet"]
    shown = " ".join(f"[{t}]" if i == view.round - 1 else t for i, t in enumerate(row, 0))
    lines = [f"row: {shown}"]
    if view.reward_tile is not None:
        lines.append(f"this round ({view.round}): {view.reward_tile}")
    if view.rewarded:
        lines.append("still to take it: " + ", ".join(view.rewarded))
    if view.extra:
        lines.append("owed an extra action: " + ", ".join(view.extra))
    return lines


def order_line(view: Any) -> str:
    passed = set(view.passed)
    return ", ".join(n + (" (passed)" if n in passed else "") for n in view.order) or "-"


def sections(view: Any) -> list[Section]:
    """The position in sections, for the viewer (its own board first and in full)."""
    me = view.players[view.viewer] if view.viewer is not None else None
    if view.phase == "over":
        ranked = sorted(view.players, key=lambda b: (b.name not in view.winners, -b.points))
        out = [Section("Final scores", tuple(
            f"{b.name}: {b.points} VP" + (" (won)" if b.name in view.winners else "")
            for b in ranked))]
    else:
        out = [Section("Dice on offer" + (" (your cost)" if me is not None else ""),
                       tuple(dice_lines(view))),
               Section("Tasks (tile, figures it takes)", tuple(task_lines(view)))]
    if me is not None:
        out.append(Section("Your board", tuple(board_lines(me, own=True))))
    out.append(Section("Players", tuple(
        line for b in view.players if b is not me for line in board_lines(b, own=False))))
    out.append(Section("Career tracks and initiative", tuple(track_lines(view))))
    out.append(Section("Cities (value:owner)", tuple(city_lines(view))))
    out.append(Section("Alliance tiles (open; +N? face down)", tuple(alliance_lines(view))))
    out.append(Section("Rewards", tuple(reward_lines(view))))
    out.append(Section("Turn order", (order_line(view),)))
    return out


def round_line(view: Any) -> str:
    """Round N of 7, the phase, and the viewer's threshold and dice sum."""
    if view.phase == "over" or view.round == 0:
        return ""
    line = f"Round {view.round} of {view.rounds}, {PHASES.get(view.phase, view.phase)}."
    if view.viewer is not None:
        me = view.players[view.viewer]
        line += f" Your dice sum {me.dice_sum}, your reward threshold {me.threshold}."
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
        head = f"Round {view.round} of {view.rounds}, {PHASES.get(view.phase, view.phase)}"
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
