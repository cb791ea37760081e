"""The browser layer: binds the page's events to game sessions and draws
them. The only module (with ``dom``) that touches ``js``; everything it
decides is delegated to the pure modules beside it (session, games, views,
stats, storage, saves), which are tested under CPython.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import random
import time
from typing import Any, Callable

import js
from pyodide.ffi import create_proxy

import ai
from core import GAMES, GameError, GameState, SaveError

from . import dom, embed
from .dom import element, on, report_error, tr
from .games import SPECS, GameSpec, split_opponent
from .saves import SaveResult, SaveSlot
from .session import COMPUTER, TWO_PLAYER, GameSession, Mode, new_id, next_home_seat
from .stats import load_stats, record_game, stats_view
from .storage import Storage
from .views import Msg

shell = js.window.appShell
# A short pause before the computer answers, so the player sees their own
# move land first (none when the player asked for reduced motion).
COMPUTER_PAUSE_S = 0.35
# A phone held upright (and any window as narrow and tall): Hex's rhombus
# then stands upright (views.hex_geometry), its cells larger than drawn
# wide (31 px instead of 23 for 11 x 11 on a 390 x 844 screen).
PORTRAIT_QUERY = "(orientation: portrait) and (max-width: 37.5em)"


def local_day() -> str:
    return datetime.date.fromtimestamp(js.Date.now() / 1000).isoformat()


# Whom a game-end sentence is about: the player who lost ("You closed the
# last live board") or who won ("You won three small boards in a line").
LOSER_REASONS = {"last_board_closed", "resignation"}


def reason_subject(outcome: Any) -> int | None:
    if outcome.winner is None:
        return None
    return 1 - outcome.winner if outcome.reason in LOSER_REASONS else outcome.winner


class Engine:
    """The AI, thinking in a Pyodide worker so the page never freezes.
    Started after the first board is interactive; until it is ready, a
    request waits for it."""

    def __init__(self) -> None:
        self.worker: Any = None
        self.failed = False
        self._ready = asyncio.get_event_loop().create_future()
        self._players: dict[str, Any] = {}  # without a worker: one engine per game, as the worker keeps

    def start(self) -> None:
        script = js.document.createElement("script")
        script.type = "py"
        script.setAttribute("worker", "")
        script.setAttribute("name", "ai")
        script.setAttribute("src", "./py/worker.py")
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


class Notices:
    """The bar of messages above the page: storage trouble, a game changed
    in another tab. Each is shown once and can be dismissed."""

    def __init__(self) -> None:
        self.host = js.document.getElementById("notices")
        self.shown: dict[str, Any] = {}

    def show(self, notice_id: str, message: Msg, actions: list[tuple[Msg, Callable[[], None]]] = ()) -> None:
        self.dismiss(notice_id)
        box = element("div", {"class": "notice", "role": "status", "data-testid": f"notice-{notice_id}"})
        text = element("p", {}, tr(message))
        box.append(text)
        for label, action in list(actions) + [(Msg("notice.dismiss"), lambda: None)]:
            button = element("button", {"type": "button"}, tr(label))

            def clicked(_event: Any, action: Callable[[], None] = action) -> None:
                self.dismiss(notice_id)
                action()

            on(button, "click", clicked)
            box.append(button)
        self.host.append(box)
        self.shown[notice_id] = (box, message)

    def dismiss(self, notice_id: str) -> None:
        shown = self.shown.pop(notice_id, None)
        if shown:
            shown[0].remove()


class GameScreen:
    """One game's screen: board, status, actions, settings, statistics."""

    def __init__(self, app: App, spec: GameSpec) -> None:
        self.app = app
        self.spec = spec
        self.game = spec.game
        self.slot = SaveSlot(app.storage, self.game, app.tab_id)
        stored = app.storage.read(f"settings/{self.game}", lambda data: isinstance(data, dict), {})
        self.settings = spec.validate(stored)
        # The home player's seat in the last game, for "who starts" to alternate.
        last = stored.get("last_home_seat")
        self.last_home_seat: int | None = last if last in (0, 1) and not isinstance(last, bool) else None
        self.session: GameSession | None = None
        self.thinking = False
        self.pending: dict[str, Any] = {}  # settings waiting for the next game
        self.confirm_action: Callable[[], None] | None = None

    # -- life cycle ----------------------------------------------------------
    def show(self) -> None:
        if self.session is None:
            restored = self.restore()
            self.session = restored or self.fresh_session()
            if restored is None:
                self.save()
            self.apply_url_settings(self.app.url_settings.pop(self.game, {}))
        self.render_all()
        self.maybe_computer()

    def restore(self) -> GameSession | None:
        payload = self.slot.load()
        if payload is None:
            return None
        try:
            return GameSession.from_dict(payload["game"], self.spec.levels, clock=self.app.clock)
        except (SaveError, GameError, KeyError, TypeError) as error:
            js.console.warn(f"{self.game}: the saved game could not be restored: {error}")
            self.app.storage.set_aside(self.slot.name)
            self.app.show_storage_notices()
            return None

    def fresh_session(self, home_seat: int | None = None) -> GameSession:
        """A new game with the current settings (pending ones included); the
        home player's seat follows "who starts" unless given."""
        settings = {**self.settings, **self.pending}
        self.settings = settings
        self.pending = {}
        opponent, level = split_opponent(settings["opponent"])
        if home_seat is None:
            home_seat = next_home_seat(settings["starts"], self.last_home_seat)
        state = self.spec.make_state(settings)
        session = GameSession(state, Mode(opponent, level, home_seat), clock=self.app.clock,
                              time_limit_s=int(settings.get("time", 0)))
        if settings.get("hints"):
            session.mark_assisted()
        return session

    def new_game(self) -> None:
        session = self.session
        if session is not None and not session.is_over() and not session.untouched():
            if session.mode.opponent == COMPUTER:
                self.ask(Msg("confirm.abandon_loss"), Msg("action.new_game"), self._resign_then_new)
            else:
                self.ask(Msg("confirm.abandon"), Msg("action.new_game"), self._start_new)
            return
        self._start_new()

    def _resign_then_new(self) -> None:
        assert self.session is not None
        self.session.resign()
        self.finish()
        self._start_new()

    def _start_new(self) -> None:
        if self.session is not None:
            self.remember_home_seat(self.session)
        self.session = self.fresh_session()
        self.thinking = False
        self.save()
        self.render_all()
        self.app.announce(Msg("announce.new_game"))
        self.maybe_computer()

    def remember_home_seat(self, session: GameSession) -> None:
        self.last_home_seat = session.mode.home_seat
        self.store_settings()

    def store_settings(self) -> None:
        """The settings the next game will use, and who started the last."""
        stored = {**self.settings, **self.pending, "last_home_seat": self.last_home_seat}
        self.app.storage.write(f"settings/{self.game}", stored)

    # -- moves -----------------------------------------------------------------
    def human_move(self, text: str) -> None:
        session = self.session
        if session is None or self.thinking or session.is_over() or session.computer_to_move():
            return
        try:
            session.play(text)
        except GameError as error:
            # The board only offers legal cells; a stale click is harmless.
            js.console.warn(f"{self.game}: {error}")
            return
        self.after_move(session.state.turn ^ 1)

    def after_move(self, mover: int, timed_out: bool = False) -> None:
        session = self.session
        assert session is not None
        move = session.state.moves[-1]
        key = self.who_key(mover, "announce.timeout" if timed_out else "announce.move")
        self.app.announce(Msg(key, {"player": self.player_name(mover), "move": self.describe(move)}))
        if session.is_over():
            self.finish()
            self.render_stats()
        else:
            self.save()
        self.render_play()
        self.maybe_computer()

    def describe(self, move: int) -> Msg:
        assert self.session is not None
        return self.spec.describe(self.session.state, move)

    def computer_should_move(self, session: GameSession) -> bool:
        """The computer's seat is to move, or a human's time ran out (then
        the computer moves for them)."""
        return session.computer_to_move() or session.time_ran_out()

    def maybe_computer(self) -> None:
        session = self.session
        if session is not None and self.computer_should_move(session) and not self.thinking and self.app.route == self.game:
            if session.time_ran_out():
                session.mark_assisted()  # the computer moves for a player
                self.render_status()
            asyncio.ensure_future(dom.guard(self.computer_turn()))

    async def computer_turn(self) -> None:
        session = self.session
        assert session is not None
        token = (session.game_id, len(session.state.moves))
        self.thinking = True
        self.render_status()
        try:
            if not js.window.matchMedia("(prefers-reduced-motion: reduce)").matches:
                await asyncio.sleep(COMPUTER_PAUSE_S)
            level = session.mode.level or self.spec.levels[-1]
            move = await self.app.engine.choose_move(session.state.copy(), level, random.getrandbits(31))
        finally:
            self.thinking = False
        if self.session is not session or (session.game_id, len(session.state.moves)) != token:
            self.render_all()  # the game changed while the computer thought
            return
        if not self.computer_should_move(session):
            self.render_all()
            return
        mover = session.state.turn
        session.play(move)
        # A human seat moved by the computer: that player's time ran out.
        self.after_move(mover, timed_out=not session.is_computer_seat(mover))

    def undo(self) -> None:
        session = self.session
        if session is None or self.thinking or session.is_over() or not session.can_undo():
            return
        session.undo()
        self.save()
        self.render_all()
        self.app.announce(Msg("announce.undo"))

    def resign(self) -> None:
        session = self.session
        if session is None or session.is_over():
            return
        self.ask(Msg("confirm.resign"), Msg("action.resign"), self._resign)

    def _resign(self) -> None:
        assert self.session is not None
        self.session.resign()
        self.finish()
        self.render_all()

    def finish(self) -> None:
        """Record the finished game (once, even across tabs) and clear the
        unfinished-game slot."""
        session = self.session
        assert session is not None
        record = session.record(local_day(), self.spec.rating(session.mode.level))
        if record is not None:
            levels = self.spec.levels
            index = levels.index(session.mode.level) if record.opponent_level in levels else None
            record_game(self.app.storage, record, level_index=index, level_count=len(levels))
        self.remember_home_seat(session)
        self.slot.clear()
        self.app.show_storage_notices()
        outcome = session.outcome()
        assert outcome is not None
        shell.notifyParent(json.dumps(embed.gameover_message(self.game, outcome, session.mode)))

    def save(self) -> None:
        assert self.session is not None
        if self.slot.save(self.session.to_dict()) == SaveResult.CONFLICT:
            self.show_conflict()
        self.app.show_storage_notices()

    def show_conflict(self) -> None:
        self.app.notices.show(
            f"conflict-{self.game}",
            Msg("notice.conflict", {"game": Msg(f"games.{self.game}.name")}),
            [(Msg("notice.take_over"), self.take_over), (Msg("notice.keep_mine"), self.keep_mine)],
        )

    def take_over(self) -> None:
        self.slot.take_over()
        restored = self.restore()
        self.session = restored or self.fresh_session()
        self.thinking = False
        self.render_all()
        self.maybe_computer()

    def keep_mine(self) -> None:
        if self.session is not None:
            self.slot.force_save(self.session.to_dict())

    def other_tab_changed(self, what: str) -> None:
        if what == "stats":
            self.render_stats()
        elif what == "save" and self.slot.check():
            self.show_conflict()

    # -- confirmation ----------------------------------------------------------
    def ask(self, question: Msg, yes: Msg, action: Callable[[], None]) -> None:
        self.confirm_action = action
        js.document.getElementById("confirm-text").textContent = tr(question)
        yes_button = js.document.getElementById("confirm-yes")
        yes_button.textContent = tr(yes)
        js.document.getElementById("confirm").hidden = False
        yes_button.focus()

    def answer(self, yes: bool) -> None:
        action, self.confirm_action = self.confirm_action, None
        js.document.getElementById("confirm").hidden = True
        if yes and action is not None:
            action()

    # -- words -------------------------------------------------------------------
    def who(self, seat: int) -> str:
        """"you", "computer" or "player": which grammar a sentence about this
        seat needs."""
        assert self.session is not None
        mode = self.session.mode
        if mode.opponent == COMPUTER:
            return "you" if seat == mode.home_seat else "computer"
        return "player"

    def who_key(self, seat: int, prefix: str) -> str:
        return f"{prefix}.{self.who(seat)}"

    def player_name(self, seat: int) -> Msg:
        assert self.session is not None
        number = 1 if seat == self.session.mode.home_seat else 2
        return Msg("player.numbered", {"number": number})

    # -- drawing -----------------------------------------------------------------
    def render_all(self) -> None:
        self.render_play()
        self.render_settings()
        self.render_toggles()
        self.render_stats()

    def render_play(self) -> None:
        """What a move changes (kept small: it runs on the main thread after
        every move)."""
        self.render_board()
        self.render_status()
        self.render_result()
        self.render_moves()

    def hints(self) -> frozenset[int]:
        session = self.session
        if not (self.settings.get("hints") and self.spec.safe_moves and session) or session.is_over():
            return frozenset()
        if session.is_computer_seat(session.state.turn):
            return frozenset()
        return frozenset(self.spec.safe_moves(session.state))

    def render_board(self) -> None:
        session = self.session
        assert session is not None
        interactive = not self.thinking and not session.is_over() and not session.computer_to_move()
        tree = self.spec.view(session.state, interactive=interactive, safe_moves=self.hints(), **self.view_options())
        self.app.board.render(tree)
        hint_text = js.document.getElementById("hint-text")
        if self.settings.get("hints") and interactive:
            count = len(self.hints())
            hint_text.textContent = tr(Msg("hint.none") if count == 0 else Msg("hint.some", {"count": count}))
            hint_text.hidden = False
        else:
            hint_text.hidden = True

    def view_options(self) -> dict[str, Any]:
        """Display settings the board view takes (coordinates on a toggle),
        and whether the screen is a narrow portrait one."""
        options = {name: self.settings[name] for name in self.spec.view_settings}
        if self.spec.stands_upright:
            options["tall"] = self.app.portrait.matches
        return options

    def render_status(self) -> None:
        session = self.session
        assert session is not None
        status = js.document.getElementById("status")
        turn = session.state.turn
        if session.is_over():
            message = Msg("status.over")
        elif self.thinking or session.computer_to_move():
            if session.mode.opponent == COMPUTER and turn != session.mode.home_seat:
                message = Msg("status.computer_thinking")
            else:
                message = Msg(self.who_key(turn, "status.computer_plays_for"), {"player": self.player_name(turn)})
        else:
            mark = self.spec.seat_mark(turn) if self.spec.seat_mark else None
            key = "status.turn_mark" if mark else "status.turn"
            message = Msg(self.who_key(turn, key), {"player": self.player_name(turn), "mark": mark or ""})
        human_turn = not (session.is_over() or self.thinking or session.computer_to_move())
        can_swap = getattr(session.state, "can_swap", None)
        js.document.getElementById("swap").hidden = not (human_turn and can_swap is not None and can_swap())
        status.textContent = tr(message)
        status.dataset.turn = str(turn)
        detail = js.document.getElementById("status-detail")
        detail_message = None if session.is_over() or self.spec.detail is None else self.spec.detail(session.state)
        detail.textContent = tr(detail_message) if detail_message else ""
        detail.hidden = detail_message is None
        self.render_clock()
        busy = self.thinking or session.computer_to_move()
        js.document.getElementById("undo").disabled = busy or session.is_over() or not session.can_undo()
        js.document.getElementById("resign").disabled = session.is_over()
        js.document.getElementById("new-game").disabled = False

    def render_clock(self) -> None:
        """The countdown of a timed move (hidden without a time limit)."""
        session = self.session
        clock = js.document.getElementById("clock")
        left = None if session is None else session.time_left_ms()
        if left is None:
            clock.hidden = True
            return
        seconds = max(0, -(-left // 1000))  # whole seconds, rounded up
        text = f"{seconds // 60}:{seconds % 60:02d}"
        clock.textContent = text
        clock.setAttribute("aria-label", tr(Msg("clock.label", {"time": text})))
        clock.classList.toggle("low", seconds <= 10)
        clock.hidden = False

    def tick(self) -> None:
        """Four times a second: the countdown, and the computer's move for a
        player whose time ran out."""
        session = self.session
        if session is None or not session.time_limit_s or session.is_over():
            return
        self.render_clock()
        if session.time_ran_out() and not self.thinking:
            self.render_status()
            self.maybe_computer()

    def render_result(self) -> None:
        session = self.session
        assert session is not None
        box = js.document.getElementById("result")
        outcome = session.outcome()
        if outcome is None:
            box.hidden = True
            return
        if outcome.winner is None:
            headline = Msg("result.draw")
        elif session.mode.opponent == COMPUTER:
            headline = Msg("result.win" if outcome.winner == session.mode.home_seat else "result.loss")
        else:
            headline = Msg("result.player_wins", {"player": self.player_name(outcome.winner)})
        subject = reason_subject(outcome)
        name = self.spec.reason_names.get(outcome.reason, outcome.reason)
        if subject is None:
            reason = Msg(f"reason.{name}")
        else:
            reason = Msg(self.who_key(subject, f"reason.{name}"), {"player": self.player_name(subject)})
        js.document.getElementById("result-text").textContent = tr(headline)
        js.document.getElementById("result-reason").textContent = tr(reason)
        box.dataset.winner = "none" if outcome.winner is None else str(outcome.winner)
        box.hidden = False

    def render_moves(self) -> None:
        session = self.session
        assert session is not None
        items = [element("li", {}, text) for text in session.state.move_texts()]
        js.document.getElementById("move-list").replaceChildren(*items)

    def render_settings(self) -> None:
        form = js.document.getElementById("settings")
        controls = []
        for choice in self.spec.choices:
            if choice.applies != "next":
                continue
            value = self.pending.get(choice.name, self.settings[choice.name])
            controls.append(dom.select_control(choice, value, self.opponent_aware_label, self.change_setting))
        if self.pending:
            controls.append(element("p", {"class": "small", "data-testid": "settings-next"}, tr(Msg("settings.next_game"))))
        form.replaceChildren(*controls)

    def opponent_aware_label(self, choice_name: str, value: Any) -> Msg:
        """``starts`` names the players as the chosen opponent does."""
        if choice_name == "starts" and value in ("home", "away"):
            opponent = split_opponent(self.pending.get("opponent", self.settings["opponent"]))[0]
            return Msg(f"starts.{value}.{'two_player' if opponent == TWO_PLAYER else 'computer'}")
        choice = next(c for c in self.spec.choices if c.name == choice_name)
        if choice_name == "size":
            return Msg(f"size.{self.game}", {"size": value})
        if choice_name == "opponent":
            kind, level = split_opponent(value)
            return Msg("opponent.two_player") if kind == TWO_PLAYER else Msg(f"level.{self.game}.{level}")
        return Msg(f"{choice.value_labels}.{str(value).lower()}")

    def change_setting(self, name: str, value: Any) -> None:
        """Before a human has moved, a change restarts the game at once (the
        same player starting, unless "who starts" itself changed); during a
        game it waits for the next one; after a game it simply applies."""
        self.change_settings({name: value})

    def change_settings(self, changes: dict[str, Any], render: bool = True) -> None:
        """``change_setting`` for several settings at once; with ``render``
        False the caller draws."""
        session = self.session
        if session is not None and not session.is_over() and not session.untouched():
            self.pending.update(changes)
            self.store_settings()
            if render:
                self.render_settings()
            return
        self.settings.update(changes)
        self.store_settings()
        if session is not None and not session.is_over():
            seat = next_home_seat(changes["starts"], self.last_home_seat) if "starts" in changes else session.mode.home_seat
            self.session = self.fresh_session(seat)
            self.thinking = False
            self.save()
        if render:
            self.render_all()
            self.maybe_computer()

    def apply_url_settings(self, settings: dict[str, Any]) -> None:
        """The settings of the page's URL (already validated), as if the
        player had chosen them: an untouched game restarts with them, a game
        in progress keeps going and the next one uses them."""
        changes = {name: value for name, value in settings.items() if self.pending.get(name, self.settings[name]) != value}
        if changes:
            self.change_settings(changes, render=False)

    def render_toggles(self) -> None:
        session = self.session
        assert session is not None
        toggles = []
        hints_choice = next((c for c in self.spec.choices if c.name == "hints"), None)
        if hints_choice is not None:
            toggles.append(dom.checkbox("hints", Msg("settings.hints"), bool(self.settings.get("hints")), self.toggle_hints))
        if "coordinates" in self.spec.view_settings:
            toggles.append(dom.checkbox("coordinates", Msg("settings.coordinates"), bool(self.settings.get("coordinates")),
                                        self.toggle_coordinates))
        for seat in (session.mode.home_seat, 1 - session.mode.home_seat):
            if session.mode.opponent == COMPUTER and seat != session.mode.home_seat:
                continue
            label = Msg(self.who_key(seat, "takeover"), {"player": self.player_name(seat)})
            toggles.append(dom.checkbox(f"takeover-{seat}", label, session.takeover[seat],
                                        lambda on, seat=seat: self.toggle_takeover(seat, on)))
        js.document.getElementById("toggles").replaceChildren(*toggles)

    def toggle_hints(self, on: bool) -> None:
        self.settings["hints"] = on
        self.store_settings()
        if on and self.session is not None and not self.session.is_over():
            self.session.mark_assisted()
            self.save()
        self.render_board()

    def toggle_coordinates(self, on: bool) -> None:
        self.settings["coordinates"] = on
        self.store_settings()
        self.render_board()

    def choose_variant(self, variant: str) -> None:
        """A variant picked from the game list (``#/hex/swap``): the swap
        rule on or off, like the setting."""
        if "swap" in self.settings and variant in ("swap", "no-swap"):
            wanted = variant == "swap"
            if self.pending.get("swap", self.settings["swap"]) != wanted:
                self.change_setting("swap", wanted)

    def toggle_takeover(self, seat: int, on: bool) -> None:
        session = self.session
        if session is None:
            return
        session.set_takeover(seat, on)
        self.save()
        self.render_all()
        self.maybe_computer()

    def render_stats(self) -> None:
        view = stats_view(load_stats(self.app.storage, self.game), local_day())
        dash = tr(Msg("stats.none"))
        rows = [
            ("games", shell.formatNumber(view["games"])),
            ("wins", shell.formatNumber(view["wins"])),
            ("win_rate", dash if view["win_rate"] is None else shell.formatPercent(view["win_rate"])),
            ("fastest_win", dash if view["fastest_win_ms"] is None else shell.formatDuration(view["fastest_win_ms"])),
            ("fewest_moves", dash if view["fewest_moves"] is None else shell.formatNumber(view["fewest_moves"])),
            ("best_score", dash if view["best_score"] is None else shell.formatNumber(view["best_score"])),
            ("current_streak", tr(Msg("stats.days", {"count": view["current_streak"]}))),
            ("best_streak", tr(Msg("stats.days", {"count": view["best_streak"]}))),
            ("rating", dash if view["rating"] is None else shell.formatNumber(view["rating"])),
        ]
        children = []
        for name, value in rows:
            children.append(element("dt", {}, tr(Msg(f"stats.{name}"))))
            children.append(element("dd", {"data-testid": f"stat-{name}"}, str(value)))
        js.document.getElementById("stats").replaceChildren(*children)


class App:
    """The page: routes, language, storage, the engine, notices."""

    def __init__(self) -> None:
        # Wall time; the end-to-end tests move it forward (appAdvanceClock)
        # instead of waiting for a 30 s move clock.
        self.clock_offset_ms = 0
        self.clock = lambda: (js.Date.now() + self.clock_offset_ms) / 1000
        self.tab_id = new_id()
        self.storage = Storage(self._local_storage())
        self.notices = Notices()
        self.engine = Engine()
        self.screens = {game: GameScreen(self, spec) for game, spec in SPECS.items()}
        self.board = dom.BoardView(js.document.getElementById("board"))
        #: A narrow portrait screen (a phone held upright): boards that can
        #: stand upright do (``GameSpec.stands_upright``).
        self.portrait = js.window.matchMedia(PORTRAIT_QUERY)
        self.route: str | None = None
        self.url_settings = self.read_url_settings()

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

    @property
    def screen(self) -> GameScreen | None:
        return self.screens.get(self.route or "")

    def start(self) -> None:
        shell.setLoading("games")
        on(js.document.getElementById("new-game"), "click", lambda _e: self.screen and self.screen.new_game())
        on(js.document.getElementById("result-new-game"), "click", lambda _e: self.screen and self.screen.new_game())
        on(js.document.getElementById("swap"), "click", lambda _e: self.screen and self.screen.human_move("swap"))
        on(js.document.getElementById("undo"), "click", lambda _e: self.screen and self.screen.undo())
        on(js.document.getElementById("resign"), "click", lambda _e: self.screen and self.screen.resign())
        on(js.document.getElementById("confirm-yes"), "click", lambda _e: self.screen and self.screen.answer(True))
        on(js.document.getElementById("confirm-no"), "click", lambda _e: self.screen and self.screen.answer(False))
        board = js.document.getElementById("board")
        on(board, "click", self.board_click)
        on(board, "keydown", dom.grid_keys)
        on(js.window, "storage", self.storage_event)
        on(self.portrait, "change", self.orientation_changed)
        self._tick = create_proxy(dom.guarded(lambda: self.screen and self.screen.tick()))
        js.setInterval(self._tick, 250)
        shell.onRoute(create_proxy(dom.guarded(self.set_route)))
        shell.onLanguage(create_proxy(dom.guarded(lambda _lang: self.redraw())))
        self.embed_dialog = EmbedDialog(self)
        self.set_route(shell.route())
        self.show_storage_notices()
        shell.ready()
        self.engine.start()
        asyncio.ensure_future(dom.guard(self.show_update_notice()))

    def set_route(self, game: Any) -> None:
        self.route = None if game is None else str(game)
        screen = self.screen
        # Another game's board: draw afresh.
        self.board.reset()
        if screen is None:
            return
        variant = shell.variant()
        if variant is not None:
            # The variant link has done its work: the route becomes the game's.
            js.history.replaceState(None, "", f"#/{self.route}")
        screen.show()
        if variant is not None:
            screen.choose_variant(str(variant))

    def redraw(self) -> None:
        for notice_id, (_box, message) in list(self.notices.shown.items()):
            self.notices.shown[notice_id][0].querySelector("p").textContent = tr(message)
        if self.screen is not None:
            self.board.reset()  # every translated name on the board is redone
            self.screen.render_all()

    def orientation_changed(self, _event: Any) -> None:
        screen = self.screen
        if screen is not None and screen.spec.stands_upright and screen.session is not None:
            screen.render_board()

    def board_click(self, event: Any) -> None:
        target = event.target.closest("[data-move]")
        if target is None or target.getAttribute("aria-disabled") == "true" or self.screen is None:
            return
        self.screen.human_move(str(target.dataset.move))

    def storage_event(self, event: Any) -> None:
        name = self.storage.name_of(event.key) if event.key is not None else None
        if name is None:
            return
        kind, _, game = name.partition("/")
        screen = self.screens.get(game)
        if screen is not None and kind in ("stats", "save"):
            screen.other_tab_changed(kind)

    async def show_update_notice(self) -> None:
        """A new version of the app took over with this load (the service
        worker's version changed; boot.js compares)."""
        if await shell.updated:
            self.notices.show("updated", Msg("notice.updated"))

    def show_storage_notices(self) -> None:
        for notice in self.storage.take_notices():
            self.notices.show(f"storage-{notice.kind}", Msg(f"notice.{notice.kind}"))

    def announce(self, message: Msg) -> None:
        live = js.document.getElementById("live")
        live.textContent = tr(message)


class EmbedDialog:
    """The "Embed" dialog: the iframe code for the game on screen with its
    settings and the current language, and a button that copies it. The
    code is the value of a textarea: text, never markup in this page."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.dialog = js.document.getElementById("embed-dialog")
        self.code = js.document.getElementById("embed-code")
        self.status = js.document.getElementById("embed-status")
        opener = js.document.getElementById("embed-open")
        on(opener, "click", lambda _e: self.open())
        on(js.document.getElementById("embed-copy"), "click", lambda _e: asyncio.ensure_future(dom.guard(self.copy())))
        on(js.document.getElementById("embed-close"), "click", lambda _e: self.dialog.close())
        opener.disabled = False

    def open(self) -> None:
        screen = self.app.screen
        if screen is None:
            return
        params = embed.params_from_settings(screen.spec, {**screen.settings, **screen.pending})
        url = embed.embed_url(str(js.location.origin) + str(js.location.pathname), screen.game, params, str(shell.lang))
        title = f"{tr(Msg(f'games.{screen.game}.name'))} · {tr(Msg('app.name'))}"
        self.code.value = embed.iframe_code(url, title)
        self.status.textContent = ""
        self.dialog.showModal()
        self.code.select()

    async def copy(self) -> None:
        try:
            await js.navigator.clipboard.writeText(self.code.value)
        except Exception:  # noqa: BLE001 - no clipboard here, or not allowed
            self.code.select()
            self.status.textContent = tr(Msg("embed.copy_failed"))
            return
        self.status.textContent = tr(Msg("embed.copied"))


def expose_self_checks(app: App) -> None:
    """The engines' self-check, on the page and in the worker, for the
    end-to-end tests (they compare it with CPython's), and the bench hooks."""

    def page_check() -> str:
        import selfcheck

        return json.dumps(selfcheck.run())

    async def worker_check() -> str:
        await app.engine.ready()
        return str(await app.engine.worker.self_check())

    def advance_clock(ms: float) -> None:
        app.clock_offset_ms += int(ms)

    js.window.appSelfCheck = create_proxy(page_check)
    js.window.appAdvanceClock = create_proxy(advance_clock)
    js.window.appWorkerSelfCheck = create_proxy(lambda: asyncio.ensure_future(worker_check()))

    # Bench hooks for tools/bench.py (`make bench`), JSON in and out; the app
    # never calls them. appBench: the worker's own timing of the engines (its
    # bench_moves). appBenchRoundTrip: what a player waits for, timed on this
    # thread around Engine.choose_move exactly as computer_turn calls it (JSON,
    # messaging, the worker's work; not the deliberate COMPUTER_PAUSE_S).
    async def worker_bench(request_json: str) -> str:
        await app.engine.ready()
        if app.engine.worker is None:
            return json.dumps({"error": "the AI worker did not start"})
        return str(await app.engine.worker.bench_moves(request_json))

    async def round_trip_bench(request_json: str) -> str:
        """{"cases": [{"game": <save dict>, "level": str}], "seed": int,
        "warmup": int, "repeats": int} -> {"results": [{"samples": [s]}]}
        or {"error": message}. Call i of a case uses seed ``seed + i``; the
        cases take turns, as in the worker's bench_moves."""
        await app.engine.ready()
        if app.engine.worker is None:
            return json.dumps({"error": "the AI worker did not start"})
        request = json.loads(request_json)
        seed, warmup, repeats = int(request["seed"]), int(request["warmup"]), int(request["repeats"])
        cases = [(GAMES[case["game"]["game"]].from_dict(case["game"]), case["level"]) for case in request["cases"]]
        samples: list[list[float]] = [[] for _ in cases]
        for index in range(warmup + repeats):
            for (state, level), kept in zip(cases, samples):
                start = time.perf_counter()
                await app.engine.choose_move(state.copy(), level, seed + index)
                if index >= warmup:
                    kept.append(time.perf_counter() - start)
        return json.dumps({"results": [{"samples": kept} for kept in samples]})

    # appBenchWorker: any bench_* export of the worker. appMemory: both
    # interpreters' WebAssembly memory (their heaps), once the worker is ready.
    async def worker_call(name: str, request_json: str) -> str:
        await app.engine.ready()
        if app.engine.worker is None or not name.startswith("bench_"):
            return json.dumps({"error": f"no worker bench function {name!r}"})
        return str(await getattr(app.engine.worker, name)(request_json))

    async def memory() -> str:
        import pyodide_js

        worker = json.loads(await worker_call("bench_memory", "{}"))
        return json.dumps({"main_wasm_bytes": int(pyodide_js._module.HEAPU8.length), "worker_wasm_bytes": worker.get("wasm_bytes")})

    js.window.appBenchWorker = create_proxy(lambda name, request: asyncio.ensure_future(worker_call(str(name), str(request))))
    js.window.appMemory = create_proxy(lambda: asyncio.ensure_future(memory()))
    js.window.appBench = create_proxy(lambda request: asyncio.ensure_future(worker_bench(str(request))))
    js.window.appBenchRoundTrip = create_proxy(lambda request: asyncio.ensure_future(round_trip_bench(str(request))))


def start() -> App:
    app = App()
    expose_self_checks(app)
    dom.guarded(app.start)()
    return app
