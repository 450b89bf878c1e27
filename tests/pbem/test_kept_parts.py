"""What a status mail keeps from one seat's mail for the next (`Renderer`'s `kept`
parts, the princes' board tables and picture kept per board): the next seat's mail is
the same as if written afresh, a changed board changes it, and nothing a part kept
comes from another seat's view."""

from __future__ import annotations

import dataclasses
import io
import math
from pathlib import Path

import pytest
from jinja2 import UndefinedError
from PIL import Image

from engine.princes.definition import GAME
from engine.princes.game import new_state, replay, start_game
from engine.princes.views import grid_rows, view_for
from engine.selfplay import play_random
from pbem.i18n import speaking
from pbem.outbound import Renderer, status_context
from pbem.princes import PRESENTER, board, picture


def status(renderer: Renderer, view: object, language: str = "en") -> tuple[str, str]:
    with speaking(language, PRESENTER):
        ctx = status_context(view, game_id="pof-1", changes=[], echo=[], legal=[],
                             deadline=None, tz="UTC", presenter=PRESENTER, picture=True)
        return renderer.render("status", ctx, PRESENTER.template_dir)


def test_kept_renders_with_the_values_passed_alone_and_keeps_them_apart(
        tmp_path: Path) -> None:
    (tmp_path / "page.html").write_text('{{ kept("_part.html", n=n) }}|{{ secret }}\n')
    (tmp_path / "page.txt").write_text('{{ kept("_part.html", n=n) }}\n')
    (tmp_path / "_part.html").write_text("<b>{{ n }}</b> {{ _('empty') }}")
    (tmp_path / "leak.html").write_text('{{ kept("_leak.html", n=n) }}\n')
    (tmp_path / "leak.txt").write_text("\n")
    (tmp_path / "_leak.html").write_text("{{ n }} {{ secret }}")
    r = Renderer(tmp_path)
    assert r.render("page", {"n": 1, "secret": "A"}, "")[1] == "<b>1</b> empty|A\n"
    # kept: the same values give the part kept, other values another part
    assert r.render("page", {"n": 1, "secret": "B"}, "")[1] == "<b>1</b> empty|B\n"
    assert r.render("page", {"n": "<2>", "secret": "B"}, "")[1] == \
        "<b>&lt;2&gt;</b> empty|B\n"
    # a plain text template gets the part as text, not kept as HTML
    assert r.render("page", {"n": 1, "secret": ""}, "")[0] == "<b>1</b> empty\n"
    # the part is written in the language in use, kept apart per language
    with speaking("nl", PRESENTER):
        dutch = r.render("page", {"n": 1, "secret": ""}, "")[1]
    assert dutch.startswith("<b>1</b> ") and "empty" not in dutch
    # a name the caller did not pass is no name of the part: a seat's own never leaks
    with pytest.raises(UndefinedError, match="secret"):
        r.render("leak", {"n": 1, "secret": "A"}, "")


def test_every_seats_mail_is_the_same_as_written_afresh() -> None:
    warm = Renderer()
    events = play_random(GAME, 4, 7).events
    for k in range(10, len(events), 23):
        state = replay(events[:k])
        for seat in range(4):
            for language in ("en", "nl"):
                view = view_for(state, seat)
                assert status(warm, view, language) == status(Renderer(), view, language)


def test_a_kept_board_part_shows_the_changed_board_and_no_other_seats_hand() -> None:
    r = Renderer()
    state = new_state(start_game(["anna", "bas", "cor"]))
    before = status(r, view_for(state, 0))[1]
    first = view_for(state, 0).players[0]
    built = (("tower", ("b2",)),)
    moved = dataclasses.replace(first, buildings=built,
                                grid=grid_rows(state.rules.grid, built, ()))
    view = view_for(state, 0)
    after = status(r, dataclasses.replace(view, players=(moved, *view.players[1:])))[1]
    part = after.split("<h3>Principalities</h3>")[1].split("<p>Supply")[0]
    assert part != before.split("<h3>Principalities</h3>")[1].split("<p>Supply")[0]
    assert 'bgcolor="#b7b7b7"' in part  # the tower's colour
    # each seat's mail of one position: its own hand, never another's, with the part
    # kept from the first seat's mail
    for seat, p in enumerate(state.players):
        html = status(r, view_for(state, seat))[1]
        assert all(c in html for c in p.hand)
        for other in state.players:
            if other is not p:
                assert not any(f"Professions in hand: {c}" in html for c in other.hand)


def drawn_in_place(boards: tuple[board.Board, ...]) -> Image.Image:
    """The picture drawn as before boards were kept: every board straight onto it."""
    rows = max(1, math.ceil(len(boards) / picture.PER_ROW))
    per_row = max(1, math.ceil(len(boards) / rows))
    bw, bh = picture._board_size(boards[0])
    width = max(per_row * bw + (per_row - 1) * picture.GAP,
                4 * picture.LEGEND_COLUMN) + 2 * picture.MARGIN
    legend_y = picture.MARGIN + rows * (bh + picture.GAP)
    height = legend_y + picture._legend_rows(width - 2 * picture.MARGIN) * (
        picture.SWATCH + 6) + picture.MARGIN
    im = Image.new("P", (width, height), picture.WHITE)
    im.putpalette(picture._palette())
    for i, b in enumerate(boards):
        picture._draw_board(im, b, i + 1, picture.MARGIN + (i % per_row) * (bw + picture.GAP),
                            picture.MARGIN + (i // per_row) * (bh + picture.GAP))
    picture._draw_legend(im, picture.MARGIN, legend_y, width - 2 * picture.MARGIN)
    return im


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_picture_of_kept_boards_has_the_pixels_of_one_drawn_in_place(players: int) -> None:
    events = play_random(GAME, players, 11).events
    last = None
    for k in (len(events) // 2, len(events)):
        view = view_for(replay(events[:k]), None)
        png = picture.board_png(view)
        assert png != last  # boards built since: another picture
        last = png
        kept = Image.open(io.BytesIO(png))
        assert kept.tobytes() == drawn_in_place(board.boards(view)).tobytes()
        picture._picture.cache_clear()
        picture._board_picture.cache_clear()
        assert picture.board_png(view) == png  # the same bytes drawn afresh
