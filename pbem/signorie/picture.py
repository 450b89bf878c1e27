"""Signorie's board as one PNG picture (the status mail's inline image and `pbem show
--png`): the tables of `pbem.signorie.tables` and the legend, cell by cell with their
words and colours, in two columns.

Drawn with Pillow in a fixed palette with Pillow's own bitmap font (no font file of
the system), doubled in size: the same view gives the same bytes. The words are the
English ones (the font knows Latin-1 only); the tables of the mail speak the reader's
language. Like the tables, the picture shows only what the view holds: a face-down
alliance tile is a back.
"""

from __future__ import annotations

import dataclasses
import io
import textwrap
import unicodedata
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageColor, ImageDraw, ImageFont

from pbem.i18n import speaking

from .board import FullView
from .tables import (
    BACK,
    DIE_COLOURS,
    GREY,
    PLAN_COLOURS,
    WHITE,
    Cell,
    Entry,
    Table,
    legend,
    tables,
)

SCALE = 2  # the bitmap font, doubled
CHAR_W = 6 * SCALE
LINE_H = 11 * SCALE
PAD = 4  # inside a cell
TITLE_H = LINE_H + 6
GAP = 16  # between two tables
MARGIN = 10
COLUMNS = 2  # the tables flow into this many columns
WRAP = 24  # characters a line of a cell spanning columns may hold at least

_COLOURS = ["#ffffff", "#000000", "#999999", BACK, GREY, *DIE_COLOURS.values(),
            *PLAN_COLOURS.values()]
_INDEX = {c: i for i, c in reversed(list(enumerate(_COLOURS)))}
INK, THIN = _INDEX["#000000"], _INDEX["#999999"]


def _palette() -> list[int]:
    return [v for c in _COLOURS for v in ImageColor.getrgb(c)]


@cache
def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


def latin(text: str) -> str:
    """`text` as the bitmap font can draw it (Latin-1 only): accents it lacks dropped,
    any other letter a '?'."""
    out = ""
    for ch in text:
        if not (ch.isprintable() and ord(ch) < 256):
            base = unicodedata.normalize("NFKD", ch)[:1]
            ch = base if base.isprintable() and ord(base) < 256 else "?"
        out += ch
    return out


@lru_cache(maxsize=512)
def _glyphs(text: str) -> Image.Image:
    """`text` in the bitmap font, doubled: a mask."""
    font = _font()
    _, _, right, bottom = font.getbbox(text)
    mask = Image.new("1", (max(1, right), max(1, bottom)), 0)
    ImageDraw.Draw(mask).text((0, 0), text, fill=1, font=font)
    return mask.resize((mask.width * SCALE, mask.height * SCALE), Image.Resampling.NEAREST)


def _text(im: Image.Image, x: int, y: int, text: str, colour: int) -> None:
    if text:
        mask = _glyphs(text)
        im.paste(colour, (x, y, x + mask.width, y + mask.height), mask)


def _lines(cell: Cell, width: int | None = None) -> list[str]:
    """A cell's lines, wrapped to `width` characters if given."""
    lines = [latin(line) for line in cell.text.split("\n")]
    if width is None:
        return lines
    return [w for line in lines for w in (textwrap.wrap(line, width) or [""])]


class _Layout:
    """Where a table's columns and rows fall: column widths from the cells that take
    one column, cells spanning more wrapped to their room (and widening it if a word
    is longer)."""

    def __init__(self, t: Table) -> None:
        ncols = max((sum(c.span for c in row) for row in t.rows), default=0)
        self.widths = [2 * PAD + CHAR_W] * ncols
        for row in t.rows:
            col = 0
            for c in row:
                if c.span == 1:
                    need = 2 * PAD + CHAR_W * max(len(s) for s in _lines(c))
                    self.widths[col] = max(self.widths[col], need)
                col += c.span
        self.cells: list[list[tuple[int, int, Cell, list[str]]]] = []  # column, span, ...
        for row in t.rows:
            col, out = 0, []
            for c in row:
                room = sum(self.widths[col:col + c.span])
                if c.span > 1:
                    longest = max(len(w) for w in [*c.text.split(), ""])
                    lines = _lines(c, max(WRAP, longest, (room - 2 * PAD) // CHAR_W))
                    need = 2 * PAD + CHAR_W * max(len(s) for s in lines)
                    for i in range(max(0, need - room)):  # spread evenly
                        self.widths[col + i % c.span] += 1
                else:
                    lines = _lines(c)
                out.append((col, c.span, c, lines))
                col += c.span
            self.cells.append(out)
        self.heights = [2 * PAD + LINE_H * max(len(lines) for *_, lines in row)
                        for row in self.cells]
        self.width = max(sum(self.widths) + 1, CHAR_W * len(latin(t.title)))
        self.height = TITLE_H + sum(self.heights) + 1


def _draw_table(im: Image.Image, t: Table, lay: _Layout, x0: int, y0: int) -> None:
    draw = ImageDraw.Draw(im)
    _text(im, x0, y0, latin(t.title), INK)
    y = y0 + TITLE_H
    strong = []
    for row, h in zip(lay.cells, lay.heights, strict=True):
        for col, span, c, lines in row:
            x = x0 + sum(lay.widths[:col])
            w = sum(lay.widths[col:col + span])
            draw.rectangle((x, y, x + w, y + h), fill=_INDEX[c.colour], outline=THIN)
            ink = _INDEX[WHITE] if c.colour == BACK else INK
            for i, line in enumerate(lines):
                _text(im, x + PAD, y + PAD + i * LINE_H, line, ink)
            if c.strong:
                strong.append((x, y, x + w, y + h))
        y += h
    for box in strong:  # the thick outlines last, over the thin lines of their neighbours
        draw.rectangle(box, outline=INK, width=2)


def _legend_table(entries: tuple[Entry, ...]) -> Table:
    return Table("Legend", tuple((e.cell, Cell(e.meaning, span=3)) for e in entries))


@lru_cache(maxsize=64)
def _picture(all_tables: tuple[Table, ...]) -> bytes:
    lays = [(t, _Layout(t)) for t in all_tables]
    # the tables flow into columns: each to the column that ends highest so far
    col_w = max(lay.width for _, lay in lays)
    heights = [0] * COLUMNS
    places = []
    for t, lay in lays:
        k = heights.index(min(heights))
        places.append((t, lay, MARGIN + k * (col_w + GAP), MARGIN + heights[k]))
        heights[k] += lay.height + GAP
    used = sum(1 for h in heights if h)
    width = 2 * MARGIN + used * col_w + (used - 1) * GAP
    im = Image.new("P", (width, 2 * MARGIN + max(heights) - GAP), _INDEX[WHITE])
    im.putpalette(_palette())
    for t, lay, x, y in places:
        _draw_table(im, t, lay, x, y)
    out = io.BytesIO()
    im.save(out, "PNG", compress_level=6)
    return out.getvalue()


def board_png(view: Any) -> bytes:
    """The picture of the board in `view` as PNG bytes, in English. It is the public
    board, the same for every seat (the dice without the reader's costs, which the
    tables and the text show; the boards in seat order): drawn once a position and
    kept for the next seat's mail. The referee's view is drawn as the public one."""
    if isinstance(view, FullView):
        view = view.view
    view = dataclasses.replace(view, viewer=None, legal=(), dice=tuple(
        dataclasses.replace(d, cost=None) for d in view.dice))
    with speaking("en"):
        drawn = (*tables(view), _legend_table(legend(view)))
    return _picture(drawn)
