"""Frozen slotted dataclasses that are quick to build, and quick to define.

A frozen dataclass's generated `__init__` sets each field through
`object.__setattr__`, which costs about as much as the rest of making the object.
`quick_init` gives such a class an `__init__` that sets its slots through their
descriptors instead: the same parameters and defaults, the same object (still
frozen: only `__init__` writes the slots). Replay builds hundreds of events per
game, so this matters there.

`dataclass` is `dataclasses.dataclass`, quicker to apply to the engine's many values:
Python 3.11's decorator compiles six methods for each frozen class (and `quick_init`
a seventh), some 0.45 ms a class, and `pbem replay` defines some 80 of them before it
reads a line (scripts/bench_startup.py); here a class takes about 0.06 ms. For a
plain frozen slotted class (`@dataclass(frozen=True, slots=True)` on annotated fields
with plain defaults, no base class, none of the methods it writes defined by the
class) it compiles nothing: the quick `__init__` above is made from code compiled
once for each number of fields, and `__repr__`, `__eq__`, `__hash__`, `__setattr__`
and `__delattr__` are functions over the field names that give what the generated
ones give (tests/engine/test_frozen.py compares them). Any other class is
`dataclasses.dataclass`'s.

A frozen class may define its own `__init__` that sets each field from its parameter
(`self.x = x  # type: ignore[misc]`) and does nothing else: mypyc compiles it into a
native constructor, where the decorator's own `__init__` would be a Python function
called on every value built. In Python it cannot run (the class is frozen): `dataclass`
gives the class the quick `__init__` instead, and refuses an own one whose parameters
and defaults are not the fields'.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import MISSING, Field, FrozenInstanceError, fields, is_dataclass
from functools import cache
from operator import attrgetter
from reprlib import recursive_repr
from types import CellType, CodeType, FunctionType
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give a frozen slotted dataclass (fields with plain defaults only, no
    `__post_init__`) a faster `__init__`; returns the class (a decorator, applied
    after `@dataclass`). A class `dataclass` built has it already."""
    if _compiled(cls):  # its fields are set natively already
        return cls
    if not is_dataclass(cls) or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__} is no slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which quick_init would skip")
    if getattr(cls.__init__, "quick", False):
        return cls
    type.__setattr__(cls, "__init__", _quick_init(cls, fields(cls)))
    return cls


def _quick_init(cls: type, own: Sequence[Field[Any]]) -> Any:
    """The `__init__` that sets the fields `own` of the slotted class `cls` through
    their slots' descriptors: `_init_code` for that many fields, named after them."""
    setters: list[Any] = []
    defaults: list[Any] = []
    for f in own:
        if f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name} has a default factory")
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name} is not set by __init__")
        setters.append(getattr(cls, f.name).__set__)
        if f.default is not MISSING:
            defaults.append(f.default)
    qualname = f"{cls.__qualname__}.__init__"
    code = _init_code(len(own)).replace(co_varnames=("self", *(f.name for f in own)),
                                        co_qualname=qualname)
    closure = tuple(CellType(setters[int(name.removeprefix("set"))])  # in the code's order
                    for name in code.co_freevars)
    init: Any = FunctionType(code, {}, "__init__", tuple(defaults) or None, closure)
    init.__qualname__ = qualname
    init.__module__ = cls.__module__
    init.__annotations__ = {**{f.name: f.type for f in own}, "return": None}
    init.quick = True
    return init


@cache
def _init_code(fields: int) -> CodeType:
    """The code of `def __init__(self, f0, f1, ...)` that calls the setter of each
    field on `self` and its parameter: compiled once for every number of fields, the
    parameters renamed after a class's fields (`CodeType.replace`), so that defining
    a class compiles nothing."""
    params = "".join(f", f{i}" for i in range(fields))
    body = "".join(f"        set{i}(self, f{i})\n" for i in range(fields)) or "        pass\n"
    source = (f"def make({', '.join(f'set{i}' for i in range(fields))}):\n"
              f"    def __init__(self{params}):\n{body}"
              "    return __init__\n")
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # noqa: S102 - the source is made above from numbers
    code: CodeType = namespace["make"](*[None] * fields).__code__
    return code


@dataclasses.dataclass(frozen=True, slots=True)
class _Frozen:
    """What `dataclasses.dataclass(frozen=True, slots=True)` gives every class alike
    (its options' record, the pickling methods), for the classes `dataclass` builds."""


_WRITTEN = frozenset({"__init__", "__repr__", "__eq__", "__hash__", "__setattr__",
                      "__delattr__", "__getstate__", "__setstate__", "__match_args__",
                      "__slots__", "__post_init__"})
"""What a class that `dataclass` builds quickly must not define itself."""


