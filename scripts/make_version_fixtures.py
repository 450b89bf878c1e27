"""Store finished games of this engine version as fixtures for the rules-version test.

    .venv/bin/python scripts/make_version_fixtures.py

Plays a few games by mail through the moderator (as `pbem demo` does: SQLite and
folders of .eml files), exports each with `pbem export`, and writes them with their
results to `tests/fixtures/versions/<engine version>/`: `<name>.log` and
`expected.json` (standings, winners and the final chain head per log).
`tests/trust/test_versions.py` verifies every stored log with the current engine and
checks the results have not changed. Run this once per engine version, when
`engine.__version__` is raised; never overwrite the fixtures of an earlier version.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import __version__  # noqa: E402
from pbem.config import Config  # noqa: E402
from pbem.demo import run_demo  # noqa: E402
from pbem.export import export_game  # noqa: E402
from pbem.moderator import Moderator  # noqa: E402
from pbem.store import Store  # noqa: E402
from pbem.verify import verify_log  # noqa: E402

GAMES = (  # name, players, demo seed, undo rate
    ("3-players", 3, 101, 0.0),
    ("4-players-undo", 4, 102, 0.1),
    ("5-players", 5, 103, 0.0),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path,
                        default=ROOT / "tests" / "fixtures" / "versions" / __version__)
    parser.add_argument("--force", action="store_true", help="overwrite existing fixtures")
    args = parser.parse_args()
    if args.out.exists() and not args.force:
        print(f"{args.out} exists; fixtures of a version are never rewritten (--force)")
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    expected = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, players, seed, undo_rate in GAMES:
            demo = run_demo(Path(tmp) / name, players=players, seed=seed, undo_rate=undo_rate,
                            typo_rate=0.0)
            cfg = Config(db_path=demo.db_path, moderator_address="moderator@example.org")
            store = Store(cfg.sqlalchemy_url())
            text = export_game(Moderator(store, cfg), demo.game_id)
            store.dispose()
            result = verify_log(text, file=name)
            assert result.ok, result.summary()
            assert undo_rate == 0 or result.undos, f"{name}: no undo was made"
            (args.out / f"{name}.log").write_text(text, encoding="utf-8")
            expected[f"{name}.log"] = {
                "players": players,
                "undos": result.undos,
                "standings": [[s.name, *s.fields.values()] for s in result.standings()],
                "winners": list(result.winners),
                "head": f"v{result.version} sha256:{result.head}",
            }
            print(result.summary())
    (args.out / "expected.json").write_text(json.dumps(expected, indent=2) + "\n",
                                            encoding="utf-8")
    print(f"wrote {len(expected)} games to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
