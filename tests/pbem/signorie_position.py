"""A Signorie position for the status-mail tests: round 3, anna to act, with dice on
offer, tasks laid, a helper hired, an open and a face-down alliance tile beside her rows
and figures on the tracks."""

from __future__ import annotations

from engine.signorie.setup import state_for
from engine.signorie.state import State, replace, replace_board

NAMES = ("anna", "bas", "chris")


def position() -> State:
    """Round 3, anna to act: dice on offer, tasks laid, a helper hired, an open tile
    and a face-down one beside her rows, figures on the tracks."""
    s = state_for(NAMES)
    s = replace(s, phase="actions", round=3, order=(1, 0, 2), turn=0,
                dice=(("yellow", (1, 4)), ("red", (2,)), ("grey", (3, 6))),
                tasks=("florins", "threshold", "marriage", "mission", "political", "military",
                       "initiative", "figures", "alliance", "ecclesiastical"),
                reward_row=("mission", "extra", "progress-careers", "figures-m", "helper",
                            "helpers", "cities-m"),
                careers=(((0, 1), (1, 3)), (), ((0, 6),)))
    return replace_board(s, 0, dice=(("red", 3), ("purple", 2)), helpers=(("yellow", 1),),
                         sons=1, tiles=(("political", "este3"),), face_down=("military",),
                         hidden=("sforza5",))
