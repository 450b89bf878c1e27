"""`pbem verify` on a game played through the moderator: the export verifies, and every
tampered variant is refused at the tampered line."""

from __future__ import annotations

import email
import email.policy
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.princes.commands import Command
from engine.princes.definition import GAME
from engine.princes.game import chance_due, new_state, start_game
from engine.princes.legal import legal_commands
from engine.princes.state import CHANCE, State
from engine.undo import START
from engine.undo import play as undo_play
from notation import Chance, Move, Tag, iter_log
from notation.princes import DECK_CARDS, format_command
from pbem.cli import app
from pbem.store import event_rows
from pbem.verify import verify_log

from .conftest import Exported

runner = CliRunner()
ANNOTATED = re.compile(r"  # v(\d+) sha256:([0-9a-f]{64})$")


def _pbem() -> str:
    exe = Path(sys.executable).parent / "pbem"
    found = str(exe) if exe.exists() else shutil.which("pbem")
    if found is None:
        pytest.skip("the pbem entry point is not installed (pip install -e .)")
    return found


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _tag_line(lines: list[str], name: str) -> int:
    """The 1-based line of a tag."""
    return next(i for i, ln in enumerate(lines, 1) if ln.startswith(f"[{name} "))


def _body(lines: list[str], pick: Callable[[str], bool], nth: int = 0) -> int:
    """The 1-based number of the nth body line `pick` accepts (from the middle on)."""
    start = len(lines) // 3
    hits = [i for i, ln in enumerate(lines[start:], start + 1) if pick(ln)]
    return hits[nth]


def _states_before(text: str) -> dict[int, tuple[State, int]]:
    """The state before each move line (and the seat), by replaying the log with the
    engine and its seed, as a player would."""
    tags: dict[str, str] = {}
    state: State | None = None
    tracker = START
    out: dict[int, tuple[State, int]] = {}
    for entry in iter_log(text):
        if isinstance(entry, Tag):
            tags[entry.name] = entry.value
            continue
        if state is None:
            state = new_state(start_game([p.strip() for p in tags["Players"].split(",")]))
        if isinstance(entry, Chance):
            state, _, tracker = undo_play(GAME, state, tracker, CHANCE, entry.command)
        elif isinstance(entry, Move):
            assert chance_due(state) is None
            seat = state.seat_of(entry.actor)
            out[entry.line] = (state, seat)
            state, _, tracker = undo_play(GAME, state, tracker, seat, entry.command)
    return out


def _replace_command(line: str, cmd: Command) -> str:
    actor, _, rest = line.partition(": ")
    return f"{actor}: {format_command(cmd)}  #{rest.partition('  #')[2]}"


# -- the tamperings: each returns the tampered text and the line that must be named --

Tampered = tuple[str, int]


def change_move_illegal(text: str) -> Tampered:
    lines = _lines(text)
    n = _body(lines, lambda ln: re.search(r": bid \d+  #", ln) is not None)
    lines[n - 1] = re.sub(r"bid (\d+)", lambda m: f"bid {int(m.group(1)) + 100}", lines[n - 1])
    return "\n".join(lines), n


