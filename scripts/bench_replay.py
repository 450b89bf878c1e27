#!/usr/bin/env python3
"""Benchmark of game-log replay: text -> notation -> engine, per game and per line.

Every registered game is measured (`--game` picks some), at each player count of its
default variant (The Princes of Florence 3, 4 and 5; Signorie 2, 3 and 4) unless
`--players` names them. Self-played games are generated first (in parallel, not timed) and
written as log text, both as *recorded* logs (every deal and draw on a chance line) and
as *seeded* logs (no chance lines: the seed gives them). Then, on one core:

  full     pbem.logs.replay_log(text): the whole path, with every check
  parse    list(notation.iter_log(text)): the notation reader alone
  engine   the pre-parsed (seat, command) pairs alone, played as replay_log plays
           them (`Match(..., in_place=True)`)
  other    full - parse - engine: replay_log's own bookkeeping (and, for seeded logs,
           deriving each deal and draw from the seed)

For scale, the same figure for python-chess: random legal games written as one PGN
text, then `chess.pgn.read_game` (which checks every SAN move against the board) and
playing the moves on a board, per move.

Measured fairly on a shared machine: CPU time of this process (time.process_time), in
interleaved blocks (each block times every row, every path and python-chess once, in
an order that turns from block to block), and each figure is the median over the
blocks; the ratio pbem us/line : chess us/move is taken within each block (the same
moment of the machine) and its median printed, for each game. The targets of issue 11
are printed next to their measured values, for each game: >= 1,000 four-player
recorded games/s, ratio <= 0.2.

With --python, builds side by side: the full path (replay_log) and python-chess, timed
the same way in one worker process per interpreter and round, the interpreters taking
turns (rounds x blocks figures each), e.g. the pure-Python .venv against the mypyc
build of scripts/test.sh (`--python .venv-mypyc/bin/python`). Each worker imports pbem
as its interpreter has it installed, from a scratch directory; the workers must agree
on every replay's outcome.

Usage: .venv/bin/python scripts/bench_replay.py [--game signorie] [--games 200]
       [--players 2,3,4] [--blocks 7] [--json]
       [--profile] [--python .venv-mypyc/bin/python [--rounds 3]]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.match import Match  # noqa: E402
from engine.protocol import CHANCE  # noqa: E402
from engine.registry import GAMES, get_game  # noqa: E402
from engine.selfplay import play_random  # noqa: E402
from notation import Chance, Move, Tag, iter_log  # noqa: E402
from pbem.build import describe  # noqa: E402
from pbem.logs import format_game_log, replay_log, result_tag  # noqa: E402


@dataclass(frozen=True)
class Game:
    players: tuple[str, ...]
    moves: tuple[tuple[int, Any], ...]
    recorded: str
    seeded: str


@dataclass
class Row:
    game: str
    kind: str
    players: int
    games: int
    lines_per_game: float
    games_per_s: float
    us_per_line: float
    parse_us_per_line: float
    engine_us_per_line: float
    other_us_per_line: float
    peak_kib_per_game: float


def make_game(args: tuple[str, int, int]) -> Game:
    name, n, seed = args
    game = get_game(name)
    p = play_random(game, n, f"bench-{n}-{seed}")
    head = [("Game", game.name), ("Variant", next(iter(game.variants)))]
    result = ("Result", result_tag(p.state, game))
    recorded = format_game_log(p.players, p.moves, [*head, result], include_chance=True)
    seeded = format_game_log(p.players, p.moves, [*head, ("Seed", p.seed), result],
                             include_chance=False)
    return Game(p.players, p.moves, recorded, seeded)


def generate(name: str, n: int, count: int, workers: int) -> list[Game]:
    jobs = [(name, n, seed) for seed in range(count)]
    if workers <= 1:
        return [make_game(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(make_game, jobs, chunksize=4))


def count_lines(text: str) -> int:
    return sum(1 for line in text.split("\n") if line.strip())


def commands_of(text: str) -> tuple[tuple[str, ...], list[tuple[int, Any]]]:
    players: tuple[str, ...] = ()
    out: list[tuple[int, Any]] = []
    for item in iter_log(text):
        if isinstance(item, Tag) and item.name == "Players":
            players = tuple(x.strip().lower() for x in item.value.split(","))
        elif isinstance(item, Move):
            out.append((players.index(item.actor), item.command))
        elif isinstance(item, Chance):
            out.append((CHANCE, item.command))
    return players, out


def parse_only(text: str) -> int:
    return sum(1 for _ in iter_log(text))


def engine_only(name: str,
                games: Sequence[tuple[tuple[str, ...], list[tuple[int, Any]]]]) -> None:
    game = get_game(name)
    for players, moves in games:
        match = Match.start(game, players, seeded=True, in_place=True)
        play = match.play
        for seat, cmd in moves:
            play(seat, cmd)


def peak_kib(texts: Sequence[str]) -> float:
    """Mean tracemalloc peak of replaying one log."""
    total = 0
    for text in texts:
        tracemalloc.start()
        replay_log(text)
        total += tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return total / len(texts) / 1024


def _cpu(fn: Callable[[], object]) -> float:
    """CPU seconds of this process that `fn` took (a collection first, not counted)."""
    gc.collect()
    t = time.process_time()
    fn()
    return time.process_time() - t


def replay_all(texts: Sequence[str]) -> None:
    for text in texts:
        replay_log(text)


def parse_all(texts: Sequence[str]) -> None:
    for text in texts:
        parse_only(text)


@dataclass(frozen=True)
class Case:
    """One row's inputs: the log texts, their lines, and their pre-parsed moves."""

    game: str
    kind: str
    players: int
    texts: tuple[str, ...]
    lines: int
    moves: tuple[tuple[tuple[str, ...], list[tuple[int, Any]]], ...]


