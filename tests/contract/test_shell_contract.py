"""The shell's contract, over every registered game with a presenter (the test games
included): every view renders through the game's templates, and no mail shows a seat
what redaction hides from it; and proof that its checks fail for presenters that
break it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.registry import GAMES
from pbem.registry import PRESENTERS
from tests.games.highcard import GAME as HIGH_CARD
from tests.games.highcard.events import Event, HandDealt
from tests.games.highcard.presenter import HighCardPresenter
from tests.games.highcard.views import View

from .checks import Playout, play
from .shell_checks import Mail, check_mails_hide, check_mails_render, mails

SEEDS = 2  # random games per table
PAIRS = [(game, PRESENTERS.get(game.name)) for game in GAMES.all()
         if game.name in PRESENTERS.names()]
TABLES = [
    pytest.param(game, presenter, variant, n, id=f"{game.name}-{variant.name}-{n}")
    for game, presenter in PAIRS
    for variant in game.variants.values()
    for n in range(variant.min_players, variant.max_players + 1)
]


def test_the_games_with_presenters_are_checked() -> None:
    assert {g.name for g, _ in PAIRS} >= {"high-card", "princes-of-florence"}


@pytest.mark.parametrize(("game", "presenter", "variant", "n"), TABLES)
def test_every_view_renders_and_hides_what_redaction_hides(game: Any, presenter: Any,
                                                           variant: Any, n: int) -> None:
    for seed in range(SEEDS):
        p = play(game, variant, n, seed)
        rendered = mails(p, presenter)
        check_mails_render(p, presenter, rendered)
        check_mails_hide(p, presenter, rendered)


# --------------------------------------------------------------------------- broken ones


@cache
def _one_game() -> Playout:
    variant = HIGH_CARD.variants["standard"]
    return play(HIGH_CARD, variant, 3, 0)


def _fails(presenter: Any, match: str) -> None:
    p = _one_game()
    with pytest.raises(AssertionError, match=match):
        rendered: Sequence[Mail] = mails(p, presenter)
        check_mails_render(p, presenter, rendered)
        check_mails_hide(p, presenter, rendered)


def test_the_toy_passes() -> None:
    p = _one_game()
    rendered = mails(p, HighCardPresenter())
    check_mails_render(p, HighCardPresenter(), rendered)
    check_mails_hide(p, HighCardPresenter(), rendered)


class _Gossip(HighCardPresenter):
    """Remembers every hand it describes to its owner, and tells everyone."""

    def __init__(self) -> None:
        self.heard: dict[int, tuple[str, ...]] = {}

    def describe_event(self, event: Event, names: Sequence[str], viewer: int | None) -> str:
        if isinstance(event, HandDealt) and event.seat == viewer:
            self.heard[event.seat] = event.cards
        line = super().describe_event(event, names, viewer)
        gossip = "; ".join(f"{names[s]} holds {' '.join(c)}" for s, c in self.heard.items()
                           if s != viewer)
        return f"{line} ({gossip})" if gossip else line


def test_a_presenter_that_tells_what_it_heard_fails() -> None:
    _fails(_Gossip(), "shows hidden")


class _Unfinished(HighCardPresenter):
    """Leaves out a name its status template shows."""

    def status_context(self, view: View) -> dict[str, Any]:
        ctx = super().status_context(view)
        del ctx["deck"]
        return ctx


def test_a_context_short_of_a_template_name_fails() -> None:
    _fails(_Unfinished(), "status for seat 0 at v1 does not render: UndefinedError")


class _Homeless(HighCardPresenter):
    template_dir = str(Path(__file__).parent / "no-such-folder")


def test_a_presenter_without_its_templates_fails() -> None:
    _fails(_Homeless(), "does not render: TemplateNotFound")
