"""`pbem.cli_values` converts every command-line value of every `pbem` command as
typer's own (pydantic) conversion does: the same value, or the same error message."""

from __future__ import annotations

from typing import Any

import pytest
import typer.main
from typer._coercion import build_runtime_param
from typer._param_types import coerce_cli_path
from typer.core import _TyperParameter

from pbem.cli import app
from pbem.cli_values import PlainParam

SAMPLES: dict[str, list[Any]] = {
    "str": ["anna", "", " two words ", "ünïcode", "-"],
    "int": ["0", "3", "5", "20", "21", "-1", "007", "+3", " 4", "1_0", "1.5", "abc", "",
            "99999999999999999999999", 4, 0, -2, True],
    "float": ["1", "1.5", "-2", "x"],
    "Path": ["a.log", "-", "/no/such/dir/x.log", "", "dir/../b.log"],
}


def _params() -> list[tuple[str, _TyperParameter]]:
    group = typer.main.get_command(app)
    found: list[tuple[str, _TyperParameter]] = []

    def walk(command: Any, prefix: str) -> None:
        for param in command.params:
            # flags (bool) are never converted: they are not compared
            if isinstance(param, _TyperParameter) and param.type_descriptor.annotation is not bool:
                found.append((f"{prefix}{command.name} {param.name}", param))
        for sub in getattr(command, "commands", {}).values():
            walk(sub, f"{prefix}{command.name} ")

    for command in group.commands.values():
        walk(command, "")
    return found


def _outcome(convert: Any, value: Any, param: _TyperParameter, ctx: Any) -> tuple[str, Any]:
    try:
        return "value", convert._coerce_value(value, param=param, ctx=ctx)
    except typer.BadParameter as e:
        return "error", e.format_message()


def _values(annotation: Any) -> list[Any]:
    item = getattr(annotation, "__args__", (annotation,))[0]
    single = SAMPLES.get(getattr(item, "__name__", ""), SAMPLES["str"])
    if getattr(annotation, "__origin__", None) is list:
        return [[v] for v in single] + [single[:2], list(reversed(single))]
    return single


@pytest.mark.parametrize("name,param", _params(), ids=lambda v: v if isinstance(v, str) else "")
def test_plain_conversion_is_typers(name: str, param: _TyperParameter) -> None:
    descriptor = param.type_descriptor
    ctx = typer.main._click.Context(typer.main.get_command(app))
    plain = PlainParam(descriptor.parameter_info, descriptor.annotation)
    typers = build_runtime_param(descriptor)
    for value in _values(descriptor.annotation):
        assert _outcome(plain, value, param, ctx) == _outcome(typers, value, param, ctx), \
            (name, value)


def test_the_app_converts_plainly() -> None:
    """Every parameter of the log tools gets the plain conversion when it is first used."""
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["selfplay", "--seed", "x", "-n", "21"])
    assert result.exit_code == 2 and "less than or equal to 20" in result.output
    group = typer.main.get_command(app)
    ctx = typer.main._click.Context(group)
    replay = group.get_command(ctx, "replay")
    assert replay is not None
    assert all(isinstance(p.get_runtime_param(), PlainParam) for p in replay.params
               if isinstance(p, _TyperParameter))
    assert coerce_cli_path  # the typer names pbem.cli_values relies on exist
