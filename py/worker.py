"""The AI worker: runs in its own Pyodide interpreter so the page never
freezes while the computer thinks. The main thread awaits the exported
functions; arguments and answers are JSON text."""

from __future__ import annotations

import json

import ai
from core import GAMES, GameError


def choose_move(request_json: str) -> str:
    """{"game": <save dict>, "level": str, "seed": int} -> {"move": text}
    or {"error": message}."""
    try:
        request = json.loads(request_json)
        saved = request["game"]
        state = GAMES[saved["game"]].from_dict(saved)
        move = ai.choose_move(state, request["level"], seed=request.get("seed"), move_time=request.get("move_time"))
        return json.dumps({"move": state.move_to_text(move)})
    except (GameError, KeyError, TypeError, ValueError) as error:
        return json.dumps({"error": f"{type(error).__name__}: {error}"})


def self_check() -> str:
    from selfcheck import run

    return json.dumps(run())


__export__ = ["choose_move", "self_check"]
