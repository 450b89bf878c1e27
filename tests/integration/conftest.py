"""Fixtures for tests that talk to the real servers started by ``bash scripts/test.sh``.

``scripts/services.sh start`` (called by ``scripts/test.sh``) starts Postfix + Dovecot +
PostgreSQL on 127.0.0.1 and exports ``MAILSTACK_*`` and ``DATABASE_URL``. The fixtures here read
those variables; when they are missing the tests are skipped. Every test collected below this
directory is marked ``integration`` (deselect with ``-m "not integration"``).
"""

from __future__ import annotations

import os
import ssl
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
HOW_TO_RUN = "run the suite with `bash scripts/test.sh` (it starts the servers)"


@dataclass(frozen=True)
class MailAccount:
    """A mailbox on the test stack; ``address`` is also the IMAP/submission login name."""

    address: str
    password: str

    @property
    def local_part(self) -> str:
        return self.address.split("@", 1)[0]


@dataclass(frozen=True)
class MailStack:
    """Connection details of the loopback Postfix + Dovecot stack (see scripts/mailstack.sh).

    * ``smtp_host:smtp_port`` - Postfix, no AUTH, STARTTLS offered, accepts mail for known users;
    * ``smtp_host:submission_port`` - Dovecot submission, STARTTLS + AUTH (login = address);
    * ``imap_host:imap_port`` - IMAP with STARTTLS; ``imap_host:imaps_port`` - implicit TLS;
    * ``ca_cert`` - CA that signed the servers' certificate (valid for 127.0.0.1 and localhost).

    ``user+anything@domain`` is delivered to ``user``'s INBOX.
    """

    smtp_host: str
    smtp_port: int
    submission_port: int
    imap_host: str
    imap_port: int
    imaps_port: int
    ca_cert: Path
    domain: str
    users: tuple[tuple[str, str], ...]  # (local part, password)

    def account(self, name: str) -> MailAccount:
        """Credentials for ``"moderator"`` or ``"p1"`` .. ``"p6"``."""
        for local, password in self.users:
            if local == name:
                return MailAccount(f"{local}@{self.domain}", password)
        raise KeyError(f"no test mailbox {name!r}; have {[u for u, _ in self.users]}")

    @property
    def moderator(self) -> MailAccount:
        return self.account("moderator")

    @property
    def players(self) -> tuple[MailAccount, ...]:
        """p1, p2, ... in order."""
        names = sorted((u for u, _ in self.users if u != "moderator"), key=lambda u: (len(u), u))
        return tuple(self.account(n) for n in names)

    def plus_address(self, token: str, name: str = "moderator") -> str:
        """``moderator+TOKEN@domain``: delivered to the moderator's INBOX, token kept in To."""
        return f"{name}+{token}@{self.domain}"

    def ssl_context(self) -> ssl.SSLContext:
        """Client context that verifies the servers against the stack's CA."""
        return ssl.create_default_context(cafile=str(self.ca_cert))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # This hook sees every collected item, so only mark the ones below this directory.
    for item in items:
        if item.path.resolve().is_relative_to(HERE):
            item.add_marker(pytest.mark.integration)


def _servers_disabled() -> bool:
    return os.environ.get("PBEM_NO_SERVERS") == "1"


@pytest.fixture(scope="session")
def mailstack() -> MailStack:
    env = os.environ
    if _servers_disabled() or "MAILSTACK_SMTP_PORT" not in env:
        pytest.skip(f"mail servers not running (MAILSTACK_* unset); {HOW_TO_RUN}")
    users = tuple(
        (local, password)
        for local, _, password in (u.partition(":") for u in env["MAILSTACK_USERS"].split())
    )
    return MailStack(
        smtp_host=env["MAILSTACK_SMTP_HOST"],
        smtp_port=int(env["MAILSTACK_SMTP_PORT"]),
        submission_port=int(env["MAILSTACK_SUBMISSION_PORT"]),
        imap_host=env["MAILSTACK_IMAP_HOST"],
        imap_port=int(env["MAILSTACK_IMAP_PORT"]),
        imaps_port=int(env["MAILSTACK_IMAPS_PORT"]),
        ca_cert=Path(env["MAILSTACK_CA_CERT"]),
        domain=env["MAILSTACK_DOMAIN"],
        users=users,
    )


@pytest.fixture(scope="session")
def database_url() -> str:
    """SQLAlchemy URL (``postgresql+psycopg://...``) of the throw-away PostgreSQL database."""
    url = os.environ.get("DATABASE_URL", "")
    if _servers_disabled() or not url.startswith("postgresql"):
        pytest.skip(f"PostgreSQL not running (DATABASE_URL unset); {HOW_TO_RUN}")
    return url
