"""The principalities as a board: each player's grid cell by cell, with the piece each
cell belongs to (the Palazzo, one building or landscape tile), for the status mail's
text board with its legend, its HTML tables and its picture (`pbem.princes.picture`).

Everything is read from the public part of a view (`PlayerView.grid`, `buildings`,
`landscapes`): what lies on the table, never a hand. A letter names each kind of cell,
so the board reads in black and white; the colour is extra.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup, escape

from engine.princes.views import GRID_LETTERS, PlayerView, View
from pbem.i18n import gettext, tr, words_in_use

from .terms import name


@dataclass(frozen=True, slots=True)
class Kind:
    """What a cell can hold: its letter on the board, its name, its colour."""

    letter: str
    word: str
    colour: str  # "#rrggbb", light enough for a black letter on it


EMPTY = Kind(".", "empty", "#ffffff")
PALAZZO = Kind("P", "Palazzo", "#e8c36a")
_COLOURS = {
    "university": "#f6b26b", "laboratory": "#ffe599", "workshop": "#d5a6bd",
    "library": "#a4c2f4", "opera": "#ea9999", "studio": "#b4a7d6", "hospital": "#f4cccc",
    "theater": "#e69138", "tower": "#b7b7b7", "chapel": "#d9d2e9",
    "forest": "#6aa84f", "lake": "#6fa8dc", "park": "#b6d7a8",
}
LANDSCAPES = ("forest", "lake", "park")
BUILDINGS = tuple(w for w in GRID_LETTERS if w not in LANDSCAPES)
KINDS = (EMPTY, PALAZZO,
         *(Kind(GRID_LETTERS[w], w, _COLOURS[w]) for w in (*BUILDINGS, *LANDSCAPES)))
_BY_LETTER = {k.letter: k for k in KINDS}
UNKNOWN = Kind("?", "unknown", "#ffffff")  # a letter of no kind (never from the engine)


@dataclass(frozen=True, slots=True)
class Cell:
    kind: Kind
    piece: int  # 0: empty; 1: the Palazzo; 2, 3, ...: each tile placed


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """One player's principality: `rows` of cells, the top row first. Made once for
    the same public data (`board_of` keeps them), so compared by identity: the key of
    what is drawn from it and kept (text, HTML, picture)."""

    name: str
    rows: tuple[tuple[Cell, ...], ...]

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    def row_number(self, r: int) -> int:
        """The number of the `r`th row from the top (the bottom row is 1)."""
        return self.height - r

    def columns(self) -> str:
        return "".join(chr(ord("a") + c) for c in range(self.width))

    def parted(self, r: int, c: int, r2: int, c2: int) -> bool:
        """True if a border parts cell (r, c) from cell (r2, c2): one lies off the board,
        or they belong to different pieces and one of them is not empty."""
        if not (0 <= r2 < self.height and 0 <= c2 < self.width):
            return True
        a, b = self.rows[r][c].piece, self.rows[r2][c2].piece
        return a != b and (a != 0 or b != 0)

    def between(self, r: int, c: int, r2: int, c2: int) -> bool:
        """True if cells (r, c) and (r2, c2) both hold a piece, not the same one."""
        a, b = self.rows[r][c].piece, self.rows[r2][c2].piece
        return a != b and a != 0 and b != 0


Placed = tuple[tuple[str, tuple[str, ...]], ...]  # a PlayerView's buildings or landscapes


def board_of(p: PlayerView) -> Board:
    """A player's principality from its public view."""
    return _board(p.name, p.grid, p.buildings, p.landscapes)


@lru_cache(maxsize=1024)
def _board(name: str, grid: tuple[str, ...], buildings: Placed, landscapes: Placed) -> Board:
    height = len(grid)
    piece: dict[tuple[int, int], int] = {}
    for n, (_, cells) in enumerate((*buildings, *landscapes), start=2):
        for cell in cells:
            piece[(height - int(cell[1:]), ord(cell[0]) - ord("a"))] = n
    rows = []
    for r, line in enumerate(grid):
        row = []
        for c, letter in enumerate(line):
            kind = _BY_LETTER.get(letter, UNKNOWN)
            default = 1 if kind is PALAZZO else 0
            row.append(Cell(kind, piece.get((r, c), default)))
        rows.append(tuple(row))
    return Board(name, tuple(rows))


def boards(view: View) -> tuple[Board, ...]:
    """Every principality of the view (each seat's mail of one position shares them:
    they are kept)."""
    return tuple(board_of(p) for p in view.players)


# --------------------------------------------------------------------------- text

COLUMN = 16  # characters a text board takes beside the next one
PER_BAND = 4  # text boards side by side at most (4 fit in 78 characters)


def legend_lines(width: int = 76) -> list[str]:
    """The key to the text board's letters and marks, every letter spelt out."""
    return list(_legend_lines(words_in_use(), width))


@lru_cache(maxsize=16)
def _legend_lines(words: object, width: int) -> tuple[str, ...]:
    """The legend in the language of `words` (`pbem.i18n.words_in_use`), kept."""
    buildings = ", ".join(f"{GRID_LETTERS[w]} {name(w)}" for w in BUILDINGS)
    landscapes = ", ".join(f"{GRID_LETTERS[w]} {name(w)}" for w in LANDSCAPES)
    text = tr("Key: P Palazzo, . empty; buildings: %(buildings)s; landscapes: "
              "%(landscapes)s. A | or - between two cells parts two separate pieces, so two "
              "towers side by side read R|R.", buildings=buildings, landscapes=landscapes)
    return tuple(textwrap.wrap(text, width))


