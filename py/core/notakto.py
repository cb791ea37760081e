"""Notakto: X-only tic-tac-toe on several 3x3 boards, misère.

Both players put an X on an empty cell of any live board. A board closes as
soon as it holds three X in a row, column or diagonal; its empty cells can
never be played again. Whoever closes the last live board loses.

Each board is a 9-bit int (bit ``row * 3 + col``); a move is the int
``board * 9 + cell``. Notation is ``<board><column><row>``: board from 1,
column ``a``-``c`` from the left, row ``1``-``3`` from the top, so ``2b2`` is
the centre of the second board.
"""

from __future__ import annotations

import re
from typing import Any

from .base import GameError, GameState, NotationError, Outcome, SaveError

MIN_BOARDS, MAX_BOARDS, DEFAULT_BOARDS = 1, 6, 3
CELLS = 9
FULL_BOARD = (1 << CELLS) - 1
COLUMNS = "abc"

#: The eight lines of a 3x3 board as cell masks (rows, columns, diagonals).
LINES: tuple[int, ...] = (
    0b000_000_111, 0b000_111_000, 0b111_000_000,
    0b001_001_001, 0b010_010_010, 0b100_100_100,
    0b100_010_001, 0b001_010_100,
)

#: ``HAS_LINE[mask]``: whether a board with these X holds a line (is closed).
#: A 512-entry table so that ``push`` costs one lookup, not eight tests.
HAS_LINE: tuple[bool, ...] = tuple(
    any(mask & line == line for line in LINES) for mask in range(1 << CELLS)
)

_MOVE_RE = re.compile(r"([1-9][0-9]*)([a-c])([1-3])", re.IGNORECASE)


def cell_text(cell: int) -> str:
    """``0..8`` -> ``a1``..``c3`` (column letter, then row from the top)."""
    row, col = divmod(cell, 3)
    return f"{COLUMNS[col]}{row + 1}"


def _check_board_count(boards: Any) -> int:
    # bool is an int subclass; True boards is a damaged save, not 1 board.
    if isinstance(boards, bool) or not isinstance(boards, int):
        raise GameError(f"the number of boards must be an integer, not {boards!r}")
    if not MIN_BOARDS <= boards <= MAX_BOARDS:
        raise GameError(f"the number of boards must be {MIN_BOARDS} to {MAX_BOARDS}, not {boards}")
    return boards


