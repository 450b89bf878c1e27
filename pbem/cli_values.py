"""Command-line values converted without pydantic.

typer (from 0.29 on) converts every value but a flag through a pydantic TypeAdapter,
and importing pydantic costs more than typer itself: a log tool would start twice as
slow for it. `convert_plainly` gives each parameter of a command tree a converter for
the plain types the commands use (str, int with bounds, Path, lists of them) that does
what typer's adapter does for a value it accepts; any other value, and any other type,
goes to typer's own converter, so that every error message stays typer's.

This uses two names typer keeps private (`_TyperParameter._runtime_param` and
`typer._coercion.RuntimeParam`); if a later typer lacks them, nothing is changed and
the values are converted by typer as before (tests/logs/test_startup.py then notices
pydantic among the modules of a log tool).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

try:
    from typer._coercion import RuntimeParam, build_runtime_param, resolve_type_descriptor
    from typer._param_types import coerce_cli_path
    from typer.core import _TyperParameter
except ImportError:  # another typer: it converts every value itself
    RuntimeParam = None  # type: ignore[assignment,misc]

INTEGER = re.compile(r"-?[0-9]{1,30}")


class _Typers:
    """The value that is not plain: typer's own conversion decides (and words the error)."""


NOT_PLAIN = _Typers()


def plain_value(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
    """The value as typer would convert it, or NOT_PLAIN when typer must decide."""
    if annotation is str and info.parser is None:
        return value if isinstance(value, str) else NOT_PLAIN
    if annotation is int and info.parser is None and not info.clamp:
        if isinstance(value, str) and INTEGER.fullmatch(value):
            number = int(value)
        elif type(value) is int:
            number = value
        else:
            return NOT_PLAIN
        if ((info.min is not None and number < info.min)
                or (info.max is not None and number > info.max)):
            return NOT_PLAIN
        return number
    if (annotation is Path and info.parser is None and info.path_type is None
            and isinstance(value, str | Path) and str(value)):
        return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
    return NOT_PLAIN


if RuntimeParam is not None:

    class PlainParam(RuntimeParam):
        """A parameter's conversion: plain values here, any other by typer.

        It adds no field: typer's frozen dataclass gives it its fields and methods (a
        dataclass of its own would cost every command's start half a millisecond)."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            item = getattr(self.annotation, "__args__", (None,))[0]
            if getattr(self.annotation, "__origin__", None) is list and item is not None:
                if isinstance(value, list | tuple):
                    values = [plain_value(item, self.parameter_info, v, param, ctx)
                              for v in value]
                    if not any(v is NOT_PLAIN for v in values):
                        return values
            else:
                plain = plain_value(self.annotation, self.parameter_info, value, param, ctx)
                if plain is not NOT_PLAIN:
                    return plain
            typers = build_runtime_param(resolve_type_descriptor(self.annotation,
                                                                 self.parameter_info))
            return typers._coerce_value(value, param=param, ctx=ctx)


def convert_plainly(target: Any, ctx: Any = None) -> None:
    """Give the plain conversion to a parameter, or to the parameters of a command and
    its subcommands (with `ctx`, the parent's context: also to its --help option, which
    the command makes when first asked)."""
    if RuntimeParam is None:
        return
    if isinstance(target, _TyperParameter):
        if target._runtime_param is None and target.type_descriptor.file_annotation is None:
            descriptor = target.type_descriptor
            target._runtime_param = PlainParam(descriptor.parameter_info, descriptor.annotation)
        return
    for param in getattr(target, "params", ()):
        convert_plainly(param)
    if ctx is not None and "help_option_names" not in (target.context_settings or {}):
        option = target.get_help_option(ctx)
        if option is not None:
            convert_plainly(option)
    for sub in getattr(target, "commands", {}).values():
        convert_plainly(sub, ctx)
