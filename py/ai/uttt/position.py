"""The UTTT position during search: legal moves, wins at once, playing a
move in place and the random playout, on bare lists and ints.

Search works on bare lists and ints, not on UtttState: copying a few small
values per iteration and playing moves inline is several times faster than
method calls with an undo stack.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.uttt import (
    BITS,
    BOARD_CELLS,
    CELL_BOARD,
    CELL_POSITION,
    CELLS_OF,
    FULL,
    HAS_LINE,
    LINES,
    WINNING_CELLS,
)

DRAW = -1  # a playout's result when nobody wins (else the winner, 0 or 1)

#: ``LINE_POSSIBLE[blocked]``: whether some line of the big board avoids
#: every board in ``blocked`` (those drawn or won by the opponent).
LINE_POSSIBLE: tuple[bool, ...] = tuple(
    any(not line & blocked for line in LINES) for blocked in range(1 << 9)
)


def legal_cells(marks: list[list[int]], closed: int, forced: int) -> list[int]:
    """The legal cells (the game must not be over)."""
    x, o = marks
    if forced >= 0:
        return list(CELLS_OF[forced][FULL ^ (x[forced] | o[forced])])
    moves: list[int] = []
    for board in BITS[FULL ^ closed]:
        moves.extend(CELLS_OF[board][FULL ^ (x[board] | o[board])])
    return moves


def winning_move(marks: list[list[int]], won: list[int], closed: int, forced: int, player: int) -> int:
    """A cell that wins the game at once for ``player``, or -1."""
    mine, theirs = marks[player], marks[player ^ 1]
    boards = (forced,) if forced >= 0 else BITS[FULL ^ closed]
    have = won[player]
    for board in boards:
        if HAS_LINE[have | 1 << board]:
            cells = WINNING_CELLS[mine[board]] & ~theirs[board]
            if cells:
                return BOARD_CELLS[board][BITS[cells][0]]
    return -1


def dead(won: list[int], closed: int) -> bool:
    """Whether neither player can still get three boards in a line: every
    line holds a board drawn or won by the other side. The game is then a
    draw, whatever is played."""
    return not LINE_POSSIBLE[closed & ~won[0]] and not LINE_POSSIBLE[closed & ~won[1]]


def play(marks: list[list[int]], won: list[int], closed: int, player: int, move: int) -> tuple[int, int, int | None]:
    """Play ``move`` for ``player`` in place: (closed, forced, result) where
    result is None while the game goes on, else the winner or DRAW (a dead
    position counts as drawn already)."""
    board, position = CELL_BOARD[move], CELL_POSITION[move]
    mine = marks[player]
    mask = mine[board] | 1 << position
    mine[board] = mask
    if HAS_LINE[mask]:
        won[player] |= 1 << board
        closed |= 1 << board
        if HAS_LINE[won[player]]:
            return closed, -1, player
        if dead(won, closed):
            return closed, -1, DRAW
    elif mask | marks[player ^ 1][board] == FULL:
        closed |= 1 << board
        if dead(won, closed):
            return closed, -1, DRAW
    return closed, -1 if closed >> position & 1 else position, None


def playout(marks: list[list[int]], won: list[int], closed: int, forced: int, player: int, rand) -> int:
    """Finish the game with cheap random moves; the winner or DRAW.

    Policy: on a free choice, a random open board among those the player
    can win at once, else among all; then in the board, a cell that wins it
    if there is one, else one that stops the opponent winning it, else any
    empty cell. Taking and blocking small boards is what separates a
    sensible game from noise, and costs two table lookups (measured: see the
    module doc). The playout stops as soon as nobody can get a line of
    boards."""
    won0, won1 = won
    mine, other = marks[player], marks[player ^ 1]  # the side to move's marks and the other's, swapped each ply
    while True:
        if forced < 0:
            boards: Sequence[int] = BITS[FULL ^ closed]
            winnable = [board for board in boards if WINNING_CELLS[mine[board]] & ~other[board]]
            if winnable:
                boards = winnable
            board = boards[int(rand() * len(boards))]
        else:
            board = forced
        mask = mine[board]
        theirs = other[board]
        empty = FULL ^ (mask | theirs)
        cells = BITS[WINNING_CELLS[mask] & empty or WINNING_CELLS[theirs] & empty or empty]
        position = cells[int(rand() * len(cells))]
        mask |= 1 << position
        mine[board] = mask
        if HAS_LINE[mask]:
            closed |= 1 << board
            if player:
                won1 |= 1 << board
                if HAS_LINE[won1]:
                    return 1
            else:
                won0 |= 1 << board
                if HAS_LINE[won0]:
                    return 0
            if not LINE_POSSIBLE[closed & ~won0] and not LINE_POSSIBLE[closed & ~won1]:
                return DRAW
        elif mask | theirs == FULL:
            closed |= 1 << board
            if not LINE_POSSIBLE[closed & ~won0] and not LINE_POSSIBLE[closed & ~won1]:
                return DRAW
        forced = -1 if closed >> position & 1 else position
        player ^= 1
        mine, other = other, mine

