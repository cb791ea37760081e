"""Play our strongest level of UTTT, Hex or Y against OpenSpiel's MCTSBot,
or against any GTP engine (Hex, Y, and UTTT in our dialect).

    python tools/arena.py --game uttt --games 40 --move-time 1.0 [--our-time-factor 0.5] [--gtp]
    python tools/arena.py --game hex --size 11 --games 40 --move-time 1.0 [--jobs 2] [--json]
    python tools/arena.py --game y --size 11 --games 40 --move-time 1.0
    python tools/arena.py --game hex --size 11 --games 20 --move-time 2 \
        --opponent-gtp "/path/to/mohex --use-logfile=0" --opponent-dialect mohex \
        --opponent-setup "param_mohex max_games 100; param_mohex num_threads 1"
    python tools/arena.py --game uttt --games 100 --move-time 0.25 --jobs 2 \
        --opponent-gtp "python3 /tmp/then/py/gtp.py --game uttt --move-time 0.25"

The opponent is a plain UCT search with random playouts, in C++: OpenSpiel's
``MCTSBot`` (``pip install -r requirements-bench.txt``) on its games
``ultimate_tic_tac_toe``, ``hex`` and ``y``, with ``uct_c=2`` (its rewards
are -1..1) and no solver. OpenSpiel counts simulations, not seconds, so its
speed is measured here first, per stage of the game, and it gets the
simulations that fit ``--move-time``; the rate is then tracked move by move,
so the machine's load changes nothing.

OpenSpiel's UTTT splits a free choice into two decisions (board, then cell)
of the same player. Each decision gets the whole budget, so on those moves
OpenSpiel thinks twice as long as we do: the comparison leans its way, and
the measured seconds per move of both sides are reported. Hex and Y have one
decision per move.

Hex and Y are played without the swap rule (OpenSpiel's ``hex`` has it off,
``swap=False``, and its ``y`` has none: after one stone every other cell,
and nothing else, is legal). The engines number the cells differently only
in Y:

- Hex: OpenSpiel's action is our cell, ``row * size + col``, and its first
  player (``x``) joins the top and bottom rows like our FIRST (black); its
  rows are shifted the same way, so no transpose is needed.
- Y: our row ``r`` from the apex (``r + 1`` cells), position ``c``, is
  OpenSpiel's action ``c + (size - 1 - r) * size`` (OpenSpiel's row ``y``
  counts from the long edge, its cells ``x + y * size`` with ``x + y <
  size``). Other symmetries of the triangle would do as well.

Before playing, random games go through both engines move by move and must
agree on every legal move set and every result: the match only means
something if the rules (and this mapping) are the same.

Our side runs in this process (an ``ai.new_engine`` per game at the game's
strongest level, tree reuse included) or, with ``--gtp``, as the GTP engine
``py/gtp.py`` in a subprocess (one per game). Colours alternate, games are
seeded, and with ``--jobs N`` they are played in N worker processes, each
game on its own, the results merged in game order. Output: progress on
stderr, then a one-line summary and a Markdown table row on stdout, or with
``--json`` the summary as one JSON object on stdout.

A GTP opponent (``--opponent-gtp "CMD ARGS"``; Hex and Y, and Ultimate
Tic-Tac-Toe in our own dialect, e.g. ``py/gtp.py`` of an earlier commit
checked out elsewhere, to play the engine against its past self) is one
process for the match (started again should it die), or one per worker
process with ``--jobs N``. Each game it gets
``boardsize N``, ``clear_board``, its dialect's own setup and then the
commands of ``--opponent-setup`` (separated by ``;``; a refused one stops
the match). It is told every move with ``play`` and asked with ``genmove``;
the wall time of each ``genmove`` is its think time, and ours is the time
our ``choose_move`` (or ``genmove`` of ``py/gtp.py`` with ``--gtp``) takes.
Here ``--move-time`` is our time per move (times ``--our-time-factor``; 0:
our ``--level``'s own budget); the opponent's budget is whatever its setup
says. The swap rule is off.

Our rules engine referees every game: the opponent's answer must name a
cell (in its dialect) that is legal in our position, or the opponent loses
that game (a *forfeit*, reported with its text and the reason); ``resign``
loses it too. A harness failure (the opponent stops, answers nothing within
``--opponent-timeout``, or refuses one of our moves) makes the game *void*:
reported, counted for nobody. One exception: an opponent that stops while
thinking about its move, or answers its ``genmove`` with a failure (MoHex
2.0 does either once its search has proven the game, either way), in a
Hex position that ``ai.solver`` proves within a minute has resigned
(proven lost for it) or won (proven won), and the summary lists those
games. ``--record FILE`` appends every game's moves. At the end of a game
the opponent is asked for its own verdict where its dialect has a command
for it, and any disagreement with ours is reported (a sign of a wrong
translation). Before
the match, ``--opponent-check-games`` random games (10) are played into it
move by move and its verdict on each must be ours, or nothing is played.
Games are played one at a time unless ``--jobs`` says otherwise.

Openings are paired: games 2k and 2k+1 start with the same first stone
(black's, played by nobody's search), we are black in the first and white
in the second. ``--openings`` gives the stones: ``random`` (every cell
once, in an order seeded by ``--seed``; the default), ``all`` (cell order),
``none`` (an empty board; the pairs still swap colours) or a comma list of
cells in our notation.

The dialects (``--opponent-dialect``):

- ``ours``: ``docs/gtp.md``; ``b`` moves first; ``final_score`` answers
  ``B+``/``W+``. For ``py/gtp.py`` itself or any engine that speaks it.
- ``mohex``: MoHex 2.0 (Benzene), Hex only. The same cells as ours (letter
  the column, number the row from the top, black first and joining the
  top and bottom rows), ``final_score`` the same; ``param_game allow_swap
  0`` is sent first.
- ``morat``: Morat (``morat-hex``, ``morat-y``). Its first player is ``w``
  and its second ``b``; ``winner`` answers ``white``/``black``/``none``.
  Hex cells are ours. In Y its cell ``(x, y)`` has ``x + y < size`` with
  row ``y = 0`` the long edge, written ``letter(x)`` and ``y + 1``: our row
  ``r`` from the apex, position ``c`` is its ``x = c, y = size - 1 - r``,
  so our ``a1`` (the apex) is its ``a{size}`` and our bottom row its row 1.

The summary gives the games, wins and losses, the score with its 95%
Wilson interval, the mean wall seconds per move of both sides, and the
forfeits, resignations, void games and disagreements.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing.util
import queue
import random
import re
import shlex
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

import ai  # noqa: E402
from ai import connection  # noqa: E402
from ai.connection import solver  # noqa: E402
from core import FIRST, SECOND, GameError, GameState, HexState, UtttState, YState  # noqa: E402
from core.uttt import BOARD_CELLS, CELL_BOARD, CELL_POSITION  # noqa: E402
from core.y import cell_index, row_col  # noqa: E402
from registry import GAMES  # noqa: E402

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the machine
    pyspiel = None

UCT_C = 2.0

#: The columns of the Markdown row this prints (for whoever gathers rows).
MARKDOWN_HEADER = (
    "| game | ours | s/move ours | OpenSpiel s/move | sims/decision | games | W-D-L | score | 95% CI |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


# -- the two engines' views of one game -----------------------------------------------
class Adapter:
    """One game as both engines see it: our state, OpenSpiel's game, and the
    translation of moves between them. ``to_spiel`` gives the OpenSpiel
    actions of one of our moves; ``from_spiel`` reads one of our moves back
    from the actions a player took for it."""

    name: str
    spiel_name: str
    colours: tuple[str, str] = ("black", "white")
    size: int | None = None
    max_plies: int  # the longest game

    @property
    def label(self) -> str:
        return self.name if self.size is None else f"{self.name} {self.size}"

    def spiel_params(self) -> dict[str, Any]:
        return {}

    def load(self):  # type: ignore[no-untyped-def]
        return pyspiel.load_game(self.spiel_name, self.spiel_params())

    def new_state(self) -> GameState:
        raise NotImplementedError

    def to_spiel(self, spiel_state, move: int) -> list[int]:
        raise NotImplementedError

    def from_spiel(self, spiel_state, actions: list[int]) -> int:
        raise NotImplementedError

    def legal(self, spiel_state) -> set[int]:
        """OpenSpiel's legal moves as our moves."""
        raise NotImplementedError

    def check(self, ours: GameState, spiel_state) -> None:
        """Game-specific assertions for the rules check (none by default)."""

    def apply(self, spiel_state, move: int) -> None:
        for action in self.to_spiel(spiel_state, move):
            spiel_state.apply_action(action)

    @staticmethod
    def winner(spiel_state) -> int | None:
        returns = spiel_state.returns()
        return FIRST if returns[0] > 0 else SECOND if returns[1] > 0 else None