def change_move_legal(text: str) -> Tampered:
    """Another command that is legal just as well: only the chain can tell."""
    lines = _lines(text)
    before = _states_before(text)
    for n in sorted(before)[len(before) // 2:]:
        state, seat = before[n]
        original = next(e for e in iter_log(text) if e.line == n)
        assert isinstance(original, Move)
        others = [c for c in legal_commands(state, seat, free=False) if c != original.command]
        if others:
            lines[n - 1] = _replace_command(lines[n - 1], others[0])
            return "\n".join(lines), n
    raise AssertionError("no move with a legal alternative")


def change_drawn_card(text: str) -> Tampered:
    lines = _lines(text)
    n = _body(lines, lambda ln: ln.startswith("* draw "))
    head, _, rest = lines[n - 1].partition(": ")
    cards, _, note = rest.partition("  #")
    deck = head.split()[-1]
    shown = cards.split()
    other = next(c for c in DECK_CARDS[deck].words if c not in shown)
    lines[n - 1] = f"{head}: {' '.join([*shown[:-1], other])}  #{note}"
    return "\n".join(lines), n


def change_dealt_card(text: str) -> Tampered:
    lines = _lines(text)
    n = next(i for i, ln in enumerate(lines, 1) if ln.startswith("* deal "))
    head, _, rest = lines[n - 1].partition(": ")
    cards, _, note = rest.partition("  #")
    shown = cards.split()
    other = next(c for c in DECK_CARDS["profession"].words if c not in shown)
    lines[n - 1] = f"{head}: {' '.join([other, *shown[1:]])}  #{note}"
    return "\n".join(lines), n


def change_hash(text: str) -> Tampered:
    lines = _lines(text)
    n = _body(lines, lambda ln: ANNOTATED.search(ln) is not None and not ln.startswith("*"))
    last = lines[n - 1][-1]
    lines[n - 1] = lines[n - 1][:-1] + ("0" if last != "0" else "1")
    return "\n".join(lines), n


def drop_annotation(text: str) -> Tampered:
    lines = _lines(text)
    n = _body(lines, lambda ln: ANNOTATED.search(ln) is not None, 3)
    lines[n - 1] = lines[n - 1].partition("  #")[0]
    return "\n".join(lines), n


def _tag(name: str, change: Callable[[str], str]) -> Callable[[str], Tampered]:
    def tamper(text: str) -> Tampered:
        lines = _lines(text)
        n = _tag_line(lines, name)
        value = lines[n - 1][len(name) + 3:-2]
        lines[n - 1] = f'[{name} "{change(value)}"]'
        return "\n".join(lines), n

    tamper.__name__ = f"change_{name.lower()}_tag"
    return tamper


def _flip_last_hex(value: str) -> str:
    return value[:-1] + ("0" if value[-1] != "0" else "1")


def drop_move(text: str) -> Tampered:
    lines = _lines(text)
    n = _body(lines, lambda ln: ": bid " in ln or ": pass  #" in ln)
    del lines[n - 1]
    return "\n".join(lines), n  # the line after the dropped one now has its number


def drop_chance(text: str) -> Tampered:
    lines = _lines(text)
    n = _body(lines, lambda ln: ln.startswith("* draw "))
    del lines[n - 1]
    return "\n".join(lines), n


def drop_undo_agreement(text: str) -> Tampered:
    """The last `agree` of an undo that was made: the undo did not happen."""
    lines = _lines(text)
    for i, ln in enumerate(lines):
        m = ANNOTATED.search(ln)
        prev = ANNOTATED.search(lines[i - 1]) if i else None
        if ": agree  #" in ln and m and prev and int(m.group(1)) == int(prev.group(1)) + 1:
            del lines[i]
            return "\n".join(lines), i + 1
    raise AssertionError("no undo was made in this game")


def drop_undo_request(text: str) -> Tampered:
    lines = _lines(text)
    n = next(i for i, ln in enumerate(lines, 1) if ": undo  #" in ln)
    del lines[n - 1]
    return "\n".join(lines), n


def drop_last_line(text: str) -> Tampered:
    lines = _lines(text.rstrip("\n"))
    return "\n".join(lines[:-1]) + "\n", _tag_line(lines, "Head")


def insert_line(text: str) -> Tampered:
    lines = _lines(text)
    n = _body(lines, lambda ln: ": bid " in ln)
    lines.insert(n, lines[n - 1])
    return "\n".join(lines), n + 1


def swap_lines(text: str) -> Tampered:
    lines = _lines(text)
    n = _body(lines, lambda ln: ": bid " in ln)
    assert ": " in lines[n] and not lines[n].startswith("*")
    lines[n - 1], lines[n] = lines[n], lines[n - 1]
    return "\n".join(lines), n


def unreveal(text: str) -> Tampered:
    lines = [ln for ln in _lines(text) if not ln.startswith(("[Seed ", "[Salt "))]
    return "\n".join(lines), _tag_line(lines, "SeedCommit")


TAMPERINGS: list[tuple[Callable[[str], Tampered], str]] = [
    (change_move_illegal, "move"),
    (change_move_legal, "chain"),
    (change_drawn_card, "chance"),
    (change_dealt_card, "chance"),
    (change_hash, "chain"),
    (drop_annotation, "chain"),
    (_tag("Seed", lambda v: v + "x"), "commitment"),
    (_tag("Salt", _flip_last_hex), "commitment"),
    (_tag("SeedCommit", _flip_last_hex), "commitment"),
    (_tag("Head", _flip_last_hex), "head"),
    (_tag("Result", lambda v: re.sub(r"\d+", lambda m: str(int(m.group()) + 1), v, count=1)),
     "result"),
    (_tag("Engine", lambda v: v + ".1"), "tags"),
    (_tag("Rules", lambda v: v + "-x"), "tags"),
    (_tag("Money", lambda v: "open"), "tags"),
    (drop_move, None),
    (drop_chance, "chance"),
    (drop_undo_agreement, None),
    (drop_undo_request, "move"),
    (drop_last_line, "head"),
    (insert_line, None),
    (swap_lines, None),
    (unreveal, "unrevealed"),
]


@pytest.mark.parametrize(("tamper", "check"), TAMPERINGS,
                         ids=[t.__name__ for t, _ in TAMPERINGS])
def test_a_tampered_log_is_refused_at_the_tampered_line(
        exported: Exported, tmp_path: Path, tamper: Callable[[str], Tampered],
        check: str | None) -> None:
    text, line = tamper(exported.text)
    assert text != exported.text
    path = tmp_path / "tampered.log"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    first = result.output.splitlines()[0]
    assert first.startswith(f"{path}:{line}: "), (first, line)
    if check is not None:
        assert first.startswith(f"{path}:{line}: {check}: "), first
    as_json = json.loads(runner.invoke(app, ["verify", "--json", str(path)]).output)
    assert not as_json["ok"] and as_json["problem"]["line"] == line


def test_the_moderators_export_verifies_through_the_installed_cli(exported: Exported) -> None:
    done = subprocess.run([_pbem(), "verify", str(exported.path)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"OK {exported.path}: verified the seed commitment")
    assert f"({exported.demo.undos} undo" in done.stdout
    r = verify_log(exported.text)
    assert r.ok and r.finished and r.undos == exported.demo.undos
    assert {s.name: s.score for s in r.players} == exported.demo.scores
    usage = subprocess.run([_pbem(), "verify"], capture_output=True, text=True, check=False)
    assert usage.returncode == 2


def test_the_export_is_a_plain_log_for_replay(exported: Exported) -> None:
    from pbem.logs import replay_log

    r = replay_log(exported.text)
    assert r.ok and r.finished, r.error
    assert {s.name: s.score for s in r.players} == exported.demo.scores


def test_annotations_are_the_stores_hash_column(exported: Exported) -> None:
    with exported.mod.store.read() as s:
        rows = event_rows(s, exported.demo.game_id)
    found = [ANNOTATED.search(ln) for ln in _lines(exported.text)]
    annotations = [(int(m.group(1)), m.group(2)) for m in found if m]
    assert len(annotations) > 100
    for version, digest in annotations:
        assert rows[version - 1].seq == version - 1 and rows[version - 1].hash == digest
    assert annotations[-1] == (len(rows), rows[-1].hash)
    assert f'[Head "v{len(rows)} sha256:{rows[-1].hash}"]' in exported.text


def _quoted_heads(exported: Exported, address: str) -> list[str]:
    inbox = exported.demo.out_dir / "mail" / address / "cur"
    heads = []
    for path in sorted(inbox.glob("*.eml")):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        body = msg.get_body(preferencelist=("plain",))
        assert body is not None
        for line in body.get_content().splitlines():
            m = re.fullmatch(r"Position: (v\d+ sha256:[0-9a-f]{16})", line)
            if m:
                heads.append(m.group(1))
    return heads


def test_heads_quoted_in_the_status_mails_are_in_the_chain(exported: Exported) -> None:
    heads = _quoted_heads(exported, "anna@example.org")
    assert len(heads) > 20
    args = [a for h in heads[::10] for a in ("--head", h)]
    result = runner.invoke(app, ["verify", str(exported.path), *args])
    assert result.exit_code == 0, result.output
    version, _, digest = heads[5].partition(" sha256:")
    wrong = f"{version} sha256:{_flip_last_hex(digest)}"
    result = runner.invoke(app, ["verify", str(exported.path), "--head", wrong])
    assert result.exit_code == 1 and f"the head {version} quoted" in result.output


def test_a_running_game_is_not_verifiable_until_the_seed_is_revealed() -> None:
    from datetime import UTC, datetime

    from pbem.config import Config
    from pbem.export import export_game
    from pbem.moderator import Moderator, PlayerSpec
    from pbem.store import Store

    store = Store("sqlite://")
    store.create_all()
    mod = Moderator(store, Config(moderator_address="moderator@example.org"))
    game = mod.new_game([PlayerSpec(n, f"{n}@example.org") for n in ("anna", "bas", "chris")],
                        datetime(2026, 12, 1, tzinfo=UTC), seed="secret")
    text = export_game(mod, game)
    assert "secret" not in text and "* deal anna: ? ? ? ?" in text and "[SeedCommit " in text
    r = verify_log(text)
    assert not r.ok and r.problem is not None and r.problem.check == "unrevealed"
    assert "not verifiable until the seed is revealed" in r.problem.message
    full = export_game(mod, game, full=True)
    assert "* deal anna" in full and "secret" not in full
