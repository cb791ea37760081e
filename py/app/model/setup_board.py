"""The analysis board's set-up editor: stones or marks placed and taken
away freely, the side to move chosen (and, in Ultimate Tic-Tac-Toe, the
small board it must play in), then checked by ``setup.build`` as a position
the rules allow. Pure, like the other models: the page draws it and
forwards the player's clicks.

A click on a cell goes round what it can hold: empty, the first player's,
the second player's, empty again (Notakto: empty, X). In Notakto both
players play the same mark, so the count of marks says who is to move.
"""

from __future__ import annotations

from core import GameState
from core.base import FIRST, SECOND
from setups import Placement, SetupError, build, placed

from .words import Msg

#: What a click puts on a cell, by what it holds (None: empty).
NEXT_OWNER: dict[int | None, int | None] = {None: FIRST, FIRST: SECOND, SECOND: None}
NOTAKTO_NEXT: dict[int | None, int | None] = {None: FIRST, FIRST: None, SECOND: None}


class SetupBoard:
    """A position being set up, starting from ``state``'s (the position on
    the analysis board when the editor opened)."""

    def __init__(self, state: GameState) -> None:
        self.game = state.game
        self.settings = state.settings()
        self.empty = state.sketch({})
        self.cells: dict[int, int] = placed(state)
        self.turn = state.turn
        forced = getattr(state, "forced_board", None)
        self.forced: int | None = forced if forced is not None else None
        #: Why the last "Done" was refused, until the position changes.
        self.error: Msg | None = None

    @property
    def chooses_turn(self) -> bool:
        """Whether the player says who is to move (not in Notakto, where
        the count of marks does)."""
        return self.game != "notakto"

    @property
    def chooses_board(self) -> bool:
        return self.game == "uttt"

    def side_to_move(self) -> int:
        return len(self.cells) % 2 if not self.chooses_turn else self.turn

    def sketch(self) -> GameState:
        """The position to draw: the cells as placed, no game yet."""
        return self.empty.sketch(self.cells, self.forced)

    # -- the player's commands ----------------------------------------------------------
    def click(self, text: str) -> None:
        """A click on the cell ``text``: the next of what it can hold.
        GameError for a cell that is not the board's."""
        cell = self.empty.parse_move(text)
        if self.empty.move_to_text(cell) == "swap":
            return
        order = NOTAKTO_NEXT if self.game == "notakto" else NEXT_OWNER
        owner = order[self.cells.get(cell)]
        if owner is None:
            self.cells.pop(cell, None)
        else:
            self.cells[cell] = owner
        self.error = None

    def clear(self) -> None:
        self.cells.clear()
        self.forced = None
        self.error = None

    def choose_turn(self, turn: int) -> None:
        if turn in (FIRST, SECOND):
            self.turn = turn
            self.error = None

    def choose_board(self, board: int | None) -> None:
        """The small board the side to move must play in (from 0), None: any."""
        if board is None or 0 <= board < 9:
            self.forced = board
            self.error = None

    def placement(self) -> Placement:
        return Placement(self.game, self.settings, dict(self.cells), self.side_to_move(),
                         self.forced if self.chooses_board else None)

    def done(self) -> GameState | None:
        """The game that ends in the position set up, or None with
        ``error`` saying why the rules do not allow it (the page asks the
        worker instead: ``refused``)."""
        try:
            return build(self.placement())
        except SetupError as error:
            self.refused(error)
            return None

    def refused(self, error: SetupError) -> None:
        """The position was refused: ``error`` says why, until it changes."""
        self.error = Msg(f"setup.{error.kind}", dict(error.params))