def case(name: str, kind: str, n: int, games: list[Game]) -> Case:
    texts = tuple(g.recorded if kind == "recorded" else g.seeded for g in games)
    for t in texts:  # sanity: every log is valid
        r = replay_log(t)
        assert r.ok and r.finished, r.error
    # Engine alone: the moves with explicit deals and draws (for seeded logs the seed's,
    # which the full path derives from the seed itself).
    return Case(name, kind, n, texts, sum(count_lines(t) for t in texts),
                tuple((g.players, list(g.moves)) for g in games))


def time_case(c: Case) -> tuple[float, float, float]:
    """CPU seconds of the full path, the parser and the engine over the case's games."""
    return (_cpu(partial(replay_all, c.texts)), _cpu(partial(parse_all, c.texts)),
            _cpu(partial(engine_only, c.game, c.moves)))


def row(c: Case, blocks: list[tuple[float, float, float]]) -> Row:
    """The case's figures: each the median over the blocks."""
    us = 1e6 / c.lines
    full = statistics.median(b[0] for b in blocks)
    return Row(c.game, c.kind, c.players, len(c.texts), c.lines / len(c.texts), len(c.texts) / full,
               full * us, statistics.median(b[1] for b in blocks) * us,
               statistics.median(b[2] for b in blocks) * us,
               statistics.median(b[0] - b[1] - b[2] for b in blocks) * us,
               peak_kib(c.texts[: min(20, len(c.texts))]))


# --------------------------------------------------------------------------- chess


def random_pgn(count: int, seed: int = 1) -> tuple[list[str], int]:
    """`count` random legal games (up to 300 plies) as PGN texts, and their plies."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    texts = []
    moves = 0
    for i in range(count):
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.ply() < 300:
            board.push(rng.choice(list(board.legal_moves)))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"random {i}"
        texts.append(str(game) + "\n\n")
        moves += board.ply()
    return texts, moves


def chess_read_all(pgn: str) -> int:
    """Read every game of a PGN text, checking and playing its moves; the plies."""
    import chess.pgn

    handle = io.StringIO(pgn)
    played = 0
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            return played
        assert not game.errors, game.errors
        board = game.board()
        for move in game.mainline_moves():
            assert board.is_legal(move)
            board.push(move)
            played += 1


def chess_case(count: int) -> tuple[str, int]:
    """`count` random games as one PGN text, and their plies."""
    texts, moves = random_pgn(count)
    pgn = "".join(texts)
    assert chess_read_all(pgn) == moves  # one PGN file holds them all
    return pgn, moves


def references(cases: Sequence[Case]) -> dict[str, int]:
    """Each game's reference case: four-player recorded (else its first)."""
    out: dict[str, int] = {}
    for i, c in enumerate(cases):
        out.setdefault(c.game, i)
        if (c.kind, c.players) == ("recorded", 4):
            out[c.game] = i
    return out


