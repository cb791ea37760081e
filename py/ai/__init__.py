"""Computer opponents, one module per game behind one entry point.

Each game's module provides ``LEVELS`` (names the app uses, weakest first),
``Engine`` (the player, built on ``ai.search.Engine``: hold one for a whole
game and the levels that keep their search tree think on across its moves)
and ``choose_move(state, level, seed=None, move_time=None) -> int`` (one
move by a fresh engine). The app, the web worker and the GTP engine call
only the functions here, so a new game's AI plugs in through its entry in
py/registry.py, which names its module and its levels (``MODULES`` and
``LEVEL_NAMES`` are read from there).

An engine also judges a position: ``new_engine(game).evaluate(state,
seconds, seed=None, iterations=None)`` gives a ``Judgement`` (ai/search.py):
the best move for the side to move and why (``REASONS``: a win at once, a
forced block, the only move, a proof, the swap, a safe move, or simply the
search's choice), that side's winning chance and the proven result with its
length in plies when known. The hint, the evaluation bar and the analysis
of a game ask it in the worker, through ``verdict_reply``, which also
answers the on-page fallback: the same JSON-ready reply in both places,
seen from the first player's side.

An engine's module is imported when it is first needed (``engine(game)``):
the page's main thread only shows the level names, and leaving the engines
(some of which build tables when imported) to the worker keeps them out of
the page's start-up. tests/ai/test_ai_registry.py checks that the registry's
level names are every module's ``LEVELS``.

Standard library only, like ``core``, which it imports, and the registry.
"""

from __future__ import annotations

import os
import sys
import zipimport
from collections.abc import Collection, Iterator, Mapping, Sequence
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from core.base import GameState
from registry import GAMES

if TYPE_CHECKING:  # the engines stay unimported until a game needs one
    from .search import Engine

#: game name (``GameState.game``) -> the module of this package that plays it
MODULES: dict[str, str] = {name: game.engine for name, game in GAMES.items()}

#: game name -> its levels, weakest first (each module's ``LEVELS``)
LEVEL_NAMES: dict[str, tuple[str, ...]] = {name: game.levels.names for name, game in GAMES.items()}

#: game name -> its strongest level, which an engine plays when no level is
#: named (GTP, the arena); the app's opponent starts at the registry's
#: ``Levels.default``
DEFAULT_LEVEL: dict[str, str] = {name: game.levels.strongest for name, game in GAMES.items()}


def engine_data(package: str, name: str) -> bytes:
    """A data file of the engines: ``name`` in the folder of ``package``
    (``ai.connection``), wherever on the module path it lies: beside the
    package's modules (py/ as a folder, under CPython), or in the AI
    worker's archive, which holds the engines' data apart from their code
    (tools/build_site.py); FileNotFoundError when it is nowhere."""
    relative = f"{package.replace('.', '/')}/{name}"
    for entry in sys.path:
        try:
            if entry.endswith(".zip"):
                return zipimport.zipimporter(entry).get_data(relative)
            with open(os.path.join(entry or ".", relative), "rb") as file:
                return file.read()
        except (OSError, zipimport.ZipImportError):
            continue
    raise FileNotFoundError(relative)


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


def new_engine(game: str, parts: Collection[str] | None = None) -> Engine:
    """A fresh computer player for ``game`` (its module's ``Engine``). Hold
    it for the whole game: its ``choose_move`` keeps the search tree of the
    levels that reuse one (master in the games that search, and any move
    given ``move_time``) and starts the next move's search from it.
    ``parts``: the knowledge an engine with switchable parts uses (Hex and
    Y: ``ai.connection.choose_parts``, for ablation matches; None: all it
    uses by default); the other games' engines have none and ignore it."""
    player = engine(game).Engine
    if parts is not None and hasattr(player, "parts"):
        return player(parts=parts)
    return player()


def choose_move(
    state: GameState, level: str, seed: int | None = None, move_time: float | None = None
) -> int:
    """The computer's move for the side to move in ``state``.

    ``level`` is one of ``levels(state.game)``; ``seed`` makes the choice
    reproducible; ``move_time`` caps the thinking time in seconds for games
    that search (None: the level's own budget). Raises ValueError for an
    unknown game or level, when the game is over, or for a ``move_time``
    that is not a positive number. ``state`` is left as it was. A fresh
    engine answers, so nothing is kept between calls: a player that wants
    the strongest level to think on across a game holds ``new_engine(game)``."""
    return engine(state.game).choose_move(state, level, seed=seed, move_time=move_time)


