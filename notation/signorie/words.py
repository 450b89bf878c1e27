"""The words of Signorie's notation: its verbs, the ids of `engine.signorie.commands`
(colours, cities, careers, tracks, rows, sexes) and the ids of its rules data
(families' alliance tiles, task tiles, reward tiles), all as `Vocabulary`s."""

from __future__ import annotations

from engine.frozen import dataclass
from engine.signorie import ruleset
from engine.signorie.commands import CAREERS, CITIES, COLOURS, ROWS, SEXES, TRACKS
from notation.words import UNDO_VERBS, Vocabulary

# --- what the rules data names (one function, so that the data file is the source) --

TASK_KINDS = ("tracks", "count", "marry", "mission", "alliance", "figures")
"""How a task tile's `task` line is written after its id:

- `tracks`: `task TILE COUNT STEP...` (a career or the initiative tile);
- `count`: `task TILE COUNT` (the threshold and florins tiles: no choice);
- `marry`, `mission`: `task TILE CITY DOWRY`, `task TILE CAREER SPACE CITY` (always
  2 figures, not written);
- `alliance`: `task TILE ROW` (always 1 figure, not written);
- `figures`: `task TILE SEX...` (one figure returned per figure taken)."""


@dataclass(frozen=True, slots=True)
class TaskTile:
    """A task tile as the notation writes it: its id, how its line goes on
    (`TASK_KINDS`), and the figures it always takes (0: as many as written)."""

    id: str
    kind: str
    figures: int = 0


@dataclass(frozen=True, slots=True)
class RulesWords:
    """The ids the notation takes from the rules data."""

    alliance_tiles: tuple[str, ...]
    """Every alliance tile face: a family and its VP, `este3`."""
    task_tiles: tuple[TaskTile, ...]
    bonus_tiles: tuple[str, ...]
    """The reward tiles of rounds 1-5."""
    vp_tiles: tuple[str, ...]
    """The reward tiles of rounds 6-7."""


def task_tile(tile: ruleset.TaskTile) -> TaskTile:
    """How the notation writes the rules data's task tile `tile`."""
    if tile.type in ("career", "initiative"):
        return TaskTile(tile.name, "tracks")
    if tile.type in ("threshold", "florins"):
        return TaskTile(tile.name, "count")
    if tile.type == "action":
        return TaskTile(tile.name, tile.action, tile.figures)
    if tile.type == "alliance":
        return TaskTile(tile.name, "alliance", tile.figures)
    return TaskTile(tile.name, "figures", tile.figures)


def rules_words(rules: ruleset.Rules) -> RulesWords:
    """The ids of the rules data `rules` that the notation reads and writes."""
    return RulesWords(
        alliance_tiles=rules.alliance_tile_ids,
        task_tiles=tuple(task_tile(tile) for tile in rules.tasks.values()),
        bonus_tiles=rules.bonus_tiles,
        vp_tiles=rules.points_tiles,
    )


RULES = rules_words(ruleset.load())

# --- the vocabularies -----------------------------------------------------------------

VERBS = Vocabulary(
    "command",
    ("take", "helper", "done", "pass", "reward", *UNDO_VERBS),
    whole=("done", "pass", *UNDO_VERBS),
)
"""The commands. Those that end a turn or the round, or answer an undo, are taken
only written in full, so that a word such as "Don" or "Pas" in a greeting is never
played."""

ACTION_WORDS = Vocabulary(
    "action",
    ("hire", "florins", "marry", "offspring", "tracks", "mission", "alliance", "figures",
     "helper", "task"),
    wanted="an action (hire, task, florins, marry, offspring, tracks, mission, alliance,"
           " figures or helper)",
)
"""The words that start an action (of a die, a helper or a reward)."""

COLOUR_WORDS = Vocabulary("colour", COLOURS, aliases={"gray": "grey"})
CITY_WORDS = Vocabulary("city", CITIES)
CAREER_WORDS = Vocabulary("career", CAREERS)
TRACK_WORDS = Vocabulary("track", TRACKS)
ROW_WORDS = Vocabulary("row", ROWS)
SEX_WORDS = Vocabulary("sex", SEXES, wanted="a sex ('m' or 'f')",
                       aliases={"male": "m", "female": "f"})
FIELD_WORDS = Vocabulary("tile field", ("marriage", "mission"))
"""The two alliance tile fields of a city."""

TRACK_SHORT: dict[str, str] = {track: track[:3] for track in TRACKS}
"""How a step writes its track: `pol`, `ecc`, `mil`, `ini`."""
assert all(TRACK_WORDS.get(short) == track for track, short in TRACK_SHORT.items())
assert {tile.kind for tile in RULES.task_tiles} <= set(TASK_KINDS)

REWARD_CHOICES = Vocabulary("reward choice", ("bonus", "florins", "points", "buy"))
"""`reward bonus [ACTION]`, `reward florins` (rounds 1-5); `reward points`,
`reward buy` (rounds 6-7)."""

ALLIANCE_TILES = Vocabulary("alliance tile", RULES.alliance_tiles,
                            wanted="an alliance tile like 'este3'")
TASK_TILES: dict[str, TaskTile] = {tile.id: tile for tile in RULES.task_tiles}
TASK_WORDS = Vocabulary("task tile", TASK_TILES,
                        wanted=f"a task tile ({', '.join(TASK_TILES)})")
_REWARD_TILE_IDS = tuple(dict.fromkeys((*RULES.bonus_tiles, *RULES.vp_tiles)))
REWARD_TILES = Vocabulary("reward tile", _REWARD_TILE_IDS,
                          wanted=f"a reward tile ({', '.join(_REWARD_TILE_IDS)})")

CHANCE_WORDS = Vocabulary(
    "chance event",
    ("order", "cities", "rewards", "alliances", "roll", "tasks", "births", "draw"),
)
"""The chance lines: setup's `* order`, `* cities`, `* rewards`; each round's
`* alliances`, `* roll`, `* tasks`; `* births` (offspring dice) and `* draw` (a
face-down alliance tile)."""

DIE_FACES = range(1, 7)
"""What a die shows."""
