"""One digest of the engines' seeded choices, to show that a change of the
code left every seeded search, game and analysis as it was.

Usage: python tools/search_digest.py [--verbose]

It plays seeded self-play games for every game and every level, holding one
engine per side for the whole game (so the levels that keep their tree think
on across moves), has a fresh engine analyse each game's positions one after
the other (``ai.verdict_reply``: the hint, the evaluation bar and the
analysis), runs seeded searches on their iteration budgets, plays a few
moves given ``move_time``, and master with parts of the connection engine's
knowledge off and on, and prints the sha256 of all the moves and results (one line a
section, then the total).

The result must not depend on the machine's speed. The levels' iteration
caps bind as they do in play, but the strongest levels, the exact solver's
share of a move, H-search's and the tree solver's slices, and
``move_time`` are budgeted in seconds. So the tool replaces
``time.perf_counter`` with a virtual clock that moves ``CLOCK_STEP`` seconds
each time it is read: every budget then ends after a fixed number of clock
reads, whatever the machine (a change to where or how often the engines
read the clock changes the digest too). The strongest levels play with
their seconds times ``MASTER_SPEED`` to keep the run short. Strings are
hashed with PYTHONHASHSEED=0 (the tool restarts itself with it), so sets
of strings iterate alike in every run.

Standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

#: Seconds the virtual clock moves at each reading.
CLOCK_STEP = 0.001
#: The strongest levels' time per move is scaled by this (0.1 s for 2 s).
MASTER_SPEED = 0.05
#: Seeds of the self-play games.
SEEDS = (1, 2)


class VirtualClock:
    """A stand-in for ``time.perf_counter``: ``step`` seconds a reading."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def scaled(levels: dict[str, Any], speed: float, names: tuple[str, ...]) -> dict[str, Any]:
    """``levels`` with the seconds of the levels in ``names`` times ``speed``."""
    return {name: settings._replace(seconds=settings.seconds * speed) if name in names else settings
            for name, settings in levels.items()}


def self_play(game: str, settings: dict[str, Any], level: str, seed: int,
              move_time: float | None = None, parts: frozenset[str] | None = None) -> list[int]:
    """A seeded game between two engines at ``level``, one per side (with
    ``parts`` of their knowledge, where the engine has parts)."""
    import ai
    from registry import GAMES

    spec = GAMES[game]
    state = spec.new_state(settings)
    engines = [ai.new_engine(game, parts), ai.new_engine(game, parts)]
    strongest = (spec.levels.strongest,) if game != "notakto" else ()
    for engine in engines:
        engine.level_settings = scaled(dict(engine.level_settings), MASTER_SPEED, strongest)
    while not state.is_over():
        move = engines[state.turn].choose_move(state, level, seed=seed, move_time=move_time)
        state.push(move)
    return list(state.moves)


def analysis(game: str, settings: dict[str, Any], moves: list[int], seconds: float, iterations: int,
             every: int) -> list[Any]:
    """One engine's verdicts on every ``every``-th position of a game, in
    order (as the analysis of a game asks them), each with the chance of the
    move the game went on with."""
    import ai
    from registry import GAMES

    state = GAMES[game].new_state(settings)
    engine = ai.new_engine(game)
    replies: list[Any] = []
    for ply, move in enumerate(moves):
        if ply % every == 0:
            reply = ai.verdict_reply(engine, state, seconds, seed=ply, iterations=iterations,
                                     played=state.move_to_text(move))
            replies.append(sorted(reply.items()))
        state.push(move)
    replies.append(ai.result_reply(state))
    return replies


def searches(game: str, settings: dict[str, Any], moves: list[int], iterations: int) -> list[Any]:
    """Seeded searches on iteration budgets (the engine's ``search``) at a
    few positions of a game, every option of it."""
    import ai
    from registry import GAMES

    module = ai.engine(game)
    state = GAMES[game].new_state(settings)
    found: list[Any] = []
    for ply, move in enumerate(moves):
        if ply % 7 == 3 and not state.is_over():
            if game == "uttt":
                runs = [module.search(state, iterations, seed=ply),
                        module.search(state, iterations, seed=ply, master=True),
                        module.search(state, iterations, seed=ply, exploration=0.4)]
            else:
                runs = [module.search(state, iterations, seed=ply),
                        module.search(state, iterations, seed=ply, master=True),
                        module.search(state, iterations, seed=ply, bridges=False, knowledge=False)]
            found.append([(r.move, r.iterations, r.root_visits, r.proof, r.win_rate, r.nodes) for r in runs])
        state.push(move)
    return found


