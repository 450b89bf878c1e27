#!/usr/bin/env python3
"""Replay of a whole archive: `pbem replay --jobs 1` against `--jobs N`, in games/s.

  .venv/bin/python scripts/bench_jobs.py [--logs 500] [--jobs 2] [--blocks 5] [--json]

Self-played four-player games are written as recorded logs to a temporary folder (not
timed). Then `pbem replay --jobs 1 FILES` and `pbem replay --jobs N FILES` run in
interleaved blocks (the order turns from block to block), and each prints the median
wall time as games/s and the median CPU time of the process and its workers
(getrusage of the children). Every run's output and exit status must equal the first
run's: the workers change the speed, never the result. On a machine shared with other
work, wall time shows what the cores left free allow; the CPU column shows the cost.
The runs load compiled bytecode from a private cache, as an installed pbem does
(scripts/bench_startup.py).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.registry import get_game  # noqa: E402
from engine.selfplay import play_random  # noqa: E402
from pbem.logs import format_game_log, result_tag  # noqa: E402


def write_log(args: tuple[Path, int]) -> Path:
    folder, seed = args
    game = get_game()
    p = play_random(game, 4, f"jobs-{seed}")
    tags = [("Game", game.name), ("Variant", next(iter(game.variants))),
            ("Result", result_tag(p.state, game))]
    path = folder / f"game-{seed:05d}.log"
    path.write_text(format_game_log(p.players, p.moves, tags, include_chance=True),
                    encoding="utf-8")
    return path


def pbem_executable() -> str:
    beside = Path(sys.executable).parent / "pbem"
    if not beside.exists():
        sys.exit("bench_jobs: no pbem next to this Python (pip install -e .)")
    return str(beside)


def run(pbem: str, jobs: int, files: list[Path],
        env: dict[str, str]) -> tuple[float, float, int, bytes]:
    """Wall and CPU seconds of one `pbem replay --jobs`, its exit status and output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([pbem, "replay", "--jobs", str(jobs), *map(str, files)],
                          capture_output=True, check=False, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode, done.stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--logs", type=int, default=500, help="four-player recorded logs")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes against serial")
    ap.add_argument("--blocks", type=int, default=5, help="interleaved blocks")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args()
    pbem = pbem_executable()
    with tempfile.TemporaryDirectory(prefix="bench-jobs-") as name:
        folder = Path(name)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pyc")
        with ProcessPoolExecutor(max(1, os.cpu_count() or 1)) as pool:
            files = list(pool.map(write_log, [(folder, s) for s in range(args.logs)],
                                  chunksize=8))
        (folder / "pyc").mkdir()
        modes = (1, args.jobs)
        times: dict[int, list[tuple[float, float]]] = {m: [] for m in modes}
        first = run(pbem, 1, files, env)[2:]  # also compiles the bytecode
        for block in range(max(1, args.blocks)):
            for jobs in (modes if block % 2 == 0 else modes[::-1]):
                wall, cpu, code, out = run(pbem, jobs, files, env)
                if (code, out) != first:
                    sys.exit(f"bench_jobs: --jobs {jobs} printed another result")
                times[jobs].append((wall, cpu))
    rows = []
    for jobs in modes:
        wall = statistics.median(t[0] for t in times[jobs])
        cpu = statistics.median(t[1] for t in times[jobs])
        rows.append({"jobs": jobs, "wall_s": wall, "games_per_s": args.logs / wall,
                     "cpu_s": cpu, "games_per_cpu_s": args.logs / cpu})
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"logs": args.logs, "blocks": args.blocks, "rows": rows,
                          "same_output": True, "load": load}, indent=2))
        return 0
    print(f"{args.logs} four-player recorded logs; median of {args.blocks} interleaved "
          f"blocks; load {load[0]:.2f} on {os.cpu_count()} CPUs; outputs identical")
    print(f"{'--jobs':>6} {'wall s':>7} {'games/s':>8} {'CPU s':>7} {'games/CPU s':>11}")
    for r in rows:
        print(f"{r['jobs']:>6} {r['wall_s']:>7.2f} {r['games_per_s']:>8.0f} "
              f"{r['cpu_s']:>7.2f} {r['games_per_cpu_s']:>11.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
