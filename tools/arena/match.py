"""A match: games of our side against OpenSpiel's MCTSBot or a GTP engine,
one game loop for both, played one at a time or in worker processes.

Against a GTP engine our rules engine referees every game: the opponent's
answer must name a cell (in its dialect) that is legal in our position, or
the opponent loses that game (a *forfeit*, reported with its text and the
reason); ``resign`` loses it too. A harness failure (the opponent stops,
answers nothing within ``--opponent-timeout``, or refuses one of our moves)
makes the game *void*: reported, counted for nobody. One exception: an
opponent that stops while thinking about its move, or answers its
``genmove`` with a failure (MoHex 2.0 does either once its search has
proven the game, either way), in a Hex position that ``ai.connection.solver`` proves
within a minute has resigned (proven lost for it) or won (proven won), and
the summary lists those games. ``--record FILE`` appends every game's
moves. At the end of a game the opponent is asked for its own verdict where
its dialect has a command for it, and any disagreement with ours is
reported (a sign of a wrong translation). Before the match,
``--opponent-check-games`` random games (10) are played into it move by
move and its verdict on each must be ours, or nothing is played. Games are
played one at a time unless ``--jobs`` says otherwise.

Openings are paired: games 2k and 2k+1 start with the same first stone
(black's, played by nobody's search), we are black in the first and white
in the second. ``--openings`` gives the stones: ``random`` (every cell
once, in an order seeded by ``--seed``; the default), ``all`` (cell order),
``none`` (an empty board; the pairs still swap colours) or a comma list of
cells in our notation.
"""

from __future__ import annotations

import multiprocessing.util
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ai.connection import solver
from core import GameState, HexState
from registry import STATES
from tools.arena.gtp import DIALECTS, GtpOpponent, OpponentError
from tools.arena.openspiel import SpielPlayer, make_adapter, sized
from tools.arena.players import GtpPlayer, InProcessPlayer
from tools.matches import Tally, first_seat, game_seed


class Seating:
    """How the games of a match are seeded and who is who (for a config
    with a ``seed``): our colour alternates, ours first in game 0."""

    seed: int

    def game_seed(self, index: int) -> int:
        return game_seed(self.seed, index)

    def our_colour(self, index: int) -> int:
        return first_seat(index)


@dataclass(frozen=True)
class MatchConfig(Seating):
    """Everything a (worker) process needs to play games of a match against
    OpenSpiel."""

    game: str
    size: int | None
    move_time: float  # OpenSpiel's
    our_time: float
    seed: int
    gtp: bool
    rates: dict[int, float]
    level: str | None = None  # ours: the strongest
    parts: frozenset[str] | None = None  # our engine's knowledge (``--without``, ``--with``)

    def new_match(self, stderr: Any = subprocess.DEVNULL) -> Match:
        return Match(self)


