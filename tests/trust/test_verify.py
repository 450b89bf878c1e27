"""pbem.verify on logs that are not (or no longer) exported logs, and its report."""

from __future__ import annotations

from pathlib import Path

from engine.princes.definition import GAME
from engine.selfplay import play_random
from pbem.logs import format_game_log
from pbem.verify import CHECKS, verify_log

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "versions" / "0.2.0" / \
    "3-players.log"


def _text() -> str:
    return FIXTURE.read_text("utf-8")


def test_a_plain_log_is_not_an_exported_log() -> None:
    p = play_random(GAME, 3, 5)
    text = format_game_log(p.players, p.moves, [("Seed", p.seed)], include_chance=True)
    r = verify_log(text, file="plain.log")
    assert not r.ok and r.problem is not None and r.problem.check == "tags"
    assert "only a log written by `pbem export`" in r.problem.message
    assert r.summary().startswith("plain.log:")


def test_bad_syntax_and_a_wrong_round_are_named() -> None:
    lines = _text().split("\n")
    n = next(i for i, ln in enumerate(lines) if ": bid " in ln)
    bad = lines[:n] + ["anna: bid lots"] + lines[n + 1:]
    r = verify_log("\n".join(bad))
    assert r.problem is not None and (r.problem.line, r.problem.check) == (n + 1, "syntax")
    m = lines.index("round 2")
    wrong = lines[:m] + ["round 3"] + lines[m + 1:]
    r = verify_log("\n".join(wrong))
    assert r.problem is not None and (r.problem.line, r.problem.check) == (m + 1, "round")


def test_the_report() -> None:
    r = verify_log(_text(), file="game.log")
    assert r.ok and r.problem is None and r.notes == []
    data = r.to_json()
    assert data["ok"] and data["head"].startswith(f"v{r.version} sha256:")
    assert data["current_engine"] == data["engine"] and len(data["players"]) == 3
    assert r.summary().startswith("OK game.log: verified the seed commitment")
    assert set(CHECKS) >= {"commitment", "chance", "move", "chain", "head", "unrevealed"}


def test_an_unexpected_error_is_reported_not_raised() -> None:
    r = verify_log("\x00[Players \"a, b\"\n\n\n")
    assert not r.ok and r.problem is not None and r.problem.check in CHECKS


def test_random_corruptions_never_crash_and_never_pass_unnoticed() -> None:
    """Line-level damage anywhere in an exported log: verify always answers, and it
    accepts the log only when what was damaged carries no meaning for the game: a
    blank line, a round marker, the order of the tags, or the Event and Date tags
    (not covered by the chain; docs/trust.md)."""
    import random

    rng = random.Random(7)
    lines = _text().split("\n")
    free = {"", *(f"round {n}" for n in range(1, 8))}

    def meaning(text: str) -> str:
        text = text.split("  #")[0].strip()
        return "" if text.startswith(("[Event ", "[Date ")) else text

    for _ in range(150):
        damaged = list(lines)
        i = rng.randrange(len(damaged) - 1)
        kind = rng.choice(("drop", "dup", "swap", "char"))
        if kind == "drop":
            del damaged[i]
        elif kind == "dup":
            damaged.insert(i, damaged[i])
        elif kind == "swap":
            damaged[i], damaged[i + 1] = damaged[i + 1], damaged[i]
        elif damaged[i]:
            k = rng.randrange(len(damaged[i]))
            damaged[i] = damaged[i][:k] + rng.choice("a0#: x") + damaged[i][k + 1:]
        r = verify_log("\n".join(damaged))
        assert r.problem is None or r.problem.check != "internal", r.problem
        if r.ok:
            tags_swapped = kind == "swap" and damaged[i].startswith("[") and \
                damaged[i + 1].startswith("[")
            changed = {meaning(ln) for ln in damaged} ^ {meaning(ln) for ln in lines}
            assert changed <= free or tags_swapped, (kind, i, damaged[i])
