"""Several games at once among scripted players, over any player post (real IMAP and
SMTP, or folders of `.eml` files): for the multi-worker tests and the benchmark.

`Tables.step` reads every player's new mail, hands each mail to the player of the
game its `[game-id]` subject names, and for each game whose next player has seen the
current version, sends one move; no other move of that game goes out until the game
has moved on (a second reply to the same version would be refused as stale). The
harness reads the game's state from the database to ask the engine, as a player
would read it from the status mail.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .loading import Rules
from .moderator import Moderator, PlayerSpec
from .scripted import PlayerPost, ScriptedPlayer, pick_actor
from .store import Game

_GAME = re.compile(r"^\[([A-Za-z0-9_-]+)\]")


@dataclass
class Table:
    """One game: its scripted players and the moves sent to it."""

    game_id: str
    players: list[ScriptedPlayer]
    rng: random.Random
    waiting_for: int = -1  # the version a move was sent against, until the game moves
    sent: list[str] = field(default_factory=list)  # Message-IDs of the moves sent


class Tables:
    """Scripted players at several games of one moderator database."""

    def __init__(self, mod: Moderator, post: PlayerPost, tables: Sequence[Table]) -> None:
        self.mod = mod
        self.post = post
        self.tables = {t.game_id: t for t in tables}
        self.addresses = sorted({p.address for t in tables for p in t.players})
        self.received: Counter[str] = Counter()  # Message-IDs over every player's mail
        self.stray = 0  # mails naming no game of these tables

    @classmethod
    def start(cls, mod: Moderator, post: PlayerPost, games: Sequence[Sequence[PlayerSpec]],
              now: datetime, prefix: str = "", seed: str = "tables") -> Tables:
        """Create the games (first status mails queued) and seat a scripted player
        on each seat (`prefix`: of the game ids, the default game's own if "")."""
        prefix = prefix or Rules.named(None).presenter.id_prefix
        tables = []
        for i, specs in enumerate(games):
            game_id = f"{prefix}-{i + 1}"
            mod.new_game(specs, now, game_id=game_id, seed=f"{seed}-{game_id}")
            players = [ScriptedPlayer(s.name, k, s.email, random.Random(f"{seed}{game_id}{k}"))
                       for k, s in enumerate(specs)]
            tables.append(Table(game_id, players, random.Random(f"{seed}{game_id}")))
        return cls(mod, post, tables)

    def state(self, game_id: str) -> Any:
        with self.mod.store.read() as s:
            game = s.get(Game, game_id)
            assert game is not None
            return self.mod.load(s, game)[1]  # cached while the version stays

    def read_mail(self) -> int:
        n = 0
        for address in self.addresses:
            for msg in self.post.receive(address):
                n += 1
                self.received[str(msg["Message-ID"])] += 1
                m = _GAME.match(str(msg["Subject"] or ""))
                table = self.tables.get(m.group(1)) if m else None
                if table is None:
                    self.stray += 1
                    continue
                for p in table.players:
                    if p.address == address:
                        p.read(msg)
        return n

    def step(self, send: bool = True) -> int:
        """Read all mail, then (if `send`) send each game's next move if its player is
        ready. Returns how many moves were sent."""
        self.read_mail()
        moves = 0
        if not send:
            return 0
        for table in self.tables.values():
            state = self.state(table.game_id)
            if state.finished or table.waiting_for == state.version:
                continue
            actor = pick_actor(state, table.players, table.rng)
            if actor is None:
                continue
            msg = actor.move(state)
            self.post.send(msg)
            table.sent.append(str(msg["Message-ID"]))
            table.waiting_for = state.version
            moves += 1
        return moves

    def answered(self) -> bool:
        """Whether every move sent so far has been applied (each game moved on)."""
        return all(t.waiting_for < self.state(g).version for g, t in self.tables.items())

    def finished(self) -> bool:
        return all(self.state(g).finished for g in self.tables)

    def versions(self) -> dict[str, int]:
        return {g: self.state(g).version for g in self.tables}

    @property
    def sent(self) -> list[str]:
        return [m for t in self.tables.values() for m in t.sent]

    def moves(self) -> int:
        return sum(len(t.sent) for t in self.tables.values())
