"""A principality's grid (7×7 in the standard rules): cells, bitmasks, shapes and the
placement rules.

A set of cells is an int bitmask; bit `(row - 1) * width + column` is cell
`<letter><row>`, `a1` at the bottom left. A `Grid` is built from the rules data of a
variant (`Rules.grid`) and caches what it computes; grids with the same data are equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache, lru_cache

from engine.errors import article

Shapes = frozenset[frozenset[tuple[int, int]]]


class Grid:
    """The cells of a principality, its Palazzo, and the tiles that go on it.

    `tiles` gives the cells each tile covers; `shapes` the printed sides of the tiles
    whose shapes are known (ruling R11: any connected shape of its size otherwise).
    """

    def __init__(self, width: int, height: int, palazzo: Sequence[str],
                 tiles: Mapping[str, int],
                 shapes: Mapping[str, tuple[tuple[str, ...], ...]]) -> None:
        self.width, self.height = width, height
        self.tiles = dict(tiles)
        self.shapes = dict(shapes)
        self.all = (1 << (width * height)) - 1
        self._left_edge = sum(1 << (r * width) for r in range(height))
        self._right_edge = sum(1 << (r * width + width - 1) for r in range(height))
        self.cell_names = tuple(f"{chr(ord('a') + i % width)}{i // width + 1}"
                                for i in range(width * height))
        self._index = {name: i for i, name in enumerate(self.cell_names)}
        # Bit positions in canonical order (column, then row).
        self._canonical = tuple(sorted(range(width * height),
                                       key=lambda i: (i % width, i // width)))
        self.palazzo = self._mask_of(palazzo)
        self.playable = self.all & ~self.palazzo
        self.playable_count = self.playable.bit_count()
        self._spec = (width, height, self.palazzo, tuple(sorted(self.tiles.items())),
                      tuple(sorted(self.shapes.items())))
        # Per-grid caches (hits stay in C: replay's hot path calls `fits`).
        self.cells_of = cache(self._cells_of)
        self.allowed_shapes = cache(self._allowed_shapes)
        self._translations = cache(self._translations_of)
        self.fits = lru_cache(maxsize=65536)(self._fits)
        # Placements (replay checks and folds each tile laid; hashing a tuple of cell
        # names is cheaper than working out its mask or shape again).
        self.mask_of = lru_cache(maxsize=65536)(self._mask_of)
        self.shape_error = lru_cache(maxsize=65536)(self._shape_error)
        # The cells next to a placement (`neighbours`, cached as the placements are).
        self.placement_neighbours = lru_cache(maxsize=65536)(self.neighbours)
        # Every placement in a zone, as cells (`placements`): a seat's zone stays the
        # same from one status mail to the next while it builds nothing.
        self.placements = lru_cache(maxsize=256)(self._placements)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and self._spec == other._spec

    def __hash__(self) -> int:
        return hash(self._spec)

    def __repr__(self) -> str:
        return f"Grid({self.width}x{self.height})"

    def cell_index(self, name: str) -> int:
        """Index of a cell name such as `d4`.

        Raises:
            KeyError: a cell off the grid.
        """
        return self._index[name]

    def _mask_of(self, cells: Iterable[str]) -> int:
        """Bitmask of cell names (`mask_of`: of a tuple of them, cached).

        Raises:
            KeyError: a cell off the grid.
        """
        index = self._index
        m = 0
        for c in cells:
            m |= 1 << index[c]
        return m

    def _cells_of(self, mask: int) -> tuple[str, ...]:
        """Cell names of a mask, in canonical order (column, then row)."""
        names = self.cell_names
        return tuple(names[i] for i in self._canonical if mask >> i & 1)

    def neighbours(self, mask: int) -> int:
        """Cells orthogonally next to any cell of the mask (not including it)."""
        w = self.width
        n = (mask << w) | (mask >> w)
        n |= (mask & ~self._right_edge) << 1
        n |= (mask & ~self._left_edge) >> 1
        return n & self.all & ~mask

    def is_connected(self, mask: int) -> bool:
        """True if the cells form one orthogonally connected piece."""
        if not mask:
            return False
        seen = mask & -mask
        while True:
            grown = (seen | self.neighbours(seen)) & mask
            if grown == seen:
                return seen == mask
            seen = grown

    def components(self, mask: int) -> Iterator[int]:
        """The connected pieces of a mask."""
        while mask:
            piece = mask & -mask
            while True:
                grown = (piece | self.neighbours(piece)) & mask
                if grown == piece:
                    break
                piece = grown
            yield piece
            mask &= ~piece

    def _allowed_shapes(self, tile: str) -> Shapes | None:
        """Every orientation of the tile's printed shapes, or None while they are unknown."""
        printed = self.shapes.get(tile)
        if not printed:
            return None
        out: set[frozenset[tuple[int, int]]] = set()
        for side in printed:
            out |= _orientations(_points(side))
        return frozenset(out)

    def _shape_error(self, tile: str, mask: int) -> str | None:
        """Why the cells are not a shape of this tile, or None if they are
        (`shape_error`, cached)."""
        size = self.tiles[tile]
        count = mask.bit_count()
        if count != size:
            return f"{article(tile)} covers {size} cells, not {count}"
        shapes = self.allowed_shapes(tile)
        if shapes is None:
            if not self.is_connected(mask):
                return f"the cells of {article(tile)} must be connected side to side"
            return None
        if _points(self.cells_of(mask)) not in shapes:
            return f"those cells are not a shape of the {tile} tile"
        return None

    def building_zone(self, occupied: int, buildings: int, builders: int) -> int:
        """Free cells where a building may go: not covered and, with fewer than two
        builders, not next to a building or the Palazzo."""
        free = self.all & ~occupied
        if builders < 2:
            free &= ~self.neighbours(buildings | self.palazzo)
        return free

    def _translations_of(self, tile: str) -> tuple[int, ...]:
        """Every placement on the empty grid of the tile's shapes: its printed sides, or
        while those are unknown every connected shape of its size (ruling R11)."""
        shapes = self.allowed_shapes(tile)
        if shapes is None:
            shapes = polyominoes(self.tiles[tile])
        w, h = self.width, self.height
        out = set()
        for shape in shapes:
            wx = max(x for x, _ in shape) + 1
            hy = max(y for _, y in shape) + 1
            base = sum(1 << (y * w + x) for x, y in shape)
            for dy in range(h - hy + 1):
                for dx in range(w - wx + 1):
                    out.add(base << (dy * w + dx))
        return tuple(sorted(out))

    def listed_placements(self, tile: str, zone: int) -> Iterator[int]:
        """Every placement of the tile inside `zone`."""
        for m in self._translations(tile):
            if m & zone == m:
                yield m

    def _placements(self, tile: str, zone: int) -> tuple[tuple[str, ...], ...]:
        """The cells of every placement of the tile inside `zone`, in the order
        `listed_placements` gives them."""
        outside = self.all & ~zone
        return tuple(map(self.cells_of, [m for m in self._translations(tile) if not m & outside]))

    def _fits(self, tile: str, zone: int) -> bool:
        """True if the tile can be placed somewhere inside `zone`.

        Exact while shapes are unknown (any connected shape: a large enough piece
        suffices); with printed shapes, every placement is tried.
        """
        size = self.tiles[tile]
        if self.allowed_shapes(tile) is None:
            return any(p.bit_count() >= size for p in self.components(zone))
        return next(self.listed_placements(tile, zone), None) is not None


def _normalise(points: Iterable[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    pts = list(points)
    mx = min(x for x, _ in pts)
    my = min(y for _, y in pts)
    return frozenset((x - mx, y - my) for x, y in pts)


def _orientations(shape: frozenset[tuple[int, int]]) -> Shapes:
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
def polyominoes(size: int) -> Shapes:
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
