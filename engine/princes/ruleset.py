"""The rules data of The Princes of Florence, loaded from `data/princes.toml`.

The numbers live in the data file so a game owner can correct them; this module only
gives them types. Each variant has its own `Rules` (`rules_for`): the standard values
with the variant's own ones laid over them. A game's state carries its variant's
rules; no event records them (the edition names the data that judged a game).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from types import MappingProxyType
from typing import Any

from engine.errors import IllegalMoveError
from engine.frozen import dataclass

from .grid import Grid

STANDARD = "standard"
"""The name of the standard variant (3-5 players)."""
TWO_PLAYER = "two-player"
"""The name of the 2-player variant [GR][WK]."""

LANDSCAPES = ("forest", "lake", "park")
FREEDOMS = ("travel", "religion", "opinion")
OBJECTS = ("forest", "lake", "park", "jester", "builder", "prestige", "recruiting")
LANDSCAPE_LOT = "landscape"
"""The auction object of the 2-player game that stands for all three landscape types:
its winner chooses the type when placing it."""
LOT_OBJECTS = (LANDSCAPE_LOT, "jester", "builder", "prestige", "recruiting")
"""The auction objects of a variant whose landscapes are one lot."""
DECKS = ("profession", "prestige", "bonus")
NO_EXPANSION = "none"
"""The `expansions` option's value for the game without expansions."""


@dataclass(frozen=True, slots=True)
class Profession:
    name: str
    building: str
    landscape: str
    freedom: str


@dataclass(frozen=True, slots=True)
class BonusCard:
    name: str
    per: int
    counts: tuple[str, ...]  # +per for each of these things
    distinct: tuple[str, ...] = ()  # +per for each of these things present at all
    text: str = ""  # the card as players read it


@dataclass(frozen=True, slots=True)
class PrestigeCard:
    name: str
    kind: str  # "most", "fewest" or "at-least"
    counts: str  # what "most"/"fewest" compares ("" for at-least)
    thresholds: Mapping[str, int]  # for at-least
    full: int
    tie: int
    text: str = ""  # the card as players read it


@dataclass(frozen=True, slots=True)
class CourtRules:
    """The character auction of The Muse and the Princess: florins on the Banker at
    the start and added when unsold, florins per bid space, and each character's bid
    spaces (lowest, highest), in florins."""

    banker_start: int
    banker_growth: int
    bid_step: int
    spaces: Mapping[str, tuple[int, int]]
    princess: Mapping[str, int]  # the Princess's work value per landscape, builder ...
    texts: Mapping[str, str]  # each character's effect as players read it


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules data of one variant; equal when the data is."""

    variant: str
    edition: str
    min_players: int
    max_players: int
    start_florins: int
    professions_dealt: int
    professions_kept: int
    rounds: int
    building_cost: tuple[int, ...]
    profession_cost: int
    freedom_cost: int
    bonus_cost: int
    auction_open: int
    raise_step: int
    fame_step_florins: int
    florins_per_pp: int
    fame_building: int
    fame_extra_landscape: int
    fame_builder: tuple[int, ...]
    fame_best_work: int
    wv_building: int
    wv_landscape: int
    wv_freedom: int
    wv_jester: int
    wv_card: int
    min_wv: tuple[int, ...]
    limits: Mapping[str, int]
    draw: int
    stacks: Mapping[str, int]
    building_copies: int
    freedom_per_type: int  # 0: one fewer than the players
    freedom_extra: int  # more freedoms, of as many different types, chosen at setup
    landscape_lot: bool  # the landscapes are auctioned as one lot (LANDSCAPE_LOT)
    objects: tuple[str, ...]  # the auction objects
    width: int
    height: int
    palazzo: tuple[str, ...]
    sizes: Mapping[str, int]
    buildings: Mapping[str, str]  # building -> size class
    shapes: Mapping[str, tuple[tuple[str, ...], ...]]
    professions: Mapping[str, Profession]
    bonus: Mapping[str, BonusCard]
    prestige: Mapping[str, PrestigeCard]
    grid: Grid
    expansion: str = NO_EXPANSION  # the `expansions` option: "none" or "muse-and-princess"
    fame_for_money: bool = True  # fame may be sold for money (not in the expansion)
    court: CourtRules | None = None  # the character auction, in the expansion

    def freedoms_per_type(self, players: int) -> int:
        """Freedoms of each type in the supply before the extra ones."""
        return self.freedom_per_type or players - 1

    def tile_size(self, tile: str) -> int:
        """Cells covered by a building or landscape tile."""
        if tile in self.buildings:
            return self.sizes[self.buildings[tile]]
        return self.sizes[tile]

    # Rules are immutable: a copy is the same rules (a state's deep copy shares them),
    # and the packaged rules pickle as their variant's name.
    def __copy__(self) -> Rules:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        if rules_for(self.variant, self.expansion) is not self:
            raise TypeError("only the packaged rules (rules_for) can be pickled")
        return rules_for, (self.variant, self.expansion)


def _frozen(d: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(d))


def variants(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The variants a parsed rules document describes, standard first."""
    return (STANDARD, *(v for v in data.get("variants", {}) if v != STANDARD))