def measure(cases: list[Case], pgn: str, plies: int, chess_games: int,
            blocks: int) -> tuple[list[Row], dict[str, Any], dict[str, list[float]]]:
    """Every case and python-chess, timed once per block in an order that turns from
    block to block; the rows, python-chess's figures, and for each game each block's
    ratio of four-player recorded us/line to chess us/move."""
    times: list[list[tuple[float, float, float]]] = [[] for _ in cases]
    chess_s: list[float] = []
    refs = references(cases)
    ratios: dict[str, list[float]] = {name: [] for name in refs}
    slots = len(cases) + 1
    for block in range(blocks):
        for k in range(slots):
            i = (k + block) % slots
            if i == len(cases):
                chess_s.append(_cpu(partial(chess_read_all, pgn)))
            else:
                times[i].append(time_case(cases[i]))
        for name, ref in refs.items():
            ratios[name].append((times[ref][-1][0] / cases[ref].lines) / (chess_s[-1] / plies))
    rows = [row(c, t) for c, t in zip(cases, times, strict=True)]
    t = statistics.median(chess_s)
    chess = {"games": chess_games, "moves_per_game": plies / chess_games,
             "games_per_s": chess_games / t, "us_per_move": t * 1e6 / plies}
    return rows, chess, ratios


# --------------------------------------------------------------------------- report


def profile(texts: Sequence[str], top: int) -> str:
    prof = cProfile.Profile()
    prof.enable()
    for t in texts:
        replay_log(t)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    out.write("\n")
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


GAMES_TARGET = 1000.0
"""Four-player recorded games replayed per second on one core (issue 11)."""
RATIO_TARGET = 0.2
"""pbem's CPU per log line at most this share of python-chess's per move (issue 11)."""


def targets(rows: list[Row], ratios: dict[str, list[float]]) -> list[dict[str, Any]]:
    """Each game's targets (those with a four-player recorded row)."""
    out = []
    for name, per_block in ratios.items():
        four = next((r for r in rows if (r.game, r.kind, r.players) == (name, "recorded", 4)),
                    None)
        if four is None:
            continue
        out.append({"game": name, "name": "four-player recorded games/s",
                    "measured": four.games_per_s, "target": GAMES_TARGET, "bound": ">=",
                    "met": four.games_per_s >= GAMES_TARGET})
        ratio = statistics.median(per_block)
        out.append({"game": name, "name": "pbem us/line : chess us/move", "measured": ratio,
                    "target": RATIO_TARGET, "bound": "<=", "met": ratio <= RATIO_TARGET,
                    "blocks": per_block})
    return out


def table(rows: list[Row], chess: dict[str, Any], goals: list[dict[str, Any]],
          blocks: int) -> str:
    head = (f"{'game':19} {'log':9} {'pl':>2} {'games':>5} {'lines/g':>7} {'games/s':>8} "
            f"{'us/line':>8} {'parse':>6} {'engine':>7} {'other':>6} {'peak KiB':>9}")
    out = [f"CPU time (process_time), median of {blocks} interleaved blocks", head,
           "-" * len(head)]
    for r in sorted(rows, key=lambda r: (r.kind, r.players, r.game)):  # games side by side
        out.append(f"{r.game:19} {r.kind:9} {r.players:>2} {r.games:>5} {r.lines_per_game:>7.0f} "
                   f"{r.games_per_s:>8.1f} {r.us_per_line:>8.1f} {r.parse_us_per_line:>6.1f} "
                   f"{r.engine_us_per_line:>7.1f} {r.other_us_per_line:>6.1f} "
                   f"{r.peak_kib_per_game:>9.0f}")
    out.append("(parse, engine, other: us per log line; peak: tracemalloc peak of one replay)")
    out.append("")
    out.append(f"python-chess: {chess['games']} random games, {chess['moves_per_game']:.0f} "
               f"plies/game: {chess['games_per_s']:.1f} games/s, "
               f"{chess['us_per_move']:.1f} us per move (read_game + play on a board)")
    out.append("")
    for g in goals:
        spread = ""
        if "blocks" in g:
            spread = f"  (blocks: {min(g['blocks']):.3f}-{max(g['blocks']):.3f})"
        out.append(f"{g['game']:19} {g['name']:<30} {g['measured']:>9.3f}   target "
                   f"{g['bound']} {g['target']:g}  {'ok' if g['met'] else 'NOT MET'}{spread}")
    return "\n".join(out)


# --------------------------------------------------------------------------- builds


