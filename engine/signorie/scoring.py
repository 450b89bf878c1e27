"""Final scoring and standings: career figures at half their space, plan rows of at
least 3 tiles (face-down ones revealed, 1 VP each), the tie-break by turn order."""

from __future__ import annotations

from engine.protocol import Standing

from . import events as ev
from .commands import CAREERS, ROWS
from .state import State


def career_points(state: State, seat: int) -> int:
    """What `seat`'s figures still on career tracks score: half their space's VP each,
    rounded down."""
    r = state.rules
    return sum(r.career_points[space - 1] // r.career_end_divisor
               for career in CAREERS for owner, space in state.figures_on(career)
               if owner == seat)


def row_points(state: State, seat: int) -> int:
    """What `seat`'s plan rows score: every tile of each row of at least 3 tiles."""
    r = state.rules
    p = state.players[seat]
    total = 0
    for row in ROWS:
        if p.row_count(row) >= r.row_min_tiles:
            total += sum(r.tile_points(t) for t in p.open_tiles(row))
            total += r.face_down_points * p.face_down.count(row)
    return total


def tiebreak(state: State, seat: int) -> int:
    """Higher is better: earlier in the current turn order (S12)."""
    return len(state.order) - state.order.index(seat) if seat in state.order else 0


def final_scores(state: State) -> ev.GameEnded:
    """The final scoring event: the face-down tiles revealed, the points, the winners."""
    n = len(state.players)
    careers = tuple(career_points(state, s) for s in range(n))
    rows = tuple(row_points(state, s) for s in range(n))
    keys = [(state.players[s].points + careers[s] + rows[s], tiebreak(state, s))
            for s in range(n)]
    best = max(keys)
    revealed = tuple((s, row, tile) for s, p in enumerate(state.players)
                     for row, tile in zip(p.face_down, p.hidden, strict=True))
    return ev.GameEnded(revealed, careers, rows,
                        tuple(s for s in range(n) if keys[s] == best))


def standings(state: State) -> tuple[Standing, ...]:
    """Every player's standing: VP so far (final after the game), the turn-order
    tie-break, and the board's numbers."""
    keys = [(p.points, (tiebreak(state, s),)) for s, p in enumerate(state.players)]
    out = []
    for s, p in enumerate(state.players):
        fields = {
            "points": p.points, "florins": p.florins, "males": p.males, "females": p.females,
            "helpers": len(p.helpers), "sons": p.sons, "alliance_tiles": len(p.tiles),
            "face_down_tiles": len(p.face_down),
            "career_figures": sum(1 for c in CAREERS for o, _ in state.figures_on(c)
                                  if o == s),
            "city_figures": sum(1 for c in state.cities for f in ("marriage", "mission")
                                for o in c.spaces(f) if o == s),
        }
        out.append(Standing(seat=s, name=p.name, score=p.points, tiebreaks=keys[s][1],
                            place=1 + sum(1 for k in keys if k > keys[s]), fields=fields))
    return tuple(out)