def analysed_game(game: str, settings: dict[str, Any]) -> list[Any]:
    """The analysis of the strongest level's seeded game."""
    from registry import GAMES

    return analysis(game, settings, self_play(game, settings, GAMES[game].levels.strongest, 1), 0.05, 150, 3)


def searched_game(game: str, settings: dict[str, Any]) -> list[Any]:
    """The searches at positions of the second level's seeded game."""
    from registry import GAMES

    return searches(game, settings, self_play(game, settings, GAMES[game].levels.names[1], 2), 300)


def sections() -> Iterator[tuple[str, Callable[[], Any]]]:
    """(name, what to hash) for every part of the digest."""
    from registry import GAMES

    plans: dict[str, list[dict[str, Any]]] = {
        "notakto": [{"boards": 1}, {"boards": 2}, {"boards": 3}],
        "uttt": [{}],
        "hex": [{"size": 7, "swap": False}, {"size": 7, "swap": True}],
        "y": [{"size": 9, "swap": False}, {"size": 9, "swap": True}],
    }
    for game, variants in plans.items():
        levels = GAMES[game].levels.names
        for settings in variants:
            label = ",".join(f"{key}={value}" for key, value in settings.items())
            for level in levels:
                for seed in SEEDS:
                    name = f"{game}[{label}] {level} seed {seed}"
                    yield name, partial(self_play, game, settings, level, seed)
            # The analysis and the searches on the strongest level's game.
            yield f"{game}[{label}] analysis", partial(analysed_game, game, settings)
            if game != "notakto":
                yield f"{game}[{label}] searches", partial(searched_game, game, settings)
    for game, settings in (("uttt", {}), ("hex", {"size": 7, "swap": False}), ("y", {"size": 9, "swap": False})):
        yield f"{game} move_time", partial(self_play, game, settings, GAMES[game].levels.names[1], 3, 0.02)
    yield "connection ablations", ablations


def ablations() -> list[Any]:
    """Master's games with parts of its knowledge off (``KNOWN_PARTS``),
    and with "dominated" on. The exact solver's tables are dropped where the
    templates are switched (each game with a change of them starts afresh)."""
    from ai import connection
    from ai.connection import solver

    games = []
    templates = True
    for names, on in (("templates", False), ("selection,priors", False), ("inferior,tree_vc", False),
                      ("dominated", True)):
        parts = connection.choose_parts(with_=names) if on else connection.choose_parts(without=names)
        if ("templates" in parts) != templates:
            templates = not templates
            solver.clear()
        games.append(self_play("hex", {"size": 7, "swap": False}, "master", 4, parts=parts))
    return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true", help="print each game's digest and time")
    args = parser.parse_args(argv)
    if os.environ.get("PYTHONHASHSEED") != "0":
        env = dict(os.environ, PYTHONHASHSEED="0")
        os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), *sys.argv[1:]], env)
    real_clock = time.perf_counter
    total = hashlib.sha256()
    started = real_clock()
    time.perf_counter = VirtualClock(CLOCK_STEP)
    try:
        for name, make in sections():
            began = real_clock()
            time.perf_counter = VirtualClock(CLOCK_STEP)  # each section from the same clock
            text = repr(make()).encode()
            digest = hashlib.sha256(text).hexdigest()
            total.update(name.encode() + b"\0" + text + b"\0")
            if args.verbose:
                print(f"{digest[:16]}  {real_clock() - began:6.1f} s  {name}", flush=True)
    finally:
        time.perf_counter = real_clock
    print(f"search digest {total.hexdigest()}  ({real_clock() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
