#!/usr/bin/env python3
"""Regenerate the README's screenshots of a status mail (docs/screenshots/).

  .venv/bin/python scripts/screenshots.py [--out docs/screenshots]

Plays a scripted game of four by mail (`pbem.demo`, fixed seed), takes the status mail
of a player's action turn in round 4 (`tests.browser.pages.showcase`), and lays its HTML
part out in Debian's headless Chromium (/usr/bin/chromium, or $PBEM_CHROMIUM, driven by
the PyPI package playwright; never `playwright install`) at 900 px (a desktop mail
client) and 390 px (a phone): status-900.png and status-390.png, the whole mail, one
CSS pixel a pixel.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.pages import chromium, layout, play_game, showcase  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pbem-screenshots-") as tmp:
        mail = showcase(play_game(Path(tmp) / "game", players=4, seed=1))
        with chromium(Path(tmp) / "profile") as context:
            page = context.new_page()
            for width in (900, 390):
                found = layout(page, mail.html, width)
                if found["overflowing"]:
                    sys.exit(f"{width} px: the mail overflows: {found['overflowing'][:3]}")
                path = args.out / f"status-{width}.png"
                page.screenshot(path=str(path), full_page=True)
                print(f"{path}: {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
