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


def test_sets_every_field_of_a_class_of_many() -> None:
    many = dataclasses.make_dataclass("Many", [f"f{i}" for i in range(25)], frozen=True,
                                      slots=True)
    plain = many(*range(25))
    quick = quick_init(dataclasses.make_dataclass("Many", [f"f{i}" for i in range(25)],
                                                  frozen=True, slots=True))
    assert repr(quick(*range(25))) == repr(plain)
    assert repr(quick(**{f"f{i}": i for i in range(25)})) == repr(plain)


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
    from engine.consent import Reverted
    from engine.signorie import events

    signorie = [cls for cls in events.EVENT_TYPES.values()  # the compiled build's are native
                if cls is not Reverted and "__mypyc_attrs__" not in vars(cls)]
    for cls in [*EVENT_TYPES.values(), *signorie]:
        assert cls.__init__.__code__.co_names == (), cls  # only closure setters


def test_a_frozen_class_s_own_init_is_the_compiled_build_s() -> None:
    """A frozen class's own `__init__` (setting its fields, for mypyc's native
    constructor) cannot run in Python: the class gets the quick one; one that does not
    take the fields as the generated one would is refused."""
    from engine.frozen import dataclass

    @dataclass(frozen=True, slots=True)
    class Own:
        seat: int
        name: str = "x"

        def __init__(self, seat: int, name: str = "x") -> None:
            self.seat = seat  # type: ignore[misc]
            self.name = name  # type: ignore[misc]

    assert Own(1) == Own(seat=1, name="x") and repr(Own(2, "y")).endswith("Own(seat=2, name='y')")
    assert Own.__init__.__code__.co_names == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        Own(1).seat = 2  # type: ignore[misc]
    for wrong in ("def __init__(self, name, seat=0): pass",
                  "def __init__(self, seat, name='y'): pass",
                  "def __init__(self, seat): pass"):
        namespace: dict[str, object] = {}
        exec(wrong, namespace)  # noqa: S102
        with pytest.raises(TypeError, match="does not take its fields"):
            dataclass(frozen=True, slots=True)(type("Wrong", (), {
                "__annotations__": {"seat": "int", "name": "str"}, "name": "x",
                "__init__": namespace["__init__"]}))


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


# engine.frozen.dataclass: dataclasses.dataclass, quicker to define a plain frozen class


def _both(body: dict[str, object], annotations: dict[str, str],
          name: str = "Value") -> tuple[type, type]:
    """The class `name` with these annotations and attributes, built by
    engine.frozen.dataclass and by dataclasses.dataclass (frozen, slotted)."""
    from engine.frozen import dataclass

    def make() -> type:
        return type(name, (), {"__annotations__": dict(annotations), "__module__": __name__,
                               "__qualname__": f"outer.{name}", **body})

    return (dataclass(frozen=True, slots=True)(make()),
            dataclasses.dataclass(frozen=True, slots=True)(make()))


def _fields(cls: type) -> list[tuple[object, ...]]:
    return [(f.name, f.type, f.default, f.init, f.repr, f.compare, f.hash, f.kw_only,
             dict(f.metadata)) for f in dataclasses.fields(cls)]


