#!/usr/bin/env python3
"""Benchmark of game-log replay: text -> notation -> engine, per game and per line.

Self-played games (3, 4 and 5 players) are generated first (in parallel, not timed) and
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

Usage: .venv/bin/python scripts/bench_replay.py [--games 200] [--json] [--profile]
The target is 1,000 four-player games/s on one core; the table says what is measured.
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
import sys
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
from engine.registry import get_game  # noqa: E402
from engine.selfplay import play_random  # noqa: E402
from notation import Chance, Move, Tag, iter_log  # noqa: E402
from pbem.logs import format_game_log, replay_log, result_tag  # noqa: E402


@dataclass(frozen=True)
class Game:
    players: tuple[str, ...]
    moves: tuple[tuple[int, Any], ...]
    recorded: str
    seeded: str


@dataclass
class Row:
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


def make_game(args: tuple[int, int]) -> Game:
    n, seed = args
    game = get_game()
    p = play_random(game, n, f"bench-{n}-{seed}")
    head = [("Game", game.name), ("Variant", next(iter(game.variants)))]
    result = ("Result", result_tag(p.state, game))
    recorded = format_game_log(p.players, p.moves, [*head, result], include_chance=True)
    seeded = format_game_log(p.players, p.moves, [*head, ("Seed", p.seed), result],
                             include_chance=False)
    return Game(p.players, p.moves, recorded, seeded)


def generate(n: int, count: int, workers: int) -> list[Game]:
    jobs = [(n, seed) for seed in range(count)]
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


def engine_only(games: Sequence[tuple[tuple[str, ...], list[tuple[int, Any]]]]) -> None:
    game = get_game()
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


def _timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def measure(kind: str, n: int, games: list[Game], repeat: int) -> Row:
    """Each game is timed `repeat` times on each path, the three paths interleaved, and
    its fastest run counts: a machine shared with other work then adds little noise."""
    texts = [g.recorded if kind == "recorded" else g.seeded for g in games]
    for t in texts:  # sanity: every log is valid
        r = replay_log(t)
        assert r.ok and r.finished, r.error
    lines = sum(count_lines(t) for t in texts)
    full = parse = engine = 0.0
    gc.collect()
    for text, g in zip(texts, games, strict=True):
        # Engine alone: the moves with explicit deals and draws (for seeded logs the
        # seed's, which the full path derives from the seed itself).
        one = [(g.players, list(g.moves))]
        best = [float("inf")] * 3
        for _ in range(repeat):
            best[0] = min(best[0], _timed(partial(replay_log, text)))
            best[1] = min(best[1], _timed(partial(parse_only, text)))
            best[2] = min(best[2], _timed(partial(engine_only, one)))
        full, parse, engine = full + best[0], parse + best[1], engine + best[2]
    us = 1e6 / lines
    return Row(kind, n, len(games), lines / len(games), len(games) / full, full * us,
               parse * us, engine * us, (full - parse - engine) * us,
               peak_kib(texts[: min(20, len(texts))]))


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


def measure_chess(count: int, repeat: int) -> dict[str, Any]:
    texts, moves = random_pgn(count)
    assert chess_read_all("".join(texts)) == moves  # one PGN file holds them all
    t = sum(min(_timed(partial(chess_read_all, g)) for _ in range(repeat)) for g in texts)
    return {"games": count, "moves_per_game": moves / count, "games_per_s": count / t,
            "us_per_move": t * 1e6 / moves}


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


def table(rows: list[Row], chess: dict[str, Any]) -> str:
    head = (f"{'log':9} {'pl':>2} {'games':>5} {'lines/g':>7} {'games/s':>8} {'us/line':>8} "
            f"{'parse':>6} {'engine':>7} {'other':>6} {'peak KiB':>9}")
    out = [head, "-" * len(head)]
    for r in rows:
        out.append(f"{r.kind:9} {r.players:>2} {r.games:>5} {r.lines_per_game:>7.0f} "
                   f"{r.games_per_s:>8.1f} {r.us_per_line:>8.1f} {r.parse_us_per_line:>6.1f} "
                   f"{r.engine_us_per_line:>7.1f} {r.other_us_per_line:>6.1f} "
                   f"{r.peak_kib_per_game:>9.0f}")
    out.append("(parse, engine, other: us per log line; peak: tracemalloc peak of one replay)")
    out.append("")
    out.append(f"python-chess: {chess['games']} random games, {chess['moves_per_game']:.0f} "
               f"plies/game: {chess['games_per_s']:.1f} games/s, "
               f"{chess['us_per_move']:.1f} us per move (read_game + play on a board)")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per player count")
    ap.add_argument("--players", default="3,4,5", help="player counts, comma-separated")
    ap.add_argument("--chess-games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5,
                    help="timed runs of each game; the fastest counts")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="processes that generate the games (not timed)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--profile", action="store_true",
                    help="also print a cProfile of replaying the four-player logs")
    ap.add_argument("--top", type=int, default=25, help="profile entries shown")
    args = ap.parse_args(argv)

    counts = [int(x) for x in args.players.split(",")]
    t0 = time.perf_counter()
    games = {n: generate(n, args.games, args.workers) for n in counts}
    print(f"generated {sum(len(g) for g in games.values())} games in "
          f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    rows = [measure(kind, n, games[n], args.repeat)
            for kind in ("recorded", "seeded") for n in counts]
    chess = measure_chess(args.chess_games, args.repeat)
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if args.json:
        print(json.dumps({"rows": [asdict(r) for r in rows], "python_chess": chess,
                          "max_rss_kib": maxrss, "python": sys.version.split()[0]}, indent=2))
    else:
        print(table(rows, chess))
        print(f"process max RSS: {maxrss / 1024:.0f} MiB; Python {sys.version.split()[0]}")
    if args.profile:
        n = 4 if 4 in games else counts[0]
        print(profile([g.recorded for g in games[n]], args.top),
              file=sys.stderr if args.json else sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
