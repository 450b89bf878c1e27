"""The compiled core: the engine's hot modules compiled with mypyc, with a pure-Python
fallback.

Everything else is in pyproject.toml; this file adds the compiled modules (`COMPILED`)
to a build. They are the same source as the pure-Python modules, which stay installed
and are used wherever no compiled module is, and they give the same results: replay is
about 1.5x (The Princes of Florence) and 2.9x (Signorie) as fast (README, "The
compiled core").

`PBEM_MYPYC` chooses, when the package is built:

- unset or `auto`: a regular install (`pip install .`, a wheel) compiles them if it
  can: mypy in the build environment (pyproject's build requirements bring it) and a C
  compiler with the Python headers. If it cannot, or the compilation fails, the build
  says why on stderr and goes on in pure Python. An editable install (`pip install -e`)
  stays pure Python: compiled modules beside the sources would shadow later edits.
- `1`: compile, or fail the build (where a pure-Python fallback would hide a problem); in an
  editable install they are built beside the sources (engine/princes/*.so,
  *__mypyc*.so), where they shadow later edits until rebuilt or removed.
- `0`: pure Python.

A compiled dataclass is a native class (direct field access from compiled code):
`engine.frozen.dataclass` hands it to `dataclasses.dataclass` as mypyc expects, and
it takes no other class decorator (mypyc would leave it a Python class). mypyc makes
no native constructor for a dataclass: one built often defines its own `__init__`
(each field set from its parameter), which mypyc compiles (engine/frozen.py).
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

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

BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}
"""setup.py's commands that build modules (not egg_info or dist_info, which pip runs
first for the metadata alone)."""

FALLBACK = "pbem: building without the compiled core (pure Python, same results, slower replay)"


def mode(environ: Any = None, argv: list[str] | None = None) -> str:
    """What this run of setup.py does: "compile" (or fail), "try" (compile, else
    pure Python) or "pure"."""
    environ = os.environ if environ is None else environ
    argv = sys.argv if argv is None else argv
    wanted = environ.get("PBEM_MYPYC", "").strip().lower()
    if wanted not in ("", "auto", "0", "1"):
        raise SystemExit(f"PBEM_MYPYC={wanted!r}: expected 1, 0 or auto")
    if wanted == "0":
        return "pure"
    if not BUILDS.intersection(argv[1:]):
        return "pure"  # no module is built by this command
    if wanted == "1":
        return "compile"
    return "pure" if "editable_wheel" in argv else "try"


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def compiler_problem() -> str | None:
    """Why no C extension can be built here, found by building a tiny one that
    includes Python.h with the compiler setuptools would use; None if it builds."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp, "probe.c")
        probe.write_text("#include <Python.h>\nint pbem_probe(void) { return 0; }\n")
        try:
            compiler.compile([str(probe)], output_dir=tmp,
                             include_dirs=[sysconfig.get_path("include")])
        except Exception as e:  # distutils' CompileError, from either copy of distutils
            return f"no working C compiler with the Python headers ({e})"
    return None


def ext_modules(how: str) -> list[Any]:
    if how == "pure":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if how == "compile":
            raise SystemExit("PBEM_MYPYC=1 needs mypy in the build environment: install it "
                             "(or build with pip's build isolation, which brings it)") from None
        say(f"{FALLBACK}: mypy is not in the build environment")
        return []
    if how == "try":
        problem = compiler_problem()
        if problem:
            say(f"{FALLBACK}: {problem}")
            return []
    try:
        return list(mypycify(COMPILED, opt_level="3"))
    except (Exception, SystemExit) as e:  # mypyc reports type errors by exiting
        if how == "compile":
            raise
        say(f"{FALLBACK}: mypyc failed ({e!r})")
        return []


class BuildCompiledCore(build_ext):
    """build_ext that, when the compiled core is only tried, falls back to pure
    Python if compiling it fails: no compiled module of the failed build is kept."""

    mode = "pure"

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # the compiler's or linker's error, whatever its class
            if self.mode != "try":
                raise
            for built in self.get_outputs():
                Path(built).unlink(missing_ok=True)
            self.extensions = self.distribution.ext_modules = []
            say(f"{FALLBACK}: compiling it failed ({e})")


if __name__ == "__main__":
    BuildCompiledCore.mode = mode()
    setup(ext_modules=ext_modules(BuildCompiledCore.mode),
          cmdclass={"build_ext": BuildCompiledCore})