class UtttAdapter(Adapter):
    name = "uttt"
    spiel_name = "ultimate_tic_tac_toe"
    colours = ("X", "O")
    max_plies = 81

    def new_state(self) -> UtttState:
        return UtttState()

    @staticmethod
    def free_choice(spiel_state) -> bool:
        """Whether OpenSpiel waits for a board choice (its observation's last
        ten values: the forced board one-hot, then "any")."""
        return spiel_state.observation_tensor()[-1] == 1.0

    @staticmethod
    def forced_board(spiel_state) -> int:
        return spiel_state.observation_tensor()[-10:-1].index(1.0)

    def to_spiel(self, spiel_state, move: int) -> list[int]:
        """Two actions on a free choice (board, cell), else one."""
        if self.free_choice(spiel_state):
            return [CELL_BOARD[move], CELL_POSITION[move]]
        return [CELL_POSITION[move]]

    def from_spiel(self, spiel_state, actions: list[int]) -> int:
        if len(actions) == 2:
            return BOARD_CELLS[actions[0]][actions[1]]
        return BOARD_CELLS[self.forced_board(spiel_state)][actions[0]]

    def legal(self, spiel_state) -> set[int]:
        if self.free_choice(spiel_state):
            cells = set()
            for board in spiel_state.legal_actions():
                child = spiel_state.child(board)
                cells.update(BOARD_CELLS[board][position] for position in child.legal_actions())
            return cells
        board = self.forced_board(spiel_state)
        return {BOARD_CELLS[board][position] for position in spiel_state.legal_actions()}

    def check(self, ours: UtttState, spiel_state) -> None:  # type: ignore[override]
        assert (ours.forced_board is None) == self.free_choice(spiel_state), ours


class ConnectionAdapter(Adapter):
    """Hex and Y: one action per move, a fixed map between cells and actions."""

    state_class: type[HexState] | type[YState]

    def __init__(self, size: int | None = None) -> None:
        self.size = GAMES[self.name].setting("size").default if size is None else size
        self.cells = self.max_plies = self.state_class(size).cell_count

    def new_state(self) -> GameState:
        return self.state_class(self.size, swap=False)

    def cell_to_action(self, cell: int) -> int:
        raise NotImplementedError

    def action_to_cell(self, action: int) -> int:
        raise NotImplementedError

    def to_spiel(self, spiel_state, move: int) -> list[int]:
        return [self.cell_to_action(move)]

    def from_spiel(self, spiel_state, actions: list[int]) -> int:
        (action,) = actions
        return self.action_to_cell(action)

    def legal(self, spiel_state) -> set[int]:
        cells = [self.action_to_cell(action) for action in spiel_state.legal_actions()]
        assert len(set(cells)) == len(cells), "two OpenSpiel actions for one cell"
        return set(cells)


class HexAdapter(ConnectionAdapter):
    """Same numbering: OpenSpiel's action ``row * num_cols + col`` is our
    cell, its player 0 joins top and bottom like our FIRST."""

    name = "hex"
    spiel_name = "hex"
    state_class = HexState

    def spiel_params(self) -> dict[str, Any]:
        return {"board_size": self.size, "num_rows": self.size, "num_cols": self.size, "swap": False}

    def cell_to_action(self, cell: int) -> int:
        assert 0 <= cell < self.cells, cell
        return cell

    def action_to_cell(self, action: int) -> int:
        assert 0 <= action < self.cells, f"OpenSpiel's action {action} is no cell"
        return action


class YAdapter(ConnectionAdapter):
    """Our (row r from the apex, position c) is OpenSpiel's ``c + (N-1-r) * N``."""

    name = "y"
    spiel_name = "y"
    state_class = YState

    def spiel_params(self) -> dict[str, Any]:
        return {"board_size": self.size}

    def cell_to_action(self, cell: int) -> int:
        row, col = row_col(self.size)[cell]
        return col + (self.size - 1 - row) * self.size

    def action_to_cell(self, action: int) -> int:
        y, x = divmod(action, self.size)
        row = self.size - 1 - y
        assert 0 <= y < self.size and x <= row, f"OpenSpiel's action {action} is no cell"
        return cell_index(row, x)


