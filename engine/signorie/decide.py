"""Commands decided into events, and the events that follow by themselves.

`apply_in_place` decides and folds into the state it is given (the replay path); a
command's checks may come after part of it is folded (a die paid for before its
action is checked), so a refused command puts the state back as it was. `apply`
runs it on a copy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import ChanceError, GameOverError, NotYourTurnError
from engine.protocol import CHANCE

from . import events as ev
from .actions import Builder, do_bonus, do_field, do_helper, illegal, plural, points_reward
from .chance import decide_chance
from .commands import COLOURS, Activate, Done, Florins, Hire, Offspring, Pass, Reward, Take
from .evolve import BETWEEN, _die, _turn_ended, copy_state, release, restore, snapshot
from .legal import ALWAYS, can_activate, can_take
from .ruleset import HelperSpace
from .scoring import final_scores
from .state import ACTIONS, EXTRA, OVER, REWARDS, Active, State, dice_at


def _who(state: State) -> str:
    return ", ".join("chance" if s == CHANCE else state.names[s] for s in state.waiting())


def decide(b: Builder, seat: int, cmd: Any) -> None:
    """Emit the events of `cmd` from `seat` into `b`.

    Raises:
        IllegalMoveError: the command breaks a rule.
    """
    state = b.state
    if state.phase == OVER:
        raise GameOverError("the game is over", "over")
    if seat == CHANCE:
        b.emit_all(decide_chance(state, cmd))
        return
    if seat not in state.waiting():
        if (isinstance(cmd, Reward) and state.phase == REWARDS and state.chance is None
                and seat not in state.rewarded):
            p = state.players[seat]
            raise NotYourTurnError(
                f"you have no reward this round: your dice sum to {p.dice_sum}, more than "
                f"your threshold {state.threshold(seat)}" if p.dice_sum > state.threshold(seat)
                else f"it is {_who(state)}'s turn, not yours", "turn")
        raise NotYourTurnError(f"it is {_who(state)}'s turn, not yours", "turn")
    step = _DECIDE.get(type(cmd))
    if step is None:
        raise ChanceError(f"only chance states {getattr(cmd, 'verb', 'that')}", "chance")
    step(b, seat, cmd)


def _done(b: Builder, seat: int, cmd: Done) -> None:
    if b.state.active is None:
        raise illegal("`done` ends a turn's helpers; take a die or pass", "done")
    b.emit(ev.TurnEnded(seat))


def _pass(b: Builder, seat: int, cmd: Pass) -> None:
    state = b.state
    if state.phase != ACTIONS or state.active is not None:
        raise illegal(_expected(state), "pass")
    b.emit(ev.Passed(seat))


def _expected(state: State) -> str:
    if state.active is not None:
        return (f"a helper of the {state.active.colour} column (`helper N`) or `done` is "
                f"expected")
    if state.phase == REWARDS:
        return "your reward (`reward ...`) is expected"
    if state.phase == EXTRA:
        return "your extra action (`take COLOUR VALUE ACTION`, free) is expected"
    return "`take COLOUR VALUE ACTION` or `pass` is expected"


def _take(b: Builder, seat: int, cmd: Take) -> None:
    state = b.state
    phase = state.phase
    if state.active is not None or (phase != ACTIONS and phase != EXTRA):
        raise illegal(_expected(state), "take")
    free = phase == EXTRA
    colour, value = cmd.colour, cmd.value
    if colour not in COLOURS:
        raise illegal(f"{colour!r} is no die colour; the colours: {', '.join(COLOURS)}",
                      "take-colour")
    dice = state.dice
    i = dice_at(dice, colour)
    values = dice[i][1] if i >= 0 else ()
    if value not in values:
        shown = ", ".join(map(str, values)) if values else "none"
        raise illegal(f"no {colour} die shows {value}; the {colour} dice: {shown}",
                      "take-die")
    p = state.players[seat]
    for c, _ in p.dice:
        if c == colour:
            raise illegal(f"your {colour} field already holds a die this round", "take-field")
    r = state.rules
    if free:
        cost = 0
    else:
        if len(p.dice) >= r.max_dice:
            raise illegal(f"you have {r.max_dice} dice this round: pass", "take-four")
        cost = r.columns[colour].cost - value
        if cost < 0:
            cost = 0
        elif cost > p.florins:
            raise illegal(f"the {colour} die showing {value} costs "
                          f"{plural(cost - p.florins, 'florin')} more than you have: "
                          f"{p.florins}", "take-cost")
    taken = ev.DieTaken(seat, colour, value, cost, free)
    _die(state, taken)  # (`b.emit`, inlined)
    b.events.append(taken)
    do_field(b, seat, colour, cmd.action)


def _activate(b: Builder, seat: int, cmd: Activate) -> None:
    state, r = b.state, b.state.rules
    a = state.active
    if a is None:
        raise illegal(f"helpers follow a die you take; {_expected(state)}", "helper")
    hs = r.helper_space(a.colour, cmd.space)
    if hs is None or not state.players[seat].has_helper(a.colour, cmd.space):
        have = [s for c, s in state.players[seat].helpers if c == a.colour and s >= a.next]
        raise illegal(f"you have no helper on space {cmd.space} of the {a.colour} column"
                      + (f"; yours below: {', '.join(map(str, have))}" if have else ""),
                      "helper-none")
    if cmd.space < a.next:
        raise illegal(f"helpers go top to bottom: the next may be on space {a.next} or lower",
                      "helper-order")
    b.emit(ev.HelperUsed(seat, cmd.space))
    do_helper(b, seat, hs, a.value, cmd.action)


def _reward(b: Builder, seat: int, cmd: Reward) -> None:
    state, r = b.state, b.state.rules
    if state.phase != REWARDS:
        raise illegal(_expected(state), "reward")
    tile = state.reward_tile
    assert tile is not None
    kind = r.rewards[tile].kind
    if kind == "bonus":
        if cmd.choice not in ("bonus", "florins"):
            raise illegal(f"the reward of round {state.round} is `reward bonus ...` ({tile}) "
                          f"or `reward florins`", "reward-choice")
        b.emit(ev.RewardTaken(seat, cmd.choice))
        if cmd.choice == "florins":
            if cmd.action is not None:
                raise illegal("`reward florins` asks no more choices", "then")
            b.emit(ev.FlorinsGained(seat, r.reward_florins))
        else:
            do_bonus(b, seat, tile, cmd.action)
        _son_marriage(b, seat)
        return
    if cmd.choice not in ("points", "buy"):
        raise illegal(f"the reward of round {state.round} is `reward points` ({tile}) or "
                      f"`reward buy` (and {r.buy_points} VP for {r.buy_cost} florins)",
                      "reward-choice")
    if cmd.action is not None:
        raise illegal(f"`reward {cmd.choice}` asks no more choices", "then")
    p = state.players[seat]
    if cmd.choice == "buy" and p.florins < r.buy_cost:
        raise illegal(f"buying {r.buy_points} VP costs {r.buy_cost} florins; you have "
                      f"{p.florins}", "reward-buy")
    b.emit(ev.RewardTaken(seat, cmd.choice))
    points = points_reward(state, seat, tile)
    if points:
        b.emit(ev.PointsScored(seat, points, tile))
    if cmd.choice == "buy":
        b.emit(ev.FlorinsGained(seat, -r.buy_cost))
        b.emit(ev.PointsScored(seat, r.buy_points, "buy"))


_DECIDE: dict[type[Any], Callable[[Builder, int, Any], None]] = {
    Take: _take, Activate: _activate, Done: _done, Pass: _pass, Reward: _reward}
"""A player's command decided by its type (its verb)."""


