"""setup.py: the compiled core is built by a regular install when it can be, and the
build falls back to pure Python, keeping no compiled module, when it cannot
(README, "The compiled core")."""

from __future__ import annotations

import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "engine", "notation", "pbem", "templates")
EXPECT_COMPILED = os.environ.get("PBEM_EXPECT_COMPILED") == "1"


def load_setup() -> ModuleType:
    """setup.py as a module (its `setup()` call runs only as a script)."""
    spec = importlib.util.spec_from_file_location("pbem_setup", ROOT / "setup.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("env", "command", "expected"), [
    ({}, "bdist_wheel", "try"),
    ({"PBEM_MYPYC": "auto"}, "build_ext", "try"),
    ({}, "editable_wheel", "pure"),  # sources stay what runs, in an editable install
    ({"PBEM_MYPYC": "1"}, "bdist_wheel", "compile"),
    ({"PBEM_MYPYC": "1"}, "editable_wheel", "compile"),
    ({"PBEM_MYPYC": "0"}, "bdist_wheel", "pure"),
    ({}, "egg_info", "pure"),  # pip's metadata step builds nothing
    ({"PBEM_MYPYC": "1"}, "dist_info", "pure"),
])
def test_mode(env: dict[str, str], command: str, expected: str) -> None:
    assert load_setup().mode(env, ["setup.py", command, "--dist-dir", "x"]) == expected


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(SystemExit, match="PBEM_MYPYC='maybe': expected 1, 0 or auto"):
        load_setup().mode({"PBEM_MYPYC": "maybe"}, ["setup.py", "bdist_wheel"])


def copy_sources(into: Path) -> Path:
    src = into / "src"
    src.mkdir()
    with tarfile.open(into / "sources.tar", "w") as tar:
        for name in SOURCES:
            tar.add(ROOT / name, name, filter=lambda t: None if (
                "__pycache__" in t.name or t.name.endswith((".so", ".pyd"))
                or ".egg-info" in t.name) else t)
    with tarfile.open(into / "sources.tar") as tar:
        tar.extractall(src, filter="data")
    return src


def build(src: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`setup.py build` in `src`, as pip's wheel build runs it (auto mode)."""
    environ = {k: v for k, v in os.environ.items() if k != "PBEM_MYPYC"}
    return subprocess.run([sys.executable, "setup.py", "-q", "build"], cwd=src, text=True,
                          capture_output=True, env={**environ, **env}, timeout=900)


def built_extensions(src: Path) -> list[Path]:
    return [p for p in (src / "build").rglob("*") if p.suffix in (".so", ".pyd")]


def script(path: Path, body: str) -> str:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_without_a_c_compiler_the_build_is_pure_python(tmp_path: Path) -> None:
    pytest.importorskip("mypyc.build", reason="needs mypy in the environment that builds")
    src = copy_sources(tmp_path)
    done = build(src, CC=script(tmp_path / "cc", "echo 'cc: not here' >&2; exit 1"))
    assert done.returncode == 0, done.stderr
    assert "pbem: building without the compiled core" in done.stderr
    assert "no working C compiler with the Python headers" in done.stderr
    assert built_extensions(src) == []
    assert (src / "build/lib/engine/signorie/legal.py").is_file()


@pytest.mark.skipif(not EXPECT_COMPILED,
                    reason="compiles the whole core (a minute of CPU): run by the compiled "
                           "build's test step (PBEM_EXPECT_COMPILED=1, scripts/test.sh)")
def test_a_failed_compilation_keeps_no_compiled_module(tmp_path: Path) -> None:
    """The compiler builds setup.py's probe but fails on the core's first C file after
    others were built: the build ends in pure Python, none of its modules left."""
    gcc = shutil.which("gcc") or shutil.which("cc")
    assert gcc, "the compiled build's test step has a C compiler"
    count = tmp_path / "count"
    cc = script(tmp_path / "cc", f"""case "$*" in
  *probe.c*) exec {gcc} "$@" ;;
  *" -c "*) if [ -e {count} ]; then echo 'cc: internal compiler error' >&2; exit 1; fi
            touch {count}; exec {gcc} "$@" ;;
  *) exec {gcc} "$@" ;;
esac""")
    src = copy_sources(tmp_path)
    done = build(src, CC=cc)
    assert done.returncode == 0, done.stderr
    assert "pbem: building without the compiled core" in done.stderr
    assert "compiling it failed (command" in done.stderr
    assert count.exists()  # one C file was compiled before the failure
    assert built_extensions(src) == []
