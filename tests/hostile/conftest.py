"""Fixtures for the hostile tests: the real-server ones of tests/integration, and the
moderator on SQLite with fake transports of tests/pbem."""

from __future__ import annotations

from integration.conftest import database_url, mailstack  # noqa: F401
from integration.test_moderator_mail import post  # noqa: F401

from tests.pbem.conftest import game, mailbox, mod, no_error_logs, smtp

__all__ = ["database_url", "game", "mailbox", "mailstack", "mod", "no_error_logs", "post",
           "smtp"]