def _dataclass(cls: type[T] | None = None, /, **options: Any) -> Any:
    if cls is None:
        return lambda later: _dataclass(later, **options)
    if _compiled(cls):
        return _compiled_dataclass(cls, **options)
    own_init = vars(cls).get("__init__")
    if own_init is not None and options.get("frozen"):  # the compiled build's (`native_init`)
        type.__delattr__(cls, "__init__")
        built: type[T] = _dataclass(cls, **options)
        _check_native_init(built, own_init)
        return quick_init(built) if options.get("slots") else built
    if options != {"frozen": True, "slots": True} or not _plain(cls):
        return dataclasses.dataclass(cls, **options)
    return _frozen_slotted(cls)


def _check_native_init(cls: type, init: Any) -> None:
    """That a frozen class's own `__init__` takes its fields as the generated one would
    (the same names, order and defaults): it is what mypyc compiles into a native
    constructor (setting each field from its parameter, and nothing else); Python has
    the generated one instead, as a frozen class's fields cannot be set in its body."""
    code = init.__code__
    own = fields(cls)
    names = ("self", *(f.name for f in own))
    defaults = tuple(f.default for f in own if f.default is not MISSING)
    if (code.co_varnames[:code.co_argcount] != names or code.co_kwonlyargcount
            or (init.__defaults__ or ()) != defaults):
        raise TypeError(f"{cls.__name__}.__init__ does not take its fields {names[1:]} "
                        "with their defaults")


def _compiled(cls: type) -> bool:
    """Whether mypyc compiled `cls` (a native class: setup.py)."""
    return "__mypyc_attrs__" in vars(cls)


def _compiled_dataclass(cls: type[T], **options: Any) -> type[T]:
    """What `dataclasses.dataclass` gives a class that mypyc compiled, which mypyc
    calls on the class itself and keeps (its instances have native fields, slots or
    not). A frozen one pickles and copies through `__init__`: the state mypyc would
    set afterwards is refused by the frozen `__setattr__`."""
    options.pop("slots", None)
    native = frozenset(vars(cls)["__mypyc_attrs__"])
    annotations = vars(cls).get("__annotations__", {})
    for name, annotation in annotations.items():  # mypyc gives a ClassVar[X] as X
        if name not in native:
            annotations[name] = ClassVar[annotation]
    native_init = "__init__" in vars(cls)  # compiled: native, and kept by the decorator
    built: Any
    if options == {"frozen": True} and _plain_compiled(cls):
        # what the decorator would write, without compiling its six methods
        built = dataclasses.dataclass(cls, init=False, repr=False, eq=False)
        own = fields(built)
        _check_defaults_last(own)
        _frozen_methods(built, own, ("__dataclass_params__",))
    else:
        built = dataclasses.dataclass(cls, **options)
        own = fields(built)
    if (not native_init and options.get("init", True) and not hasattr(cls, "__post_init__")
            and all(f.init and f.default_factory is MISSING for f in own)):
        type.__setattr__(cls, "__init__", _first_init(cls, own))
    if options.get("frozen") and "__reduce__" not in vars(cls):
        names = tuple(f.name for f in fields(built) if f.init)

        def __reduce__(self: Any) -> tuple[Any, ...]:
            return self.__class__, tuple([getattr(self, n) for n in names])

        __reduce__.__qualname__ = f"{cls.__qualname__}.__reduce__"
        type.__setattr__(cls, "__reduce__", __reduce__)
    result: type[T] = built
    return result


def _plain_compiled(cls: type) -> bool:
    """Whether a class mypyc compiled has no base class, defines none of the methods
    the decorator writes for a frozen class, and has fields with plain options."""
    own = vars(cls)
    if cls.__bases__ != (object,) or not _COMPILED_WRITTEN.isdisjoint(own):
        return False
    return _plain_fields(own)


_COMPILED_WRITTEN = frozenset({"__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__",
                               "__post_init__"})


