"""Pure rules engines: one module per game behind ``base.GameState``.

Standard library only; importable under CPython 3.11+ and Pyodide alike.
Nothing here may import the browser layer (``app``), ``js`` or ``pyscript``.
"""

from __future__ import annotations

from .base import FIRST, SECOND, GameError, GameState, IllegalMoveError, NotationError, Outcome, SaveError
from .notakto import NotaktoState
from .uttt import UtttState

GAMES: dict[str, type[GameState]] = {
    "notakto": NotaktoState,
    "uttt": UtttState,
}

__all__ = [
    "FIRST", "SECOND", "GAMES", "GameError", "GameState", "IllegalMoveError",
    "NotationError", "Outcome", "SaveError", "NotaktoState", "UtttState",
]
