"""The AI worker as the harness starts it: the page opened by the end-to-end
tests or the bench (``window.appHarness``, see py/app/page/harness.py) runs this
script in its worker instead of py/worker.py. It exports the product's
``choose_move``, ``analyse`` and ``prepare`` unchanged, so the computer plays and
judges as it does for a player, plus the engines' self-check and the bench functions. tools/bench/ runs
the same bench functions under CPython, so both runtimes run the same code
on the same positions with the same seeds. Never started for a player."""

from __future__ import annotations

import gc
import json
import random
import sys
import time
from typing import Any

import ai
from ai.connection import solver
from core import GameState
from registry import STATES
from worker import analyse, choose_move, explore, json_reply, load_state, prepare, setup  # noqa: F401 - exported as the app's worker does


def runtime() -> dict[str, str]:
    """Which Python answers: a bench reply says so."""
    return {"python": sys.version, "platform": sys.platform}


def self_check() -> str:
    """The engines' deterministic self-check (py/selfcheck.py) in this
    interpreter, as JSON text: the end-to-end tests compare it with CPython's."""
    from selfcheck import run

    return json.dumps(run())


# -- bench functions (tools/bench/, `make bench`) ---------------------------------
BENCH_CHECK_MOVES = 8  # moves reported per case, to prove both runtimes did the same work


def _timer_resolution() -> float:
    """The smallest step of time.perf_counter seen here (browsers coarsen it)."""
    best = float("inf")
    for _ in range(20):
        start = now = time.perf_counter()
        while now == start:
            now = time.perf_counter()
        best = min(best, now - start)
    return best


@json_reply
def bench_moves(request: dict[str, Any]) -> dict[str, Any]:
    """Time ``ai.choose_move`` with ``time.perf_counter`` in this interpreter.
    The same function runs under CPython in tools/bench/, so both sides run
    the same code on the same positions with the same seeds.

    {"cases": [{"game": <save dict>, "level": str, "batch": int}],
     "seed": int, "warmup": int, "repeats": int}
    -> {"python": str, "platform": str, "timer_resolution_s": float,
        "results": [{"samples": [s per call, one per batch], "moves": [text]}]}
    or {"error": message}. Call i of a case uses seed ``seed + i``; a sample
    is the mean of ``batch`` calls. The cases take turns, one batch each, so
    that a moment of noise on the machine touches every case a little rather
    than one case a lot; the first ``warmup`` turns are not kept.
    """
    seed, warmup, repeats = int(request["seed"]), int(request["warmup"]), int(request["repeats"])
    cases: list[tuple[GameState, str, int]] = []
    results: list[dict[str, Any]] = []
    for case in request["cases"]:
        state, level = load_state(case["game"]), case["level"]
        cases.append((state, level, int(case["batch"])))
        moves = [state.move_to_text(ai.choose_move(state, level, seed=seed + i)) for i in range(BENCH_CHECK_MOVES)]
        results.append({"samples": [], "moves": moves})
    gc.collect()
    for index in range(warmup + repeats):
        for (state, level, batch), result in zip(cases, results):
            first = seed + index * batch
            start = time.perf_counter()
            for call_seed in range(first, first + batch):
                ai.choose_move(state, level, seed=call_seed)
            elapsed = time.perf_counter() - start
            if index >= warmup:
                result["samples"].append(elapsed / batch)
    return {**runtime(), "timer_resolution_s": _timer_resolution(), "results": results}


def random_playout(state: GameState, rng: random.Random) -> int:
    """Play ``state`` to the end with uniform random moves through ``push``
    (the search's fast path); return the plies played."""
    plies = 0
    while not state.is_over():
        state.push(rng.choice(state.legal_moves()))
        plies += 1
    return plies


