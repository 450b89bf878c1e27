"""A game played to the end through the moderator (SQLite and the file transport, as in
`pbem demo`), with undos, exported as `pbem export` writes it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.config import Config
from pbem.demo import DemoResult, run_demo
from pbem.export import export_game
from pbem.moderator import Moderator
from pbem.store import Store


@dataclass
class Exported:
    demo: DemoResult
    mod: Moderator
    text: str
    path: Path


def play_and_export(out: Path, *, players: int, seed: int, undo_rate: float) -> Exported:
    demo = run_demo(out / "game", players=players, seed=seed, undo_rate=undo_rate)
    cfg = Config(db_path=demo.db_path, moderator_address="moderator@example.org")
    mod = Moderator(Store(cfg.sqlalchemy_url()), cfg)
    text = export_game(mod, demo.game_id)
    path = out / "game.log"
    path.write_text(text, encoding="utf-8")
    return Exported(demo, mod, text, path)


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Exported:
    game = play_and_export(tmp_path_factory.mktemp("trust"), players=3, seed=2, undo_rate=0.12)
    assert game.demo.undos >= 1 and game.demo.undo_requests > game.demo.undos
    return game
