"""The principalities as one PNG picture (the status mail's inline image and
`pbem show --png`): the boards of `pbem.princes.board` in rows of at most three, each
cell its colour and letter, a thick line around each piece, and the legend under them.

Drawn with Pillow in a fixed palette with Pillow's own bitmap font (no font file of
the system), doubled in size: the same view gives the same bytes, and the picture
stays a few kilobytes.
"""

from __future__ import annotations

import io
import math
import unicodedata
from functools import cache, lru_cache

from PIL import Image, ImageColor, ImageDraw, ImageFont

from engine.princes.views import View

from .board import EMPTY, KINDS, Board, boards

CELL = 28  # pixels a cell takes, its thin lines included
THICK = 3  # width of the line around a piece
SCALE = 2  # the bitmap font, doubled
GLYPH_H = 11 * SCALE
LABEL = 18  # the row numbers' column
GAP = 20  # between two boards
MARGIN = 10
PER_ROW = 3  # boards side by side at most
SWATCH = 24  # a legend entry's square
LEGEND_COLUMN = 160  # a legend entry's width

_COLOURS = ["#ffffff", "#000000", "#bbbbbb", "#777777", *(k.colour for k in KINDS)]
_INDEX = {c: i for i, c in reversed(list(enumerate(_COLOURS)))}
WHITE, BLACK, THIN, GREY = (_INDEX[c] for c in _COLOURS[:4])


def _palette() -> list[int]:
    return [v for c in _COLOURS for v in ImageColor.getrgb(c)]


@cache
def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


@lru_cache(maxsize=256)
def _glyphs(text: str) -> Image.Image:
    """`text` in the bitmap font, doubled: a mask."""
    font = _font()
    left, top, right, bottom = font.getbbox(text)
    mask = Image.new("1", (max(1, right), max(1, bottom)), 0)
    ImageDraw.Draw(mask).text((0, 0), text, fill=1, font=font)
    return mask.resize((mask.width * SCALE, mask.height * SCALE), Image.Resampling.NEAREST)


def _text(im: Image.Image, xy: tuple[int, int], text: str, colour: int,
          centre: bool = False) -> None:
    if not text:
        return
    mask = _glyphs(text)
    x, y = xy
    if centre:
        x, y = x - mask.width // 2, y - mask.height // 2
    im.paste(colour, (x, y, x + mask.width, y + mask.height), mask)


def label(name: str, n: int) -> str:
    """A player's name as the bitmap font can draw it (Latin-1 only): accents it lacks
    dropped, any other letter a '?'; a name with no Latin letter left is "player N"
    (the tables and the text board show every name as it is)."""
    out = ""
    for ch in name[:15]:
        if not (ch.isprintable() and ord(ch) < 256):
            base = unicodedata.normalize("NFKD", ch)[:1]
            ch = base if base.isprintable() and ord(base) < 256 else "?"
        out += ch
    return out if any(ch.isalpha() for ch in out) else f"player {n}"


def _board_size(b: Board) -> tuple[int, int]:
    return LABEL + b.width * CELL, GLYPH_H + 4 + b.height * CELL + GLYPH_H + 2


