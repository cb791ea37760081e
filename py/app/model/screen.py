"""A game's screen as a pure model: a small coordinator over its parts,
each with its own commands, tests and view:

- ``play.Play``: the game being played and its settings (moves, undo,
  resigning, a new game, the save slot, the end of a game);
- ``clock.MoveClock``: a timed move's countdown and the time-out's note;
- ``takeover.Takeover``: the computer at the board (its requests, a seat
  handed over, the answer held while the player looks back);
- ``review.Review``: the game and the position on screen, the past games;
- ``insight.Insight``: the hint, the evaluation bar and the analysis.

What needs more than one part is here: whether the board takes moves,
questions asked before a game ends, going back to the live game, starting
another one. Standard library only (no ``js``), so every state a player can
reach is unit-tested under CPython (tests/app/test_screen.py). The page
opens one with ``open_screen`` each time a game's screen opens, draws
``screen_view.screen_view(screen)`` and forwards the player's events to the
commands; each returns a ``Change``: the parts to draw again, what to
announce, and what the page must do (tell an embedding page the game ended,
ask about a save conflict).

Anything that answers later carries the ``Ticket`` of the game and the
position it was asked for: ``computer_answer`` drops an answer whose game,
position or request is no longer the one on screen.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core import GameState

from . import transfer
from .change import NOTHING, Change, Ticket
from .clock import MoveClock
from .games import GameSpec
from .insight import Insight
from .keep import SOUND_SETTING, Saved, ScreenStore
from .parts import ALL, ARCHIVE, PLAY, Part
from .play import Play
from .review import PAST, Review
from .session import COMPUTER, TWO_PLAYER, GameSession
from .storage import Storage
from .takeover import ComputerRequest, Takeover
from .words import Msg


@dataclass(frozen=True)
class Confirm:
    """A question waiting for the player's yes or no, and what yes does."""

    question: Msg
    yes: Msg
    action: str  # a GameScreen method name: "resign_now", "resign_then_new", "start_new"


def open_screen(spec: GameSpec, storage: Storage, tab_id: str, clock: Callable[[], float],
                today: Callable[[], str], rng: random.Random | None = None) -> GameScreen:
    """A game's screen as the page's controller opens it: from what is kept
    (read here, not by the model), with a new game saved at once or the
    restored game's card drawn again."""
    store = ScreenStore(storage, spec.game, tab_id)
    saved = store.load(spec, clock)
    screen = GameScreen(spec, store, saved, clock, today, rng)
    screen.play.opened(restored=saved.session is not None)
    return screen


