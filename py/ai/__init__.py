"""Computer opponents, one module per game behind one entry point.

Each game's module provides ``LEVELS`` (names the app uses, weakest first)
and ``choose_move(state, level, seed=None, move_time=None) -> int``. The app,
the web worker and the GTP engine call only the functions here, so a new
game's AI plugs in by adding its module to ``ENGINES``.

Standard library only, like ``core``.
"""

from __future__ import annotations

from types import ModuleType

from core.base import GameState

from . import hex, notakto, uttt, y

#: game name (``GameState.game``) -> the module that plays it
ENGINES: dict[str, ModuleType] = {
    "notakto": notakto,
    "uttt": uttt,
    "hex": hex,
    "y": y,
}

#: game name -> its strongest level, which the app offers by default
DEFAULT_LEVEL: dict[str, str] = {game: engine.LEVELS[-1] for game, engine in ENGINES.items()}


def _engine(game: str) -> ModuleType:
    try:
        return ENGINES[game]
    except KeyError:
        raise ValueError(f"no computer player for {game!r} (have: {', '.join(ENGINES)})") from None


def levels(game: str) -> list[str]:
    """The levels of ``game``'s computer player, weakest first."""
    return list(_engine(game).LEVELS)


def choose_move(
    state: GameState, level: str, seed: int | None = None, move_time: float | None = None
) -> int:
    """The computer's move for the side to move in ``state``.

    ``level`` is one of ``levels(state.game)``; ``seed`` makes the choice
    reproducible; ``move_time`` caps the thinking time in seconds for games
    that search (None: the level's own budget). Raises ValueError for an
    unknown game or level, or when the game is over. ``state`` is left as
    it was."""
    return _engine(state.game).choose_move(state, level, seed=seed, move_time=move_time)
