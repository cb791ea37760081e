"""A deterministic self-check of the engines, run both under CPython (unit
test) and inside Pyodide in the page (end-to-end test): the two results must
be identical, which catches any difference between CPython 3.11 and
Pyodide's Python 3.14 in the code the players depend on.

Every game of the registry gets seeded random games from its default
settings and from the smallest board it offers; the checks after them pin
what is particular to a game (perft, Notakto's perfect player)."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import ai
from ai import notakto as notakto_ai
from core.base import perft
from core.notakto import NotaktoState
from registry import GAMES, STATES, Game


def random_games(game: str, settings: dict[str, Any], count: int, seed: int) -> dict[str, Any]:
    """Play ``count`` seeded random games; a digest of every move list and
    outcome, and the round trip of each save."""
    rng = random.Random(seed)
    digest = hashlib.sha256()
    wins = [0, 0]
    round_trips = 0
    for _ in range(count):
        state = STATES[game].from_settings(settings)
        while not state.is_over():
            state.play(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
        outcome = state.outcome()
        assert outcome is not None
        if outcome.winner is not None:
            wins[outcome.winner] += 1
        saved = json.loads(json.dumps(state.to_dict()))
        round_trips += STATES[game].from_dict(saved).outcome() == outcome
        digest.update(" ".join(saved["moves"]).encode() + f"|{outcome.winner}|{outcome.reason}\n".encode())
    return {"wins": wins, "round_trips": round_trips, "digest": digest.hexdigest()[:16]}


def game_checks(game: Game, seed: int) -> dict[str, Any]:
    """Seeded random games from the game's default settings and from its
    smallest offered board (``Game.board_size``, when a setting sets it)."""
    defaults = game.defaults()
    results = {"default": random_games(game.name, defaults, 30, seed)}
    if isinstance(game.board_size, str):
        smallest = {**defaults, game.board_size: min(game.setting(game.board_size).values)}
        results["smallest"] = random_games(game.name, smallest, 30, seed + 1)
    return results


def notakto_checks() -> dict[str, Any]:
    state_type = STATES["notakto"]
    results: dict[str, Any] = {
        "perft_1x5": perft(state_type.from_settings({"boards": 1}), 5),
        "perft_2x4": perft(state_type.from_settings({"boards": 2}), 4),
        "perft_3x3": perft(state_type.from_settings({"boards": 3}), 3),
        "random_6": random_games("notakto", {"boards": 6}, 40, seed=11),
    }
    # The perfect player's verdicts and choices on seeded positions.
    rng = random.Random(3)
    verdicts = []
    for boards in (1, 2, 3, 4, 5, 6):
        state = state_type.from_settings({"boards": boards})
        for _ in range(rng.randrange(0, 3 * boards)):
            if state.is_over():
                break
            state.push(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
        if state.is_over():
            continue
        assert isinstance(state, NotaktoState)
        safe = [state.move_to_text(m) for m in notakto_ai.safe_moves(state)]
        choice = state.move_to_text(ai.choose_move(state, GAMES["notakto"].levels.strongest, seed=5))
        verdicts.append([" ".join(state.move_texts()), safe, choice])
    results["perfect"] = verdicts
    return results


def uttt_checks() -> dict[str, Any]:
    return {"perft_3": perft(STATES["uttt"].from_settings({}), 3)}


def connection_checks() -> dict[str, Any]:
    return {"hex_perft_5x2": perft(STATES["hex"].from_settings({"size": 5, "swap": True}), 2)}


def imported_stdlib(also: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """What this interpreter imported of the standard library, once it has
    imported the modules ``also`` names too:
    ``{"python": version, "modules": names, "builtin": names}``, ``modules``
    those imported from the library's archive (in Pyodide; its folder under
    CPython), ``builtin`` the modules built into the interpreter or frozen
    in it (``os``; ``collections.abc``, which is ``_collections_abc``). An
    error's traceback is formatted first (Pyodide formats one for every
    Python error that reaches JavaScript), so that what it imports is
    counted. tools/stdlib.py records these in the page and the AI worker."""
    import importlib
    import os
    import traceback

    for name in also:
        importlib.import_module(name)
    traceback.format_exception(ValueError("a probe"))
    library = os.path.dirname(os.__file__) + "/"  # Pyodide's archive (/lib/python3NN.zip) or CPython's folder
    origins = {name: str(getattr(getattr(module, "__spec__", None), "origin", None) or "")
               for name, module in list(sys.modules.items())}
    modules = sorted(name for name, origin in origins.items() if origin.startswith(library))
    inside = {name for name, origin in origins.items() if origin in ("built-in", "frozen")}
    return {"python": sys.version.split()[0], "modules": modules,
            "builtin": sorted(inside | set(sys.builtin_module_names))}


def run() -> dict[str, Any]:
    """Everything the engines compute here, as plain data (the ``python``
    entry names the interpreter and is not compared)."""
    return {
        "python": f"{sys.implementation.name} {sys.version.split()[0]} on {sys.platform}",
        "games": {game.name: game_checks(game, seed=7 + 10 * index) for index, game in enumerate(GAMES.values())},
        "notakto": notakto_checks(),
        "uttt": uttt_checks(),
        "connection": connection_checks(),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
