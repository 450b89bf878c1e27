"""Optional: the engine's hot modules compiled with mypyc.

Everything is in pyproject.toml; this file only adds the compiled modules, and only
when PBEM_MYPYC=1 is set for the build. The compiled modules are the same source as
the pure-Python ones (which stay installed and are used wherever no compiled module
is), and give the same results, about 1.4x (The Princes of Florence) and 2.9x
(Signorie) faster on replay. mypy (the test extra)
must be in the build environment:

    PBEM_MYPYC=1 pip install --no-build-isolation .

scripts/test.sh builds it so into .venv-mypyc and runs the tests that compare results
against it (README, "The compiled build").

An editable install (-e) builds them next to the sources, where they shadow later
edits of those modules until rebuilt or removed (engine/princes/*.so, *__mypyc*.so).

A compiled dataclass is a native class (direct field access from compiled code):
`engine.frozen.dataclass` hands it to `dataclasses.dataclass` as mypyc expects, and
it takes no other class decorator (mypyc would leave it a Python class). mypyc makes
no native constructor for a dataclass: one built often defines its own `__init__`
(each field set from its parameter), which mypyc compiles (engine/frozen.py).
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED = [
    "engine/princes/state.py",
    "engine/princes/evolve.py",
    "engine/princes/decide.py",
    "engine/princes/auction.py",
    "engine/princes/actions.py",
    "engine/princes/checks.py",
    "engine/princes/queries.py",
    "engine/princes/scoring.py",
    "engine/decks.py",
    "engine/signorie/state.py",
    "engine/signorie/events.py",
    "engine/signorie/evolve.py",
    "engine/signorie/decide.py",
    "engine/signorie/actions.py",
    "engine/signorie/chance.py",
    "engine/signorie/legal.py",
    "engine/signorie/ruleset.py",
    "engine/signorie/commands.py",
    "engine/signorie/scoring.py",
    "engine/signorie/setup.py",
    "engine/match.py",
    "notation/signorie/words.py",
    "notation/signorie/fast.py",
    "notation/princes/words.py",
    "notation/princes/commands.py",
    "notation/log.py",
    "pbem/replay.py",
]


def ext_modules() -> list[object]:
    if os.environ.get("PBEM_MYPYC", "") in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit("PBEM_MYPYC=1 needs mypy in the build environment: install it "
                         "and build with pip's --no-build-isolation") from None
    return list(mypycify(COMPILED, opt_level="3"))


setup(ext_modules=ext_modules())
