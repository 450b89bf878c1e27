"""Issue 14: every HTML mail fits a phone (390 px) with no horizontal scroll and still
looks right in a desktop client (900 px), laid out by a real headless Chromium.

The mails are those of a real game played by mail (`pages.play_game`): status mails of
every phase, undo requests, private draws, errors, refusals, notices, the game's end."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

from pbem.outbound import TEMPLATE_DIR

from .pages import WIDTHS, Mail, layout, showcase

pytestmark = pytest.mark.browser

# The kinds of mail a game sends (`pages.kind_of`) and the template each is made from.
TEMPLATE = {
    "status:setup": "princes/status", "status:auction": "princes/status",
    "status:action": "princes/status", "status:undo": "princes/status",
    "status:over": "princes/status", "private": "private", "error": "error",
    "refusal": "refusal", "notice": "notice",
}


def test_the_game_sends_every_kind_of_mail_from_every_template(
        chosen: dict[str, list[Mail]]) -> None:
    assert set(chosen) == set(TEMPLATE)
    templates = {str(p.relative_to(TEMPLATE_DIR).with_suffix(""))
                 for p in [*TEMPLATE_DIR.glob("*.html"), *TEMPLATE_DIR.glob("princes/*.html")]
                 if not p.name.startswith("_")}
    assert set(TEMPLATE.values()) == templates


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("kind", sorted(TEMPLATE))
def test_nothing_overflows(page: Any, chosen: dict[str, list[Mail]], kind: str,
                           width: int) -> None:
    assert chosen[kind]
    for mail in chosen[kind]:
        found = layout(page, mail.html, width)
        assert found["innerWidth"] == width
        assert found["scrollWidth"] <= width, (mail.text.partition("\n")[0], found)
        assert not found["overflowing"], (mail.text.partition("\n")[0], found)


def _boxes(page: Any, xpath: str) -> list[dict[str, float]]:
    boxes: list[dict[str, float]] = page.eval_on_selector_all(
        f"xpath={xpath}", "els => els.map(e => e.getBoundingClientRect().toJSON())")
    return boxes


@pytest.fixture(scope="module")
def translated() -> list[tuple[str, str]]:
    """The Dutch and the Greek seat's mails of a whole game by mail (tests/pbem/
    test_i18n.py), as (kind, HTML): for each kind and language the longest HTML and the
    one with the longest text line."""
    from tests.pbem.test_i18n import BAS, CHRIS, html_of, play_in_languages, text_of
    from tests.pbem.test_mail_settings import kind_and_version

    _, _, sent = play_in_languages()
    picked: dict[tuple[str, str, str], Any] = {}
    for to in (BAS, CHRIS):
        for kind in ("status", "private", "error", "notice"):
            mine = [m for m in sent if str(m["To"]) == to and kind_and_version(m)[0] == kind]
            if mine:
                picked[to, kind, "html"] = max(mine, key=lambda m: len(html_of(m)))
                picked[to, kind, "line"] = max(mine, key=lambda m: max(
                    map(len, text_of(m).splitlines())))
    return [(f"{to} {kind}", html_of(m)) for (to, kind, _), m in picked.items()]


@pytest.mark.parametrize("width", WIDTHS)
def test_dutch_and_greek_mails_fit_too(page: Any, translated: list[tuple[str, str]],
                                       width: int) -> None:
    assert len({what.split()[0] for what, _ in translated}) == 2  # both seats' mails
    for what, html in translated:
        found = layout(page, html, width)
        assert found["scrollWidth"] <= width, (what, found)
        assert not found["overflowing"], (what, found)


PLAYERS_ROWS = "//h3[.='Players']/following-sibling::table[1]//tr"
GRIDS = "//h3[.='Principalities']/following-sibling::div[table]"  # _board.html: one per board


def test_the_players_table_keeps_every_column_and_the_grids_wrap_on_a_phone(
        page: Any, game_mails: list[Mail]) -> None:
    mail = showcase(game_mails)
    rows = {}
    rows_of_boards: dict[int, int] = {}
    for width in WIDTHS:
        layout(page, mail.html, width)
        cells = page.eval_on_selector_all(
            f"xpath={PLAYERS_ROWS}",
            "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))")
        rows[width] = cells
        grids = _boxes(page, GRIDS)
        assert len(grids) == 5
        tops = sorted({round(g["top"]) for g in grids})
        rows_of_boards[width] = len(tops)
        assert all(g["right"] <= width for g in grids)
    # side by side where there is room (five coloured 7-column tables take two rows of
    # the 720 px column), more rows on a phone
    assert rows_of_boards[900] <= 2 < rows_of_boards[390]
    assert rows[390] == rows[900]
    header, *body = rows[390]
    assert header == ["", "fame", "florins", "builders", "jesters", "cards"]
    assert len(body) == 2 * 5
    for numbers, display in zip(body[::2], body[1::2], strict=True):
        assert len(numbers) == 6 and numbers[0] in mail.text
        assert len(display) == 1 and display[0].startswith("Freedoms / works on display: ")


def test_the_mail_is_a_column_of_readable_width_on_a_desktop(
        page: Any, game_mails: list[Mail]) -> None:
    layout(page, showcase(game_mails).html, 900)
    widest = page.evaluate(
        "Math.max(...[...document.body.querySelectorAll('*')]"
        ".map(e => e.getBoundingClientRect().right))")
    assert 600 < widest <= 760


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


@pytest.mark.parametrize("width", WIDTHS)
def test_a_screenshot_of_the_whole_status_mail_is_as_wide_as_the_screen(
        page: Any, game_mails: list[Mail], tmp_path: Path, width: int) -> None:
    layout(page, showcase(game_mails).html, width)
    path = tmp_path / f"status-{width}.png"
    page.screenshot(path=str(path), full_page=True)
    shot_width, height = _png_size(path)
    assert shot_width == width and height > 800
