"""The Hex computer player: the connection-game search of ``ai.connection``
plus Hex's own swap decision and openings.

Levels (``LEVELS``, weakest first) and their budgets per move (the
seconds are wall-clock, in the browser too, where Python runs at about
0.65x the speed of CPython):

    ==========  ==========  =======  ==============================
    level       playouts    at most  notes
    ==========  ==========  =======  ==============================
    beginner    60          0.3 s    random playouts, wins in one only
    casual      400         0.5 s
    strong      3000        1.0 s
    master      no cap      2.0 s    keeps its tree between moves
    ==========  ==========  =======  ==============================

Every level takes a win in one, blocks a single threatened win and, with
the swap rule on, swaps strong openings and opens with a fair one; all but
the beginner also see virtual connections (see ``ai.connection``) and,
without the swap rule, open in the centre.

Swapping. On the solved boards (HexWiki's swap maps, up to 9 x 9) and in
strong players' swap map for 11 x 11 ("Openings on 11 x 11"), a first stone
on the opener's own first row is weak except at the obtuse corner, the
second row and the opponent's edge are mixed, and everything further in is
strong. The rule here is that picture simplified: swap a black stone unless
it lies on one of black's two outer rows at either side, or on one of
white's edge columns.

Opening. With the swap rule on the AI opens with a fair move, so that
neither swapping nor keeping gives the opponent much: the second-row cells
that double as ladder escapes (``c2``-like, two cells from an acute corner
on the 11 x 11 board), the third cell of the opponent's edge (``a3``-like)
and the obtuse corner itself (``a11``-like), and their 180-degree images,
chosen at random.
"""

from __future__ import annotations

import random

from core.hex import HexState

from . import engine as connection
from .engine import LEVEL_SETTINGS, LEVELS, SearchResult, search

__all__ = ["LEVELS", "LEVEL_SETTINGS", "Engine", "choose_move", "should_swap", "fair_openings", "opening_move",
           "search", "SearchResult"]


def should_swap(state: HexState) -> bool:
    """Whether to swap the opening stone (the swap must be legal)."""
    size = state.size
    row, col = divmod(state.moves[0], size)
    if min(row, size - 1 - row) <= 1:  # black's own first or second row
        return False
    if min(col, size - 1 - col) == 0:  # on white's edge
        return False
    return True


def fair_openings(size: int) -> list[int]:
    """Balanced first moves for black on a ``size`` board (see the module
    doc), as cells, ascending."""
    last = size - 1
    cells = {
        1 * size + 2,  # c2: second row, a ladder escape near the acute corner
        1 * size + last - 2,  # the same near the obtuse corner
        2 * size + 0,  # a3: third cell of white's first edge
        last * size + 0,  # the obtuse corner
    }
    cells |= {size * size - 1 - cell for cell in cells}  # 180-degree images
    return sorted(cells)


def opening_move(state: HexState, rng: random.Random) -> int:
    """A fair opening, chosen at random."""
    return rng.choice(fair_openings(state.size))


class Engine(connection.Engine[HexState]):
    """The Hex player: the connection games' engine with Hex's swap
    decision and openings."""

    swaps = staticmethod(should_swap)
    opening = staticmethod(opening_move)


choose_move = Engine.fresh_move
