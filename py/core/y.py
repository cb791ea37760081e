"""Y: touch all three edges of a triangle of hexagons with one chain.

A triangle of side N: row 1 is the apex with one cell, row r has r cells.
The three edges belong to nobody: the left edge (the first cell of each
row), the right edge (the last cell of each row) and the bottom edge (row
N). A corner lies on two edges and counts for both. Players alternately
place a stone on an empty cell; whoever first has one chain touching all
three edges wins. A full board always has exactly one winner. With the swap
rule on, the second player may answer the first stone with ``swap``, which
only changes the stone's colour (the board is symmetric for both players);
then the first player moves again.

Cells are numbered row by row from the apex: cell ``r * (r + 1) / 2 + c``
is the ``c``-th cell (from 0) of row ``r`` (from 0); ``SWAP`` is one past
the last cell. Notation as in ``docs/gtp.md``: the letter is the
position in the row, the number the row, so ``c5`` is the third cell of row
5 (valid when the letter's index is at most the row's). Cell ``(r, c)``
touches ``(r, c±1)``, ``(r-1, c-1)``, ``(r-1, c)``, ``(r+1, c)`` and
``(r+1, c+1)``.

The rules machinery (union-find with an edge mask per group, undo, swap,
settings) is Hex's, in ``core.hex.ConnectionState``.
"""

from __future__ import annotations

from functools import cache

from .hex import LETTERS, ConnectionState, Layout

DEFAULT_SIZE = 13

# The three edges as bits of a group's edge mask; both players share them.
LEFT_EDGE, RIGHT_EDGE, BOTTOM_EDGE = 1, 2, 4
ALL_EDGES = LEFT_EDGE | RIGHT_EDGE | BOTTOM_EDGE


def cell_index(row: int, col: int) -> int:
    """The cell of row ``row``, position ``col`` (both from 0)."""
    return row * (row + 1) // 2 + col


@cache
def row_col(size: int) -> tuple[tuple[int, int], ...]:
    """For each cell of a triangle of side ``size``: (row, position)."""
    return tuple((row, col) for row in range(size) for col in range(row + 1))


@cache
def layout(size: int) -> Layout:
    """The Y triangle of side ``size`` (cached: built once per size)."""
    coords = row_col(size)

    def inside(row: int, col: int) -> bool:
        return 0 <= col <= row < size

    neighbours = tuple(
        tuple(
            cell_index(row + dr, col + dc)
            for dr, dc in ((-1, -1), (-1, 0), (0, 1), (1, 1), (1, 0), (0, -1))  # clockwise ring
            if inside(row + dr, col + dc)
        )
        for row, col in coords
    )
    edges = tuple(
        (LEFT_EDGE if col == 0 else 0) | (RIGHT_EDGE if col == row else 0)
        | (BOTTOM_EDGE if row == size - 1 else 0)
        for row, col in coords
    )
    return Layout(size, len(coords), neighbours, (edges, edges), (ALL_EDGES, ALL_EDGES))


class YState(ConnectionState):
    """A game of Y in progress on a triangle of side ``size``."""

    game = "y"
    DEFAULT_SIZE = DEFAULT_SIZE
    NOTATION_HINT = "a row 1-{size} and a letter no later in the alphabet than the row, like c5"

    @staticmethod
    def _make_layout(size: int) -> Layout:
        return layout(size)

    def cell_text(self, cell: int) -> str:
        """``0`` -> ``a1`` (the apex); ``c5``: third cell of row 5."""
        row, col = row_col(self._layout.size)[cell]
        return f"{LETTERS[col]}{row + 1}"

    def _parse_cell(self, letter: str, number: int) -> int | None:
        col = LETTERS.find(letter)
        if not 1 <= number <= self._layout.size or not 0 <= col < number:
            return None
        return cell_index(number - 1, col)

    def _swap_target(self, cell: int) -> int:
        return cell  # the stone only changes colour

    def row_col(self, cell: int) -> tuple[int, int]:
        """(row, position in the row), both from 0."""
        return row_col(self._layout.size)[cell]
