"""The UTTT evaluation: each small board's chances from a table, and the
chance of a line of boards that follows.

Each small board gets both players' chances of winning it, from a table
(``boards.json``, made by tools/uttt_boards.py from games of the
playout policy) indexed by the board's pattern seen by the side to move,
up to symmetry, and its kind: the board the side to move is sent to, one
of the others while a board is forced, or any board on a free choice.
Treating the boards as independent, each player's chance of some line of
three on the big board follows; a logistic of the difference is the
evaluation. It knows which boards are won, drawn or dead, the small-board
threats, and the tempo of being sent to a board; not the tactics between
boards, which the search and its playouts see.
"""

from __future__ import annotations

import json
import math
from typing import Any

from core.uttt import BITS, CELL_BOARD, CELL_POSITION, FULL, HAS_LINE

from .. import engine_data

KIND_OTHER, KIND_SENT, KIND_FREE = 0, 1, 2
#: Each kind's name in ``boards.json``, by kind.
KIND_NAMES = ("other", "sent", "free")

#: A pattern the table does not know: both players' chances.
UNKNOWN_CHANCES = (0.3, 0.3)

_symmetries: list[tuple[int, ...]] = []  # the eight maps of a 9-bit mask, built on first use
_table: dict[int, tuple[float, float]] = {}  # kind << 18 | canonical pattern -> chances
_chances_of: dict[int, tuple[float, float]] = {}  # kind << 18 | pattern -> chances, filled as met
_scale = 0.0  # the logistic's scale; 0 until the table is loaded