@json_reply
def bench_playouts(request: dict[str, Any]) -> dict[str, Any]:
    """Time random playouts (``random_playout``) with ``time.perf_counter``;
    the same function runs under CPython in tools/bench/.

    {"cases": [{"game": name in registry.STATES, "settings": dict, "batch": int}],
     "seed": int, "warmup": int, "repeats": int}
    -> {"python": str, "platform": str,
        "results": [{"samples": [s per playout, one per batch], "plies": int}]}
    or {"error": message}. Each case draws from one ``random.Random(seed)``,
    so ``plies`` (all its playouts' plies, warm-up included) proves that both
    runtimes played the same games. The cases take turns, as in bench_moves.
    """
    seed, warmup, repeats = int(request["seed"]), int(request["warmup"]), int(request["repeats"])
    cases = [(STATES[case["game"]].from_settings(case["settings"]), int(case["batch"]), random.Random(seed))
             for case in request["cases"]]
    results: list[dict[str, Any]] = [{"samples": [], "plies": 0} for _ in cases]
    gc.collect()
    for index in range(warmup + repeats):
        for (root, batch, rng), result in zip(cases, results):
            plies = 0
            start = time.perf_counter()
            for _ in range(batch):
                plies += random_playout(root.copy(), rng)
            elapsed = time.perf_counter() - start
            result["plies"] += plies
            if index >= warmup:
                result["samples"].append(elapsed / batch)
    return {**runtime(), "results": results}


@json_reply
def bench_search(request: dict[str, Any]) -> dict[str, Any]:
    """Time the engines' own searches (MCTS with their playout policies:
    ``ai.ENGINES[game].search``) at a fixed number of iterations, so both
    runtimes do exactly the same work; the same function runs under CPython
    in tools/bench/.

    {"cases": [{"game": <save dict>, "iterations": int, "master": bool (optional)}],
     "seed": int, "warmup": int, "repeats": int}
    -> {"python": str, "platform": str,
        "results": [{"samples": [s per iteration, one per search], "moves": [text],
                     "nodes": [tree nodes created per iteration, one per search; null
                               where the engine does not count them]}]}
    or {"error": message}. Search i of a case uses seed ``seed + i``; the
    moves found prove that both runtimes searched the same trees. The cases
    take turns, as in bench_moves. A ``master`` case searches with the
    master level's knowledge (UTTT: the evaluation's minimax; Hex and Y:
    its selection, priors, H-search at the tree's nodes), the exact
    solver's tables cleared before each search so that no search reuses
    another's analyses."""
    seed, warmup, repeats = int(request["seed"]), int(request["warmup"]), int(request["repeats"])
    cases = []
    for case in request["cases"]:
        state = load_state(case["game"])
        engine = ai.ENGINES[state.game]
        if not hasattr(engine, "search"):
            raise ValueError(f"the {state.game} computer does not search")
        master = bool(case.get("master", False))
        if master and state.game not in ("uttt", "hex", "y"):
            raise ValueError(f"the {state.game} computer has no master search")
        cases.append((state, engine, int(case["iterations"]), master))
    results: list[dict] = [{"samples": [], "moves": [], "nodes": []} for _ in cases]
    gc.collect()
    for index in range(warmup + repeats):
        for (state, engine, iterations, master), result in zip(cases, results):
            options = {}
            if master:
                solver.clear()
                options["master"] = True
            start = time.perf_counter()
            found = engine.search(state, iterations=iterations, seed=seed + index, **options)
            elapsed = time.perf_counter() - start
            if index >= warmup:
                done = max(1, found.iterations)
                result["samples"].append(elapsed / done)
                result["moves"].append(state.move_to_text(found.move))
                result["nodes"].append(None if found.nodes is None else found.nodes / done)
    return {**runtime(), "results": results}


