"""The log tools start without the database and mail stack: `pbem --help`, `replay`,
`show`, `verify` and `selfplay` never import SQLAlchemy, SQLModel, pydantic, the mail
clients, Jinja2, rich, Babel, Pillow or the moderator's modules, and `pbem --help`
imports no game's rules. `replay` and `verify` load only what they use: their own
command (`pbem.cli` builds the command that runs), no views, and of the games only
the one the log names (scripts/bench_startup.py measures the cost; nothing here is
timed).

typer (from 0.29 on) would convert command-line values through pydantic;
`pbem.cli_values` converts the plain ones itself (tests/pbem/test_cli_values.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "tests" / "logs" / "fixtures" / "princes-recorded-4p.log"
EXPORTED = ROOT / "tests" / "fixtures" / "versions" / "0.2.0" / "3-players.log"
SIGNORIE_RECORDED = ROOT / "tests" / "logs" / "fixtures" / "signorie-recorded-4p.log"
SIGNORIE_EXPORTED = ROOT / "tests" / "logs" / "fixtures" / "signorie-exported-4p.log"
LOGS = {"princes-of-florence": (RECORDED, EXPORTED),
        "signorie": (SIGNORIE_RECORDED, SIGNORIE_EXPORTED)}
"""A recorded log and an exported one (`pbem export`) of every game."""

HEAVY_PACKAGES = ("sqlalchemy", "sqlmodel", "pydantic", "pydantic_core", "psycopg",
                  "psycopg2", "aiosmtplib", "imap_tools", "jinja2", "rich", "alembic",
                  "babel", "PIL")
HEAVY_MODULES = ("pbem.store", "pbem.moderator", "pbem.transport", "pbem.runner",
                 "pbem.workers", "pbem.inbound", "pbem.outbound", "pbem.export", "pbem.demo",
                 "typer._adapters", "typer.rich_utils")
RULES = tuple(ep.module for ep in entry_points(group="pbem.games"))
"""The modules of every registered game's rules."""

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
    codes.append([result.exit_code, result.output[-200:]])
print(json.dumps({"codes": codes, "modules": sorted(sys.modules)}))
"""


def run_cli(*invocations: list[str]) -> tuple[list[list[object]], set[str]]:
    """Run the invocations in one fresh interpreter; their exit codes and outputs, and
    every module that interpreter imported."""
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(invocations)],
                          capture_output=True, text=True, check=True, cwd=ROOT, timeout=120)
    data = json.loads(done.stdout)
    return data["codes"], set(data["modules"])


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules
                  if m.split(".")[0] in HEAVY_PACKAGES or m in HEAVY_MODULES)


@pytest.mark.parametrize("invocations", [
    [["--help"]],
    [["replay", "--help"]],
    [["replay", str(RECORDED)]],
    [["replay", "--json", str(RECORDED), str(EXPORTED)]],
    [["replay", "--jobs", "1", str(RECORDED), str(EXPORTED)]],
    [["show", str(RECORDED), "--at", "40"], ["show", "--json", "--as", "anna", str(RECORDED)]],
    [["verify", str(EXPORTED)], ["verify", "--help"]],
    [["selfplay", "--seed", "s1", "-n", "3"]],
    [["replay", str(SIGNORIE_RECORDED)], ["verify", str(SIGNORIE_EXPORTED)],
     ["show", str(SIGNORIE_RECORDED)], ["selfplay", "--game", "signorie", "-n", "3"]],
], ids=["help", "replay-help", "replay", "replay-json", "replay-jobs", "show", "verify",
        "selfplay", "signorie"])
def test_log_tools_import_no_database_or_mail_code(invocations: list[list[str]]) -> None:
    codes, modules = run_cli(*invocations)
    for (code, output), args in zip(codes, invocations, strict=True):
        assert code == 0, (args, output)
        assert output, args
    assert heavy(modules) == [], invocations


def test_help_imports_no_rules_of_a_game() -> None:
    """The games' list at the end of `pbem --help` comes from their summaries."""
    codes, modules = run_cli(["--help"], ["replay", "--help"])
    assert all(code == 0 and "princes-of-florence: standard (3-5)" in output
               for code, output in codes), codes
    assert RULES and not modules & set(RULES)
    assert not any(m.startswith("notation.") and m != "notation.registry" for m in modules)


CONSOLE = """
import sys
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
try:
    main()
except SystemExit:
    pass
print("\\n".join(sorted(sys.modules)), file=sys.stderr)
"""


def console_modules(*args: str) -> set[str]:
    """Every module the `pbem` script's run with `args` imported (it runs in a fresh
    interpreter without the test runner's own modules)."""
    done = subprocess.run([sys.executable, "-c", CONSOLE, *args], capture_output=True,
                          text=True, check=True, cwd=ROOT, timeout=120)
    return set(done.stderr.split())


