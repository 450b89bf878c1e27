"""The golden mails (tests/golden): check them, or write them anew with --update.

    python scripts/golden.py            # check: a unified diff per changed file
    python scripts/golden.py --update   # regenerate tests/golden/mails/ (all games)
    python scripts/golden.py --update signorie

Read the diff of an update (git diff tests/golden/mails) before committing it: it is
every change a player sees in a mail.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "golden"))

import goldens  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="write the golden files")
    parser.add_argument("games", nargs="*", choices=[[], *goldens.GAMES], default=[],
                        metavar="GAME", help=f"of {', '.join(goldens.GAMES)} (default all)")
    args = parser.parse_args()
    failed = 0
    for key in args.games or list(goldens.GAMES):
        game = goldens.GAMES[key]
        if args.update:
            written = goldens.write(game)
            print(f"{key}: {written} golden files written under {goldens.MAILS / key}")
            continue
        diffs = goldens.differences(game)
        failed += len(diffs)
        for diff in diffs:
            print(diff)
        print(f"{key}: {len(diffs) or 'no'} golden files differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
