"""The board picture of The Princes of Florence's status mail: the principalities as
coloured HTML tables (a colour and a letter for every kind of cell, a thick border
between separate pieces), the text board with its key, the inline PNG (multipart/
related, `cid:`), and `pbem show --png`."""

from __future__ import annotations

import dataclasses
import email
import io
import re
from pathlib import Path

from PIL import Image
from typer.testing import CliRunner

from engine.princes.definition import GAME
from engine.princes.game import new_state, replay, start_game
from engine.princes.views import GRID_LETTERS, View, grid_rows, view_for
from engine.selfplay import play_random
from pbem.cli import app
from pbem.mime import IMAGE_CID, compose
from pbem.outbound import status_context
from pbem.princes import PRESENTER, board, picture
from pbem.princes.board import KINDS, THICK, THIN

from .helpers import run, state_of

# Every kind of cell in one principality, and two towers side by side (d5-d6 and
# e5-e6: the same kind, two pieces).
BUILDINGS = (("university", ("a7", "b7")), ("laboratory", ("c7",)), ("workshop", ("d7",)),
             ("library", ("e7",)), ("opera", ("f7",)), ("studio", ("g7",)),
             ("hospital", ("a5",)), ("theater", ("b5",)), ("chapel", ("g5",)),
             ("tower", ("d5", "d6")), ("tower", ("e5", "e6")))
LANDSCAPES = (("forest", ("a4",)), ("lake", ("b4",)), ("park", ("c4",)),
              ("forest", ("d4",)))
CELL = re.compile(r'<td(?: width="22")?(?: bgcolor="(#[0-9a-f]{6})")?'
                  r'(?: style="(border[^"]*)")?>(.)</td>')


def board_view(players: int = 3) -> View:
    """A public view whose first principality holds every kind of cell."""
    state = new_state(start_game([f"p{i}" for i in range(players)]))
    view = view_for(state, None)
    first = dataclasses.replace(
        view.players[0], buildings=BUILDINGS, landscapes=LANDSCAPES,
        grid=grid_rows(state.rules.grid, BUILDINGS, LANDSCAPES))
    return dataclasses.replace(view, players=(first, *view.players[1:]))


def html_cells(html: str) -> list[list[tuple[str, str, str]]]:
    """The cells of each board in the HTML (bgcolor, style, letter), row by row from
    the top: 49 a board."""
    tables = html.split("<h3>Principalities</h3>")[1].split("<table cellspacing=\"0\" "
                                                          "cellpadding=\"3\"")[0]
    cells = [(colour or "#ffffff", style, letter) for colour, style, letter in
             CELL.findall(tables)]
    return [cells[i:i + 49] for i in range(0, len(cells), 49)]


def test_every_kind_of_cell_has_its_own_colour_letter_and_word() -> None:
    assert len({k.colour for k in KINDS}) == len({k.letter for k in KINDS}) == len(KINDS)
    assert {k.word for k in KINDS} == {*GRID_LETTERS, "Palazzo", "empty"}
    assert all(k.letter == GRID_LETTERS[k.word] for k in KINDS if k.word in GRID_LETTERS)


def test_html_board_shows_every_kind_by_colour_and_letter(mod) -> None:
    view = board_view()
    ctx = status_context(dataclasses.replace(view, viewer=0), game_id="g", changes=[],
                         echo=[], legal=[], deadline=None, tz="UTC", picture=True)
    _, html = mod.renderer.render("status", ctx)
    first = html_cells(html)[0]
    assert len(html_cells(html)) == 3
    shown = {(colour, letter) for colour, _, letter in first}
    assert shown == {(k.colour, k.letter) for k in KINDS}  # every kind, nothing else
    # the legend: each letter on its colour, with its word spelt out
    for k in KINDS:
        assert re.search(rf'<td bgcolor="{k.colour}"[^>]*>{re.escape(k.letter)}</td>'
                         rf'<td[^>]*>{k.word}</td>', html), k
    assert "<style" not in html and "<pre" not in html.split("Principalities")[1].split(
        "Supply")[0]


