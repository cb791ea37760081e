"""One open game screen's controller: it opens the screen's model from
storage (``screen.open_screen``), draws what each command changed
(``render``), runs the move clock's timer, and sends the engine what the
model asks (the computer's move, a hint, an analysis, the evaluation bar),
handing each answer back to the model, which drops it if its game or
position changed. It reaches the page through ``host.ControllerHost``.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import random
from collections.abc import Callable
from typing import Any

import js

from ..model import embed
from ..model.change import NOTHING, Change
from ..model.clock_view import clock_view
from ..model.games import GameSpec
from ..model.insight import EngineTask
from ..model.parts import INSIGHT_VIEW, Part
from ..model.play_view import stats_rows
from ..model.review_view import past_games
from ..model.screen import GameScreen, open_screen
from ..model.screen_view import insight_view, screen_view
from ..model.storage import Storage
from ..model.takeover import ComputerRequest
from ..model.words import Msg
from . import dom, render, review_panel
from .host import ControllerHost

shell = js.window.appShell
# A short pause before the computer answers, so the player sees their own
# move land first (none when the player asked for reduced motion).
COMPUTER_PAUSE_S = 0.35
TICK_MS = 250  # the move clock's countdown


def local_day() -> str:
    return datetime.date.fromtimestamp(js.Date.now() / 1000).isoformat()


class ScreenController:
    """One open game screen: its model, the clock's timer and the engine
    request it waits for. ``close`` stops the timer and marks it closed, so
    an answer that arrives afterwards is dropped, never drawn."""

    def __init__(self, app: ControllerHost, screen: GameScreen) -> None:
        self.app = app
        self.screen = screen
        self.closed = False
        self.timer = dom.Interval(lambda: self.apply(self.screen.tick()), TICK_MS)

    @classmethod
    def open(cls, app: ControllerHost, spec: GameSpec, storage: Storage, tab_id: str,
             clock: Callable[[], float], rng: random.Random | None = None) -> ScreenController:
        """The screen of ``spec``'s game, from what storage keeps of it."""
        return cls(app, open_screen(spec, storage, tab_id, clock, local_day, rng))

    def position(self) -> tuple[int, int]:
        """The position on screen, for a mark a first tap left on a cell."""
        return id(self.screen.shown), self.screen.shown_ply()

    @property
    def conflict_notice(self) -> str:
        return f"conflict-{self.screen.game}"

    def view(self) -> Any:
        return screen_view(self.screen, portrait=bool(self.app.portrait.matches))

    def apply(self, change: Change) -> None:
        """Draw what a command changed and do what it asks of the page; if
        the computer is now to move, ask it."""
        if self.closed or change == NOTHING:
            return
        # Asked before drawing, so that one draw shows "thinking" too.
        request = self.screen.computer_request()
        parts = change.parts | (frozenset({Part.STATUS, Part.BOARD}) if request is not None else frozenset())
        if parts == {Part.CLOCK}:
            render.render_clock(clock_view(self.screen.session))  # a tick: not the whole view four times a second
        elif parts and parts <= INSIGHT_VIEW:  # an answer of the analysis: not the board, not the settings
            render.render_insight(insight_view(self.screen), parts)
        elif parts:
            render.render(self.view(), parts, self.app.board)
            if Part.BOARD in parts:
                self.app.touch.drawn(self.position())
        if Part.STATS in change.parts:
            render.render_stats(stats_rows(self.screen))
        if Part.ARCHIVE in change.parts:
            review_panel.render_past_games(past_games(self.screen))
        if change.announce is not None:
            self.app.announce(change.announce)
        if change.sounds and self.screen.play.sound:
            for sound in change.sounds:
                shell.playSound(sound)
        if change.finished is not None:
            ended = change.finished  # not the screen's session after "New game" resigned it
            outcome = ended.outcome()
            assert outcome is not None
            shell.notifyParent(json.dumps(embed.gameover_message(self.screen.game, outcome, ended.mode)))
        if change.conflict:
            self.app.notices.show(
                self.conflict_notice,
                Msg("notice.conflict", {"game": Msg(f"games.{self.screen.game}.name")}),
                [(Msg("notice.take_over"), lambda: self.apply(self.screen.take_over())),
                 (Msg("notice.keep_mine"), lambda: self.apply(self.screen.keep_mine()))],
            )
        self.app.show_storage_notices()
        if request is not None:
            asyncio.ensure_future(dom.guard(self.think(request)))
        task = self.screen.insight.engine_task()
        if task is not None:
            asyncio.ensure_future(dom.guard(self.consult(task)))
        elif request is None and Part.BOARD in parts:
            # Nothing asked of the worker: it warms up for this board meanwhile
            # (at the computer's level; two people have none).
            session = self.screen.session
            self.app.engine.prepare(session.state, session.mode.level or None)

    async def consult(self, task: EngineTask) -> None:
        """One position to the worker's analysis (a hint, an analysis, the
        evaluation bar); its answer goes to the screen, which keeps it for
        that position and asks for the next one. Dropped once the screen
        is closed."""
        try:
            reply = await self.app.engine.analyse(task.state, task.seconds, task.seed, task.played)
        except Exception:
            if not self.closed:
                self.apply(self.screen.insight.engine_failed(task))
            raise
        if not self.closed:
            self.apply(self.screen.insight.engine_reply(task, reply))

    async def think(self, request: ComputerRequest) -> None:
        if not js.window.matchMedia("(prefers-reduced-motion: reduce)").matches:
            await asyncio.sleep(COMPUTER_PAUSE_S)
        if self.closed or request is not self.screen.takeover.waiting:
            return  # the screen was left, or its game changed during the pause
        try:
            move = await self.app.engine.choose_move(request.state, request.level, request.seed)
        except Exception:
            self.apply(self.screen.computer_failed(request))
            raise
        self.apply(self.screen.computer_answer(request, move))

    def close(self) -> None:
        self.closed = True
        self.timer.stop()
        self.app.notices.dismiss(self.conflict_notice)
