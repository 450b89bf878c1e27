"""Signorie's board as HTML tables for the status mail (`templates/signorie/_board.html`):
the tables of `pbem.signorie.tables` with inline styles and attributes only (no
<style>, no class, no image), so Gmail, Outlook and Apple Mail show them with images
blocked; each cell its words and its colour; one narrow table after another, so a
phone's 390 px hold them."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from .tables import BACK, Cell, Entry, Table, legend, tables

THICK = "2px solid #000"
# the table's own border attribute draws every cell's thin line (no style per cell)
TABLE = ('<table border="1" cellspacing="0" cellpadding="3" style="border-collapse:collapse;'
         'border-color:#999;font:13px sans-serif;max-width:100%')


def _cell(cell: Cell) -> str:
    style = []
    if cell.strong:
        style += [f"border:{THICK}", "font-weight:bold"]
    if cell.colour == BACK:
        style.append("color:#fff")
    span = f' colspan="{cell.span}"' if cell.span > 1 else ""
    colour = f' bgcolor="{cell.colour}"' if cell.colour != "#ffffff" else ""
    css = f' style="{";".join(style)}"' if style else ""
    text = Markup("<br>").join(escape(line) for line in cell.text.split("\n"))
    return f"<td{span}{colour}{css}>{text}</td>"


def table_html(t: Table) -> Markup:
    """One table as markup: its title above it, a row of cells per row."""
    rows = "".join('<tr valign="top">' + "".join(_cell(c) for c in row) + "</tr>\n"
                   for row in t.rows)
    return Markup(f'<p style="margin:10px 0 4px 0"><b>{escape(t.title)}</b></p>\n'
                  f'{TABLE}">\n{rows}</table>\n')


def legend_html(entries: tuple[Entry, ...]) -> Markup:
    """The legend: each sample cell beside its meaning, a row each."""
    rows = "".join(f'<tr valign="top">{_cell(e.cell)}<td>{escape(e.meaning)}</td></tr>\n'
                   for e in entries)
    return Markup(f'{TABLE};margin:6px 0 8px 0">\n{rows}</table>\n')


def board_context(view: Any) -> dict[str, Any]:
    """The names `_board.html` shows: the tables as markup and the legend."""
    return {"board_tables": [table_html(t) for t in tables(view)],
            "board_legend": legend_html(legend(view))}
