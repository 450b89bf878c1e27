#!/usr/bin/env python3
"""Replay speed of this checkout against another one (say, before a change), side by
side in one run: the same log texts, replayed by `pbem.logs.replay_log` of each tree
in its own process, in interleaved blocks, timed in CPU time; medians.

  .venv/bin/python scripts/bench_replay_compare.py --before /path/to/old/checkout \
      [--game signorie]

Both trees run with this checkout's virtual environment (their dependencies must
agree); the old tree comes first on the path of its process. The logs are self-played
four-player games (recorded: every deal and draw stated; seeded: none), made by this
checkout and checked to replay in both trees before timing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

WORKER = r"""
import json, sys, time
from pbem.logs import replay_log
texts = json.load(open(sys.argv[1]))
blocks = int(sys.argv[2])
for t in texts:  # warm up, and check every log replays
    r = replay_log(t)
    assert r.ok and r.finished, r.error
out = []
for _ in range(blocks):
    t0 = time.process_time()
    for t in texts:
        replay_log(t)
    out.append(time.process_time() - t0)
print(json.dumps(out))
"""


def make_logs(games: int, players: int, name: str | None) -> dict[str, list[str]]:
    sys.path.insert(0, str(HERE))
    from engine.protocol import CHANCE
    from engine.registry import get_game
    from engine.selfplay import play_random
    from pbem.logs import format_game_log, result_tag

    game = get_game(name)
    out: dict[str, list[str]] = {"recorded": [], "seeded": []}
    for i in range(games):
        p = play_random(game, players, f"compare-{players}-{i}")
        tags = [("Game", game.name), ("Variant", "standard")]
        result = ("Result", result_tag(p.state, game))
        out["recorded"].append(format_game_log(p.players, p.moves, [*tags, result]))
        out["seeded"].append(format_game_log(p.players, p.moves,
                                             [*tags, ("Seed", p.seed), result],
                                             include_chance=False))
        assert any(seat == CHANCE for seat, _ in p.moves)
    return out


def run(tree: Path, logs: Path, blocks: int) -> list[float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", WORKER, str(logs), str(blocks)], env=env,
                          cwd=tree, capture_output=True, text=True, check=True)
    times: list[float] = json.loads(done.stdout)
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="the other checkout")
    ap.add_argument("--game", default=None, help="the game's name (default: the default game)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds per tree")
    ap.add_argument("--blocks", type=int, default=3, help="timed passes per process")
    args = ap.parse_args()
    logs = make_logs(args.games, args.players, args.game)
    lines = {k: sum(t.count("\n") for t in v) for k, v in logs.items()}
    trees = {"before": args.before.resolve(), "after": HERE}
    with tempfile.TemporaryDirectory() as tmp:
        for kind, texts in logs.items():
            path = Path(tmp) / f"{kind}.json"
            path.write_text(json.dumps(texts))
            got: dict[str, list[float]] = {"before": [], "after": []}
            for r in range(args.rounds):
                order = ("before", "after") if r % 2 == 0 else ("after", "before")
                for name in order:
                    got[name] += run(trees[name], path, args.blocks)
                print(f"  {kind}: round {r + 1}/{args.rounds}", file=sys.stderr)
            med = {k: statistics.median(v) for k, v in got.items()}
            for name in ("before", "after"):
                print(f"{kind:9} {name:7} {args.games / med[name]:8.1f} games/s  "
                      f"{1e6 * med[name] / lines[kind]:6.2f} us/line  (CPU, median of "
                      f"{len(got[name])})")
            print(f"{kind:9} after/before speed: {med['before'] / med['after']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
