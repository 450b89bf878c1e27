"""A corpus of game logs, valid and corrupted, and what reading and replaying each gives.

`test_replay_same.py` checks that the log reader and `replay_log` give, for every log
here, what they gave when `replay_expected.json` was written (before the reader and the
replay loop got their fast paths). The corpus is built from seeds alone: self-played
games (3, 4 and 5 players, recorded and seeded, some with unusual player names), the
fixture logs, and each of them corrupted at random in a few ways (a line dropped,
swapped, duplicated or moved, a number, a name or a word changed, undo lines inserted,
cards hidden, the text cut short), some replayed only up to a line.

It imports only what every version of pbem has, so it can write the expectations with
another checkout first on the path (`logs`: write the self-played logs first, by that
checkout's self-play):

    PYTHONPATH=/path/to/old/checkout .venv/bin/python tests/logs/replay_corpus.py [logs]
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.codec import to_dict
from engine.registry import get_game
from engine.selfplay import play_random
from notation import NotationError, format_item, iter_log
from pbem.logs import ReplayResult, format_game_log, replay_log, result_tag

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXPECTED = HERE / "fixtures" / "replay_expected.json"
LOGS = HERE / "fixtures" / "corpus"  # the self-played logs
FIXTURE_LOGS = (
    "tests/logs/fixtures/princes-recorded-4p.log",
    "tests/fixtures/versions/0.2.0/3-players.log",
    "tests/fixtures/versions/0.2.0/4-players-undo.log",
    "tests/fixtures/versions/0.2.0/5-players.log",
)
ODD_NAMES = ("Zoë", "BAS", "chris-2", "d_irk", "Émile")
MUTATIONS = 12  # corrupted copies of each log


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def self_played() -> Iterator[tuple[str, str]]:
    """(name, text) of the self-played logs of the corpus, as `write_logs` made them."""
    game = get_game()
    head = [("Game", game.name), ("Variant", "standard")]
    for n in (3, 4, 5):
        for seed in range(3):
            players = ODD_NAMES[:n] if seed == 2 else None
            p = play_random(game, n, f"corpus-{n}-{seed}", players=players)
            result = ("Result", result_tag(p.state, game))
            yield (f"recorded-{n}p-{seed}",
                   format_game_log(p.players, p.moves, [*head, result]))
            yield (f"seeded-{n}p-{seed}",
                   format_game_log(p.players, p.moves, [*head, ("Seed", p.seed), result],
                                   include_chance=seed == 1))


def base_logs() -> Iterator[tuple[str, str]]:
    """(name, text) of the valid logs the corpus starts from: the self-played ones as
    stored (so that the corpus stays the same whatever self-play does later), then the
    fixture logs."""
    for path in sorted(LOGS.glob("*.log")):
        yield path.stem, path.read_text(encoding="utf-8")
    for path in FIXTURE_LOGS:
        yield path, (ROOT / path).read_text(encoding="utf-8")


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    body = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("[")]
    i = rng.choice(body)
    line = lines[i]
    kind = rng.randrange(12)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        j = rng.choice(body)
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 2:
        lines.insert(i, line)
    elif kind == 3:
        lines.insert(rng.choice(body), lines.pop(i))
    elif kind == 4 and re.search(r"\d+", line):
        numbers = list(re.finditer(r"\d+", line))
        m = rng.choice(numbers)
        new = rng.choice(("0", "1", "7", "100", str(int(m[0]) + 100), "9" * 12))
        lines[i] = line[: m.start()] + new + line[m.end():]
    elif kind == 5:
        names = re.findall(r"[^\s:,\"*#]+", text.split("Players", 1)[1].split("]", 1)[0])
        lines[i] = re.sub(r"^\s*[^\s:*]+:", rng.choice([*names, "zed", "ANNA", ""]) + ":", line)
    elif kind == 6:
        words = line.split()
        k = rng.randrange(len(words))
        words[k] = rng.choice(("pass", "done", "?", "build", "+jester", "a1", "from",
                               words[k].upper(), words[k][:3], words[k] + "x", "#x"))
        lines[i] = rng.choice((" ", "  ", "\t")).join(words)
    elif kind == 7:
        actor = line.split(":")[0]
        extra = [f"{actor}: undo"] + [f"{n}: {rng.choice(('agree', 'refuse'))}"
                                     for n in ("anna", "bas", "chris")]
        lines[i + 1:i + 1] = extra[: rng.randrange(1, 5)]
    elif kind == 8:
        lines[i] = _hidden(line)
    elif kind == 9:
        return "\n".join(lines[: i + rng.randrange(-1, 2)])
    elif kind == 10:
        lines[i] = rng.choice((line.upper(), "  " + line + "  # note", line.replace(" ", "  "),
                               line + "\r", "round " + str(rng.randrange(9)), "# " + line))
    else:
        lines.insert(i, rng.choice(('[Event "late"]', "round 2", "* deal anna: poet",
                                    "anna bid 300", ":", "*", "anna:", "anna: bid")))
    return "\n".join(lines)


def _hidden(line: str) -> str:
    """The line with its cards hidden, if it is a keep, a choice or a chance line."""
    return re.sub(r"^(\w+: (?:keep|choose)|\*[^:]*:)((?: \S+)+)$",
                  lambda m: m[1] + " ?" * len(m[2].split()), line)


def _edits(text: str) -> Iterator[tuple[str, str]]:
    """The same few edits of every log: the lines a fast path might get wrong."""
    lines = text.split("\n")
    body = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("[")]
    chance = [i for i in body if lines[i].startswith("*")]
    moves = [i for i in body if ":" in lines[i] and i not in chance]
    rounds = [i for i in body if lines[i].startswith("round")]

    def edit(at: int, *new: str) -> str:
        return "\n".join([*lines[:at], *new, *lines[at + 1:]])

    if len(chance) > 4:
        yield "no-deal", edit(chance[1])
        yield "no-draw", edit(chance[-2])
        yield "sell-before-draw", edit(chance[-2], lines[chance[-2]].split()[2] + ": sell 1")
        yield "hidden-draw", edit(chance[-2], _hidden(lines[chance[-2]]))
        yield "upper-chance", edit(chance[-1], lines[chance[-1]].upper())
    hidden = [i for i in moves if re.search(r": (keep|choose) ", lines[i])]
    if hidden:
        yield "hidden-move", edit(hidden[0], _hidden(lines[hidden[0]]))
        yield "hidden-late", edit(hidden[-1], _hidden(lines[hidden[-1]]))
    if rounds:
        yield "round-word", edit(rounds[1], lines[rounds[1]] + " x")
        yield "round-colon", edit(rounds[1], lines[rounds[1]] + ":")
        yield "round-upper", edit(rounds[1], lines[rounds[1]].upper())
        yield "round-digits", edit(rounds[1], "round 0000000002")
        yield "round-long", edit(rounds[1], "round " + "9" * 10)
    yield "long-tag", edit(0, lines[0], f'[Event "{"e" * 1001}"]')
    yield "tag-spaced", edit(0, lines[0].replace(" ", "  ").replace("[", "[ "))
    yield "tag-escaped", edit(0, lines[0], r'[Event "a \"b\" c\\"]')
    yield "actors-upper", "\n".join(
        re.sub(r"^[^:*\[]+:", lambda m: m[0].upper(), line) for line in lines)
    yield "indented", "\n".join("  " + line for line in lines)
    yield "crlf", text.replace("\n", "\r\n")
    yield "bom", "\ufeff" + text
    yield "comments", "\n".join(line + "  # " + str(i) for i, line in enumerate(lines))
    yield "prefixes", "\n".join(re.sub(r"^(\w{3})\w*: (\w{3})\w* ", r"\1: \2 ", line)
                                 for line in lines)


def corpus() -> Iterator[tuple[str, str, int | None]]:
    """(case name, log text, `upto` or None) of every case."""
    for name, text in base_logs():
        yield name, text, None
        yield f"{name}@60", text, 60
        for what, edited in _edits(text):
            yield f"{name}:{what}", edited, None
        for k in range(MUTATIONS):
            rng = random.Random(f"{name}|{k}")
            mutated = _mutate(text, rng)
            if k % 2 and rng.random() < 0.5:
                mutated = _mutate(mutated, rng)
            upto = rng.randrange(1, mutated.count("\n") + 2) if k % 4 == 3 else None
            yield f"{name}~{k}", mutated, upto


def read(text: str) -> dict[str, Any]:
    """What the log reader yields for `text`, or the error it stops with."""
    entries: list[Any] = []
    try:
        for entry in iter_log(text):
            entries.append((type(entry).__name__, entry.line, format_item(entry)))
    except NotationError as e:
        return {"entries": entries, "error": [e.line, e.column, e.message, list(e.expected),
                                              list(e.candidates)]}
    return {"entries": entries, "error": None}


def replayed(result: ReplayResult) -> dict[str, Any]:
    """Everything a replay result says, its events as the codec writes them."""
    return {
        **result.to_json(),
        "tags": [list(t) for t in result.tags],
        "game": result.game.name if result.game is not None else None,
        "events": _digest([to_dict(e) for e in result.events]),
    }


def expectation(text: str, upto: int | None) -> dict[str, Any]:
    """What is stored for one case: the replay's error in full, digests of the rest."""
    result = replay_log(text, upto=upto)
    error = result.error
    return {
        "error": None if error is None else [error.line, error.column, error.kind,
                                             error.message],
        "replay": _digest(replayed(result)),
        "read": _digest(read(text)),
    }


def write_logs() -> None:
    LOGS.mkdir(exist_ok=True)
    for name, text in self_played():
        (LOGS / f"{name}.log").write_text(text, encoding="utf-8")


def write() -> None:
    cases = {name: expectation(text, upto) for name, text, upto in corpus()}
    EXPECTED.write_text(json.dumps(cases, indent=0, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    print(f"{len(cases)} cases written to {EXPECTED}", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:] == ["logs"]:
        write_logs()
    write()
