"""A worker's warm-up before it serves: one move of each registered game, played on a
scratch database in memory, so that the worker's first real mail costs what any
other does.

A mail is the first of its process to need a game's modules (its rules, notation and
words, imported when a game is first loaded), its templates (compiled, or loaded
from the bytecode cache), its board picture's library and the mail parser's parts.
Unwarmed, each worker pays for these while a player's mail waits, and several
workers started together each pay for them at once.
"""

from __future__ import annotations

import random
from datetime import datetime
from email.message import EmailMessage

from sqlmodel import SQLModel

from engine.protocol import CHANCE
from engine.registry import GAMES

from .inbound import as_email
from .loading import Rules
from .moderator import Moderator
from .players import PlayerSpec
from .store import TABLES, Game, Store, seats_of

_DOMAIN = "warm-up.invalid"


def warm_up(mod: Moderator, now: datetime) -> list[str]:
    """Start a game of each registered game and play one command of it by mail, with
    `mod`'s configuration and renderer, on a scratch SQLite database in memory (so
    nothing reaches `mod`'s database, its outbox or its cache of games). Returns the
    games played; a game that cannot be warmed (none of its seats can act) is
    started only."""
    scratch = Moderator(Store("sqlite://"), mod.cfg, mod.renderer)
    SQLModel.metadata.create_all(scratch.store.engine, tables=TABLES)  # no migrations
    try:
        for name in GAMES.names():
            _one_move(scratch, name, now)
    finally:
        scratch.store.dispose()
    return GAMES.names()


def _one_move(mod: Moderator, name: str, now: datetime) -> None:
    rules = Rules.named(name)
    variant = next(iter(rules.game.variants.values()))
    specs = [PlayerSpec(f"p{i}", f"p{i}@{_DOMAIN}") for i in range(variant.min_players)]
    game_id = mod.new_game(specs, now, game=name, seed="warm-up")
    with mod.store.read() as s:
        seats = seats_of(s, game_id)
        row = s.get(Game, game_id)
        assert row is not None
        state = mod.load(s, row)[1]
    acting = [seat for seat in rules.game.to_act(state) if seat != CHANCE]
    if not acting:
        return
    seat = seats[acting[0]]
    command = rules.presenter.demo_command(state, seat.seat, random.Random(name))
    msg = EmailMessage()
    msg["From"] = specs[seat.seat].email
    msg["To"] = mod.cfg.reply_address(seat.token)
    msg["Subject"] = "warm-up"
    msg["Message-ID"] = f"<warm-up.{name}@{_DOMAIN}>"
    msg.set_content(f"@v{state.version}\n{rules.grammar.format_command(command)}\n")
    mod.process_mail(as_email(msg), now)
