"""Insight: what the engine says of positions besides its moves, the
hint for the player to move, the evaluation bar, and the analysis of a
whole game (a graph of the winning chance, the mistakes and blunders
marked), as lichess keeps its analysis apart from play. A part of the
screen's model (screen.py); the page sends its ``EngineTask``s to the
worker's ``analyse`` (app/model/analysis.py) one at a time.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ai
from core import GameState

from .analysis import BUDGETS, EVAL_SECONDS, EVAL_SEED, HINT_SECONDS, GameAnalysis, Verdict
from .change import NOTHING, Change, Ticket
from .parts import INSIGHT, Part
from .play import Play
from .review import Review
from .session import GameSession

# What the engine is asked besides the computer's moves: a hint for the
# player to move, a position of a game being analysed, the evaluation
# bar's position.
HINT, ANALYSE, EVALUATE = "hint", "analyse", "evaluate"
# What an answer changes on screen, by what was asked (the bar changes
# only by its own evaluations: see Insight.bar_verdict).
INSIGHT_OF = {HINT: frozenset({Part.HINT, Part.BOARD}), ANALYSE: frozenset({Part.ANALYSIS, Part.MOVES}),
              EVALUATE: frozenset({Part.EVAL})}
# The evaluations remembered per screen (positions), the oldest forgotten first.
EVAL_CACHE = 400


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


class Insight:
    """The engine's view of the game on screen. ``interactive`` says whether
    the board takes the player's moves now, ``thinking`` whether the
    computer is working on its move (the screen knows both)."""

    def __init__(self, play: Play, review: Review, budget: float, rng: random.Random,
                 interactive: Callable[[], bool], thinking: Callable[[], bool]) -> None:
        self.play = play
        self.review = review
        self.rng = rng
        self.interactive = interactive
        self.thinking = thinking
        #: The task out at the worker (one at a time), the evaluation bar's
        #: verdicts by position (and the positions the worker could not
        #: evaluate).
        self.task: EngineTask | None = None
        self.evaluations: dict[tuple[Any, ...], Verdict] = {}
        self.unanswered: set[tuple[Any, ...]] = set()
        #: The hint asked for the live position: its ticket, then its verdict.
        self.hint_for: Ticket | None = None
        self.hinted: Verdict | None = None
        self.hint_failed = False
        #: The game being analysed (the shown one's), with where its results
        #: are kept (a past game's id, or None: in ``link_analyses``).
        self.analysis: GameAnalysis | None = None
        self.analysis_of: GameSession | None = None
        self.analysis_home: str | None = None
        self.analysis_failed = False
        self.link_analyses: dict[tuple[Any, ...], GameAnalysis] = {}
        #: The analysis' budget per position (seconds, remembered).
        self.budget: float = budget
        #: The position whose better move the board marks in review.
        self.better_at: int | None = None

    # -- the hint ----------------------------------------------------------------
    @property
    def has_hint(self) -> bool:
        """The games whose engine gives a hint (Notakto's hint is its
        "show safe moves" setting)."""
        return self.play.spec.safe_moves is None

    def can_hint(self) -> bool:
        return self.has_hint and self.interactive()

    def ask_hint(self) -> Change:
        """The engine's best move for the player to move, marked on the
        board (not played). The game counts, but as an assisted one."""
        if not self.can_hint() or (self.hint_for == self.play.ticket() and not self.hint_failed):
            return NOTHING
        self.hint_for, self.hinted, self.hint_failed = self.play.ticket(), None, False
        self.play.session.mark_assisted()
        return self.play.save() | Change(frozenset({Part.HINT}))

    def hint_thinking(self) -> bool:
        return self.hint_for == self.play.ticket() and self.hinted is None and not self.hint_failed and not self.review.reviewing

    def live_hint(self) -> Verdict | None:
        """The hint for the live position, once the engine has given it."""
        if self.review.reviewing or self.hint_for != self.play.ticket():
            return None
        return self.hinted

    def shown_verdict(self) -> Verdict | None:
        """What the engine knows of the position on screen, its best move
        for review's "Better": the analysis' verdict, else the bar's."""
        analysis = self.shown_analysis()
        if analysis is not None and analysis.verdicts[self.review.shown_ply()] is not None:
            return analysis.verdicts[self.review.shown_ply()]
        return self.bar_verdict()

    def bar_verdict(self) -> Verdict | None:
        """What the evaluation bar shows for the position on screen: the end
        of the game, or the bar's own evaluation (one search of the same
        length and seed, asked once). A hint's or an analysis' search of
        the same position never replaces it: a position reads the same
        until it changes (the analysis' values are the graph's)."""
        state = self.review.shown_state()
        if state.is_over():
            return result_verdict(state)
        return self.evaluations.get(position_key(state))

    def marked_move(self) -> str | None:
        """The move the board marks as the engine's: the live hint, or in
        review the better move the player asked to see."""
        hint = self.live_hint()
        if hint is not None:
            return hint.move
        if self.review.reviewing and self.better_at is not None and self.better_at == self.review.shown_ply():
            verdict = self.shown_verdict()
            return None if verdict is None else verdict.move
        return None

    # -- the analysis -------------------------------------------------------------
    def can_analyse(self) -> bool:
        """A finished game, or one opened for review (a past game, a link's,
        an import's): never the unfinished game being played."""
        shown = self.review.shown
        return bool(shown.state.moves) and (self.review.reviewed is not None or shown.is_over())

    def shown_analysis(self) -> GameAnalysis | None:
        """The analysis of the game on screen, loaded from where it is kept
        the first time it is asked for; None when there is none yet."""
        if not self.can_analyse():
            return None
        if self.analysis_of is not self.review.shown:
            self.analysis_home = self.review.archived_id()
            self.analysis_of, self.analysis, self.analysis_failed = self.review.shown, self._load_analysis(), False
        return self.analysis

    def _load_analysis(self) -> GameAnalysis | None:
        moves = tuple(self.review.shown.state.move_texts())
        game_id = self.analysis_home
        if game_id is None:
            return self.link_analyses.get(position_key(self.review.shown.state))
        return GameAnalysis.from_dict(self.play.store.archive.analysis(game_id), moves)

    def _keep_analysis(self, analysis: GameAnalysis, session: GameSession, archived_id: str | None) -> None:
        if archived_id is None:
            self.link_analyses[position_key(session.state)] = analysis
        else:
            self.play.store.archive.keep_analysis(archived_id, analysis.to_dict())

    def analyse(self) -> Change:
        """Analyse every position of the game on screen at the chosen
        budget, or go on with an analysis left unfinished (after a reload,
        too); a finished one at another budget is done again."""
        if not self.can_analyse():
            return NOTHING
        analysis = self.shown_analysis()
        moves = tuple(self.review.shown.state.move_texts())
        if analysis is None or (analysis.complete and analysis.budget != self.budget):
            analysis = GameAnalysis.empty(moves, self.budget)
            if self.review.shown.state.is_over():  # the game's end is its result, not the engine's
                analysis.verdicts[-1] = result_verdict(self.review.shown.state)
        elif analysis.complete:
            return NOTHING
        analysis.budget = self.budget
        analysis.running = True
        self.analysis, self.analysis_failed = analysis, False
        self._keep_analysis(analysis, self.review.shown, self.analysis_home)
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
        self.play.store.store_budget(value)
        return Change(frozenset({Part.ANALYSIS}))

    # -- the worker's tasks -------------------------------------------------------
    def engine_task(self) -> EngineTask | None:
        """The next position to send to the worker's analysis, one at a time:
        the hint the player waits for, then the next position of the game
        being analysed, then the evaluation bar's position; None when
        nothing is wanted or a task is already out."""
        if self.task is not None:
            return None
        seed = self.rng.getrandbits(31)
        if self.hint_thinking() and self.interactive():
            state = self.play.session.state.copy()
            self.task = EngineTask(HINT, position_key(state), state, HINT_SECONDS, seed, ticket=self.play.ticket())
            return self.task
        analysis = self.shown_analysis()
        if analysis is not None and analysis.running:
            ply = analysis.next_ply()
            if ply is None:
                analysis.running = False
            else:
                state = self.review.shown.state.from_settings(self.review.shown.state.settings())
                for move in self.review.shown.state.moves[:ply]:
                    state.push(move)
                keep = functools.partial(self._keep_analysis, analysis, self.review.shown, self.analysis_home)
                played = analysis.moves[ply] if ply < len(analysis.moves) else None
                self.task = EngineTask(ANALYSE, position_key(state), state, analysis.budget, seed, ply,
                                       target=analysis, keep=keep, played=played)
                return self.task
        if (self.play.settings.get("eval") and self.bar_verdict() is None
                and position_key(self.review.shown_state()) not in self.unanswered):
            if not self.review.reviewing and (self.thinking() or self.play.needs_computer()):
                return None  # the position is about to change
            state = self.review.shown_state().copy()
            self.task = EngineTask(EVALUATE, position_key(state), state, EVAL_SECONDS, EVAL_SEED, self.review.shown_ply())
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
        if task.kind == EVALUATE:
            if len(self.evaluations) >= EVAL_CACHE:
                self.evaluations.pop(next(iter(self.evaluations)))
            self.evaluations[task.position] = verdict
        elif task.kind == HINT and task.ticket == self.hint_for:
            self.hinted = verdict
        elif task.kind == ANALYSE and task.target is not None and task.target.verdicts[task.ply] is None:
            analysis = task.target
            analysis.verdicts[task.ply] = verdict
            if analysis.complete:
                analysis.running = False
            if task.keep is not None:
                task.keep()
        return Change(INSIGHT_OF[task.kind] | ({Part.BOARD, Part.HINT} if self.better_at is not None else set()))

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
