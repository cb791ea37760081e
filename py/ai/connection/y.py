"""The Y computer player: the connection-game search of ``ai.connection``
plus Y's own swap decision and openings.

The levels and budgets are those of Hex (see ``ai.connection.hex``).

Swapping. In Y the centre is very strong and the edges weak: on the solved
small triangles (HexWiki, "Where to swap (y)") every first stone off the
edge should be swapped, up to side 7, and the edge cells kept. Larger
triangles have no solved map; the rule assumes the band of keepable cells
along the edges widens slowly with the size: swap a stone at least
``swap_distance(size)`` cells away from every edge (1 up to side 9, then
one more for every six rows), keep those nearer the edge.

Opening. With the swap rule on the AI opens just outside the region it
would swap itself, away from the corners (which help only one edge pair):
a cell at the largest kept edge distance in the middle stretch of an edge.
"""

from __future__ import annotations

import random

from core.y import YState

from . import engine as connection
from .board import edge_distances
from .engine import LEVEL_SETTINGS, LEVELS, SearchResult, search

__all__ = ["LEVELS", "LEVEL_SETTINGS", "Engine", "choose_move", "should_swap", "swap_distance", "fair_openings",
           "opening_move", "search", "SearchResult"]


def swap_distance(size: int) -> int:
    """The edge distance from which an opening stone is swapped."""
    return 1 if size <= 9 else 1 + (size - 4) // 6


def should_swap(state: YState) -> bool:
    """Whether to swap the opening stone (the swap must be legal)."""
    return edge_distances(state)[state.moves[0]] >= swap_distance(state.size)


def fair_openings(size: int) -> list[int]:
    """Balanced first moves on a triangle of side ``size``: at the kept
    edge distance next to the swapped region, in the middle third of their
    side of the triangle."""
    state = YState(size)
    distance = edge_distances(state)
    keep = swap_distance(size) - 1
    cells = []
    for cell in range(state.cell_count):
        if distance[cell] != keep:
            continue
        row, col = state.row_col(cell)
        # Barycentric-like position along the triangle: skip the corner thirds.
        left, right, bottom = col, row - col, size - 1 - row
        if sorted((left, right, bottom))[1] >= (size - 1) // 3:
            cells.append(cell)
    return cells


def opening_move(state: YState, rng: random.Random) -> int:
    """A fair opening, chosen at random."""
    return rng.choice(fair_openings(state.size))


class Engine(connection.Engine[YState]):
    """The Y player: the connection games' engine with Y's swap decision
    and openings."""

    swaps = staticmethod(should_swap)
    opening = staticmethod(opening_move)


choose_move = Engine.fresh_move