def _draw_board(im: Image.Image, b: Board, n: int, x0: int, y0: int) -> None:
    draw = ImageDraw.Draw(im)
    _text(im, (x0 + LABEL, y0), label(b.name, n), BLACK)
    top, left = y0 + GLYPH_H + 4, x0 + LABEL
    for r, row in enumerate(b.rows):
        _text(im, (x0 + LABEL // 2 - 2, top + r * CELL + CELL // 2), str(b.row_number(r)),
              GREY, centre=True)
        for c, cell in enumerate(row):
            x, y = left + c * CELL, top + r * CELL
            draw.rectangle((x, y, x + CELL, y + CELL), fill=_INDEX[cell.kind.colour],
                           outline=THIN)
            _text(im, (x + CELL // 2 + 1, y + CELL // 2 + 1), cell.kind.letter,
                  GREY if cell.kind is EMPTY else BLACK, centre=True)
    # the thick lines last, over the thin ones: each side that parts two pieces
    half = THICK // 2
    for r in range(b.height):
        for c in range(b.width):
            x, y = left + c * CELL, top + r * CELL
            if b.parted(r, c, r - 1, c):
                draw.rectangle((x - half, y - half, x + CELL + half, y + half), fill=BLACK)
            if b.parted(r, c, r, c - 1):
                draw.rectangle((x - half, y - half, x + half, y + CELL + half), fill=BLACK)
            if r + 1 == b.height:
                draw.rectangle((x - half, y + CELL - half, x + CELL + half, y + CELL + half),
                               fill=BLACK)
            if c + 1 == b.width:
                draw.rectangle((x + CELL - half, y - half, x + CELL + half, y + CELL + half),
                               fill=BLACK)
    below = top + b.height * CELL + 3
    for c, letter in enumerate(b.columns()):
        _text(im, (left + c * CELL + CELL // 2, below + GLYPH_H // 2), letter, GREY,
              centre=True)


def _legend_rows(width: int) -> int:
    return math.ceil(len(KINDS) / max(1, width // LEGEND_COLUMN))


def _draw_legend(im: Image.Image, x0: int, y0: int, width: int) -> None:
    draw = ImageDraw.Draw(im)
    per_row = max(1, width // LEGEND_COLUMN)
    for i, k in enumerate(KINDS):
        x = x0 + (i % per_row) * LEGEND_COLUMN
        y = y0 + (i // per_row) * (SWATCH + 6)
        draw.rectangle((x, y, x + SWATCH, y + SWATCH), fill=_INDEX[k.colour], outline=BLACK)
        _text(im, (x + SWATCH // 2 + 1, y + SWATCH // 2 + 1), k.letter,
              GREY if k is EMPTY else BLACK, centre=True)
        _text(im, (x + SWATCH + 6, y + (SWATCH - GLYPH_H) // 2 + 1), k.word, BLACK)


BLEED = 4  # pixels a board's drawing may reach beyond its box (its lines, its letters)


@lru_cache(maxsize=64)  # some 60 kB each
def _board_picture(b: Board, n: int) -> Image.Image:
    """One principality drawn alone, with `BLEED` pixels of white around its box: the
    same pixels as drawn in place (the boards lie `GAP` apart), kept for every picture
    that shows this board, so a move redraws only the boards it changed."""
    bw, bh = _board_size(b)
    im = Image.new("P", (bw + 2 * BLEED, bh + 2 * BLEED), WHITE)
    im.putpalette(_palette())
    _draw_board(im, b, n, BLEED, BLEED)
    return im


@cache
def _legend(width: int) -> Image.Image:
    im = Image.new("P", (width, _legend_rows(width) * (SWATCH + 6)), WHITE)
    im.putpalette(_palette())
    _draw_legend(im, 0, 0, width)
    return im


@lru_cache(maxsize=64)
def _picture(all_boards: tuple[Board, ...]) -> bytes:
    rows = max(1, math.ceil(len(all_boards) / PER_ROW))
    per_row = max(1, math.ceil(len(all_boards) / rows))
    bw, bh = _board_size(all_boards[0]) if all_boards else (LABEL + 7 * CELL, 7 * CELL)
    boards_w = per_row * bw + (per_row - 1) * GAP
    width = max(boards_w, 4 * LEGEND_COLUMN) + 2 * MARGIN
    legend_y = MARGIN + rows * (bh + GAP)
    height = legend_y + _legend_rows(width - 2 * MARGIN) * (SWATCH + 6) + MARGIN
    im = Image.new("P", (width, height), WHITE)
    im.putpalette(_palette())
    for i, b in enumerate(all_boards):
        x = MARGIN + (i % per_row) * (bw + GAP)
        y = MARGIN + (i // per_row) * (bh + GAP)
        im.paste(_board_picture(b, i + 1), (x - BLEED, y - BLEED))
    im.paste(_legend(width - 2 * MARGIN), (MARGIN, legend_y))
    out = io.BytesIO()
    im.save(out, "PNG", compress_level=6)  # zlib's default: 6x faster than level 9 for +25%
    return out.getvalue()


def board_png(view: View) -> bytes:
    """The picture of every principality of `view` as PNG bytes (the same for the
    same boards: kept for the next seat's mail of the same position; each board's
    drawing kept for the next position that shows it)."""
    return _picture(boards(view))
