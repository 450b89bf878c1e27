"""The 7×7 principality: cells, bitmasks, shapes and the placement rules.

A set of cells is an int bitmask; bit `(row - 1) * width + column` is cell
`<letter><row>`, `a1` at the bottom left.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache, lru_cache

from .ruleset import RULES

W = RULES.width
H = RULES.height
ALL = (1 << (W * H)) - 1
_LEFT_EDGE = sum(1 << (r * W) for r in range(H))
_RIGHT_EDGE = sum(1 << (r * W + W - 1) for r in range(H))
CELL_NAMES = tuple(f"{chr(ord('a') + i % W)}{i // W + 1}" for i in range(W * H))
_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}


def cell_index(name: str) -> int:
    """Index of a cell name such as `d4`. Raises KeyError for a cell off the grid."""
    return _INDEX[name]


def mask_of(cells: Iterable[str]) -> int:
    """Bitmask of cell names (each must be on the grid)."""
    m = 0
    for c in cells:
        m |= 1 << _INDEX[c]
    return m


# Bit positions in canonical order (column, then row).
_CANONICAL = tuple(sorted(range(W * H), key=lambda i: (i % W, i // W)))


@cache
def cells_of(mask: int) -> tuple[str, ...]:
    """Cell names of a mask, in canonical order (column, then row)."""
    return tuple(CELL_NAMES[i] for i in _CANONICAL if mask >> i & 1)


PALAZZO = mask_of(RULES.palazzo)
PLAYABLE = ALL & ~PALAZZO
PLAYABLE_COUNT = bin(PLAYABLE).count("1")


def neighbours(mask: int) -> int:
    """Cells orthogonally next to any cell of the mask (not including it)."""
    n = (mask << W) | (mask >> W)
    n |= (mask & ~_RIGHT_EDGE) << 1
    n |= (mask & ~_LEFT_EDGE) >> 1
    return n & ALL & ~mask


def is_connected(mask: int) -> bool:
    """True if the cells form one orthogonally connected piece."""
    if not mask:
        return False
    seen = mask & -mask
    while True:
        grown = (seen | neighbours(seen)) & mask
        if grown == seen:
            return seen == mask
        seen = grown


def components(mask: int) -> Iterator[int]:
    """The connected pieces of a mask."""
    while mask:
        piece = mask & -mask
        while True:
            grown = (piece | neighbours(piece)) & mask
            if grown == piece:
                break
            piece = grown
        yield piece
        mask &= ~piece


def _normalise(points: Iterable[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    pts = list(points)
    mx = min(x for x, _ in pts)
    my = min(y for _, y in pts)
    return frozenset((x - mx, y - my) for x, y in pts)


def _orientations(shape: frozenset[tuple[int, int]]) -> frozenset[frozenset[tuple[int, int]]]:
    out = set()
    pts = shape
    for _ in range(4):
        pts = _normalise((y, -x) for x, y in pts)
        out.add(pts)
        out.add(_normalise((-x, y) for x, y in pts))
    return frozenset(out)


def _points(cells: Iterable[str]) -> frozenset[tuple[int, int]]:
    return _normalise((ord(c[0]) - ord("a"), int(c[1:]) - 1) for c in cells)


@cache
def allowed_shapes(tile: str) -> frozenset[frozenset[tuple[int, int]]] | None:
    """Every orientation of the tile's printed shapes, or None while they are unknown."""
    printed = RULES.shapes.get(tile)
    if not printed:
        return None
    out: set[frozenset[tuple[int, int]]] = set()
    for side in printed:
        out |= _orientations(_points(side))
    return frozenset(out)


def shape_error(tile: str, mask: int) -> str | None:
    """Why the cells are not a shape of this tile, or None if they are."""
    size = RULES.tile_size(tile)
    count = bin(mask).count("1")
    if count != size:
        return f"a {tile} covers {size} cells, not {count}"
    shapes = allowed_shapes(tile)
    if shapes is None:
        if not is_connected(mask):
            return f"the cells of a {tile} must be connected side to side"
        return None
    if _points(cells_of(mask)) not in shapes:
        return f"those cells are not a shape of the {tile} tile"
    return None


def building_zone(occupied: int, buildings: int, builders: int) -> int:
    """Free cells where a building may go: not covered and, with fewer than two
    builders, not next to a building or the Palazzo."""
    free = ALL & ~occupied
    if builders < 2:
        free &= ~neighbours(buildings | PALAZZO)
    return free


@cache
def polyominoes(size: int) -> frozenset[frozenset[tuple[int, int]]]:
    """Every fixed polyomino of `size` cells (each rotation and reflection apart)."""
    if size == 1:
        return frozenset({frozenset({(0, 0)})})
    out = set()
    for shape in polyominoes(size - 1):
        for x, y in shape:
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if (nx, ny) not in shape:
                    out.add(_normalise(shape | {(nx, ny)}))
    return frozenset(out)


@cache
def _translations(tile: str) -> tuple[int, ...]:
    """Every placement on the empty grid of the tile's shapes: its printed sides, or
    while those are unknown every connected shape of its size (ruling R11)."""
    shapes = allowed_shapes(tile)
    if shapes is None:
        shapes = polyominoes(RULES.tile_size(tile))
    out = set()
    for shape in shapes:
        wx = max(x for x, _ in shape) + 1
        hy = max(y for _, y in shape) + 1
        base = sum(1 << (y * W + x) for x, y in shape)
        for dy in range(H - hy + 1):
            for dx in range(W - wx + 1):
                out.add(base << (dy * W + dx))
    return tuple(sorted(out))


def listed_placements(tile: str, zone: int) -> Iterator[int]:
    """Every placement of the tile inside `zone`."""
    for m in _translations(tile):
        if m & zone == m:
            yield m


@lru_cache(maxsize=65536)
def fits(tile: str, zone: int) -> bool:
    """True if the tile can be placed somewhere inside `zone`.

    Exact while shapes are unknown (any connected shape: a large enough piece
    suffices); with printed shapes, every placement is tried.
    """
    size = RULES.tile_size(tile)
    if allowed_shapes(tile) is None:
        return any(bin(p).count("1") >= size for p in components(zone))
    return next(listed_placements(tile, zone), None) is not None
