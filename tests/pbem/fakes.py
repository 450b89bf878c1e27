"""In-memory stand-ins for the mail servers, and helpers to build a moderator."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage

from pbem.config import Config
from pbem.errors import TransportError
from pbem.mime import Outgoing
from pbem.moderator import Moderator, PlayerSpec
from pbem.store import Store
from pbem.transport import Fetched

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
DOMAIN = "example.org"
PLAYERS = [PlayerSpec("anna", "anna@example.org", "Europe/Amsterdam"),
           PlayerSpec("bas", "bas@example.org", "America/New_York"),
           PlayerSpec("chris", "chris@example.org", "UTC")]


class FakeMailbox:
    """An IMAP folder in memory: `mails` waiting, `processed` after `done`."""

    def __init__(self) -> None:
        self.mails: dict[str, bytes] = {}
        self.processed: list[str] = []
        self.failed_uids: list[str] = []
        self._n = 0

    def put(self, raw: bytes | EmailMessage) -> str:
        if isinstance(raw, EmailMessage):
            raw = raw.as_bytes(policy=email.policy.SMTP)
        self._n += 1
        uid = f"INBOX/1/{self._n}"
        self.mails[uid] = raw
        return uid

    def __enter__(self) -> FakeMailbox:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def fetch(self, limit: int = 100) -> list[Fetched]:
        return [Fetched(uid, raw) for uid, raw in list(self.mails.items())[:limit]]

    def done(self, uid: str) -> None:
        self.mails.pop(uid, None)
        self.processed.append(uid)

    def flush(self) -> None:
        return None

    def failed(self, uid: str) -> None:
        self.mails.pop(uid, None)
        self.failed_uids.append(uid)

    def wait(self, seconds: float) -> None:
        return None


def delivered(msg: EmailMessage) -> EmailMessage:
    """`msg` as its recipient reads it: an outbox mail's bytes parsed whole (the
    moderator reads back only their headers), keeping its envelope."""
    if not isinstance(msg, Outgoing) or not msg.raw:
        return msg
    whole = email.message_from_bytes(msg.raw.replace(b"\r\n", b"\n"), _class=Outgoing,
                                     policy=email.policy.default)
    assert isinstance(whole, Outgoing)
    whole.raw, whole.to, whole.message_id = msg.raw, msg.to, msg.message_id
    return whole


@dataclass
class FakeSmtp:
    """Records every message; `down` makes every send fail as an unreachable server."""

    sent: list[EmailMessage] = field(default_factory=list)
    down: bool = False
    history: list[EmailMessage] = field(default_factory=list)  # never cleared

    def send_batch(self, messages: Sequence[EmailMessage],
                   done: Callable[[int, Exception | None], None]) -> None:
        for i, msg in enumerate(messages):
            if self.down:
                done(i, TransportError("connection refused"))
                continue
            self.sent.append(delivered(msg))
            self.history.append(self.sent[-1])
            done(i, None)

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.sent if str(m["To"]) == address]

    def text(self, msg: EmailMessage) -> str:
        body = msg.get_body(preferencelist=("plain",))
        assert body is not None
        return str(body.get_content())

    def headline(self, msg: EmailMessage) -> str:
        """The first line of a mail's text: what it is about (the subject is the
        game's, the same for every mail of the game)."""
        return self.text(msg).splitlines()[0]


def make_moderator(url: str = "sqlite://") -> Moderator:
    store = Store(url)
    store.create_all()
    return Moderator(store, Config(moderator_address=f"moderator@{DOMAIN}"))


def mail(sender: str, to: str, body: str, subject: str = "move", **headers: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = email.utils.make_msgid(domain="example.org")
    for k, v in headers.items():
        msg[k.replace("_", "-")] = v
    msg.set_content(body)
    return msg


def raw(msg: EmailMessage) -> bytes:
    return msg.as_bytes(policy=email.policy.SMTP)