@dataclass(frozen=True)
class GtpMatchConfig(Seating):
    """Everything a (worker) process needs to play games of a match against
    a GTP engine."""

    game: str
    size: int
    our_time: float | None
    level: str | None
    seed: int
    gtp: bool  # our side through py/gtp.py
    command: str
    dialect: str
    setup: tuple[str, ...]
    openings: tuple[int | None, ...]
    timeout: float = 120.0
    proof_seconds: float = 60.0  # to prove the loss of an opponent that stopped on genmove
    parts: frozenset[str] | None = None  # our engine's knowledge (``--without``, ``--with``)

    def opening(self, index: int) -> int | None:
        """Game pair ``index // 2`` has the same first stone, once with each colour."""
        return self.openings[(index // 2) % len(self.openings)]

    def new_match(self, stderr: Any = subprocess.DEVNULL) -> GtpMatch:
        return GtpMatch(self, stderr)


@dataclass
class GameResult:
    index: int
    our_colour: int
    winner: int | None
    seconds: float  # wall time of the game
    our_seconds: list[float] = field(default_factory=list)
    their_seconds: list[float] = field(default_factory=list)
    simulations: list[int] = field(default_factory=list)


@dataclass
class GtpGameResult(GameResult):
    opening: int | None = None
    forfeit: str | None = None  # why the opponent lost by an illegal answer
    resigned: bool = False
    #: it stopped on, or failed, genmove in a position our solver proves (its value for it), or None
    stopped_proven: int | None = None
    moves: list[str] = field(default_factory=list)  # the game's moves, in our notation
    void: str | None = None  # why the game counts for nobody
    their_verdict: Any = None  # the opponent's own result, when it disagrees with ours


@dataclass
class MatchTally(Tally):
    """A match's results (``tools.matches.Tally``) and its games' times and
    OpenSpiel's simulations per decision."""

    simulations: list[int] = field(default_factory=list)
    game_seconds: list[float] = field(default_factory=list)

    def count(self, result: GameResult) -> str:
        """Count a game; its mark, W, D or L."""
        mark = self.add(result.our_colour, result.winner)
        self.our_seconds += result.our_seconds
        self.their_seconds += result.their_seconds
        self.simulations += result.simulations
        self.game_seconds.append(result.seconds)
        return mark


@dataclass
class GtpTally(MatchTally):
    forfeits: list[str] = field(default_factory=list)
    resigns: int = 0
    void: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    stopped: list[str] = field(default_factory=list)

    def count(self, result: GameResult) -> str:
        assert isinstance(result, GtpGameResult)
        if result.void is not None:  # its moves' times count, the game does not
            self.our_seconds += result.our_seconds
            self.their_seconds += result.their_seconds
            self.void.append(f"game {result.index + 1}: {result.void}")
            return "void"
        if result.forfeit is not None:
            self.forfeits.append(f"game {result.index + 1}: {result.forfeit}")
        self.resigns += result.resigned
        if result.stopped_proven is not None:
            won = "won" if result.stopped_proven == solver.WIN else "lost"
            self.stopped.append(f"game {result.index + 1}: it stopped on (or failed) genmove in a position "
                                f"ai.connection.solver proves {won} for it (counted as its "
                                f"{'win' if won == 'won' else 'resignation'})")
        if result.their_verdict is not None:
            self.disagreements.append(f"game {result.index + 1}: it says {result.their_verdict!r}")
        return super().count(result)


def our_player(config: MatchConfig | GtpMatchConfig, game_seed: int) -> InProcessPlayer | GtpPlayer:
    """Our side for one game: the engine here, or py/gtp.py with ``--gtp``."""
    if config.gtp:
        size = config.size if sized(config.game) else None
        return GtpPlayer(config.game, size, config.our_time, game_seed, config.level)
    return InProcessPlayer(config.game, config.our_time, game_seed, config.level, config.parts)


def play_out(state: GameState, result: GameResult, ours: InProcessPlayer | GtpPlayer,
             their_move: Callable[[GameState], int | None], played: Callable[[int], None] = lambda move: None) -> None:
    """Play ``state`` to its end, ours timed into ``result``, theirs from
    ``their_move`` (None: the game stops there, decided by it); ``played``
    hears every move."""
    while not state.is_over():
        if state.turn == result.our_colour:
            start = time.perf_counter()
            move = ours.choose(state)
            result.our_seconds.append(time.perf_counter() - start)
        else:
            answer = their_move(state)
            if answer is None:
                return
            move = answer
        state.play(move)
        played(move)


class Match:
    """The games of one match against OpenSpiel, in one process: the
    adapter, the opponent (its rates from the calibration in the main
    process) and our side."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.adapter = make_adapter(config.game, config.size)
        self.theirs = SpielPlayer(self.adapter, config.move_time, config.seed, config.rates)

    def play(self, index: int) -> GameResult:
        config, adapter, theirs = self.config, self.adapter, self.theirs
        game_seed = config.game_seed(index)
        result = GameResult(index, config.our_colour(index), None, 0.0)
        started = time.perf_counter()
        first_decision = len(theirs.simulations)
        state = adapter.new_state()
        spiel_state = theirs.game.new_initial_state()

        def their_move(state: GameState) -> int:
            move, spent = theirs.choose(spiel_state, len(state.moves), game_seed)
            result.their_seconds.append(spent)
            return move

        ours = our_player(config, game_seed)
        try:
            play_out(state, result, ours, their_move, lambda move: adapter.apply(spiel_state, move))
        finally:
            ours.close()
        outcome = state.outcome()
        assert outcome is not None and spiel_state.is_terminal() and adapter.winner(spiel_state) == outcome.winner
        result.winner = outcome.winner
        result.simulations = theirs.simulations[first_decision:]
        result.seconds = time.perf_counter() - started
        return result

    def close(self) -> None:
        pass


def proven_value(state: GameState, seconds: float) -> int | None:
    """The value of a Hex position for its side to move (``solver.WIN`` or
    ``solver.LOSS``) if ``ai.connection.solver`` proves it within ``seconds``, else
    None (always for Y, which it cannot solve)."""
    if not isinstance(state, HexState) or seconds <= 0:
        return None
    mine, theirs = solver.position_masks(list(state.owners()), state.turn)
    value, _ = solver.Solver(state.size).solve(mine, theirs, state.turn, seconds)
    return value if value in (solver.WIN, solver.LOSS) else None


def gtp_state(game: str, size: int) -> GameState:
    """An empty game for a GTP match: Ultimate Tic-Tac-Toe (``size`` 9, the
    ``boardsize`` it accepts), or Hex or Y of side ``size`` without the
    swap rule."""
    return STATES[game].from_settings({"size": size, "swap": False} if sized(game) else {})


class GtpMatch:
    """Games against one GTP opponent, each refereed by our rules."""

    def __init__(self, config: GtpMatchConfig, stderr: Any = subprocess.DEVNULL) -> None:
        self.config = config
        self.new_state = lambda: gtp_state(config.game, config.size)
        self.theirs = GtpOpponent(config.command, DIALECTS[config.dialect](), config.game, config.size,
                                  list(config.setup), config.timeout, stderr)

    def play(self, index: int) -> GtpGameResult:
        config, theirs = self.config, self.theirs
        our_colour = config.our_colour(index)
        result = GtpGameResult(index, our_colour, None, 0.0, opening=config.opening(index))
        started = time.perf_counter()
        state = self.new_state()
        ours = our_player(config, config.game_seed(index))

        def their_move(state: GameState) -> int | None:
            # MoHex 2.0 stops, or answers "? genmove failed", once it has
            # proven the game: decided where our solver proves it too,
            # else void (a stop) or a forfeit (a failure) as ever.
            try:
                answer = theirs.choose(state)
            except OpponentError as error:
                if not str(error).startswith("the opponent stopped on 'genmove") \
                        or not self.decided_by_proof(result, state):
                    raise
                theirs.close()  # a new process for the next game
                return None
            result.their_seconds.append(answer.seconds)
            if answer.move is None:
                if answer.forfeit is not None and answer.forfeit.startswith("genmove failed") \
                        and self.decided_by_proof(result, state):
                    return None
                result.forfeit, result.resigned = answer.forfeit, answer.resigned
                result.winner = our_colour
                return None
            return answer.move

        try:
            theirs.new_game()
            if result.opening is not None:
                state.play(result.opening)  # the pair's first stone, thought by nobody
            play_out(state, result, ours, their_move)
            if state.is_over():
                outcome = state.outcome()
                assert outcome is not None
                result.winner = outcome.winner
                verdict = theirs.result(state)
                if verdict not in (result.winner, "not asked"):
                    result.their_verdict = verdict
        except OpponentError as error:
            result.void = str(error)
            result.winner = None
            theirs.close()  # a new process for the next game
        finally:
            ours.close()
            result.moves = [state.move_to_text(move) for move in state.moves]
        result.seconds = time.perf_counter() - started
        return result

    def decided_by_proof(self, result: GtpGameResult, state: GameState) -> bool:
        """Score the game by our solver's proof of ``state`` (the opponent
        to move), if it finds one in time: its resignation or its win."""
        value = proven_value(state, self.config.proof_seconds)
        if value is None:
            return False
        result.stopped_proven = value
        result.resigned = value == solver.LOSS
        result.winner = result.our_colour if value == solver.LOSS else result.our_colour ^ 1
        return True

    def close(self) -> None:
        self.theirs.close()


_worker_match: Match | GtpMatch | None = None


def _worker_init(config: MatchConfig | GtpMatchConfig, stderr_path: str | None) -> None:
    global _worker_match
    stderr = open(stderr_path, "a") if stderr_path else subprocess.DEVNULL
    _worker_match = config.new_match(stderr)
    # Worker processes skip atexit: a multiprocessing finaliser quits a GTP opponent.
    multiprocessing.util.Finalize(_worker_match, _worker_match.close, exitpriority=10)


def _worker_play(index: int) -> GameResult:
    assert _worker_match is not None
    return _worker_match.play(index)


def play_games(config: MatchConfig | GtpMatchConfig, games: int, jobs: int = 1, stderr: Any = subprocess.DEVNULL,
               stderr_path: str | None = None) -> Iterator[Any]:
    """The games' results in game order: one match (for a GTP engine, one
    opponent process) playing one game at a time, or with ``jobs`` > 1 that
    many worker processes, each with its own (a GTP opponent's standard
    error appended to ``stderr_path``, if given)."""
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init,
                                 initargs=(config, stderr_path)) as pool:
            yield from pool.map(_worker_play, range(games))
        return
    match = config.new_match(stderr)
    try:
        for index in range(games):
            yield match.play(index)
    finally:
        match.close()
