"""The contract runs over every registered game, the test games included.

The test games (rules and grammars) are registered while the tests are collected, so
that the contract is parametrized over them, and again while the contract's tests
run; the tests of other folders see only the built-in games."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.games import register_test_games

_UNREGISTER = pytest.StashKey[Callable[[], None]]()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_UNREGISTER] = register_test_games()


def _unregister(config: pytest.Config) -> None:
    unregister = config.stash.get(_UNREGISTER, None)
    if unregister is not None:
        unregister()


def pytest_collection_finish(session: pytest.Session) -> None:
    _unregister(session.config)


def pytest_unconfigure(config: pytest.Config) -> None:
    _unregister(config)


@pytest.fixture(autouse=True, scope="package")
def _test_games() -> Iterator[None]:
    unregister = register_test_games()
    yield
    unregister()
