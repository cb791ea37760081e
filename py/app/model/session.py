"""One game as a player lives it: seats, who controls them, time, undo,
resignation and the record it leaves in the statistics.

Pure and browser-free (stdlib only) so it is tested under CPython; the
browser layer drives it and draws it. It knows the rules only through the
core's common ``GameState`` protocol, so every game uses it unchanged.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core import GameError, GameState, Outcome, SaveError
from core.base import FIRST, SECOND
from registry import STATES

from .stats import GameRecord, Result
from .words import Msg

TWO_PLAYER = "two_player"
COMPUTER = "computer"
STARTS = ("alternate", "home", "away")
TIME_LIMITS = (0, 30, 60)  # seconds per move; 0 is none
SESSION_VERSION = 1


@dataclass
class Mode:
    """Who plays. ``home`` is the player this device belongs to (you against
    the computer, Player 1 between two people); ``home_seat`` is FIRST when
    they move first in this game."""

    opponent: str = COMPUTER  # COMPUTER or TWO_PLAYER
    level: str = ""
    home_seat: int = FIRST

    def to_dict(self) -> dict[str, Any]:
        return {"opponent": self.opponent, "level": self.level, "home_seat": self.home_seat}

    @classmethod
    def from_dict(cls, data: Any, levels: list[str]) -> Mode:
        if not isinstance(data, dict):
            raise SaveError("mode must be an object")
        opponent, level, seat = data.get("opponent"), data.get("level"), data.get("home_seat")
        if opponent not in (COMPUTER, TWO_PLAYER):
            raise SaveError(f"unknown opponent {opponent!r}")
        if opponent == COMPUTER and level not in levels:
            raise SaveError(f"unknown level {level!r}")
        if seat not in (FIRST, SECOND) or isinstance(seat, bool):
            raise SaveError(f"bad seat {seat!r}")
        return cls(opponent, level if isinstance(level, str) else "", seat)


def new_id() -> str:
    """A random identifier: 32 hex digits. (Not ``uuid``: the page would
    compile that module at start-up for nothing more than this.)"""
    return os.urandom(16).hex()


@dataclass
class GameSession:
    """A game in progress or just finished, with everything a save needs."""

    state: GameState
    mode: Mode
    game_id: str = field(default_factory=new_id)
    # A human seat handed to the computer ("while you are away, the computer
    # plays for you"); it can be given back at any time.
    takeover: list[bool] = field(default_factory=lambda: [False, False])
    started_ms: int | None = None  # wall clock of the first move
    ended_ms: int | None = None
    # Help from the computer or a second chance against it (stats.py's
    # GameRecord says which): the game counts, but as no win and no record.
    assisted: bool = False
    resigned: int | None = None  # the seat that resigned
    clock: Callable[[], float] = time.time
    # Time per move in seconds (0: none). The clock is wall time from the
    # moment the turn began, so a background tab or a reload cannot stop it.
    time_limit_s: int = 0
    turn_started_ms: int | None = None

    def __post_init__(self) -> None:
        if self.turn_started_ms is None:
            self.turn_started_ms = self.now_ms()

    @property
    def game(self) -> str:
        return self.state.game

    # -- seats ---------------------------------------------------------------
    def is_computer_seat(self, seat: int) -> bool:
        """The computer moves for ``seat``: the opponent's seat against the
        computer, or any seat a human handed over."""
        if self.mode.opponent == COMPUTER and seat != self.mode.home_seat:
            return True
        return self.takeover[seat]

    def computer_to_move(self) -> bool:
        return not self.is_over() and self.is_computer_seat(self.state.turn)

    def human_seats(self) -> list[int]:
        return [seat for seat in (FIRST, SECOND) if not self.is_computer_seat(seat)]

    # -- play ----------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.resigned is not None:
            return Outcome(winner=1 - self.resigned, reason="resignation")
        return self.state.outcome()

    def is_over(self) -> bool:
        return self.outcome() is not None

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def play(self, move: int | str) -> int:
        """Checked play of a move from outside (a click, the worker's answer,
        a save). Raises the core's GameError and changes nothing on error."""
        if self.is_over():
            raise GameError("the game is over")
        played = self.state.play(move)
        now = self.now_ms()
        if self.started_ms is None:
            self.started_ms = now
        if self.is_over():
            self.ended_ms = now
        self.turn_started_ms = now
        return played

    def time_left_ms(self) -> int | None:
        """What is left of the time for this move, for a human seat with a
        time limit (it may be negative: the time ran out); None otherwise."""
        if not self.time_limit_s or self.is_over() or self.is_computer_seat(self.state.turn):
            return None
        assert self.turn_started_ms is not None
        return self.time_limit_s * 1000 - (self.now_ms() - self.turn_started_ms)

    def time_ran_out(self) -> bool:
        left = self.time_left_ms()
        return left is not None and left <= 0

    def can_undo(self) -> bool:
        """Undo is offered while a human has a move to take back: against
        the computer (its reply goes too) and between two people on one
        device (a misclick mended without starting again)."""
        if self.resigned is not None:
            return False
        return any(not self.is_computer_seat(seat) for seat in self.movers())

    def movers(self) -> list[int]:
        """The seat that made each move, replaying turns."""
        replay = self.state.from_settings(self.state.settings())
        seats = []
        for move in self.state.moves:
            seats.append(replay.turn)
            replay.push(move)
        return seats

    def undo(self) -> int:
        """Take back moves until a human seat is to move again, at least one
        human move included: between two people, the last move. Returns the
        number of moves taken back. Against the computer a move taken back
        is a second chance, so the game is assisted; between two people
        nobody gains on the computer."""
        if not self.can_undo():
            return 0
        movers = self.movers()
        taken = 0
        while movers:
            seat = movers.pop()
            self.state.pop()
            taken += 1
            if not self.is_computer_seat(seat):
                break
        if self.mode.opponent == COMPUTER:
            self.assisted = True
        self.ended_ms = None
        self.turn_started_ms = self.now_ms()
        return taken

    def resign(self, seat: int | None = None) -> None:
        """``seat`` resigns (default: the home player against the computer,
        the player to move between two people)."""
        if self.is_over():
            return
        if seat is None:
            seat = self.mode.home_seat if self.mode.opponent == COMPUTER else self.state.turn
        self.resigned = seat
        self.ended_ms = self.now_ms()

    def set_takeover(self, seat: int, on: bool) -> None:
        self.takeover[seat] = on

    def mark_assisted(self) -> None:
        self.assisted = True

    def untouched(self) -> bool:
        """No human has moved yet (the computer may have): restarting it
        with other settings takes nothing from anyone."""
        return all(self.is_computer_seat(seat) for seat in self.movers())

    def moves_by(self, seat: int) -> int:
        return sum(1 for mover in self.movers() if mover == seat)

    def duration_ms(self) -> int:
        if self.started_ms is None:
            return 0
        end = self.ended_ms if self.ended_ms is not None else self.now_ms()
        return max(0, end - self.started_ms)

    # -- records and saves ---------------------------------------------------
    def record(self, day: str, level_rating: int | None) -> GameRecord | None:
        """What this finished game adds to the statistics, seen from the home
        player. None while the game is not over, or when it never began."""
        outcome = self.outcome()
        if outcome is None or (not self.state.moves and self.resigned is None):
            return None
        home = self.mode.home_seat
        result: Result
        if self.mode.opponent == TWO_PLAYER:
            result = "two_player"
        elif outcome.winner is None:
            result = "draw"
        else:
            result = "win" if outcome.winner == home else "loss"
        # A seat handed to the computer makes the game the computer's, not
        # the player's: it still counts, but cannot set a record.
        assisted = self.assisted or self.takeover[home]
        return GameRecord(
            id=self.game_id,
            game=self.game,
            day=day,
            result=result,
            opponent_level=self.mode.level if self.mode.opponent == COMPUTER else None,
            opponent_rating=level_rating if self.mode.opponent == COMPUTER else None,
            moves=self.moves_by(home),
            duration_ms=self.duration_ms(),
            assisted=assisted,
            resigned=self.resigned is not None,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": SESSION_VERSION,
            "id": self.game_id,
            "state": self.state.to_dict(),
            "mode": self.mode.to_dict(),
            "takeover": list(self.takeover),
            "started_ms": self.started_ms,
            "ended_ms": self.ended_ms,
            "assisted": self.assisted,
            "resigned": self.resigned,
            "time_limit_s": self.time_limit_s,
            "turn_started_ms": self.turn_started_ms,
            # Read by the save slot (a finished game is no conflict), never
            # trusted on load: the moves say whether the game is over.
            "over": self.is_over(),
        }

    @classmethod
    def from_dict(cls, data: Any, levels: list[str], clock: Callable[[], float] = time.time) -> GameSession:
        """Rebuild a saved session, replaying its moves through the checked
        path. Raises SaveError on anything damaged."""
        if not isinstance(data, dict) or data.get("version") != SESSION_VERSION:
            raise SaveError("not a saved game of this version")
        state_data = data.get("state")
        game = state_data.get("game") if isinstance(state_data, dict) else None
        if game not in STATES:
            raise SaveError(f"unknown game {game!r}")
        state = STATES[game].from_dict(state_data)
        mode = Mode.from_dict(data.get("mode"), levels)
        game_id, takeover = data.get("id"), data.get("takeover")
        if not isinstance(game_id, str) or not game_id:
            raise SaveError("save has no game id")
        if not (isinstance(takeover, list) and len(takeover) == 2 and all(isinstance(t, bool) for t in takeover)):
            raise SaveError("bad takeover flags")
        started, ended, turn = data.get("started_ms"), data.get("ended_ms"), data.get("turn_started_ms")
        for stamp in (started, ended, turn):
            if stamp is not None and (not isinstance(stamp, int) or isinstance(stamp, bool) or stamp < 0):
                raise SaveError("bad time stamp")
        limit = data.get("time_limit_s")
        if limit not in TIME_LIMITS or isinstance(limit, bool):
            raise SaveError(f"bad time limit {limit!r}")
        resigned = data.get("resigned")
        if resigned not in (None, FIRST, SECOND) or isinstance(resigned, bool):
            raise SaveError("bad resignation")
        assisted = data.get("assisted")
        if not isinstance(assisted, bool):
            raise SaveError("bad assisted flag")
        return cls(state, mode, game_id, list(takeover), started, ended, assisted, resigned, clock, limit, turn)


def next_home_seat(starts: str, previous_home_seat: int | None) -> int:
    """Who the home player is in the next game: ``alternate`` swaps the first
    move after each game (the seeds' house rule), ``home``/``away`` fix it."""
    if starts == "home":
        return FIRST
    if starts == "away":
        return SECOND
    if previous_home_seat is None:
        return FIRST
    return 1 - previous_home_seat


# -- words about seats ------------------------------------------------------
def who(mode: Mode, seat: int) -> str:
    """"you", "computer" or "player": which grammar a sentence about this
    seat needs."""
    if mode.opponent == COMPUTER:
        return "you" if seat == mode.home_seat else "computer"
    return "player"


def takeover_seats(mode: Mode) -> tuple[int, ...]:
    """The seats a player can hand to the computer: the home seat against
    the computer (the other is the computer's), either between two people."""
    return (mode.home_seat,) if mode.opponent == COMPUTER else (mode.home_seat, 1 - mode.home_seat)


def player_name(mode: Mode, seat: int) -> Msg:
    return Msg("player.numbered", {"number": 1 if seat == mode.home_seat else 2})
