"""Play our strongest Ultimate Tic-Tac-Toe level against OpenSpiel's MCTSBot.

    python tools/arena.py --game uttt --games 40 --move-time 1.0 [--our-time-factor 0.5] [--gtp]

The opponent is a plain UCT search with random playouts, in C++: OpenSpiel's
``MCTSBot`` on ``ultimate_tic_tac_toe`` (``pip install -r
requirements-bench.txt``), with ``uct_c=2`` (its rewards are -1..1) and no
solver. OpenSpiel counts simulations, not seconds, so its speed is measured
here first and it gets the simulations that fit ``--move-time``; the rate is
then tracked move by move, so the machine's load changes nothing.

OpenSpiel's game splits a free choice into two decisions (board, then cell)
of the same player. Each decision gets the whole budget, so on those moves
OpenSpiel thinks twice as long as we do: the comparison leans its way, and
the measured seconds per move of both sides are reported.

Before playing, random games go through both engines move by move and must
agree on every legal move set and every result: the match only means
something if the rules are the same.

Our side runs in this process (``ai.choose_move``, tree reuse included) or,
with ``--gtp``, as the GTP engine ``py/gtp.py`` in a subprocess. Colours
alternate. Output: progress on stderr, then a one-line summary and a
Markdown table row on stdout.
"""

from __future__ import annotations

import argparse
import math
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

import ai  # noqa: E402
from ai import uttt as uttt_ai  # noqa: E402
from core import FIRST, SECOND  # noqa: E402
from core.uttt import BOARD_CELLS, CELL_BOARD, CELL_POSITION, UtttState  # noqa: E402

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the machine
    pyspiel = None

GAME = "ultimate_tic_tac_toe"
UCT_C = 2.0
LEVEL = uttt_ai.LEVELS[-1]

