from __future__ import annotations

import logging

import pytest

from pbem.moderator import Moderator

from .fakes import NOW, PLAYERS, FakeMailbox, FakeSmtp, make_moderator


@pytest.fixture
def mod() -> Moderator:
    return make_moderator()


@pytest.fixture
def game(mod: Moderator) -> str:
    return mod.new_game(PLAYERS, NOW, game_id="pof-17", seed="test-seed")


@pytest.fixture
def mailbox() -> FakeMailbox:
    return FakeMailbox()


@pytest.fixture
def smtp() -> FakeSmtp:
    return FakeSmtp()


@pytest.fixture(autouse=True)
def no_error_logs(caplog: pytest.LogCaptureFixture):
    """An unexpected ERROR log fails the test (python-chess's RaiseLogHandler)."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR
              and not getattr(r, "expected", False)]
    assert not errors, [r.getMessage() for r in errors]
