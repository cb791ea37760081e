"""Measure the computer levels' ratings: a ladder of matches, then a fit.

    python -m tools.ladder                                # every game, the default plan
    python -m tools.ladder --game uttt --game hex --per-pairing 20 --seed 2
    python -m tools.ladder --results /tmp/ladder/run.json --write
    python -m tools.ladder --from /tmp/ladder/run.json --write   # refit, play nothing

(``python tools/ladder.py ...`` runs the same.)

For each game, at its default settings (the registry's: Notakto on 3 boards,
Ultimate Tic-Tac-Toe, Hex 11 x 11 and Y side 13 with the swap rule on, each
level making its own swap decisions and openings), the players stand on a
ladder: a fixed baseline, a uniformly random legal mover (seeded), then the
levels weakest first. Each adjacent pair plays a match: the colours
alternate (even games: the lower player moves first), every game is seeded.
The levels are the real engines, ``ai.new_engine`` held for a whole game
and asked ``choose_move`` at the level, as the app's worker does, with one
change: the time caps.

Time. The browser's worker runs the engines' Python at about 0.7 x the
speed of CPython (docs/benchmarks.md, "Engine search from the start position": 0.78 x
for Ultimate Tic-Tac-Toe, 0.69 x for Hex and Y). A level capped at 2 s in
the browser therefore does about 1.4 s of CPython's work, so here every
level's ``seconds`` is multiplied by the game's factor (its registry
entry's ``ladder.speed``, or ``--speed``); the playout caps are left as they are. And the caps are read
on the process's CPU clock (``--clock cpu``, the default: ``time.perf_counter``
is ``time.process_time`` in the playing process), so that other work on a
shared machine does not make the timed levels weaker than on a player's
device; ``--clock wall`` reads the wall clock as the app does.

The fit. Ratings on the Elo scale (400 points: a score of 10/11, about
91 %, against a player means 400 points above them), the statistics' scale
(py/app/model/stats.py): the probability that A beats B is
``1 / (1 + 10 ** ((R_B - R_A) / 400))``, a draw counts half a win, and the
ratings maximise the likelihood of every game's result (Bradley-Terry) with
the baseline fixed at ``ANCHOR`` (500). Each pairing also gets ``PRIOR``
virtual games, half won by each side (one virtual draw), so that a clean
sweep gives a finite difference (n straight wins: ``400 log10(2n + 1)``)
rather than an infinite one. The 95 % intervals are the fit's normal ones,
from the inverse of the likelihood's curvature; along the ladder they add
up, so the top level's interval is the widest.

Output: progress on stderr; then per game the ratings with their
intervals and the pairings' results (W-D-L from the higher player's side);
``--results FILE`` keeps the results so far after every game (a long run
cut short loses at most one game) and ``--resume FILE`` goes on from them,
so a long ladder can run in passes; ``--write`` writes
``py/level_ratings.json``, which py/registry.py reads (tests/tools/test_ladder.py
checks that its ratings are the fit of its results). The score's interval
in the pairings' table is the Wilson interval every match of the tools
shows (tools/matches.py).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT / "py", ROOT):  # the app's modules, and tools.matches when run as a script
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import ai  # noqa: E402
from ai.search import seeded_random  # noqa: E402
from core import FIRST, SECOND, GameState  # noqa: E402
from registry import GAMES  # noqa: E402
from tools.matches import Score, first_seat, game_seed  # noqa: E402

DATA_FILE = ROOT / "py" / "level_ratings.json"
BASELINE = "random"
ANCHOR = 500  # the baseline's rating, in every game
PRIOR = 1.0  # virtual games per pairing, half won by each side
SCALE = 400.0
Z_FIT = 1.96  # the fit's normal 95 % intervals (as stored in py/level_ratings.json)


def speed_of(game: str) -> float:
    """The browser worker's speed over CPython's for the game's engine (the
    registry's ``Game.ladder.speed``; 1 for untimed levels)."""
    return GAMES[game].ladder.speed


def ladder(game: str) -> list[str]:
    """The game's players, weakest first: the baseline, then its levels."""
    return [BASELINE, *GAMES[game].levels.names]


# -- the players ------------------------------------------------------------------------------
class RandomPlayer:
    """The baseline: a legal move drawn uniformly, seeded by the game and its moves."""

    def __init__(self, game: str, seed: int) -> None:
        self.game, self.seed = game, seed

    def choose(self, state: GameState) -> int:
        return seeded_random(self.seed, f"ladder|{self.game}", state.moves).choice(state.legal_moves())