#: The columns of the Markdown row this prints (for whoever gathers rows).
MARKDOWN_HEADER = (
    "| game | ours | s/move ours | OpenSpiel s/move | sims/decision | games | W-D-L | score | 95% CI |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


# -- the two engines' views of one game -----------------------------------------------
def spiel_free_choice(spiel_state) -> bool:
    """Whether OpenSpiel waits for a board choice (its observation's last
    ten values: the forced board one-hot, then "any")."""
    return spiel_state.observation_tensor()[-1] == 1.0


def spiel_legal_cells(spiel_state) -> set[int]:
    """OpenSpiel's legal moves as our cell numbers."""
    if spiel_free_choice(spiel_state):
        cells = set()
        for board in spiel_state.legal_actions():
            child = spiel_state.child(board)
            cells.update(BOARD_CELLS[board][position] for position in child.legal_actions())
        return cells
    board = spiel_forced_board(spiel_state)
    return {BOARD_CELLS[board][position] for position in spiel_state.legal_actions()}


def spiel_forced_board(spiel_state) -> int:
    tensor = spiel_state.observation_tensor()
    flags = tensor[-10:-1]
    return flags.index(1.0)


def spiel_apply(spiel_state, cell: int) -> None:
    """Our move on OpenSpiel's state (two actions on a free choice)."""
    if spiel_free_choice(spiel_state):
        spiel_state.apply_action(CELL_BOARD[cell])
    spiel_state.apply_action(CELL_POSITION[cell])


def spiel_winner(spiel_state) -> int | None:
    returns = spiel_state.returns()
    return FIRST if returns[0] > 0 else SECOND if returns[1] > 0 else None


def check_rules(games: int, seed: int) -> int:
    """Random games through both engines; raises AssertionError on the first
    difference. Returns the number of positions compared."""
    game = pyspiel.load_game(GAME)
    rng = random.Random(seed)
    positions = 0
    for _ in range(games):
        ours, theirs = UtttState(), game.new_initial_state()
        while True:
            positions += 1
            assert ours.is_over() == theirs.is_terminal(), (ours, str(theirs))
            if ours.is_over():
                break
            assert theirs.current_player() == ours.turn, ours
            assert (ours.forced_board is None) == spiel_free_choice(theirs), ours
            assert set(ours.legal_moves()) == spiel_legal_cells(theirs), ours
            move = rng.choice(ours.legal_moves())
            ours.play(move)
            spiel_apply(theirs, move)
        assert ours.outcome().winner == spiel_winner(theirs), (ours, theirs.returns())
    return positions


# -- the opponent -----------------------------------------------------------------------
class SpielPlayer:
    """OpenSpiel's MCTSBot, given the simulations that fit ``move_time``.

    Its speed changes a lot over a game (rollouts get shorter), so the rate
    is kept per stage of the game (``STAGE`` plies each), measured before
    the match and then updated after every decision."""

    STAGE = 6

    def __init__(self, move_time: float, seed: int) -> None:
        self.game = pyspiel.load_game(GAME)
        self.move_time = move_time
        self.seed = seed
        self.rates: dict[int, float] = self.calibrate()
        self.simulations: list[int] = []

    def _bot(self, simulations: int, seed: int):
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        return pyspiel.MCTSBot(self.game, evaluator, UCT_C, simulations, 2000, False, seed, False)

    def calibrate(self) -> dict[int, float]:
        """Simulations per second at each stage of random games."""
        rng = random.Random(self.seed)
        rates: dict[int, float] = {}
        for stage in range(0, 81 // self.STAGE + 1):
            sims = times = 0.0
            for _ in range(2):
                state = self.game.new_initial_state()
                ours = UtttState()
                while len(ours.moves) < stage * self.STAGE and not ours.is_over():
                    move = rng.choice(ours.legal_moves())
                    ours.play(move)
                    spiel_apply(state, move)
                if ours.is_over() or len(state.legal_actions()) < 2:
                    continue
                start = time.perf_counter()
                self._bot(2000, self.seed).step(state)
                times += time.perf_counter() - start
                sims += 2000
            if times:
                rates[stage] = sims / times
        return rates

    def rate(self, ply: int) -> float:
        stage = ply // self.STAGE
        while stage not in self.rates and stage > 0:
            stage -= 1
        return self.rates.get(stage, 50_000.0)

    def choose(self, spiel_state, ply: int, game_seed: int) -> tuple[int, float]:
        """The bot's move as our cell, and the seconds it took (``ply``: moves
        played so far)."""
        spent = 0.0
        board = None
        stage = ply // self.STAGE
        while True:
            simulations = max(50, int(self.rate(ply) * self.move_time))
            bot = self._bot(simulations, game_seed + len(self.simulations))
            start = time.perf_counter()
            action = bot.step(spiel_state)
            elapsed = time.perf_counter() - start
            spent += elapsed
            self.simulations.append(simulations)
            # Follow the machine's speed (a decision with one legal action
            # returns at once and says nothing about it).
            if len(spiel_state.legal_actions()) > 1 and elapsed > 0.01:
                self.rates[stage] = 0.5 * self.rate(ply) + 0.5 * simulations / elapsed
            if board is None and spiel_free_choice(spiel_state):
                board = action
                spiel_state = spiel_state.child(action)
                continue
            if board is None:
                board = spiel_forced_board(spiel_state)
            return BOARD_CELLS[board][action], spent


# -- our side -----------------------------------------------------------------------------
class InProcessPlayer:
    def __init__(self, move_time: float, seed: int) -> None:
        self.move_time = move_time
        self.seed = seed

    def new_game(self) -> None:
        pass

    def choose(self, state: UtttState, opponent_move: int | None) -> int:
        return ai.choose_move(state, LEVEL, seed=self.seed + len(state.moves), move_time=self.move_time)

    def close(self) -> None:
        pass


class GtpPlayer:
    """Our GTP engine in a subprocess, told every move."""

    def __init__(self, move_time: float, seed: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "py" / "gtp.py"), "--game", "uttt", "--move-time", str(move_time),
             "--seed", str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )

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

    def new_game(self) -> None:
        self.send("clear_board")

    def choose(self, state: UtttState, opponent_move: int | None) -> int:
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
@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    our_seconds: list[float] = field(default_factory=list)
    their_seconds: list[float] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson interval of a proportion (a draw counts half a win)."""
    if games == 0:
        return 0.0, 1.0
    denominator = 1 + z * z / games
    centre = (score + z * z / (2 * games)) / denominator
    half = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(ours, theirs: SpielPlayer, our_colour: int, game_seed: int, tally: Tally) -> int | None:
    state = UtttState()
    spiel_state = theirs.game.new_initial_state()
    ours.new_game()
    last: int | None = None
    while not state.is_over():
        if state.turn == our_colour:
            start = time.perf_counter()
            move = ours.choose(state, last)
            tally.our_seconds.append(time.perf_counter() - start)
        else:
            move, spent = theirs.choose(spiel_state, len(state.moves), game_seed)
            tally.their_seconds.append(spent)
        state.play(move)
        spiel_apply(spiel_state, move)
        last = move
    assert spiel_state.is_terminal() and spiel_winner(spiel_state) == state.outcome().winner
    return state.outcome().winner


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arena.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="uttt", choices=["uttt"])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--move-time", type=float, default=1.0, help="OpenSpiel's seconds per move")
    parser.add_argument("--our-time-factor", type=float, default=1.0, help="our time = factor x move time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gtp", action="store_true", help="play our side through py/gtp.py")
    parser.add_argument("--check-games", type=int, default=200, help="random games for the rules check")
    options = parser.parse_args(argv)
    if pyspiel is None:
        print("arena.py: OpenSpiel is missing: pip install -r requirements-bench.txt", file=sys.stderr)
        return 2
    started = time.perf_counter()
    positions = check_rules(options.check_games, options.seed)
    print(f"rules agree with OpenSpiel: {options.check_games} random games, {positions} positions", file=sys.stderr)

    our_time = options.move_time * options.our_time_factor
    theirs = SpielPlayer(options.move_time, options.seed)
    rates = ", ".join(f"{theirs.rate(ply):.0f}" for ply in (0, 20, 40, 60))
    print(f"OpenSpiel MCTSBot: {rates} simulations/s at plies 0, 20, 40, 60", file=sys.stderr)
    ours = GtpPlayer(our_time, options.seed) if options.gtp else InProcessPlayer(our_time, options.seed)
    tally = Tally()
    try:
        for index in range(options.games):
            our_colour = FIRST if index % 2 == 0 else SECOND
            winner = play_game(ours, theirs, our_colour, options.seed * 100_003 + index * 1009, tally)
            if winner is None:
                tally.draws += 1
            elif winner == our_colour:
                tally.wins += 1
            else:
                tally.losses += 1
            mark = "D" if winner is None else "W" if winner == our_colour else "L"
            print(f"game {index + 1}/{options.games} (we are {'X' if our_colour == FIRST else 'O'}): {mark}  "
                  f"+{tally.wins} ={tally.draws} -{tally.losses}  score {tally.score:.3f}", file=sys.stderr)
    finally:
        ours.close()
    elapsed = time.perf_counter() - started
    low, high = wilson(tally.score, tally.games)
    our_mean = sum(tally.our_seconds) / max(1, len(tally.our_seconds))
    their_mean = sum(tally.their_seconds) / max(1, len(tally.their_seconds))
    sims = sum(theirs.simulations) / max(1, len(theirs.simulations))
    side = "gtp" if options.gtp else "in-process"
    print(f"uttt {LEVEL} ({side}, {our_time:g} s/move) vs OpenSpiel MCTSBot ({options.move_time:g} s/move, "
          f"~{sims:.0f} sims/decision): +{tally.wins} ={tally.draws} -{tally.losses} in {tally.games} games, "
          f"score {tally.score:.1%} (95% CI {low:.1%}-{high:.1%}); s/move ours {our_mean:.2f}, "
          f"theirs {their_mean:.2f}; {elapsed / 60:.1f} min")
    print(f"| uttt | {LEVEL} ({side}) | {our_mean:.2f} | {their_mean:.2f} | {sims:.0f} | {tally.games} | "
          f"{tally.wins}-{tally.draws}-{tally.losses} | {tally.score:.1%} | {low:.1%}-{high:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
