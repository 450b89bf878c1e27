#!/usr/bin/env python3
"""The gettext catalogues of the mails (pbem.i18n, docs/i18n.md).

  .venv/bin/python scripts/i18n.py extract   # sources -> each domain's DOMAIN.pot
  .venv/bin/python scripts/i18n.py update    # extract, then merge into every .po
  .venv/bin/python scripts/i18n.py compile   # every .po -> its .mo (committed)
  .venv/bin/python scripts/i18n.py check     # exit 1: a .po incomplete or a .mo stale

Each catalogue is a folder `.../locale/` holding `DOMAIN.cfg` (Babel's mapping of
the sources to extract from, paths from the repository root): `pbem/locale/pbem.cfg`
for the shell, `pbem/<game>/locale/<game>.cfg` for a game. The languages are
`pbem.i18n.LANGUAGES` but English, the source language. After `update`, translate
the new or fuzzy entries of `LANG/LC_MESSAGES/DOMAIN.po`, then `compile`.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.i18n import DEFAULT, LANGUAGES  # noqa: E402

CREATED = "2026-12-01 00:00+0000"  # the catalogues' creation time, fixed (_fix_creation_date)
KEYWORDS = ["-k", "N_", "-k", "NP_:1c,2", "-k", "tr", "-k", "said"]


def domains() -> list[tuple[str, Path]]:
    """Every catalogue: (domain, locale folder)."""
    return sorted((cfg.stem, cfg.parent) for cfg in ROOT.glob("pbem/**/locale/*.cfg"))


def babel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract() -> None:
    for domain, folder in domains():
        babel("extract", "-F", str(folder / f"{domain}.cfg"), *KEYWORDS, "--no-location",
              "--sort-output", "--project", "pbem", "-o", str(folder / f"{domain}.pot"),
              str(ROOT))
        _fix_creation_date(folder / f"{domain}.pot")


def _fix_creation_date(path: Path) -> None:
    """Give a template or catalogue a fixed creation time (`CREATED`), so that `update`
    changes a .po only when a message changed and a .mo is the same bytes whenever
    it is compiled (Babel writes the time into it, and reads a missing one as now)."""
    lines = path.read_text("utf-8").splitlines(keepends=True)
    path.write_text("".join(f'"POT-Creation-Date: {CREATED}\\n"\n'
                            if ln.startswith('"POT-Creation-Date:') else ln for ln in lines),
                    "utf-8")


def update() -> None:
    extract()
    for domain, folder in domains():
        for lang in LANGUAGES:
            if lang == DEFAULT:
                continue
            po = folder / lang / "LC_MESSAGES" / f"{domain}.po"
            cmd = "update" if po.exists() else "init"
            babel(cmd, "-D", domain, "-i", str(folder / f"{domain}.pot"), "-d", str(folder),
                  "-l", lang, *(["--no-fuzzy-matching"] if cmd == "update" else []))
            _fix_creation_date(po)


def mo_bytes(po: Path) -> bytes:
    """The .mo a .po compiles to (fuzzy entries left out)."""
    with po.open("rb") as f:
        catalog = read_po(f, locale=po.parent.parent.name, domain=po.stem)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def compile_all() -> None:
    for _domain, folder in domains():
        for po in sorted(folder.glob("*/LC_MESSAGES/*.po")):
            po.with_suffix(".mo").write_bytes(mo_bytes(po))


def check() -> int:
    """Problems: untranslated or fuzzy entries, a .mo that is not its .po's."""
    bad = 0
    for _domain, folder in domains():
        for po in sorted(folder.glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as f:
                catalog = read_po(f)
            for m in catalog:
                if m.id and (not m.string or m.fuzzy or (isinstance(m.string, tuple)
                                                         and not all(m.string))):
                    print(f"{po.relative_to(ROOT)}: {'fuzzy' if m.fuzzy else 'missing'}: "
                          f"{m.id!r}")
                    bad += 1
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.read_bytes() != mo_bytes(po):
                print(f"{mo.relative_to(ROOT)}: stale, run scripts/i18n.py compile")
                bad += 1
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    match argv:
        case ["extract"]:
            extract()
        case ["update"]:
            update()
        case ["compile"]:
            compile_all()
        case ["check"]:
            return check()
        case _:
            print(__doc__, file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