def _son_marriage(b: Builder, seat: int) -> None:
    """S3: a rewarded player with an unmarried son marries him (rounds 1-5)."""
    state, r = b.state, b.state.rules
    if state.round not in r.son_marriage_rounds:
        return
    florins = r.son_marriage_florins if state.round in r.son_marriage_florin_rounds else 0
    p = state.players[seat]
    if p.sons < len(r.son_points):
        b.emit(ev.SonMarried(seat, p.sons + 1, r.son_points[p.sons], florins))
    elif florins and r.son_florins_to_every_rewarded:
        b.emit(ev.FlorinsGained(seat, florins))


# --------------------------------------------------------------------------- automatic


def automatic(state: State) -> list[Any]:
    """The events that follow by themselves now (none while a command or chance is
    awaited)."""
    if state.chance is not None:
        return []
    phase = state.phase
    if phase == ACTIONS or phase == EXTRA:
        a = state.active
        if a is not None:
            return [] if _helper_follows(state, a) else [ev.TurnEnded(a.seat)]
        if phase == ACTIONS:
            turn = state.turn
            if turn is None:
                return _reward_phase(state)
            if len(state.players[turn].dice) >= state.rules.max_dice or not can_take(
                    state, turn):
                return [ev.Passed(turn, auto=True)]
            return []
        if not state.extra:
            return [ev.RoundEnded(state.round)]
        if not can_take(state, state.extra[0]):
            return [ev.ExtraSkipped(state.extra[0])]
        return []
    if phase == BETWEEN:
        if state.round >= state.rules.rounds:
            return [final_scores(state)]
        return [ev.RoundStarted(state.round + 1)]
    if phase == REWARDS and not state.rewarded:
        if state.extra:
            return [ev.DiceCleared()]
        return [ev.RoundEnded(state.round)]
    return []


