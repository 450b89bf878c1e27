"""Issue 14 for the second game: Signorie's status mails fit a phone (390 px) and a
desktop client (900 px) too, laid out by a real headless Chromium, with their board's
tables and its inline picture. The mails are those of a whole 4-player game played by
mail (`pages.game_mails_of`)."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from pbem.mime import IMAGE_CID

from .pages import WIDTHS, Mail, examples, game_mails_of, layout

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def signorie_mails(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Mail]]:
    mails = game_mails_of(tmp_path_factory.mktemp("signorie") / "game", game="signorie",
                          players=4)
    return examples(mails, per_kind=6)


def test_the_game_sends_status_mails_and_its_end(signorie_mails: dict[str, list[Mail]]) -> None:
    assert "status:over" in signorie_mails
    assert sum(len(v) for k, v in signorie_mails.items() if k.startswith("status")) >= 6


@pytest.mark.parametrize("width", WIDTHS)
def test_nothing_overflows(page: Any, signorie_mails: dict[str, list[Mail]], width: int) -> None:
    for kind, mails in sorted(signorie_mails.items()):
        for mail in mails:
            found = layout(page, mail.html, width)
            assert found["innerWidth"] == width
            assert found["scrollWidth"] <= width, (kind, mail.text.partition("\n")[0], found)
            assert not found["overflowing"], (kind, mail.text.partition("\n")[0], found)


def _inlined(mail: Mail) -> str:
    """The HTML with its picture in place, as a client that shows images draws it."""
    assert mail.image is not None
    data = "data:image/png;base64," + base64.b64encode(mail.image).decode()
    return mail.html.replace(f"cid:{IMAGE_CID}", data)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_board_tables_and_the_picture_fit(page: Any, signorie_mails: dict[str, list[Mail]],
                                              width: int) -> None:
    status = [m for k, v in signorie_mails.items() if k.startswith("status") for m in v]
    assert all(m.image is not None and f"cid:{IMAGE_CID}" in m.html for m in status)
    for mail in status:
        found = layout(page, _inlined(mail), width)
        assert found["scrollWidth"] <= width and not found["overflowing"], found
        tables = page.eval_on_selector_all(
            "xpath=//h3[.='Board']/following-sibling::table",
            "ts => ts.map(t => t.getBoundingClientRect().right)")
        assert len(tables) >= 5 and max(tables) <= width  # the boards, tracks, cities, legend
        img = page.eval_on_selector("img", "i => [i.complete, i.naturalWidth, "
                                           "i.getBoundingClientRect().right]")
        assert img[0] and img[1] > width / 2 and img[2] <= width  # drawn, scaled to fit
