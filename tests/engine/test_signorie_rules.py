"""Signorie: the hard rules, each on a position built for it
(`engine.signorie.positions.opening`, then `replace` / `replace_board`).

Numbers come from the rules data (`load()`), so that a corrected data file keeps
these tests true; the rulings S1-S12 are those of docs/rules-signorie.md.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.errors import ChanceError, IllegalMoveError, NotYourTurnError
from engine.protocol import CHANCE
from engine.selfplay import play_random
from engine.signorie import events as ev
from engine.signorie.commands import (
    Activate,
    Alliance,
    Births,
    Done,
    Draw,
    Figures,
    Florins,
    Hire,
    Marry,
    Mission,
    Offspring,
    Pass,
    Reward,
    Roll,
    Step,
    Take,
    Task,
    Tracks,
)
from engine.signorie.decide import apply
from engine.signorie.definition import GAME
from engine.signorie.legal import legal_commands
from engine.signorie.positions import chance_apply, opening
from engine.signorie.ruleset import load
from engine.signorie.scoring import row_points
from engine.signorie.state import ACTIONS, REWARDS, State, replace, replace_board

R = load()
NAMES = ("anna", "bas", "chris")


def play(state: State, seat: int, cmd: Any) -> tuple[State, list[Any]]:
    return apply(state, seat, cmd)


def kinds(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


# --------------------------------------------------------------------------- taking a die


def test_a_die_costs_the_field_cost_minus_its_value() -> None:
    """S1: cost = max(0, field cost - die value); the message names the shortfall."""
    red = R.columns["red"].cost
    s = opening(NAMES, roll={"red": (1, 1, 6)})
    s = replace_board(s, 0, florins=red - 2)
    with pytest.raises(IllegalMoveError) as e:
        play(s, 0, Take("red", 1, Hire(1)))
    assert str(e.value) == (f"the red die showing 1 costs 1 florin more than you have: "
                            f"{red - 2}")
    s = replace_board(s, 0, florins=10)
    after, events = play(s, 0, Take("red", 1, Marry("milano", 1)))
    assert events[0] == ev.DieTaken(0, "red", 1, red - 1)
    assert after.players[0].florins == 10 - (red - 1) - 1
    after, events = play(s, 0, Take("red", 6, Marry("milano", 1)))
    assert events[0] == ev.DieTaken(0, "red", 6, 0)


def test_a_die_not_on_offer_and_a_second_die_of_a_colour_are_refused() -> None:
    s = opening(NAMES, roll={"yellow": (2, 3, 3)})
    with pytest.raises(IllegalMoveError, match="no yellow die shows 6; the yellow dice: 2, 3, 3"):
        play(s, 0, Take("yellow", 6, Florins()))
    s = replace_board(s, 0, dice=(("yellow", 2),))
    with pytest.raises(IllegalMoveError, match="your yellow field already holds a die"):
        play(s, 0, Take("yellow", 3, Florins()))


def test_only_the_colours_signoria_action_hire_or_its_task() -> None:
    s = opening(NAMES)
    with pytest.raises(IllegalMoveError, match="the yellow field's actions are hire, task and "
                                               "florins, not `marry`"):
        play(s, 0, Take("yellow", 3, Marry("milano", 1)))
    with pytest.raises(IllegalMoveError, match="lies on the red task area"):
        play(s, 0, Take("yellow", 3, Task(s.tasks[2], 1, None)))


def test_hire_goes_one_column_left_and_yellow_wraps_to_turquoise() -> None:
    """S2: red hires onto yellow (the middle yellow space costs its data cost); yellow
    hires onto turquoise (the wrap-around flag)."""
    s = opening(NAMES, dice=6)
    s = replace_board(s, 0, florins=20)
    _, events = play(s, 0, Take("red", 6, Hire(2)))
    assert ev.HelperHired(0, "yellow", 2, R.columns["yellow"].helpers[1].cost) in events
    _, events = play(s, 0, Take("yellow", 6, Hire(1)))
    assert ev.HelperHired(0, "turquoise", 1, R.columns["turquoise"].helpers[0].cost) in events
    taken = replace_board(s, 0, helpers=(("yellow", 2),))
    with pytest.raises(IllegalMoveError, match="helper space 2 of the yellow column is taken"):
        play(taken, 0, Take("red", 6, Hire(2)))
    poor = replace_board(s, 0, florins=0)
    with pytest.raises(IllegalMoveError, match="helper space 3 of the yellow column costs"):
        play(poor, 0, Take("red", 6, Hire(3)))


def test_four_dice_and_the_player_passes_by_itself() -> None:
    """S7: with 4 dice on the board a player passes automatically."""
    s = opening(("anna", "bas"), dice=6)
    s = replace_board(s, 0, dice=(("red", 6), ("purple", 6), ("grey", 6)), florins=9)
    s, events = play(s, 0, Take("yellow", 6, Florins()))
    assert ev.TurnEnded(0) in events
    s, events = play(s, 1, Pass())
    assert ev.Passed(0, auto=True) in events


def test_not_your_turn() -> None:
    s = opening(NAMES)
    with pytest.raises(NotYourTurnError, match="it is anna's turn"):
        play(s, 1, Pass())


# --------------------------------------------------------------------------- helpers


def test_helpers_go_top_to_bottom_and_the_turn_ends_by_itself() -> None:
    """S6: after a die, its column's helpers, top to bottom, each optional; the turn ends
    when no helper below the last one used can be activated."""
    s = opening(NAMES, dice=6)
    s = replace_board(s, 0, helpers=(("yellow", 1), ("yellow", 3)))
    s, events = play(s, 0, Take("yellow", 6, Florins()))
    assert s.active is not None and s.waiting() == (0,)
    assert legal_commands(s, 0) == [Activate(1), Activate(3), Done()]
    below, _ = play(s, 0, Activate(3))
    assert below.active is None and below.turn == 1  # nothing below: the turn ended
    with pytest.raises(IllegalMoveError, match="helpers follow a die you take"):
        play(below, 1, Activate(1))
    top, events = play(s, 0, Activate(1))
    assert ev.FlorinsGained(0, R.columns["yellow"].helpers[0].amount) in events
    assert top.active is not None and top.active.next == 2
    three = replace_board(s, 0, helpers=(("yellow", 1), ("yellow", 2), ("yellow", 3)))
    middle, _ = play(three, 0, Activate(2, Figures(("m",))))
    with pytest.raises(IllegalMoveError, match="helpers go top to bottom: the next may be "
                                               "on space 3 or lower"):
        play(middle, 0, Activate(1))
    done, events = play(top, 0, Done())
    assert events == [ev.TurnEnded(0)] and done.turn == 1


def test_a_helper_that_cannot_act_cannot_be_activated() -> None:
    """S6: the males-in-cities helper with no male in a city is not offered, and the
    turn ends by itself when it is the only one left."""
    s = opening(NAMES, dice=6)
    red = [h.space for h in R.columns["red"].helpers if h.effect == "males-in-cities"]
    assert red, "the data has a males-in-cities helper on red"
    s = replace_board(s, 0, helpers=(("red", red[0]),), florins=9)
    after, events = play(s, 0, Take("red", 6, Marry("milano", 1)))
    assert events[-1] == ev.TurnEnded(0) and after.active is None


def test_die_progress_uses_the_die_value() -> None:
    """H8: up to the die's value in progress points on the helper's track."""
    hs = next(h for h in R.columns["grey"].helpers if h.effect == "die-progress")
    s = opening(NAMES, roll={"grey": (2, 5, 5)})
    s = replace_board(s, 0, helpers=(("grey", hs.space),), florins=9)
    s, _ = play(s, 0, Take("grey", 2, Tracks((Step("initiative", 0, 1),))))
    with pytest.raises(IllegalMoveError, match="3 progress points are more than the 2"):
        play(s, 0, Activate(hs.space, Tracks((Step(hs.track, 0, 3),))))
    _, events = play(s, 0, Activate(hs.space, Tracks((Step(hs.track, 0, 2),))))
    assert ev.FigureMoved(0, hs.track, 0, 2) in events


# --------------------------------------------------------------------------- tracks, missions


def test_career_bonus_spaces() -> None:
    """Reaching space 4 gives florins, space 6 an initiative step."""
    s = opening(NAMES, dice=6)
    s = replace(s, careers=((( 0, R.florin_space - 1),), (), ()))
    s = replace_board(s, 0, florins=5)
    to = R.initiative_space
    step = Step("political", R.florin_space - 1, to)
    assert step.points <= R.track_points
    after, events = play(s, 0, Take("grey", 6, Tracks((step,))))
    assert ev.FlorinsGained(0, R.florin_bonus) in events
    assert ev.InitiativeMoved(0, R.initiative_bonus) in events
    assert after.figures_on("political") == ((0, to),)


def test_a_mission_needs_the_rank_and_takes_the_tile_only_if_the_plan_needs_it() -> None:
    """[NL] p.9, S4, S9."""
    s = opening(NAMES, dice=6)
    milano = R.cities["milano"].mission
    low = next(sp for sp in range(1, R.career_top + 1) if R.rank(sp) < min(milano))
    high = R.career_top
    s = replace(s, careers=(((0, low), (0, high)), (), ()))
    s = replace_board(s, 0, florins=9)
    with pytest.raises(IllegalMoveError, match=f"asks rank {min(milano)}"):
        play(s, 0, Take("turquoise", 6, Mission("political", low, "milano")))
    tile = s.city("milano").mission_tile  # type: ignore[union-attr]
    family = R.tile_family(tile)
    needs = family in R.plans["yellow"]["political"]
    _, events = play(s, 0, Take("turquoise", 6, Mission("political", high, "milano")))
    sent = next(e for e in events if isinstance(e, ev.MissionSent))
    assert sent.points == R.career_points[high - 1]
    assert sent.tile == (tile if needs else "")
    assert sent.space == milano.index(min(milano))


def test_marriage_dowry_bounds() -> None:
    s = opening(NAMES, dice=6)
    s = replace_board(s, 0, florins=9)
    value = min(R.cities["firenze"].marriage)
    with pytest.raises(IllegalMoveError, match=f"a dowry of at least {value}, not 0"):
        play(s, 0, Take("red", 6, Marry("firenze", 0)))
    with pytest.raises(IllegalMoveError, match=f"a dowry is at most {R.dowry_max}"):
        play(s, 0, Take("red", 6, Marry("firenze", R.dowry_max + 1)))
    _, events = play(s, 0, Take("red", 6, Marry("firenze", R.dowry_max)))
    married = next(e for e in events if isinstance(e, ev.Married))
    assert married.points == R.dowry_max * R.points_per_dowry_florin


# --------------------------------------------------------------------------- tasks


def _threshold_position() -> tuple[State, int, str]:
    i = next(k for k, t in enumerate(R.tasks) if R.tasks[t].type == "threshold")
    tasks = list(R.tasks)
    colour, sex = R.task_fields[i]
    return opening(NAMES, dice=6, tasks=tasks), i, colour


def test_the_threshold_stacks_and_never_passes_the_maximum() -> None:
    """S5: threshold tasks stack within a round, up to the maximum; the figures go to
    the threshold space and home at the clean-up."""
    s, i, colour = _threshold_position()
    tile = R.tasks[s.tasks[i]]
    sex = R.task_fields[i][1]
    s = replace_board(s, 0, males=9, females=9, raised=tile.per * tile.max)
    s, events = play(s, 0, Take(colour, 6, Task(tile.name, tile.max)))
    assert s.threshold(0) == min(R.threshold_max, R.threshold + 2 * tile.per * tile.max)
    assert s.threshold(0) <= R.threshold_max
    b = s.players[0]
    assert (b.threshold_m, b.threshold_f) == ((tile.max, 0) if sex == "m" else (0, tile.max))


def test_task_figures_are_needed() -> None:
    s, i, colour = _threshold_position()
    sex = R.task_fields[i][1]
    s = replace_board(s, 0, males=0, females=0)
    word = "male" if sex == "m" else "female"
    with pytest.raises(IllegalMoveError, match=f"asks 1 {word} figure; you have 0"):
        play(s, 0, Take(colour, 6, Task(s.tasks[i], 1)))


# --------------------------------------------------------------------------- rewards


def _all_pass(s: State) -> State:
    while s.phase == ACTIONS:
        s, _ = play(s, s.waiting()[0], Pass())
    return s


def test_reward_check_turn_order_and_initiative_points() -> None:
    """Phase 3: initiative VP; the new order by initiative, ties to the higher disc
    (S12, the later arrival); the reward to dice sums within the threshold."""
    s = opening(NAMES)
    top = R.initiative_top
    s = replace_board(s, 0, initiative=2, stamp=10, dice=(("red", 6), ("grey", 6),
                                                          ("turquoise", 6)))
    s = replace_board(s, 1, initiative=2, stamp=11, dice=(("red", 1),))
    s = replace_board(s, 2, initiative=top, stamp=1)
    s = _all_pass(s)
    assert s.phase == REWARDS
    assert s.order == (2, 1, 0)
    assert s.players[2].points == R.initiative_points[top]
    assert 0 not in s.rewarded and s.rewarded == (2, 1)  # 18 > 13
    assert [p.initiative for p in s.players] == [0, 0, 0]
    stack = sorted(range(3), key=lambda k: -s.players[k].stamp)
    assert stack == [2, 1, 0]  # the first player on top


def test_a_rewarded_player_marries_a_son_and_takes_florins_in_rounds_2_to_5() -> None:
    """S3."""
    s = opening(NAMES)
    s = replace(s, round=2)
    s = _all_pass(s)
    seat = s.rewarded[0]
    before = s.players[seat]
    s, events = play(s, seat, Reward("florins"))
    assert ev.SonMarried(seat, 1, R.son_points[0], R.son_marriage_florins) in events
    assert s.players[seat].florins == (before.florins + R.reward_florins
                                       + R.son_marriage_florins)


def test_rounds_6_and_7_give_the_vp_tile_and_buy_5_for_5() -> None:
    s = opening(NAMES)
    s = replace(s, round=R.bonus_laid + 1)
    s = _all_pass(s)
    seat = s.rewarded[0]
    s = replace_board(s, seat, florins=R.buy_cost - 1)
    assert Reward("buy") not in legal_commands(s, seat)
    with pytest.raises(IllegalMoveError, match=f"costs {R.buy_cost} florins"):
        play(s, seat, Reward("buy"))
    s = replace_board(s, seat, florins=R.buy_cost)
    after, events = play(s, seat, Reward("buy"))
    assert ev.PointsScored(seat, R.buy_points, "buy") in events
    assert after.players[seat].florins == 0
    assert not any(isinstance(e, ev.SonMarried) for e in events)


# --------------------------------------------------------------------------- alliances, scoring


def test_face_down_tiles_are_drawn_by_chance_and_count_toward_a_row() -> None:
    """S8: a face-down tile waits for chance; the tile must be in the pool."""
    alliance = next(i for i, t in enumerate(R.tasks) if R.tasks[t].type == "alliance")
    colour, sex = R.task_fields[alliance]
    s = opening(NAMES, dice=6)
    s = replace_board(s, 0, males=3, females=3)
    s, events = play(s, 0, Take(colour, 6, Task(s.tasks[alliance], 1, Alliance("military"))))
    assert events[-1] == ev.AllianceDue(0, "military") and s.waiting() == (CHANCE,)
    with pytest.raises(ChanceError, match="'nosuch3' is no alliance tile"):
        play(s, CHANCE, Draw("anna", "nosuch3"))
    tile = s.pool[0]
    after = chance_apply(s, Draw("anna", tile))
    assert after.players[0].face_down == ("military",)
    assert after.players[0].row_count("military") == 1


def test_rows_score_with_three_tiles_face_down_ones_for_one() -> None:
    s = opening(NAMES)
    plan = R.plans["yellow"]["political"]
    two = tuple(("political", f"{f}5") for f in plan[:2])
    s = replace_board(s, 0, tiles=two)
    assert row_points(s, 0) == 0
    s = replace_board(s, 0, face_down=("political",), hidden=("este2",))
    assert row_points(s, 0) == 10 + R.face_down_points


def test_the_seed_and_the_state_alone_give_the_chance() -> None:
    s = opening(NAMES)
    s = replace(s, dice=(), phase="prepare")
    one = GAME.resolve_chance(s, "seed-1")
    assert one == GAME.resolve_chance(s, "seed-1") and isinstance(one, Roll)
    assert GAME.same_chance(s, one) and GAME.chance_mismatch(one, one) is None
    stated = Roll(tuple((c, (1,) * len(v)) for c, v in one.dice))
    if stated != one:
        assert GAME.chance_mismatch(stated, one) == f"the seed gives roll {_words(one)}"
    _, events = GAME.apply(s, CHANCE, stated)
    assert events == [ev.DiceRolled(stated.dice)]


def _words(roll: Roll) -> str:
    return ", ".join(f"{c} {' '.join(map(str, v))}" for c, v in roll.dice)


# --------------------------------------------------------------------------- legal commands


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_listed_command_is_accepted(n: int) -> None:
    """`legal_commands` lists only commands the rules accept (checked at states of a
    random game, a sample of each list)."""
    p = play_random(GAME, n, f"legal-{n}")
    state = GAME.new_state(p.events[0])
    rng = random.Random(n)
    checked = 0
    for seat, cmd in p.moves:
        if seat != CHANCE:
            options = legal_commands(state, seat)
            assert cmd in options
            for option in rng.sample(options, min(6, len(options))):
                GAME.apply(state, seat, option)
                checked += 1
            for other in range(n):
                if other != seat:
                    assert legal_commands(state, other) == []
        state, _ = GAME.apply(state, seat, cmd)
    assert checked > 100


def test_figures_task_takes_one_per_figure_returned() -> None:
    i = next(k for k, t in enumerate(R.tasks) if R.tasks[t].type == "figures")
    colour, _ = R.task_fields[i]
    s = opening(NAMES, dice=6)
    s = replace_board(s, 0, males=3, females=3)
    with pytest.raises(IllegalMoveError, match="one figure per figure returned: 2, not 1"):
        play(s, 0, Take(colour, 6, Task(s.tasks[i], 2, Figures(("m",)))))
    _, events = play(s, 0, Take(colour, 6, Task(s.tasks[i], 2, Figures(("m", "f")))))
    assert ev.FiguresTaken(0, 1, 1) in events


def test_a_player_who_cannot_take_any_die_passes_by_itself() -> None:
    """S7: no florins for any die's cost and no free die: an automatic pass."""
    s = opening(("anna", "bas"), dice=1)
    s = replace_board(s, 1, florins=0)
    yellow = R.columns["yellow"]
    assert yellow.cost <= 1  # the yellow die showing 1 is free: bas could take it
    s = replace(s, dice=tuple((c, v) for c, v in s.dice if c != "yellow") + (("yellow", ()),))
    s, events = play(s, 0, Pass())
    assert ev.Passed(1, auto=True) in events and s.phase == REWARDS


