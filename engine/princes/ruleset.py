"""The rules data of The Princes of Florence, loaded from `data/princes.toml`.

The numbers live in the data file so a game owner can correct them; this module only
gives them types.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

LANDSCAPES = ("forest", "lake", "park")
FREEDOMS = ("travel", "religion", "opinion")
OBJECTS = ("forest", "lake", "park", "jester", "builder", "prestige", "recruiting")
DECKS = ("profession", "prestige", "bonus")


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


@dataclass(frozen=True, slots=True)
class PrestigeCard:
    name: str
    kind: str  # "most", "fewest" or "at-least"
    counts: str  # what "most"/"fewest" compares ("" for at-least)
    thresholds: Mapping[str, int]  # for at-least
    full: int
    tie: int


@dataclass(frozen=True, slots=True)
class Rules:
    edition: str
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
    width: int
    height: int
    palazzo: tuple[str, ...]
    sizes: Mapping[str, int]
    buildings: Mapping[str, str]  # building -> size class
    shapes: Mapping[str, tuple[tuple[str, ...], ...]]
    professions: Mapping[str, Profession]
    bonus: Mapping[str, BonusCard]
    prestige: Mapping[str, PrestigeCard]

    def tile_size(self, tile: str) -> int:
        """Cells covered by a building or landscape tile."""
        if tile in self.buildings:
            return self.sizes[self.buildings[tile]]
        return self.sizes[tile]


def _frozen(d: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(d))


def parse_rules(data: Mapping[str, Any]) -> Rules:
    """Build typed rules from the parsed TOML document."""
    setup, costs, fame, work, limits = (
        data["setup"], data["costs"], data["fame"], data["work"], data["limits"]
    )
    supply = data["supply"]
    professions = {
        name: Profession(name, *value) for name, value in data["professions"].items()
    }
    bonus = {
        name: BonusCard(name, spec["per"], tuple(spec.get("counts", ())),
                        tuple(spec.get("distinct", ())))
        for name, spec in data["bonus"].items()
    }
    prestige: dict[str, PrestigeCard] = {}
    for name, spec in data["prestige"].items():
        if "most" in spec:
            card = PrestigeCard(name, "most", spec["most"], _frozen({}), spec["full"], spec["tie"])
        elif "fewest" in spec:
            card = PrestigeCard(
                name, "fewest", spec["fewest"], _frozen({}), spec["full"], spec["tie"]
            )
        else:
            card = PrestigeCard(
                name, "at-least", "", _frozen(spec["at-least"]), spec["full"], spec["full"]
            )
        prestige[name] = card
    return Rules(
        edition=data["edition"],
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
        width=data["grid"]["width"],
        height=data["grid"]["height"],
        palazzo=tuple(data["grid"]["palazzo"]),
        sizes=_frozen(data["sizes"]),
        buildings=_frozen(data["buildings"]),
        shapes=_frozen({k: tuple(tuple(s) for s in v) for k, v in data["shapes"].items()}),
        professions=_frozen(professions),
        bonus=_frozen(bonus),
        prestige=_frozen(prestige),
    )


def load_rules(text: str | None = None) -> Rules:
    """Load the rules from TOML text, or from the packaged data file."""
    if text is None:
        text = resources.files("engine.princes").joinpath("data/princes.toml").read_text("utf-8")
    return parse_rules(tomllib.loads(text))


RULES = load_rules()