WORKER = r"""
import gc, hashlib, io, json, sys, time
import chess.pgn
from pbem.logs import replay_log

job = json.load(open(sys.argv[1]))
cases, pgn, blocks, first = job["cases"], job["pgn"], job["blocks"], job["first"]

def cpu(fn, arg):
    gc.collect()
    t = time.process_time()
    fn(arg)
    return time.process_time() - t

def replay_all(texts):
    for text in texts:
        replay_log(text)

def chess_all(pgn):
    handle = io.StringIO(pgn)
    while (game := chess.pgn.read_game(handle)) is not None:
        board = game.board()
        for move in game.mainline_moves():
            assert board.is_legal(move)
            board.push(move)

digest = hashlib.sha256()
for texts in cases:  # warm up; every outcome goes into the digest
    for text in texts:
        r = replay_log(text)
        assert r.ok and r.finished, r.error
        digest.update(repr((r.round, r.phase, r.players, r.winners, r.lines)).encode())
chess_all(pgn)
slots = len(cases) + 1
times = [[] for _ in range(slots)]
for block in range(blocks):
    for k in range(slots):
        i = (k + block + first) % slots
        times[i].append(cpu(chess_all, pgn) if i == len(cases) else cpu(replay_all, cases[i]))
compiled = sorted(name for name, m in list(sys.modules.items())
                  if name.split(".")[0] in ("engine", "notation", "pbem")
                  and not (getattr(m, "__file__", None) or ".py").endswith(".py"))
print(json.dumps({"times": times, "digest": digest.hexdigest(), "compiled": compiled,
                  "python": sys.version.split()[0]}))
"""


def build_name(python: str, compiled: list[str]) -> str:
    """The interpreter, and how many of pbem's modules it ran compiled."""
    rel = os.path.relpath(python)
    shown = python if rel.startswith("..") else rel
    return f"{shown} ({f'mypyc: {len(compiled)} modules' if compiled else 'pure Python'})"


def compare_builds(pythons: list[str], cases: list[Case], pgn: str, plies: int,
                   chess_games: int, rounds: int, blocks: int) -> dict[str, Any]:
    """Every interpreter's full-path and python-chess CPU times, from one worker process
    per interpreter and round (the interpreters taking turns), each `blocks` blocks."""
    refs = references(cases)
    got: list[list[list[float]]] = [[[] for _ in range(len(cases) + 1)] for _ in pythons]
    info: list[dict[str, Any]] = [{} for _ in pythons]
    with tempfile.TemporaryDirectory() as tmp:
        job = Path(tmp) / "job.json"
        for r in range(rounds):
            job.write_text(json.dumps({"cases": [list(c.texts) for c in cases], "pgn": pgn,
                                       "blocks": blocks, "first": r}))
            for k in range(len(pythons)):  # the builds take turns going first
                b = (k + r) % len(pythons)
                python = pythons[b]
                env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
                done = subprocess.run([python, "-c", WORKER, str(job)], cwd=tmp, env=env,
                                      capture_output=True, text=True)
                if done.returncode != 0:
                    raise SystemExit(f"{python}: the worker failed\n{done.stderr}")
                out = json.loads(done.stdout)
                for mine, theirs in zip(got[b], out["times"], strict=True):
                    mine += theirs
                info[b] = {k: out[k] for k in ("digest", "compiled", "python")}
            print(f"  round {r + 1}/{rounds}", file=sys.stderr)
    digests = {i["digest"] for i in info}
    if len(digests) != 1:
        raise SystemExit(f"the builds disagree on the replays' outcomes: {info}")
    builds = []
    for python, times, facts in zip(pythons, got, info, strict=True):
        chess_s = times[-1]
        rows: list[dict[str, Any]] = [
            {"game": c.game, "kind": c.kind, "players": c.players, "games": len(c.texts),
             "games_per_s": len(c.texts) / statistics.median(t),
             "us_per_line": statistics.median(t) * 1e6 / c.lines}
            for c, t in zip(cases, times[:-1], strict=True)]
        goals: list[dict[str, Any]] = []
        for name, ref in refs.items():
            ratios = [(t / cases[ref].lines) / (c / plies)
                      for t, c in zip(times[ref], chess_s, strict=True)]
            four = rows[ref]["games_per_s"]
            ratio = statistics.median(ratios)
            goals += [
                {"game": name, "name": "four-player recorded games/s", "measured": four,
                 "target": GAMES_TARGET, "bound": ">=", "met": four >= GAMES_TARGET},
                {"game": name, "name": "pbem us/line : chess us/move", "measured": ratio,
                 "target": RATIO_TARGET, "bound": "<=", "met": ratio <= RATIO_TARGET,
                 "blocks": ratios}]
        builds.append({
            "python": python, "name": build_name(python, facts["compiled"]),
            "version": facts["python"], "rows": rows,
            "chess_us_per_move": statistics.median(chess_s) * 1e6 / plies,
            "targets": goals})
    return {"builds": builds, "rounds": rounds, "blocks": blocks, "clock": "process_time",
            "chess_games": chess_games, "digest": digests.pop()}


