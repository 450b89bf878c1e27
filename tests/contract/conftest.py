"""The contract runs over every registered game, the test games included."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.games import register_test_games

_UNREGISTER = pytest.StashKey[Callable[[], None]]()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_UNREGISTER] = register_test_games()


def pytest_unconfigure(config: pytest.Config) -> None:
    unregister = config.stash.get(_UNREGISTER, None)
    if unregister is not None:
        unregister()
