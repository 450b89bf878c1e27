"""Signorie's presenter on positions built by hand (`engine.signorie.setup.state_for`):
every event has its own words, the legal commands are grouped per die with the reader's
cost, and the status mail shows what a player plays from, in both parts, readable on a
phone (no wide line in the text part; the HTML's board is narrow tables)."""

from __future__ import annotations

import dataclasses
import re
import typing

import pytest

from engine.consent import Reverted
from engine.signorie import events as ev
from engine.signorie.commands import (
    Activate,
    Done,
    Florins,
    Hire,
    Marry,
    Mission,
    Pass,
    Reward,
    Step,
    Take,
    Task,
    Tracks,
    Undo,
)
from engine.signorie.state import State, replace, replace_board
from engine.signorie.views import view_for
from pbem.outbound import Renderer, status_context
from pbem.presenter import Presenter
from pbem.registry import presenter_for

from .signorie_position import NAMES, position

PRESENTER = presenter_for("signorie")




def test_the_presenter_is_registered_with_every_member() -> None:
    members = [*Presenter.__annotations__,
               *(n for n, v in vars(Presenter).items() if callable(v) and not n.startswith("_"))]
    for member in members:
        assert getattr(PRESENTER, member, None) is not None, member
    assert PRESENTER.name == "signorie" and PRESENTER.id_prefix == "sig"
    assert PRESENTER.private_news(ev.AllianceDrawn(0, "military", "este3")) is False


def _sample(cls: type) -> object:
    """An event of `cls` with plain values in every field."""
    values: dict[str, object] = {}
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        hint = str(hints[f.name])
        if f.name in ("seat", "player"):
            values[f.name] = 0
        elif f.name in ("order", "rewarded", "winners", "careers", "rows"):
            values[f.name] = (0, 1)
        elif f.name == "players":
            values[f.name] = NAMES
        elif f.name == "revealed":
            values[f.name] = ((0, "military", "sforza5"),)
        elif f.name == "tiles" and "tuple[str, str, str]" in hint:
            values[f.name] = (("milano", "marriage", "este3"),)
        elif f.name == "dice":
            values[f.name] = (("yellow", (1, 4)),)
        elif "tuple[str" in hint:
            values[f.name] = ("political", "florins")
        elif "tuple[int" in hint:
            values[f.name] = (2, 5)
        elif hint == "<class 'bool'>" or hint == "bool":
            values[f.name] = False
        elif "int" in hint:
            values[f.name] = 2
        else:
            values[f.name] = "military" if f.name in ("row", "career", "track") else "x"
    return cls(**values)


@pytest.mark.parametrize("name", sorted(ev.EVENT_TYPES))
def test_every_event_has_its_own_words(name: str) -> None:
    cls = ev.EVENT_TYPES[name]
    event = Reverted(0, 3) if cls is Reverted else _sample(cls)
    for viewer in (None, 0, 1):
        line = PRESENTER.describe_event(event, NAMES, viewer)
        assert line and line != name, (name, line)
        first, *more = line.split("\n")  # a long line goes on in indented lines
        assert all(len(ln) <= 74 for ln in [first, *more]), (name, line)
        assert all(ln.startswith("    ") for ln in more), (name, line)
    if "seat" in {f.name for f in dataclasses.fields(cls)}:
        assert re.match(r"^(you|your)\b", PRESENTER.describe_event(event, NAMES, 0)), name


def test_a_face_down_draw_says_only_where_the_tile_went() -> None:
    drawn = ev.AllianceDrawn(0, "military", "sforza5")
    for viewer in (None, 0, 1):
        line = PRESENTER.describe_event(drawn, NAMES, viewer)
        assert "sforza5" not in line and "face-down alliance tile beside the military row" \
            in line
    assert PRESENTER.describe_event(drawn, NAMES, 1) == \
        "anna took a face-down alliance tile beside the military row"
    ended = _sample(ev.GameEnded)
    assert "sforza5" in PRESENTER.describe_event(ended, NAMES, 1)  # the final scoring


