"""The log tools take the game from the registry and import no game package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from notation.registry import GRAMMARS
from pbem.logs import replay_log
from pbem.verify import verify_log

ROOT = Path(__file__).resolve().parents[2]
MODULES = ("pbem/logs.py", "pbem/verify.py", "pbem/cli_logs.py", "pbem/log_report.py")


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


@pytest.mark.parametrize("module", MODULES)
def test_log_tools_import_no_game_package(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text("utf-8"))
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        for name in names:
            parts = name.split(".")
            assert not (len(parts) >= 2 and parts[0] in ("engine", "notation", "pbem")
                        and parts[1] == "princes"), f"{module}:{node.lineno} imports {name}"
