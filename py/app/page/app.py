"""The page: one router that builds and takes down game screens (each with
its controller, controller.py), the AI worker, notices and the dialogs. It
decides nothing about a game: ``model.screen.GameScreen`` (pure,
unit-tested) takes the player's commands and ``model.screen_view`` says
what to show; ``render`` draws it. Every event is
delegated from an element that lives as long as the page, so a screen
leaves no listener behind, and every answer that comes later (the worker, a
timer) is dropped once its screen is gone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import js
from pyodide.ffi import create_proxy

from ..model import archive, embed, transfer
from ..model.change import NOTHING, Change
from ..model.games import SPECS
from ..model.keep import SOUND_SETTING
from ..model.parts import EVERY, Part
from ..model.review import LINK
from ..model.screen import GameScreen
from ..model.session import new_id
from ..model.storage import Storage
from ..model.words import Msg
from . import dialogs, dom, insight_panel, render, touch
from .controller import ScreenController
from .dom import by_id, found, on, tr
from .engine import Engine
from .notices import Notices

if TYPE_CHECKING:  # the analysis board's modules are imported when it first opens, not with the page
    from ..model import records
    from ..model.explore import Exploration
    from .explore_panel import ExplorePanel

shell = js.window.appShell
# A phone held upright (and any window as narrow and tall): Hex's rhombus
# then stands upright (views.hex_geometry), its cells larger than drawn
# wide (31 px instead of 23 for 11 x 11 on a 390 x 844 screen).
PORTRAIT_QUERY = "(orientation: portrait) and (max-width: 37.5em)"
# The review's steps, by button (data-step) and by key in the board area.
STEPS: dict[str, Callable[[GameScreen], Change]] = {
    "first": lambda screen: screen.step_first(), "prev": lambda screen: screen.step(-1),
    "next": lambda screen: screen.step(+1), "last": lambda screen: screen.step_last(),
    "live": lambda screen: screen.back_to_live(),
}
STEP_KEYS = {"Home": "first", "ArrowLeft": "prev", "ArrowRight": "next", "End": "last"}
# The buttons that carry their command in a data attribute: the review bar's,
# the move list's and the past games'.
BUTTON_COMMANDS: dict[str, Callable[[GameScreen, str], Change]] = {
    "data-step": lambda screen, step: STEPS[step](screen) if step in STEPS else NOTHING,
    "data-continue": lambda screen, opponent: screen.continue_here(opponent),
    "data-ply": lambda screen, ply: screen.step_to(int(ply)) if ply.isdigit() else NOTHING,
    "data-open": lambda screen, game_id: screen.open_past(game_id),
    "data-delete": lambda screen, game_id: screen.delete_past(game_id),
    "data-better": lambda screen, ply: screen.show_better(int(ply)) if ply.isdigit() else NOTHING,
}


class App:
    """The page: the router, language, storage, the engine, notices."""

    def __init__(self) -> None:
        # Wall time; the end-to-end tests move it forward (appAdvanceClock)
        # instead of waiting for a 30 s move clock.
        self.clock_offset_ms = 0
        self.clock = lambda: (js.Date.now() + self.clock_offset_ms) / 1000
        self.tab_id = new_id()
        # A full quota drops the oldest past games first: the unfinished
        # game and the statistics are still written.
        self.storage = Storage(self._local_storage())
        self.storage.make_room = lambda: archive.drop_oldest(self.storage)
        self.notices = Notices()
        self.engine = Engine()
        self.board = dom.BoardView(by_id("board"))
        #: A narrow portrait screen (a phone held upright): boards that can
        #: stand upright do (``GameSpec.stands_upright``).
        self.portrait = js.window.matchMedia(PORTRAIT_QUERY)
        self.controller: ScreenController | None = None
        #: The page URL's settings, for the game it opens; used once.
        self.url_settings = self.read_url_settings()
        #: A game to review once its screen is open (an import of another game).
        self.pending_review: tuple[transfer.Transferred, str] | None = None
        self.dialogs: list[Any] = []
        #: The analysis board on screen (``#/<game>/explore``), or None.
        self.explore: ExplorePanel | None = None
        #: The analysis board last left, by game: Forward, or the route
        #: opened again, shows it as it was.
        self.explorations: dict[str, Exploration] = {}
        #: A board to open with the next explore route (from a game's screen).
        self.pending_explore: Exploration | None = None
        #: The past game's id and the board last kept with it.
        self.kept: tuple[str, str] | None = None

    @staticmethod
    def _local_storage() -> Any:
        try:
            return dom.LocalStorage(js.window.localStorage)
        except Exception:  # noqa: BLE001 - blocked storage raises on access
            return None

    @staticmethod
    def read_url_settings() -> dict[str, dict[str, Any]]:
        """The settings in the page's URL (?game=notakto&boards=1&vs=perfect)
        for the game it opens (``game``, else the route's), by game. Every
        ignored parameter is logged as a warning."""
        params = embed.query_params(str(js.location.search))
        shell_names = tuple(str(name) for name in shell.shellParams)
        route = shell.route()
        game = params.get("game") if params.get("game") in SPECS else route if isinstance(route, str) else None
        spec = SPECS.get(game or "")
        if spec is None:
            ignored = [name for name in params if name not in shell_names]
            if ignored:
                js.console.warn(f"URL parameters {ignored} set a game's settings, but no game is open: ignored")
            return {}
        settings, warnings = embed.settings_from_params(spec, params, shell_names)
        for warning in warnings:
            js.console.warn(warning)
        return {spec.game: settings}

    def advance_clock(self, ms: float) -> None:
        """Wall time moved on (the harness: the move clock's tests)."""
        self.clock_offset_ms += int(ms)

    @property
    def screen(self) -> GameScreen | None:
        return None if self.controller is None else self.controller.screen

    def command(self, act: Callable[[GameScreen], Change]) -> Callable[[Any], None]:
        """An event handler that runs a command on the open screen."""
        def handler(_event: Any) -> None:
            if self.controller is not None:
                self.controller.apply(act(self.controller.screen))
        return handler

    def start(self) -> None:
        shell.setLoading("games")
        on(by_id("new-game"), "click", self.command(lambda screen: screen.new_game()))
        on(by_id("swap"), "click", self.command(lambda screen: screen.swap()))
        on(by_id("undo"), "click", self.command(lambda screen: screen.undo()))
        on(by_id("resign"), "click", self.command(lambda screen: screen.resign()))
        on(by_id("confirm-yes"), "click", self.command(lambda screen: screen.answer(True)))
        on(by_id("confirm-no"), "click", self.command(lambda screen: screen.answer(False)))
        on(by_id("confirm"), "cancel", self.confirm_cancelled)
        on(by_id("settings"), "change", self.setting_changed)
        on(by_id("toggles"), "change", self.toggle_changed)
        on(by_id("board"), "click", self.board_click)
        self.touch = touch.install(by_id("board"))
        on(by_id("board"), "keydown", dom.grid_keys)
        for host in ("board-area", "review"):
            on(by_id(host), "keydown", self.review_key)
        for host in ("review", "review-live", "move-list", "archive"):
            on(by_id(host), "click", self.button_click)
        on(by_id("hint"), "click", self.command(lambda screen: screen.insight.ask_hint()))
        on(by_id("analyse"), "click", self.command(lambda screen: screen.insight.analyse()))
        on(by_id("analysis-cancel"), "click", self.command(lambda screen: screen.insight.cancel_analysis()))
        on(by_id("analysis-budget"), "change",
           lambda event: self.command(lambda screen: screen.insight.set_budget(str(event.target.value)))(event))
        on(by_id("analysis-graph-host"), "click", self.graph_click)
        on(by_id("archive-clear"), "click", self.command(lambda screen: screen.delete_all_past()))
        on(by_id("archive-more"), "click", self.command(lambda screen: screen.review.list_more_past()))
        on(by_id("explore-open"), "click", self.explore_open_click)
        explore = by_id("explore")
        on(explore, "click", self.explore_click)
        on(explore, "change", self.explore_change)
        on(explore, "keydown", self.explore_key)
        on(by_id("explore-board"), "keydown", dom.grid_keys)
        on(js.window, "storage", self.storage_event)
        on(self.portrait, "change", self.orientation_changed)
        shell.onRoute(create_proxy(dom.guarded(self.route)))
        shell.onLanguage(create_proxy(dom.guarded(lambda _lang: self.redraw())))
        self.dialogs = dialogs.install(self)
        self.route(shell.route())
        self.show_storage_notices()
        shell.ready()
        self.engine.start()
        asyncio.ensure_future(dom.guard(self.show_update_notice()))

    # -- the router ------------------------------------------------------------
    def route(self, game: Any) -> None:
        """Every way to a screen comes here: a link, the address bar, Back and
        Forward, the page's ``?game=``. The old screen is taken down and the
        new one built from its saved game; a link's settings
        (``#/hex?size=9``, ``#/hex/no-swap``) are applied as a player's."""
        game = game if isinstance(game, str) and game in SPECS else None  # JS null: the game list
        if game is None:
            self.unknown_game_link()
        params = embed.query_params(str(shell.routeQuery())) if game else {}
        payload = params.pop(transfer.SHARE_PARAM, None)
        shared = self.shared_game(game, payload)
        link = self.link_settings(game, params, payload is not None)
        if self.controller is None or self.controller.screen.game != game:
            self.close_screen()
            if game is None:
                return
            self.controller = ScreenController.open(self, SPECS[game], self.storage, self.tab_id, self.clock)
            link = {**self.url_settings.pop(game, {}), **link}
            self.controller.apply(self.controller.screen.apply_link_settings(link) | Change(EVERY))
        elif link:
            self.controller.apply(self.controller.screen.apply_link_settings(link))
        pending, self.pending_review = self.pending_review, None
        screen = self.controller.screen
        if shared is not None:
            if not screen.review.shows_link(shared):  # back from the guide, or Forward: as it was left
                self.controller.apply(screen.open_transferred(shared, LINK))
        elif pending is not None:
            self.controller.apply(screen.open_transferred(*pending))
        elif payload is None and screen.origin == LINK and not isinstance(shell.page(), str):  # JS null: no page
            # Back from a shared game's address to the game's own: the player's game.
            self.controller.apply(screen.back_to_live())
        elif payload is not None:  # a damaged link opened nothing: the address is the screen's again
            self.controller.apply(Change(frozenset({Part.REVIEW})))
        if shell.page() == "explore":
            self.open_explore(game)
        else:
            self.close_explore()

    def shared_game(self, game: str | None, payload: str | None) -> transfer.Transferred | None:
        """The game of a share link (``#/hex?g=…``), or None; a damaged link
        gets a notice that says what is wrong and opens nothing."""
        if game is None or payload is None:
            return None
        try:
            return transfer.read_share(game, payload)
        except transfer.TransferError as error:
            self.notices.show("link", error.message)
            return None

    def unknown_game_link(self) -> None:
        """A share link for a game this app does not have: the game list,
        and a notice saying why."""
        hash_text = str(js.location.hash)
        _, _, query = hash_text.partition("?")
        if hash_text.startswith("#/") and transfer.SHARE_PARAM in embed.query_params(query):
            self.notices.show("link", Msg("transfer.unknown_game", {"name": hash_text[2:].partition("?")[0]}))
            js.history.replaceState(None, "", "#/")

    def open_transferred(self, game: transfer.Transferred, origin: str) -> None:
        """Review a game that came as text; another game's screen opens first."""
        if self.controller is not None and self.controller.screen.game == game.game:
            self.controller.apply(self.controller.screen.open_transferred(game, origin))
            return
        self.pending_review = (game, origin)
        js.location.hash = f"#/{game.game}"

    def link_settings(self, game: str | None, params: dict[str, str], shared: bool) -> dict[str, Any]:
        """The settings of the route's link, with a console warning for each
        one ignored; the address becomes the game's plain route. A share
        link (``shared``) brings its game's own settings: the player's stay
        as they are, and the address keeps the link while its game is on
        screen (``review_view.ReviewView.address``)."""
        if game is None or shared:
            return {}
        variant = shell.variant()
        if isinstance(variant, str):
            params["swap"] = "1" if variant == "swap" else "0"
        if not params:
            return {}
        shell.showGameAddress(f"#/{game}")
        settings, warnings = embed.settings_from_params(SPECS[game], params)
        for warning in warnings:
            js.console.warn(warning)
        return settings

    # -- the analysis board ----------------------------------------------------------
    def open_explore(self, game: str) -> None:
        """The analysis board of the route's game: the one the game's
        screen asked for, else the one of the link (``?x=``), else the one
        last left, else an empty board with the game's settings. A damaged
        link says what is wrong and opens the board last left."""
        from ..model import records
        from ..model.explore import Exploration
        from .explore_panel import ExplorePanel, payload_of

        pending, self.pending_explore = self.pending_explore, None
        payload = embed.query_params(str(shell.pageQuery())).get(records.EXPLORE_PARAM)
        panel = self.explore
        if pending is None and panel is not None and panel.game == game and payload in (None, panel.payload()):
            panel.draw()
            return
        self.close_explore()
        left = self.explorations.get(game)
        if pending is None and payload is not None and (left is None or payload_of(left) != payload):
            left = self.explore_link(game, payload) or left  # a link, not the board last left (Back, a reload)
        screen = self.controller.screen if self.controller is not None else None
        assert screen is not None and screen.game == game
        board = pending or left
        if board is None:
            board = Exploration(SPECS[game].make_state(screen.play.next_settings()))
        self.explore = ExplorePanel(self, SPECS[game], board, dict(screen.settings))
        self.explore.draw()
        active = js.document.activeElement
        if not found(active) or active == js.document.body:
            by_id("explore-board").focus()  # the keys move through the tree at once (the shell focused no title)

    def explore_link(self, game: str, payload: str) -> Exploration | None:
        """The analysis board of a link's payload, or None with a notice
        saying what is wrong with it."""
        from ..model import records
        from ..model.explore import Exploration

        try:
            return Exploration.of_record(records.read_explore(game, payload))
        except ValueError as error:  # a TransferError, or a GameError the record's checks let through
            message = error.message if isinstance(error, transfer.TransferError) else Msg("transfer.damaged")
            self.notices.show("link", message)
            return None

    def close_explore(self) -> None:
        if self.explore is not None:
            self.explorations[self.explore.game] = self.explore.board
            self.explore.close()
            self.explore = None

    def explore_changed(self, panel: ExplorePanel) -> None:
        """The analysis board changed: it is the one to come back to, and
        the address holds it (a reload, a copied address, Back and Forward
        open it as it is)."""
        from ..model import records

        self.explorations[panel.game] = panel.board
        payload = panel.payload()
        home = panel.board.home
        if home is not None and self.kept != (home, payload) and self.screen is not None \
                and self.screen.game == panel.game:
            self.screen.play.store.archive.keep_exploration(home, payload)
            self.kept = (home, payload)  # an engine's answer changes no move: not read and written again
        if shell.page() == "explore" and shell.route() == panel.game:
            fragment = records.explore_fragment(panel.game, payload)
            if str(js.location.hash) != fragment:
                js.history.replaceState(js.history.state, "", fragment)

    def open_exploration(self, record: records.ExploreRecord) -> None:
        """An imported record on the analysis board of its game."""
        from ..model.explore import Exploration

        self.pending_explore = Exploration.of_record(record)
        if self.explore is not None and self.explore.game == record.game:
            self.open_explore(record.game)
        else:
            js.location.hash = f"#/{record.game}/explore"

    def explore_open_click(self, _event: Any) -> None:
        """"Analysis board" on a game's screen: the game on screen (live,
        past, shared or imported) as the board's main line, at the move
        shown; the game itself is not touched. A finished game's board is
        kept with it among the past games, and comes back from there."""
        screen = self.screen
        if screen is None:
            return
        from ..model.explore import Exploration

        home = screen.review.archived_id()
        archive = screen.play.store.archive
        kept = None if home is None else archive.exploration(home)
        self.pending_explore = Exploration.of_game(screen.shown.state, screen.shown_ply(), kept, home)
        js.location.hash = f"#/{screen.game}/explore"

    def explore_click(self, event: Any) -> None:
        panel = self.explore
        if panel is None:
            return
        target = event.target.closest("[data-explore], [data-path], [data-line-move], [data-move]")
        if not found(target) or target.getAttribute("aria-disabled") == "true" or target.hasAttribute("disabled"):
            return
        for name, act in (("data-explore", panel.command), ("data-path", panel.go),
                          ("data-line-move", panel.play_line), ("data-move", panel.cell)):
            value = target.getAttribute(name)
            if isinstance(value, str):
                act(value)
                if name == "data-move" and int(event.detail or 0) > 0:
                    # Clicked, not played from the keyboard: the arrows then
                    # move through the tree, not between the cells.
                    by_id("explore-board").focus()
                return

    def explore_change(self, event: Any) -> None:
        panel = self.explore
        target = event.target
        if panel is None:
            return
        toggle = target.getAttribute("data-explore-toggle")
        if isinstance(toggle, str):
            panel.toggle(toggle, bool(target.checked))
        choice = target.getAttribute("data-setup-choice")
        if isinstance(choice, str):
            panel.choose(choice, str(target.value))

    def explore_key(self, event: Any) -> None:
        """← → ↑ ↓ Home End move through the tree, except in a menu and on a
        cell of the board (there the arrows move between cells)."""
        if self.explore is None:
            return
        from .explore_panel import KEYS

        name = KEYS.get(str(event.key))
        target = event.target
        if (name is None or event.altKey or event.ctrlKey or event.metaKey
                or str(target.tagName).lower() in ("select", "input", "textarea")
                or found(target.closest("[data-move]"))):  # dom.grid_keys moves between the board's cells
            return
        event.preventDefault()
        self.explore.key(name)

    def close_screen(self) -> None:
        self.close_explore()
        if self.controller is not None:
            self.controller.close()
            self.controller = None
            self.board.clear()
            self.touch.clear()
            render.clear_screen()

    # -- delegated events ----------------------------------------------------------
    def board_click(self, event: Any) -> None:
        target = event.target.closest("[data-move]")
        if not found(target) or target.getAttribute("aria-disabled") == "true" or self.controller is None:
            return
        screen = self.controller.screen
        if not self.touch.wants_play(event, target, bool(screen.settings.get("confirm")), self.controller.position()):
            return
        self.controller.apply(screen.move(str(target.dataset.move)))

    def confirm_cancelled(self, event: Any) -> None:
        """Escape closed the question's dialog: the answer is no."""
        self.command(lambda screen: screen.answer(False))(event)

    def review_key(self, event: Any) -> None:
        """← → Home End step through the game in the board area and the
        review bar, unless a cell of the live board has the focus (the keys
        move between cells there, dom.grid_keys)."""
        step = STEP_KEYS.get(str(event.key))
        if step is None or self.controller is None or event.altKey or event.ctrlKey or event.metaKey:
            return
        screen = self.controller.screen
        if found(event.target.closest("[data-move]")) and not screen.reviewing:
            return
        event.preventDefault()
        self.controller.apply(STEPS[step](screen))
        active = js.document.activeElement
        if not found(active) or active == js.document.body:
            self.board.host.focus()

    def button_click(self, event: Any) -> None:
        """A button of the review bar (with "Back to the game", under it), the
        move list or the past games: its
        command is in one of its data attributes (BUTTON_COMMANDS)."""
        button = event.target.closest("button")
        if not found(button) or self.controller is None:
            return
        for name, command in BUTTON_COMMANDS.items():
            value = button.getAttribute(name)
            if isinstance(value, str):
                self.controller.apply(command(self.controller.screen, value))
                return

    def graph_click(self, event: Any) -> None:
        """A click on the analysis graph shows the position under it."""
        column = event.target.closest("[data-graph-ply]")
        if found(column) and self.controller is not None:
            ply = str(column.getAttribute("data-graph-ply"))
            if ply.isdigit():
                self.controller.apply(self.controller.screen.step_to(int(ply)))

    def setting_changed(self, event: Any) -> None:
        name = event.target.dataset.setting
        if self.controller is not None and isinstance(name, str):
            self.controller.apply(self.controller.screen.choose(name, str(event.target.value)))

    def toggle_changed(self, event: Any) -> None:
        name = event.target.dataset.toggle
        if self.controller is not None and isinstance(name, str):
            on = bool(event.target.checked)
            if name == SOUND_SETTING and on:
                shell.primeSound()  # in the click: browsers allow audio after a gesture
            self.controller.apply(self.controller.screen.toggle(name, on))

    def storage_event(self, event: Any) -> None:
        name = self.storage.name_of(event.key) if isinstance(event.key, str) else None
        kind, _, game = (name or "").partition("/")
        game = game.partition("/")[0]  # past/<game>/<id>
        if self.controller is not None and game == self.controller.screen.game and kind in ("stats", "save", "past"):
            self.controller.apply(self.controller.screen.other_tab_changed(kind))

    def redraw(self) -> None:
        self.notices.translate()
        if self.controller is not None:
            self.board.reset()  # every translated name on the board is redone
            insight_panel.ANALYSIS_DRAWN.clear()
            self.controller.apply(Change(EVERY))
        if self.explore is not None:
            self.explore.redraw()

    def orientation_changed(self, _event: Any) -> None:
        if self.controller is not None and self.controller.screen.spec.stands_upright:
            self.controller.apply(Change(frozenset({Part.BOARD})))
        if self.explore is not None and self.explore.spec.stands_upright:
            self.explore.draw()

    # -- page-wide -------------------------------------------------------------------
    async def show_update_notice(self) -> None:
        """A new version of the app took over with this load (the service
        worker's version changed; shell/offline.js compares)."""
        if await shell.updated:
            self.notices.show("updated", Msg("notice.updated"))

    def show_storage_notices(self) -> None:
        for notice in self.storage.take_notices():
            self.notices.show(f"storage-{notice.kind}", Msg(f"notice.{notice.kind}"))

    def announce(self, message: Msg) -> None:
        by_id("live").textContent = tr(message)


def harness_requested() -> bool:
    """Whether the end-to-end tests or the bench opened this page: they set
    ``window.appHarness = true`` before its scripts run. (Not a URL
    parameter: a player or an embedding page could set that.)"""
    return getattr(js.window, "appHarness", None) is True


def start() -> App:
    app = App()
    if harness_requested():
        from . import harness  # the harness's hooks and worker; never a player's

        harness.install(app)
    dom.guarded(app.start)()
    return app