def test_html_board_parts_two_towers_side_by_side(mod) -> None:
    view = board_view()
    ctx = status_context(dataclasses.replace(view, viewer=0), game_id="g", changes=[],
                         echo=[], legal=[], deadline=None, tz="UTC")
    _, html = mod.renderer.render("status", ctx)
    first = html_cells(html)[0]

    def style(cell: str) -> str:
        row, col = 7 - int(cell[1]), ord(cell[0]) - ord("a")
        return first[row * 7 + col][1]

    # the borders collapse: a cell draws the line above and left of it (and on the
    # board's edge below and right of it)
    assert f"border-left:{THICK}" in style("e5") and f"border-left:{THICK}" in style("e6")
    # within one tower no line; two empty cells a thin line only
    assert style("d5") == style("e5") == f"border-left:{THICK}"  # (c5 is empty)
    assert f"border-top:{THICK}" in style("d6")  # the tower's top, under the workshop
    assert style("e2") == f"border:{THIN};color:#999"
    assert style("d2") == f"border:{THIN};border-left:{THICK};color:#999"  # the Palazzo
    assert style("g1") == f"border:{THIN};border-bottom:{THICK};border-right:{THICK};" \
        "color:#999"  # the corner
    # the lake b4 and the park c4 are two pieces; so are the forests a4 and d4 of
    # the same kind, with the park between them
    assert f"border-left:{THICK}" in style("c4") and f"border-left:{THICK}" in style("d4")


def test_text_board_marks_separate_pieces_and_spells_out_every_letter() -> None:
    view = board_view()
    lines = board.text_lines(view)
    assert lines[0].split() == ["p0", "p1", "p2"]
    row5 = next(ln for ln in lines if ln.startswith("5 "))
    assert "R|R" in row5 and "H|T" in row5  # two towers side by side, two pieces
    row6 = next(ln for ln in lines if ln.startswith("6 "))
    assert "R|R" in row6
    row7 = next(ln for ln in lines if ln.startswith("7 "))
    assert row7.split("   ")[0] == "7  U U|L|W|B|O|S"  # the university is one piece
    # a tower's two cells are one piece: no line of marks between rows 6 and 5
    assert lines[lines.index(row6) + 1] == row5
    under5 = lines[lines.index(row5) + 1]
    assert under5 == "   - -   -"  # hospital/forest, theater/lake, tower/forest
    key = " ".join(board.legend_lines())
    for k in KINDS:
        assert f"{k.letter} {k.word}" in key
    assert all(len(ln) <= 78 for ln in lines + board.legend_lines())


def test_text_board_fits_78_columns_with_five_players() -> None:
    lines = board.text_lines(board_view(5))
    assert all(len(ln) <= 78 for ln in lines)
    assert [ln.split() for ln in lines if ln.startswith("   p")] == [["p0", "p1", "p2"],
                                                                    ["p3", "p4"]]


def test_png_is_a_valid_picture_of_every_board_and_the_same_for_the_same_view() -> None:
    view = board_view(4)
    png = picture.board_png(view)
    im = Image.open(io.BytesIO(png))
    im.verify()
    im = Image.open(io.BytesIO(png))
    assert (im.format, im.mode) == ("PNG", "P")
    # two rows of two boards, the legend under them
    boards_w = 2 * (picture.LABEL + 7 * picture.CELL) + picture.GAP
    assert im.width == max(boards_w, 4 * picture.LEGEND_COLUMN) + 2 * picture.MARGIN
    assert im.size == (660, 672)
    rgb = im.convert("RGB")
    top = picture.MARGIN + picture.GLYPH_H + 4
    left = picture.MARGIN + picture.LABEL
    for name, cells in (*BUILDINGS, *LANDSCAPES):
        col, row = ord(cells[0][0]) - ord("a"), 7 - int(cells[0][1])
        x, y = left + col * picture.CELL + 4, top + row * picture.CELL + 4
        colour = next(k.colour for k in KINDS if k.word == name)
        assert rgb.getpixel((x, y)) == tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    # thick line between the towers d5 and e5: black on the shared edge
    x, y = left + 4 * picture.CELL, top + 2 * picture.CELL + picture.CELL // 2 + 6
    assert rgb.getpixel((x, y)) == (0, 0, 0)
    picture._picture.cache_clear()
    assert picture.board_png(board_view(4)) == png


