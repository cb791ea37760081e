"""The computer opponent as the page sees it: a Pyodide worker that thinks
off the main thread, so the page never freezes while the computer thinks.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import js

import ai
from core import GameError, GameState
from registry import STATES
from setups import Placement, SetupError, build

#: Without a worker, the longest the analysis board's engine thinks on the
#: page at a time (a longer task would hold the page).
PAGE_SLICE = 0.05


def on_page(engines: dict[str, Any], game: str) -> Any:
    """Without a worker: this page's engine of ``game`` in ``engines``
    (one per game and purpose, kept as the worker keeps its own)."""
    if game not in engines:
        engines[game] = ai.new_engine(game)
    return engines[game]


class WorkerCalls:
    """The worker's exported functions as awaitable methods: ``await
    calls.choose_move(request_json)`` is the reply's JSON text (the shell's
    ``engine.call``: shell/boot.js, runtime.js); a function that takes no request
    is called without one."""

    def __init__(self, shell_engine: Any) -> None:
        self._engine = shell_engine

    def __getattr__(self, name: str) -> Callable[..., Awaitable[str]]:
        async def call(*request_json: str) -> str:
            return str(await self._engine.call(name, *request_json))

        return call


class Engine:
    """The AI, thinking in a Pyodide worker so the page never freezes. The
    worker starts with the page (shell/boot.js); until it is ready, a request
    waits for it."""

    def __init__(self) -> None:
        self.worker: Any = None
        self.failed = False
        self._ready = asyncio.get_event_loop().create_future()
        self._players: dict[str, Any] = {}  # without a worker: one engine per game, as the worker keeps
        self._analysts: dict[str, Any] = {}  # and one for the hints and analyses, apart, as the worker's
        self._explorers: dict[str, Any] = {}  # and one for the analysis board
        self._prepared: set[str] = set()  # the games and levels the worker was asked to warm up for
        self._asked = 0  # how many moves and verdicts were asked of the engine

    def start(self) -> None:
        asyncio.ensure_future(self._connect())

    async def _connect(self) -> None:
        shell_engine = js.window.appShell.engine
        try:
            await shell_engine.ready
            self.worker = WorkerCalls(shell_engine)
        except Exception as error:  # noqa: BLE001 - any start failure
            self.failed = True
            js.console.warn("engine: the AI worker did not start; thinking on the page instead", str(error))
            try:  # the worker's archives, with the engines' data, on the page's path too
                await js.window.appShell.loadWorkerArchives()
            except Exception as data_error:  # noqa: BLE001 - Notakto needs no data; the other games say so as they fail
                js.console.warn("engine: the engines' data could not be loaded", str(data_error))
        if not self._ready.done():
            self._ready.set_result(True)

    async def ready(self) -> None:
        await self._ready

    def prepare(self, state: GameState, level: str | None) -> None:
        """Have the worker warm up for this game and the computer's ``level``
        (None: two people), once in this page, while the player looks at the
        board: the computer's first reply then takes as long as the later
        ones (py/worker.py's ``prepare``, which also skips a game and level
        it warmed up for when it started). Without a worker, nothing: it
        would freeze the page."""
        key = f"{state.game} {level}"
        if key not in self._prepared:
            self._prepared.add(key)
            request = json.dumps({"game": state.to_dict(), "level": level})
            asyncio.ensure_future(self._prepare(request, self._asked))

    async def _prepare(self, request: str, asked: int) -> None:
        await self._ready
        if self.worker is None or self._asked != asked:
            return  # a move or a verdict asked meanwhile warms the worker up itself: it need not wait
        try:
            await self.worker.prepare(request)
        except Exception as error:  # noqa: BLE001 - a warm-up that fails costs the player nothing
            js.console.warn("engine: the AI worker's warm-up failed", str(error))

    async def choose_move(self, state: GameState, level: str, seed: int) -> str:
        self._asked += 1
        await self._ready
        if self.worker is None:
            player = on_page(self._players, state.game)
            return state.move_to_text(player.choose_move(state, level, seed=seed))
        request = json.dumps({"game": state.to_dict(), "level": level, "seed": seed})
        answer = json.loads(str(await self.worker.choose_move(request)))
        if "error" in answer:
            raise GameError(f"engine: {answer['error']}")
        return answer["move"]

    async def analyse(self, state: GameState, seconds: float, seed: int, played: str | None = None) -> dict[str, Any]:
        """The engine's verdict on ``state`` within ``seconds`` (the worker's
        ``analyse`` reply, ``ai.verdict_reply``: "move", "reason", "chance"
        of the first player, "proof", "plies", "iterations"; with
        ``played``, the move the game went on with, its "played_chance").
        Raises GameError when the engine refuses the request."""
        self._asked += 1
        await self._ready
        if self.worker is None:
            try:
                return ai.verdict_reply(on_page(self._analysts, state.game), state, seconds, seed=seed, played=played)
            except ValueError as error:
                raise GameError(f"engine: {error}") from error
        request = {"game": state.to_dict(), "seconds": seconds, "seed": seed}
        if played is not None:
            request["played"] = played
        answer = json.loads(str(await self.worker.analyse(json.dumps(request))))
        if "error" in answer:
            raise GameError(f"engine: {answer['error']}")
        return answer

    async def explore(self, state: GameState, seconds: float, count: int = 3) -> dict[str, Any]:
        """The analysis board's engine: its best ``count`` moves in ``state``
        with their lines, and every legal move's heat, after thinking
        ``seconds`` more (the worker's ``explore`` reply, ``ai.lines_reply``;
        asking again about the same position thinks on). Without a worker,
        on the page in slices of at most ``PAGE_SLICE`` seconds, so that no
        answer holds the page longer. Raises GameError when the engine
        refuses the request."""
        self._asked += 1
        await self._ready
        if self.worker is None:
            try:
                return ai.lines_reply(on_page(self._explorers, state.game), state, min(seconds, PAGE_SLICE),
                                      count=count)
            except ValueError as error:
                raise GameError(f"engine: {error}") from error
        request = {"game": state.to_dict(), "seconds": seconds, "count": count}
        answer = json.loads(str(await self.worker.explore(json.dumps(request))))
        if "error" in answer:
            raise GameError(f"engine: {answer['error']}")
        return answer

    async def setup(self, placement: Placement) -> GameState:
        """The game that ends in a set-up position (``setup.build``), found
        in the worker (the search for an order of its moves can take a
        while); raises SetupError when the rules do not allow it, GameError
        when the worker refuses the request. Without a worker, on the page."""
        await self._ready
        if self.worker is None:
            return build(placement)
        empty = STATES[placement.game].from_settings(dict(placement.settings))
        request = {"game": placement.game, "settings": dict(placement.settings), "turn": placement.turn,
                   "forced": placement.forced,
                   "cells": {empty.move_to_text(cell): owner for cell, owner in placement.cells.items()}}
        answer = json.loads(str(await self.worker.setup(json.dumps(request))))
        if "error" in answer:
            raise GameError(f"engine: {answer['error']}")
        if "refused" in answer:
            raise SetupError(answer["refused"], "the worker's search", **answer["params"])
        return STATES[placement.game].from_dict(answer["game"])
