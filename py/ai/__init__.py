"""Computer opponents, one module per game behind one entry point.

Each game's module provides ``LEVELS`` (names the app uses, weakest first)
and ``choose_move(state, level, seed=None, move_time=None) -> int``. The app,
the web worker and the GTP engine call only the functions here, so a new
game's AI plugs in through its entry in py/registry.py, which names its
module and its levels (``MODULES`` and ``LEVEL_NAMES`` are read from there).

An engine's module is imported when it is first needed (``engine(game)``):
the page's main thread only shows the level names, and leaving the engines
(some of which build tables when imported) to the worker keeps them out of
the page's start-up. tests/test_ai_registry.py checks that the registry's
level names are every module's ``LEVELS``.

Standard library only, like ``core``, which it imports, and the registry.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from importlib import import_module
from types import ModuleType
from typing import Any

from core.base import GameState
from registry import GAMES

#: game name (``GameState.game``) -> the module of this package that plays it
MODULES: dict[str, str] = {name: game.engine for name, game in GAMES.items()}

#: game name -> its levels, weakest first (each module's ``LEVELS``)
LEVEL_NAMES: dict[str, tuple[str, ...]] = {name: game.levels.names for name, game in GAMES.items()}

#: game name -> its strongest level, which an engine plays when no level is
#: named (GTP, the arena); the app's opponent starts at the registry's
#: ``Levels.default``
DEFAULT_LEVEL: dict[str, str] = {name: game.levels.strongest for name, game in GAMES.items()}


def _unknown(game: str) -> ValueError:
    return ValueError(f"no computer player for {game!r} (have: {', '.join(MODULES)})")


def engine(game: str) -> ModuleType:
    """The module that plays ``game``, imported on first use."""
    try:
        name = MODULES[game]
    except KeyError:
        raise _unknown(game) from None
    return import_module(f"{__name__}.{name}")


class _Engines(Mapping[str, ModuleType]):
    """game name -> its engine module (``engine``), as a read-only mapping."""

    def __getitem__(self, game: str) -> ModuleType:
        if game not in MODULES:
            raise KeyError(game)
        return engine(game)

    def __iter__(self) -> Iterator[str]:
        return iter(MODULES)

    def __len__(self) -> int:
        return len(MODULES)


ENGINES: Mapping[str, ModuleType] = _Engines()


def levels(game: str) -> list[str]:
    """The levels of ``game``'s computer player, weakest first."""
    if game not in LEVEL_NAMES:
        raise _unknown(game)
    return list(LEVEL_NAMES[game])


def choose_move(
    state: GameState, level: str, seed: int | None = None, move_time: float | None = None
) -> int:
    """The computer's move for the side to move in ``state``.

    ``level`` is one of ``levels(state.game)``; ``seed`` makes the choice
    reproducible; ``move_time`` caps the thinking time in seconds for games
    that search (None: the level's own budget). Raises ValueError for an
    unknown game or level, or when the game is over. ``state`` is left as
    it was."""
    return engine(state.game).choose_move(state, level, seed=seed, move_time=move_time)


def spend(iterate: Callable[[], None], root: Any, max_iterations: int | None, deadline: float | None,
          every: int) -> int:
    """The searches' budget loop: call ``iterate`` until ``root.proof`` is
    set, ``max_iterations`` calls were made or ``deadline`` (a
    ``time.perf_counter`` value) has passed, whichever comes first, and at
    least once. The clock is read every ``every`` calls (a power of two),
    far less often than a playout costs. Returns the number of calls."""
    mask = every - 1
    done = 0
    while root.proof is None:
        iterate()
        done += 1
        if max_iterations is not None and done >= max_iterations:
            break
        if deadline is not None and not done & mask and time.perf_counter() >= deadline:
            break
    return done
