"""scripts/bench_replay.py runs and reports every figure (no timing is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_replay.py"


def test_bench_replay_smoke() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--game", "princes-of-florence", "--games", "1",
         "--chess-games", "1", "--blocks", "2", "--workers", "1", "--json"],
        capture_output=True, text=True, check=True, timeout=300,
    )
    data = json.loads(out.stdout)
    assert [(r["game"], r["kind"], r["players"]) for r in data["rows"]] == [
        ("princes-of-florence", k, n) for k in ("recorded", "seeded") for n in (3, 4, 5)]
    for row in data["rows"]:
        assert row["games_per_s"] > 0 and row["us_per_line"] > 0 and row["peak_kib_per_game"] > 0
    assert data["python_chess"]["us_per_move"] > 0
    assert (data["blocks"], data["clock"]) == (2, "process_time")
    goals = {g["name"]: g for g in data["targets"]}
    assert {name: (g["bound"], g["target"]) for name, g in goals.items()} == {
        "four-player recorded games/s": (">=", 1000.0),
        "pbem us/line : chess us/move": ("<=", 0.2)}
    assert all(g["measured"] > 0 and isinstance(g["met"], bool) for g in goals.values())
    assert len(goals["pbem us/line : chess us/move"]["blocks"]) == 2


def test_bench_replay_measures_every_registered_game() -> None:
    """By default every game, each at its default variant's player counts, and each
    game's targets against the same python-chess blocks."""
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "1", "--chess-games", "1", "--blocks", "1",
         "--workers", "1", "--json"],
        capture_output=True, text=True, check=True, timeout=300,
    )
    data = json.loads(out.stdout)
    rows = {(r["game"], r["kind"], r["players"]) for r in data["rows"]}
    for game, counts in [("princes-of-florence", (3, 4, 5)), ("signorie", (2, 3, 4))]:
        assert {(game, k, n) for k in ("recorded", "seeded") for n in counts} <= rows
    assert {(g["game"], g["name"]) for g in data["targets"]} >= {
        (game, name) for game in ("princes-of-florence", "signorie")
        for name in ("four-player recorded games/s", "pbem us/line : chess us/move")}


def test_bench_replay_builds_side_by_side() -> None:
    """--python: one worker per interpreter and round, each build's figures and targets
    (here the same interpreter twice: both pure Python, the same outcomes)."""
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "1", "--chess-games", "1", "--blocks", "2",
         "--rounds", "2", "--players", "4", "--workers", "1", "--python", sys.executable,
         "--game", "signorie", "--json"],
        capture_output=True, text=True, check=True, timeout=300,
    )
    data = json.loads(out.stdout)
    assert (data["rounds"], data["blocks"], data["clock"]) == (2, 2, "process_time")
    assert [b["python"] for b in data["builds"]] == [sys.executable] * 2
    for build in data["builds"]:
        assert build["name"].endswith("(pure Python)")
        assert [(r["game"], r["kind"], r["players"]) for r in build["rows"]] == [
            ("signorie", "recorded", 4), ("signorie", "seeded", 4)]
        assert all(r["games_per_s"] > 0 for r in build["rows"])
        assert build["chess_us_per_move"] > 0
        goals = {g["name"]: g for g in build["targets"]}
        assert {name: (g["bound"], g["target"]) for name, g in goals.items()} == {
            "four-player recorded games/s": (">=", 1000.0),
            "pbem us/line : chess us/move": ("<=", 0.2)}
        assert len(goals["pbem us/line : chess us/move"]["blocks"]) == 4  # rounds x blocks
    assert len(data["digest"]) == 64


def test_bench_jobs_smoke() -> None:
    """scripts/bench_jobs.py replays an archive serially and with workers, the same."""
    out = subprocess.run(
        [sys.executable, str(SCRIPT.parent / "bench_jobs.py"), "--logs", "4", "--jobs", "2",
         "--blocks", "1", "--json"],
        capture_output=True, text=True, check=True, timeout=300,
    )
    data = json.loads(out.stdout)
    assert [r["jobs"] for r in data["rows"]] == [1, 2] and data["same_output"] is True
    assert all(r["games_per_s"] > 0 and r["cpu_s"] > 0 for r in data["rows"])
