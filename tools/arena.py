"""Play our strongest level of UTTT, Hex or Y against OpenSpiel's MCTSBot.

    python tools/arena.py --game uttt --games 40 --move-time 1.0 [--our-time-factor 0.5] [--gtp]
    python tools/arena.py --game hex --size 11 --games 40 --move-time 1.0 [--jobs 2] [--json]
    python tools/arena.py --game y --size 11 --games 40 --move-time 1.0

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
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

import ai  # noqa: E402
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

    def __init__(self, game: str, move_time: float, seed: int) -> None:
        self.engine = ai.new_engine(game)
        self.level = ai.levels(game)[-1]
        self.move_time = move_time
        self.seed = seed

    def choose(self, state: GameState, opponent_move: int | None) -> int:
        return self.engine.choose_move(state, self.level, seed=self.seed + len(state.moves),
                                       move_time=self.move_time)

    def close(self) -> None:
        self.engine.forget()  # its tree's memory goes now, not when the player does


class GtpPlayer:
    """Our GTP engine in a subprocess, told every move."""

    def __init__(self, game: str, size: int | None, move_time: float, seed: int) -> None:
        command = [sys.executable, str(ROOT / "py" / "gtp.py"), "--game", game, "--move-time", str(move_time),
                   "--seed", str(seed)]
        if size is not None:
            command += ["--size", str(size)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

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
        colour = "b" if state.turn == FIRST else "w"
        if opponent_move is not None:
            self.send(f"play {'w' if colour == 'b' else 'b'} {state.move_to_text(opponent_move)}")
        return state.parse_move(self.send(f"genmove {colour}"))

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
        return InProcessPlayer(self.config.game, self.config.our_time, game_seed)

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arena.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="uttt", choices=list(ADAPTERS))
    parser.add_argument("--size", type=int, help="the board's side, for " + ", ".join(
        f"{game} (default {GAMES[game].setting('size').default})" for game in ADAPTERS if sized(game)))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--move-time", type=float, default=1.0, help="OpenSpiel's seconds per move")
    parser.add_argument("--our-time-factor", type=float, default=1.0, help="our time = factor x move time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gtp", action="store_true", help="play our side through py/gtp.py")
    parser.add_argument("--check-games", type=int, default=200, help="random games for the rules check")
    parser.add_argument("--calibration-sims", type=int, default=SpielPlayer.CALIBRATION_SIMS,
                        help="OpenSpiel's simulations per timed search when measuring its speed")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, in worker processes")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    options = parser.parse_args(argv)
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
                         calibrated.rates)
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
