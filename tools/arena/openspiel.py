"""OpenSpiel's MCTSBot as the opponent.

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
"""

from __future__ import annotations

import random
import time
from typing import Any

from core import FIRST, SECOND, GameState, HexState, UtttState, YState
from core.uttt import BOARD_CELLS, CELL_BOARD, CELL_POSITION
from core.y import cell_index, row_col
from registry import GAMES

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the machine
    pyspiel = None

UCT_C = 2.0


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

    def load(self) -> Any:
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
            cells: set[int] = set()
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
    size: int

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
        outcome = ours.outcome()
        assert outcome is not None and outcome.winner == adapter.winner(theirs), (ours, theirs.returns())
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