def _text_rows(b: Board) -> list[tuple[str, str]]:
    """Each row of a board as text, with the line of marks under it ("" under the
    bottom row): a cell is its letter, then a | before the next cell of another
    piece; under a cell a - when the cell below is of another piece."""
    out = []
    for r, row in enumerate(b.rows):
        line = ""
        for c, cell in enumerate(row):
            line += cell.kind.letter
            if c + 1 < b.width:
                line += "|" if b.between(r, c, r, c + 1) else " "
        marks = ""
        if r + 1 < b.height:
            marks = " ".join("-" if b.between(r, c, r + 1, c) else " " for c in range(b.width))
        out.append((line, marks))
    return out


def text_lines(view: View) -> list[str]:
    """The principalities side by side in bands of at most `PER_BAND`, each band headed
    by the players' names and footed by the column letters; a line of marks between
    two rows only where some board has one."""
    return list(_text_lines(boards(view)))


@lru_cache(maxsize=64)
def _text_lines(all_boards: tuple[Board, ...]) -> tuple[str, ...]:
    if not all_boards:
        return ()
    bands = math.ceil(len(all_boards) / PER_BAND)
    size = math.ceil(len(all_boards) / bands)
    lines: list[str] = []
    for start in range(0, len(all_boards), size):
        band = all_boards[start:start + size]
        if lines:
            lines.append("")
        lines.append("   " + "".join(b.name[:COLUMN - 1].ljust(COLUMN) for b in band))
        rows = [_text_rows(b) for b in band]
        for r in range(band[0].height):
            num = band[0].row_number(r)
            lines.append(f"{num:<2} " + "".join(rs[r][0].ljust(COLUMN) for rs in rows))
            marks = "".join(rs[r][1].ljust(COLUMN) for rs in rows)
            if marks.strip():
                lines.append("   " + marks)
        lines.append("   " + "".join(" ".join(b.columns()).ljust(COLUMN) for b in band))
    return tuple(ln.rstrip() for ln in lines)


# --------------------------------------------------------------------------- HTML

THICK = "3px solid #000"
THIN = "1px solid #bbb"


def _cell_style(b: Board, r: int, c: int) -> str:
    """A table cell's inline style: a thick border on each side that parts it from
    another piece or lies on the board's edge; an empty cell a thin one too, so a
    piece is one coloured block in its thick outline on a thin grid. The tables
    collapse their borders (the wider wins), so a cell draws the thick line above
    and left of it, and below and right of it only on the board's edge: the next
    cell draws the line they share."""
    sides = [side for side, (dr, dc) in (("top", (-1, 0)), ("left", (0, -1)))
             if b.parted(r, c, r + dr, c + dc)]
    if r + 1 == b.height:
        sides.append("bottom")
    if c + 1 == b.width:
        sides.append("right")
    empty = b.rows[r][c].kind is EMPTY
    parts = [f"border:{THIN}"] if empty else []
    parts += [f"border-{side}:{THICK}" for side in sides]
    if empty:
        parts.append("color:#999")
    return ";".join(parts)


@dataclass(frozen=True, slots=True)
class HtmlBoard:
    """One board for `templates/princes/_board.html`: its name, column letters and its
    rows as table rows (the row's number, then each cell with its colour, borders and
    letter)."""

    name: str
    columns: tuple[str, ...]
    rows_html: Markup


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """A kind of cell in the HTML legend: its letter, its name in the reader's
    language, its colour."""

    letter: str
    word: str
    colour: str


def html_boards(view: View) -> tuple[HtmlBoard, ...]:
    """The principalities for `templates/princes/_board.html`, public data alone: the
    template keeps what it writes of them for every seat's mail of the position."""
    return tuple(_html_board(b) for b in boards(view))


@lru_cache(maxsize=1024)
def _html_board(b: Board) -> HtmlBoard:
    """One board for the template, its 49 cells' markup written here once for every
    seat's mail of the position (kept; never changed)."""
    rows = []
    for r, row in enumerate(b.rows):
        cells = [f'<tr><td height="22" style="color:#777;padding-right:4px">'
                 f"{b.row_number(r)}</td>"]
        for c, cell in enumerate(row):
            width = ' width="22"' if r == 0 else ""
            colour = f' bgcolor="{cell.kind.colour}"' if cell.kind.colour != "#ffffff" else ""
            style = _cell_style(b, r, c)
            css = f' style="{style}"' if style else ""
            cells.append(f"<td{width}{colour}{css}>{escape(cell.kind.letter)}</td>")
        rows.append("".join(cells) + "</tr>\n")
    return HtmlBoard(b.name, tuple(b.columns()), Markup("".join(rows)))


def html_legend() -> tuple[LegendEntry, ...]:
    """Every kind of cell with its letter, name and colour, for the HTML legend."""
    return _html_legend(words_in_use())


@lru_cache(maxsize=16)
def _html_legend(words: object) -> tuple[LegendEntry, ...]:
    """The HTML legend in the language of `words`, kept."""
    return tuple(LegendEntry(k.letter, _kind_word(k), k.colour) for k in KINDS)


def _kind_word(k: Kind) -> str:
    """A kind's name in the legend, in the reader's language."""
    if k is EMPTY:
        return gettext("empty")
    return k.word if k is PALAZZO else name(k.word)
