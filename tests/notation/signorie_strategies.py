"""Hypothesis strategies for every valid command of Signorie, from the words of its
notation (so that they follow the rules data, as the notation does)."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.signorie.commands import (
    CAREERS,
    CITIES,
    COLOURS,
    ROWS,
    SEXES,
    Action,
    Activate,
    Agree,
    Alliance,
    Alliances,
    Births,
    ChanceCommand,
    Cities,
    Done,
    Draw,
    Figures,
    Florins,
    Helper,
    Hire,
    Marry,
    Mission,
    Offspring,
    Order,
    Pass,
    PlayerCommand,
    Refuse,
    Reward,
    Rewards,
    Roll,
    Step,
    Take,
    Task,
    Tasks,
    Tracks,
    Undo,
)
from notation.signorie.words import ALLIANCE_TILES, REWARD_TILES, TASK_TILES

PLAYERS = ("anna", "bas", "chris", "o'brien-2")

small = st.integers(min_value=0, max_value=30)
space = st.integers(min_value=1, max_value=25)
die = st.integers(min_value=1, max_value=6)
sexes = st.lists(st.sampled_from(SEXES), min_size=1, max_size=4).map(tuple)


@st.composite
def step(draw: st.DrawFn) -> Step:
    track = draw(st.sampled_from((*CAREERS, "initiative")))
    if track == "initiative" or draw(st.booleans()):
        return Step(track, 0, draw(space))
    start = draw(space)
    return Step(track, start, start + draw(space))


steps = st.lists(step(), min_size=1, max_size=5).map(tuple)
marry = st.builds(Marry, st.sampled_from(CITIES), small)
mission = st.builds(Mission, st.sampled_from(CAREERS), small, st.sampled_from(CITIES))
alliance = st.builds(Alliance, st.sampled_from(ROWS))


@st.composite
def task(draw: st.DrawFn) -> Task:
    tile = draw(st.sampled_from(sorted(TASK_TILES.values(), key=lambda t: t.id)))
    if tile.kind == "tracks":
        return Task(tile.id, draw(small), Tracks(draw(steps)))
    if tile.kind == "count":
        return Task(tile.id, draw(small))
    if tile.kind == "marry":
        return Task(tile.id, tile.figures, draw(marry))
    if tile.kind == "mission":
        return Task(tile.id, tile.figures, draw(mission))
    if tile.kind == "alliance":
        return Task(tile.id, tile.figures, draw(alliance))
    chosen = draw(sexes)
    return Task(tile.id, tile.figures or len(chosen), Figures(chosen))


action: st.SearchStrategy[Action] = st.one_of(
    st.builds(Hire, small),
    st.just(Florins()),
    marry,
    st.just(Offspring()),
    st.builds(Tracks, steps),
    mission,
    alliance,
    st.builds(Figures, sexes),
    st.builds(Helper, st.sampled_from(COLOURS), small),
    task(),
)

player_command: st.SearchStrategy[PlayerCommand] = st.one_of(
    st.builds(Take, st.sampled_from(COLOURS), die, action),
    st.builds(Activate, small, st.none() | action),
    st.builds(Reward, st.just("bonus"), st.none() | action),
    st.builds(Reward, st.sampled_from(("florins", "points", "buy"))),
    st.sampled_from((Done(), Pass(), Undo(), Agree(), Refuse())),
)

player = st.sampled_from(PLAYERS)
alliance_tile = st.sampled_from(ALLIANCE_TILES.words)
roll_item = st.tuples(st.sampled_from(COLOURS),
                      st.lists(die, min_size=1, max_size=4).map(lambda v: tuple(sorted(v))))

chance_command: st.SearchStrategy[ChanceCommand] = st.one_of(
    st.builds(Order, st.lists(player, min_size=1, max_size=4).map(tuple)),
    st.builds(Cities, st.lists(st.sampled_from(CITIES), min_size=1, max_size=5).map(tuple)),
    st.builds(Rewards, st.lists(st.sampled_from(REWARD_TILES.words), min_size=1,
                                max_size=7).map(tuple)),
    st.builds(Alliances, st.lists(st.tuples(st.sampled_from(CITIES),
                                            st.sampled_from(("marriage", "mission")),
                                            alliance_tile), max_size=10).map(tuple)),
    st.builds(Roll, st.lists(roll_item, min_size=1, max_size=5).map(tuple)),
    st.builds(Tasks, st.lists(st.sampled_from(sorted(TASK_TILES)), min_size=1,
                              max_size=10).map(tuple)),
    st.builds(Births, player, st.lists(die, min_size=1, max_size=5).map(tuple)),
    st.builds(Draw, player, alliance_tile),
)
