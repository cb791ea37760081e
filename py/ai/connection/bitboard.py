"""The bitmask tables of a Hex or Y board for the exact solver and
H-search: each cell's neighbours, each player's edges, the cells two
apart, the order cells are tried in, and the edge templates' placements.

Positions are two bitmasks (bit ``c`` for cell ``c`` of the core's
numbering), the side to move's stones and the opponent's
(``position_masks``).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.hex import BOTTOM, LEFT, RIGHT, TOP, layout
from core.y import BOTTOM_EDGE, LEFT_EDGE, RIGHT_EDGE, layout as y_layout

#: Edge template IVa: a stone (or an empty cell) four rows from its edge
#: is joined to the edge whoever moves, inside this carrier. Offsets
#: (rows towards the edge, columns) from the anchor on the top edge,
#: where a cell's neighbours are the cells beside it and the two above
#: at columns +0, +1 (the core's layout); the same shape mirrored (the
#: board's symmetry that keeps each row: column c of row r goes to
#: -c - r) is the other IVa. Derived with the exact solver (``solver``)
#: (a stone on e4 of a 9 x 9 board joined to its far edge, every cell
#: outside the carrier the opponent's, the opponent to move: it loses,
#: and wins once any carrier cell is taken from the carrier) and checked
#: so by ``tests/ai/test_hex_solver.py``. H-search's greedy OR rule misses
#: it whenever other SCs come first (the templates of rows 2 and 3, the
#: bridge to the edge and the ziggurat, it finds), so ``h_search`` adds it
#: as a VC of its own, on Hex's four edges and on Y's three (near a
#: straight edge Y's cells lie as Hex's do): on 150 random 11 x 11 Hex
#: positions it took 8.14 s against 8.10 s, and found SCs on 62 against
#: 60. Every placement on Y's side 9 is checked as on Hex
#: (``tests/ai/test_y_solver.py``).
TEMPLATE_IVA = tuple((row, column) for row, first, last in ((0, -1, -1), (-1, -2, 2), (-2, -2, 3), (-3, -2, 4))
                     for column in range(first, last + 1))
TEMPLATES = (TEMPLATE_IVA, tuple((row, -column - row) for row, column in TEMPLATE_IVA))


def _template_cells(shape: tuple[tuple[int, int], ...], place) -> list[tuple[int, int]]:
    """A template's anchor (four rows from its edge) and then its carrier's
    cells, each put on the board by ``place``: a Hex top-edge cell (rows
    from the edge, column from the anchor's) -> the board's (row, column)."""
    return [place(3, 0)] + [place(3 + row, step) for row, step in shape]


def _template_bits(cells: list[int]) -> tuple[int, int]:
    """(the anchor's bit, the carrier) of ``_template_cells``' cells, numbered."""
    bits = [1 << cell for cell in cells]
    return bits[0], sum(bits[1:])


def position_masks(owners: Sequence[int], player: int) -> tuple[int, int]:
    """A core position's owners (-1 empty, else the player) as the solver's
    two bitmasks: ``player``'s stones and the opponent's."""
    mine = theirs = 0
    for cell, owner in enumerate(owners):
        if owner == player:
            mine |= 1 << cell
        elif owner >= 0:
            theirs |= 1 << cell
    return mine, theirs


class Board:
    """The bitmask tables of a board of ``game`` ("hex" or "y") and side
    ``size``: each cell's neighbours, and each player's edges (Hex: black
    the first and last rows, white the first and last columns; Y: the three
    sides, both players'). A player wins by one group touching all of its
    edges."""

    def __init__(self, size: int, game: str = "hex", templates: bool = True) -> None:
        board = (layout if game == "hex" else y_layout)(size)  # the core's geometry, as bitmasks
        self.game = game
        self.size = n = size
        self.cells = board.cells
        self.full = (1 << self.cells) - 1
        self.around = tuple(sum(1 << cell for cell in near) for near in board.neighbours)
        #: (a cell's bit, another's, the cells both touch) for each two cells
        #: that do not touch but have a neighbour in common
        between: dict[tuple[int, int], int] = {}
        for one, near in enumerate(board.neighbours):
            for mid in near:
                for two in board.neighbours[mid]:
                    if two > one and two not in near:
                        between[(one, two)] = between.get((one, two), 0) | 1 << mid
        self.two_apart = tuple((1 << one, 1 << two, cells) for (one, two), cells in sorted(between.items()))

        def on_edge(player: int, edge: int) -> int:
            return sum(1 << cell for cell, edges in enumerate(board.edges[player]) if edges & edge)

        #: edges[player]: each of the player's edges' cells
        self.edges: tuple[tuple[int, ...], tuple[int, ...]]
        #: templates[player]: (edge, anchor's bit, carrier) of every edge template's placement
        self.templates: tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]]
        if game == "hex":
            self.edges = ((on_edge(0, TOP), on_edge(0, BOTTOM)), (on_edge(1, LEFT), on_edge(1, RIGHT)))
            centre = (n - 1) / 2
            # Central cells first: they matter most.
            self.order = tuple(sorted(range(self.cells), key=lambda c: (
                abs(c // n - centre) + abs(c % n - centre) + abs(c // n + c % n - 2 * centre), c)))
            self.templates = (self._templates(0), self._templates(1)) if templates else ((), ())
        else:
            sides = tuple(on_edge(0, edge) for edge in (LEFT_EDGE, RIGHT_EDGE, BOTTOM_EDGE))
            self.edges = (sides, sides)
            # Central cells first: the farthest edge nearest.
            away = [self.distances(side) for side in sides]
            self.order = tuple(sorted(range(self.cells), key=lambda c: (max(d[c] for d in away), c)))
            shared = self._y_templates() if templates else ()
            self.templates = (shared, shared)

    def _templates(self, player: int) -> tuple[tuple[int, int, int], ...]:
        """Every placement of the edge templates (``TEMPLATES``) on a Hex
        board for ``player``: (0 for its first edge or 1 for its second,
        the anchor's bit, the carrier). The top edge's shapes turned half
        a turn serve the bottom edge; white's edges are black's mirrored
        across the long diagonal (row and column exchanged)."""
        n = self.size
        out = []
        for shape in TEMPLATES:
            for column in range(n):
                cells = _template_cells(shape, lambda d, t, column=column: (d, column + t))
                if not all(0 <= row < n and 0 <= col < n for row, col in cells):
                    continue
                for edge in (0, 1):
                    placed = [(n - 1 - row, n - 1 - col) if edge else (row, col) for row, col in cells]
                    if player:
                        placed = [(col, row) for row, col in placed]
                    out.append((edge, *_template_bits([row * n + col for row, col in placed])))
        return tuple(out)

    def _y_templates(self) -> tuple[tuple[int, int, int], ...]:
        """The same templates on Y's three edges (both players'): near a
        straight edge Y's cells lie as Hex's do. A Hex cell ``(d, t)``, d
        rows from the top edge, is Y's cell ``(n - 1 - d, t)`` from the
        bottom edge, ``(d + t, d)`` from the left one and ``(d + t, t)``
        from the right one (row, column; these keep every neighbour), t
        shifted along the edge. The edges in the order of ``edges``:
        left, right, bottom."""
        n = self.size
        places = (lambda d, t: (d + t, d), lambda d, t: (d + t, t), lambda d, t: (n - 1 - d, t))
        out = []
        for edge, place in enumerate(places):
            for shape in TEMPLATES:
                for shift in range(-n, 2 * n):
                    cells = _template_cells(shape, lambda d, t, place=place, shift=shift: place(d, shift + t))
                    if all(0 <= col <= row < n for row, col in cells):
                        out.append((edge, *_template_bits([row * (row + 1) // 2 + col for row, col in cells])))
        return tuple(out)

    def distances(self, cells: int) -> list[int]:
        """Each cell's distance in steps from the nearest of ``cells``."""
        out = [0] * self.cells
        reached, frontier, steps = cells, cells, 0
        while frontier:
            x = frontier
            while x:
                low = x & -x
                out[low.bit_length() - 1] = steps
                x ^= low
            frontier = self.grow(frontier) & ~reached
            reached |= frontier
            steps += 1
        return out

    def grow(self, x: int) -> int:
        """``x`` and every cell next to it."""
        around = self.around
        out = x
        while x:
            low = x & -x
            out |= around[low.bit_length() - 1]
            x ^= low
        return out

    def flood(self, seed: int, within: int) -> int:
        """The cells of ``within`` connected to ``seed`` through ``within``."""
        x = seed & within
        frontier = x
        around = self.around
        while frontier:
            grown = 0
            while frontier:
                low = frontier & -frontier
                grown |= around[low.bit_length() - 1]
                frontier ^= low
            frontier = grown & within & ~x
            x |= frontier
        return x

    def connected(self, stones: int, player: int) -> bool:
        """Whether one of ``player``'s groups touches all its edges."""
        joined = stones
        for edge in self.edges[player]:
            joined &= self.flood(edge, stones)
        return bool(joined)

    def wins_in_one(self, stones: int, empty: int, player: int) -> int:
        """The empty cells that join ``player``'s edges at once (a cell joins
        every group around it: it wins when each edge is next to it, or next
        to a group touching that edge)."""
        out = empty
        for edge in self.edges[player]:
            out &= self.grow(self.flood(edge, stones)) | edge
        return out
