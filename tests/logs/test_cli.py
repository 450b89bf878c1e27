"""`pbem replay`, `pbem show` and `pbem selfplay`, through typer's CliRunner and the
installed entry point."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.princes.definition import GAME
from engine.princes.game import apply, new_state, start_game
from engine.princes.state import CHANCE
from engine.selfplay import play_random
from pbem.cli import app
from pbem.logs import replay_log

from .helpers import playout, seeded_log

runner = CliRunner()


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def logs(tmp_path: Path, example_text: str) -> dict[str, Path]:
    bad = example_text.replace("chris: bid 300\n", "chris: bid 350\n", 1)
    return {
        "good": _write(tmp_path, "good.log", example_text),
        "bad": _write(tmp_path, "bad.log", bad),
        "half": _write(tmp_path, "half.log", "\n".join(example_text.split("\n")[:60])),
        "missing": tmp_path / "missing.log",
    }


def _json_lines(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_replay_ok(logs: dict[str, Path]) -> None:
    res = runner.invoke(app, ["replay", str(logs["good"])])
    assert res.exit_code == 0, res.output
    assert res.output.startswith(f"OK {logs['good']}: finished, winner dirk — dirk 22 PP")
    res = runner.invoke(app, ["replay", str(logs["half"])])
    assert res.exit_code == 0 and "not finished: round" in res.output


def test_replay_bad_file(logs: dict[str, Path]) -> None:
    res = runner.invoke(app, ["replay", str(logs["good"]), str(logs["bad"])])
    assert res.exit_code == 1
    lines = res.output.splitlines()
    assert lines[0].startswith("OK ")
    assert re.match(rf"{re.escape(str(logs['bad']))}:15:8: illegal: a bid raises", lines[1])
    assert "  rule: auction-raise" in lines
    assert "  legal now: bid 300, pass" in lines


def test_replay_json(logs: dict[str, Path]) -> None:
    files = [str(logs[k]) for k in ("good", "bad", "half", "missing")]
    res = runner.invoke(app, ["replay", "--json", *files])
    assert res.exit_code == 1
    good, bad, half, missing = _json_lines(res.output)
    for obj in (good, bad, half, missing):
        assert {"file", "ok", "error", "finished", "round", "players", "winner"} <= set(obj)
    assert good["ok"] is True and good["error"] is None and good["winner"] == "dirk"
    assert {"name": "dirk", "pp": 22, "florins": 100, "score": 22} in good["players"]  # type: ignore[operator]
    assert bad["ok"] is False and bad["winner"] is None
    assert isinstance(bad["error"], dict)
    assert {k: bad["error"][k] for k in ("line", "column", "kind")} == \
        {"line": 15, "column": 8, "kind": "illegal"}
    assert bad["error"]["legal"] == ["bid 300", "pass"]
    assert half["ok"] is True and half["finished"] is False and half["winner"] is None
    assert missing["ok"] is False and isinstance(missing["error"], dict)
    assert missing["error"]["kind"] == "io"


def test_replay_usage_errors(logs: dict[str, Path]) -> None:
    assert runner.invoke(app, ["replay"]).exit_code == 2
    assert runner.invoke(app, ["replay", "--nope", str(logs["good"])]).exit_code == 2
    assert runner.invoke(app, ["replay", str(logs["missing"])]).exit_code == 1


def _pbem() -> str:
    exe = Path(sys.executable).parent / "pbem"
    found = str(exe) if exe.exists() else shutil.which("pbem")
    if found is None:
        pytest.skip("the pbem entry point is not installed (pip install -e .)")
    return found


def test_installed_entry_point(logs: dict[str, Path]) -> None:
    pbem = _pbem()
    ok = subprocess.run([pbem, "replay", "--json", str(logs["good"])],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0, ok.stderr
    assert _json_lines(ok.stdout)[0]["winner"] == "dirk"
    bad = subprocess.run([pbem, "replay", "--json", str(logs["good"]), str(logs["bad"])],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 1
    assert [o["ok"] for o in _json_lines(bad.stdout)] == [True, False]
    assert bad.stderr == ""  # no progress bar: stderr is no terminal, and --json
    usage = subprocess.run([pbem, "replay", "--bogus"], capture_output=True, text=True,
                           check=False)
    assert usage.returncode == 2 and usage.stdout == ""


def test_selfplay_replays(tmp_path: Path) -> None:
    for args in (["--players", "3", "--seed", "cli-1"], ["-n", "5", "--seed", "cli-2",
                                                          "--recorded"]):
        res = runner.invoke(app, ["selfplay", *args])
        assert res.exit_code == 0, res.output
        text = res.output
        assert text.startswith('[Game "princes-of-florence"]\n[Variant "standard"]\n')
        assert ("[Seed" in text) != ("--recorded" in args)
        assert ("* draw" in text) == ("--recorded" in args)
        r = replay_log(text)
        assert r.ok and r.finished, r.error
        path = _write(tmp_path, "self.log", text)
        assert runner.invoke(app, ["replay", str(path)]).exit_code == 0
    assert runner.invoke(app, ["selfplay", "--players", "6"]).exit_code == 2


def test_selfplay_is_reproducible() -> None:
    a = runner.invoke(app, ["selfplay", "--seed", "same"]).output
    assert a == runner.invoke(app, ["selfplay", "--seed", "same"]).output
    assert a == seeded_log_from_cli_seed("same")


def seeded_log_from_cli_seed(seed: str) -> str:
    from pbem.logs import format_game_log, result_tag

    p = play_random(GAME, 4, seed)
    return format_game_log(p.players, p.moves, [
        ("Game", "princes-of-florence"), ("Variant", "standard"), ("Seed", p.seed),
        ("Result", result_tag(p.state))], include_chance=False)


# -- show -----------------------------------------------------------------------------


def _hidden_cards(text: str, upto: int, viewer: int) -> set[str]:
    """Cards another player holds unseen after line `upto` of the log."""
    r = replay_log(text, upto=upto)
    assert r.state is not None
    hidden: set[str] = set()
    for seat, p in enumerate(r.state.players):
        if seat != viewer:
            hidden |= {*p.hand, *p.bonus_hand, *p.prestige_hand, *p.dealt}
    pd = r.state.pending
    if pd is not None and pd.seat != viewer:
        hidden |= set(pd.cards)
    public = {c for p in r.state.players for c in p.table}
    own = r.state.players[viewer]
    return hidden - public - {*own.hand, *own.bonus_hand, *own.prestige_hand, *own.dealt}


def test_show_as_never_prints_another_players_hand(tmp_path: Path) -> None:
    p = playout(4, 2)
    text = seeded_log(p, chance=True)
    path = _write(tmp_path, "game.log", text)
    n_lines = text.count("\n")
    checked = 0
    for at in range(0, n_lines + 1, 9):
        for viewer, name in enumerate(p.players):
            hidden = _hidden_cards(text, at, viewer)
            for args in (["--as", name], ["--as", name.upper(), "--json"]):
                res = runner.invoke(app, ["show", str(path), "--at", str(at), *args])
                assert res.exit_code == 0, res.output
                words = set(re.findall(r"[a-z0-9+-]+", res.output))
                leaked = hidden & words
                assert not leaked, (at, name, leaked)
                checked += bool(hidden)
            res = runner.invoke(app, ["show", str(path), "--at", str(at), "--as", name])
            others = [line for line in res.output.splitlines()
                      if re.match(r"\w+: \d+ PP, ", line) and not line.startswith(name + ":")]
            assert others and all("hidden" in line for line in others)
    assert checked > 50


def test_show_public_and_full(tmp_path: Path) -> None:
    p = playout(3, 1)
    text = seeded_log(p)
    path = _write(tmp_path, "game.log", text)
    public = runner.invoke(app, ["show", str(path), "--at", "40"])
    assert public.exit_code == 0
    assert "public view" in public.output and "professions:" not in public.output
    full = runner.invoke(app, ["show", str(path), "--at", "40", "--full"])
    assert full.exit_code == 0 and full.output.count("professions:") == 3
    end = runner.invoke(app, ["show", str(path)])
    assert "Game over after round 7" in end.output
    js = json.loads(runner.invoke(app, ["show", str(path), "--json", "--at", "40"]).output)
    assert js["ok"] is True and js["line"] == 40
    assert js["view"]["viewer"] is None
    assert all(pl["hand"] is None for pl in js["view"]["players"])


def test_show_usage_and_bad_logs(tmp_path: Path, logs: dict[str, Path]) -> None:
    assert runner.invoke(app, ["show", str(logs["good"]), "--as", "zed"]).exit_code == 2
    assert runner.invoke(app, ["show", str(logs["good"]), "--as", "anna",
                               "--full"]).exit_code == 2
    assert runner.invoke(app, ["show", str(logs["good"]), "--at", "-3"]).exit_code == 2
    res = runner.invoke(app, ["show", str(logs["bad"])])
    assert res.exit_code == 1
    assert "after line 14" in res.stdout and "bad.log:15:8: illegal" in res.stderr
    assert runner.invoke(app, ["show", str(logs["missing"])]).exit_code == 1
    empty = _write(tmp_path, "empty.log", "")
    assert runner.invoke(app, ["show", str(empty)]).exit_code == 1


def test_show_pending_draw_only_to_its_owner(tmp_path: Path) -> None:
    # A recorded log stopped right after a draw: only the drawer sees the cards.
    names = ("anna", "bas", "chris")
    p = playout(3, 1)
    state = new_state(start_game(names))
    stop = 0
    for i, (seat, cmd) in enumerate(p.moves):
        state, _ = apply(state, seat, cmd)
        if seat == CHANCE and state.pending is not None and state.pending.kind == "choose":
            stop = i + 1
            break
    from pbem.logs import format_game_log

    text = format_game_log(names, p.moves[:stop], [])
    path = _write(tmp_path, "draw.log", text)
    drawer = state.players[state.pending.seat].name  # type: ignore[union-attr]
    cards = state.pending.cards  # type: ignore[union-attr]
    for name in names:
        out = runner.invoke(app, ["show", str(path), "--as", name]).output
        words = set(re.findall(r"[a-z0-9+-]+", out))
        if name == drawer:
            assert set(cards) <= words
        else:
            assert not set(cards) & words
        assert ("Pending: " + drawer) in out
