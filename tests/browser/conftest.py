"""A headless Chromium for the browser tests, and the mails of one real game.

Without Chromium (/usr/bin/chromium, `apt-get install chromium`; or $PBEM_CHROMIUM)
the browser tests skip, except in CI (CI=true), where they fail."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from typing import Any

import pytest

from .pages import CHROMIUM, Mail, chromium, examples, play_game


def _missing() -> str:
    if not CHROMIUM.is_file():
        return (f"no Chromium at {CHROMIUM}: install Debian's (apt-get install chromium) "
                "or set PBEM_CHROMIUM")
    if importlib.util.find_spec("playwright") is None:
        return "the package playwright is not installed (pip install -e '.[test]')"
    return ""


@pytest.fixture(scope="package")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A Chromium context with a fresh profile, closed when the browser tests end:
    Playwright's synchronous API keeps an asyncio loop running while it is open, and
    the tests after these (the mail servers' clients) run loops of their own."""
    missing = _missing()
    if missing and os.environ.get("CI") == "true":
        pytest.fail(f"the browser tests must run in CI: {missing}")
    if missing:
        pytest.skip(missing)
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as context:
        yield context


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page()
    yield page
    page.close()


@pytest.fixture(scope="session")
def game_mails(tmp_path_factory: pytest.TempPathFactory) -> list[Mail]:
    """Every mail of a whole game of five scripted players, then notices and refusals."""
    return play_game(tmp_path_factory.mktemp("game") / "game", players=5, seed=1)


@pytest.fixture(scope="session")
def chosen(game_mails: list[Mail]) -> dict[str, list[Mail]]:
    return examples(game_mails, per_kind=6)
