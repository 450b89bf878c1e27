"""The rules data of Signorie, loaded from `data/signorie.toml`, given types.

Every number of the game lives in the data file, each table marked sourced or
provisional with its source, so that a game owner can correct it without touching
code. This module only reads it. A game's state carries its `Rules` as a value; no
event records them (the edition names the data that judged a game).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from types import MappingProxyType
from typing import Any

from engine.frozen import dataclass

from .commands import CITIES, COLOURS, ROWS, SEXES, TRACKS

INITIATIVE = "initiative"
"""The initiative track (a `Step.track`)."""

HELPER_EFFECTS = ("mission-alliance", "marriage-alliance", "offspring", "males-in-cities",
                  "alliance", "progress", "figure", "points", "die-progress", "florins", "task")
"""The helper effects H1-H10 of the player aid (H1 in its two variants)."""
TASK_TYPES = ("career", "threshold", "initiative", "florins", "figures", "action", "alliance")
BONUS_TYPES = ("action", "extra", "figures", "progress", "alliance", "helper")
POINTS_TYPES = ("helpers", "cities", "count")
STATUSES = ("sourced", "provisional")
"""Where a table's values come from: a source states them, or they are a guess."""
SIGNORIA = ("florins", "marry", "offspring", "tracks", "mission")
"""The five Signoria actions (the words of their commands)."""


@dataclass(frozen=True, slots=True)
class HelperSpace:
    """A helper space of a player board: its column and place (1 = top), what hiring
    onto it costs, and the effect of a helper on it (`track` and `amount` where the
    effect has them)."""

    colour: str
    space: int
    cost: int
    effect: str
    track: str = ""
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Column:
    """An action field of a player board: its die colour, cost, Signoria action and
    the helper spaces below it, top first."""

    colour: str
    cost: int
    signoria: str
    helpers: tuple[HelperSpace, ...]


@dataclass(frozen=True, slots=True)
class TaskTile:
    """A task tile: its type and numbers (`per` something per figure returned, at most
    `max` figures; `figures` exactly, for the action and alliance tiles)."""

    name: str
    type: str
    track: str = ""
    per: int = 0
    max: int = 0
    action: str = ""
    figures: int = 0

    @property
    def counts(self) -> tuple[int, ...]:
        """How many figures may be returned to use it."""
        if self.figures:
            return (self.figures,)
        return tuple(range(1, self.max + 1))


@dataclass(frozen=True, slots=True)
class RewardTile:
    """A reward tile: `kind` "bonus" (rounds 1-5) or "points" (rounds 6-7)."""

    name: str
    kind: str
    type: str
    action: str = ""
    sex: str = ""
    count: int = 0
    tracks: tuple[str, ...] = ()
    points: int = 0
    per: int = 0