class LevelPlayer:
    """A level of the real engine, held for one game, its time caps scaled by ``speed``."""

    def __init__(self, game: str, level: str, seed: int, speed: float) -> None:
        self.engine = ai.new_engine(game)
        # This engine's own levels (an instance attribute); the class's stay as they are.
        self.engine.level_settings = scaled_levels(self.engine.level_settings, speed)
        self.level, self.seed = level, seed

    def choose(self, state: GameState) -> int:
        return self.engine.choose_move(state, self.level, seed=self.seed)


def scaled_levels(levels: Mapping[str, Any], speed: float) -> dict[str, Any]:
    """The levels' settings with every time cap (a ``seconds`` field) times ``speed``."""
    return {name: settings._replace(seconds=settings.seconds * speed) if hasattr(settings, "seconds") else settings
            for name, settings in levels.items()}


def make_player(game: str, name: str, seed: int, speed: float) -> RandomPlayer | LevelPlayer:
    return RandomPlayer(game, seed) if name == BASELINE else LevelPlayer(game, name, seed, speed)


# -- one game ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Task:
    """One game of a pairing: ``lower`` and ``higher`` on the ladder."""

    game: str
    lower: str
    higher: str
    index: int
    seed: int
    speed: float
    clock: str

    @property
    def game_seed(self) -> int:
        return game_seed(self.seed, self.index)

    @property
    def lower_first(self) -> bool:
        return first_seat(self.index) == FIRST


@dataclass(frozen=True)
class Played:
    task: Task
    result: float  # for the higher player: 1 a win, 0.5 a draw, 0 a loss
    moves: int
    seconds: float  # wall time


def play(task: Task) -> Played:
    """Play one game of a pairing at the game's default settings."""
    if task.clock == "cpu":
        time.perf_counter = time.process_time  # the engines' caps: CPU seconds of this process
    started = time.monotonic()
    state = GAMES[task.game].new_state()
    lower = make_player(task.game, task.lower, task.game_seed, task.speed)
    higher = make_player(task.game, task.higher, task.game_seed + 1, task.speed)
    seats = (lower, higher) if task.lower_first else (higher, lower)
    while not state.is_over():
        state.play(seats[0 if state.turn == FIRST else 1].choose(state))
    outcome = state.outcome()
    assert outcome is not None
    winner = outcome.winner
    higher_seat = SECOND if task.lower_first else FIRST
    result = 0.5 if winner is None else 1.0 if winner == higher_seat else 0.0
    return Played(task, result, len(state.moves), time.monotonic() - started)


def play_all(tasks: list[Task], jobs: int) -> Iterator[Played]:
    """The games' results, in task order."""
    if jobs <= 1:
        yield from map(play, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play, tasks)


# -- the fit -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pairing(Score):
    """A match's results from ``higher``'s side against ``lower``."""

    lower: str
    higher: str
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        return super().score if self.games else 0.5  # no games: even


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix`` x = ``vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    rows = [row[:] + [value] for row, value in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        if rows[col][col] == 0:
            raise ValueError("the pairings do not connect every player to the anchor")
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def fit(pairings: list[Pairing], anchor: str = BASELINE, anchor_rating: float = ANCHOR,
        prior: float = PRIOR) -> tuple[dict[str, float], dict[str, float]]:
    """The maximum-likelihood ratings of every player in ``pairings`` (Elo's
    logistic on the 400 scale, a draw half a win, ``prior`` virtual games
    per pairing split evenly), ``anchor`` fixed at ``anchor_rating``; and
    each rating's standard error (the anchor's is 0). Newton's method."""
    players = sorted({p.lower for p in pairings} | {p.higher for p in pairings} | {anchor})
    free = [name for name in players if name != anchor]
    index = {name: i for i, name in enumerate(free)}
    ratings = dict.fromkeys(players, float(anchor_rating))
    c = math.log(10) / SCALE
    hessian: list[list[float]] = []
    for _ in range(100):
        gradient = [0.0] * len(free)
        hessian = [[0.0] * len(free) for _ in free]
        for p in pairings:
            n = p.games + prior
            s = p.wins + 0.5 * p.draws + 0.5 * prior  # the higher player's score
            expected = 1 / (1 + 10 ** ((ratings[p.lower] - ratings[p.higher]) / SCALE))
            g, h = c * (s - n * expected), c * c * n * expected * (1 - expected)
            for name, sign in ((p.higher, 1), (p.lower, -1)):
                if name in index:
                    gradient[index[name]] += sign * g
            for a in (p.higher, p.lower):
                for b in (p.higher, p.lower):
                    if a in index and b in index:
                        hessian[index[a]][index[b]] += h if a == b else -h
        step = _solve(hessian, gradient)
        for name, delta in zip(free, step):
            ratings[name] += delta
        if max(map(abs, step), default=0) < 1e-9:
            break
    errors = {anchor: 0.0}
    for name in free:  # the variances: the diagonal of the curvature's inverse
        unit = [1.0 if other == name else 0.0 for other in free]
        errors[name] = math.sqrt(_solve(hessian, unit)[index[name]])
    return ratings, errors


def game_ratings(game: str, pairings: list[Pairing]) -> tuple[dict[str, int], dict[str, list[int]]]:
    """``game``'s levels' ratings, rounded, weakest first, and their 95 %
    intervals (the baseline left out)."""
    ratings, errors = fit(pairings)
    rounded = {name: round(ratings[name]) for name in ladder(game) if name in ratings and name != BASELINE}
    intervals = {name: [round(ratings[name] - Z_FIT * errors[name]), round(ratings[name] + Z_FIT * errors[name])]
                 for name in rounded}
    return rounded, intervals


def pairings_of(entry: dict[str, Any]) -> list[Pairing]:
    """The pairings stored in one game's entry of the data file."""
    return [Pairing(p["lower"], p["higher"], p["wins"], p["draws"], p["losses"]) for p in entry["pairings"]]


# -- the run ----------------------------------------------------------------------------------------
def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model or platform.processor() or platform.machine()}, {os.cpu_count()} cores, " \
           f"{platform.system()}, CPython {platform.python_version()}"


def commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head


def run_game(game: str, per_pairing: list[int], options: argparse.Namespace,
             log: Callable[[list[dict[str, Any]]], None], done: list[dict[str, Any]]) -> dict[str, Any]:
    """Play ``game``'s ladder; its entry for the data file (without
    ratings). ``log`` gets the pairings so far after every game. A pairing
    in ``done`` (an earlier run's results, same seed) goes on from its
    games: game ``i`` of a pairing is the same seeded game in any run, so
    playing games 10-19 after a run of 0-9 is playing 0-19."""
    speed = options.speed if options.speed is not None else speed_of(game)
    players = ladder(game)
    pairings: list[dict[str, Any]] = []
    for step, (lower, higher) in enumerate(zip(players, players[1:])):
        kept = next((p for p in done if (p["lower"], p["higher"]) == (lower, higher)), None)
        pairing: dict[str, Any] = {"lower": lower, "higher": higher, "wins": 0, "draws": 0, "losses": 0, "games": 0,
                   "moves_per_game": 0.0, "seconds_per_game": 0.0}
        if kept is not None:
            pairing.update({key: kept[key] for key in pairing})
            print(f"{game} {higher} vs {lower}: {kept['games']} games kept from {options.resume}", file=sys.stderr)
        pairings.append(pairing)
        first = pairing["games"]
        tasks = [Task(game, lower, higher, index, options.seed * 10 + step, speed, options.clock)
                 for index in range(first, per_pairing[step])]
        for played in play_all(tasks, options.jobs):
            n = pairing["games"]
            pairing[{1.0: "wins", 0.5: "draws", 0.0: "losses"}[played.result]] += 1
            pairing["games"] = n + 1
            pairing["moves_per_game"] = round((pairing["moves_per_game"] * n + played.moves) / (n + 1), 1)
            pairing["seconds_per_game"] = round((pairing["seconds_per_game"] * n + played.seconds) / (n + 1), 2)
            print(f"{game} {higher} vs {lower} game {n + 1}/{per_pairing[step]}: "
                  f"{'W' if played.result == 1 else 'D' if played.result == 0.5 else 'L'} "
                  f"+{pairing['wins']} ={pairing['draws']} -{pairing['losses']} "
                  f"({played.moves} moves, {played.seconds:.1f} s)", file=sys.stderr, flush=True)
            log(pairings)
        log(pairings)
    return {"settings": GAMES[game].defaults(), "speed": speed, "pairings": pairings}


def with_ratings(game: str, entry: dict[str, Any]) -> dict[str, Any]:
    ratings, intervals = game_ratings(game, pairings_of(entry))
    return {**entry, "ratings": ratings, "intervals_95": intervals}


