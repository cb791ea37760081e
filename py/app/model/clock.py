"""The move clock: a timed move's countdown, and the note left when a
player's time ran out and the computer moved for them. A part of the
screen's model (screen.py); what it shows is clock_view.py."""

from __future__ import annotations

from .change import NOTHING, Change
from .parts import Part
from .session import GameSession


class MoveClock:
    """The clock of the game being played (``GameSession`` keeps the time
    itself); here what it shows and says."""

    def __init__(self) -> None:
        #: A human's time ran out and the computer moved for them: the
        #: position after that move and what it was (shown until they move).
        self.timed_out: tuple[int, int, int] | None = None  # (ply of the move, seat, move)

    def tick(self, session: GameSession, thinking: bool) -> Change:
        """Four times a second while a move is timed: the countdown, and the
        status when the time has run out (the computer then moves)."""
        if not session.time_limit_s or session.is_over():
            return NOTHING
        if session.time_ran_out() and not thinking:
            return Change(frozenset({Part.CLOCK, Part.STATUS, Part.BOARD}))
        return Change(frozenset({Part.CLOCK}))

    def ran_out(self, session: GameSession, seat: int) -> None:
        """The computer just moved for ``seat``, whose time ran out."""
        state = session.state
        self.timed_out = (len(state.moves), seat, state.moves[-1])

    def timeout_note(self, session: GameSession) -> tuple[int, int] | None:
        """(seat, move) when the last time-out's move is still news: the
        computer moved for a player whose time ran out, and that player has
        not moved since (the reply to it may have come)."""
        if self.timed_out is None:
            return None
        ply, seat, move = self.timed_out
        moves = session.state.moves
        if len(moves) in (ply, ply + 1) and moves[ply - 1] == move:
            return seat, move
        return None

    def forget(self) -> None:
        self.timed_out = None