def _overlaid(data: Mapping[str, Any], variant: str) -> dict[str, Any]:
    """The document with the variant's values laid over the standard ones (a table
    in the variant replaces keys of the same table; anything else replaces).

    Raises:
        IllegalMoveError: the document describes no such variant.
    """
    described = data.get("variants", {})
    if variant not in described and variant != STANDARD:
        raise IllegalMoveError(f"unknown variant {variant!r}; the rules data describes: "
                               f"{', '.join(variants(data))}", "setup")
    out = dict(data)
    for key, value in described.get(variant, {}).items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def _per_type(value: int | str) -> int:
    """`freedom_per_type`: a number, or "players-1" (0)."""
    if value == "players-1":
        return 0
    if isinstance(value, int) and value > 0:
        return value
    raise ValueError(f"supply.freedom_per_type is a positive number or 'players-1', "
                     f"not {value!r}")


def expansions(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The expansions a parsed rules document describes."""
    return tuple(data.get("expansions", {}))


def _court(data: Mapping[str, Any], expansion: str) -> CourtRules | None:
    """The expansion's character auction, None for the game without one.

    Raises:
        IllegalMoveError: the document describes no such expansion.
    """
    if expansion == NO_EXPANSION:
        return None
    described = data.get("expansions", {})
    if expansion not in described:
        raise IllegalMoveError(f"unknown expansion {expansion!r}; the rules data describes: "
                               f"{', '.join(described) or 'none'}", "setup")
    spec = described[expansion]
    step = spec["bid_step"]
    return CourtRules(spec["banker_start"], spec["banker_growth"], step,
                      _frozen({c: (low * step, high * step)
                               for c, (low, high) in spec["spaces"].items()}),
                      _frozen(spec["princess"]), _frozen(spec.get("texts", {})))


def parse_rules(data: Mapping[str, Any], variant: str = STANDARD,
                expansion: str = NO_EXPANSION) -> Rules:
    """Build typed rules for a variant, with an expansion or none, from the parsed TOML
    document.

    Raises:
        IllegalMoveError: the document describes no such variant or expansion.
    """
    court = _court(data, expansion)
    fame_for_money = court is None or data["expansions"][expansion]["fame_for_money"]
    data = _overlaid(data, variant)
    low, high = data["players"]
    setup, costs, fame, work, limits = (
        data["setup"], data["costs"], data["fame"], data["work"], data["limits"]
    )
    supply = data["supply"]
    professions = {
        name: Profession(name, *value) for name, value in data["professions"].items()
    }
    bonus = {
        name: BonusCard(name, spec["per"], tuple(spec.get("counts", ())),
                        tuple(spec.get("distinct", ())), spec.get("text", ""))
        for name, spec in data["bonus"].items()
    }
    prestige: dict[str, PrestigeCard] = {}
    for name, spec in data["prestige"].items():
        if "most" in spec:
            card = PrestigeCard(name, "most", spec["most"], _frozen({}), spec["full"], spec["tie"],
                                spec.get("text", ""))
        elif "fewest" in spec:
            card = PrestigeCard(
                name, "fewest", spec["fewest"], _frozen({}), spec["full"], spec["tie"],
                spec.get("text", ""))
        else:
            card = PrestigeCard(
                name, "at-least", "", _frozen(spec["at-least"]), spec["full"], spec["full"],
                spec.get("text", ""))
        prestige[name] = card
    sizes = data["sizes"]
    tiles = {**{b: sizes[size] for b, size in data["buildings"].items()},
             **{t: sizes[t] for t in LANDSCAPES}}
    shapes = {k: tuple(tuple(s) for s in v) for k, v in data["shapes"].items()}
    return Rules(
        variant=variant,
        edition=data["edition"],
        min_players=low,
        max_players=high,
        start_florins=setup["start_florins"],
        professions_dealt=setup["professions_dealt"],
        professions_kept=setup["professions_kept"],
        rounds=setup["rounds"],
        building_cost=tuple(costs["building_by_builders"]),
        profession_cost=costs["profession"],
        freedom_cost=costs["freedom"],
        bonus_cost=costs["bonus"],
        auction_open=costs["auction_open"],
        raise_step=costs["raise"],
        fame_step_florins=costs["fame_step_florins"],
        florins_per_pp=costs["florins_per_pp"],
        fame_building=fame["building"],
        fame_extra_landscape=fame["extra_same_landscape"],
        fame_builder=tuple(fame["builder"]),
        fame_best_work=fame["best_work"],
        wv_building=work["building"],
        wv_landscape=work["landscape"],
        wv_freedom=work["freedom"],
        wv_jester=work["per_jester"],
        wv_card=work["per_card"],
        min_wv=tuple(work["minimum"]),
        limits=_frozen({k: v for k, v in limits.items() if k != "draw"}),
        draw=limits["draw"],
        stacks=_frozen({k: supply[k] for k in ("forest", "lake", "park", "jester", "builder",
                                               "recruiting")}),
        building_copies=supply["building_copies"],
        freedom_per_type=_per_type(supply["freedom_per_type"]),
        freedom_extra=supply.get("freedom_extra", 0),
        landscape_lot=supply.get("landscape_lot", False),
        objects=LOT_OBJECTS if supply.get("landscape_lot", False) else OBJECTS,
        width=data["grid"]["width"],
        height=data["grid"]["height"],
        palazzo=tuple(data["grid"]["palazzo"]),
        sizes=_frozen(data["sizes"]),
        buildings=_frozen(data["buildings"]),
        shapes=_frozen(shapes),
        professions=_frozen(professions),
        bonus=_frozen(bonus),
        prestige=_frozen(prestige),
        grid=Grid(data["grid"]["width"], data["grid"]["height"], data["grid"]["palazzo"],
                  tiles, shapes),
        expansion=expansion,
        fame_for_money=fame_for_money,
        court=court,
    )


def load_rules(text: str | None = None, variant: str = STANDARD,
               expansion: str = NO_EXPANSION) -> Rules:
    """Load a variant's rules (with an expansion or none) from TOML text, or from the
    packaged data file.

    Raises:
        IllegalMoveError: the data describes no such variant or expansion.
    """
    return parse_rules(tomllib.loads(_packaged() if text is None else text), variant,
                       expansion)


@cache
def _packaged() -> str:
    # read through the package's loader, from a folder or a zip alike (importlib.resources
    # comes with importlib.metadata, which the registries read the games with; pkgutil
    # cost the log tools some 2 ms more)
    return files("engine.princes").joinpath("data/princes.toml").read_text(encoding="utf-8")


def rules_for(variant: str, expansion: str = NO_EXPANSION) -> Rules:
    """The packaged rules data of a variant with an expansion or none (built once
    each).

    Raises:
        IllegalMoveError: the data describes no such variant or expansion.
    """
    return _rules_for(variant, expansion)


@cache
def _rules_for(variant: str, expansion: str) -> Rules:
    return load_rules(None, variant, expansion)


STANDARD_RULES = rules_for(STANDARD)
"""The standard variant's data: only for code that has no game at hand (the notation's
vocabularies of card and building names, the edition of the packaged data). A game
reads its own variant's rules from its state (`State.rules`)."""