def test_legal_commands_are_grouped_per_die_with_the_readers_cost() -> None:
    # a die with its cost, then each kind of action (a line per task tile), in short
    # where the choices can be listed, else how many and one command written out
    view = view_for(position(), 0)
    cmds = [Take("yellow", 4, Hire(1)), Take("yellow", 4, Hire(2)), Take("yellow", 4, Hire(3)),
            Take("yellow", 4, Task("florins", 1)), Take("yellow", 4, Task("florins", 2)),
            Take("yellow", 4, Florins()),
            Take("grey", 3, Tracks((Step("initiative", 0, 1),))),
            Take("grey", 3, Tracks((Step("military", 0, 1),))),
            Take("grey", 3, Mission("military", 6, "roma")),
            Take("red", 2, Marry("firenze", 1)), Take("red", 2, Marry("firenze", 2)),
            Take("red", 2, Marry("roma", 2)),
            Take("turquoise", 5, Task("military", 1, Tracks((Step("military", 0, 2),)))),
            Take("turquoise", 5, Task("military", 2, Tracks((Step("military", 0, 4),)))),
            Pass(), Undo()]
    lines = PRESENTER.summarise_commands(cmds, view)
    assert lines == [
        "take yellow 4 (free):", "  hire turquoise 1-3", "  task florins 1-2", "  florins",
        "take grey 3 (1 fl):", "  tracks, e.g. take grey 3 tracks ini",
        "  mission military 6 to roma",
        "take red 2 (free): marry firenze 1-2, roma 2",
        "take turquoise 5:", "  task military 1-2, e.g. take turquoise 5 task military 1 mil+2",
        "pass", "undo"]
    alike = [Take("grey", value, action) for value in (3, 6)
             for action in (Hire(1), Tracks((Step("military", 0, 1),)))]
    assert PRESENTER.summarise_commands(alike, view) == [
        "take grey 3 (1 fl) or 6 (free):", "  hire purple 1", "  tracks mil+"]
    helper = PRESENTER.summarise_commands(
        [Activate(1, Tracks((Step("political", 0, 1),))), Activate(2), Done()], view)
    assert helper == ["helper 1: tracks pol+", "helper 2", "done"]
    reward = PRESENTER.summarise_commands(
        [Reward("bonus", Mission("military", 6, "roma")), Reward("florins")], view)
    assert reward == ["reward bonus: mission military 6 to roma", "reward florins"]


def _render(state: State, seat: int, legal: list[str]) -> tuple[str, str]:
    view = view_for(state, seat)
    ctx = status_context(view, game_id="sig-3", changes=["bas took the red 2, free"], echo=(),
                         legal=legal, deadline=None, tz="UTC", presenter=PRESENTER)
    return Renderer().render("status", ctx, PRESENTER.template_dir)


def test_the_status_mail_shows_what_a_player_plays_from() -> None:
    state = position()
    text, html = _render(state, 0, ["take yellow 4 (free): hire turquoise 1-3", "pass"])
    assert text.startswith("sig-3 — Round 3 of 7, actions — your turn — v1")
    for shown in (
        "It is your turn (action phase): take a die or pass.",
        "Your dice sum 5, your reward threshold 13.",
        "yellow: 1 (free), 4 (free)",  # the dice on offer with the reader's cost
        "grey: 3 (1 fl), 6 (free)",
        "yellow: florins (female), threshold (male)",  # tasks: tile and field sex
        "figures: 4m 3f available, 8m 8f in the General Supply",
        "dice: red 3, purple 2 (sum 5, threshold 13)",
        "sons married: 1 of 4",
        "* yellow 1: +3 florins",  # a hired helper and its effect
        "yellow 2 (3 fl): 1 figure from your General Supply",  # a space to hire
        "political: este3; plan sforza sforza medici este",
        "military: 1 face-down; plan",
        "political:\n    1 (1 VP, r1): anna\n    3 (3 VP, r2): bas\n  ecclesiastical: no",
        "initiative, top of the stack first:\n    anna 0, bas 0, chris 0",
        "anna: pol este3; mil +1?",
        "row: mission extra [progress-careers] figures-m helper helpers cities-m",
        "Turn order:\n  bas, anna, chris",
        "Your commands now:\n  take yellow 4 (free): hire turquoise 1-3\n  pass",
        "bas took the red 2, free",
    ):
        assert shown in text, shown
    assert "sforza5" not in text and "sforza5" not in html  # the face-down tile
    ours = text.partition("\n-- \n")[0]  # the shared footer aside
    assert max(len(line) for line in ours.splitlines()) <= 78
    # the board's tables (pbem.signorie.board_html) with inline styles only
    assert "<table" in html and "<style" not in html and "class=" not in html
    assert "max-width" in html and "<h3" in html
    assert "Dice on offer (your cost)" in html and "take yellow 4 (free)" in html


def test_the_text_board_and_the_referee() -> None:
    state = position()
    public = PRESENTER.render_text(view_for(state, None))
    assert public.startswith("Round 3 of 7, action phase\nWaiting for anna: take a die or pass")
    assert "Dice on offer:\n  yellow: 1, 4" in public and "sforza5" not in public
    full = PRESENTER.full_view(state)
    text = PRESENTER.render_text(full)
    assert "Face-down alliance tiles (referee only):\n  anna: sforza5 beside the military row" \
        in text
    data = PRESENTER.view_to_json(full)
    assert data["face_down"] == [["anna", "military", "sforza5"]]
    assert "sforza5" not in repr(PRESENTER.view_to_json(view_for(state, 0)))
    assert PRESENTER.headline(view_for(state, 1), "bas") == "Round 3 of 7, actions — anna to act"


def test_the_game_over_mail_shows_the_final_scores() -> None:
    state = replace(position(), phase="over", winners=(1,), turn=None)
    state = replace_board(replace_board(state, 1, points=40), 0, points=33)
    text, html = _render(state, 0, [])
    assert text.startswith("sig-3 — game over: bas wins — v1")
    assert "Final scores:\n  bas: 40 VP (won)\n  anna: 33 VP\n  chris: 0 VP" in text
    assert "Dice on offer" not in text and "How to reply" not in text