#: ``verdict_reply``'s "proof": who wins under perfect play, by seat (FIRST = 0).
PROOF_SEATS = ("first", "second")


def result_reply(state: GameState) -> dict[str, Any] | None:
    """A finished game's verdict, as ``verdict_reply`` gives it (its winner
    is the proof, in 0 plies); None while the game goes on."""
    outcome = state.outcome()
    if outcome is None:
        return None
    winner = outcome.winner
    return {"move": None, "reason": "over", "chance": 0.5 if winner is None else 1.0 - winner,
            "proof": "draw" if winner is None else PROOF_SEATS[winner], "plies": 0, "iterations": 0}


def verdict_reply(engine: Engine, state: GameState, seconds: float, seed: int | None = None,
                  iterations: int | None = None, played: str | None = None) -> dict[str, Any]:
    """``engine.evaluate`` as the worker answers it, from the first
    player's (seat 0's) side: {"move": text or None, "reason": one of
    ``REASONS`` or "over", "chance": the first player's winning chance 0..1
    (a draw counts half), "proof": "first" / "second" / "draw" (who wins
    under perfect play) or None, "plies": int or None, "iterations": int}.
    A finished game needs no engine: its winner is the proof, in 0 plies.
    With ``played`` (the text of the move the game went on with, for an
    analysis), also "played_chance": the first player's chance after that
    move by the same search (``Engine.move_chance``), or None when the
    search hardly looked at it. Raises ValueError like ``evaluate`` for a
    bad ``seconds``, GameError for a ``played`` that is no move."""
    finished = result_reply(state)
    if finished is not None:
        return finished
    verdict = engine.evaluate(state, seconds, seed=seed, iterations=iterations)
    mover = state.turn
    chance = verdict.chance if mover == 0 else 1.0 - verdict.chance
    if verdict.proof is None:
        proof = None
    elif verdict.proof == 0:  # DRAWN
        proof = "draw"
    else:
        proof = PROOF_SEATS[mover if verdict.proof > 0 else mover ^ 1]
    reply = {"move": state.move_to_text(verdict.move), "reason": verdict.reason, "chance": chance,
             "proof": proof, "plies": verdict.plies, "iterations": verdict.iterations}
    if played is not None:  # the move the game went on with: its chance by the same search
        move = state.parse_move(played)
        after = engine.move_chance(state, move) if state.is_legal(move) else None
        if move == verdict.move and (after is None or verdict.proof is not None):
            after = verdict.chance  # a proof outranks the tree's estimate of the same move
        reply["played_chance"] = None if after is None else (after if mover == 0 else 1.0 - after)
    return reply


def lines_reply(engine: Engine, state: GameState, seconds: float, seed: int | None = None,
                count: int = 3) -> dict[str, Any]:
    """The analysis board's question, as the worker answers it: the
    engine's verdict (``verdict_reply``) and its best ``count`` moves after
    thinking ``seconds`` more on ``state`` (from the tree it kept for the
    same position, so that asking again thinks on), and every legal move's
    heat. {"verdict": ``verdict_reply``'s reply, "lines": [{"move": text,
    "chance": the first player's winning chance after it, "proof": who wins
    under perfect play after it ("first" / "second" / "draw") or None,
    "visits": how much the search tried it, "line": the move and the
    replies expected, as texts}], "heat": {move text: 0-100, the side to
    move's chance after it in whole percent, or None where the engine did
    not value it}}. A finished game has no lines and no heat."""
    verdict = verdict_reply(engine, state, seconds, seed=seed)
    if verdict["reason"] == "over":
        return {"verdict": verdict, "lines": [], "heat": {}}
    mover = state.turn
    if verdict["iterations"] == 0 and len(state.legal_moves()) > 1:
        # Found without a search (a win at once, a proof): the other moves
        # get one, for their lines and the heat map.
        engine.grow(state, seconds, seed)

    def texts(moves: Sequence[int]) -> list[str]:
        after = state.copy()
        out = []
        for move in moves:
            out.append(after.move_to_text(move))
            after.push(move)
        return out

    lines = []
    for line in engine.lines(state, count):
        proof = None if line.proof is None else "draw" if line.proof == 0 else \
            PROOF_SEATS[mover if line.proof > 0 else mover ^ 1]
        lines.append({"move": state.move_to_text(line.move), "chance": line.chance if mover == 0 else 1 - line.chance,
                      "proof": proof, "visits": line.visits, "line": texts(line.line)})
    heat = {state.move_to_text(move): None if chance is None else round(100 * chance)
            for move, chance in engine.heat(state).items()}
    return {"verdict": verdict, "lines": lines, "heat": heat}
