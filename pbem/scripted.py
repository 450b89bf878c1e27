"""Scripted players: they read their status mails and answer with a random legal
command, as real mails. Used by `pbem demo`, the tests and the benchmark.

A player acts only on a status mail that shows the current version and says it is
their turn; it picks its command as the game's presenter says (`demo_command`, for
its own seat: the harness replays the game to ask the engine, as a player would read
the mail), quotes the version as `@vN`, and replies to the mail's Reply-To address.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any, Protocol

from .loading import Rules
from .transport import DirSender, MailDirs, base_address, recipients

_VERSION = re.compile(r"@v(\d+)")
_HEADLINE_VERSION = re.compile(r"— v(\d+)\s*$")


class PlayerPost(Protocol):
    """A player's own mailbox: new mails in, mails out."""

    def receive(self, address: str) -> list[EmailMessage]: ...

    def send(self, msg: EmailMessage) -> None: ...


class DirPost:
    """`PlayerPost` over `MailDirs`: reading moves a mail from new/ to cur/."""

    def __init__(self, dirs: MailDirs) -> None:
        self.dirs = dirs
        self.sender = DirSender(dirs)

    def receive(self, address: str) -> list[EmailMessage]:
        from .transport import parse_raw

        out = []
        for path in self.dirs.new(address):
            out.append(parse_raw(path.read_bytes()))
            cur = path.parent.parent / "cur"
            cur.mkdir(exist_ok=True)
            path.replace(cur / path.name)
        return out

    def send(self, msg: EmailMessage) -> None:
        errors: list[Exception | None] = []
        self.sender.send_batch([msg], lambda i, e: errors.append(e))
        if errors and errors[0] is not None:
            raise errors[0]


@dataclass
class ScriptedPlayer:
    name: str
    seat: int
    address: str
    rng: random.Random
    typo_rate: float = 0.0
    version_seen: int = -1
    reply_to: str = ""
    last_id: str = ""
    last_subject: str = ""
    mails: int = 0
    errors: int = 0
    sent: list[str] = field(default_factory=list)
    rules: Rules = field(default_factory=lambda: Rules.named(None))  # the game played

    def read(self, msg: EmailMessage) -> None:
        """Take in one received mail: remember the latest version and reply address."""
        self.mails += 1
        body = msg.get_body(preferencelist=("plain",))
        text = body.get_content() if body is not None else ""
        first = text.lstrip().partition("\n")[0]  # the headline: what the mail is about
        error = str(msg["Message-ID"] or "").startswith("<pbem.error.")  # any language
        if error or "not applied" in first or "could not act" in text or "did not act" in text:
            self.errors += 1
        # the version to answer: the footer's "@vN", or the headline's "— vN" (a mail
        # with no reply instructions, such as the game-over mail)
        found = _VERSION.findall(text) or _HEADLINE_VERSION.findall(first)
        if found and int(found[-1]) >= self.version_seen:
            self.version_seen = int(found[-1])
            if msg["Reply-To"]:
                self.reply_to = str(msg["Reply-To"])
            self.last_id = str(msg["Message-ID"] or "")
            self.last_subject = str(msg["Subject"] or "")

    def choose(self, state: Any) -> Any:
        return self.rules.presenter.demo_command(state, self.seat, self.rng)

    def reply(self, lines: Sequence[str], quote: str = "") -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = self.address
        msg["To"] = self.reply_to
        msg["Subject"] = "Re: " + self.last_subject.removeprefix("Re: ")
        msg["Message-ID"] = make_msgid(domain=self.address.rpartition("@")[2])
        if self.last_id:
            msg["In-Reply-To"] = self.last_id
            msg["References"] = self.last_id
        msg.set_content("\n".join(lines) + "\n" + quote + "\n-- \n" + self.name + "\n")
        return msg

    def move(self, state: Any) -> EmailMessage:
        """A reply to the latest status mail: `@vN` and one command (now and then a
        typo instead, which the moderator must refuse)."""
        if self.typo_rate and self.rng.random() < self.typo_rate:
            text = self.rng.choice(self.rules.presenter.typos)
        else:
            text = self.rules.grammar.format_command(self.choose(state))
        self.sent.append(text)
        quote = f"\nOn Mon, 1 Dec 2026, the moderator wrote:\n> your turn\n> @v{state.version}\n"
        return self.reply([f"@v{state.version}", text], quote)


def pick_actor(state: Any, players: Sequence[ScriptedPlayer],
               rng: random.Random) -> ScriptedPlayer | None:
    """A player to act now who has seen the current version, if any."""
    if not players:
        return None
    acting = players[0].rules.game.to_act(state)
    ready = [p for p in players if p.seat in acting and p.version_seen == state.version
             and p.reply_to]
    return rng.choice(ready) if ready else None


def deliver_all(post: PlayerPost, players: Sequence[ScriptedPlayer]) -> int:
    n = 0
    for p in players:
        for msg in post.receive(p.address):
            assert base_address(recipients(msg)[0]) == base_address(p.address)
            p.read(msg)
            n += 1
    return n


Step = Callable[[], object]
