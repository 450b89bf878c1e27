"""PLACEHOLDER, to be replaced by main's engine/princes/definition.py (the Princes
`engine.protocol.Game`): only the name, which the entry points `pbem.default` and
`pbem.games` give to `engine.registry.default_name` and so to `notation.registry`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class _Placeholder:
    name: str = "princes-of-florence"


GAME = _Placeholder()