def test_offspring_rolls_a_die_per_married_male_and_takes_what_the_supply_has() -> None:
    """[NL] p.10: 1-3 a female, 4-6 a male, as many as the General Supply holds."""
    s = opening(NAMES, dice=6)
    s = replace_board(s, 0, sons=2, general_m=1, general_f=5)
    s, events = play(s, 0, Take("purple", 6, Offspring()))
    assert events[-1] == ev.BirthsDue(0, 3) and s.waiting() == (CHANCE,)
    with pytest.raises(ChanceError, match="anna rolls 3 white dice, not 2"):
        play(s, CHANCE, Births("anna", (1, 6)))
    s, events = play(s, CHANCE, Births("anna", (6, 5, 2)))
    assert events[0] == ev.BirthsRolled(0, (6, 5, 2), 1, 1)
    b = s.players[0]
    assert (b.general_m, b.general_f) == (0, 4)


def test_the_extra_action_reward() -> None:
    """S11: every die leaves the boards; each player who chose it, in the new turn
    order, takes a leftover die for free and does one of its field's actions."""
    rewards = ("extra", *[t for t in R.bonus_tiles if t != "extra"][:R.bonus_laid - 1],
               *R.points_tiles[:R.points_laid])
    s = opening(("anna", "bas"), rewards=rewards, dice=1)
    s = replace_board(s, 0, florins=0)
    s, _ = play(s, 0, Take("yellow", 1, Florins()))
    s = _all_pass(s)
    assert s.phase == REWARDS
    for seat in s.rewarded:
        s, events = play(s, seat, Reward("bonus"))
    assert s.phase == "extra" and all(not b.dice for b in s.players)
    seat = s.extra[0]
    assert all(isinstance(c, Take) for c in legal_commands(s, seat))
    florins = s.players[seat].florins
    s, events = play(s, seat, Take("turquoise", 1, Hire(1)))
    assert ev.DieTaken(seat, "turquoise", 1, 0, True) in events
    assert s.players[seat].florins == florins - R.columns["grey"].helpers[0].cost


