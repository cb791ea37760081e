"""Ultimate Tic-Tac-Toe: nine small boards of tic-tac-toe inside a big one.

X (FIRST) starts and may play anywhere. After that, the position of a move
inside its small board sends the opponent to the small board in the same
position on the big board. Three marks in a line win a small board; a full
small board without a line is drawn; either way it is decided and nobody
plays there again. A player sent to a decided board may play any empty cell
of any open board. Three won small boards in a line on the big board win the
game; all small boards decided without such a line is a draw.

Representation: per player, one 9-bit mask per small board (bit
``row * 3 + col`` inside the small board), the big board as one 9-bit mask
of won boards per player plus one of decided boards, and the forced board.
Nine-bit ints keep every operation a table lookup or a small-int bit trick,
which matters in Pyodide, where wide ints cost more.

A move is the cell index ``row * 9 + col`` on the 9 x 9 grid, rows from the
top, columns from the left: the order of the notation ``a1`` .. ``i9``
(letter = column, number = row), so small board 1 (top left) holds
``a1``..``c3`` and ``e5`` is the centre of the centre board.
"""

from __future__ import annotations

import re
from typing import Any

from .base import FIRST, SECOND, GameError, GameState, NotationError, Outcome, SaveError

BOARDS = 9  # small boards on the big board
CELLS = 81
FULL = (1 << 9) - 1  # a 9-bit mask with every cell set
COLUMNS = "abcdefghi"

#: A small board that is full without a line (``small_board_results``).
DRAWN = 2

#: The eight lines of a 3x3 board as masks (rows, columns, diagonals); the
#: same masks serve the small boards (cells) and the big board (boards).
LINES: tuple[int, ...] = (
    0b000_000_111, 0b000_111_000, 0b111_000_000,
    0b001_001_001, 0b010_010_010, 0b100_100_100,
    0b100_010_001, 0b001_010_100,
)

#: ``HAS_LINE[mask]``: whether these nine bits hold a line. One lookup
#: replaces eight tests on every move.
HAS_LINE: tuple[bool, ...] = tuple(
    any(mask & line == line for line in LINES) for mask in range(1 << 9)
)

#: ``WINNING_CELLS[mask]``: the cells that would complete a line for a player
#: holding ``mask`` (occupied or not: AND with the empty cells). The AI's
#: playouts use it to take and block small-board wins.
WINNING_CELLS: tuple[int, ...] = tuple(
    sum(1 << cell for cell in range(9) if not mask >> cell & 1 and HAS_LINE[mask | 1 << cell])
    for mask in range(1 << 9)
)

#: ``BITS[mask]``: the set bits of a 9-bit mask, ascending.
BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(cell for cell in range(9) if mask >> cell & 1) for mask in range(1 << 9)
)

