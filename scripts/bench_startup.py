#!/usr/bin/env python3
"""Measure what the `pbem` command line costs to start, against `import typer`.

  .venv/bin/python scripts/bench_startup.py [PBEM ...] [--repeat 15] [--json]

PBEM is the `pbem` executable to measure (default: the one next to this Python, else
the one on PATH); given several (another checkout's and this one's, say: before and
after a change), all are measured in the same blocks. Each figure is the CPU time
(user + system) of one child process, taken from resource.getrusage(RUSAGE_CHILDREN)
before and after it ran; the cases run in interleaved blocks (every case of every
executable once per block, --repeat blocks) so that a busy moment of the machine falls
on all of them alike, and the median of each is printed with its ratio to
`python -c "import typer"` (run by the same executable's Python) and the target next to
it: the log tools (`--help`, `replay`, `verify`) at most 2× `import typer`, for a log
of each game (The Princes of Florence, the default game, and Signorie). `show` and
`selfplay` (which plays a whole game) are measured without a target. Two reference
rows show what typer loads to convert command-line values (pydantic, from typer 0.29
on) and what the engine and the notation add (`import pbem.logs`).

`python -c ...` runs with the Python of the PBEM executable (read from its #! line), so
that both sides of a ratio see the same interpreter and packages.

Every child loads compiled bytecode, as an installed pbem does: the children write and
read it in a private folder (PYTHONPYCACHEPREFIX, removed afterwards), whatever
PYTHONDONTWRITEBYTECODE says, so that a checkout whose own modules were never compiled
is not measured compiling them (--as-is: the environment unchanged).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPLAY_LOG = ROOT / "tests" / "logs" / "fixtures" / "princes-recorded-4p.log"
VERIFY_LOG = ROOT / "tests" / "fixtures" / "versions" / "0.2.0" / "3-players.log"
SIGNORIE_REPLAY_LOG = ROOT / "tests" / "logs" / "fixtures" / "signorie-recorded-4p.log"
SIGNORIE_VERIFY_LOG = ROOT / "tests" / "logs" / "fixtures" / "signorie-exported-4p.log"
TARGET = 2.0
"""The log tools' bound, as a multiple of `import typer`."""
BASELINE = "import typer"


@dataclass(frozen=True)
class Case:
    pbem: str
    name: str
    argv: tuple[str, ...]
    exit_code: int = 0
    target: float | None = None


@dataclass(frozen=True)
class Row:
    pbem: str
    name: str
    cpu_ms: float
    wall_ms: float
    ratio: float
    target: float | None


def default_pbem() -> str:
    beside = Path(sys.executable).parent / "pbem"
    if beside.exists():
        return str(beside)
    found = shutil.which("pbem")
    if found is None:
        sys.exit("bench_startup: no pbem executable found; pass its path")
    return found


def python_of(pbem: str) -> str:
    """The interpreter a console script runs with (its #! line), else this one."""
    with open(pbem, "rb") as f:
        first = f.readline().decode("utf-8", "replace").strip()
    if first.startswith("#!") and " " not in first[2:].strip():
        return first[2:].strip()
    return sys.executable


def cases(pbem: str, python: str) -> list[Case]:
    return [
        Case(pbem, "python -c pass", (python, "-c", "pass")),
        Case(pbem, BASELINE, (python, "-c", "import typer")),
        # for reference: what typer loads to convert values (pydantic), and the engine
        Case(pbem, "typer + pydantic", (python, "-c", "import typer._adapters")),
        Case(pbem, "typer + pbem.logs", (python, "-c", "import typer, pbem.logs")),
        Case(pbem, "pbem --help", (pbem, "--help"), target=TARGET),
        Case(pbem, "pbem replay one.log", (pbem, "replay", str(REPLAY_LOG)), target=TARGET),
        Case(pbem, "pbem verify one.log", (pbem, "verify", str(VERIFY_LOG)), target=TARGET),
        Case(pbem, "pbem show one.log", (pbem, "show", str(REPLAY_LOG))),
        Case(pbem, "pbem selfplay", (pbem, "selfplay", "--seed", "bench", "-n", "3")),
        # the same for the second game's logs (a game not the default one)
        Case(pbem, "replay signorie.log", (pbem, "replay", str(SIGNORIE_REPLAY_LOG)),
             target=TARGET),
        Case(pbem, "verify signorie.log", (pbem, "verify", str(SIGNORIE_VERIFY_LOG)),
             target=TARGET),
        Case(pbem, "show signorie.log", (pbem, "show", str(SIGNORIE_REPLAY_LOG))),
        Case(pbem, "selfplay signorie", (pbem, "selfplay", "--game", "signorie", "--seed",
                                         "bench", "-n", "3")),
    ]