@dataclass(frozen=True, slots=True)
class City:
    """A city: the values of its marriage spaces (minimum dowry) and mission spaces
    (minimum rank), in the order figures take them when values tie (S4)."""

    name: str
    marriage: tuple[int, ...]
    mission: tuple[int, ...]

    def spaces(self, field: str) -> tuple[int, ...]:
        return self.marriage if field == "marriage" else self.mission


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules data; equal when the data is."""

    edition: str
    rounds: int
    max_dice: int
    threshold: int
    threshold_max: int
    start_florins: int
    start_available: tuple[int, int]  # males, females
    start_general: tuple[int, int]
    helper_supply: int
    signoria_florins: int
    dowry_max: int
    points_per_dowry_florin: int
    track_points: int
    reward_florins: int
    son_marriage_rounds: tuple[int, ...]
    son_marriage_florins: int
    son_marriage_florin_rounds: tuple[int, ...]
    buy_cost: int
    buy_points: int
    row_min_tiles: int
    face_down_points: int
    offspring_female_top: int
    die_faces: int
    career_end_divisor: int
    hire_wraps: bool
    son_florins_to_every_rewarded: bool
    seat_florins: tuple[int, ...]
    dice_per_colour: Mapping[int, int]
    city_count: Mapping[int, int]
    alliance_removed: Mapping[int, int]
    plan_colours: tuple[str, ...]
    columns: Mapping[str, Column]
    son_points: tuple[int, ...]
    career_points: tuple[int, ...]  # VP of spaces 1..N
    career_ranks: tuple[int, ...]
    florin_space: int
    florin_bonus: int
    initiative_space: int
    initiative_bonus: int
    initiative_points: tuple[int, ...]  # VP of spaces 0..top
    cities: Mapping[str, City]
    families: tuple[str, ...]
    family_tiles: tuple[int, ...]  # each family's tiles' VP
    plans: Mapping[str, Mapping[str, tuple[str, ...]]]  # plan -> row -> families shown
    tasks: Mapping[str, TaskTile]
    task_field_sex: tuple[str, str]  # upper, lower
    rewards: Mapping[str, RewardTile]
    bonus_laid: int
    points_laid: int
    tables: Mapping[str, tuple[str, str]]  # table -> (status, source)

    # ---------------------------------------------------------------- derived

    @property
    def career_top(self) -> int:
        return len(self.career_points)

    @property
    def initiative_top(self) -> int:
        return len(self.initiative_points) - 1

    def rank(self, space: int) -> int:
        return self.career_ranks[space - 1]

    def hire_target(self, colour: str) -> str | None:
        """The column a die of `colour` hires onto: the one to its left (S2), the
        leftmost wrapping to the rightmost when the data says so."""
        i = COLOURS.index(colour)
        if i == 0:
            return COLOURS[-1] if self.hire_wraps else None
        return COLOURS[i - 1]

    def helper_space(self, colour: str, space: int) -> HelperSpace | None:
        helpers = self.columns[colour].helpers
        return helpers[space - 1] if 1 <= space <= len(helpers) else None

    @property
    def task_fields(self) -> tuple[tuple[str, str], ...]:
        """The 10 task fields in order (colour, sex): yellow upper, yellow lower, ..."""
        return tuple((c, sex) for c in COLOURS for sex in self.task_field_sex)

    @property
    def alliance_tiles(self) -> tuple[str, ...]:
        """Every alliance tile id (family + VP, e.g. "este3"), with repeats."""
        return tuple(f"{f}{p}" for f in self.families for p in self.family_tiles)

    @property
    def alliance_tile_ids(self) -> tuple[str, ...]:
        """The distinct alliance tile ids, family by family, lowest VP first."""
        return tuple(dict.fromkeys(self.alliance_tiles))

    def tile_family(self, tile: str) -> str:
        return tile.rstrip("0123456789")

    def tile_points(self, tile: str) -> int:
        return int(tile[len(self.tile_family(tile)):])

    @property
    def provisional(self) -> tuple[str, ...]:
        """The tables whose values no source states (to be corrected from a copy)."""
        return tuple(name for name, (status, _) in self.tables.items()
                     if status == "provisional")

    @property
    def bonus_tiles(self) -> tuple[str, ...]:
        return tuple(t for t, r in self.rewards.items() if r.kind == "bonus")

    @property
    def points_tiles(self) -> tuple[str, ...]:
        return tuple(t for t, r in self.rewards.items() if r.kind == "points")


# --------------------------------------------------------------------------- loading


def _pair(d: Mapping[str, int]) -> tuple[int, int]:
    return (int(d["m"]), int(d["f"]))


def _by_count(d: Mapping[str, int]) -> Mapping[int, int]:
    return MappingProxyType({int(k): int(v) for k, v in d.items()})


def _column(colour: str, field: Mapping[str, Any], helpers: list[Mapping[str, Any]]) -> Column:
    spaces = tuple(
        HelperSpace(colour, i, int(h["cost"]), str(h["effect"]), str(h.get("track", "")),
                    int(h.get("amount", 0)))
        for i, h in enumerate(helpers, 1))
    for h in spaces:
        if h.effect not in HELPER_EFFECTS:
            raise ValueError(f"helper {colour} {h.space}: unknown effect {h.effect!r}")
        if h.track and h.track not in TRACKS:
            raise ValueError(f"helper {colour} {h.space}: unknown track {h.track!r}")
    if field["signoria"] not in SIGNORIA:
        raise ValueError(f"column {colour}: unknown Signoria action {field['signoria']!r}")
    return Column(colour, int(field["cost"]), str(field["signoria"]), spaces)


def _task(name: str, d: Mapping[str, Any]) -> TaskTile:
    if d["type"] not in TASK_TYPES:
        raise ValueError(f"task {name}: unknown type {d['type']!r}")
    return TaskTile(name, str(d["type"]), str(d.get("track", "")), int(d.get("per", 0)),
                    int(d.get("max", 0)), str(d.get("action", "")), int(d.get("figures", 0)))


def _reward(name: str, d: Mapping[str, Any]) -> RewardTile:
    kinds = BONUS_TYPES if d["kind"] == "bonus" else POINTS_TYPES
    if d["type"] not in kinds:
        raise ValueError(f"reward {name}: unknown type {d['type']!r}")
    return RewardTile(name, str(d["kind"]), str(d["type"]), str(d.get("action", "")),
                      str(d.get("sex", "")), int(d.get("count", 0)),
                      tuple(d.get("tracks", ())), int(d.get("points", 0)), int(d.get("per", 0)))


def rules_from(data: Mapping[str, Any]) -> Rules:
    """Rules from the parsed data file.

    Raises:
        ValueError, KeyError: the data is malformed.
    """
    g, r, p, c = data["game"], data["rulings"], data["players"], data["careers"]
    plans = {
        colour: MappingProxyType({row: tuple(plan[row]) for row in ROWS})
        for colour, plan in data["plans"].items() if isinstance(plan, dict)}
    families = tuple(data["families"]["names"])
    for colour, plan in plans.items():
        for row, shown in plan.items():
            bad = [f for f in shown if f not in families]
            if bad:
                raise ValueError(f"plan {colour} {row}: unknown family {bad[0]!r}")
    rules = Rules(
        edition=str(data["edition"]),
        rounds=int(g["rounds"]), max_dice=int(g["max_dice"]), threshold=int(g["threshold"]),
        threshold_max=int(g["threshold_max"]), start_florins=int(g["start_florins"]),
        start_available=_pair(g["start_available"]), start_general=_pair(g["start_general"]),
        helper_supply=int(g["helpers"]),
        signoria_florins=int(g["signoria_florins"]), dowry_max=int(g["dowry_max"]),
        points_per_dowry_florin=int(g["points_per_dowry_florin"]),
        track_points=int(g["track_points"]), reward_florins=int(g["reward_florins"]),
        son_marriage_rounds=tuple(g["son_marriage_rounds"]),
        son_marriage_florins=int(g["son_marriage_florins"]),
        son_marriage_florin_rounds=tuple(g["son_marriage_florin_rounds"]),
        buy_cost=int(g["buy_cost"]), buy_points=int(g["buy_points"]),
        row_min_tiles=int(g["row_min_tiles"]), face_down_points=int(g["face_down_points"]),
        offspring_female_top=int(g["offspring_female_top"]), die_faces=int(g["die_faces"]),
        career_end_divisor=int(g["career_end_divisor"]),
        hire_wraps=bool(r["hire_wraps"]),
        son_florins_to_every_rewarded=bool(r["son_florins_to_every_rewarded"]),
        seat_florins=tuple(data["seat_florins"]["florins"]),
        dice_per_colour=_by_count(p["dice_per_colour"]), city_count=_by_count(p["cities"]),
        alliance_removed=_by_count(p["alliance_removed_per_family"]),
        plan_colours=tuple(p["plans"]),
        columns=MappingProxyType({
            colour: _column(colour, data["columns"][colour], data["helpers"][colour])
            for colour in COLOURS}),
        son_points=tuple(data["sons"]["points"]),
        career_points=tuple(c["points"]), career_ranks=tuple(c["ranks"]),
        florin_space=int(c["florin_space"]), florin_bonus=int(c["florin_bonus"]),
        initiative_space=int(c["initiative_space"]), initiative_bonus=int(c["initiative_bonus"]),
        initiative_points=tuple(data["initiative"]["points"]),
        cities=MappingProxyType({
            name: City(name, tuple(data["cities"][name]["marriage"]),
                       tuple(data["cities"][name]["mission"]))
            for name in CITIES}),
        families=families, family_tiles=tuple(data["families"]["tile_points"]),
        plans=MappingProxyType(plans),
        tasks=MappingProxyType({name: _task(name, d) for name, d in data["tasks"].items()
                                if isinstance(d, dict)}),
        task_field_sex=(str(data["task_fields"]["upper"]), str(data["task_fields"]["lower"])),
        rewards=MappingProxyType({name: _reward(name, d)
                                  for name, d in data["rewards"]["tiles"].items()}),
        bonus_laid=int(data["rewards"]["bonus"]), points_laid=int(data["rewards"]["points"]),
        tables=MappingProxyType({
            name: (str(t["status"]), str(t["source"]))
            for name, t in data.items() if isinstance(t, dict)}),
    )
    bad = [name for name, (status, _) in rules.tables.items() if status not in STATUSES]
    if bad:
        raise ValueError(f"table {bad[0]}: status is one of {', '.join(STATUSES)}")
    if len(rules.career_ranks) != rules.career_top:
        raise ValueError("careers: as many ranks as spaces")
    if len(rules.tasks) != len(rules.task_fields):
        raise ValueError(f"{len(rules.tasks)} task tiles for {len(rules.task_fields)} fields")
    if any(s not in SEXES for s in rules.task_field_sex):
        raise ValueError("task_fields: 'm' or 'f'")
    return rules


def load() -> Rules:
    """The rules of the data file shipped with the engine (read once)."""
    return _load()


@cache  # behind a plain function: mypy, checking the compiled build's modules, could
def _load() -> Rules:  # not tell the type of a decorated one from notation.signorie.words
    text = files("engine.signorie").joinpath("data/signorie.toml").read_text("utf-8")
    return rules_from(tomllib.loads(text))

