"""The log tools take the game from the registry and import no game package."""

from __future__ import annotations

from pathlib import Path

from notation.registry import GRAMMARS
from pbem.logs import replay_log
from pbem.verify import verify_log

ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_game_names_the_registered_games() -> None:
    r = replay_log('[Game "chess"]\n[Players "anna, bas, chris"]\n')
    assert r.error is not None and r.error.rule == "game" and r.error.line == 1
    for name in GRAMMARS.names():
        assert repr(name) in r.error.message
    v = verify_log('[Game "chess"]\n[Seed "s"]\n[Rules "r"]\n[Engine "e"]\n'
                   f'[SeedCommit "sha256:{"0" * 64}"]\n[Salt "x"]\n'
                   f'[Head "v1 sha256:{"0" * 64}"]\n[Players "anna, bas, chris"]\n')
    assert v.problem is not None and v.problem.check == "tags"
    assert all(repr(name) in v.problem.message for name in GRAMMARS.names())
