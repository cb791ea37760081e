"""What a command of a game's screen returns (``Change``), and the ticket
that ties a delayed answer to the game and position it was asked for.
Shared by every part of the screen's model (screen.py and its parts)."""

from __future__ import annotations

from dataclasses import dataclass

from .parts import Part
from .session import GameSession
from .words import Msg

# The sounds a change can ask for (played only when the sound setting is on;
# shell/sounds.js makes them): the player's move, the computer's, and the end of a
# game, won, lost, or neither (a draw, two people).
MOVE_SOUND, COMPUTER_SOUND = "move", "computer"
WIN_SOUND, LOSS_SOUND, END_SOUND = "win", "loss", "end"


@dataclass(frozen=True)
class Change:
    """What a command changed: ``parts`` to draw again, a sentence for
    screen readers, the game that ended with it if one did (its statistics
    are already recorded; it may no longer be the screen's game, when a new
    one was started at once), whether another tab's save needs the player's
    choice, and the sounds of what happened, in order (a move played, a
    game ended; never a redraw, a step through a game or a restored save)."""

    parts: frozenset[Part] = frozenset()
    announce: Msg | None = None
    finished: GameSession | None = None
    conflict: bool = False
    sounds: tuple[str, ...] = ()

    def __or__(self, other: Change) -> Change:
        return Change(self.parts | other.parts, other.announce or self.announce,
                      self.finished or other.finished, self.conflict or other.conflict, self.sounds + other.sounds)


NOTHING = Change()


@dataclass(frozen=True)
class Ticket:
    """The game and position a delayed answer belongs to: the game's id and
    its moves (the move count alone would not tell a position reached again
    after an undo from another one)."""

    game_id: str
    moves: tuple[int, ...]

    @property
    def ply(self) -> int:
        return len(self.moves)