def table(data: dict[str, Any]) -> str:
    """The printed report: per game, the ratings, then the pairings."""
    lines = []
    for game, entry in data["games"].items():
        settings = ", ".join(f"{key} {value}" for key, value in entry["settings"].items()) or "no settings"
        lines += [f"{game} ({settings}; time caps x {entry['speed']:g})", "",
                  "| level | rating | 95% interval |", "| --- | ---: | --- |",
                  f"| {BASELINE} (the baseline) | {ANCHOR} | fixed |"]
        lines += [f"| {level} | {rating} | {entry['intervals_95'][level][0]}–{entry['intervals_95'][level][1]} |"
                  for level, rating in entry["ratings"].items()]
        lines += ["", "| pairing | games | W-D-L | score | 95% CI | moves/game | s/game |",
                  "| --- | ---: | --- | ---: | --- | ---: | ---: |"]
        for p in entry["pairings"]:
            pairing = Pairing(p["lower"], p["higher"], p["wins"], p["draws"], p["losses"])
            low, high = pairing.interval()
            lines.append(f"| {p['higher']} vs {p['lower']} | {pairing.games} | {p['wins']}-{p['draws']}-{p['losses']} "
                         f"| {pairing.score:.1%} | {low:.1%}–{high:.1%} | {p['moves_per_game']} "
                         f"| {p['seconds_per_game']} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.ladder", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=list(GAMES), help="a game to play (repeat; default all)")
    parser.add_argument("--per-pairing", type=int, help="games per pairing for every pairing (default: each game's ladder plan in py/registry.py)")
    parser.add_argument("--plan", action="append", default=[], metavar="GAME=N,N,N,N",
                        help="games per pairing for one game, bottom of the ladder first (repeat)")
    parser.add_argument("--resume", type=Path, help="keep the pairings an earlier --results file holds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, in worker processes")
    parser.add_argument("--speed", type=float, help="the time caps' factor (default: per game, its ladder speed in py/registry.py)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="the clock the time caps read")
    parser.add_argument("--results", type=Path, help="keep the results here after every game")
    parser.add_argument("--from", dest="source", type=Path, help="refit the results in this file, play nothing")
    parser.add_argument("--write", action="store_true", help=f"write {DATA_FILE.relative_to(ROOT)}")
    options = parser.parse_args(argv)
    games = options.game or list(GAMES)
    plans = {game: list(entry.ladder.plan) for game, entry in GAMES.items()}
    for text in options.plan:
        game, _, counts = text.partition("=")
        if game not in GAMES or len(counts.split(",")) != len(ladder(game)) - 1:
            parser.error(f"--plan {text!r}: a game, then one number per pairing (one per level)")
        plans[game] = [int(count) for count in counts.split(",")]
    resumed = json.loads(options.resume.read_text(encoding="utf-8"))["games"] if options.resume else {}
    if options.source:
        data = json.loads(options.source.read_text(encoding="utf-8"))
        data["games"] = {game: entry for game, entry in data["games"].items() if game in games}
    else:
        data = {
            "about": "The computer levels' ratings, measured by tools/ladder.py (docs/levels.md): "
                     "the results of its matches and the ratings fitted from them. Written by the tool.",
            "baseline": BASELINE, "anchor": ANCHOR, "prior_games": PRIOR, "scale": SCALE,
            "games": {},
        }
        run = {"date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "commit": commit(),
               "machine": machine(), "clock": options.clock, "jobs": options.jobs, "seed": options.seed,
               "per_pairing": options.per_pairing, "games": games}
        for game in games:
            started = time.monotonic()
            plan = [options.per_pairing] * (len(ladder(game)) - 1) if options.per_pairing else plans[game]
            done = resumed.get(game, {}).get("pairings", [])
            if done and resumed[game].get("run", {}).get("seed") != options.seed:
                done = []  # another seed's games are other games

            def entry(pairings: list[dict[str, Any]], game: str = game, plan: list[int] = plan,
                      resumed: bool = bool(done), started: float = started) -> dict[str, Any]:
                return {"settings": GAMES[game].defaults(),
                        "speed": options.speed if options.speed is not None else speed_of(game),
                        "run": {**run, "plan": plan, "resumed": resumed,
                                "minutes": round((time.monotonic() - started) / 60, 1)},
                        "pairings": pairings}

            def log(pairings: list[dict[str, Any]], game: str = game,
                    entry: Callable[[list[dict[str, Any]]], dict[str, Any]] = entry) -> None:
                if options.results:
                    partial = {**data, "games": {**data["games"], game: entry(pairings)}}
                    options.results.parent.mkdir(parents=True, exist_ok=True)
                    options.results.write_text(json.dumps(partial, indent=1) + "\n", encoding="utf-8")

            data["games"][game] = entry(run_game(game, plan, options, log, done)["pairings"])
    for game, stored in data["games"].items():
        if len(stored["pairings"]) != len(ladder(game)) - 1:
            print(f"ladder.py: {game}'s ladder is incomplete ({len(stored['pairings'])} pairings)", file=sys.stderr)
        stored.setdefault("speed", speed_of(game))  # results files of the first runs did not say
        data["games"][game] = with_ratings(game, stored)
    print(table(data))
    if options.write:
        old = json.loads(DATA_FILE.read_text(encoding="utf-8")) if DATA_FILE.exists() else {"games": {}}
        # A run of some games keeps the other games' figures.
        kept = {game: stored for game, stored in old.get("games", {}).items()
                if game not in data["games"] and "pairings" in stored}
        data["games"] = {**kept, **data["games"]}
        ordered = {"games": {game: data["games"][game] for game in GAMES if game in data["games"]}}
        DATA_FILE.write_text(json.dumps({**data, **ordered}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {DATA_FILE.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
