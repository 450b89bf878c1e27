"""`pbem demo`: a whole game among scripted players through the real pipeline, with
no server: SQLite, and folders of .eml files standing in for IMAP and SMTP
(`transport.MailDirs`). The rendered mails stay in the output folder to read.
"""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from engine.consent import Undo
from engine.protocol import CHANCE
from engine.undo import legal_undo_commands

from .config import Config
from .loading import Rules
from .moderator import Moderator, PlayerSpec
from .outbound import Renderer
from .runner import poll_once, transports
from .scripted import DirPost, ScriptedPlayer, deliver_all, pick_actor
from .store import Game, Store, utcnow
from .transport import MailDirs

NAMES = ("anna", "bas", "chris", "dirk", "eva")
DOMAIN = "example.org"


@dataclass
class DemoResult:
    game_id: str
    out_dir: Path
    db_path: Path
    moves: int
    mails_in: int
    mails_out: int
    rejected: int
    seconds: float
    winners: tuple[str, ...]
    scores: dict[str, int]  # each player's score (the game's own measure)
    undos: int = 0  # undos agreed by everyone
    undo_requests: int = 0


class FakeClock:
    """Game time for the demo: a few minutes pass with every mail."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def tick(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)


def run_demo(out_dir: Path, *, players: int = 4, seed: int = 1, typo_rate: float = 0.03,
             undo_rate: float = 0.03, max_steps: int = 5000,
             game: str | None = None,
             options: Mapping[str, str] | None = None) -> DemoResult:
    """Play one game to the end by mail; the mails end up under `out_dir/mail`.

    Now and then (`undo_rate`) a player asks to take back the command just accepted,
    and the others answer `agree` (or, one time in five, `refuse`). `game`: the
    registered game to play (None: the default game), with its `options`."""
    t0 = time.perf_counter()
    out_dir = Path(out_dir)
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    db_path = out_dir / "pbem.sqlite"
    cfg = Config(db_path=db_path, mail_dir=out_dir / "mail",
                 moderator_address=f"moderator@{DOMAIN}", transport="files")
    store = Store(cfg.sqlalchemy_url())
    store.create_all()
    mod = Moderator(store, cfg, Renderer())
    clock = FakeClock(datetime(2026, 12, 1, 18, 0, tzinfo=utcnow().tzinfo))
    rng = random.Random(f"demo|{seed}")
    zones = ("Europe/Amsterdam", "America/New_York", "Asia/Tokyo", "UTC", "Europe/London")
    names = [NAMES[i] if i < len(NAMES) else f"player{i + 1}" for i in range(players)]
    specs = [PlayerSpec(n, f"{n}@{DOMAIN}", zones[i % len(zones)]) for i, n in enumerate(names)]
    game_id = mod.new_game(specs, clock(), seed=f"demo-seed-{seed}",
                           turn_hours=72, reminder_hours=24, game=game, options=options)
    inbox, sender = transports(cfg)
    post = DirPost(MailDirs(cfg.mail_dir))
    rules = Rules.named(game)  # the scripted players play the game's own words
    scripted = [ScriptedPlayer(p.name, i, p.email, random.Random(f"{seed}|{p.name}"),
                               typo_rate=typo_rate, rules=rules)
                for i, p in enumerate(specs)]
    mails_in = rejected = undos = requests = 0

    def exchange(sender: ScriptedPlayer, lines: list[str]) -> None:
        nonlocal mails_in, rejected
        post.send(sender.reply(lines))
        mails_in += 1
        clock.tick(rng.uniform(5, 120))
        report = poll_once(mod, inbox, sender_transport, clock)
        rejected += sum(1 for o in report.outcomes if o.status == "rejected")
        deliver_all(post, scripted)

    sender_transport = sender
    for _ in range(max_steps):
        report = poll_once(mod, inbox, sender, clock)
        rejected += sum(1 for o in report.outcomes if o.status == "rejected")
        deliver_all(post, scripted)
        with store.read() as s:
            game = s.get(Game, game_id)
            assert game is not None
            if game.finished:
                break
            loaded = mod.games.load(s, game)
        state, rules = loaded.state, loaded.rules
        assert rules.game.to_act(state) != (CHANCE,)
        actor = pick_actor(state, scripted, rng)
        if actor is None:
            raise RuntimeError(f"nobody can act at v{state.version}: mails lost?")
        post.send(actor.move(state))
        mails_in += 1
        clock.tick(rng.uniform(5, 600))
        if undo_rate and rng.random() < undo_rate:
            report = poll_once(mod, inbox, sender, clock)
            rejected += sum(1 for o in report.outcomes if o.status == "rejected")
            deliver_all(post, scripted)
            with store.read() as s:
                game = s.get(Game, game_id)
                assert game is not None
                _, state = mod.load(s, game)
                tracker = mod.tracker(s, game)
            if Undo() not in legal_undo_commands(rules.game, state, tracker, actor.seat):
                continue
            requests += 1
            exchange(actor, [f"@v{state.version}", "undo"])
            for other in scripted:
                if other is actor:
                    continue
                answer = "refuse" if rng.random() < 0.2 else "agree"
                exchange(other, [answer])
                if answer == "refuse":
                    break
            else:
                undos += 1
    else:
        raise RuntimeError("the demo game did not end")
    poll_once(mod, inbox, sender, clock)
    deliver_all(post, scripted)
    with store.read() as s:
        loaded = mod.games.load(s, s.get(Game, game_id))  # type: ignore[arg-type]
        result = loaded.rules.game.result(loaded.state)
        from sqlmodel import func, select

        from .store import MoveRow, OutMail
        mails_out = s.exec(select(func.count()).select_from(OutMail)).one()
        moves = s.exec(select(func.count()).select_from(MoveRow)
                       .where(MoveRow.seat >= 0)).one()
    store.dispose()
    return DemoResult(
        game_id=game_id, out_dir=out_dir, db_path=db_path, moves=int(moves),
        mails_in=mails_in, mails_out=int(mails_out), rejected=rejected,
        seconds=time.perf_counter() - t0,
        winners=tuple(loaded.names[w] for w in result.winners),
        scores={st.name: st.score for st in result.standings}, undos=undos,
        undo_requests=requests)