def builds_table(result: dict[str, Any]) -> str:
    builds = result["builds"]
    n = result["rounds"] * result["blocks"]
    out = [f"CPU time (process_time) of replay_log, median of {n} blocks ({result['rounds']} "
           f"rounds of one worker per build, {result['blocks']} blocks each)"]
    first = builds[0]
    for b in builds:
        out += ["", f"{b['name']}, Python {b['version']}"]
        for r, r0 in zip(b["rows"], first["rows"], strict=True):
            speed = r["games_per_s"] / r0["games_per_s"]
            out.append(f"  {r['game']:19} {r['kind']:9} {r['players']:>2} {r['games']:>5} games "
                       f"{r['games_per_s']:>8.1f} games/s {r['us_per_line']:>7.1f} us/line"
                       + (f"  x{speed:.2f}" if b is not first else ""))
        out.append(f"  python-chess {b['chess_us_per_move']:.1f} us/move "
                   f"({result['chess_games']} games)")
        for g in b["targets"]:
            spread = ""
            if "blocks" in g:
                spread = f"  (blocks: {min(g['blocks']):.3f}-{max(g['blocks']):.3f})"
            out.append(f"  {g['game']:19} {g['name']:<30} {g['measured']:>9.3f}   target "
                       f"{g['bound']} {g['target']:g}  {'ok' if g['met'] else 'NOT MET'}{spread}")
    out += ["", "(xN: games/s against the first build); every build replayed every log to "
            f"the same outcomes (digest {result['digest'][:12]})"]
    return "\n".join(out)


def player_counts(name: str, players: str) -> list[int]:
    """The player counts asked for, or those of the game's default variant."""
    if players:
        return [int(x) for x in players.split(",")]
    variant = next(iter(get_game(name).variants.values()))
    return list(range(variant.min_players, variant.max_players + 1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per player count")
    ap.add_argument("--game", action="append", default=[], metavar="NAME",
                    help="a registered game to measure (repeatable; default: every one)")
    ap.add_argument("--players", default="",
                    help="player counts, comma-separated (default: each game's default "
                    "variant's counts)")
    ap.add_argument("--chess-games", type=int, default=200)
    ap.add_argument("--blocks", "--repeat", type=int, default=7,
                    help="interleaved blocks; each figure is their median")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="processes that generate the games (not timed)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--profile", action="store_true",
                    help="also print a cProfile of replaying the four-player logs")
    ap.add_argument("--top", type=int, default=25, help="profile entries shown")
    ap.add_argument("--python", action="append", default=[], metavar="INTERPRETER",
                    help="also time the pbem installed for this interpreter (e.g. "
                    ".venv-mypyc/bin/python), side by side with this one's; repeatable")
    ap.add_argument("--rounds", type=int, default=3,
                    help="with --python: worker processes per interpreter, taking turns")
    args = ap.parse_args(argv)

    names = args.game or GAMES.names()
    blocks = max(1, args.blocks)
    t0 = time.perf_counter()
    games = {(name, n): generate(name, n, args.games, args.workers)
             for name in names for n in player_counts(name, args.players)}
    print(f"generated {sum(len(g) for g in games.values())} games in "
          f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    cases = [case(name, kind, n, games[name, n]) for name in names
             for kind in ("recorded", "seeded") for n in player_counts(name, args.players)]
    pgn, plies = chess_case(args.chess_games)
    if args.python:
        pythons = [sys.executable, *(os.path.abspath(p) for p in args.python)]
        result = compare_builds(pythons, cases, pgn, plies,
                                args.chess_games, max(1, args.rounds), blocks)
        print(json.dumps(result, indent=2) if args.json else builds_table(result))
        return 0
    rows, chess, ratios = measure(cases, pgn, plies, args.chess_games, blocks)
    goals = targets(rows, ratios)
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if args.json:
        print(json.dumps({"rows": [asdict(r) for r in rows], "python_chess": chess,
                          "targets": goals, "blocks": blocks, "clock": "process_time",
                          "max_rss_kib": maxrss, "python": sys.version.split()[0]}, indent=2))
    else:
        print(table(rows, chess, goals, blocks))
        print(f"process max RSS: {maxrss / 1024:.0f} MiB; {describe()}")
    if args.profile:
        stream = sys.stderr if args.json else sys.stdout
        for name in names:
            counts = player_counts(name, args.players)
            n = 4 if 4 in counts else counts[0]
            print(f"--- {name}, {n} players, recorded", file=stream)
            print(profile([g.recorded for g in games[name, n]], args.top), file=stream)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