class GameScreen:
    """One game's screen. ``clock`` is wall time in seconds, ``today`` the
    local date (ISO) for the statistics' streaks."""

    def __init__(self, spec: GameSpec, store: ScreenStore, saved: Saved, clock: Callable[[], float],
                 today: Callable[[], str], rng: random.Random | None = None) -> None:
        self.spec = spec
        self.game = spec.game
        rng = rng or random.Random()
        self.play = Play(spec, store, saved, clock, today)
        self.move_clock = MoveClock()
        self.takeover = Takeover(self.play, rng)
        self.review = Review(self.play)
        self.insight = Insight(self.play, self.review, saved.budget, rng, self.interactive,
                               lambda: self.takeover.thinking)
        self.confirm: Confirm | None = None
        #: Whom "continue from here" plays against, while its question is asked.
        self.continue_as = TWO_PLAYER

    # -- state -----------------------------------------------------------------
    @property
    def session(self) -> GameSession:
        return self.play.session

    @property
    def settings(self) -> dict[str, Any]:
        return self.play.settings

    @property
    def thinking(self) -> bool:
        return self.takeover.thinking

    @property
    def reviewing(self) -> bool:
        return self.review.reviewing

    @property
    def shown(self) -> GameSession:
        return self.review.shown

    @property
    def origin(self) -> str:
        return self.review.origin

    def shown_ply(self) -> int:
        return self.review.shown_ply()

    def shown_state(self) -> GameState:
        return self.review.shown_state()

    def ticket(self) -> Ticket:
        return self.play.ticket()

    def interactive(self) -> bool:
        """Whether the board takes the player's moves now (never while the
        player looks at another position than the live one)."""
        session = self.play.session
        return (not self.reviewing and not self.thinking and not session.is_over()
                and not session.computer_to_move())

    def can_swap(self) -> bool:
        can = getattr(self.play.session.state, "can_swap", None)
        return self.interactive() and can is not None and bool(can())

    # -- the player's commands ---------------------------------------------------
    def move(self, text: str) -> Change:
        """A move from the board (or "swap"); ignored unless a human may move
        now (a stale click is harmless)."""
        return self.play.move(text) if self.interactive() else NOTHING

    def swap(self) -> Change:
        return self.move("swap")

    def undo(self) -> Change:
        return NOTHING if self.thinking or self.reviewing else self.play.undo()

    def resign(self) -> Change:
        if self.play.session.is_over():
            return NOTHING
        return self._ask(Msg("confirm.resign"), Msg("action.resign"), "resign_now")

    def new_game(self) -> Change:
        return self._unless_a_game_ends("abandon", Msg("action.new_game"), "resign_then_new", "start_new")

    def answer(self, yes: bool) -> Change:
        """The player's answer to the question on screen."""
        confirm, self.confirm = self.confirm, None
        if confirm is None:
            return NOTHING
        if not yes:
            return Change(frozenset({Part.CONFIRM}))
        return Change(frozenset({Part.CONFIRM})) | getattr(self, confirm.action)()

    def resign_now(self) -> Change:
        if self.play.session.is_over():
            return NOTHING
        change = self.play.resign()
        self.takeover.waiting = None
        return change

    def resign_then_new(self) -> Change:
        return self.resign_now() | self.start_new()

    def start_new(self) -> Change:
        change = self.play.start_new()
        self._leave_review()
        return change

    # -- settings ------------------------------------------------------------------
    def change_setting(self, name: str, value: Any) -> Change:
        """Before a human has moved, a change restarts the game at once (the
        same player starting, unless "who starts" itself changed); during a
        game it waits for the next one; after a game it simply applies."""
        return self.change_settings({name: value})

    def change_settings(self, changes: dict[str, Any]) -> Change:
        """``change_setting`` for several settings at once (a link's)."""
        before = self.play.session
        change = self.play.change_settings(changes)
        if self.play.session is not before:  # a new game: the computer's request is of the old one
            self.takeover.waiting = None
        return change

    def choose(self, name: str, text: str) -> Change:
        """A value picked in the settings form, as the menu's text: the
        board's orientation applies at once, the others to the next game."""
        chosen = self.play.chosen(name, text)
        if not chosen:
            return NOTHING
        if self.play.applies_now(name):
            return self.play.set_display(name, chosen[name])
        return self.change_settings(chosen)

    def apply_link_settings(self, settings: dict[str, Any]) -> Change:
        """Settings from a link (the page's URL, a route's parameters), as if
        the player had chosen them; those already in force change nothing."""
        return self.change_settings({name: value for name, value in settings.items()
                                     if self.play.next_settings().get(name) != value})

    def toggle(self, name: str, on: bool) -> Change:
        """A switch flipped: a display setting, the sound, or ``takeover-<seat>``."""
        kind, _, seat = name.partition("-")
        if kind == "takeover":
            return self.takeover.hand_over(int(seat), on) if seat in ("0", "1") else NOTHING
        if name == SOUND_SETTING:
            return self.play.set_sound(on)
        return self.play.set_display(name, on)

    # -- review ------------------------------------------------------------------
    def step_to(self, ply: int) -> Change:
        """Show the position after ``ply`` moves of the shown game. Reaching
        the end of the game being played is being back in it."""
        target = self.review.target(ply)
        if target is None:
            return NOTHING
        self.insight.better_at = None
        if self.review.is_live_end(target):
            return self.back_to_live()
        return self.review.show(target)

    def step(self, delta: int) -> Change:
        return self.step_to(self.shown_ply() + delta)

    def step_first(self) -> Change:
        return self.step_to(0)

    def step_last(self) -> Change:
        return self.step_to(len(self.shown.state.moves))

    def back_to_live(self) -> Change:
        """Back to the game being played, at its live position; the engine's
        answer that came meanwhile is played now."""
        if not self.reviewing:
            return NOTHING
        # The settings panel showed another game's settings, or the live game's all along.
        change = Change(ALL - {Part.STATS} - ({Part.SETTINGS} if self.review.reviewed is None else set()))
        self.review.leave()
        self.insight.better_at = None
        move = self.takeover.take_held()
        if move is not None:
            return change | self.play.computer_move(move)[2]
        return change

    def open_review(self, session: GameSession, origin: str) -> Change:
        """Open a game for review at its last move: a past game, or one that
        came by link or as text."""
        self.insight.better_at = None
        self.confirm = None  # a question about the game on screen no longer applies
        return self.review.open(session, origin)

    def show_better(self, ply: int) -> Change:
        """The position before move ``ply``, with the engine's better move
        marked on the board."""
        analysis = self.insight.shown_analysis()
        if analysis is None or analysis.better_move(ply) is None:
            return NOTHING
        change = self.step_to(ply - 1)
        self.insight.better_at = ply - 1
        return change | Change(PLAY | {Part.TOGGLES})

    def continue_here(self, opponent: str) -> Change:
        """Play on from the position on screen (``opponent``: COMPUTER, the
        computer then takes the side not to move, or TWO_PLAYER), asking
        first if that would end an unfinished game."""
        if self.review.reviewed is None or self.shown_state().is_over() or opponent not in (COMPUTER, TWO_PLAYER):
            return NOTHING
        self.continue_as = opponent
        return self._unless_a_game_ends("continue", Msg("action.continue"), "continue_after_resign", "continue_now")

    def continue_after_resign(self) -> Change:
        return self.resign_now() | self.continue_now()

    def continue_now(self) -> Change:
        """The reviewed position becomes the game being played (play.continue_from)."""
        if self.review.reviewed is None:
            return NOTHING
        state = self.shown_state().copy()
        change = self.play.continue_from(state, self.continue_as)
        self._leave_review()
        return change

    # -- past games, links and imports --------------------------------------------
    def open_past(self, game_id: str) -> Change:
        """Review a past game; a damaged one is set aside (the storage's
        notice says so) and the list drawn without it."""
        session = self.review.past_game(game_id)
        return Change(ARCHIVE) if session is None else self.open_review(session, PAST)

    def delete_past(self, game_id: str) -> Change:
        self.play.store.archive.delete(game_id)
        change = Change(ARCHIVE)
        if self.review.shows_past(game_id):
            change = change | self.back_to_live()
        return change

    def delete_all_past(self) -> Change:
        if not self.review.past_games():
            return NOTHING
        return self._ask(Msg("confirm.delete_all"), Msg("action.delete_all"), "delete_all_now")

    def delete_all_now(self) -> Change:
        self.play.store.archive.delete_all()
        change = Change(ARCHIVE)
        return change | self.back_to_live() if self.origin == PAST else change

    def open_transferred(self, game: transfer.Transferred, origin: str) -> Change:
        """Review a game that came by link or as text (``origin``: LINK or
        IMPORT); the game being played is not touched."""
        session = self.review.transferred(game)
        return NOTHING if session is None else self.open_review(session, origin)

    # -- the clock and the computer ----------------------------------------------
    def tick(self) -> Change:
        return self.move_clock.tick(self.play.session, self.thinking)

    def computer_request(self) -> ComputerRequest | None:
        return self.takeover.request(self.reviewing)

    def computer_answer(self, request: ComputerRequest, move: str) -> Change:
        """The engine's move for ``request``: played if the request is still
        the one this screen waits for, in the same game and position, and the
        computer is still to move there; otherwise dropped."""
        if not self.takeover.answered(request):
            return NOTHING
        if not self.takeover.still_wanted(request):
            return Change(ALL)
        if self.reviewing:  # the player looks back: the move waits for them
            self.takeover.held = (request, move)
            return Change(frozenset({Part.STATUS}))
        mover, timed_out, change = self.play.computer_move(move)
        if timed_out:  # a human seat moved by the computer: that player's time ran out
            self.move_clock.ran_out(self.play.session, mover)
        return change

    def computer_failed(self, request: ComputerRequest) -> Change:
        return self.takeover.failed_on(request)

    # -- other tabs ----------------------------------------------------------------
    def other_tab_changed(self, kind: str) -> Change:
        """Another tab wrote this game's statistics, past games or save slot."""
        if kind == "stats":
            return Change(frozenset({Part.STATS}))
        if kind == "past":
            self.play.store.archive.forget()
            return Change(ARCHIVE)
        if kind == "save" and self.play.store.slot.check():
            return Change(conflict=True)
        return NOTHING

    def take_over(self) -> Change:
        """Continue the other tab's game."""
        self.play.take_over()
        self._leave_review()
        return Change(ALL)

    def keep_mine(self) -> Change:
        return self.play.keep_mine()

    # -- inside ------------------------------------------------------------------------
    def _ask(self, question: Msg, yes: Msg, action: str) -> Change:
        self.confirm = Confirm(question, yes, action)
        return Change(frozenset({Part.CONFIRM}))

    def _unless_a_game_ends(self, question: str, yes: Msg, after_resigning: str, action: str) -> Change:
        """Do ``action`` (a method's name) at once if no unfinished game
        ends with it, else ask first (``confirm.<question>``). Against the
        computer the game counts as a loss then (``<question>_loss``: it is
        resigned before ``after_resigning`` does the rest), so that leaving
        a lost position is no way out of it."""
        session = self.play.session
        if session.is_over() or session.untouched():
            return getattr(self, action)()
        if session.mode.opponent == COMPUTER:
            return self._ask(Msg(f"confirm.{question}_loss"), yes, after_resigning)
        return self._ask(Msg(f"confirm.{question}"), yes, action)

    def _leave_review(self) -> None:
        self.move_clock.forget()
        self.insight.better_at = None
        self.review.leave()
        self.takeover.forget()
