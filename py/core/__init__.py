"""Pure rules engines: one module per game behind ``base.GameState``.

Standard library only; importable under CPython 3.11+ and Pyodide alike.
Nothing here may import the browser layer (``app``), ``js`` or ``pyscript``.
Which games there are, and which class plays each, is py/registry.py's to say
(``registry.STATES``).
"""

from __future__ import annotations

from .base import FIRST, SECOND, GameError, GameState, IllegalMoveError, NotationError, Outcome, SaveError
from .hex import HexState
from .notakto import NotaktoState
from .uttt import UtttState
from .y import YState

__all__ = [
    "FIRST", "SECOND", "GameError", "GameState", "IllegalMoveError",
    "NotationError", "Outcome", "SaveError", "NotaktoState", "UtttState", "HexState", "YState",
]
