"""The registered grammars, by game name (entry-point group `pbem.grammars`).

A built-in game's grammar is an entry point in `pyproject.toml`, so adding a game
changes no generic module; tests register one of their own with
`GRAMMARS.register`. The default game (a log without a [Game] tag) is the engine's
(`engine.registry.default_name`).
"""

from __future__ import annotations

from engine.registry import Registry, UnknownGameError, default_name

from .grammar import Grammar

__all__ = ["GRAMMARS", "Grammar", "UnknownGameError", "grammar_for"]


def _grammar_name(grammar: Grammar) -> str:
    return grammar.name


GRAMMARS: Registry[Grammar] = Registry("pbem.grammars", _grammar_name)
"""Every registered game's grammar."""


def grammar_for(name: str | None = None) -> Grammar:
    """The grammar of the game called `name` (None: the default game).

    Raises:
        UnknownGameError: no grammar of that name is registered.
        GameError: `name` is None and the installed package names no default game.
    """
    return GRAMMARS.get(name or default_name())