def test_help_and_replay_import_no_json_or_logging() -> None:
    """`pbem --help` builds every command and runs none: their json and logging wait
    until one runs; nor does replay of a recorded log need them."""
    for args in (["--help"], ["replay", str(RECORDED)], ["replay", str(SIGNORIE_RECORDED)]):
        modules = console_modules(*args)
        assert "pbem.cli" in modules and not modules & {"json", "logging"}, args
    assert "json" in console_modules("verify", str(EXPORTED))  # the probe sees them


def test_a_database_command_does_import_them(tmp_path: Path) -> None:
    """The probe sees the stack where it is used: `pbem init` loads it."""
    codes, modules = run_cli(["init", "--db", str(tmp_path / "x.sqlite")])
    assert codes[0][0] == 0, codes
    assert {"sqlalchemy", "sqlmodel", "pbem.store"} <= set(heavy(modules))


def test_bench_startup_smoke() -> None:
    """scripts/bench_startup.py runs every case and reports each (no time is asserted);
    given two executables (before and after a change), it runs every case of each in
    the same blocks, each one's ratio taken to its own `import typer`."""
    pbem = str(Path(sys.executable).parent / "pbem")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_startup.py"),
                          "--repeat", "1", "--json", pbem, pbem],
                         capture_output=True, text=True, check=True, timeout=300)
    data = json.loads(out.stdout)
    assert data["pbem"] == [pbem, pbem]
    names = [r["name"] for r in data["rows"]]
    half = len(names) // 2
    assert names[:2] == ["python -c pass", "import typer"] and names[:half] == names[half:]
    assert {r["pbem"] for r in data["rows"]} == {pbem}
    assert {"pbem --help", "pbem replay one.log", "pbem verify one.log", "pbem show one.log",
            "pbem selfplay"} <= set(names)
    for row in data["rows"]:
        assert row["cpu_ms"] > 0 and row["ratio"] > 0
    targets = {r["name"]: r["target"] for r in data["rows"][:half]
               if not r["name"].startswith(("python", "import", "typer"))}
    assert targets == {"pbem --help": 2.0, "pbem replay one.log": 2.0,
                       "pbem verify one.log": 2.0, "pbem show one.log": None,
                       "pbem selfplay": None, "replay signorie.log": 2.0,
                       "verify signorie.log": 2.0, "show signorie.log": None,
                       "selfplay signorie": None}


LOG_TOOL_EXTRAS = ("logging", "pbem.cli_mail", "pbem.cli_address", "engine.princes.views",
                   "pkgutil")
"""What neither `replay` nor `verify` needs: the moderator's commands, the game's views,
pkgutil (the rules data is read with importlib.resources, which importlib.metadata
brings along for the registries)."""


def extras(modules: set[str], more: tuple[str, ...] = ()) -> list[str]:
    return sorted(m for m in modules
                  if any(m == x or m.startswith(f"{x}.") for x in (*LOG_TOOL_EXTRAS, *more)))


def test_replay_loads_only_what_it_uses() -> None:
    codes, modules = run_cli(["replay", str(RECORDED)])
    assert codes[0][0] == 0 and codes[0][1].startswith("OK "), codes
    assert "engine.princes.definition" in modules
    # a recorded log draws nothing from a seed and plays no random game (random itself
    # comes with importlib.metadata's email package, which reads the entry points)
    assert extras(modules, ("pbem.cli_trust", "pbem.verify", "hashlib",
                            "engine.selfplay")) == []


def test_verify_loads_only_what_it_uses() -> None:
    codes, modules = run_cli(["verify", str(EXPORTED)])
    assert codes[0][0] == 0 and "winner bas" in codes[0][1], codes
    assert {"pbem.verify", "engine.chain"} <= modules
    assert extras(modules, ("pbem.cli_logs", "pbem.log_report", "engine.selfplay")) == []


def test_the_commands_built_one_by_one_are_those_every_module_registers() -> None:
    """`pbem.cli.COMMANDS` names every command its modules register, in their order,
    and each command built alone is the one typer builds among all (same help)."""
    import importlib

    import typer
    import typer.main

    from pbem.cli import COMMANDS, app

    eager = typer.Typer(rich_markup_mode=None, add_completion=False)
    for module in dict.fromkeys(COMMANDS.values()):
        importlib.import_module(f"pbem.{module}").register(eager)
    every = typer.main.get_group(eager)
    assert list(every.commands) == list(COMMANDS)

    group = typer.main.get_command(app)
    ctx = typer.main._click.Context(group, info_name="pbem")
    assert group.list_commands(ctx) == list(COMMANDS)
    for name, command in every.commands.items():
        alone = group.get_command(ctx, name)
        assert alone is not None and alone is group.get_command(ctx, name)  # built once
        assert type(alone) is type(command)
        assert [p.name for p in alone.params] == [p.name for p in command.params], name
        sub = typer.main._click.Context(alone, info_name=name, parent=ctx)
        assert alone.get_help(sub) == command.get_help(
            typer.main._click.Context(command, info_name=name, parent=ctx)), name
    assert group.get_command(ctx, "no-such-command") is None


