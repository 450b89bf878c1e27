"""The checks that deciding a command shares: whose turn, which action, what cash,
where a tile may go. Each raises the precise error or returns what it checked."""

from __future__ import annotations

from engine.errors import IllegalMoveError, NotYourTurnError

from .ruleset import Rules
from .state import Player, State


def illegal(message: str, rule: str) -> IllegalMoveError:
    """The error for a command the rules forbid (`rule` names the rule broken)."""
    return IllegalMoveError(message, rule)


def require_turn(state: State, seat: int) -> None:
    """Raises:
        NotYourTurnError: it is not the seat's turn.
    """
    if state.turn != seat:
        who = state.players[state.turn].name if state.turn is not None else "nobody"
        raise NotYourTurnError(f"it is {who}'s turn, not yours", "turn")


def require_action_turn(state: State, seat: int) -> Player:
    """The acting player, in the action phase on their turn.

    Raises:
        IllegalMoveError: not the action phase, or not the seat's turn.
    """
    if state.phase != "action":
        raise illegal(f"actions are taken in the action phase; this is the {state.phase} phase",
                      "phase")
    require_turn(state, seat)
    return state.players[seat]


def require_action(state: State, seat: int, kind: str) -> Player:
    """The acting player, who may still take an action of this kind this round.

    Raises:
        IllegalMoveError: as `require_action_turn`, or a limit is reached.
    """
    if state.turn != seat or state.phase != "action":
        require_action_turn(state, seat)
    p = state.players[seat]
    limits = state.rules.limits
    if p.actions >= limits["actions"] + (state.court is not None and _cardinal(state, seat)):
        raise illegal("you have no actions left this round", "action-limit")
    limit = limits[kind]
    if p.used.get(kind, 0) >= limit:
        times = "once" if limit == 1 else f"{limit} times"
        raise illegal(f"you may take the {kind} action only {times} a round", f"limit-{kind}")
    return p


def require_cash(p: Player, amount: int, what: str) -> None:
    """Raises:
        IllegalMoveError: the player has fewer florins than `amount`.
    """
    if p.florins < amount:
        raise illegal(
            f"{what} costs {amount} florins and you have {p.florins}; "
            f"you may sell fame first ('sell N')", "cash")


def placement_error(rules: Rules, p: Player, tile: str, cells: tuple[str, ...],
                    building: bool) -> str | None:
    """Why the player may not lay the tile on these cells, or None."""
    grid = rules.grid
    try:
        mask = grid.mask_of(cells)
    except KeyError:
        bad = next(c for c in cells if c not in grid.cell_names)
        return f"cell {bad} is not on the {grid.width}x{grid.height} grid"
    if mask.bit_count() != len(cells):  # one bit per cell name: a name given twice
        return "a cell is named twice"
    if mask & grid.palazzo:
        return "a tile may not cover the Palazzo"
    if mask & p.occupied:
        taken = grid.cells_of(mask & p.occupied)
        return f"cell {taken[0]} is already covered"
    why = grid.shape_error(tile, mask)
    if why:
        return why
    # (next to a building or the Palazzo: the cells next to the tile's, which cover
    # neither, hold one)
    if building and p.builders < 2 and \
            grid.placement_neighbours(mask) & (p.building_cells | grid.palazzo):
        return ("a building may not touch another building or the Palazzo "
                "unless you have 2 builders")
    return None


def _cardinal(state: State, seat: int) -> int:
    """The Cardinal's extra action (The Muse and the Princess)."""
    from .characters import extra_actions  # characters imports this module

    return extra_actions(state, seat)