def _helper_follows(state: State, a: Active) -> bool:
    """Whether a helper below the die just taken may follow: only the seat's own
    helpers in its column can (first the quick yes of one whose effect asks nothing)."""
    seat, colour, below = a.seat, a.colour, a.next
    spaces: tuple[HelperSpace, ...] = ()
    for c, space in state.players[seat].helpers:
        if c == colour and space >= below:
            if not spaces:
                spaces = state.rules.columns[colour].helpers
            if space <= len(spaces) and spaces[space - 1].effect in ALWAYS:
                return True
            if can_activate(state, seat, space):
                return True
    return False


def _reward_phase(state: State) -> list[Any]:
    """Everyone has passed: initiative VP, the new turn order, the reward check."""
    r = state.rules
    out: list[Any] = []
    for seat, p in enumerate(state.players):
        points = r.initiative_points[p.initiative]
        if points:
            out.append(ev.PointsScored(seat, points, "initiative"))
    order = tuple(sorted(state.order, key=lambda s: (-state.players[s].initiative,
                                                     -state.players[s].stamp)))
    out.append(ev.TurnOrderSet(order))
    rewarded = tuple(s for s in order if state.players[s].dice_sum <= state.threshold(s))
    out.append(ev.RewardChecked(rewarded))
    return out


def apply(state: State, seat: int, cmd: Any) -> tuple[State, list[Any]]:
    """Decide a command and fold its events and those that follow by themselves: the
    new state and the events; `state` is never changed.

    Raises:
        IllegalMoveError: the command breaks a rule.
    """
    new = copy_state(state)
    return new, _apply(new, seat, cmd)


def apply_in_place(state: State, seat: int, cmd: Any) -> list[Any]:
    """Decide a command and fold its events, and those that follow by themselves, into
    `state` itself: the events.

    A player's command on its turn goes straight to its verb's step (`_step`: the one
    `decide` would find), then what may follow it. Only the steps whose checks go on
    after their first event is folded (a die, a helper or a reward is folded before
    its action is checked) keep what `restore` needs, unless the command surely folds
    whole (`_sure`); the others, chance's, and a command refused by `decide`'s first
    checks change nothing before all their checks pass. The verbs are told apart by
    plain tests, no table of functions: the compiled build calls each step natively.

    Raises:
        IllegalMoveError: the command breaks a rule; `state` is put back as it was.
    """
    b = Builder(state)
    kind = type(cmd)
    if kind is Take or kind is Activate or kind is Reward or kind is Pass or kind is Done:
        # the seat whose command the game waits for while no chance is due (what
        # `State.waiting` gives then; none: None)
        phase, to_act = state.phase, None
        if state.chance is not None:
            pass
        elif phase == ACTIONS or phase == EXTRA:
            a = state.active
            if a is not None:
                to_act = a.seat
            elif phase == ACTIONS:
                to_act = state.turn
            elif state.extra:
                to_act = state.extra[0]
        elif phase == REWARDS and state.rewarded:
            to_act = state.rewarded[0]
        if seat != to_act:  # a player's command off its turn: refused (but checked as
            _undoable(b, seat, cmd, False)  # any other, with an undo all the same)
        elif kind is Pass or kind is Done or _sure(state, seat, cmd, kind):
            _step(b, seat, cmd, kind)
        else:
            _undoable(b, seat, cmd, True)
    else:  # chance's (or no command of this game's)
        decide(b, seat, cmd)
    _follow(b, state)
    events = b.events
    state.version += len(events)
    return events