ADAPTERS: dict[str, type[Adapter]] = {"uttt": UtttAdapter, "hex": HexAdapter, "y": YAdapter}


def sized(game: str) -> bool:
    """Whether the game's board has a size to choose (the registry's ``size`` setting)."""
    return GAMES[game].has_setting("size")


def make_adapter(game: str, size: int | None = None) -> Adapter:
    """The adapter for ``game``; ``size`` (default: the game's own) only for
    a game with a board size."""
    if not sized(game):
        if size is not None:
            raise ValueError(f"{game} has no board size to choose")
        return ADAPTERS[game]()
    return ADAPTERS[game](size)  # type: ignore[call-arg]


def check_rules(adapter: Adapter, games: int, seed: int) -> int:
    """Random games through both engines; raises AssertionError on the first
    difference. Returns the number of positions compared."""
    game = adapter.load()
    rng = random.Random(seed)
    positions = 0
    for _ in range(games):
        ours, theirs = adapter.new_state(), game.new_initial_state()
        while True:
            positions += 1
            assert ours.is_over() == theirs.is_terminal(), (ours, str(theirs))
            if ours.is_over():
                break
            assert theirs.current_player() == ours.turn, ours
            adapter.check(ours, theirs)
            assert set(ours.legal_moves()) == adapter.legal(theirs), ours
            move = rng.choice(ours.legal_moves())
            ours.play(move)
            adapter.apply(theirs, move)
        assert ours.outcome().winner == adapter.winner(theirs), (ours, theirs.returns())
    return positions


