"""The optional mypyc build (setup.py): which modules it compiles, and, in the run that
tests it (scripts/test.sh sets PBEM_EXPECT_COMPILED=1), that the tests beside this one
import those compiled modules and not the source tree's Python files."""

from __future__ import annotations

import ast
import copy
import dataclasses
import importlib
import importlib.machinery
import inspect
import os
import pickle
import sys
import types
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def compiled_modules() -> list[str]:
    """The dotted names of setup.py's COMPILED files."""
    tree = ast.parse((ROOT / "setup.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            files: list[str] = ast.literal_eval(node.value)
            return [f.removesuffix(".py").replace("/", ".") for f in files]
    raise AssertionError("setup.py has no COMPILED list")


def test_every_compiled_module_is_a_source_file() -> None:
    names = compiled_modules()
    assert names and len(set(names)) == len(names)
    for name in names:
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), name


def _imports(name: str) -> set[str]:
    """The modules the source of module `name` imports (anywhere in it: mypy, which
    mypyc runs, reads every import, in a function or under TYPE_CHECKING too)."""
    path = ROOT / (name.replace(".", "/") + ".py")
    if not path.is_file():
        path = ROOT / name.replace(".", "/") / "__init__.py"
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            module = ".".join(p for p in (base if node.level else "", node.module or "") if p)
            out.add(module)
            out.update(f"{module}.{a.name}" for a in node.names
                       if (ROOT / f"{module}.{a.name}".replace(".", "/")).with_suffix(".py")
                       .is_file())
    return out


STANDARD = sys.stdlib_module_names | {"_typeshed"}  # (mypy's stubs of the standard library)


def test_the_compiled_modules_need_only_the_standard_library() -> None:
    """mypyc type-checks every module a compiled module imports, from the source tree,
    in a build environment that need not have pbem's dependencies (the shell's mail,
    storage and i18n packages): so no compiled module may reach one, nor the shell's
    modules beyond those compiled (pbem.logs hands pbem.replay the words it needs)."""
    compiled = set(compiled_modules())
    own = ("engine", "notation", "pbem")
    seen: set[str] = set()
    todo = sorted(compiled)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for module in _imports(name):
            top = module.partition(".")[0]
            if top in own:
                parts = module.split(".")
                todo += [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
            else:
                assert top in STANDARD, f"{name} imports {module}"
    shell = {m for m in seen if m.startswith("pbem.")}
    assert shell <= compiled, f"compiled modules import {sorted(shell - compiled)}"
    assert "pbem.replay" in compiled


@pytest.mark.skipif(os.environ.get("PBEM_EXPECT_COMPILED") != "1",
                    reason="PBEM_EXPECT_COMPILED=1 is set by the compiled build's test run")
def test_the_compiled_modules_are_the_ones_imported() -> None:
    extensions = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in compiled_modules():
        path = importlib.import_module(name).__file__ or ""
        assert path.endswith(extensions), f"{name} is not compiled: {path}"
    for package in ("engine", "notation", "pbem"):
        path = Path(importlib.import_module(package).__file__ or "").resolve()
        assert not path.is_relative_to(ROOT / package), f"{package} is the source tree's"


SIGNORIE_VALUES = ("engine.signorie.state", ("State", "Board", "CityState", "Active", "Chance"))


@pytest.mark.skipif(os.environ.get("PBEM_EXPECT_COMPILED") != "1",
                    reason="PBEM_EXPECT_COMPILED=1 is set by the compiled build's test run")
def test_signorie_states_and_events_are_native_classes() -> None:
    """The compiled modules read Signorie's states and events as native classes (direct
    field access), not as Python objects: engine.frozen leaves them to mypyc."""
    from engine.consent import Reverted
    from engine.signorie import events, state

    classes = [getattr(state, name) for name in SIGNORIE_VALUES[1]]
    classes += [cls for cls in events.EVENT_TYPES.values() if cls is not Reverted]
    for cls in classes:
        assert "__mypyc_attrs__" in vars(cls), f"{cls.__name__} is no native class"
        assert set(cls.__mypyc_attrs__) >= {f.name for f in dataclasses.fields(cls)}
    for cls in classes:  # the values built natively, not through a Python __init__
        if dataclasses.fields(cls) and cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            assert not isinstance(vars(cls)["__init__"], types.FunctionType), cls.__name__



@pytest.mark.skipif(os.environ.get("PBEM_EXPECT_COMPILED") != "1",
                    reason="PBEM_EXPECT_COMPILED=1 is set by the compiled build's test run")
def test_compiled_values_are_defined_without_compiling_methods() -> None:
    """A compiled frozen value gets engine.frozen's methods over its field names, not
    the six that dataclasses.dataclass compiles for each class (some 0.45 ms a class
    when `pbem replay` starts: scripts/bench_startup.py)."""
    from engine import frozen
    from engine.signorie import events, state

    classes = [getattr(state, name) for name in SIGNORIE_VALUES[1]]
    classes += [cls for cls in events.EVENT_TYPES.values() if "__mypyc_attrs__" in vars(cls)]
    quick = 0
    for cls in classes:
        if not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            continue
        for method in ("__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
            code = inspect.unwrap(vars(cls)[method]).__code__
            assert code.co_filename != "<string>", (cls.__name__, method)  # exec'd source
        assert vars(cls)["__eq__"].__code__.co_filename == frozen.__file__
        quick += 1
    assert quick > 20

def _twin(cls: type) -> type:
    """`cls` as plain dataclasses.dataclass builds it (same fields, qualname)."""
    frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    twin = dataclasses.make_dataclass(
        cls.__name__,
        [(f.name, f.type, dataclasses.field(default=f.default, repr=f.repr,
                                            compare=f.compare))
         for f in dataclasses.fields(cls)],
        frozen=frozen, slots=True)
    twin.__qualname__ = cls.__qualname__
    return twin


def _as_twin(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _twin(type(value))(*(_as_twin(getattr(value, f.name))
                                    for f in dataclasses.fields(value)))
    if isinstance(value, tuple):
        return tuple(_as_twin(v) for v in value)
    return value


def test_signorie_values_keep_their_value_semantics() -> None:
    """In either build (pure Python, or compiled: native classes), Signorie's events
    and states are the values dataclasses would make: repr, equality, hash, frozen,
    copies and pickles equal to the original, the event codec's round trip."""
    from engine import codec
    from engine.registry import get_game
    from engine.selfplay import play_random
    from engine.signorie import events
    from pbem.snapshots import dumps

    playout = play_random(get_game("signorie"), 4, "compiled")
    values = [e for e in playout.events if type(e).__module__ == events.__name__]
    assert len({type(e) for e in values}) > 20
    for event in values:
        twin = _as_twin(event)
        assert repr(event) == repr(twin)
        assert hash(event) == hash(twin)
        assert event == type(event)(**{f.name: getattr(event, f.name)
                                       for f in dataclasses.fields(event)})
        assert copy.copy(event) == event and copy.deepcopy(event) == event
        assert pickle.loads(pickle.dumps(event)) == event
        assert events.from_dict(codec.to_dict(event)) == event
        for f in dataclasses.fields(event)[:1]:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(event, f.name, getattr(event, f.name))
    assert pickle.loads(pickle.dumps(values)) == values
    commands = [c for _, c in playout.moves if dataclasses.is_dataclass(c)]
    assert len({type(c) for c in commands}) > 8
    for command in commands:
        twin = _as_twin(command)
        assert repr(command) == repr(twin) and hash(command) == hash(twin)
        assert command == type(command)(**{f.name: getattr(command, f.name)
                                           for f in dataclasses.fields(command)})
        assert pickle.loads(pickle.dumps(command)) == command
    final = playout.state
    assert pickle.loads(dumps(final)) == final  # as the moderator's snapshots keep it
    assert repr(final.players) == repr(_as_twin(final.players))
    assert final.players[0] != dataclasses.replace(final.players[0], points=-1)
    for city in final.cities:
        assert repr(city) == repr(_as_twin(city)) and hash(city) == hash(_as_twin(city))
        assert pickle.loads(pickle.dumps(city)) == city
