"""The analysis board on the page (``#/<game>/explore``): one open board's
controller. It holds the board's model (``model.explore.Exploration``) and,
while it is open, the set-up editor (``model.setup_board.SetupBoard``),
draws ``model.explore_view`` into the board's section of the page, and
asks the engine about the position on screen one slice at a time, in the
worker. An answer goes back to the model, which keeps it only for the
position it was asked about; once the board is closed (the player left),
nothing more is asked and nothing that arrives is drawn.

Its events come from page/app.py, which delegates them from the section
(it lives as long as the page): ``command`` for its buttons, ``cell`` for a
click on the board, ``key`` for the tree's keys.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import js

from core import GameError, GameState
from setups import Placement, SetupError

from ..model.explore import Exploration, Request
from ..model.explore_view import ExploreView, explore_view
from ..model.games import GameSpec
from ..model.records import explore_payload
from ..model.screen_view import stands_upright
from ..model.setup_board import SetupBoard
from ..model.variations import VariationError, parse_path
from ..model.words import Msg
from . import dom
from .dom import by_id, tr

#: The buttons' commands (``data-explore``) on the board's model.
COMMANDS: dict[str, Callable[[Exploration], Any]] = {
    "home": lambda board: board.key("home"), "back": lambda board: board.key("left"),
    "forward": lambda board: board.key("right"), "end": lambda board: board.key("end"),
    "promote": lambda board: board.promote(), "main": lambda board: board.make_main_line(),
    "delete": lambda board: board.delete(), "best": lambda board: board.play_best(),
    "autoplay": lambda board: board.toggle_autoplay(),
}
KEYS = {"ArrowLeft": "left", "ArrowRight": "right", "ArrowUp": "up", "ArrowDown": "down", "Home": "home",
        "End": "end"}
#: The buttons drawn enabled or not from the view (``ExploreView.enabled``), by their ids.
BUTTONS = {"home": "explore-home", "back": "explore-prev", "forward": "explore-next", "end": "explore-end",
           "promote": "explore-promote", "main": "explore-main", "delete": "explore-delete", "best": "explore-best",
           "swap": "explore-swap"}


class ExplorePanel:
    """One analysis board on screen. ``settings`` are the player's (the
    board's look: coordinates, colours, upright)."""

    def __init__(self, app: Any, spec: GameSpec, board: Exploration, settings: dict[str, Any]) -> None:
        self.app = app
        self.spec = spec
        self.board = board
        self.settings = settings
        self.setup: SetupBoard | None = None
        self.closed = False
        self.asking = False  # a request is with the engine
        self.failed = False  # the engine refused: it stays off until asked again
        self.board_view = dom.BoardView(by_id("explore-board"))
        self.moves_view = dom.BoardView(by_id("explore-moves"))
        self.lines_view = dom.BoardView(by_id("explore-lines"))
        self.notice: Msg | None = None
        #: The set-up position being checked in the worker, or None.
        self.checking: Placement | None = None

    @property
    def game(self) -> str:
        return self.spec.game

    def payload(self) -> str:
        return payload_of(self.board)

    # -- drawing ---------------------------------------------------------------------------
    def view(self) -> ExploreView:
        options = {name: self.settings[name] for name in self.spec.view_settings if name in self.settings}
        if self.spec.stands_upright:
            options["tall"] = stands_upright(self.settings.get("orientation", "auto"),
                                             bool(self.app.portrait.matches))
        return explore_view(self.spec, self.board, self.setup, options, self.settings)

    def draw(self) -> None:
        """Draw the board as it is now, then ask the engine if it should
        think. What to ask is settled first: AutoPlay may play its move
        then, or stop at the game's end, and the board shows that."""
        if self.closed:
            return
        request = None if self.asking or self.setup is not None else self.board.request()
        view = self.view()
        self.board_view.render(view.board)
        self.moves_view.render(view.moves)
        self.lines_view.render(view.lines)
        by_id("explore-status").textContent = tr(view.status)
        detail = self.notice or view.detail
        by_id("explore-detail").textContent = "" if detail is None else tr(detail)
        by_id("explore-detail").dataset.notice = "true" if self.notice is not None else "false"
        by_id("engine-toggle").checked = view.engine_on
        by_id("heatmap-toggle").checked = view.heat_on
        autoplay = by_id("autoplay")
        autoplay.setAttribute("aria-pressed", "true" if view.autoplay else "false")
        autoplay.textContent = tr(Msg("explore.autoplay_stop" if view.autoplay else "explore.autoplay"))
        for name, button in BUTTONS.items():
            by_id(button).disabled = not view.enabled[name]
        by_id("explore-swap").hidden = not view.enabled["swap"]
        self.draw_setup(view)
        self.app.explore_changed(self)
        if request is not None:
            self.asking = True
            asyncio.ensure_future(dom.guard(self.think(request)))

    def redraw(self) -> None:
        """Draw everything anew (another language: every word is redone)."""
        for view in (self.board_view, self.moves_view, self.lines_view):
            view.reset()
        self.draw()

    def draw_setup(self, view: ExploreView) -> None:
        setup = view.setup
        section = by_id("explore")
        section.dataset.setup = "true" if setup is not None else "false"
        by_id("explore-setup").hidden = setup is None
        for name in ("explore-analysis", "explore-tree-tools"):
            by_id(name).hidden = setup is not None
        if setup is None:
            return
        fill_select(by_id("setup-turn"), setup.turn or (), setup.turn_chosen)
        by_id("setup-turn-field").hidden = setup.turn is None
        fill_select(by_id("setup-board"), setup.board or (), setup.board_chosen)
        by_id("setup-board-field").hidden = setup.board is None
        by_id("setup-done").disabled = self.checking is not None
        error = by_id("setup-error")
        error.hidden = setup.error is None
        error.textContent = "" if setup.error is None else tr(setup.error)

    # -- the engine --------------------------------------------------------------------------
    async def think(self, request: Request) -> None:
        try:
            reply = await self.app.engine.explore(request.state, request.seconds)
        except GameError as error:
            js.console.warn("explore: the engine refused", str(error))
            reply = {"error": str(error)}
        finally:
            self.asking = False
        if self.closed:
            return
        if "error" in reply and request.key == self.board.position_key():
            self.board.engine_on = self.board.autoplay = False
            self.notice = Msg("explore.engine_failed")
        self.board.answer(request, reply)
        self.draw()

    # -- the player's commands --------------------------------------------------------------
    def command(self, name: str) -> None:
        self.notice = None
        if name in COMMANDS:
            COMMANDS[name](self.board)
        elif name == "setup-open":
            self.board.autoplay = False
            self.setup = SetupBoard(self.board.state())
        elif name == "setup-clear" and self.setup is not None:
            self.setup.clear()
        elif name == "setup-cancel":
            self.setup = None
        elif name == "setup-done" and self.setup is not None and self.checking is None:
            self.finish_setup()
        self.draw()

    def finish_setup(self) -> None:
        """"Done": the position checked, and its game's move order found,
        in the worker; the editor waits (its Done button off) meanwhile."""
        assert self.setup is not None
        self.checking = self.setup.placement()
        asyncio.ensure_future(dom.guard(self.check_setup(self.setup, self.checking)))

    async def check_setup(self, setup: SetupBoard, placement: Placement) -> None:
        try:
            state: GameState | None = await self.app.engine.setup(placement)
        except SetupError as error:
            state = None
            setup.refused(error)
        except GameError as error:
            js.console.warn("explore: the set-up could not be checked", str(error))
            state = None
            setup.error = Msg("explore.engine_failed")
        finally:
            self.checking = None
        if self.closed or setup is not self.setup or setup.placement() != placement:
            return  # left, cancelled or changed meanwhile: the editor stays as it is now
        if state is not None:
            board = Exploration(state, setup=True)
            board.engine_on, board.heat_on = self.board.engine_on, self.board.heat_on
            self.board, self.setup = board, None
            self.app.announce(Msg("explore.setup_ready"))
        self.draw()

    def toggle(self, name: str, on: bool) -> None:
        """The engine's and the heat map's switches."""
        self.notice = None
        if name == "engine" and on != self.board.engine_on:
            self.board.toggle_engine()
        elif name == "heat" and on != self.board.heat_on:
            self.board.toggle_heat()
        self.draw()

    def choose(self, name: str, value: str) -> None:
        """The set-up editor's menus: the side to move, the forced board."""
        if self.setup is None:
            return
        if name == "turn":
            self.setup.choose_turn(0 if value == "first" else 1)
        elif name == "board":
            self.setup.choose_board(int(value) - 1 if value.isdigit() else None)
        self.draw()

    def cell(self, move: str) -> None:
        """A click on the board: a move from the position on screen, or in
        the set-up editor the cell's next stone."""
        self.notice = None
        try:
            if self.setup is not None:
                self.setup.click(move)
            else:
                self.board.play(move)
        except GameError as error:
            js.console.info("explore: refused", move, str(error))
            self.notice = Msg("explore.illegal", {"move": move})
        self.draw()

    def go(self, path_text: str) -> None:
        """A click on a move of the list: its position."""
        try:
            self.board.go(parse_path(path_text))
        except VariationError:
            return
        self.notice = None
        self.draw()

    def play_line(self, move: str) -> None:
        """A click on an engine line: its first move."""
        self.cell(move)

    def key(self, name: str) -> None:
        self.board.key(name)
        self.notice = None
        self.draw()

    def close(self) -> None:
        """The board was left: nothing more is asked or drawn."""
        self.closed = True
        self.board.autoplay = False
        for view in (self.board_view, self.moves_view, self.lines_view):
            view.clear()


def payload_of(board: Exploration) -> str:
    """The board as a link's payload (``records.explore_payload``)."""
    return explore_payload(board.start, board.tree, board.setup, board.cursor)


def fill_select(select: Any, options: Any, chosen: str) -> None:
    """A menu's options, drawn anew only when they changed (a language
    change redraws their words)."""
    wanted = [(value, tr(label)) for value, label in options]
    drawn = [(str(option.value), str(option.textContent)) for option in select.options]
    if wanted != drawn:
        select.replaceChildren(*(dom.element("option", {"value": value}, label) for value, label in wanted))
    select.value = chosen
