"""The log tools start without the database and mail stack: `pbem --help`, `replay`,
`show`, `verify` and `selfplay` never import SQLAlchemy, SQLModel, pydantic, the mail
clients, Jinja2 or the moderator's modules (scripts/bench_startup.py measures the
cost; nothing here is timed).

One exception: typer (0.29) converts every command-line value but a flag with a
pydantic TypeAdapter, so a subcommand loads pydantic through typer. pydantic is allowed
only when the installed typer declares that dependency, and never for `pbem --help`.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "tests" / "logs" / "fixtures" / "princes-recorded-4p.log"
EXPORTED = ROOT / "tests" / "fixtures" / "versions" / "0.2.0" / "3-players.log"

HEAVY_PACKAGES = ("sqlalchemy", "sqlmodel", "pydantic", "pydantic_core", "psycopg",
                  "psycopg2", "aiosmtplib", "imap_tools", "jinja2")
TYPER_USES_PYDANTIC = any(r.startswith("pydantic")
                          for r in importlib.metadata.requires("typer") or ())
PYDANTIC = ("pydantic", "pydantic_core")
HEAVY_MODULES = ("pbem.store", "pbem.moderator", "pbem.transport", "pbem.runner",
                 "pbem.workers", "pbem.inbound", "pbem.outbound", "pbem.export", "pbem.demo")

PROBE = """
import json, sys
from typer.testing import CliRunner
from pbem.cli import app

runner = CliRunner()
codes = []
for args in json.loads(sys.argv[1]):
    result = runner.invoke(app, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    codes.append([result.exit_code, result.output[:200]])
print(json.dumps({"codes": codes, "modules": sorted(sys.modules)}))
"""


def run_cli(*invocations: list[str]) -> tuple[list[list[object]], set[str]]:
    """Run the invocations in one fresh interpreter; their exit codes and outputs, and
    every module that interpreter imported."""
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(invocations)],
                          capture_output=True, text=True, check=True, cwd=ROOT, timeout=120)
    data = json.loads(done.stdout)
    return data["codes"], set(data["modules"])


def heavy(modules: set[str], allow: tuple[str, ...] = ()) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] not in allow
                  and (m.split(".")[0] in HEAVY_PACKAGES or m in HEAVY_MODULES))


@pytest.mark.parametrize("invocations", [
    [["--help"]],
    [["replay", "--help"]],
    [["replay", str(RECORDED)]],
    [["replay", "--json", str(RECORDED), str(EXPORTED)]],
    [["show", str(RECORDED), "--at", "40"], ["show", "--json", "--as", "anna", str(RECORDED)]],
    [["verify", str(EXPORTED)], ["verify", "--help"]],
    [["selfplay", "--seed", "s1", "-n", "3"]],
], ids=["help", "replay-help", "replay", "replay-json", "show", "verify", "selfplay"])
def test_log_tools_import_no_database_or_mail_code(invocations: list[list[str]]) -> None:
    codes, modules = run_cli(*invocations)
    for (code, output), args in zip(codes, invocations, strict=True):
        assert code == 0, (args, output)
        assert output, args
    typer_parses_values = invocations != [["--help"]] and TYPER_USES_PYDANTIC
    assert heavy(modules, PYDANTIC if typer_parses_values else ()) == [], invocations


def test_a_database_command_does_import_them(tmp_path: Path) -> None:
    """The probe sees the stack where it is used: `pbem init` loads it."""
    codes, modules = run_cli(["init", "--db", str(tmp_path / "x.sqlite")])
    assert codes[0][0] == 0, codes
    assert {"sqlalchemy", "sqlmodel", "pbem.store"} <= set(heavy(modules))


def test_bench_startup_smoke() -> None:
    """scripts/bench_startup.py runs every case and reports each (no time is asserted)."""
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_startup.py"),
                          "--repeat", "1", "--json"],
                         capture_output=True, text=True, check=True, timeout=300)
    data = json.loads(out.stdout)
    names = [r["name"] for r in data["rows"]]
    assert names[:2] == ["python -c pass", "import typer"]
    assert {"pbem --help", "pbem replay one.log", "pbem verify one.log"} <= set(names)
    for row in data["rows"]:
        assert row["cpu_ms"] > 0 and row["ratio"] > 0
    assert [r["target"] for r in data["rows"] if r["name"].startswith("pbem")] == [2.0] * 3
