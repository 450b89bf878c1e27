"""The registered games' presenters, by name (entry-point group `pbem.presenters`;
see `engine.registry`)."""

from __future__ import annotations

from engine.registry import Registry, default_name

from .presenter import Presenter


def _name(p: Presenter) -> str:
    return p.name


PRESENTERS: Registry[Presenter] = Registry("pbem.presenters", _name)
"""The words of every registered game (`pbem.presenter.Presenter`)."""


def presenter_for(name: str | None = None) -> Presenter:
    """The presenter of the game called `name` (None: the default game).

    Raises:
        UnknownGameError: no presenter of that name is registered.
    """
    return PRESENTERS.get(name or default_name())
