"""Whole games of The Muse and the Princess played by mail through the moderator (as
`pbem demo --expansion muse-and-princess` plays them), in the 2-player game (with 5 and
with 4 freedoms) and the standard game, exported and verified; and the expansion on the
command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.config import Config
from pbem.demo import run_demo
from pbem.export import export_game
from pbem.logs import replay_log
from pbem.moderator import Moderator
from pbem.store import Store
from pbem.verify import verify_log

EXPANSION = {"expansion": "muse-and-princess"}


@pytest.mark.parametrize(("players", "options", "variant"), [
    (2, EXPANSION, "two-player"),
    (2, {**EXPANSION, "freedoms": "4"}, "two-player"),
    (3, EXPANSION, "standard"),
    (4, EXPANSION, "standard"),
    (5, EXPANSION, "standard"),
])
def test_a_whole_expansion_game_by_mail_exports_and_verifies(
        tmp_path: Path, players: int, options: dict[str, str], variant: str) -> None:
    demo = run_demo(tmp_path / "game", players=players, seed=3, undo_rate=0.05,
                    options=options)
    cfg = Config(db_path=demo.db_path, moderator_address="moderator@example.org")
    mod = Moderator(Store(cfg.sqlalchemy_url()), cfg)
    text = export_game(mod, demo.game_id)
    assert '[Expansions "muse-and-princess"]' in text
    assert f'[Variant "{variant}"]' in text
    if "freedoms" in options:
        assert '[Freedoms "4"]' in text
    moves = [line.split(":", 1)[1].split("#")[0].strip() for line in text.splitlines()
             if ":" in line and not line.startswith(("[", "*", "#"))]
    assert any(m.startswith("bid ") and not m.split()[1].isdigit() for m in moves), \
        "nobody bid on a character"
    assert not any(m.startswith("sell") for m in moves)
    result = verify_log(text, file="game.log")
    assert result.ok, result.summary()
    replayed = replay_log(text, file="game.log")
    assert replayed.ok and replayed.finished
    assert replayed.state.court is not None  # the expansion, read from the tag
    assert len(replayed.state.players) == players
    assert replayed.state.rules.variant == variant
    mails = list((tmp_path / "game" / "mail" / "anna@example.org" / "cur").glob("*.eml"))
    assert any(b"Characters: banker" in m.read_bytes() for m in mails)


def test_selfplay_takes_the_expansion_and_writes_its_tag() -> None:
    runner = CliRunner()
    plain = runner.invoke(app, ["selfplay", "-n", "3", "--seed", "7"])
    assert plain.exit_code == 0 and "Expansions" not in plain.output
    for args in (["--expansion", "muse-and-princess"], ["--expansion=muse-and-princess"],
                 ["--option", "expansion=muse-and-princess"]):
        r = runner.invoke(app, ["selfplay", "-n", "3", "--seed", "7", *args])
        assert r.exit_code == 0, r.output
        assert '[Expansions "muse-and-princess"]' in r.output
        replayed = replay_log(r.output)
        assert replayed.ok and replayed.finished and replayed.state.court is not None
    bad = runner.invoke(app, ["selfplay", "-n", "3", "--expansion", "cities"])
    assert bad.exit_code == 2 and "'none' or 'muse-and-princess'" in bad.output