def _step(b: Builder, seat: int, cmd: Any, kind: type[Any]) -> None:
    """The step of a player's command on its turn, by its verb (`_DECIDE`'s)."""
    if kind is Take:
        _take(b, seat, cmd)
    elif kind is Activate:
        _activate(b, seat, cmd)
    elif kind is Reward:
        _reward(b, seat, cmd)
    elif kind is Pass:
        _pass(b, seat, cmd)
    else:
        _done(b, seat, cmd)


def _sure(state: State, seat: int, cmd: Any, kind: type[Any]) -> bool:
    """Whether a command surely folds whole once its first event is folded (one that
    may only refuse before it): no undo is kept for it."""
    if kind is Take:
        return _sure_take(state, seat, cmd)
    if kind is Activate:
        return _sure_activate(state, seat, cmd)
    return _sure_reward(state, seat, cmd)


def _undoable(b: Builder, seat: int, cmd: Any, on_turn: bool) -> None:
    """The command's step (`on_turn`; else `decide`, which refuses it), the state put
    back if it is refused after part of it is folded."""
    state = b.state
    kept = snapshot(state, seat)
    try:
        if on_turn:
            _step(b, seat, cmd, type(cmd))
        else:
            decide(b, seat, cmd)
    except BaseException:
        restore(state, kept)
        raise
    release(state, kept)


def _follow(b: Builder, state: State) -> None:
    """Fold what follows by themselves (`automatic`) until nothing does: the common
    answers first, without asking `automatic` (after a die or a helper, a helper of
    the die's column may follow, or the turn ends; in the action phase the next seat
    passes if it has 4 dice or no legal die, else nothing follows; a reward awaited
    or chance due: nothing)."""
    if state.chance is not None:
        return
    phase = state.phase
    if phase == ACTIONS or phase == EXTRA:
        a = state.active
        if a is not None:
            if state.players[a.seat].helpers and _helper_follows(state, a):
                return
            ended = ev.TurnEnded(a.seat)
            _turn_ended(state, ended)  # (`b.emit`, inlined)
            b.events.append(ended)
        if phase == ACTIONS:
            turn = state.turn
            if turn is not None:  # (no chance is due, no die is active)
                if len(state.players[turn].dice) < state.rules.max_dice and can_take(
                        state, turn):
                    return
                b.emit(ev.Passed(turn, auto=True))
    elif phase == REWARDS and state.rewarded:
        return
    while more := automatic(state):
        b.emit_all(more)


def _apply(state: State, seat: int, cmd: Any) -> list[Any]:
    b = Builder(state)
    decide(b, seat, cmd)
    while more := automatic(state):  # (`_follow`'s answers, all asked of `automatic`)
        b.emit_all(more)
    events = b.events
    state.version += len(events)
    return events


def _sure_take(state: State, seat: int, cmd: Take) -> bool:
    """A die whose action cannot be refused once the die is paid for (`do_field`):
    the Signoria action of florins or offspring of the die's own column, or a helper
    hired (`do_hire`) that the florins left after the die pay for."""
    r = state.rules
    column = r.columns.get(cmd.colour)
    if column is None:
        return False
    action = cmd.action
    if isinstance(action, (Florins, Offspring)):
        return column.signoria == action.word
    if not isinstance(action, Hire):
        return False
    target = r.hire_target(cmd.colour)
    if target is None:
        return False
    hs = r.helper_space(target, action.space)
    p = state.players[seat]
    if hs is None or state.helpers_left <= 0 or p.has_helper(target, action.space):
        return False
    cost = 0 if state.phase == EXTRA else max(0, column.cost - cmd.value)
    return hs.cost <= p.florins - cost


def _sure_activate(state: State, seat: int, cmd: Activate) -> bool:
    """A helper whose effect asks nothing and needs nothing (`ALWAYS`), given no
    action."""
    a = state.active
    if a is None or cmd.action is not None:
        return False
    hs = state.rules.helper_space(a.colour, cmd.space)
    return hs is not None and hs.effect in ALWAYS


def _sure_reward(state: State, seat: int, cmd: Reward) -> bool:
    """A VP tile's reward (checked whole before its first event), or the florins
    of a bonus tile given no action."""
    tile = state.reward_tile
    if state.phase != REWARDS or tile is None:
        return False
    if state.rules.rewards[tile].kind == "bonus":
        return cmd.choice == "florins" and cmd.action is None
    return True