@json_reply
def bench_solve(request: dict[str, Any]) -> dict[str, Any]:
    """The exact solver (``ai.connection.solver``) proving Hex or Y positions from
    scratch: a fresh ``Solver`` for every proof, so both runtimes do exactly
    the same work (the nodes and the move found must agree); the same
    function runs under CPython in tools/bench/.

    {"cases": [{"game": <save dict>}], "repeats": int, "seconds": float}
    -> {"python": str, "platform": str,
        "results": [{"samples": [seconds, one per proof], "nodes": [int], "moves": [text or null],
                     "values": [1 won, -1 lost, 0 not proven within ``seconds``]}]}
    or {"error": message}. The cases take turns, as in bench_moves."""
    repeats, seconds = int(request["repeats"]), float(request["seconds"])
    cases = []
    for case in request["cases"]:
        state = load_state(case["game"])
        if state.game not in ("hex", "y"):
            raise ValueError(f"the {state.game} computer has no solver")
        mine, theirs = solver.position_masks(state.owners(), state.turn)  # type: ignore[attr-defined]
        cases.append((state, mine, theirs))
    results: list[dict] = [{"samples": [], "nodes": [], "moves": [], "values": []} for _ in cases]
    gc.collect()
    for _ in range(repeats):
        for (state, mine, theirs), result in zip(cases, results):
            proof = solver.Solver(state.size, state.game)  # type: ignore[attr-defined]
            start = time.perf_counter()
            value, move = proof.solve(mine, theirs, state.turn, seconds)
            result["samples"].append(time.perf_counter() - start)
            result["nodes"].append(proof.nodes)
            result["moves"].append(state.move_to_text(move) if move >= 0 else None)
            result["values"].append(value)
    return {**runtime(), "results": results}


@json_reply
def bench_game(request: dict[str, Any]) -> dict[str, Any]:
    """One computer player (``ai.new_engine``, held for the whole game as
    the app holds it, so the levels that keep their tree do) playing both
    sides from a position: what a long game leaves in memory.

    {"game": <save dict>, "level": str, "moves": int, "move_time": float | null, "seed": int}
    -> {"python": str, "platform": str, "moves": [text], "seconds": [float],
        "wasm_bytes": this interpreter's WebAssembly memory after the game (None outside Pyodide)}
    or {"error": message}. It stops early if the game ends."""
    state = load_state(request["game"])
    engine = ai.new_engine(state.game)
    level, seed, move_time = request["level"], int(request["seed"]), request.get("move_time")
    played, seconds = [], []
    for _ in range(int(request["moves"])):
        if state.is_over():
            break
        start = time.perf_counter()
        move = engine.choose_move(state, level, seed, move_time)
        seconds.append(time.perf_counter() - start)
        played.append(state.move_to_text(move))
        state.push(move)
    gc.collect()
    return {**runtime(), "moves": played, "seconds": seconds, "wasm_bytes": wasm_bytes()}


@json_reply
def bench_choose(request: dict[str, Any]) -> dict[str, Any]:
    """The computer's move in each case, timed: what a player gets (for the
    puzzle score; the same function runs under CPython in tools/bench/).

    {"cases": [{"game": <save dict>, "level": str, "seed": int, "move_time": float | null}]}
    -> {"python": str, "platform": str, "results": [{"move": text, "seconds": float}]}
    or {"error": message}. Each case starts with no tree kept from before."""
    results = []
    for case in request["cases"]:
        state = load_state(case["game"])
        start = time.perf_counter()
        move = ai.choose_move(state, case["level"], seed=case.get("seed"), move_time=case.get("move_time"))
        results.append({"move": state.move_to_text(move), "seconds": time.perf_counter() - start})
    return {**runtime(), "results": results}


def wasm_bytes() -> int | None:
    """This interpreter's WebAssembly memory (its whole heap; it grows and
    never shrinks), or None outside Pyodide."""
    try:
        import pyodide_js
    except ImportError:
        return None
    return int(pyodide_js._module.HEAPU8.length)


def bench_stdlib(request_json: str = "{}") -> str:
    """{"import": names} -> what this worker imported of the standard
    library once it has imported those too (py/selfcheck.py's
    ``imported_stdlib``), for tools/stdlib.py."""
    from selfcheck import imported_stdlib

    return json.dumps(imported_stdlib(json.loads(request_json).get("import", ())))


def bench_memory(_request_json: str = "{}") -> str:
    """{"wasm_bytes": ``wasm_bytes()``}."""
    return json.dumps({"wasm_bytes": wasm_bytes()})


# Everything the harness calls in the worker: the app's own functions, the
# self-check (e2e/test_platform.py) and the bench functions (tools/bench/).
__export__ = ["choose_move", "analyse", "prepare", "explore", "setup", "self_check", "bench_moves", "bench_playouts", "bench_search", "bench_choose",
              "bench_solve", "bench_game", "bench_memory", "bench_stdlib"]
