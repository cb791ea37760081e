"""How the connection engine writes colours on its boards.

The side to move is the player index everywhere the engine meets the rest
of the program (the core's ``turn``, the solver's ``player``: 0 black, the
first player; 1 white). On the search's boards a cell holds a colour: the
player index plus one (``colour_of``), so that 0 stays empty; BOTH marks
Y's virtual edge cells, which belong to both sides (a test ``cell &
colour`` accepts them); and ``colour ^ 3`` is the other side's. The
inferior cell analysis uses the same values.
"""

from __future__ import annotations

EMPTY, BLACK, WHITE, BOTH = 0, 1, 2, 3


def colour_of(player: int) -> int:
    """The colour of ``player`` (0 or 1) on a search board."""
    return player + 1


def player_of(colour: int) -> int:
    """The player (0 or 1) whose colour is ``colour`` (BLACK or WHITE)."""
    return colour - 1
