"""The computer opponent as the page sees it: a Pyodide worker that thinks
off the main thread, so the page never freezes while the computer thinks.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import js

import ai
from core import GameError, GameState


class Engine:
    """The AI, thinking in a Pyodide worker so the page never freezes.
    Started after the first board is interactive; until it is ready, a
    request waits for it."""

    def __init__(self) -> None:
        self.worker: Any = None
        self.failed = False
        # The harness starts its own worker script (py/app/harness.py).
        self.worker_src = "./py/worker.py"
        self._ready = asyncio.get_event_loop().create_future()
        self._players: dict[str, Any] = {}  # without a worker: one engine per game, as the worker keeps
        self._analysts: dict[str, Any] = {}  # and one for the hints and analyses, apart, as the worker's

    def start(self) -> None:
        script = js.document.createElement("script")
        script.type = "py"
        script.setAttribute("worker", "")
        script.setAttribute("name", "ai")
        script.setAttribute("src", self.worker_src)
        script.setAttribute("config", "./pyscript.toml")
        js.document.body.append(script)
        asyncio.ensure_future(self._connect())

    async def _connect(self) -> None:
        from pyscript import workers

        try:
            self.worker = await workers["ai"]
        except Exception as error:  # noqa: BLE001 - any start failure
            self.failed = True
            js.console.warn("engine: the AI worker did not start; thinking on the page instead", str(error))
        js.performance.mark("computer-ready")  # for tools/bench.py
        if not self._ready.done():
            self._ready.set_result(True)

    async def ready(self) -> None:
        await self._ready

    async def choose_move(self, state: GameState, level: str, seed: int) -> str:
        await self._ready
        if self.worker is None:
            if state.game not in self._players:
                self._players[state.game] = ai.new_engine(state.game)
            return state.move_to_text(self._players[state.game].choose_move(state, level, seed=seed))
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
        await self._ready
        if self.worker is None:
            if state.game not in self._analysts:
                self._analysts[state.game] = ai.new_engine(state.game)
            try:
                return ai.verdict_reply(self._analysts[state.game], state, seconds, seed=seed, played=played)
            except ValueError as error:
                raise GameError(f"engine: {error}") from error
        request = {"game": state.to_dict(), "seconds": seconds, "seed": seed}
        if played is not None:
            request["played"] = played
        answer = json.loads(str(await self.worker.analyse(json.dumps(request))))
        if "error" in answer:
            raise GameError(f"engine: {answer['error']}")
        return answer
