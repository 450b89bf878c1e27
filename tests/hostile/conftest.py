from __future__ import annotations

from tests.pbem.conftest import game, mailbox, mod, no_error_logs, smtp

__all__ = ["game", "mailbox", "mod", "no_error_logs", "smtp"]
