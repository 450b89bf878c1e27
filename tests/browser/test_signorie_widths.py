"""Issue 14 for the second game: Signorie's status mails fit a phone (390 px) and a
desktop client (900 px) too, laid out by a real headless Chromium. The mails are those
of a whole 4-player game played by mail (`pages.game_mails_of`)."""

from __future__ import annotations

from typing import Any

import pytest

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
