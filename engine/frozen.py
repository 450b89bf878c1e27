"""Frozen slotted dataclasses that are quick to build.

A frozen dataclass's generated `__init__` sets each field through
`object.__setattr__`, which costs about as much as the rest of making the object.
`quick_init` gives such a class an `__init__` that sets its slots through their
descriptors instead: the same parameters and defaults, the same object (still
frozen: only `__init__` writes the slots). Replay builds hundreds of events per
game, so this matters there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give a frozen slotted dataclass (fields with plain defaults only, no
    `__post_init__`) a faster `__init__`; returns the class (a decorator, applied
    after `@dataclass`)."""
    if not is_dataclass(cls) or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__} is no slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which quick_init would skip")
    names = [f.name for f in fields(cls)]
    scope: dict[str, Any] = {}
    params: list[str] = []
    for f in fields(cls):
        if f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name} has a default factory")
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name} is not set by __init__")
        scope[f"set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            scope[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
    body = "".join(f"        set_{n}(self, {n})\n" for n in names) or "        pass\n"
    source = (f"def make({', '.join(scope)}):\n"
              f"    def __init__(self, {', '.join(params)}):\n{body}"
              "    return __init__\n")
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # noqa: S102 - the source is made above from field names
    init = namespace["make"](**scope)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    type.__setattr__(cls, "__init__", init)
    return cls


_KEEP: Any = object()
"""A default no caller passes: "keep this field's value" (`quick_replace`)."""


def quick_replace(cls: type[T]) -> Callable[..., T]:
    """A function `replace(obj, **changes)` for a frozen slotted dataclass (fields
    with `init`, no `__post_init__`): `dataclasses.replace` for its instances, built
    through the slots' descriptors without looking up the fields on each call. An
    unknown field is a TypeError, as there. Its instances only: a subclass's object
    would come back as `cls`."""
    if not is_dataclass(cls) or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__} is no slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which quick_replace would skip")
    names = [f.name for f in fields(cls)]
    for f in fields(cls):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name} is not set by __init__")
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls, "KEEP": _KEEP}
    for n in names:
        scope[f"set_{n}"] = getattr(cls, n).__set__
    params = ", ".join(f"{n}=KEEP" for n in names)
    body = "".join(f"        set_{n}(out, obj.{n} if {n} is KEEP else {n})\n" for n in names)
    source = (f"def make({', '.join(scope)}):\n"
              f"    def replace(obj, /{', *, ' + params if names else ''}):\n"
              f"        out = new(cls)\n{body}        return out\n"
              "    return replace\n")
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # noqa: S102 - the source is made above from field names
    fn: Callable[..., T] = namespace["make"](**scope)
    fn.__qualname__ = fn.__name__ = f"replace_{cls.__name__}"
    fn.__module__ = cls.__module__
    return fn
