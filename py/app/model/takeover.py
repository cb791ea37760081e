"""The computer at the board: its moves for its own seat, for a seat a
player handed over ("the computer plays for …") and for a player whose time
ran out. A part of the screen's model (screen.py): the request out at the
engine, the position where it failed, and the answer that arrived while the
player looked back (played when they return)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from core import GameState

from .change import NOTHING, Change, Ticket
from .parts import ALL, PLAY
from .play import Play
from .session import takeover_seats


@dataclass(frozen=True)
class ComputerRequest:
    """A move asked of the engine: for ``state`` (a copy), at ``level``."""

    ticket: Ticket
    state: GameState
    level: str
    seed: int


class Takeover:
    """The computer's side of the game being played."""

    def __init__(self, play: Play, rng: random.Random) -> None:
        self.play = play
        self.rng = rng
        #: The request the engine is working on for this screen, if any.
        self.waiting: ComputerRequest | None = None
        #: The position where the engine failed: not asked again there.
        self.failed: Ticket | None = None
        #: The engine's answer that arrived while the player looked back,
        #: played when they return to the game.
        self.held: tuple[ComputerRequest, str] | None = None

    @property
    def thinking(self) -> bool:
        return self.waiting is not None

    def request(self, reviewing: bool) -> ComputerRequest | None:
        """The engine's next task, or None (nothing to do, or a request is
        already out). A human seat whose time ran out is played by the
        computer: the game becomes assisted."""
        play = self.play
        if (self.thinking or reviewing or play.session.is_over() or not play.needs_computer()
                or self.failed == play.ticket()):
            return None
        session = play.session
        # The computer about to move for a human (handed over, or out of
        # time): the game is no longer the player's own result.
        if session.time_ran_out() or session.takeover[session.state.turn]:
            session.mark_assisted()
        level = session.mode.level or play.spec.levels[-1]
        self.waiting = ComputerRequest(play.ticket(), session.state.copy(), level, self.rng.getrandbits(31))
        return self.waiting

    def answered(self, request: ComputerRequest) -> bool:
        """Whether ``request`` is the one this screen waits for (then it
        waits no longer)."""
        if request is not self.waiting:
            return False
        self.waiting = None
        return True

    def still_wanted(self, request: ComputerRequest) -> bool:
        """The computer is still to move in the position it was asked about."""
        return request.ticket == self.play.ticket() and self.play.needs_computer()

    def failed_on(self, request: ComputerRequest) -> Change:
        if request is self.waiting:
            self.waiting = None
            self.failed = request.ticket
            return Change(PLAY)
        return NOTHING

    def take_held(self) -> str | None:
        """The answer that came while the player looked back, if it still
        fits the game (it is then played)."""
        held, self.held = self.held, None
        if held is None:
            return None
        request, move = held
        return move if self.still_wanted(request) else None

    def hand_over(self, seat: int, on: bool) -> Change:
        """Hand a human seat to the computer, or take it back."""
        session = self.play.session
        if seat not in takeover_seats(session.mode):
            return NOTHING
        session.set_takeover(seat, on)
        return self.play.save() | Change(ALL)

    def forget(self) -> None:
        self.waiting = None
        self.held = None
