"""The grid's cached placement questions answer as the uncached ones do."""

from __future__ import annotations

import random

import pytest

from engine.princes.grid import Grid
from engine.princes.ruleset import STANDARD_RULES

GRID = STANDARD_RULES.grid


def test_cached_masks_and_shapes_match_the_computation() -> None:
    rng = random.Random(11)
    fresh = Grid(GRID.width, GRID.height, GRID.cells_of(GRID.palazzo), GRID.tiles,
                 GRID.shapes)
    for _ in range(2000):
        tile = rng.choice(sorted(GRID.tiles))
        cells = tuple(rng.sample(GRID.cell_names, GRID.tiles[tile] + rng.choice((-1, 0, 0))))
        for _ in range(2):  # the second time from the cache
            mask = GRID.mask_of(cells)
            assert mask == fresh._mask_of(cells)
            assert GRID.shape_error(tile, mask) == fresh._shape_error(tile, mask)
    assert GRID.shape_error.cache_info().hits > 0 and GRID.mask_of.cache_info().hits > 0


def test_an_off_grid_cell_is_refused_every_time() -> None:
    for _ in range(2):
        with pytest.raises(KeyError):
            GRID.mask_of(("a1", "z9"))


def test_a_building_touches_what_the_cells_next_to_it_hold() -> None:
    """`checks.placement_error` asks whether the cells next to a building's hold a
    building or the Palazzo: the same as whether the building covers a cell next to
    them, for a building that covers neither."""
    from engine.princes.checks import placement_error
    from engine.princes.state import Player

    rng = random.Random(5)
    building = min(sorted(STANDARD_RULES.buildings), key=GRID.tiles.__getitem__)
    for _ in range(300):
        built = 0
        for cell in rng.sample(GRID.cell_names, rng.randrange(0, 8)):
            built |= GRID.mask_of((cell,))
        built &= ~GRID.palazzo
        p = Player("anna", 0, builders=rng.choice((0, 1, 2)), occupied=built,
                   building_cells=built)
        for mask in GRID.listed_placements(building, GRID.playable & ~built):
            touches = bool(mask & GRID.neighbours(built | GRID.palazzo))
            why = placement_error(STANDARD_RULES, p, building, GRID.cells_of(mask), True)
            assert (why is not None) == (touches and p.builders < 2), (mask, built)