def assert_alike(quick: type, plain: type, *values: tuple[object, ...]) -> None:
    """Everything dataclasses makes of a class is the same for the two classes, and
    for instances made of `values` (argument tuples)."""
    import copy
    import inspect

    assert _fields(quick) == _fields(plain)
    assert quick.__slots__ == plain.__slots__  # type: ignore[attr-defined]
    assert quick.__match_args__ == plain.__match_args__  # type: ignore[attr-defined]
    assert quick.__doc__ == plain.__doc__
    assert str(inspect.signature(quick)) == str(inspect.signature(plain))
    assert repr(quick.__dataclass_params__) == repr(  # type: ignore[attr-defined]
        plain.__dataclass_params__)  # type: ignore[attr-defined]
    assert quick.__init__.quick and not hasattr(plain.__init__, "quick")  # type: ignore[misc]
    q = [quick(*v) for v in values]
    p = [plain(*v) for v in values]
    for i, (a, b) in enumerate(zip(q, p, strict=True)):
        assert repr(a) == repr(b)
        assert hash(a) == hash(b)
        assert dataclasses.astuple(a) == dataclasses.astuple(b)
        assert [a == c for c in q] == [b == c for c in p]
        assert [a != c for c in q] == [b != c for c in p]
        assert (a == 1, a != "x") == (b == 1, b != "x")
        for twin in (copy.copy(a), copy.deepcopy(a)):  # pickled: an engine class, below
            assert type(twin) is quick and twin == a and repr(twin) == repr(a)
        for field in dataclasses.fields(quick):
            with pytest.raises(dataclasses.FrozenInstanceError) as set_error:
                setattr(a, field.name, 1)
            with pytest.raises(dataclasses.FrozenInstanceError) as plain_set_error:
                setattr(b, field.name, 1)
            assert str(set_error.value) == str(plain_set_error.value)
            with pytest.raises(dataclasses.FrozenInstanceError) as del_error:
                delattr(a, field.name)
            assert str(del_error.value) == "cannot delete field " + repr(field.name)
            assert dataclasses.replace(a, **{field.name: values[-1 - i][0]}) == quick(
                *((values[-1 - i][0] if f.name == field.name else getattr(a, f.name))
                  for f in dataclasses.fields(quick)))


def test_dataclass_builds_the_class_dataclasses_builds() -> None:
    assert_alike(*_both({"__doc__": "Documented."}, {}), (), ())
    assert_alike(*_both({}, {"seat": "int"}), (1,), (2,), (1,))
    assert_alike(*_both({"name": "x", "cards": ()},
                        {"seat": "int", "name": "str", "cards": "tuple[str, ...]"}),
                 (1,), (1, "y"), (2, "x", ("a", "b")), (1, "x", ()))
    assert_alike(*_both({"line": dataclasses.field(compare=False),
                         "note": dataclasses.field(default="", repr=False,
                                                   metadata={"added": True}),
                         "private": True},
                        {"line": "int", "actor": "str", "command": "Any",
                         "note": "str", "private": "ClassVar[bool]"}),
                 (1, "anna", ("pass",)), (2, "anna", ("pass",), "n"), (1, "bas", None))
    many = {f"f{i}": "int" for i in range(12)}  # more than ten: set10 sorts before set2
    assert_alike(*_both({"f11": 11}, many), tuple(range(12)), tuple(range(11)),
                 tuple(range(12, 0, -1)))
    assert_alike(*_both({"__doc__": "Nested.", "inner": None},
                        {"outer": "tuple[object, ...]", "inner": "object"}),
                 ((1, (2,)),), ((), frozenset({3})), ((float("nan"),),))


def test_dataclass_leaves_other_classes_to_dataclasses() -> None:
    """What it would not build as dataclasses does is built by dataclasses: a
    factory, a __post_init__, a method of its own, a base class, other options."""
    from engine.frozen import dataclass

    class Base:
        pass

    def post_init(self: object) -> None:
        pass

    def own_repr(self: object) -> str:
        return "own"

    made = [
        (type("Factory", (), {"__annotations__": {"seats": "list[int]"},
                              "seats": dataclasses.field(default_factory=list)}), {}),
        (type("Later", (), {"__annotations__": {"seat": "int"},
                            "__post_init__": post_init}), {}),
        (type("Own", (), {"__annotations__": {"seat": "int"}, "__repr__": own_repr}), {}),
        (type("Derived", (Base,), {"__annotations__": {"seat": "int"}}), {}),
        (type("Mutable", (), {"__annotations__": {"seat": "int"}}), {"slots": True}),
        (type("NoSlots", (), {"__annotations__": {"seat": "int"}}), {"frozen": True}),
        (type("KeywordOnly", (), {"__annotations__": {"seat": "int"},
                                  "seat": dataclasses.field(kw_only=True)}),
         {"frozen": True, "slots": True}),
    ]
    built = {cls.__name__: dataclass(cls, **(options or {"frozen": True, "slots": True}))
             for cls, options in made}
    for name, cls in built.items():
        assert dataclasses.is_dataclass(cls)
        assert not getattr(cls.__init__, "quick", False), name
        assert cls.__init__.__code__.co_filename == "<string>", name  # dataclasses' own
    assert repr(built["Own"](1)) == "own"