#: For each cell of the grid: its small board and its position inside it
#: (which is also the board the opponent is sent to).
CELL_BOARD: tuple[int, ...] = tuple((cell // 27) * 3 + cell % 9 // 3 for cell in range(CELLS))
CELL_POSITION: tuple[int, ...] = tuple((cell // 9 % 3) * 3 + cell % 3 for cell in range(CELLS))

#: ``BOARD_CELLS[board][position]``: the grid cell.
BOARD_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple((board // 3 * 3 + position // 3) * 9 + board % 3 * 3 + position % 3 for position in range(9))
    for board in range(BOARDS)
)

#: ``CELLS_OF[board][mask]``: the grid cells of the positions set in ``mask``.
CELLS_OF: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(BOARD_CELLS[board][position] for position in BITS[mask]) for mask in range(1 << 9))
    for board in range(BOARDS)
)

_MOVE_RE = re.compile(r"([a-i])([1-9])", re.IGNORECASE)


def cell_text(cell: int) -> str:
    """``0..80`` -> ``a1``..``i9`` (column letter, then row from the top)."""
    row, col = divmod(cell, 9)
    return f"{COLUMNS[col]}{row + 1}"


def board_span(board: int) -> str:
    """The cells of small board ``board`` (from 0) as a range: ``d4-f6``."""
    return f"{cell_text(BOARD_CELLS[board][0])}-{cell_text(BOARD_CELLS[board][8])}"


def _line_of(mask: int) -> tuple[int, int, int] | None:
    for line in LINES:
        if mask & line == line:
            return BITS[line]  # type: ignore[return-value]
    return None


class UtttState(GameState):
    """An Ultimate Tic-Tac-Toe game in progress.

    ``moves`` doubles as the undo stack: a move is only ever legal on an open
    small board, so taking it back re-opens that board, and the forced board
    before it follows from the move before. Nothing else needs remembering.
    """

    game = "uttt"

    def __init__(self) -> None:
        #: ``_marks[player][board]``: that player's cells on a small board.
        self._marks: list[list[int]] = [[0] * BOARDS, [0] * BOARDS]
        #: ``_won[player]``: the small boards that player has won.
        self._won: list[int] = [0, 0]
        self._closed: int = 0  # decided small boards: won by either, or drawn
        self._forced: int = -1  # the board the side to move must play in; -1: any
        self.moves: list[int] = []

    # -- the protocol ----------------------------------------------------------
    @property
    def turn(self) -> int:
        return len(self.moves) & 1

    def legal_moves(self) -> list[int]:
        if self.is_over():
            return []
        x, o = self._marks
        forced = self._forced
        if forced >= 0:
            # One small board's cells ascend with their positions.
            return list(CELLS_OF[forced][FULL ^ (x[forced] | o[forced])])
        moves: list[int] = []
        closed = self._closed
        for board in range(BOARDS):
            if not closed >> board & 1:
                moves.extend(CELLS_OF[board][FULL ^ (x[board] | o[board])])
        moves.sort()
        return moves

    def push(self, move: int) -> None:
        board = CELL_BOARD[move]
        position = CELL_POSITION[move]
        player = len(self.moves) & 1
        mine = self._marks[player]
        mask = mine[board] | 1 << position
        mine[board] = mask
        if HAS_LINE[mask]:
            self._won[player] |= 1 << board
            self._closed |= 1 << board
        elif mask | self._marks[1 - player][board] == FULL:
            self._closed |= 1 << board
        self._forced = -1 if self._closed >> position & 1 else position
        self.moves.append(move)

    def pop(self) -> int:
        move = self.moves.pop()
        board = CELL_BOARD[move]
        player = len(self.moves) & 1
        self._marks[player][board] &= ~(1 << CELL_POSITION[move])
        # The board was open when the move was played: whatever it decided, undo.
        self._won[player] &= ~(1 << board)
        self._closed &= ~(1 << board)
        if self.moves:
            position = CELL_POSITION[self.moves[-1]]
            self._forced = -1 if self._closed >> position & 1 else position
        else:
            self._forced = -1
        return move

    def sketch(self, cells: dict[int, int], forced: int | None = None) -> UtttState:
        """An empty grid with the marks ``cells`` (cell: FIRST or SECOND)
        on it and ``forced`` the board to play in (None: any), to draw a
        position while it is set up by hand: each small board is won,
        drawn or open as its marks say. No game: no moves."""
        sketch = UtttState()
        for cell, owner in cells.items():
            sketch._marks[owner][CELL_BOARD[cell]] |= 1 << CELL_POSITION[cell]
        for board in range(BOARDS):
            x, o = sketch._marks[FIRST][board], sketch._marks[SECOND][board]
            for player, mask in ((FIRST, x), (SECOND, o)):
                if HAS_LINE[mask]:
                    sketch._won[player] |= 1 << board
            if HAS_LINE[x] or HAS_LINE[o] or x | o == FULL:
                sketch._closed |= 1 << board
        sketch._forced = -1 if forced is None else forced
        return sketch

    def copy(self) -> UtttState:
        clone = UtttState.__new__(UtttState)
        clone._marks = [self._marks[0].copy(), self._marks[1].copy()]
        clone._won = self._won.copy()
        clone._closed = self._closed
        clone._forced = self._forced
        clone.moves = self.moves.copy()
        return clone

    def outcome(self) -> Outcome | None:
        if HAS_LINE[self._won[FIRST]]:
            return Outcome(FIRST, "three_boards_in_line")
        if HAS_LINE[self._won[SECOND]]:
            return Outcome(SECOND, "three_boards_in_line")
        if self._closed == FULL:
            return Outcome(None, "all_boards_decided")
        return None

    def is_over(self) -> bool:
        # The search asks this at every node: three lookups, no Outcome object.
        return HAS_LINE[self._won[0]] or HAS_LINE[self._won[1]] or self._closed == FULL

    def move_to_text(self, move: int) -> str:
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < CELLS:
            raise GameError(f"{move!r} is not a cell of the Ultimate Tic-Tac-Toe grid")
        return cell_text(move)

    def parse_move(self, text: str) -> int:
        match = _MOVE_RE.fullmatch(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise NotationError(str(text), self.game, "a column a-i and a row 1-9, like e5")
        return (int(match[2]) - 1) * 9 + COLUMNS.index(match[1].lower())

    def settings(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> UtttState:
        if not isinstance(settings, dict):
            raise SaveError(f"uttt settings must be an object, not {type(settings).__name__}")
        if settings:
            unknown = ", ".join(sorted(str(key) for key in settings))
            raise SaveError(f"uttt has no settings, got: {unknown}")
        return cls()

    def _why_illegal(self, move: int) -> str | None:
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < CELLS:
            return "no such cell"
        board, position = CELL_BOARD[move], CELL_POSITION[move]
        if (self._marks[0][board] | self._marks[1][board]) >> position & 1:
            return f"cell {cell_text(move)} is occupied"
        if self._forced >= 0 and board != self._forced:
            return f"you must play in small board {self._forced + 1} ({board_span(self._forced)})"
        if self._closed >> board & 1:
            return f"small board {board + 1} is decided"
        return None

    def move_texts(self) -> list[str]:
        # A cell's name does not depend on the position: no replay needed.
        return [cell_text(move) for move in self.moves]

    # -- read-only views for the UI and the AI ---------------------------------
    @property
    def forced_board(self) -> int | None:
        """The small board (from 0) the side to move must play in, or None
        when it may choose (first move, or sent to a decided board)."""
        return None if self._forced < 0 or self.is_over() else self._forced

    def target_boards(self) -> list[int]:
        """The small boards where the side to move may play (empty once the
        game is over)."""
        if self.is_over():
            return []
        if self._forced >= 0:
            return [self._forced]
        return [board for board in range(BOARDS) if not self._closed >> board & 1]

    def small_board_result(self, board: int) -> int | None:
        """FIRST or SECOND for a won small board, DRAWN, or None while open."""
        if self._won[FIRST] >> board & 1:
            return FIRST
        if self._won[SECOND] >> board & 1:
            return SECOND
        return DRAWN if self._closed >> board & 1 else None

    def small_board_results(self) -> tuple[int | None, ...]:
        """``small_board_result`` of the nine boards, top left first."""
        return tuple(self.small_board_result(board) for board in range(BOARDS))

    def cell_owner(self, cell: int) -> int | None:
        """FIRST or SECOND for a marked cell, None for an empty one."""
        board, bit = CELL_BOARD[cell], 1 << CELL_POSITION[cell]
        if self._marks[FIRST][board] & bit:
            return FIRST
        if self._marks[SECOND][board] & bit:
            return SECOND
        return None

    def small_board_line(self, board: int) -> tuple[int, int, int] | None:
        """The grid cells of the line that won small board ``board``, or None.
        (A move can complete two lines; the first in ``LINES`` order counts.)"""
        result = self.small_board_result(board)
        if result is None or result == DRAWN:
            return None
        line = _line_of(self._marks[result][board])
        return None if line is None else tuple(BOARD_CELLS[board][p] for p in line)  # type: ignore[return-value]

    def winning_line(self) -> tuple[int, int, int] | None:
        """The three small boards (from 0) in a line that won the game, or None."""
        for player in (FIRST, SECOND):
            line = _line_of(self._won[player])
            if line is not None:
                return line
        return None

    def marks(self, player: int) -> tuple[int, ...]:
        """``player``'s cells on each small board as 9-bit masks."""
        return tuple(self._marks[player])

    def won_boards(self, player: int) -> int:
        """The small boards ``player`` has won, as a 9-bit mask."""
        return self._won[player]

    @property
    def closed_boards(self) -> int:
        """The decided small boards (won or drawn), as a 9-bit mask."""
        return self._closed

    @property
    def last_move(self) -> int | None:
        return self.moves[-1] if self.moves else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, UtttState):
            return NotImplemented
        return (self._marks, self._won, self._closed, self._forced, self.moves) == (
            other._marks, other._won, other._closed, other._forced, other.moves)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"<UtttState moves=[{' '.join(cell_text(move) for move in self.moves)}]>"
