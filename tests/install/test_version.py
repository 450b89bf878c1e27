"""`pbem --version` says which build runs: the compiled core, with its modules, or pure
Python (README, "The compiled core")."""

from __future__ import annotations

import os
import re

from typer.testing import CliRunner

from pbem.build import compiled_modules
from pbem.cli import app

from .test_setup import load_setup

EXPECT_COMPILED = os.environ.get("PBEM_EXPECT_COMPILED") == "1"


def setup_compiled() -> list[str]:
    return sorted(f.removesuffix(".py").replace("/", ".") for f in load_setup().COMPILED)


def test_the_compiled_modules_found_are_the_build_s() -> None:
    # the compiled build's test run (scripts/test.sh) against the source tree's editable one
    assert compiled_modules() == (setup_compiled() if EXPECT_COMPILED else [])


def test_version_names_the_build() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    line = result.output.strip()
    assert re.fullmatch(r"pbem \S+, .+, Python 3\.\d+\.\d+\S*", line), line
    if EXPECT_COMPILED:
        assert f"compiled core: {len(setup_compiled())} modules (mypyc)" in line
    else:
        assert "pure Python (no compiled core)" in line


def test_version_is_eager_and_needs_no_command() -> None:
    result = CliRunner().invoke(app, ["--version", "replay", "no-such.log"])
    assert result.exit_code == 0 and result.output.startswith("pbem ")