def _values(obj: object, seen: dict[int, object]) -> None:
    """Every dataclass instance in `obj`, by id, looking into fields and containers."""
    if id(obj) in seen:
        return
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        seen[id(obj)] = obj
        for f in dataclasses.fields(obj):
            _values(getattr(obj, f.name), seen)
    elif isinstance(obj, tuple | list | frozenset | set):
        for item in obj:
            _values(item, seen)
    elif isinstance(obj, dict) or hasattr(obj, "items") and hasattr(obj, "keys"):
        for key, item in obj.items():  # type: ignore[attr-defined]
            _values(key, seen)
            _values(item, seen)


def _hash(value: object) -> object:
    """The value's hash, or the type of error hashing it raises (a field holds a
    mapping, say)."""
    try:
        return hash(value)
    except TypeError as e:
        return type(e)


def _plain_twin(cls: type) -> type:
    """`cls` as dataclasses.dataclass builds it (same fields, docstring, qualname)."""
    twin = dataclasses.make_dataclass(
        cls.__name__,
        [(f.name, f.type, dataclasses.field(default=f.default, repr=f.repr,
                                            compare=f.compare, metadata=f.metadata))
         for f in dataclasses.fields(cls)],
        frozen=True, slots=True)
    twin.__qualname__ = cls.__qualname__
    return twin


@pytest.mark.parametrize("game_name,players", [("princes-of-florence", 4), ("signorie", 3)])
def test_every_engine_value_is_what_dataclasses_would_build(game_name: str,
                                                            players: int) -> None:
    """The events, commands and states of a random game of every game, and the log
    lines of its log: each value of a class engine.frozen.dataclass built has the
    repr, hash and equality that the class dataclasses builds gives it."""
    from engine.registry import get_game
    from engine.selfplay import play_random
    from pbem.logs import format_game_log, replay_log

    game = get_game(game_name)
    playout = play_random(game, players, "frozen")
    log = format_game_log(playout.players, playout.moves, [("Game", game.name)],
                          include_chance=True)
    from notation import iter_log

    seen: dict[int, object] = {}
    _values([playout.events, playout.moves, playout.state, list(iter_log(log)),
             replay_log(log).events], seen)
    quick_eq = _both({}, {})[0].__eq__.__code__  # the one code of every quick __eq__
    by_class: dict[type, list[object]] = {}
    for value in seen.values():
        if type(value).__eq__.__code__ is quick_eq:
            by_class.setdefault(type(value), []).append(value)
    native = "__mypyc_attrs__" in vars(type(playout.state))  # compiled: tests/engine/test_compiled
    assert len(by_class) > (3 if native else 20), sorted(c.__name__ for c in by_class)
    for cls, values in by_class.items():
        twin = _plain_twin(cls)
        twins = [twin(*(getattr(v, f.name) for f in dataclasses.fields(cls))) for v in values]
        assert [repr(v) for v in values] == [repr(t) for t in twins], cls
        assert [_hash(v) for v in values] == [_hash(t) for t in twins], cls
        pairs = list(zip(values, values[1:] + values[:1], strict=True))
        twin_pairs = list(zip(twins, twins[1:] + twins[:1], strict=True))
        assert [a == b for a, b in pairs] == [a == b for a, b in twin_pairs], cls
        assert cls.__match_args__ == twin.__match_args__  # type: ignore[attr-defined]
    assert pickle.loads(pickle.dumps(playout.events)) == playout.events
    assert pickle.loads(pickle.dumps(playout.moves)) == playout.moves
