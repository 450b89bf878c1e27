"""engine.frozen.quick_init: the same frozen dataclass, built without object.__setattr__."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from engine.frozen import quick_init
from engine.princes.events import EVENT_TYPES, AuctionWon


@quick_init
@dataclasses.dataclass(frozen=True, slots=True)
class Quick:
    seat: int
    name: str = "x"
    hidden: int = dataclasses.field(default=0, compare=False)


@dataclasses.dataclass(frozen=True, slots=True)
class Plain:
    seat: int
    name: str = "x"
    hidden: int = dataclasses.field(default=0, compare=False)


def test_builds_the_same_values_as_the_generated_init() -> None:
    for args, kwargs in [((1,), {}), ((1, "y"), {}), ((), {"seat": 2, "hidden": 5}),
                         ((3,), {"name": "z"})]:
        q, p = Quick(*args, **kwargs), Plain(*args, **kwargs)
        assert dataclasses.astuple(q) == dataclasses.astuple(p)
        assert repr(q).replace("Quick", "Plain") == repr(p)
    assert Quick(1, hidden=1) == Quick(1, hidden=2)
    assert hash(Quick(1, "a")) == hash(Quick(1, "a"))
    assert pickle.loads(pickle.dumps(AuctionWon(1, "jester", 300))) == AuctionWon(1, "jester",
                                                                                   300)


def test_the_value_stays_frozen_and_arguments_are_checked() -> None:
    q = Quick(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.seat = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick(1, "a", 2, 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick(1, nope=2)  # type: ignore[call-arg]


def test_every_event_is_built_quickly() -> None:
    for cls in EVENT_TYPES.values():
        assert cls.__init__.__code__.co_names == (), cls  # only closure setters


def test_refuses_what_it_would_get_wrong() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Later:
        seat: int

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        seats: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        seat: int

    for cls in (Later, Factory, NoSlots):
        with pytest.raises(TypeError):
            quick_init(cls)


def test_quick_replace_gives_what_dataclasses_replace_gives() -> None:
    from engine.frozen import quick_replace
    from engine.signorie.positions import opening
    from engine.signorie.state import State

    replace = quick_replace(Plain)
    one = Plain(1, "y", 7)
    for changes in [{}, {"seat": 2}, {"name": "z", "hidden": 3}]:
        got, want = replace(one, **changes), dataclasses.replace(one, **changes)
        assert got == want and type(got) is Plain and got.hidden == want.hidden
    assert one == Plain(1, "y", 7)  # the original is kept
    with pytest.raises(TypeError):
        replace(one, colour="red")
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(one).seat = 3  # type: ignore[misc]
    state = opening(["anna", "ben", "cleo"])
    assert quick_replace(State)(state, round=5) == dataclasses.replace(state, round=5)
    with pytest.raises(TypeError):
        quick_replace(int)
