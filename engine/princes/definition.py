"""PLACEHOLDER (branch h-store) for main's `engine.princes.definition`: only the
registry's view of the game (name, title, variants), so that the entry points of
`pbem.games` and `pbem.default` resolve until the full `Game` lands on main, which
replaces this file whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from engine import __version__
from engine.protocol import Option, Variant

_MONEY = Option("money_open", "Money", ("hidden", "open"),
                "whether everyone sees everyone's florins")


@dataclass(frozen=True)
class _Princes:
    name: str = "princes-of-florence"
    title: str = "The Princes of Florence"
    version: str = __version__
    variants: MappingProxyType[str, Variant] = field(default_factory=lambda: MappingProxyType(
        {"standard": Variant("standard", 3, 5, (_MONEY,))}))


GAME = _Princes()
