"""A worker's warm-up before it serves (`pbem.warming`): a move of each registered
game on a scratch database, so that the first real mail finds the games' modules
imported and their templates compiled, and nothing of it reaches the database."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import func, select

from engine.registry import GAMES
from pbem import warming
from pbem.registry import presenter_for
from pbem.runner import warm
from pbem.store import Game, InboundMail, OutMail

from .fakes import NOW, make_moderator


def test_the_warm_up_compiles_every_game_s_mails_and_stores_nothing() -> None:
    mod = make_moderator()
    assert warming.warm_up(mod, NOW) == GAMES.names()
    for name in GAMES.names():
        env = mod.renderer.env(presenter_for(name).template_dir)
        compiled = {key[1] for key in env.cache.keys()} if env.cache is not None else set()
        assert {"status.txt", "status.html"} <= compiled, name
    with mod.store.read() as s:
        for table in (Game, InboundMail, OutMail):
            assert s.exec(select(func.count()).select_from(table)).one() == 0
    assert len(mod.games) == 0  # the worker's cache of games holds none of them


def test_a_failed_warm_up_leaves_the_worker_to_serve(monkeypatch: pytest.MonkeyPatch,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    def broken(*_: object) -> list[str]:
        raise RuntimeError("no games today")

    monkeypatch.setattr(warming, "warm_up", broken)
    warm(make_moderator())
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == [
        "the warm-up failed; serving without it"]


def test_serve_warms_up_before_it_serves(tmp_path: Path) -> None:
    """`pbem serve` has imported the games' modules when it says it serves."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PBEM_") and k != "DATABASE_URL"}
    env.update(PBEM_DB=str(tmp_path / "pbem.sqlite"), PBEM_TRANSPORT="files",
               PBEM_MAIL_DIR=str(tmp_path / "mail"), PBEM_POLL_SECONDS="60",
               PBEM_MODERATOR_ADDRESS="moderator@example.org")
    modules = sorted({type(GAMES.get(n)).__module__ for n in GAMES.names()})
    code = ("import sys, typer\nfrom pbem.cli import app\n"
            "echo = typer.echo\n"
            "def said(msg, *a, **k):\n"
            "    if str(msg).startswith('serving'):\n"
            f"        print('loaded', all(m in sys.modules for m in {modules!r}), flush=True)\n"
            "        raise SystemExit(0)\n"
            "    echo(msg, *a, **k)\n"
            "typer.echo = said\n"
            "app()\n")
    out = subprocess.run([sys.executable, "-c", code, "serve"], env=env, text=True,
                         capture_output=True, timeout=60, check=False)
    assert "loaded True" in out.stdout, out.stderr[-2000:]
    assert "warmed up (" in out.stderr
