"""Starting a game: the players checked, the first event and the deal from the seed,
the game's rows, and everyone's first status mail, in one transaction."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from sqlmodel import Session, select

from engine.chain import seed_commitment
from engine.match import Match

from .i18n import check_language
from .loading import Loaded, Rules
from .mail_settings import check_setting
from .names import check_game_names
from .players import PlayerSpec, new_token
from .playing import Played
from .sender_auth import REQUIREMENTS
from .store import Game, GameAuth, Seat, SeatAddress

if TYPE_CHECKING:
    from .moderator import Moderator


def new_game(mod: Moderator, players: Sequence[PlayerSpec], now: datetime, *,
             game_id: str | None = None, game: str | None = None,
             variant: str | None = None, options: Mapping[str, str] | None = None,
             seed: str | None = None, turn_hours: float = 0, reminder_hours: float = 0,
             late_policy: str = "wait", require_auth: str = "none") -> str:
    """Create a game of `game` (None: the default game), deal with its seed, and
    queue everyone's first status mail.

    `require_auth` (dmarc, dkim, spf or none): the alignment of the From address
    that the moderator's mail server must have found (`pbem.sender_auth`).

    Raises:
        IllegalMoveError: the engine refuses the setup (player count, an option).
        NameRefused: a name the notation cannot write, or two that look alike
            (`pbem.names`).
        ValueError: a bad game id, policy or duplicate game id; an address given
            to two seats; a sender check without a configured authserv-id; a mail
            setting that is none of every, turn, daily; a language that is none of
            en, nl, el.
        UnknownGameError: no such game.
    """
    if late_policy not in ("wait", "auto"):
        raise ValueError("late policy must be 'wait' or 'auto'")
    if require_auth not in REQUIREMENTS:
        raise ValueError(f"--require-auth must be one of {', '.join(REQUIREMENTS)}")
    if require_auth != "none" and not mod.cfg.authserv_id:
        raise ValueError(f"--require-auth {require_auth} needs the authserv-id of the "
                         "moderator's mail server (PBEM_AUTHSERV_ID)")
    owners: dict[str, str] = {}
    players = [dataclasses.replace(p, mail=check_setting(p.mail),
                                   language=check_language(p.language)) for p in players]
    for p in players:
        for addr in (p.email, *p.extra):
            if owners.setdefault(addr, p.name) != p.name:
                raise ValueError(f"{addr} is given for both {owners[addr]} and {p.name}")
    names = check_game_names([p.name for p in players])
    players = [dataclasses.replace(p, name=n) for p, n in zip(players, names, strict=True)]
    rules = Rules.named(game)
    seed = seed or secrets.token_hex(16)
    salt = secrets.token_hex(8)
    match = Match.start(rules.game, [p.name for p in players], variant=variant,
                        options=options, seed=seed,
                        commitment=seed_commitment(seed, salt), seeded=True)
    setup = rules.game.setup(match.events[0])
    before = Loaded(rules, [], match.state)
    played = Played(match, rules.grammar)
    played.resolve_chance()
    with mod.store.transaction() as s:
        game_id = _new_id(s, game_id, rules.presenter.id_prefix)
        row = Game(id=game_id, variant=setup.variant, seed=seed, salt=salt, created=now,
                   turn_hours=turn_hours, reminder_hours=reminder_hours,
                   late_policy=late_policy)
        row.game = rules.game.name
        s.add(row)
        seats = [Seat(game_id=game_id, seat=i, name=p.name, person=p.name, email=p.email,
                      tz=p.tz, token=new_token(), mail=p.mail, language=p.language)
                 for i, p in enumerate(players)]
        for seat in seats:
            s.add(seat)
        s.flush()
        for i, p in enumerate(players):
            for addr in p.extra:
                s.add(SeatAddress(game_id=game_id, seat=i, address=addr))
        if require_auth != "none":
            s.add(GameAuth(game_id=game_id, require=require_auth))
        notice = (f"A new game of {rules.game.title}: {', '.join(setup.players)}, judged "
                  f"by pbem's engine {setup.engine} with the rules edition "
                  f"{setup.edition}. Every deal and draw "
                  "comes from a secret seed, revealed when the game ends. The seed's "
                  f"commitment is sha256:{setup.commitment}: keep this mail "
                  "to check the seed against it (docs/trust.md).")
        mod.record(s, row, seats, before, played, now, source="setup", notice=notice,
                   first=True)
    return game_id


def _new_id(s: Session, game_id: str | None, prefix: str) -> str:
    """The id asked for (checked), or the game's prefix and the next free number.

    Raises:
        ValueError: the id exists already, or is not letters, digits, - and _.
    """
    if game_id is None:
        n = len(list(s.exec(select(Game.id)))) + 1
        while s.get(Game, f"{prefix}-{n}") is not None:
            n += 1
        game_id = f"{prefix}-{n}"
    elif s.get(Game, game_id) is not None:
        raise ValueError(f"game {game_id!r} exists already")
    if not game_id.replace("-", "").replace("_", "").isalnum():
        raise ValueError("a game id is letters, digits, - and _ only")
    return game_id
