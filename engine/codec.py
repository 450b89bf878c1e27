"""Events as data, for every game: canonical dicts, rebuilding, and redaction.

An event is a frozen dataclass with two class variables: `version` (of its shape)
and `private` (it carries hidden values); fields added later carry `ADDED` metadata
(see there). A private event names the fields that hold them in `secret` and the seat
that may see them in its `seat` field (an event with no `seat` shows them to nobody
until the game reveals them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

HIDDEN = "?"
"""What a hidden value looks like to those who may not see it."""

ADDED: Mapping[str, Any] = MappingProxyType({"added": True})
"""The metadata of a field added to an event type after games were stored
(`field(default=..., metadata=ADDED)`): `to_dict` leaves it out while it holds its
default, so every event stored before keeps its canonical form (and its hash)."""


def to_dict(event: Any) -> dict[str, Any]:
    """A JSON-ready dict of the event: its type name, `v` and its fields."""
    d: dict[str, Any] = {"type": type(event).__name__, "v": event.version}
    for name, added, default in _shape(type(event)):
        value = getattr(event, name)
        if added and value == default:
            continue
        d[name] = list(value) if isinstance(value, tuple) else value
    return d


_SHAPES: dict[type[Any], tuple[tuple[str, bool, Any], ...]] = {}


def _shape(cls: type[Any]) -> tuple[tuple[str, bool, Any], ...]:
    """(name, added, default) of each field of an event type (`ADDED`), made once."""
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = tuple(
            (f.name, bool(f.metadata.get("added")), f.default)
            for f in dataclasses.fields(cls))
    return shape


def from_dict(types: Mapping[str, type[Any]], d: Mapping[str, Any]) -> Any:
    """Rebuild an event from `to_dict` output, given the game's event types by name.

    Raises:
        KeyError: an unknown event type.
    """
    cls = types[d["type"]]
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name in d:
            value = d[f.name]
            kwargs[f.name] = tuple(value) if isinstance(value, list) else value
    return cls(**kwargs)


def types_by_name(types: Iterable[type[Any]]) -> dict[str, type[Any]]:
    """The event types of a game, by class name (what `to_dict` writes as `type`)."""
    return {cls.__name__: cls for cls in types}


def is_visible(event: Any, seat: int | None) -> bool:
    """True if `seat` (None: the public) may see every field of the event."""
    if not event.private:
        return True
    return seat is not None and getattr(event, "seat", None) == seat


def redact(event: Any, seat: int | None) -> Any:
    """The event as `seat` may see it: its secret fields become '?' (each item of a
    tuple, so that a count stays visible)."""
    if is_visible(event, seat):
        return event
    changes: dict[str, Any] = {}
    for name in event.secret:
        value = getattr(event, name)
        changes[name] = tuple(HIDDEN for _ in value) if isinstance(value, tuple) else HIDDEN
    return dataclasses.replace(event, **changes)
