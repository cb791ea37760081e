"""A game's screen as a pure model: the session, the settings, whether the
computer is thinking and the clock, and the player's commands.

Standard library only (no ``js``), so every state a player can reach is
unit-tested under CPython (tests/app/test_screen.py). The browser layer builds
one ``GameScreen`` each time a game's screen opens (from its saved game),
draws ``screen_view.screen_view(screen)`` and forwards the player's events
to the commands here; each command returns a ``Change``: the parts of the
screen to draw again, what to announce, and what the page must do (tell an
embedding page the game ended, ask about a save conflict).

Anything that answers later carries the ``Ticket`` of the game and the
position it was asked for: ``computer_answer`` drops an answer whose game,
position or request is no longer the one on screen.
"""

from __future__ import annotations

import functools
import random

import ai
from dataclasses import dataclass
from typing import Any, Callable

from core import GameError, GameState, SaveError
from core.base import FIRST

from . import transfer
from .analysis import BUDGETS, DEFAULT_BUDGET, EVAL_SECONDS, EVAL_SEED, HINT_SECONDS, GameAnalysis, Verdict
from .archive import Archive, PastGame
from .games import GameSpec, split_opponent
from .parts import ALL, ARCHIVE, INSIGHT, PLAY, Part
from .saves import SaveResult, SaveSlot, write_preview
from .session import COMPUTER, TWO_PLAYER, GameSession, Mode, next_home_seat, player_name, takeover_seats, who
from .stats import record_game
from .storage import Storage
from .words import Msg

# What the engine is asked besides the computer's moves (app/model/analysis.py):
# a hint for the player to move, a position of a game being analysed, the
# evaluation bar's position.
HINT, ANALYSE, EVALUATE = "hint", "analyse", "evaluate"
INSIGHT_OF = {HINT: frozenset({Part.HINT, Part.BOARD}), ANALYSE: frozenset({Part.ANALYSIS, Part.MOVES, Part.EVAL}),
              EVALUATE: frozenset({Part.EVAL})}
# The past games listed at first, and how many more each "show more" adds.
PAST_PAGE = 20
# Where a game under review comes from: the game being played, the past
# games of this browser, a shared link, pasted or loaded text.
LIVE, PAST, LINK, IMPORT = "live", "past", "link", "import"


# The sounds a change can ask for (played only when the sound setting is on;
# boot.js makes them): the player's move, the computer's, and the end of a
# game, won, lost, or neither (a draw, two people).
MOVE_SOUND, COMPUTER_SOUND = "move", "computer"
WIN_SOUND, LOSS_SOUND, END_SOUND = "win", "loss", "end"
# The app's one sound setting (a storage name of its own, not a game's).
SOUND_SETTING = "sound"
# The analysis' budget per position (app-wide, remembered).
BUDGET_SETTING = "analysis_budget"
# The evaluations remembered per screen (positions), the oldest forgotten first.
EVAL_CACHE = 400


@dataclass(frozen=True)
class Change:
    """What a command changed: ``parts`` to draw again, a sentence for
    screen readers, the game that ended with it if one did (its statistics
    are already recorded; it may no longer be the screen's game, when a new
    one was started at once), whether another tab's save needs the player's
    choice, and the sounds of what happened, in order (a move played, a
    game ended; never a redraw, a step through a game or a restored save)."""

    parts: frozenset[Part] = frozenset()
    announce: Msg | None = None
    finished: GameSession | None = None
    conflict: bool = False
    sounds: tuple[str, ...] = ()

    def __or__(self, other: Change) -> Change:
        return Change(self.parts | other.parts, other.announce or self.announce,
                      self.finished or other.finished, self.conflict or other.conflict, self.sounds + other.sounds)


NOTHING = Change()


@dataclass(frozen=True)
class Ticket:
    """The game and position a delayed answer belongs to: the game's id and
    its moves (the move count alone would not tell a position reached again
    after an undo from another one)."""

    game_id: str
    moves: tuple[int, ...]

    @property
    def ply(self) -> int:
        return len(self.moves)


@dataclass(frozen=True)
class ComputerRequest:
    """A move asked of the engine: for ``state`` (a copy), at ``level``."""

    ticket: Ticket
    state: GameState
    level: str
    seed: int


@dataclass(frozen=True)
class EngineTask:
    """A position sent to the worker's analysis (``analyse``): for a hint,
    an analysis or the evaluation bar. ``position`` identifies it whatever
    the game's id (``position_key``); ``ticket`` is the live game's when
    the task is a hint; ``target`` the game analysis the answer fills."""

    kind: str
    position: tuple[Any, ...]
    state: GameState
    seconds: float
    seed: int
    ply: int = 0
    ticket: Ticket | None = None
    target: GameAnalysis | None = None
    #: Keeps ``target`` where its game's analysis is kept (after each answer).
    keep: Callable[[], None] | None = None
    #: In an analysis, the move the game went on with (judged by the same search).
    played: str | None = None