def run_once(case: Case, env: dict[str, str] | None = None) -> tuple[float, float]:
    """CPU and wall seconds of one run of the case's process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(case.argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          check=False, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != case.exit_code:
        sys.exit(f"bench_startup: {case.pbem}: {case.name} exited {done.returncode}, expected "
                 f"{case.exit_code}:\n{done.stderr.decode(errors='replace')}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def bytecode_env(folder: str) -> dict[str, str]:
    """This environment, with compiled bytecode written to and read from `folder`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = folder
    return env


def measure(all_cases: list[Case], repeat: int, env: dict[str, str] | None = None) -> list[Row]:
    for case in all_cases:  # warm the file cache and the .pyc files first
        run_once(case, env)
    cpu: dict[tuple[str, str], list[float]] = {(c.pbem, c.name): [] for c in all_cases}
    wall: dict[tuple[str, str], list[float]] = {(c.pbem, c.name): [] for c in all_cases}
    for _ in range(repeat):
        for case in all_cases:
            c, w = run_once(case, env)
            cpu[case.pbem, case.name].append(c)
            wall[case.pbem, case.name].append(w)
    rows = []
    for c in all_cases:
        base = statistics.median(cpu[c.pbem, BASELINE])
        median = statistics.median(cpu[c.pbem, c.name])
        rows.append(Row(c.pbem, c.name, 1000 * median,
                        1000 * statistics.median(wall[c.pbem, c.name]),
                        median / base if base else float("nan"), c.target))
    return rows


def report(rows: list[Row], repeat: int, as_is: bool) -> str:
    out = [f"median of {repeat} interleaved runs, CPU = user + system; "
           f"{'environment as is' if as_is else 'bytecode cached in a private folder'}"]
    for pbem in dict.fromkeys(r.pbem for r in rows):
        out += ["", f"pbem: {pbem}",
                f"{'case':<22} {'CPU ms':>8} {'wall ms':>8} {'× typer':>8}  target"]
        for r in rows:
            if r.pbem != pbem:
                continue
            target = "" if r.target is None else (
                f"≤ {r.target:g}×  {'ok' if r.ratio <= r.target else 'OVER'}")
            out.append(f"{r.name:<22} {r.cpu_ms:>8.1f} {r.wall_ms:>8.1f} {r.ratio:>7.2f}×  "
                       f"{target}".rstrip())
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pbem", nargs="*", help="the pbem executables to measure (default: "
                        "this Python's)")
    parser.add_argument("--repeat", type=int, default=15, help="interleaved blocks")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--as-is", action="store_true",
                        help="run the children in this environment unchanged (bytecode "
                             "as PYTHONDONTWRITEBYTECODE and PYTHONPYCACHEPREFIX say)")
    args = parser.parse_args()
    executables = args.pbem or [default_pbem()]
    all_cases = [c for pbem in executables for c in cases(pbem, python_of(pbem))]
    if args.as_is:
        rows = measure(all_cases, max(1, args.repeat))
    else:
        with tempfile.TemporaryDirectory(prefix="bench-startup-pyc-") as folder:
            rows = measure(all_cases, max(1, args.repeat), bytecode_env(folder))
    if args.json:
        print(json.dumps({"pbem": executables, "repeat": args.repeat, "target": TARGET,
                          "bytecode": "as is" if args.as_is else "private cache",
                          "rows": [asdict(r) for r in rows]}, indent=2))
    else:
        print(report(rows, args.repeat, args.as_is))


if __name__ == "__main__":
    main()
