"""Signorie's position as tables of cells, for the status mail's board: the dice on
offer, each player's board, the tracks, the cities, the reward row and a legend. The
HTML tables (`pbem.signorie.board_html`) and the picture (`pbem.signorie.picture`)
both draw these, so they show the same cells.

Every cell carries its meaning in words or letters (`text`); its colour is extra, so
the board reads in black and white and with images blocked. Everything comes from a
view, which holds no face-down alliance tile (S8): such a tile is a back (`BACK`), one
per tile beside its row, never its face. A name (a colour, a plan, a city, a task or
reward tile) is the reader's word with the notation's beside it (`terms.name`); the
letters and codes (Y, H, pol, +2 fl) are the same in every language, the legend says
what they mean.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.signorie.commands import COLOURS
from pbem.i18n import gettext as _
from pbem.i18n import tr

from .terms import name

WHITE = "#ffffff"
GREY = "#eeeeee"
BACK = "#555555"  # a face-down tile's back (white letters on it)
# The dice colours (and the helper columns), light enough for black letters.
DIE_COLOURS = {"yellow": "#ffe066", "red": "#f4a09a", "purple": "#c9b3e6", "grey": "#c8c8c8",
               "turquoise": "#8fdccf"}
DIE_LETTERS = {"yellow": "Y", "red": "R", "purple": "P", "grey": "G", "turquoise": "T"}
# The players' board colours (the plans), for their figures.
PLAN_COLOURS = {"yellow": "#fff2b3", "red": "#fcd5d2", "purple": "#e6dcf5", "blue": "#cfe2f3"}
TRACK_WORDS = {"political": "pol", "ecclesiastical": "ecc", "military": "mil",
               "initiative": "ini", "marriage": "mar"}


@dataclass(frozen=True, slots=True)
class Cell:
    """A table cell: its words (lines split by "\\n"), its background, and `strong`
    for a cell set apart (a heading, a hired helper, this round's reward): bold, in a
    thick border."""

    text: str
    colour: str = WHITE
    strong: bool = False
    span: int = 1  # columns it takes


NONE = Cell("-", GREY)  # no such space


@dataclass(frozen=True, slots=True)
class Table:
    """A titled table: rows of cells (the first row is its head)."""

    title: str
    rows: tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True, slots=True)
class Entry:
    """A legend entry: a sample cell and what it means."""

    cell: Cell
    meaning: str


def marks(names: Sequence[str]) -> dict[str, str]:
    """A short mark per player for the figures on the tracks and in the cities: the
    first letter of the name, upper case, or as many letters as tell the names apart."""
    for n in range(1, max((len(x) for x in names), default=1) + 1):
        out = {x: x[:n].upper() for x in names}
        if len(set(out.values())) == len(names):
            return out
    return {x: f"{i + 1}" for i, x in enumerate(names)}


def _figures(owners: Sequence[str], mark: dict[str, str]) -> str:
    return " ".join(mark.get(o, o) for o in owners)


def _tile(tile: str | None) -> str:
    return "-" if tile is None else name(tile)


def _cost(cost: int | None) -> str:
    if cost is None:
        return ""
    return _("free") if cost == 0 else tr("%(n)s fl", n=cost)


def dice_table(view: Any) -> Table:
    """A row per colour: the colour by word, each die's value with the viewer's cost;
    the tasks on offer of that colour (female field, male field)."""
    head = (Cell(_("colour"), GREY, True), Cell(_("dice (your cost)") if view.viewer
                                                 is not None else _("dice"), GREY, True),
            Cell(_("tasks f / m"), GREY, True))
    rows = [head]
    for colour in COLOURS:
        tint = DIE_COLOURS[colour]
        dice = [d for d in view.dice if d.colour == colour]
        shown = "  ".join(f"{d.value}" + (f" ({_cost(d.cost)})" if d.cost is not None else "")
                          for d in dice) or "-"
        tasks = {t.sex: t.tile for t in view.tasks if t.colour == colour}
        rows.append((Cell(f"{DIE_LETTERS[colour]} {name(colour)}", tint, True), Cell(shown, tint),
                     Cell(f"{_tile(tasks.get('f'))} / {_tile(tasks.get('m'))}")))
    return Table(_("Dice on offer and tasks"), tuple(rows))


_EFFECTS = {"florins": "+{a} fl", "figure": "+1 fig", "points": "+{a} VP",
            "progress": "{t} +{a}", "die-progress": "{t} +die", "marriage-alliance": "marry*",
            "mission-alliance": "mission*", "males-in-cities": "{a} VP/m", "offspring": "birth",
            "alliance": "tile*", "task": "task"}


def effect_code(h: Any) -> str:
    """A helper space's effect in a few letters (the text part spells it out)."""
    code: str = _EFFECTS.get(h.effect, h.effect)
    return code.format(a=h.amount, t=TRACK_WORDS.get(h.track, h.track))


def board_table(b: Any, *, mark: str) -> Table:
    """A player's board: the five columns (each its die on the action field and its
    three helper spaces, hired or the cost to hire), then the plan rows with the
    families their shields show and the alliance tiles beside them."""
    cols = len(COLOURS)
    placed = dict(b.dice)
    rows: list[tuple[Cell, ...]] = [
        (Cell(_("column"), GREY, True),
         *(Cell(f"{DIE_LETTERS[c]}", DIE_COLOURS[c], True) for c in COLOURS)),
        (Cell(_("die"), GREY),
         *(Cell(str(placed[c]) if c in placed else "-", DIE_COLOURS[c]) for c in COLOURS)),
    ]
    spaces = sorted({h.space for h in b.helpers})
    for space in spaces:
        row = [Cell(tr("helper %(n)s", n=space), GREY)]
        for c in COLOURS:
            h = next((h for h in b.helpers if h.colour == c and h.space == space), None)
            if h is None:
                row.append(NONE)
            elif h.hired:
                row.append(Cell(f"H\n{effect_code(h)}", DIE_COLOURS[c], True))
            else:
                row.append(Cell(f"{h.cost} fl\n{effect_code(h)}"))
        rows.append(tuple(row))
    rows.append((Cell(_("row"), GREY, True), Cell(_("plan"), GREY, True, 2),
                 Cell(_("tiles beside it"), GREY, True, cols - 2)))
    for r in b.rows:
        tiles = [*r.open, *(["?"] * r.face_down)]
        rows.append((Cell(TRACK_WORDS.get(r.row, r.row), GREY),
                     Cell(" ".join(r.plan), span=2),
                     Cell(" ".join(tiles) or "-", BACK if r.face_down and not r.open else WHITE,
                          span=cols - 2)))
    m, f = b.threshold_figures
    title = tr("%(name)s [%(mark)s] (%(plan)s board): %(florins)s fl, %(points)s VP",
               name=b.name, mark=mark, plan=name(b.plan), florins=b.florins, points=b.points)
    if b.passed:
        title += ", " + _("passed")
    rows.append((Cell(tr("figures %(m)sm %(f)sf (General Supply %(gm)sm %(gf)sf); "
                         "dice sum %(sum)s of %(threshold)s; sons married %(sons)s of "
                         "%(all)s", m=b.males, f=b.females, gm=b.general_m, gf=b.general_f,
                         sum=b.dice_sum, threshold=b.threshold, sons=b.sons,
                         all=b.sons + b.sons_left)
                      + (tr("; on the threshold %(m)sm %(f)sf", m=m, f=f) if m or f else ""),
                      PLAN_COLOURS.get(b.plan, WHITE), span=cols + 1),))
    return Table(title, tuple(rows))


def tracks_table(view: Any, mark: dict[str, str]) -> Table:
    """The three career tracks and the initiative track side by side, the top space
    first: per space its VP (and rank on the careers) and the figures on it."""
    careers = view.careers
    top = max((len(t.spaces) for t in careers), default=0)
    ini = view.initiative_points
    height = max(top, len(ini) - 1)
    rows: list[tuple[Cell, ...]] = [
        (Cell(_("space"), GREY, True), Cell(_("VP, rank"), GREY, True),
         *(Cell(TRACK_WORDS.get(t.career, t.career), GREY, True) for t in careers),
         Cell(_("ini VP"), GREY, True), Cell(TRACK_WORDS["initiative"], GREY, True))]
    for space in range(height, -1, -1):
        row = [Cell(str(space), GREY)]
        if 1 <= space <= top:
            vp, rank, _owners = careers[0].spaces[space - 1]
            row.append(Cell(tr("%(vp)s, r%(rank)s", vp=vp, rank=rank)))
            for t in careers:
                owners = t.spaces[space - 1][2]
                row.append(Cell(_figures(owners, mark) or "."))
        else:
            row.extend(NONE for _ in range(len(careers) + 1))
        if space < len(ini):
            here = [n for n, s in view.initiative if s == space]
            row += [Cell(str(ini[space])), Cell(_figures(here, mark) or ".")]
        else:
            row += [NONE, NONE]
        rows.append(tuple(row))
    return Table(_("Career tracks and initiative (top space first)"), tuple(rows))


def cities_table(view: Any, mark: dict[str, str]) -> Table:
    """Each city: its wives' and diplomats' spaces (value and the figure's mark, or
    . when free) and the open alliance tile of each field."""
    width = max((max(len(c.marriage), len(c.mission)) for c in view.cities), default=4)
    rows: list[tuple[Cell, ...]] = [
        (Cell(_("city"), GREY, True), *(Cell(str(i), GREY, True) for i in range(1, width + 1)),
         Cell(_("tile"), GREY, True))]
    owners = {b.name: b.plan for b in view.players}
    for c in view.cities:
        for word, spaces, tile in ((_("wives"), c.marriage, c.marriage_tile),
                                   (_("diplomats"), c.mission, c.mission_tile)):
            cells = [Cell(f"{name(c.name)}\n{word}", GREY)]
            for value, owner in spaces:
                cells.append(Cell(f"{value}\n{mark.get(owner, owner)}", PLAN_COLOURS.get(
                    owners.get(owner, ""), WHITE)) if owner else Cell(f"{value}\n."))
            cells.extend(NONE for _ in range(width - len(spaces)))
            cells.append(Cell(tile or "-"))
            rows.append(tuple(cells))
    return Table(_("Cities (space value, figure)"), tuple(rows))


def reward_table(view: Any) -> Table:
    """The reward row, a row per round: this round's tile set apart."""
    rows: list[tuple[Cell, ...]] = [(Cell(_("round"), GREY, True), Cell(_("reward"), GREY, True))]
    for i, tile in enumerate(view.reward_row, 1):
        now = i == view.round and view.phase != "over"
        rows.append((Cell(f"> {i}" if now else str(i), GREY, now), Cell(name(tile), WHITE, now)))
    return Table(_("Rewards (> this round)"), tuple(rows))


def player_marks(view: Any) -> dict[str, str]:
    return marks([b.name for b in view.players])


def tables(view: Any) -> tuple[Table, ...]:
    """The board's tables in the order the mail shows them: the viewer's board first."""
    mark = player_marks(view)
    players = list(view.players)
    if view.viewer is not None:
        players.insert(0, players.pop(view.viewer))
    out = [] if view.phase == "over" else [dice_table(view)]
    out += [board_table(b, mark=mark[b.name]) for b in players]
    out += [tracks_table(view, mark), cities_table(view, mark)]
    if view.reward_row:
        out.append(reward_table(view))
    return tuple(out)


def legend(view: Any) -> tuple[Entry, ...]:
    """What the letters, marks and colours of the tables mean."""
    out = [Entry(Cell(DIE_LETTERS[c], DIE_COLOURS[c], True), name(c)) for c in COLOURS]
    out += [Entry(Cell(m, PLAN_COLOURS.get(b.plan, WHITE)),
                  tr("%(name)s's figure (%(plan)s board)", name=b.name, plan=name(b.plan)))
            for b, m in zip(view.players, player_marks(view).values(), strict=True)]
    out += [
        Entry(Cell("H", GREY, True), _("a hired helper (else: its cost to hire)")),
        Entry(Cell("?", BACK), _("a face-down alliance tile: nobody sees its face")),
        Entry(Cell("."), _("a free space")),
        Entry(NONE, _("no such space; no die, no tile")),
        Entry(Cell("*"), _("a face-down tile instead of the city's")),
        Entry(Cell("fig"), _("figure; fl florins; VP victory points")),
        Entry(Cell("pol"), _("political, ecc ecclesiastical, mil military, ini initiative, "
                             "mar marriage; r rank")),
    ]
    return tuple(out)


def text_key(width: int = 76) -> list[str]:
    """The key to the marks of the text part's sections, wrapped; a mark of up to three
    characters stays on the line of the word it explains ("m male", "+N? N ...")."""
    key = _("Key: * a hired helper (else its cost to hire); +N? N face-down alliance tiles "
            "(nobody sees their faces); in the cities value:owner, - a free space; "
            "[tile] this round's reward; m male, f female figures; fl florins; r rank.")
    glued = re.sub(r"(?<!\S)(\S{1,3}) ", "\\1\xa0", key)  # textwrap never breaks at U+00A0
    return [line.replace("\xa0", " ") for line in textwrap.wrap(glued, width)]
