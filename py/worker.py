"""The AI worker: runs in its own Pyodide interpreter so the page never
freezes while the computer thinks (worker.js hosts it and passes the page's
calls on). The main thread awaits the exported functions; arguments and
answers are JSON text.

It exports only what the app calls: the computer's move
(``choose_move``), the engine's verdict on a position for the hint, the
evaluation bar and the analysis of a game (``analyse``), the engine's best
moves and heat map for the analysis board (``explore``), the order of a
set-up position's moves (``setup``), and the warm-up
of the engine for the board on screen (``prepare``). The harness's worker (py/bench_worker.py,
started instead of this one only when the tests or the bench open the page)
imports this module and adds the self-check and the bench functions."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import ai
from core import GameError, GameState
from core.base import FIRST, SECOND
from registry import GAMES, STATES
from setups import Placement, SetupError, build


def json_reply(handler: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[str], str]:
    """A function of the worker's interface: JSON text in, JSON text out.
    ``handler`` gets the parsed request and returns the reply; bad input
    (a malformed request, an unknown game or level, an illegal save) is
    answered {"error": message} instead."""

    @functools.wraps(handler)
    def reply(request_json: str) -> str:
        try:
            return json.dumps(handler(json.loads(request_json)))
        except (GameError, KeyError, TypeError, ValueError) as error:
            return json.dumps({"error": f"{type(error).__name__}: {error}"})

    return reply


def load_state(saved: dict[str, Any]) -> GameState:
    """A game from its save dict (``GameState.to_dict``)."""
    return STATES[saved["game"]].from_dict(saved)


#: This worker's computer players, one per game, kept while it lives so
#: that the levels that keep their tree think on across a game's moves.
PLAYERS: dict[str, Any] = {}


@json_reply
def choose_move(request: dict[str, Any]) -> dict[str, Any]:
    """{"game": <save dict>, "level": str, "seed": int} -> {"move": text}
    or {"error": message}."""
    state = load_state(request["game"])
    if state.game not in PLAYERS:
        PLAYERS[state.game] = ai.new_engine(state.game)
    move = PLAYERS[state.game].choose_move(state, request["level"], seed=request.get("seed"),
                                           move_time=request.get("move_time"))
    return {"move": state.move_to_text(move)}


#: This worker's analysts, one per game, apart from ``PLAYERS``: a hint or
#: an analysis grows and keeps its own tree and never touches the one the
#: computer opponent thinks on with.
ANALYSTS: dict[str, Any] = {}


@json_reply
def analyse(request: dict[str, Any]) -> dict[str, Any]:
    """{"game": <save dict>, "seconds": float, "seed": int (optional),
    "iterations": int (optional), "played": move text (optional)} -> the
    engine's verdict on the position, from the first player's side
    (``ai.verdict_reply``: "move", "reason", "chance", "proof", "plies",
    "iterations", and "played_chance" when "played" is given) or
    {"error": message}."""
    state = load_state(request["game"])
    seconds, seed, iterations = request["seconds"], request.get("seed"), request.get("iterations")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"seconds must be a number, not {seconds!r}")
    played = request.get("played")
    if played is not None and not isinstance(played, str):
        raise TypeError(f"played must be a move's text, not {played!r}")
    for name, value in (("seed", seed), ("iterations", iterations)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"{name} must be a whole number, not {value!r}")
    if state.game not in ANALYSTS:
        ANALYSTS[state.game] = ai.new_engine(state.game)
    return ai.verdict_reply(ANALYSTS[state.game], state, seconds, seed=seed, iterations=iterations, played=played)


#: This worker's explorers, one per game, apart from the analysts: the
#: analysis board thinks on the position on screen with a tree of its own,
#: and asking again about the same position thinks on in it.
EXPLORERS: dict[str, Any] = {}

#: The most a call of ``explore`` thinks: the page asks again and again for
#: as long as the analysis board is left on, each answer a slice (so that a
#: change of position waits at most that long).
EXPLORE_SLICE = 2.0


@json_reply
def explore(request: dict[str, Any]) -> dict[str, Any]:
    """{"game": <save dict>, "seconds": float (at most ``EXPLORE_SLICE``),
    "count": int (1-5, optional: 3), "seed": int (optional)} -> the
    engine's best moves after thinking that much more on the position
    (``ai.lines_reply``: "verdict", "lines", "heat"), or {"error": message}."""
    state = load_state(request["game"])
    seconds, count, seed = request["seconds"], request.get("count", 3), request.get("seed")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= EXPLORE_SLICE:
        raise ValueError(f"seconds must be a number above 0 and at most {EXPLORE_SLICE}, not {seconds!r}")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 5:
        raise ValueError(f"count must be a whole number from 1 to 5, not {count!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be a whole number, not {seed!r}")
    if state.game not in EXPLORERS:
        EXPLORERS[state.game] = ai.new_engine(state.game)
    return ai.lines_reply(EXPLORERS[state.game], state, float(seconds), seed=seed, count=count)


@json_reply
def setup(request: dict[str, Any]) -> dict[str, Any]:
    """{"game": name, "settings": {...}, "cells": {cell text: 0 or 1},
    "turn": 0 or 1, "forced": small board from 0, or null} -> {"game":
    <save dict>}, the game that ends in that set-up position
    (``app.model.setup.build``), or {"refused": kind, "params": {...}} when
    the rules do not allow it, or {"error": message}. In the worker: in
    Ultimate Tic-Tac-Toe the search for an order of the moves can take a
    while, and the page must not wait on it."""
    empty = GAMES[request["game"]].new_state(request["settings"])
    cells = {empty.parse_move(text): owner for text, owner in request["cells"].items()}
    turn, forced = request["turn"], request.get("forced")
    if turn not in (FIRST, SECOND) or not (forced is None or (isinstance(forced, int) and 0 <= forced < 9)):
        raise ValueError(f"no side to move {turn!r} or forced board {forced!r}")
    try:
        state = build(Placement(empty.game, empty.settings(), cells, turn, forced))
    except SetupError as error:
        return {"refused": error.kind, "params": error.params}
    return {"game": state.to_dict()}


#: The games and levels this worker has warmed up for (another board size
#: of a game costs its first reply only that size's tables).
PREPARED: set[str] = set()


@json_reply
def prepare(request: dict[str, Any]) -> dict[str, Any]:
    """{"game": <save dict>, "level": str (optional)} or {"new": game name}
    (a new game of its default settings) -> {}: the computer's move at the
    level (the game's default if none is named) in that position, by an
    engine of its own, forgotten; once per game and level. The
    browser compiles the interpreter's code a worker runs only as it first
    runs it, so without this the computer's first reply after the page
    loads takes seconds longer than the next ones; and the tables of this
    board's size get built. worker.js asks it for the game the page opens
    with as soon as the worker is ready, the page for the board it draws
    (py/app/page/engine.py), while the player looks at it."""
    state = GAMES[request["new"]].new_state() if "new" in request else load_state(request["game"])
    level = request.get("level") or GAMES[state.game].levels.default
    key = f"{state.game} {level}"
    if key in PREPARED:
        return {}
    searched = searched_position(state)
    if not searched.is_over():
        ai.new_engine(state.game).choose_move(searched, level, seed=0)
    PREPARED.add(key)
    return {}


def searched_position(state: GameState) -> GameState:
    """``state`` with a move added while fewer than two are on the board
    (the middle of the legal ones): a position the computer searches, where
    it would answer an empty board by its opening and the first stone by
    its swap decision."""
    searched = state.copy()
    while len(searched.moves) < 2 and not searched.is_over():
        legal = searched.legal_moves()
        searched.play(legal[len(legal) // 2])
    return searched


def warm_up() -> None:
    """Import every game's engine (runtime.js calls it in the worker before
    the worker says it is ready, and before it keeps its snapshot): the
    player's first move waits for no import."""
    for game in ai.MODULES:
        ai.engine(game)


# What the app calls (Engine.choose_move, Engine.analyse, Engine.prepare,
# Engine.explore and Engine.setup in py/app/page/engine.py); nothing else.
__export__ = ["choose_move", "analyse", "prepare", "explore", "setup"]