def canonical_pattern(mine: int, theirs: int) -> int:
    """The least of ``mine | theirs << 9`` over the board's eight symmetries."""
    if not _symmetries:
        for turns in range(4):
            for mirror in (False, True):
                where = []
                for cell in range(9):
                    for _ in range(turns):
                        cell = cell % 3 * 3 + 2 - cell // 3  # a quarter turn
                    where.append(cell // 3 * 3 + 2 - cell % 3 if mirror else cell)
                _symmetries.append(tuple(sum(1 << where[cell] for cell in BITS[mask]) for mask in range(512)))
    return min(symmetry[mine] | symmetry[theirs] << 9 for symmetry in _symmetries)


def load_board_table(data: dict[str, Any] | None = None) -> None:
    """Read the small-board table (``data`` in the file's format, or the
    committed file); the evaluation reads it on first use by itself."""
    global _scale
    if data is None:
        data = json.loads(engine_data(__package__ or "ai.uttt", "boards.json"))
    table: dict[int, tuple[float, float]] = {}
    for kind, name in enumerate(KIND_NAMES):
        for pattern, mover, other in data[name]:
            table[kind << 18 | pattern] = (mover / 1000, other / 1000)
    _table.clear()
    _table.update(table)
    _chances_of.clear()
    _scale = float(data["scale"])


def _chances(key: int) -> tuple[float, float]:
    """The chances of a board (``kind << 18 | mine | theirs << 9``): the
    side to move's and the other's; remembered."""
    if not _scale:
        load_board_table()
    canonical = canonical_pattern(key & FULL, key >> 9 & FULL)
    pair = _table.get(key >> 18 << 18 | canonical) or _table.get(canonical) or UNKNOWN_CHANCES
    _chances_of[key] = pair
    return pair


def _board_chances(marks: list[list[int]], won: list[int], closed: int, forced: int,
                   player: int) -> tuple[list[float], list[float]]:
    """Each board's chance of being won by ``player`` (to move) and by the other."""
    mine, theirs = marks[player], marks[player ^ 1]
    won_mine, won_theirs = won[player], won[player ^ 1]
    me, them = [0.0] * 9, [0.0] * 9
    known = _chances_of
    for board in range(9):
        bit = 1 << board
        if won_mine & bit:
            me[board] = 1.0
        elif won_theirs & bit:
            them[board] = 1.0
        elif not closed & bit:
            kind = KIND_FREE if forced < 0 else KIND_SENT if board == forced else KIND_OTHER
            key = kind << 18 | mine[board] | theirs[board] << 9
            me[board], them[board] = known.get(key) or _chances(key)
    return me, them


def _edge(me: list[float], them: list[float]) -> float:
    """One side's chance of some line of boards minus the other's: one
    minus the product of its lines' chances of failing (the big board's
    rows, columns and diagonals, ``LINES``'s order, written out: this runs
    for every child of every expanded node)."""
    a, b, c, d, e, f, g, h, i = me
    miss_me = ((1.0 - a * b * c) * (1.0 - d * e * f) * (1.0 - g * h * i) * (1.0 - a * d * g)
               * (1.0 - b * e * h) * (1.0 - c * f * i) * (1.0 - a * e * i) * (1.0 - c * e * g))
    a, b, c, d, e, f, g, h, i = them
    miss_them = ((1.0 - a * b * c) * (1.0 - d * e * f) * (1.0 - g * h * i) * (1.0 - a * d * g)
                 * (1.0 - b * e * h) * (1.0 - c * f * i) * (1.0 - a * e * i) * (1.0 - c * e * g))
    return miss_them - miss_me


def line_edge(marks: list[list[int]], won: list[int], closed: int, forced: int, player: int) -> float:
    """The side to move's chance of a line of boards minus the opponent's
    (the evaluation before its logistic)."""
    return _edge(*_board_chances(marks, won, closed, forced, player))


def evaluate(marks: list[list[int]], won: list[int], closed: int, forced: int, player: int) -> float:
    """The evaluation of a position (not over): the chance that ``player``,
    to move, wins, a draw counting half."""
    edge = line_edge(marks, won, closed, forced, player)
    if not _scale:
        load_board_table()
    return 1.0 / (1.0 + math.exp(-_scale * edge))


def child_values(marks: list[list[int]], won: list[int], closed: int, player: int,
                  moves: list[int]) -> list[float]:
    """``evaluate`` after each of ``moves`` for ``player``, who plays it (1
    for a move that wins the game): the boards' chances are worked out once
    for the position and changed where a move changes them (its board, and
    the board it sends the opponent to; every open board on a free choice)."""
    if not _scale:
        load_board_table()
    opponent = player ^ 1
    mine, theirs = marks[opponent], marks[player]  # "mine": the side to move after the move
    won_mover = won[player]
    base_me, base_them = _board_chances(marks, won, closed, 9, opponent)  # no board is "sent"
    known = _chances_of
    scale = _scale
    values = []
    for move in moves:
        board, position = CELL_BOARD[move], CELL_POSITION[move]
        after = theirs[board] | 1 << position
        me, them = base_me.copy(), base_them.copy()
        decided = True
        if HAS_LINE[after]:
            if HAS_LINE[won_mover | 1 << board]:
                values.append(1.0)
                continue
            me[board], them[board] = 0.0, 1.0
        elif after | mine[board] == FULL:
            me[board] = them[board] = 0.0
        else:
            decided = False
        if closed >> position & 1 or (decided and position == board):
            # A free choice: every open board is of that kind.
            now_closed = closed | 1 << board if decided else closed
            for other in BITS[FULL ^ now_closed]:
                key = KIND_FREE << 18 | mine[other] | (after if other == board else theirs[other]) << 9
                me[other], them[other] = known.get(key) or _chances(key)
        else:
            if not decided and board != position:
                key = mine[board] | after << 9  # KIND_OTHER
                me[board], them[board] = known.get(key) or _chances(key)
            key = KIND_SENT << 18 | mine[position] | (after if position == board else theirs[position]) << 9
            me[position], them[position] = known.get(key) or _chances(key)
        values.append(1.0 / (1.0 + math.exp(scale * _edge(me, them))))
    return values