def test_the_console_script_runs_the_app_with_startup_objects_frozen() -> None:
    """`pbem` (pbem.cli:main) is `app()` after gc.freeze(): same output and exit code."""
    probe = ("import gc, sys\nsys.argv = ['pbem', 'replay', sys.argv[1]]\n"
             "from pbem.cli import main\ntry:\n    main()\nexcept SystemExit as e:\n"
             "    print('exit', e.code, gc.get_freeze_count() > 1000)\n")
    done = subprocess.run([sys.executable, "-c", probe, str(RECORDED)], capture_output=True,
                          text=True, check=True, cwd=ROOT, timeout=120)
    assert done.stdout.startswith("OK ") and done.stdout.rstrip().endswith("exit 0 True")


def test_the_console_script_collects_cycles_only_after_the_start() -> None:
    """`pbem` lets the cycle collector first run after STARTUP_ALLOCATIONS objects (a log
    tool's whole start makes fewer), then as usual: the first collection puts the usual
    thresholds back, and the output is the same."""
    probe = ("import gc, sys\nsys.argv = ['pbem', 'replay', sys.argv[1]]\n"
             "usual = gc.get_threshold()\n"
             "from pbem.cli import STARTUP_ALLOCATIONS, main\ntry:\n    main()\n"
             "except SystemExit as e:\n"
             "    during = gc.get_threshold()\n    gc.collect()\n"
             "    print('exit', e.code, during == (STARTUP_ALLOCATIONS, *usual[1:]),\n"
             "          gc.get_threshold() == usual)\n")
    done = subprocess.run([sys.executable, "-c", probe, str(RECORDED)], capture_output=True,
                          text=True, check=True, cwd=ROOT, timeout=120)
    plain = subprocess.run([sys.executable, "-c", PROBE, json.dumps([["replay", str(RECORDED)]])],
                           capture_output=True, text=True, check=True, cwd=ROOT, timeout=120)
    assert done.stdout.rstrip().endswith("exit 0 True True"), done.stdout
    assert done.stdout.startswith("OK ")
    assert json.loads(plain.stdout)["codes"][0][1] in done.stdout


def game_packages(game: str) -> set[str]:
    """The packages of a game in every layer (`engine.princes`, `notation.princes`,
    `pbem.princes`), from the entry points that register it."""
    return {".".join(ep.module.split(".")[:2]) for group in ("pbem.games", "pbem.grammars",
                                                             "pbem.presenters", "pbem.summaries")
            for ep in entry_points(group=group) if ep.name == game}


def within(modules: set[str], packages: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(f"{p}.") for p in packages))


@pytest.mark.parametrize("game", sorted(LOGS))
def test_a_log_tool_loads_no_other_game(game: str) -> None:
    """`replay`, `verify` and `show` of a log load its game's modules and no other
    game's (a game not the default one included), and `replay` and `verify` no views."""
    recorded, exported = LOGS[game]
    others = set().union(*(game_packages(g) for g in LOGS if g != game))
    own = game_packages(game)
    assert len(own) == 3 and len(others) == 3 * (len(LOGS) - 1), (own, others)
    codes, modules = run_cli(["replay", str(recorded)], ["verify", str(exported)])
    assert [c[0] for c in codes] == [0, 0], codes  # verify: 0 only if everything holds
    assert within(modules, others) == []
    assert {f"{p}.definition" for p in own if p.startswith("engine.")} <= modules
    assert [m for m in within(modules, own) if m.endswith(".views")] == []
    codes, modules = run_cli(["show", str(recorded), "--at", "30"])
    assert codes[0][0] == 0 and codes[0][1], codes
    assert within(modules, others) == []


def test_the_help_page_lists_the_commands_without_building_them() -> None:
    """`pbem --help` lists every command by a stand-in (no parameters read from the
    functions' signatures): the same page as when every command is built."""
    import typer.main

    from pbem.cli import LazyCommands, app

    group = typer.main.get_command(app)
    ctx = typer.main._click.Context(group, info_name="pbem")
    lazy = group.get_help(ctx)
    commands = group.commands
    assert isinstance(commands, LazyCommands)
    assert all(isinstance(commands._entries[n], str) for n in commands)
    for name in group.list_commands(ctx):
        assert group.get_command(ctx, name) is not None
    assert not any(isinstance(commands._entries[n], str) for n in commands)
    built = group.get_help(ctx)
    assert lazy == built
    assert "replay" in lazy and "Verify finished games offline" in lazy