def test_no_undo_crosses_chance_or_the_final_reveal() -> None:
    assert GAME.crossing_error([ev.TurnEnded(0)]) is None
    for e in (ev.DiceRolled((("red", (1,)),)), ev.AllianceDrawn(0, "military", "este3"),
              ev.BirthsRolled(0, (1,), 0, 1), ev.GameEnded((), (0,), (0,), (0,))):
        assert GAME.crossing_error([ev.TurnEnded(0), e])


def test_the_owner_does_not_see_its_face_down_tile_in_its_view() -> None:
    s = opening(NAMES)
    s = replace_board(s, 0, face_down=("military",), hidden=("orsini5",))
    for seat in (None, 0, 1, 2):
        view = GAME.view(s, seat)
        assert "orsini5" not in repr(view)
        assert view.players[0].rows[2].face_down == 1


def test_helpers_come_from_a_limited_supply() -> None:
    """[NL] p.1: 48 helper discs in all."""
    s = opening(("anna", "bas"), dice=6)
    every = tuple((c, h.space) for c in R.columns for h in R.columns[c].helpers)
    s = replace_board(s, 1, helpers=tuple(sorted(every[:5])))
    s = replace_board(s, 0, florins=9)
    full = replace(s, rules=replace(R, helper_supply=5))  # the 48 all on boards
    assert not any(isinstance(c, Take) and isinstance(c.action, Hire)
                   for c in legal_commands(full, 0))
    with pytest.raises(IllegalMoveError, match="the general supply has no helper left"):
        play(full, 0, Take("red", 6, Hire(1)))
    play(s, 0, Take("red", 6, Hire(1)))


def test_a_player_over_the_threshold_is_told_why_there_is_no_reward() -> None:
    s = opening(NAMES)
    s = replace_board(s, 0, dice=(("red", 6), ("grey", 6), ("turquoise", 6)))
    s = _all_pass(s)
    with pytest.raises(NotYourTurnError, match=f"your dice sum to 18, more than your "
                                                f"threshold {R.threshold}"):
        play(s, 0, Reward("florins"))
