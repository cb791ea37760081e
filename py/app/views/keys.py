"""Where an arrow key moves the focus on a board: to the neighbouring cell
that lies in the key's direction on screen, whatever the board's shape.

A board's cells carry their place on its lattice (``data-x``, ``data-y``,
x growing to the right and y downwards on screen) and the board says which
lattice it is (``data-lattice``):

- ``square``: Notakto's and Ultimate Tic-Tac-Toe's grids, a column and a row;
- ``flat``: flat-topped hexagons (Hex drawn wide), x in steps of 1.5 and y
  in steps of sqrt(3)/2: a neighbour lies (0, +-2) or (+-1, +-1) away;
- ``pointy``: pointy-topped hexagons (Hex upright, Y), x in steps of
  sqrt(3)/2 and y in steps of 1.5: a neighbour lies (+-2, 0) or (+-1, +-1)
  away.

On a hexagonal lattice a key's direction has either one neighbour straight
along it or two equally near it (30 degrees to either side). Of those two,
the one nearer the line where this run of presses along the key's axis
began comes first, so that Right, Right, Right runs along the row on
screen (zig-zagging about it) and Left after Right comes back. A key with
no neighbour within 30 degrees of it (at an edge) leaves the focus where
it is.
"""

from __future__ import annotations

SQUARE, FLAT, POINTY = "square", "flat", "pointy"

#: Per lattice and key, the steps (dx, dy) to the neighbours nearest the
#: key's direction; of two equally near, the upper or the left one first.
STEPS: dict[str, dict[str, tuple[tuple[int, int], ...]]] = {
    SQUARE: {"ArrowRight": ((1, 0),), "ArrowLeft": ((-1, 0),), "ArrowUp": ((0, -1),), "ArrowDown": ((0, 1),)},
    FLAT: {"ArrowRight": ((1, -1), (1, 1)), "ArrowLeft": ((-1, -1), (-1, 1)),
           "ArrowUp": ((0, -2),), "ArrowDown": ((0, 2),)},
    POINTY: {"ArrowRight": ((2, 0),), "ArrowLeft": ((-2, 0),),
             "ArrowUp": ((-1, -1), (1, -1)), "ArrowDown": ((-1, 1), (1, 1))},
}
ARROWS = frozenset(STEPS[SQUARE])


def across(key: str) -> int:
    """Which coordinate lies across the key's direction: y (1) for Left and
    Right, x (0) for Up and Down."""
    return 1 if key in ("ArrowLeft", "ArrowRight") else 0


def targets(lattice: str, key: str, here: tuple[int, int], line: int) -> list[tuple[int, int]]:
    """The places an arrow key may move the focus to from ``here``, the
    better first (the page takes the first that is a cell of the board).
    ``line``: the coordinate across the key's direction (``across``) where
    this run of presses along its axis began."""
    k = across(key)
    places = [(here[0] + dx, here[1] + dy) for dx, dy in STEPS.get(lattice, STEPS[SQUARE])[key]]
    return sorted(places, key=lambda place: abs(place[k] - line))
