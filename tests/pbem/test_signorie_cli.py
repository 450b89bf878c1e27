"""Signorie through the command line: `pbem selfplay --game signorie` for 2, 3 and 4
players replays (seeded and recorded), `pbem demo --game signorie` plays a game by
mail whose export verifies and replays, and `pbem show` renders it through the
presenter, for the public, a seat and the referee."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.registry import get_game
from engine.selfplay import play_random
from pbem.cli import app
from pbem.logs import replay_log
from pbem.verify import verify_log

runner = CliRunner()
GAME = "signorie"


def cli(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("recorded", [False, True], ids=["seeded", "recorded"])
def test_selfplay_replays_to_the_same_end(tmp_path: Path, players: int, recorded: bool) -> None:
    seed = f"cli-{players}"
    log = cli("selfplay", "--game", GAME, "--players", str(players), "--seed", seed,
              *(["--recorded"] if recorded else []))
    assert log.startswith('[Game "signorie"]')
    assert ("* roll " in log) == recorded and ("[Seed " in log) != recorded
    path = tmp_path / "sig.log"
    path.write_text(log)
    data = json.loads(cli("replay", "--json", str(path)))
    assert data["ok"] and data["finished"] and data["phase"] == "over", data["error"]
    game = get_game(GAME)
    final = play_random(game, players, seed).state
    result = game.result(final)
    assert result is not None
    assert [p["score"] for p in data["players"]] == [s.score for s in result.standings]
    assert all("score" in p and p["name"] for p in data["players"])
    assert data["winners"] == [final.names[w] for w in result.winners]
    replayed = replay_log(log)
    assert replayed.ok and replayed.state is not None
    assert replayed.state.seeded == (not recorded)  # the only difference a recorded log makes
    assert dataclasses.replace(replayed.state, seeded=True) == final
    summary = cli("replay", str(path))
    assert summary.startswith(f"OK {path}: finished")
    assert " PP" not in summary and " points (" in summary  # Signorie's unit
    assert not re.search(r"\d+ po\b", summary)  # said once, not again in the brackets


def _demo(env: Path, players: int) -> tuple[str, Path]:
    out = cli("demo", "--game", GAME, "--players", str(players), "--out", str(env / "demo"))
    assert "played to the end by mail" in out and "scores: " in out
    return out, env / "demo" / "pbem.sqlite"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_demo_export_verify_replay_round_trip(env: Path, players: int) -> None:
    _, db = _demo(env, players)
    log = cli("export", "sig-1", "--db", str(db))
    assert log.startswith('[Game "signorie"]') and "[Players " in log
    assert not re.search(r"^\* draw \w+ \?", log, re.M)  # finished: nothing hidden
    path = env / "sig-1.log"
    path.write_text(log)
    verified = cli("verify", str(path))
    assert verified.startswith("OK"), verified
    assert verify_log(log).ok
    replayed = replay_log(log)
    assert replayed.ok and replayed.finished
    data = json.loads(cli("replay", "--json", str(path)))
    assert data["finished"] and len(data["players"]) == players
    # a changed Result tag is caught, in the game's own unit
    scores = {p["name"]: p["score"] for p in data["players"]}
    first = data["players"][0]["name"]
    bad = re.sub(rf'(\[Result "[^"]*\b{first} )(\d+)',
                 lambda m: m.group(1) + str(int(m.group(2)) + 1), log)
    assert bad != log
    result = verify_log(bad)
    assert result.problem is not None and result.problem.check == "result"
    assert result.problem.message.endswith(f"game ends with {first} on {scores[first]} points")


def test_show_renders_a_signorie_log_for_the_public_a_seat_and_the_referee(env: Path) -> None:
    log = cli("selfplay", "--game", GAME, "--players", "3", "--seed", "show", "--recorded")
    path = env / "sig.log"
    path.write_text(log)
    lines = log.splitlines()
    at = next(i for i, line in enumerate(lines, 1) if line.startswith("* draw "))
    public = cli("show", str(path), "--at", str(at))
    assert "public view" in public and "Dice on offer:" in public
    assert "Career tracks and initiative:" in public and "Cities (value:owner):" in public
    anna = cli("show", str(path), "--at", str(at), "--as", "anna")
    assert "Dice on offer (your cost):" in anna and "Your board:" in anna
    drawn = lines[at - 1].split()[3]
    full = cli("show", str(path), "--at", str(at), "--full")
    assert "Face-down alliance tiles (referee only):" in full and drawn in full
    data = json.loads(cli("show", str(path), "--json", "--as", "bas"))
    assert data["ok"] and data["view"]["phase"] == "over"
    end = cli("show", str(path))
    assert "Game over: won by" in end