def _first_init(cls: type, own: Sequence[Field[Any]]) -> Any:
    """An `__init__` for a class mypyc compiled that, called first, puts the quick
    `__init__` (`_quick_init`) in its place: mypyc calls the decorator while the
    class's field descriptors are away, and puts them back after."""
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init = _quick_init(cls, own)
        type.__setattr__(cls, "__init__", init)
        init(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _plain(cls: type) -> bool:
    """Whether `cls` has no base class, defines none of what the decorator writes,
    and every annotation is a field set by `__init__` from its parameter or a plain
    default (not a factory, not keyword-only, hashed if compared)."""
    own = vars(cls)
    if type(cls) is not type or cls.__bases__ != (object,) or not _WRITTEN.isdisjoint(own):
        return False
    if "self" in own.get("__annotations__", {}):  # the name of __init__'s first parameter
        return False
    return _plain_fields(own)


def _plain_fields(own: Any) -> bool:
    """Whether every annotation of a class's namespace `own` is a field set by
    `__init__` from its parameter or a plain default (not a factory, not keyword-only,
    hashed if compared)."""
    for name, annotation in own.get("__annotations__", {}).items():
        text = annotation if isinstance(annotation, str) else repr(annotation)
        if "InitVar" in text or "KW_ONLY" in text:
            return False
        value = own.get(name)
        if isinstance(value, Field) and (value.default_factory is not MISSING or not value.init
                                         or value.hash is not None or value.kw_only is True):
            return False
    return True


def _frozen_slotted(cls: type[T]) -> type[T]:
    """`dataclasses.dataclass(frozen=True, slots=True)(cls)`, compiling one method."""
    documented = bool(cls.__doc__)
    if not documented:  # written below, from the signature of the real __init__
        cls.__doc__ = cls.__name__
    built: Any = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=True)
    own = fields(built)
    _check_defaults_last(own)
    type.__setattr__(built, "__init__", _quick_init(built, own))
    _frozen_methods(built, own, ("__getstate__", "__setstate__", "__dataclass_params__"))
    if not documented:
        import inspect

        built.__doc__ = built.__name__ + str(inspect.signature(built)).replace(" -> None", "")
    result: type[T] = built
    return result


def _check_defaults_last(own: Sequence[Field[Any]]) -> None:
    """What the decorator checks when it writes `__init__`, which it is not asked to."""
    defaulted = False
    for f in own:
        defaulted = defaulted or f.default is not MISSING
        if defaulted and f.default is MISSING:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _frozen_methods(built: Any, own: Sequence[Field[Any]], shared: tuple[str, ...]) -> None:
    """Give `built` the `__repr__`, `__eq__`, `__hash__`, `__setattr__` and
    `__delattr__` that `dataclasses.dataclass(frozen=True)` writes for the fields
    `own`, as functions over their names (compiling nothing), and `shared`, the
    attributes the decorator gives every such class alike (from `_Frozen`)."""
    names = tuple(f.name for f in own)
    key = _key(tuple(f.name for f in own if f.compare))
    shown = tuple(f.name for f in own if f.repr)

    def __repr__(self: Any) -> str:
        name: str = self.__class__.__qualname__
        return name + "(" + ", ".join([f"{n}={getattr(self, n)!r}" for n in shown]) + ")"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(key(self))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is built or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(built, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is built or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(built, self).__delattr__(name)

    for method in (recursive_repr()(__repr__), __eq__, __hash__, __setattr__, __delattr__):
        method.__qualname__ = f"{built.__qualname__}.{method.__name__}"
        method.__module__ = built.__module__
        type.__setattr__(built, method.__name__, method)
    for name in shared:
        type.__setattr__(built, name, getattr(_Frozen, name))


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of the fields `names` of an object, which the generated `__eq__`
    compares and `__hash__` hashes."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:
    dataclass = _dataclass


_KEEP: Any = object()
"""A default no caller passes: "keep this field's value" (`quick_replace`)."""


def quick_replace(cls: type[T]) -> Callable[..., T]:
    """A function `replace(obj, **changes)` for a frozen slotted dataclass (fields
    with `init`, no `__post_init__`): `dataclasses.replace` for its instances, built
    through the slots' descriptors without looking up the fields on each call. An
    unknown field is a TypeError, as there. Its instances only: a subclass's object
    would come back as `cls`. For a class mypyc compiled, built through its
    `__init__`."""
    if _compiled(cls) and is_dataclass(cls):
        return _compiled_replace(cls)
    if not is_dataclass(cls) or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__} is no slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which quick_replace would skip")
    names = [f.name for f in fields(cls)]
    for f in fields(cls):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name} is not set by __init__")
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls, "KEEP": _KEEP}
    for n in names:
        scope[f"set_{n}"] = getattr(cls, n).__set__
    params = ", ".join(f"{n}=KEEP" for n in names)
    body = "".join(f"        set_{n}(out, obj.{n} if {n} is KEEP else {n})\n" for n in names)
    source = (f"def make({', '.join(scope)}):\n"
              f"    def replace(obj, /{', *, ' + params if names else ''}):\n"
              f"        out = new(cls)\n{body}        return out\n"
              "    return replace\n")
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # noqa: S102 - the source is made above from field names
    fn: Callable[..., T] = namespace["make"](**scope)
    fn.__qualname__ = fn.__name__ = f"replace_{cls.__name__}"
    fn.__module__ = cls.__module__
    return fn


def _compiled_replace(cls: type[T]) -> Callable[..., T]:
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]

    def replace(obj: Any, /, **changes: Any) -> T:
        return cls(**{**{n: getattr(obj, n) for n in names}, **changes})

    replace.__qualname__ = replace.__name__ = f"replace_{cls.__name__}"
    replace.__module__ = cls.__module__
    return replace
