"""The master's opening book for UTTT, found up to the grid's symmetries."""

from __future__ import annotations

from core.uttt import UtttState


#: The eight symmetries of the 9x9 grid, as maps of its cells. Each maps
#: small boards to small boards and positions within them alike, so it maps
#: a game to an equivalent game (the board a move sends to follows).
def _grid_map(flip_rows: bool, flip_columns: bool, transpose: bool) -> tuple[int, ...]:
    cells = []
    for cell in range(81):
        row, column = divmod(cell, 9)
        if flip_rows:
            row = 8 - row
        if flip_columns:
            column = 8 - column
        if transpose:
            row, column = column, row
        cells.append(row * 9 + column)
    return tuple(cells)


GRID_SYMMETRIES: tuple[tuple[int, ...], ...] = tuple(
    _grid_map(flip_rows, flip_columns, transpose)
    for flip_rows in (False, True) for flip_columns in (False, True) for transpose in (False, True)
)

#: The master's first moves, computed by the engine itself with long searches
#: (``tools/uttt_book.py``, which prints this table): for a game's move list
#: in its least form over ``GRID_SYMMETRIES`` (``book_key``), the move to
#: play in that form. Written by the tool; not edited by hand.
OPENING_BOOK: dict[tuple[int, ...], int] = {
    (): 40,
    (0,): 20,
    (1,): 14,
    (2,): 8,
    (3,): 0,
    (4,): 22,
    (10,): 40,
    (11,): 44,
    (12,): 36,
    (13,): 40,
    (20,): 80,
    (21,): 72,
    (22,): 68,
    (30,): 0,
    (31,): 4,
    (40,): 48,
    (40, 30): 0,
    (40, 31): 14,
}
#: The book covers games of at most this many moves.
BOOK_PLIES = max(len(moves) for moves in OPENING_BOOK)


def book_key(moves: list[int] | tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The least image of ``moves`` over the grid's symmetries, and a
    symmetry that gives it."""
    return min((tuple(symmetry[move] for move in moves), symmetry) for symmetry in GRID_SYMMETRIES)


def book_move(state: UtttState) -> int | None:
    """The opening book's move for ``state``, or None out of the book."""
    if len(state.moves) > BOOK_PLIES:
        return None
    key, symmetry = book_key(state.moves)
    move = OPENING_BOOK.get(key)
    if move is None:
        return None
    return symmetry.index(move)  # back from the book's form to the game's