# -- the opponent -----------------------------------------------------------------------
class SpielPlayer:
    """OpenSpiel's MCTSBot, given the simulations that fit ``move_time``.

    Its speed changes a lot over a game (rollouts get shorter), so the rate
    is kept per stage of the game (``stage`` plies each, about 14 stages a
    game), measured before the match (or given: ``rates``) and then updated
    after every decision."""

    CALIBRATION_SIMS = 2000

    def __init__(self, adapter: Adapter, move_time: float, seed: int,
                 rates: dict[int, float] | None = None, calibration_sims: int = CALIBRATION_SIMS) -> None:
        self.adapter = adapter
        self.calibration_sims = calibration_sims
        self.game = adapter.load()
        self.move_time = move_time
        self.seed = seed
        self.stage = max(6, adapter.max_plies // 14)
        self.rates: dict[int, float] = dict(rates) if rates is not None else self.calibrate()
        self.simulations: list[int] = []

    def _bot(self, simulations: int, seed: int):
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        return pyspiel.MCTSBot(self.game, evaluator, UCT_C, simulations, 2000, False, seed, False)

    def calibrate(self) -> dict[int, float]:
        """Simulations per second at each stage of random games."""
        rng = random.Random(self.seed)
        rates: dict[int, float] = {}
        for stage in range(0, self.adapter.max_plies // self.stage + 1):
            sims = times = 0.0
            for _ in range(2):
                state = self.game.new_initial_state()
                ours = self.adapter.new_state()
                while len(ours.moves) < stage * self.stage and not ours.is_over():
                    move = rng.choice(ours.legal_moves())
                    ours.play(move)
                    self.adapter.apply(state, move)
                if ours.is_over() or len(state.legal_actions()) < 2:
                    continue
                start = time.perf_counter()
                self._bot(self.calibration_sims, self.seed).step(state)
                times += time.perf_counter() - start
                sims += self.calibration_sims
            if times:
                rates[stage] = sims / times
        return rates

    def rate(self, ply: int) -> float:
        stage = ply // self.stage
        while stage not in self.rates and stage > 0:
            stage -= 1
        return self.rates.get(stage, 50_000.0)

    def choose(self, spiel_state, ply: int, game_seed: int) -> tuple[int, float]:
        """The bot's move as ours, and the seconds it took (``ply``: moves
        played so far). It decides until the turn passes (twice on a free
        choice in UTTT); ``spiel_state`` is left as it was."""
        player = spiel_state.current_player()
        state = spiel_state
        actions: list[int] = []
        spent = 0.0
        stage = ply // self.stage
        while True:
            simulations = max(50, int(self.rate(ply) * self.move_time))
            bot = self._bot(simulations, game_seed + 2 * ply + len(actions))
            start = time.perf_counter()
            action = bot.step(state)
            elapsed = time.perf_counter() - start
            spent += elapsed
            self.simulations.append(simulations)
            # Follow the machine's speed (a decision with one legal action
            # returns at once and says nothing about it).
            if len(state.legal_actions()) > 1 and elapsed > 0.01:
                self.rates[stage] = 0.5 * self.rate(ply) + 0.5 * simulations / elapsed
            actions.append(action)
            state = state.child(action)
            if state.is_terminal() or state.current_player() != player:
                return self.adapter.from_spiel(spiel_state, actions), spent


# -- our side -----------------------------------------------------------------------------
class InProcessPlayer:
    """Our engine in this process, one per game (its tree kept between moves)."""

    def __init__(self, game: str, move_time: float | None, seed: int, level: str | None = None,
                 parts: frozenset[str] | None = None) -> None:
        self.engine = ai.new_engine(game, parts)
        self.level = ai.levels(game)[-1] if level is None else level
        self.move_time = move_time
        self.seed = seed

    def choose(self, state: GameState, opponent_move: int | None) -> int:
        return self.engine.choose_move(state, self.level, seed=self.seed + len(state.moves),
                                       move_time=self.move_time)

    def close(self) -> None:
        self.engine.forget()  # its tree's memory goes now, not when the player does


class GtpPlayer:
    """Our GTP engine in a subprocess, told every move it has not seen (an
    opening stone too)."""

    def __init__(self, game: str, size: int | None, move_time: float | None, seed: int,
                 level: str | None = None) -> None:
        command = [sys.executable, str(ROOT / "py" / "gtp.py"), "--game", game, "--seed", str(seed)]
        if move_time is not None:
            command += ["--move-time", str(move_time)]
        if level is not None:
            command += ["--level", level]
        if size is not None:
            command += ["--size", str(size)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.told = 0  # moves of the game it knows

    def send(self, command: str) -> str:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the GTP engine stopped on {command!r}")
            if line == "\n":
                break
            lines.append(line.rstrip("\n"))
        response = "\n".join(lines)
        if not response.startswith("="):
            raise RuntimeError(f"GTP {command!r}: {response}")
        return response[1:].strip()

    def choose(self, state: GameState, opponent_move: int | None) -> int:
        for ply in range(self.told, len(state.moves)):
            colour = "b" if ply % 2 == 0 else "w"
            self.send(f"play {colour} {state.move_to_text(state.moves[ply])}")
        colour = "b" if state.turn == FIRST else "w"
        move = state.parse_move(self.send(f"genmove {colour}"))
        self.told = len(state.moves) + 1
        return move

    def close(self) -> None:
        try:
            self.send("quit")
        finally:
            self.process.wait(timeout=10)


# -- the match ------------------------------------------------------------------------------
@dataclass(frozen=True)
class MatchConfig:
    """Everything a (worker) process needs to play games of the match."""

    game: str
    size: int | None
    move_time: float  # OpenSpiel's
    our_time: float
    seed: int
    gtp: bool
    rates: dict[int, float]
    parts: frozenset[str] | None = None  # our engine's knowledge (``--without``, ``--with``)

    def game_seed(self, index: int) -> int:
        return self.seed * 100_003 + index * 1009

    def our_colour(self, index: int) -> int:
        return FIRST if index % 2 == 0 else SECOND


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
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    our_seconds: list[float] = field(default_factory=list)
    their_seconds: list[float] = field(default_factory=list)
    simulations: list[int] = field(default_factory=list)
    game_seconds: list[float] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def add(self, result: GameResult) -> str:
        """Count a game; its mark, W, D or L."""
        if result.winner is None:
            self.draws += 1
            mark = "D"
        elif result.winner == result.our_colour:
            self.wins += 1
            mark = "W"
        else:
            self.losses += 1
            mark = "L"
        self.our_seconds += result.our_seconds
        self.their_seconds += result.their_seconds
        self.simulations += result.simulations
        self.game_seconds.append(result.seconds)
        return mark


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson interval of a proportion (a draw counts half a win)."""
    if games == 0:
        return 0.0, 1.0
    denominator = 1 + z * z / games
    centre = (score + z * z / (2 * games)) / denominator
    half = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


class Match:
    """The games of one match, in one process: the adapter, the opponent
    (its rates from the calibration in the main process) and our side."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.adapter = make_adapter(config.game, config.size)
        self.theirs = SpielPlayer(self.adapter, config.move_time, config.seed, config.rates)

    def our_player(self, game_seed: int) -> InProcessPlayer | GtpPlayer:
        if self.config.gtp:
            return GtpPlayer(self.config.game, self.config.size, self.config.our_time, game_seed)
        return InProcessPlayer(self.config.game, self.config.our_time, game_seed, parts=self.config.parts)

    def play(self, index: int) -> GameResult:
        config, adapter, theirs = self.config, self.adapter, self.theirs
        game_seed, our_colour = config.game_seed(index), config.our_colour(index)
        result = GameResult(index, our_colour, None, 0.0)
        started = time.perf_counter()
        first_decision = len(theirs.simulations)
        state = adapter.new_state()
        spiel_state = theirs.game.new_initial_state()
        ours = self.our_player(game_seed)
        last: int | None = None
        try:
            while not state.is_over():
                if state.turn == our_colour:
                    start = time.perf_counter()
                    move = ours.choose(state, last)
                    result.our_seconds.append(time.perf_counter() - start)
                else:
                    move, spent = theirs.choose(spiel_state, len(state.moves), game_seed)
                    result.their_seconds.append(spent)
                state.play(move)
                adapter.apply(spiel_state, move)
                last = move
        finally:
            ours.close()
        assert spiel_state.is_terminal() and adapter.winner(spiel_state) == state.outcome().winner
        result.winner = state.outcome().winner
        result.simulations = theirs.simulations[first_decision:]
        result.seconds = time.perf_counter() - started
        return result


_worker_match: Match | None = None


def _worker_init(config: MatchConfig) -> None:
    global _worker_match
    _worker_match = Match(config)


def _worker_play(index: int) -> GameResult:
    assert _worker_match is not None
    return _worker_match.play(index)


def play_games(config: MatchConfig, games: int, jobs: int):  # type: ignore[no-untyped-def]
    """The games' results, in game order (as they come with one job)."""
    if jobs <= 1:
        match = Match(config)
        for index in range(games):
            yield match.play(index)
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init, initargs=(config,)) as pool:
        yield from pool.map(_worker_play, range(games))


# -- any GTP engine as the opponent -----------------------------------------------------------
LETTERS = "abcdefghijklmnopqrstuvwxyz"
_CELL_TEXT = re.compile(r"([a-z])([0-9]{1,2})")


class OpponentError(RuntimeError):
    """The opponent process stopped, timed out, or refused a command the
    harness needs (a setup command, one of our moves): not a move of its
    own, so the game is void, not lost."""


class Dialect:
    """How one family of GTP engines names colours and cells. ``to_text``
    writes one of our moves for it; ``from_text`` reads its answer to
    ``genmove`` (raises ValueError for text that names no cell)."""

    name = "ours"
    games: tuple[str, ...] = ("hex", "y", "uttt")
    first, second = "b", "w"  # the words for our FIRST and SECOND
    result_command: str | None = "final_score"
    setup: tuple[str, ...] = ()  # sent before the user's --opponent-setup

    def colour(self, player: int) -> str:
        return self.first if player == FIRST else self.second

    def to_text(self, state: GameState, move: int) -> str:
        return state.move_to_text(move)

    def from_text(self, state: GameState, text: str) -> int:
        clean = text.strip().lower()
        if clean in ("swap", "swap-pieces"):
            return state.parse_move("swap")
        if _CELL_TEXT.fullmatch(clean) is None:
            raise ValueError(f"{text!r} is no cell")
        try:
            return state.parse_move(clean)
        except GameError as error:
            raise ValueError(str(error)) from None

    def winner(self, answer: str) -> int | None | str:
        """Its answer to ``result_command`` as FIRST, SECOND, None (no
        winner), or the text itself when it cannot be read."""
        text = answer.strip().upper()
        if text == "0":  # a draw (Ultimate Tic-Tac-Toe)
            return None
        return FIRST if text.startswith("B+") else SECOND if text.startswith("W+") else answer


class MohexDialect(Dialect):
    """MoHex 2.0 (Benzene): Hex only, our notation (letter the column, number
    the row, black first and joining row 1 to the last row), ``final_score``
    as ours; the swap rule is switched off first."""

    name = "mohex"
    games = ("hex",)
    setup = ("param_game allow_swap 0",)


class MoratDialect(Dialect):
    """Morat (morat-hex, morat-y): its first player is ``w``, the second
    ``b``; ``winner`` answers ``white``, ``black`` or ``none``.

    - Hex: cells as ours (letter ``x`` the column, number ``y + 1`` the row,
      its first player joins ``y = 0`` to the last row, as our black).
    - Y: its cells are ``(x, y)`` with ``x + y < size``, row ``y = 0`` the
      long edge; our row ``r`` from the apex, position ``c``, is its
      ``x = c, y = size - 1 - r``: the text is our letter with the number
      ``size - r`` (our apex ``a1`` is its ``a{size}``, our bottom row its
      row 1). The three edges (x = 0, y = 0, x + y = size - 1) are our
      left, bottom and right edges."""

    name = "morat"
    games = ("hex", "y")
    first, second = "w", "b"
    result_command = "winner"

    def to_text(self, state: GameState, move: int) -> str:
        if state.game != "y":
            return super().to_text(state, move)
        row, col = row_col(state.size)[move]
        return f"{LETTERS[col]}{state.size - row}"

    def from_text(self, state: GameState, text: str) -> int:
        if state.game != "y":
            return super().from_text(state, text)
        match = _CELL_TEXT.fullmatch(text.strip().lower())
        if match is None:
            raise ValueError(f"{text!r} is no cell")
        x, y = LETTERS.index(match[1]), int(match[2]) - 1
        if not (0 <= y < state.size and x + y < state.size):
            raise ValueError(f"{text!r} is no cell of Y {state.size}")
        return cell_index(state.size - 1 - y, x)

    def winner(self, answer: str) -> int | None | str:
        text = answer.strip().lower()
        return {"white": FIRST, "black": SECOND, "none": None}.get(text, answer)


DIALECTS: dict[str, type[Dialect]] = {"ours": Dialect, "mohex": MohexDialect, "morat": MoratDialect}


class GtpProcess:
    """A GTP engine in a subprocess; its answers read by a thread, so that a
    silent engine times out instead of hanging the match."""

    def __init__(self, command: str, timeout: float, stderr: Any = subprocess.DEVNULL) -> None:
        self.command = command
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=stderr, text=True, bufsize=1)
        except (OSError, ValueError) as error:
            raise OpponentError(f"cannot start {command!r}: {error}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, command: str, timeout: float | None = None) -> tuple[bool, str]:
        """(success, the answer's text without ``=``/``?`` and id)."""
        assert self.process.stdin
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise OpponentError(f"the opponent has stopped (before {command!r})") from None
        lines: list[str] = []
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise OpponentError(f"no answer to {command!r} in {self.timeout:g} s") from None
            if line is None:
                raise OpponentError(f"the opponent stopped on {command!r}")
            line = line.rstrip("\r\n")
            if not line.strip():
                if lines:
                    break
                continue  # blank lines before an answer
            lines.append(line)
        text = "\n".join(lines)
        match = re.match(r"([=?])[0-9]*\s?", text)
        if match is None:
            raise OpponentError(f"not a GTP answer to {command!r}: {text!r}")
        return match[1] == "=", text[match.end():].strip()

    def close(self) -> None:
        try:
            self.send("quit", timeout=5)
        except OpponentError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class OpponentMove:
    """The opponent's answer to ``genmove``: a legal ``move``, or a
    ``forfeit`` (its text and why it is no legal move), or a resignation."""

    text: str
    seconds: float
    move: int | None = None
    forfeit: str | None = None
    resigned: bool = False


class GtpOpponent:
    """Any GTP engine, one process for the match (started again if it dies),
    a new game by ``boardsize`` and ``clear_board`` and the setup commands."""

    def __init__(self, command: str, dialect: Dialect, game: str, size: int, setup: list[str],
                 timeout: float = 120.0, stderr: Any = subprocess.DEVNULL) -> None:
        if game not in dialect.games:
            raise ValueError(f"the {dialect.name} dialect has no {game}")
        self.command, self.dialect, self.game, self.size = command, dialect, game, size
        self.setup = list(dialect.setup) + setup
        self.timeout, self.stderr = timeout, stderr
        self.process: GtpProcess | None = None
        self.told = 0

    def ask(self, command: str) -> str:
        assert self.process is not None
        ok, text = self.process.send(command)
        if not ok:
            raise OpponentError(f"the opponent refused {command!r}: {text}")
        return text

    def new_game(self) -> None:
        if self.process is None or self.process.process.poll() is not None:
            self.process = GtpProcess(self.command, self.timeout, self.stderr)
        self.ask(f"boardsize {self.size}")
        self.ask("clear_board")
        for command in self.setup:
            self.ask(command)
        self.told = 0

    def tell(self, state: GameState) -> None:
        """Play the moves it has not seen."""
        for ply in range(self.told, len(state.moves)):
            player = FIRST if ply % 2 == 0 else SECOND
            self.ask(f"play {self.dialect.colour(player)} {self.dialect.to_text(state, state.moves[ply])}")
        self.told = len(state.moves)

    def choose(self, state: GameState) -> OpponentMove:
        """Its move for the side to move in ``state``, checked by our rules."""
        self.tell(state)
        assert self.process is not None
        start = time.perf_counter()
        ok, text = self.process.send(f"genmove {self.dialect.colour(state.turn)}")
        answer = OpponentMove(text, time.perf_counter() - start)
        if not ok:
            answer.forfeit = f"genmove failed: {text}"
        elif text.strip().lower() == "resign":
            answer.resigned = True
        else:
            try:
                move = self.dialect.from_text(state, text)
            except ValueError as error:
                answer.forfeit = f"{text!r} cannot be read ({error})"
            else:
                if move in state.legal_moves():
                    answer.move = move
                    self.told = len(state.moves) + 1
                else:
                    answer.forfeit = f"{text!r} is not legal here"
        return answer

    def result(self, state: GameState) -> int | None | str:
        """Its own verdict on the finished game (after our last move)."""
        if self.dialect.result_command is None:
            return "not asked"
        self.tell(state)
        return self.dialect.winner(self.ask(self.dialect.result_command))

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
            self.process = None


def check_dialect(opponent: GtpOpponent, new_state, games: int, seed: int) -> int:  # type: ignore[no-untyped-def]
    """Random games told to the opponent move by move; at each end its own
    verdict must be ours (where its dialect can ask). Raises OpponentError
    on a refused move or a different verdict. Returns the games compared."""
    if opponent.dialect.result_command is None:
        return 0
    rng = random.Random(seed)
    for number in range(games):
        state = new_state()
        opponent.new_game()
        while not state.is_over():
            state.play(rng.choice(state.legal_moves()))
        verdict = opponent.result(state)
        if verdict != state.outcome().winner:
            moves = " ".join(opponent.dialect.to_text(state, move) for move in state.moves)
            raise OpponentError(f"random game {number + 1}: it scores {verdict!r}, our rules "
                                f"{state.outcome().winner!r} (its moves: {moves})")
    return games


def opening_cells(spec: str, state: GameState, seed: int) -> list[int | None]:
    """The first stones of the game pairs: ``random`` (every cell once, in a
    seeded order), ``all`` (every cell in order), ``none`` (no forced first
    stone) or a comma-separated list of cells in our notation."""
    cells = list(state.legal_moves())
    if spec == "none":
        return [None]
    if spec == "all":
        return list(cells)
    if spec == "random":
        random.Random(seed).shuffle(cells)
        return list(cells)
    return [state.parse_move(text) for text in spec.split(",") if text.strip()]


@dataclass(frozen=True)
class GtpMatchConfig:
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

    def game_seed(self, index: int) -> int:
        return self.seed * 100_003 + index * 1009

    def opening(self, index: int) -> int | None:
        """Game pair ``index // 2`` has the same first stone, once with each colour."""
        return self.openings[(index // 2) % len(self.openings)]

    def our_colour(self, index: int) -> int:
        return FIRST if index % 2 == 0 else SECOND


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


def proven_value(state: GameState, seconds: float) -> int | None:
    """The value of a Hex position for its side to move (``solver.WIN`` or
    ``solver.LOSS``) if ``ai.solver`` proves it within ``seconds``, else
    None (always for Y, which it cannot solve)."""
    if not isinstance(state, HexState) or seconds <= 0:
        return None
    mine, theirs = solver.position_masks(state.owners(), state.turn)
    value, _ = solver.Solver(state.size).solve(mine, theirs, state.turn, seconds)
    return value if value in (solver.WIN, solver.LOSS) else None


def gtp_state(game: str, size: int) -> GameState:
    """An empty game for a GTP match: Ultimate Tic-Tac-Toe (``size`` 9, the
    ``boardsize`` it accepts), or Hex or Y of side ``size`` without the
    swap rule."""
    if game == "uttt":
        return UtttState()
    return (HexState if game == "hex" else YState)(size, swap=False)


class GtpMatch:
    """Games against one GTP opponent, each refereed by our rules."""

    def __init__(self, config: GtpMatchConfig, stderr: Any = subprocess.DEVNULL) -> None:
        self.config = config
        self.new_state = lambda: gtp_state(config.game, config.size)
        self.theirs = GtpOpponent(config.command, DIALECTS[config.dialect](), config.game, config.size,
                                  list(config.setup), config.timeout, stderr)

    def our_player(self, game_seed: int) -> InProcessPlayer | GtpPlayer:
        if self.config.gtp:
            size = None if self.config.game == "uttt" else self.config.size
            return GtpPlayer(self.config.game, size, self.config.our_time, game_seed, self.config.level)
        return InProcessPlayer(self.config.game, self.config.our_time, game_seed, self.config.level,
                               self.config.parts)

    def play(self, index: int) -> GtpGameResult:
        config, theirs = self.config, self.theirs
        our_colour = config.our_colour(index)
        result = GtpGameResult(index, our_colour, None, 0.0, opening=config.opening(index))
        started = time.perf_counter()
        state = self.new_state()
        ours = self.our_player(config.game_seed(index))
        last: int | None = None
        try:
            theirs.new_game()
            if result.opening is not None:
                state.play(result.opening)  # the pair's first stone, thought by nobody
                last = result.opening
            while not state.is_over():
                if state.turn == our_colour:
                    start = time.perf_counter()
                    move = ours.choose(state, last)
                    result.our_seconds.append(time.perf_counter() - start)
                else:
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
                        break
                    result.their_seconds.append(answer.seconds)
                    if answer.move is None:
                        if answer.forfeit is not None and answer.forfeit.startswith("genmove failed") \
                                and self.decided_by_proof(result, state):
                            break
                        result.forfeit, result.resigned = answer.forfeit, answer.resigned
                        result.winner = our_colour
                        break
                    move = answer.move
                state.play(move)
                last = move
            if state.is_over():
                result.winner = state.outcome().winner
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


def play_gtp_match(config: GtpMatchConfig, games: int,  # type: ignore[no-untyped-def]
                   stderr: Any = subprocess.DEVNULL, jobs: int = 1, stderr_path: str | None = None):
    """The games' results in game order: one opponent process playing one
    game at a time, or with ``jobs`` > 1 that many worker processes, each
    with its own opponent process (its standard error appended to
    ``stderr_path``, if given)."""
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_gtp_worker_init,
                                 initargs=(config, stderr_path)) as pool:
            yield from pool.map(_gtp_worker_play, range(games))
        return
    match = GtpMatch(config, stderr)
    try:
        for index in range(games):
            yield match.play(index)
    finally:
        match.close()


_worker_gtp_match: GtpMatch | None = None


def _gtp_worker_init(config: GtpMatchConfig, stderr_path: str | None) -> None:
    global _worker_gtp_match
    stderr = open(stderr_path, "a") if stderr_path else subprocess.DEVNULL
    _worker_gtp_match = GtpMatch(config, stderr)
    # Worker processes skip atexit: a multiprocessing finaliser quits the opponent.
    multiprocessing.util.Finalize(_worker_gtp_match, _worker_gtp_match.close, exitpriority=10)


def _gtp_worker_play(index: int) -> GtpGameResult:
    assert _worker_gtp_match is not None
    return _worker_gtp_match.play(index)


@dataclass
class GtpTally(Tally):
    forfeits: list[str] = field(default_factory=list)
    resigns: int = 0
    void: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    stopped: list[str] = field(default_factory=list)

    def add(self, result: GtpGameResult) -> str:  # type: ignore[override]
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
                                f"ai.solver proves {won} for it (counted as its "
                                f"{'win' if won == 'won' else 'resignation'})")
        if result.their_verdict is not None:
            self.disagreements.append(f"game {result.index + 1}: it says {result.their_verdict!r}")
        return super().add(result)


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def gtp_main(options: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """The match against ``--opponent-gtp``."""
    dialect = DIALECTS[options.opponent_dialect]()
    if options.game not in dialect.games:
        parser.error(f"the {dialect.name} dialect has no {options.game}")
    if not sized(options.game) and options.size is not None:
        parser.error(f"--size applies to {' and '.join(game for game in ADAPTERS if sized(game))} only")
    size = 9 if not sized(options.game) else options.size or GAMES[options.game].setting("size").default
    try:
        state = gtp_state(options.game, size)
    except GameError as error:
        parser.error(str(error))
    try:
        openings = opening_cells(options.openings, state, options.seed)
    except GameError as error:
        parser.error(f"--openings: {error}")
    levels = ai.levels(options.game)
    if options.level is not None and options.level not in levels:
        parser.error(f"--level: one of {', '.join(levels)}")
    level = options.level or levels[-1]
    our_time = options.move_time * options.our_time_factor if options.move_time > 0 else None
    setup = tuple(command.strip() for command in options.opponent_setup.split(";") if command.strip())
    config = GtpMatchConfig(options.game, size, our_time, level, options.seed, options.gtp, options.opponent_gtp,
                            dialect.name, setup, tuple(openings), options.opponent_timeout, parts=options.parts)
    started = time.perf_counter()
    tally = GtpTally()
    stderr = open(options.opponent_stderr, "a") if options.opponent_stderr else subprocess.DEVNULL
    if options.opponent_check_games:
        checker = GtpOpponent(options.opponent_gtp, dialect, options.game, size, list(setup),
                              options.opponent_timeout, stderr)
        try:
            checked = check_dialect(checker, lambda: gtp_state(options.game, size),
                                    options.opponent_check_games, options.seed)
        except OpponentError as error:
            print(f"arena.py: the opponent failed the check: {error}", file=sys.stderr)
            return 1
        finally:
            checker.close()
        print(f"the opponent scores {checked} random games as our rules do", file=sys.stderr)
    colours = ("X", "O") if options.game == "uttt" else ("black", "white")
    draws = options.game == "uttt"  # the only game with draws: shown where there are some

    def record(signs: bool) -> str:
        """+W =D -L (or W-D-L without signs); no draws for Hex and Y."""
        counts = [("+", tally.wins)] + ([("=", tally.draws)] if draws else []) + [("-", tally.losses)]
        return " ".join(f"{sign}{count}" for sign, count in counts) if signs else \
            "-".join(str(count) for _, count in counts)
    try:
        for result in play_gtp_match(config, options.games, stderr, options.jobs, options.opponent_stderr):
            mark = tally.add(result)
            if options.record:
                with options.record.open("a") as file:
                    file.write(json.dumps({"game": options.game, "size": size, "moves": result.moves,
                                           "ours": colours[result.our_colour], "result": mark}) + "\n")
            opening = "-" if result.opening is None else state.move_to_text(result.opening)
            note = (f"  forfeit: {result.forfeit}" if result.forfeit
                    else "  it stopped in a position our solver proves lost" if result.stopped_proven == solver.LOSS
                    else "  it stopped in a position our solver proves won" if result.stopped_proven == solver.WIN
                    else "  it resigned" if result.resigned
                    else f"  VOID: {result.void}" if result.void else "")
            if result.their_verdict is not None:
                note += f"  (it scores the game {result.their_verdict!r})"
            print(f"game {result.index + 1}/{options.games} (opening {opening}, we are {colours[result.our_colour]}): "
                  f"{mark}  {record(True)}  score {tally.score:.3f}  ({result.seconds:.1f} s, "
                  f"s/move ours {mean(result.our_seconds):.2f} theirs {mean(result.their_seconds):.2f}){note}",
                  file=sys.stderr)
    finally:
        if stderr is not subprocess.DEVNULL:
            stderr.close()
    elapsed = time.perf_counter() - started
    low, high = wilson(tally.score, tally.games)
    our_mean, their_mean = mean(tally.our_seconds), mean(tally.their_seconds)
    label = options.game if not sized(options.game) else f"{options.game} {size}"
    summary = {
        "game": options.game, "size": size if sized(options.game) else None, "level": level,
        "side": "gtp" if options.gtp else "in-process", "our_move_time": our_time, "opponent": options.opponent_gtp, "dialect": dialect.name,
        "setup": list(dialect.setup + setup), "openings": options.openings,
        "our_s_per_move": round(our_mean, 4), "their_s_per_move": round(their_mean, 4),
        "our_moves": len(tally.our_seconds), "their_moves": len(tally.their_seconds),
        "games": tally.games, "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
        "score": round(tally.score, 4), "ci_low": round(low, 4), "ci_high": round(high, 4),
        "forfeits": tally.forfeits, "resigns": tally.resigns, "void": tally.void,
        "disagreements": tally.disagreements, "stopped_proven": tally.stopped, "without": options.without,
        "with": options.with_parts,
        "seed": options.seed, "elapsed_s": round(elapsed, 1),
    }
    if options.json:
        print(json.dumps(summary))
        return 0
    budget = "own budget" if our_time is None else f"{our_time:g} s/move"
    print(f"{label} {level} ({summary['side']}, {budget}) vs {options.opponent_gtp!r} "
          f"[{dialect.name}; {'; '.join(summary['setup']) or 'no setup'}]: {record(True)} "
          f"in {tally.games} games, score {tally.score:.1%} (95% CI {low:.1%}-{high:.1%}); "
          f"s/move ours {our_mean:.2f}, theirs {their_mean:.2f}; forfeits {len(tally.forfeits)}, "
          f"resigns {tally.resigns}, void {len(tally.void)}, result disagreements {len(tally.disagreements)}; "
          f"{elapsed / 60:.1f} min")
    for line in tally.forfeits + tally.stopped + tally.void + tally.disagreements:
        print(f"  {line}")
    print(f"| {label} | {level} | {our_mean:.2f} | {their_mean:.2f} | {tally.games} | {record(False)} | "
          f"{tally.score:.1%} | {low:.1%}-{high:.1%} |")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arena.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="uttt", choices=list(ADAPTERS))
    parser.add_argument("--size", type=int, help="the board's side, for " + ", ".join(
        f"{game} (default {GAMES[game].setting('size').default})" for game in ADAPTERS if sized(game)))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--move-time", type=float, default=1.0,
                        help="OpenSpiel's seconds per move (with --opponent-gtp: ours; 0: our level's own budget)")
    parser.add_argument("--our-time-factor", type=float, default=1.0, help="our time = factor x move time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gtp", action="store_true", help="play our side through py/gtp.py")
    parser.add_argument("--check-games", type=int, default=200, help="random games for the rules check")
    parser.add_argument("--calibration-sims", type=int, default=SpielPlayer.CALIBRATION_SIMS,
                        help="OpenSpiel's simulations per timed search when measuring its speed")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, in worker processes")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    gtp = parser.add_argument_group("a GTP engine as the opponent (instead of OpenSpiel)")
    gtp.add_argument("--opponent-gtp", metavar="COMMAND", help='its command line, e.g. "mohex --use-logfile=0"')
    gtp.add_argument("--opponent-setup", default="", metavar="CMDS",
                     help="GTP commands, separated by ';', sent after boardsize and clear_board each game")
    gtp.add_argument("--opponent-dialect", default="ours", choices=list(DIALECTS),
                     help="its notation (default: ours, docs/gtp.md)")
    gtp.add_argument("--openings", default="random",
                     help="first stones of the game pairs: random (seeded order of every cell), all, none, "
                          "or cells in our notation, comma-separated")
    gtp.add_argument("--level", help="our level (default the strongest); with --move-time 0 its own budget")
    parser.add_argument("--without", default="", metavar="PARTS",
                        help="hex, y: parts of our engine's knowledge switched off, comma-separated, for "
                             "ablation matches (see ai.connection.KNOWN_PARTS)")
    parser.add_argument("--with", dest="with_parts", default="", metavar="PARTS",
                        help="hex, y: parts of our engine's knowledge that are off by default switched on")
    gtp.add_argument("--opponent-timeout", type=float, default=120.0, help="seconds to wait for any answer")
    gtp.add_argument("--opponent-stderr", metavar="FILE", help="append the opponent's standard error here")
    gtp.add_argument("--record", metavar="FILE", type=Path,
                     help="append each game here, one JSON line: its moves, our colour and the winner")
    gtp.add_argument("--opponent-check-games", type=int, default=10,
                     help="random games told to the opponent first, its verdicts compared with ours (0: none)")
    options = parser.parse_args(argv)
    try:
        options.parts = (connection.choose_parts(options.without, options.with_parts)
                         if options.without or options.with_parts else None)
    except ValueError as error:
        parser.error(f"--without/--with: {error}")
    if options.opponent_gtp:
        return gtp_main(options, parser)
    if not sized(options.game) and options.size is not None:
        parser.error(f"--size applies to {' and '.join(game for game in ADAPTERS if sized(game))} only")
    try:
        adapter = make_adapter(options.game, options.size)
    except GameError as error:
        parser.error(str(error))
    if pyspiel is None:
        print("arena.py: OpenSpiel is missing: pip install -r requirements-bench.txt", file=sys.stderr)
        return 2
    started = time.perf_counter()
    positions = check_rules(adapter, options.check_games, options.seed)
    print(f"rules agree with OpenSpiel: {options.check_games} random games, {positions} positions", file=sys.stderr)

    our_time = options.move_time * options.our_time_factor
    calibrated = SpielPlayer(adapter, options.move_time, options.seed, calibration_sims=options.calibration_sims)
    plies = tuple(k * (adapter.max_plies // 4) for k in range(4))
    rates = ", ".join(f"{calibrated.rate(ply):.0f}" for ply in plies)
    print(f"OpenSpiel MCTSBot: {rates} simulations/s at plies {', '.join(map(str, plies))}", file=sys.stderr)
    size = adapter.size if sized(options.game) else None
    config = MatchConfig(options.game, size, options.move_time, our_time, options.seed, options.gtp,
                         calibrated.rates, options.parts)
    tally = Tally()
    for result in play_games(config, options.games, options.jobs):
        mark = tally.add(result)
        print(f"game {result.index + 1}/{options.games} (we are {adapter.colours[result.our_colour]}): {mark}  "
              f"+{tally.wins} ={tally.draws} -{tally.losses}  score {tally.score:.3f}  ({result.seconds:.1f} s)",
              file=sys.stderr)
    elapsed = time.perf_counter() - started
    low, high = wilson(tally.score, tally.games)
    our_mean = sum(tally.our_seconds) / max(1, len(tally.our_seconds))
    their_mean = sum(tally.their_seconds) / max(1, len(tally.their_seconds))
    sims = sum(tally.simulations) / max(1, len(tally.simulations))
    level = ai.levels(options.game)[-1]
    side = "gtp" if options.gtp else "in-process"
    if options.json:
        print(json.dumps({
            "game": options.game, "size": size, "level": level, "side": side,
            "move_time": options.move_time, "our_move_time": our_time,
            "our_s_per_move": round(our_mean, 4), "their_s_per_move": round(their_mean, 4),
            "sims_per_decision": round(sims), "games": tally.games,
            "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
            "score": round(tally.score, 4), "ci_low": round(low, 4), "ci_high": round(high, 4),
            "rules_check_games": options.check_games, "rules_check_positions": positions,
            "s_per_game": round(sum(tally.game_seconds) / max(1, tally.games), 2),
            "jobs": options.jobs, "seed": options.seed, "elapsed_s": round(elapsed, 1),
        }))
        return 0
    print(f"{adapter.label} {level} ({side}, {our_time:g} s/move) vs OpenSpiel MCTSBot ({options.move_time:g} s/move, "
          f"~{sims:.0f} sims/decision): +{tally.wins} ={tally.draws} -{tally.losses} in {tally.games} games, "
          f"score {tally.score:.1%} (95% CI {low:.1%}-{high:.1%}); s/move ours {our_mean:.2f}, "
          f"theirs {their_mean:.2f}; {elapsed / 60:.1f} min")
    print(f"| {adapter.label} | {level} ({side}) | {our_mean:.2f} | {their_mean:.2f} | {sims:.0f} | {tally.games} | "
          f"{tally.wins}-{tally.draws}-{tally.losses} | {tally.score:.1%} | {low:.1%}-{high:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