class NotaktoState(GameState):
    """A Notakto game in progress: the boards, which are live, the moves.

    ``moves`` doubles as the undo stack: a move is only ever legal on a live
    board, so taking it back re-opens its board without remembering more.
    """

    game = "notakto"

    def __init__(self, boards: int = DEFAULT_BOARDS) -> None:
        count = _check_board_count(boards)
        self._boards: list[int] = [0] * count
        self._live: int = (1 << count) - 1  # bit i set: board i is live
        self.moves: list[int] = []

    # -- the protocol ----------------------------------------------------------
    @property
    def turn(self) -> int:
        return len(self.moves) & 1

    def legal_moves(self) -> list[int]:
        return [
            board * CELLS + cell
            for board, mask in enumerate(self._boards)
            if self._live >> board & 1
            for cell in range(CELLS)
            if not mask >> cell & 1
        ]

    def push(self, move: int) -> None:
        board, cell = divmod(move, CELLS)
        mask = self._boards[board] | 1 << cell
        self._boards[board] = mask
        if HAS_LINE[mask]:
            self._live &= ~(1 << board)
        self.moves.append(move)

    def pop(self) -> int:
        move = self.moves.pop()
        board, cell = divmod(move, CELLS)
        self._boards[board] &= ~(1 << cell)
        self._live |= 1 << board
        return move

    def sketch(self, cells: dict[int, int], forced: int | None = None) -> NotaktoState:
        """These boards emptied, with marks on the cells ``cells`` (a move's
        number: board * 9 + cell; the owner is ignored, every mark is X),
        to draw a position while it is set up by hand; a board with three
        in a row is closed. No game: no moves."""
        sketch = NotaktoState(len(self._boards))
        for move in cells:
            board, cell = divmod(move, CELLS)
            sketch._boards[board] |= 1 << cell
        for board, mask in enumerate(sketch._boards):
            if HAS_LINE[mask]:
                sketch._live &= ~(1 << board)
        return sketch

    def copy(self) -> NotaktoState:
        clone = NotaktoState.__new__(NotaktoState)
        clone._boards = self._boards.copy()
        clone._live = self._live
        clone.moves = self.moves.copy()
        return clone

    def outcome(self) -> Outcome | None:
        if self._live:
            return None
        # The player who just moved closed the last board: the one to move wins.
        return Outcome(winner=self.turn, reason="last_board_closed")

    def move_to_text(self, move: int) -> str:
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < len(self._boards) * CELLS:
            raise GameError(f"{move!r} is not a cell of {len(self._boards)} Notakto boards")
        board, cell = divmod(move, CELLS)
        return f"{board + 1}{cell_text(cell)}"

    def parse_move(self, text: str) -> int:
        count = len(self._boards)
        expected = f"a board 1-{count}, a column a-c and a row 1-3, like 1b2"
        match = _MOVE_RE.fullmatch(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise NotationError(str(text), self.game, expected)
        board = int(match[1])
        if not 1 <= board <= count:
            raise NotationError(text, self.game, expected)
        row, col = int(match[3]) - 1, COLUMNS.index(match[2].lower())
        return (board - 1) * CELLS + row * 3 + col

    def settings(self) -> dict[str, Any]:
        return {"boards": len(self._boards)}

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> NotaktoState:
        if not isinstance(settings, dict):
            raise SaveError(f"notakto settings must be an object, not {type(settings).__name__}")
        unknown = sorted(str(key) for key in settings if key != "boards")
        if unknown:
            raise SaveError(f"unknown notakto settings: {', '.join(unknown)}")
        try:
            return cls(settings.get("boards", DEFAULT_BOARDS))
        except GameError as error:
            raise SaveError(str(error)) from error

    def _why_illegal(self, move: int) -> str | None:
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < len(self._boards) * CELLS:
            return "no such cell"
        board, cell = divmod(move, CELLS)
        if not self._live >> board & 1:
            return f"board {board + 1} is closed"
        if self._boards[board] >> cell & 1:
            return f"cell {self.move_to_text(move)} is occupied"
        return None

    def position_text(self) -> str:
        return f"notakto on {len(self._boards)} boards after [{' '.join(self.move_texts())}]"

    # -- read-only views for the UI and the AI ---------------------------------
    @property
    def board_count(self) -> int:
        return len(self._boards)

    @property
    def boards(self) -> tuple[int, ...]:
        """Every board's X as a 9-bit mask, closed boards included."""
        return tuple(self._boards)

    @property
    def live_mask(self) -> int:
        """Bit i set when board i is still live."""
        return self._live

    @property
    def live_boards(self) -> list[int]:
        """Indices (from 0) of the boards that can still be played."""
        return [board for board in range(len(self._boards)) if self._live >> board & 1]

    def is_closed(self, board: int) -> bool:
        return not self._live >> board & 1

    def winning_line(self, board: int) -> tuple[int, int, int] | None:
        """The cells of the line that closed ``board``, or None while it is
        live. (One move can complete two lines; the first in ``LINES`` order
        is reported.)"""
        mask = self._boards[board]
        for line in LINES:
            if mask & line == line:
                return tuple(cell for cell in range(CELLS) if line >> cell & 1)  # type: ignore[return-value]
        return None

    @property
    def last_move(self) -> int | None:
        return self.moves[-1] if self.moves else None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NotaktoState):
            return NotImplemented
        return (self._boards, self._live, self.moves) == (other._boards, other._live, other.moves)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        texts = " ".join(self.move_texts())
        return f"<NotaktoState boards={len(self._boards)} moves=[{texts}]>"