def result_verdict(state: GameState) -> Verdict:
    """A finished position's value: its result, as the worker would say it."""
    return Verdict.from_reply(ai.result_reply(state))


def position_key(state: GameState) -> tuple[Any, ...]:
    """A position as the engine sees it: the game, its settings, the moves."""
    return state.game, tuple(sorted(state.settings().items())), tuple(state.moves)


@dataclass(frozen=True)
class Confirm:
    """A question waiting for the player's yes or no, and what yes does."""

    question: Msg
    yes: Msg
    action: str  # a GameScreen method name: "resign_now", "resign_then_new", "start_new"


@dataclass(frozen=True)
class Reviewed:
    """A game on screen for review that is not the one being played (a past
    game, a link's, an import's), with where it came from."""

    session: GameSession
    origin: str  # PAST, LINK or IMPORT


def settings_name(game: str) -> str:
    return f"settings/{game}"


class GameScreen:
    """One game's screen. ``clock`` is wall time in seconds, ``today`` the
    local date (ISO) for the statistics' streaks."""

    def __init__(self, spec: GameSpec, storage: Storage, tab_id: str, clock: Callable[[], float],
                 today: Callable[[], str], rng: random.Random | None = None) -> None:
        self.spec = spec
        self.game = spec.game
        self.storage = storage
        self.clock = clock
        self.today = today
        self.rng = rng or random.Random()
        self.slot = SaveSlot(storage, self.game, tab_id)
        self.archive = Archive(storage, self.game)
        #: How many past games the list shows (the newest first).
        self.past_listed = PAST_PAGE
        stored = storage.read(settings_name(self.game), lambda data: isinstance(data, dict), {})
        self.settings = spec.validate(stored)
        #: Settings chosen during a game, for the next one.
        self.pending = self._valid_pending(stored.get("pending"))
        last = stored.get("last_home_seat")
        #: The home player's seat in the last game, for "who starts" to alternate.
        self.last_home_seat: int | None = last if last in (0, 1) and not isinstance(last, bool) else None
        #: The sounds of moves and game ends (one setting for the whole app).
        self.sound: bool = storage.read(SOUND_SETTING, lambda data: isinstance(data, bool), False)
        self.confirm: Confirm | None = None
        #: The request the engine is working on for this screen, if any.
        self.waiting: ComputerRequest | None = None
        #: The position where the engine failed: not asked again there.
        self.failed: Ticket | None = None
        #: Review: the game shown if not the one being played, and the
        #: position shown (moves from the start; None: the game's end, or
        #: the live position of the game being played).
        self.reviewed: Reviewed | None = None
        self.cursor: int | None = None
        #: The engine's answer that arrived while the player looked back,
        #: played when they return to the game.
        self.held: tuple[ComputerRequest, str] | None = None
        #: The engine's analysis: the task out at the worker (one at a time),
        #: the verdicts known by position, the hint asked for the live
        #: position (its ticket, then its verdict), the game being analysed
        #: (the shown one's, with where its results are kept), and the
        #: position whose better move the board marks in review.
        self.task: EngineTask | None = None
        self.verdicts: dict[tuple[Any, ...], Verdict] = {}
        self.unanswered: set[tuple[Any, ...]] = set()
        self.hint_for: Ticket | None = None
        self.hinted: Verdict | None = None
        self.hint_failed = False
        self.analysis: GameAnalysis | None = None
        self.analysis_of: GameSession | None = None
        self.analysis_home: str | None = None
        self.analysis_failed = False
        self.better_at: int | None = None
        self.link_analyses: dict[tuple[Any, ...], GameAnalysis] = {}
        budget = storage.read(BUDGET_SETTING, lambda data: data in BUDGETS, DEFAULT_BUDGET)
        self.budget: float = budget
        #: Whom "continue from here" plays against, while its question is asked.
        self.continue_as = TWO_PLAYER
        #: A human's time ran out and the computer moved for them: the
        #: position after that move and what it was (shown until they move).
        self.timed_out: tuple[int, int, int] | None = None  # (ply of the move, seat, move)
        restored = self._restore()
        self.session = restored or self._fresh_session()
        if restored is None:
            self.save()
        else:  # a game saved before the game list drew previews gets one too
            self._write_preview()

    def _valid_pending(self, pending: Any) -> dict[str, Any]:
        if not isinstance(pending, dict):
            return {}
        valid = self.spec.validate(pending)
        return {choice.name: valid[choice.name] for choice in self.spec.choices
                if choice.applies == "next" and choice.name in pending and valid[choice.name] == pending[choice.name]
                and valid[choice.name] != self.settings[choice.name]}

    # -- state -----------------------------------------------------------------
    @property
    def thinking(self) -> bool:
        return self.waiting is not None

    def ticket(self) -> Ticket:
        return Ticket(self.session.game_id, tuple(self.session.state.moves))

    def next_settings(self) -> dict[str, Any]:
        """The settings the next game will use (pending ones included)."""
        return {**self.settings, **self.pending}

    def needs_computer(self) -> bool:
        """The computer's seat is to move, or a human's time ran out (then
        the computer moves for them)."""
        session = self.session
        return session.computer_to_move() or session.time_ran_out()

    def interactive(self) -> bool:
        """Whether the board takes the player's moves now (never while the
        player looks at another position than the live one)."""
        session = self.session
        return (not self.reviewing and not self.thinking and not session.is_over()
                and not session.computer_to_move())

    # -- review ------------------------------------------------------------------
    @property
    def reviewing(self) -> bool:
        """Another position than the live game's is on screen."""
        return self.reviewed is not None or self.cursor is not None

    @property
    def shown(self) -> GameSession:
        """The game on screen: the one reviewed, else the one being played."""
        return self.reviewed.session if self.reviewed is not None else self.session

    @property
    def origin(self) -> str:
        return LIVE if self.reviewed is None else self.reviewed.origin

    def shown_ply(self) -> int:
        """How many moves of the shown game the board shows."""
        total = len(self.shown.state.moves)
        return total if self.cursor is None else self.cursor

    def shown_state(self) -> GameState:
        """The position on screen (a replay up to the cursor)."""
        state = self.shown.state
        if self.cursor is None or self.cursor == len(state.moves):
            return state
        replay = state.from_settings(state.settings())
        for move in state.moves[:self.cursor]:
            replay.push(move)
        return replay

    def step_to(self, ply: int) -> Change:
        """Show the position after ``ply`` moves of the shown game. Reaching
        the end of the game being played is being back in it."""
        total = len(self.shown.state.moves)
        ply = max(0, min(total, ply))
        if ply == self.shown_ply() and (self.reviewing or ply == total):
            return NOTHING
        self.better_at = None
        if ply == total and self.reviewed is None:
            return self.back_to_live()
        self.cursor = ply
        return Change(PLAY | {Part.TOGGLES})

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
        change = Change(ALL - {Part.STATS, Part.SETTINGS})
        self.reviewed = None
        self.cursor = None
        self.better_at = None
        held, self.held = self.held, None
        if held is not None:
            request, move = held
            if request.ticket == self.ticket() and self.needs_computer():
                mover = self.session.state.turn
                self.session.play(move)
                return change | self._after_move(mover, COMPUTER_SOUND,
                                                 timed_out=not self.session.is_computer_seat(mover))
        return change

    def review(self, session: GameSession, origin: str) -> Change:
        """Open a game for review at its last move: a past game, or one that
        came by link or as text (two people, no computer: ``session.mode``
        says who played)."""
        self.reviewed = Reviewed(session, origin)
        self.cursor = None
        self.better_at = None
        self.confirm = None  # a question about the game on screen no longer applies
        return Change(PLAY | {Part.TOGGLES, Part.CONFIRM})

    def continue_here(self, opponent: str) -> Change:
        """Play on from the position on screen (``opponent``: COMPUTER, the
        computer then takes the side not to move, or TWO_PLAYER), asking
        first if that would end an unfinished game."""
        if self.reviewed is None or self.shown_state().is_over() or opponent not in (COMPUTER, TWO_PLAYER):
            return NOTHING
        self.continue_as = opponent
        return self._unless_a_game_ends("continue", Msg("action.continue"), "continue_after_resign", "continue_now")

    def continue_after_resign(self) -> Change:
        return self.resign_now() | self.continue_now()

    def continue_now(self) -> Change:
        """The reviewed position becomes the game being played; the player
        to move there is the home player. It counts, but as a game begun by
        someone else it sets no record (assisted)."""
        if self.reviewed is None:
            return NOTHING
        state = self.shown_state().copy()
        opponent = self.continue_as
        kind, level = split_opponent(self.next_settings()["opponent"])
        if opponent == COMPUTER and kind != COMPUTER:
            level = self.spec.entry.levels.default
        mode = Mode(opponent, level if opponent == COMPUTER else "", state.turn)
        self._remember_home_seat(self.session)
        self.session = GameSession(state, mode, clock=self.clock, time_limit_s=int(self.settings.get("time", 0)),
                                   assisted=True)
        self._leave_review()
        return self.save() | Change(ALL, Msg("announce.continued"))

    def safe_moves(self) -> frozenset[int]:
        """Notakto's "show safe moves" hint for the human to move, if on."""
        session = self.session
        if not (self.settings.get("hints") and self.spec.safe_moves) or session.is_over():
            return frozenset()
        if session.is_computer_seat(session.state.turn):
            return frozenset()
        return frozenset(self.spec.safe_moves(session.state))

    # -- the engine's view: hints, the evaluation bar, analysis -------------------
    @property
    def has_hint(self) -> bool:
        """The games whose engine gives a hint (Notakto's hint is its
        "show safe moves" setting)."""
        return self.spec.safe_moves is None

    def can_hint(self) -> bool:
        return self.has_hint and self.interactive()

    def ask_hint(self) -> Change:
        """The engine's best move for the player to move, marked on the
        board (not played). The game counts, but as an assisted one."""
        if not self.can_hint() or (self.hint_for == self.ticket() and not self.hint_failed):
            return NOTHING
        self.hint_for, self.hinted, self.hint_failed = self.ticket(), None, False
        self.session.mark_assisted()
        return self.save() | Change(frozenset({Part.HINT}))

    def hint_thinking(self) -> bool:
        return self.hint_for == self.ticket() and self.hinted is None and not self.hint_failed and not self.reviewing

    def live_hint(self) -> Verdict | None:
        """The hint for the live position, once the engine has given it."""
        if self.reviewing or self.hint_for != self.ticket():
            return None
        return self.hinted

    def shown_verdict(self) -> Verdict | None:
        """What the engine knows of the position on screen: the analysis'
        verdict, an evaluation's or a hint's, or the end of the game."""
        state = self.shown_state()
        if state.is_over():
            return result_verdict(state)
        analysis = self.shown_analysis()
        if analysis is not None and analysis.verdicts[self.shown_ply()] is not None:
            return analysis.verdicts[self.shown_ply()]
        return self.verdicts.get(position_key(state))

    def marked_move(self) -> str | None:
        """The move the board marks as the engine's: the live hint, or in
        review the better move the player asked to see."""
        hint = self.live_hint()
        if hint is not None:
            return hint.move
        if self.reviewing and self.better_at is not None and self.better_at == self.shown_ply():
            verdict = self.shown_verdict()
            return None if verdict is None else verdict.move
        return None

    def show_better(self, ply: int) -> Change:
        """The position before move ``ply``, with the engine's better move
        marked on the board."""
        analysis = self.shown_analysis()
        if analysis is None or analysis.better_move(ply) is None:
            return NOTHING
        change = self.step_to(ply - 1)
        self.better_at = ply - 1
        return change | Change(PLAY | {Part.TOGGLES})

    def can_analyse(self) -> bool:
        """A finished game, or one opened for review (a past game, a link's,
        an import's): never the unfinished game being played."""
        shown = self.shown
        return bool(shown.state.moves) and (self.reviewed is not None or shown.is_over())

    def shown_analysis(self) -> GameAnalysis | None:
        """The analysis of the game on screen, loaded from where it is kept
        the first time it is asked for; None when there is none yet."""
        if not self.can_analyse():
            return None
        if self.analysis_of is not self.shown:
            self.analysis_home = self._archived_id()
            self.analysis_of, self.analysis, self.analysis_failed = self.shown, self._load_analysis(), False
        return self.analysis

    def _archived_id(self) -> str | None:
        """The past game's id under which the shown game's analysis is kept
        (a finished live game is a past game too), or None (a link's, an
        import's: kept while the screen is open)."""
        if self.reviewed is None or self.reviewed.origin == PAST:
            return self.shown.game_id
        return None

    def _load_analysis(self) -> GameAnalysis | None:
        moves = tuple(self.shown.state.move_texts())
        game_id = self.analysis_home
        if game_id is None:
            return self.link_analyses.get(position_key(self.shown.state))
        return GameAnalysis.from_dict(self.archive.analysis(game_id), moves)

    def _keep_analysis(self, analysis: GameAnalysis, session: GameSession, archived_id: str | None) -> None:
        if archived_id is None:
            self.link_analyses[position_key(session.state)] = analysis
        else:
            self.archive.keep_analysis(archived_id, analysis.to_dict())

    def analyse(self) -> Change:
        """Analyse every position of the game on screen at the chosen
        budget, or go on with an analysis left unfinished (after a reload,
        too); a finished one at another budget is done again."""
        if not self.can_analyse():
            return NOTHING
        analysis = self.shown_analysis()
        moves = tuple(self.shown.state.move_texts())
        if analysis is None or (analysis.complete and analysis.budget != self.budget):
            analysis = GameAnalysis.empty(moves, self.budget)
            if self.shown.state.is_over():  # the game's end is its result, not the engine's
                analysis.verdicts[-1] = result_verdict(self.shown.state)
        elif analysis.complete:
            return NOTHING
        analysis.budget = self.budget
        analysis.running = True
        self.analysis, self.analysis_failed = analysis, False
        self._keep_analysis(analysis, self.shown, self.analysis_home)
        return Change(frozenset({Part.ANALYSIS}))

    def cancel_analysis(self) -> Change:
        """Stop analysing; what is done stays, and can be resumed."""
        analysis = self.shown_analysis()
        if analysis is None or not analysis.running:
            return NOTHING
        analysis.running = False
        return Change(frozenset({Part.ANALYSIS}))

    def set_budget(self, text: str) -> Change:
        """The analysis' budget per position, picked in its menu (seconds)."""
        value = next((budget for budget in BUDGETS if str(budget) == text), None)
        if value is None:
            return NOTHING
        self.budget = value
        self.storage.write(BUDGET_SETTING, value)
        return Change(frozenset({Part.ANALYSIS}))

    def engine_task(self) -> EngineTask | None:
        """The next position to send to the worker's analysis, one at a time:
        the hint the player waits for, then the next position of the game
        being analysed, then the evaluation bar's position; None when
        nothing is wanted or a task is already out."""
        if self.task is not None:
            return None
        seed = self.rng.getrandbits(31)
        if self.hint_thinking() and self.interactive():
            state = self.session.state.copy()
            self.task = EngineTask(HINT, position_key(state), state, HINT_SECONDS, seed, ticket=self.ticket())
            return self.task
        analysis = self.shown_analysis()
        if analysis is not None and analysis.running:
            ply = analysis.next_ply()
            if ply is None:
                analysis.running = False
            else:
                state = self.shown.state.from_settings(self.shown.state.settings())
                for move in self.shown.state.moves[:ply]:
                    state.push(move)
                keep = functools.partial(self._keep_analysis, analysis, self.shown, self.analysis_home)
                played = analysis.moves[ply] if ply < len(analysis.moves) else None
                self.task = EngineTask(ANALYSE, position_key(state), state, analysis.budget, seed, ply,
                                       target=analysis, keep=keep, played=played)
                return self.task
        if (self.settings.get("eval") and self.shown_verdict() is None
                and position_key(self.shown_state()) not in self.unanswered):
            if not self.reviewing and (self.thinking or self.needs_computer()):
                return None  # the position is about to change
            state = self.shown_state().copy()
            self.task = EngineTask(EVALUATE, position_key(state), state, EVAL_SECONDS, EVAL_SEED, self.shown_ply())
            return self.task
        return None

    def engine_reply(self, task: EngineTask, reply: Any) -> Change:
        """The worker's verdict on ``task``'s position: kept for that
        position, and shown if it still belongs to what is on screen (a
        hint to the live position it was asked for, an analysis to its own
        game). A reply that is not a verdict counts as a failure."""
        if task is not self.task:
            return NOTHING
        try:
            verdict = Verdict.from_reply(reply)
        except ValueError:
            return self.engine_failed(task)
        self.task = None
        if len(self.verdicts) >= EVAL_CACHE:
            self.verdicts.pop(next(iter(self.verdicts)))
        self.verdicts[task.position] = verdict
        if task.kind == HINT and task.ticket == self.hint_for:
            self.hinted = verdict
        elif task.kind == ANALYSE and task.target is not None and task.target.verdicts[task.ply] is None:
            analysis = task.target
            analysis.verdicts[task.ply] = verdict
            if analysis.complete:
                analysis.running = False
            if task.keep is not None:
                task.keep()
        parts = INSIGHT_OF[task.kind] | ({Part.BOARD, Part.HINT} if self.better_at is not None else set())
        return Change(parts | ({Part.EVAL} if task.position == position_key(self.shown_state()) else set()))

    def engine_failed(self, task: EngineTask) -> Change:
        """The worker could not answer: the hint or the analysis stops, and
        says so; the evaluation bar stays empty for that position."""
        if task is not self.task:
            return NOTHING
        self.task = None
        if task.kind == HINT and task.ticket == self.hint_for:
            self.hint_failed = True
        elif task.kind == ANALYSE and task.target is not None:
            task.target.running = False
            if task.target is self.analysis:
                self.analysis_failed = True
        else:
            self.unanswered.add(task.position)  # not asked again while the screen is open
        return Change(INSIGHT)

    # -- the player's commands ---------------------------------------------------
    def move(self, text: str) -> Change:
        """A move from the board (or "swap"); ignored unless a human may move
        now (a stale click is harmless)."""
        if not self.interactive():
            return NOTHING
        try:
            self.session.play(text)
        except GameError:
            return NOTHING
        return self._after_move(self.session.state.turn ^ 1, MOVE_SOUND)

    def swap(self) -> Change:
        return self.move("swap")

    def can_swap(self) -> bool:
        can = getattr(self.session.state, "can_swap", None)
        return self.interactive() and can is not None and bool(can())

    def undo(self) -> Change:
        session = self.session
        if self.thinking or self.reviewing or session.is_over() or not session.can_undo():
            return NOTHING
        session.undo()
        return self.save() | Change(ALL, Msg("announce.undo"))

    def resign(self) -> Change:
        if self.session.is_over():
            return NOTHING
        return self._ask(Msg("confirm.resign"), Msg("action.resign"), "resign_now")

    def new_game(self) -> Change:
        return self._unless_a_game_ends("abandon", Msg("action.new_game"), "resign_then_new", "start_new")

    def _unless_a_game_ends(self, question: str, yes: Msg, after_resigning: str, action: str) -> Change:
        """Do ``action`` (a method's name) at once if no unfinished game
        ends with it, else ask first (``confirm.<question>``). Against the
        computer the game counts as a loss then (``<question>_loss``: it is
        resigned before ``after_resigning`` does the rest), so that leaving
        a lost position is no way out of it."""
        session = self.session
        if session.is_over() or session.untouched():
            return getattr(self, action)()
        if session.mode.opponent == COMPUTER:
            return self._ask(Msg(f"confirm.{question}_loss"), yes, after_resigning)
        return self._ask(Msg(f"confirm.{question}"), yes, action)

    def answer(self, yes: bool) -> Change:
        """The player's answer to the question on screen."""
        confirm, self.confirm = self.confirm, None
        if confirm is None:
            return NOTHING
        if not yes:
            return Change(frozenset({Part.CONFIRM}))
        return Change(frozenset({Part.CONFIRM})) | getattr(self, confirm.action)()

    def resign_now(self) -> Change:
        if self.session.is_over():
            return NOTHING
        self.session.resign()
        self.waiting = None
        return self._finish() | Change(ALL)

    def resign_then_new(self) -> Change:
        return self.resign_now() | self.start_new()

    def start_new(self) -> Change:
        self._remember_home_seat(self.session)
        self.session = self._fresh_session()
        self._leave_review()
        return self.save() | Change(ALL, Msg("announce.new_game"))

    def change_setting(self, name: str, value: Any) -> Change:
        """Before a human has moved, a change restarts the game at once (the
        same player starting, unless "who starts" itself changed); during a
        game it waits for the next one; after a game it simply applies."""
        return self.change_settings({name: value})

    def change_settings(self, changes: dict[str, Any]) -> Change:
        """``change_setting`` for several settings at once (a link's)."""
        valid = self.spec.validate(changes)
        changes = {name: value for name, value in changes.items() if name in valid and valid[name] == value}
        if not changes:
            return NOTHING
        session = self.session
        if not session.is_over() and not session.untouched():
            self.pending.update(changes)
            for name in [name for name, value in self.pending.items() if self.settings[name] == value]:
                del self.pending[name]
            self._store_settings()
            return Change(frozenset({Part.SETTINGS}))
        self.settings.update(changes)
        for name in changes:
            self.pending.pop(name, None)
        self._store_settings()
        if session.is_over():
            return Change(frozenset({Part.SETTINGS}))
        seat = next_home_seat(changes["starts"], self.last_home_seat) if "starts" in changes else session.mode.home_seat
        self.session = self._fresh_session(seat)
        self.waiting = None
        return self.save() | Change(ALL)

    def choose(self, name: str, text: str) -> Change:
        """A value picked in the settings form, as the menu's text."""
        choice = next((c for c in self.spec.choices if c.name == name and c.applies == "next"), None)
        by_text = {str(value): value for value in choice.values} if choice else {}
        return self.change_setting(name, by_text[text]) if text in by_text else NOTHING

    def toggle(self, name: str, on: bool) -> Change:
        """A switch flipped: a display setting, the sound, or ``takeover-<seat>``."""
        kind, _, seat = name.partition("-")
        if kind == "takeover":
            return self.set_takeover(int(seat), on) if seat in ("0", "1") else NOTHING
        if name == SOUND_SETTING:
            return self.set_sound(on)
        return self.set_display(name, on)

    def set_sound(self, on: bool) -> Change:
        """The sounds on or off, for every game (remembered)."""
        self.sound = on
        self.storage.write(SOUND_SETTING, on)
        return Change(frozenset({Part.TOGGLES}))

    def apply_link_settings(self, settings: dict[str, Any]) -> Change:
        """Settings from a link (the page's URL, a route's parameters), as if
        the player had chosen them; those already in force change nothing."""
        return self.change_settings({name: value for name, value in settings.items()
                                     if self.next_settings().get(name) != value})

    def set_display(self, name: str, on: bool) -> Change:
        """A setting that applies at once: Notakto's hints, coordinates. A
        hint marks the game assisted (it counts, but sets no record)."""
        if name not in self.settings or any(c.name == name and c.applies == "next" for c in self.spec.choices):
            return NOTHING
        self.settings[name] = on
        self._store_settings()
        if name == "red_blue":  # the game list's card draws the stones in these colours too
            self._write_preview()
        # The colours' names are in the status and the move list too.
        change = Change(frozenset({Part.BOARD, Part.TOGGLES, Part.EVAL} | ({Part.MOVES} if name == "red_blue" else set())))
        if name in ("hints", "eval") and on and not self.session.is_over():
            self.session.mark_assisted()
            change = change | self.save()
        return change

    def set_takeover(self, seat: int, on: bool) -> Change:
        """Hand a human seat to the computer, or take it back."""
        if seat not in takeover_seats(self.session.mode):
            return NOTHING
        self.session.set_takeover(seat, on)
        return self.save() | Change(ALL)

    # -- past games, links and imports --------------------------------------------
    def past_games(self) -> list[PastGame]:
        return self.archive.entries()

    def list_more_past(self) -> Change:
        self.past_listed += PAST_PAGE
        return Change(ARCHIVE)

    def open_past(self, game_id: str) -> Change:
        """Review a past game; a damaged one is set aside (the storage's
        notice says so) and the list drawn without it."""
        session = self.archive.open(game_id, self.spec.levels, clock=self.clock)
        if session is None:
            return Change(ARCHIVE)
        return self.review(session, PAST)

    def delete_past(self, game_id: str) -> Change:
        self.archive.delete(game_id)
        change = Change(ARCHIVE)
        if self.reviewed is not None and self.reviewed.origin == PAST and self.reviewed.session.game_id == game_id:
            change = change | self.back_to_live()
        return change

    def delete_all_past(self) -> Change:
        if not self.past_games():
            return NOTHING
        return self._ask(Msg("confirm.delete_all"), Msg("action.delete_all"), "delete_all_now")

    def delete_all_now(self) -> Change:
        self.archive.delete_all()
        change = Change(ARCHIVE)
        return change | self.back_to_live() if self.origin == PAST else change

    def open_transferred(self, game: transfer.Transferred, origin: str) -> Change:
        """Review a game that came by link or as text (``origin``: LINK or
        IMPORT); the game being played is not touched."""
        if game.game != self.game:
            return NOTHING
        return self.review(GameSession(game.state, Mode(TWO_PLAYER, "", FIRST), resigned=game.resigned,
                                       clock=self.clock), origin)

    def share_payload(self) -> str:
        """The shown game as a link's payload (every move, its result)."""
        return transfer.share_payload(self.shown.state, self.shown.resigned)

    def export_text(self) -> str:
        return transfer.export_text(self.shown.state, self.shown.resigned)

    # -- the clock and the computer ----------------------------------------------
    def tick(self) -> Change:
        """Four times a second while a move is timed: the countdown, and the
        status when the time has run out (the computer then moves)."""
        session = self.session
        if not session.time_limit_s or session.is_over():
            return NOTHING
        if session.time_ran_out() and not self.thinking:
            return Change(frozenset({Part.CLOCK, Part.STATUS, Part.BOARD}))
        return Change(frozenset({Part.CLOCK}))

    def computer_request(self) -> ComputerRequest | None:
        """The engine's next task for this screen, or None (nothing to do, or
        a request is already out). A human seat whose time ran out is played
        by the computer: the game becomes assisted."""
        if (self.thinking or self.reviewing or self.session.is_over() or not self.needs_computer()
                or self.failed == self.ticket()):
            return None
        session = self.session
        # The computer about to move for a human (handed over, or out of
        # time): the game is no longer the player's own result.
        if session.time_ran_out() or session.takeover[session.state.turn]:
            session.mark_assisted()
        level = session.mode.level or self.spec.levels[-1]
        self.waiting = ComputerRequest(self.ticket(), session.state.copy(), level, self.rng.getrandbits(31))
        return self.waiting

    def computer_answer(self, request: ComputerRequest, move: str) -> Change:
        """The engine's move for ``request``: played if the request is still
        the one this screen waits for, in the same game and position, and the
        computer is still to move there; otherwise dropped."""
        if request is not self.waiting:
            return NOTHING
        self.waiting = None
        if request.ticket != self.ticket() or not self.needs_computer():
            return Change(ALL)
        if self.reviewing:  # the player looks back: the move waits for them
            self.held = (request, move)
            return Change(frozenset({Part.STATUS}))
        mover = self.session.state.turn
        self.session.play(move)
        # A human seat moved by the computer: that player's time ran out.
        timed_out = not self.session.is_computer_seat(mover)
        if timed_out:
            state = self.session.state
            self.timed_out = (len(state.moves), mover, state.moves[-1])
        return self._after_move(mover, COMPUTER_SOUND, timed_out=timed_out)

    def computer_failed(self, request: ComputerRequest) -> Change:
        if request is self.waiting:
            self.waiting = None
            self.failed = request.ticket
            return Change(PLAY)
        return NOTHING

    # -- other tabs ----------------------------------------------------------------
    def other_tab_changed(self, kind: str) -> Change:
        """Another tab wrote this game's statistics, past games or save slot."""
        if kind == "stats":
            return Change(frozenset({Part.STATS}))
        if kind == "past":
            self.archive.forget()
            return Change(ARCHIVE)
        if kind == "save" and self.slot.check():
            return Change(conflict=True)
        return NOTHING

    def take_over(self) -> Change:
        """Continue the other tab's game."""
        self.slot.take_over()
        self.session = self._restore() or self._fresh_session()
        self._leave_review()
        return Change(ALL)

    def keep_mine(self) -> Change:
        if self.slot.force_save(self.session.to_dict()) == SaveResult.SAVED:
            self._write_preview()
        return NOTHING

    # -- inside ------------------------------------------------------------------------
    def _ask(self, question: Msg, yes: Msg, action: str) -> Change:
        self.confirm = Confirm(question, yes, action)
        return Change(frozenset({Part.CONFIRM}))

    def _after_move(self, mover: int, sound: str, timed_out: bool = False) -> Change:
        """A move was just played (``sound``: by a player, or by the computer)."""
        session = self.session
        move = session.state.moves[-1]
        key = "announce.timeout" if timed_out else "announce.move"
        if move == getattr(session.state, "swap_move", None):
            key = "announce.swap"
        announce = Msg(f"{key}.{who(session.mode, mover)}",
                       {"player": player_name(session.mode, mover), "move": self.spec.describe(session.state, move)})
        change = Change(PLAY, announce, sounds=(sound,))
        if session.is_over():
            return change | self._finish() | Change(frozenset({Part.STATS}))
        return change | self.save()

    def _finish(self) -> Change:
        """Record the finished game (once, even across tabs) and clear the
        unfinished-game slot."""
        session = self.session
        record = session.record(self.today(), self.spec.rating(session.mode.level))
        if record is not None:
            levels = self.spec.levels
            index = levels.index(session.mode.level) if record.opponent_level in levels else None
            record_game(self.storage, record, level_index=index, level_count=len(levels))
            self.archive.add(session)
        self._remember_home_seat(session)
        # The finished game stays on screen, across a reload too, until the
        # player starts another one.
        return self.save() | Change(ARCHIVE, finished=session, sounds=(self._end_sound(),))

    def _end_sound(self) -> str:
        """Against the computer a game is won or lost (or drawn); between two
        people it just ends."""
        session = self.session
        outcome = session.outcome()
        if session.mode.opponent != COMPUTER or outcome is None or outcome.winner is None:
            return END_SOUND
        return WIN_SOUND if outcome.winner == session.mode.home_seat else LOSS_SOUND

    def save(self) -> Change:
        result = self.slot.save(self.session.to_dict())
        if result == SaveResult.CONFLICT:
            return Change(conflict=True)
        if result == SaveResult.SAVED:
            self._write_preview()
        return NOTHING

    def _write_preview(self) -> None:
        """The game list's card of this game shows what the slot now holds."""
        session = self.session
        write_preview(self.storage, self.game, session.state, who(session.mode, session.state.turn),
                      session.is_over(), bool(self.settings.get("red_blue")))

    def _restore(self) -> GameSession | None:
        payload = self.slot.load()
        if payload is None:
            return None
        try:
            return GameSession.from_dict(payload["game"], self.spec.levels, clock=self.clock)
        except (SaveError, GameError, KeyError, TypeError):
            # A damaged save is set aside (the storage layer tells the player).
            self.storage.set_aside(self.slot.name)
            return None

    def _fresh_session(self, home_seat: int | None = None) -> GameSession:
        """A new game with the next game's settings; the home player's seat
        follows "who starts" unless given."""
        self.settings = self.next_settings()
        self.pending = {}
        opponent, level = split_opponent(self.settings["opponent"])
        if home_seat is None:
            home_seat = next_home_seat(self.settings["starts"], self.last_home_seat)
        session = GameSession(self.spec.make_state(self.settings), Mode(opponent, level, home_seat),
                              clock=self.clock, time_limit_s=int(self.settings.get("time", 0)))
        if self.settings.get("hints") or self.settings.get("eval"):
            session.mark_assisted()
        return session

    def timeout_note(self) -> tuple[int, int] | None:
        """(seat, move) when the last time-out's move is still news: the
        computer moved for a player whose time ran out, and that player has
        not moved since (the reply to it may have come)."""
        if self.timed_out is None:
            return None
        ply, seat, move = self.timed_out
        moves = self.session.state.moves
        if len(moves) in (ply, ply + 1) and moves[ply - 1] == move:
            return seat, move
        return None

    def _leave_review(self) -> None:
        self.timed_out = None
        self.better_at = None
        self.reviewed = None
        self.cursor = None
        self.waiting = None
        self.held = None

    def _remember_home_seat(self, session: GameSession) -> None:
        self.last_home_seat = session.mode.home_seat
        self._store_settings()

    def _store_settings(self) -> None:
        stored = {**self.settings, "pending": dict(self.pending), "last_home_seat": self.last_home_seat}
        self.storage.write(settings_name(self.game), stored)
