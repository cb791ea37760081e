"""The positions the bench times moves on: Notakto's from seeded random
play, the other games' from seeded games of the casual level."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import ai
from ai import notakto as notakto_ai
from core import GameState
from core.notakto import CELLS, HAS_LINE, NotaktoState
from registry import STATES
from tools.bench import BenchError
from tools.bench.settings import DEFAULT_SEED

#: Where in a game each phase's positions are taken: the nearest ply to this
#: fraction of the game's length (within +-PHASE_WINDOW of it) whose player to
#: move has the wanted result.
PHASES: tuple[tuple[str, float], ...] = (("early", 0.25), ("middle", 0.5), ("late", 0.8))
PHASE_WINDOW = 0.1
OUTCOMES = ("won", "lost")


@dataclass(frozen=True)
class Position:
    """A Notakto position of the bench: ``outcome`` is the result for the
    player to move under perfect play."""

    phase: str
    outcome: str
    boards: int
    moves: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.phase}, {self.outcome}"

    def state(self) -> NotaktoState:
        return NotaktoState(self.boards).replay(self.moves)

    def save(self) -> dict[str, Any]:
        return self.state().to_dict()

    def describe(self) -> str:
        """Moves played, live boards, empty cells on them."""
        state = self.state()
        empty = sum(CELLS - mask.bit_count() for i, mask in enumerate(state.boards) if not state.is_closed(i))
        return f"{len(self.moves)} · {len(state.live_boards)}/{self.boards} · {empty}"


def outcome_of(state: NotaktoState) -> str:
    return "lost" if notakto_ai.is_lost(state) else "won"


def random_game(boards: int, rng: random.Random) -> list[int]:
    """A whole game of random play in which neither side closes a board while
    another move is possible (uniform random play closes boards at once and
    gives short, unrealistic games)."""
    state = NotaktoState(boards)
    while not state.is_over():
        legal = state.legal_moves()
        quiet = [m for m in legal if not HAS_LINE[state.boards[m // CELLS] | 1 << m % CELLS]]
        state.push(rng.choice(quiet or legal))
    return state.moves


def _pick(boards: int, rng: random.Random, phase: str, fraction: float, outcome: str) -> Position:
    for _ in range(100):
        moves = random_game(boards, rng)
        length = len(moves)
        target = fraction * length
        plies = sorted((p for p in range(1, length) if abs(p - target) <= PHASE_WINDOW * length),
                       key=lambda p: (abs(p - target), p))
        for ply in plies:
            state = NotaktoState(boards)
            for move in moves[:ply]:
                state.push(move)
            if outcome_of(state) == outcome:
                return Position(phase, outcome, boards, tuple(state.move_texts()))
    raise BenchError(f"no {phase} {outcome} position on {boards} boards in 100 random games")  # pragma: no cover


def notakto_positions(boards: int, seed: int = DEFAULT_SEED) -> list[Position]:
    """The bench's positions on ``boards`` boards: the empty board, then an
    early, a middle and a late position from random play, each won and lost
    for the player to move. A function of (boards, seed) alone."""
    rng = random.Random(f"bench|notakto|{boards}|{seed}")
    empty = NotaktoState(boards)
    positions = [Position("empty", outcome_of(empty), boards, ())]
    for phase, fraction in PHASES:
        for outcome in OUTCOMES:
            positions.append(_pick(boards, rng, phase, fraction, outcome))
    return positions


def quiet_moves(state: NotaktoState) -> list[int]:
    """The moves that close no board, or every legal move when all do."""
    legal = state.legal_moves()
    quiet = [m for m in legal if not HAS_LINE[state.boards[m // CELLS] | 1 << m % CELLS]]
    return quiet or legal


def casual_game(game: str, settings: dict[str, Any], moves: int, seed: int) -> GameState:
    """A ``moves``-move game of ``game`` with ``settings``, unfinished,
    played by the casual level for both sides, one engine for the whole
    game (a seeded, reproducible game with mistakes in it); a game that
    ends sooner is played again with another seed."""
    engine = ai.new_engine(game)
    state = STATES[game].from_settings(settings)
    while len(state.moves) < moves:
        state.push(engine.choose_move(state, "casual", seed=seed + len(state.moves)))
        if state.is_over():
            state = STATES[game].from_settings(settings)
            seed += 1000
    return state


def opening(state: GameState, plies: int) -> GameState:
    """The position after the first ``plies`` moves of ``state``'s game."""
    start = STATES[state.game].from_settings(state.settings())
    for move in state.moves[:plies]:
        start.push(move)
    return start
