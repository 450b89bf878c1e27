from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.moderator import Moderator
from pbem.store import Store

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


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of each kind: SQLite in `tmp_path`, and PostgreSQL when the
    test servers run (DATABASE_URL), its tables dropped first."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite'}"
        return
    pg = os.environ.get("DATABASE_URL", "")
    if os.environ.get("PBEM_NO_SERVERS") == "1" or not pg.startswith("postgresql"):
        pytest.skip("PostgreSQL not running (DATABASE_URL unset); run scripts/test.sh")
    store = Store(pg)
    store.drop_all()
    store.dispose()
    yield pg


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh folder for the command line: no database, config or transport from the
    environment, mails to folders under it."""
    monkeypatch.chdir(tmp_path)
    for var in ("DATABASE_URL", "PBEM_CONFIG", "PBEM_DB", "PBEM_TRANSPORT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PBEM_MODERATOR_ADDRESS", "moderator@example.org")
    monkeypatch.setenv("PBEM_MAIL_DIR", str(tmp_path / "mail"))
    return tmp_path


@pytest.fixture(autouse=True)
def no_error_logs(caplog: pytest.LogCaptureFixture):
    """An unexpected ERROR log fails the test (python-chess's RaiseLogHandler)."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR
              and not getattr(r, "expected", False)]
    assert not errors, [r.getMessage() for r in errors]
