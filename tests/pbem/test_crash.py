"""Killing the moderator anywhere loses and doubles nothing (file transport).

Crashes are injected at the two points between a commit and its side effect (after
the mail's transaction, before it is moved to `processed`; after a mail was
delivered, before its outbox row is marked sent), and a real `pbem poll --once`
subprocess is killed with SIGKILL at random moments.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from sqlmodel import func, select

from engine.princes.game import to_act
from pbem.config import Config
from pbem.moderator import Moderator
from pbem.runner import poll_once, transports
from pbem.scripted import DirPost, ScriptedPlayer, deliver_all, pick_actor
from pbem.store import EventRow, Game, InboundMail, OutMail, Store, utcnow
from pbem.transport import MailDirs

from .fakes import PLAYERS


class Crash(BaseException):
    """Stands for the process dying: not an Exception, so nothing catches it."""


def setup(tmp_path: Path) -> tuple[Moderator, Config, DirPost, list[ScriptedPlayer]]:
    cfg = Config(db_path=tmp_path / "pbem.sqlite", mail_dir=tmp_path / "mail",
                 moderator_address="moderator@example.org", transport="files")
    store = Store(cfg.sqlalchemy_url())
    store.create_all()
    mod = Moderator(store, cfg)
    mod.new_game(PLAYERS, utcnow(), game_id="pof-1", seed="crash")
    post = DirPost(MailDirs(cfg.mail_dir))
    players = [ScriptedPlayer(p.name, i, p.email, random.Random(i))
               for i, p in enumerate(PLAYERS)]
    return mod, cfg, post, players


def state(mod: Moderator):  # noqa: ANN201
    with mod.store.read() as s:
        g = s.get(Game, "pof-1")
        assert g is not None
        return mod.load(s, g)[1]


def move(mod: Moderator, post: DirPost, players: list[ScriptedPlayer],
         rng: random.Random) -> list[str]:
    """Every player reads new mail; one who may act sends a move. Returns its Message-ID."""
    deliver_all(post, players)
    st = state(mod)
    actor = pick_actor(st, players, rng)
    if actor is None or st.finished:
        return []
    msg = actor.move(st)
    post.send(msg)
    return [str(msg["Message-ID"])]


def audit(mod: Moderator, cfg: Config, sent_ids: list[str]) -> None:
    """Every player mail processed exactly once; every outbox mail delivered once."""
    with mod.store.read() as s:
        stored = Counter(s.exec(select(InboundMail.message_id)).all())
        assert all(stored[m] == 1 for m in sent_ids), "a player mail was lost"
        assert sum(stored.values()) == len(sent_ids)
        rows = s.exec(select(OutMail)).all()
        assert all(r.status == "sent" for r in rows), "an outbox mail was not sent"
        seqs = s.exec(select(EventRow.seq).order_by(EventRow.seq)).all()
        assert seqs == list(range(len(seqs)))
    assert not list((cfg.mail_dir / "moderator@example.org" / "new").glob("*.eml"))
    delivered = Counter(p.name.split("-")[1] for p in cfg.mail_dir.glob("*/*/*.eml")
                        if p.parent.name in ("new", "cur") and "moderator" not in str(p))
    assert len(delivered) == len(rows) and set(delivered.values()) == {1}, \
        "an outbox mail was delivered twice"


def test_crash_between_commit_and_move_to_processed(tmp_path, monkeypatch) -> None:
    mod, cfg, post, players = setup(tmp_path)
    inbox, sender = transports(cfg)
    rng = random.Random(1)
    poll_once(mod, inbox, sender)
    sent = move(mod, post, players, rng)
    from pbem.transport import DirInbox

    real_done = DirInbox.done

    def die(self: DirInbox, uid: str) -> None:
        raise Crash

    monkeypatch.setattr(DirInbox, "done", die)
    with pytest.raises(Crash):
        poll_once(mod, inbox, sender)
    monkeypatch.setattr(DirInbox, "done", real_done)
    report = poll_once(mod, inbox, sender)
    assert [o.status for o in report.outcomes] == ["duplicate"]
    for _ in range(5):
        sent += move(mod, post, players, rng)
        poll_once(mod, inbox, sender)
    deliver_all(post, players)
    audit(mod, cfg, sent)


def test_crash_between_delivery_and_marking_sent(tmp_path, monkeypatch) -> None:
    mod, cfg, post, players = setup(tmp_path)
    inbox, sender = transports(cfg)
    import pbem.outbound as outbound

    real = outbound._marker
    calls = {"n": 0}

    def dying_marker(*args: object):  # noqa: ANN202
        done = real(*args)  # type: ignore[arg-type]

        def wrapped(i: int, error: Exception | None) -> None:
            calls["n"] += 1
            if calls["n"] == 3:
                raise Crash  # the 3rd mail is on disk, its row still pending
            done(i, error)

        return wrapped

    monkeypatch.setattr(outbound, "_marker", dying_marker)
    with pytest.raises(Crash):
        poll_once(mod, inbox, sender)
    monkeypatch.setattr(outbound, "_marker", real)
    poll_once(mod, inbox, sender)
    deliver_all(post, players)
    audit(mod, cfg, [])


def test_sigkill_at_random_points_loses_and_doubles_nothing(tmp_path) -> None:
    mod, cfg, post, players = setup(tmp_path)
    env = {**os.environ, "PBEM_DB": str(cfg.db_path), "PBEM_MAIL_DIR": str(cfg.mail_dir),
           "PBEM_MODERATOR_ADDRESS": cfg.moderator_address, "PBEM_TRANSPORT": "files"}
    env.pop("DATABASE_URL", None)
    cmd = [sys.executable, "-c", "from pbem.cli import app; app()", "poll", "--once"]
    rng = random.Random(5)
    inbox, sender = transports(cfg)
    poll_once(mod, inbox, sender)
    sent: list[str] = []
    kills = 0
    for _ in range(12):
        sent += move(mod, post, players, rng)
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.0, 1.5))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
        if rng.random() < 0.5:  # sometimes a second, killed pass on the same mail
            proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.3, 1.2))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills += 1
            proc.wait()
        mod._cache.clear()
        poll_once(mod, inbox, sender)  # the restarted moderator finishes the job
    deliver_all(post, players)
    assert kills > 0
    audit(mod, cfg, sent)
    with mod.store.read() as s:
        assert s.exec(select(func.count()).select_from(InboundMail)).one() == len(sent)
    assert to_act(state(mod))