def test_png_draws_any_name() -> None:
    # Pillow's bitmap font knows Latin-1 only: other letters become '?', a name with
    # no Latin letter left its seat.
    assert picture.label("zoë", 1) == "zoë"
    assert picture.label("jürgen-ŝ", 2) == "jürgen-s"
    assert picture.label("мария", 3) == "player 3"
    assert picture.label("anna\u0301x", 1) == "anna?x"
    view = board_view()
    names = ("zoë", "мария", "γιάννης")
    view = dataclasses.replace(view, players=tuple(
        dataclasses.replace(p, name=n) for p, n in zip(view.players, names, strict=True)))
    assert Image.open(io.BytesIO(picture.board_png(view))).format == "PNG"


def test_png_stays_small() -> None:
    playout = play_random(GAME, 5, 3)
    state = replay(playout.events)
    assert len(picture.board_png(view_for(state, None))) < 20_000


def test_status_mail_carries_the_picture_inline_and_shows_it_by_cid(mod, game, mailbox,
                                                                    smtp) -> None:
    run(mod, mailbox, smtp)
    state = state_of(mod, game)
    msg = next(m for m in reversed(smtp.sent) if ".status." in m.message_id)
    raw = email.message_from_bytes(msg.raw)
    assert raw.get_content_type() == "multipart/alternative"
    plain, related = raw.get_payload()
    assert plain.get_content_type() == "text/plain"
    assert related.get_content_type() == "multipart/related"
    html_part, image = related.get_payload()
    assert html_part.get_content_type() == "text/html"
    assert image.get_content_type() == "image/png"
    assert image["Content-ID"] == f"<{IMAGE_CID}>"
    assert image.get_content_disposition() == "inline"
    html = html_part.get_payload(decode=True).decode()
    assert f'<img src="cid:{IMAGE_CID}" alt="Picture of the principalities' in html
    assert image.get_payload(decode=True) == PRESENTER.board_png(view_for(state, None))
    assert "Key: P Palazzo, . empty" in plain.get_payload(decode=True).decode()
    assert len(msg.raw) < 60_000


def test_the_picture_shows_no_secret() -> None:
    # Every seat's view and the public view give the same picture, however the
    # hidden cards and money differ.
    playout = play_random(GAME, 4, 11)
    for k in range(20, len(playout.events), 40):
        state = replay(playout.events[:k])
        public = picture.board_png(view_for(state, None))
        for viewer in range(4):
            changed = tuple(dataclasses.replace(
                p, florins=p.florins + 99, hand=("poet",) * len(p.hand),
                prestige_hand=("most-buildings",) * len(p.prestige_hand))
                for p in state.players)
            other = dataclasses.replace(state, players=changed)
            assert picture.board_png(view_for(state, viewer)) == public
            assert picture.board_png(view_for(other, viewer)) == public


def test_compose_with_an_image_reads_back_as_related_parts() -> None:
    png = picture.board_png(board_view())
    raw = compose([("To", "a@example.org"), ("Subject", "s")], "text\n",
                  '<p><img src="cid:board@pbem"></p>\n', png)
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, email.message.EmailMessage)
    html = msg.get_body(("html",))
    assert html is not None and "cid:board@pbem" in html.get_content()
    images = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    assert [p.get_content() for p in images] == [png]
    assert all(len(ln) <= 78 for ln in raw.split(b"\r\n"))
    # without an image: the mail as before, no related part
    assert b"multipart/related" not in compose([("To", "a@example.org")], "t\n", "<p>h</p>\n")


def test_show_png_writes_the_picture_of_the_end_of_a_log(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    result = CliRunner().invoke(app, ["selfplay", "--players", "3", "--seed", "pic"])
    assert result.exit_code == 0
    log.write_text(result.output, encoding="utf-8")
    out = tmp_path / "board.png"
    shown = CliRunner().invoke(app, ["show", str(log), "--png", str(out)])
    assert shown.exit_code == 0, shown.output
    assert "Game over" in shown.output
    assert Image.open(out).format == "PNG"
    from pbem.logs import replay_log

    r = replay_log(log.read_text(encoding="utf-8"))
    assert r.state is not None
    assert out.read_bytes() == picture.board_png(view_for(r.state, None))
    bad = CliRunner().invoke(app, ["show", str(log), "--png", str(tmp_path / "no" / "x.png")])
    assert bad.exit_code == 1 and "cannot write" in bad.stderr
