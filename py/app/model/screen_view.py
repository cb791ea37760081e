"""What a game's screen shows, as plain data: ``screen_view(screen)`` turns
the model (``screen.GameScreen``) into a ``ScreenView`` that the browser
layer draws without deciding anything, from the views of its parts
(play_view, review_view, insight_view, clock_view). Words are catalog
``Msg``s; numbers for the statistics come with their kind, formatted by the
shell. Pure, so every state is unit-tested (tests/app/test_screen.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core import GameError, GameState, Outcome
from core.base import SECOND
from core.hex import ConnectionState

from ..views.connection import swapped_stone
from ..views.tree import Node
from .clock_view import ClockView, clock_view
from .games import GameSpec
from .insight_view import AnalysisView, EvalView, HintView, analysis_view, engine_hint, evaluation
from .play_view import Button, SelectView, ToggleView, settings, toggles
from .review import LIVE
from .review_view import MoveEntry, ReviewView, move_entries, review
from .screen import GameScreen
from .session import COMPUTER, GameSession, player_name, who
from .words import Msg

# Whom a game-end sentence is about: the player who lost ("You closed the
# last live board") or who won ("You won three small boards in a line").
LOSER_REASONS = {"last_board_closed", "resignation"}


@dataclass(frozen=True)
class ResultView:
    """A finished game's result: the headline, why it ended, the winning seat (None: a draw)."""

    headline: Msg
    reason: Msg
    winner: int | None


@dataclass(frozen=True)
class ScreenView:
    """Everything a game screen shows (screen_view); the renderer draws it."""

    game: str
    board: Node
    status: Msg
    turn: int
    detail: Msg | None
    # What just happened that the board alone does not say: a swap, a move
    # the computer made for a player whose time ran out.
    note: Msg | None
    clock: ClockView | None
    undo: Button
    resign: Button
    new_game: Button
    swap: Button
    swap_help: Msg | None  # what the swap does, while it is offered
    result: ResultView | None
    moves: tuple[MoveEntry, ...]
    review: ReviewView
    settings: tuple[SelectView, ...]
    settings_note: Msg | None  # the line under the menus: changes that wait for the next game, another game's settings
    toggles: tuple[ToggleView, ...]
    hint: Msg | None
    confirm: tuple[Msg, Msg] | None  # (question, the yes button's label)
    engine_hint: HintView = HintView(Button(shown=False), None, None)
    evaluation: EvalView = EvalView(False, None, Msg("eval.waiting"), False)
    analysis: AnalysisView | None = None


def screen_view(screen: GameScreen, portrait: bool = False) -> ScreenView:
    """Everything the screen shows. ``portrait``: a narrow portrait screen
    (boards that can stand upright do, unless the player chose otherwise)."""
    session = screen.session
    busy = screen.thinking or session.computer_to_move()
    over = session.is_over()
    live = not screen.reviewing
    safe = screen.play.safe_moves() if live else frozenset()
    shown = screen.shown_state()
    at_end = screen.shown_ply() == len(screen.shown.state.moves)
    ended = result(screen.spec, screen.shown, screen.settings) if at_end else None
    return ScreenView(
        game=screen.game,
        board=board_tree(screen, safe, portrait),
        status=status(screen),
        turn=shown.turn,
        detail=detail(screen, shown, ended),
        note=note(screen) if live else None,
        clock=clock_view(session),
        undo=Button(enabled=live and not busy and not over and session.can_undo()),
        resign=Button(enabled=live and not over),
        new_game=Button(),
        swap=Button(shown=screen.can_swap()),
        swap_help=Msg(f"swap.offer.{screen.game}") if screen.can_swap() else None,
        result=ended,
        moves=move_entries(screen),
        review=review(screen),
        settings=settings(screen),
        settings_note=settings_note(screen),
        toggles=toggles(screen),
        hint=hint(screen, safe),
        confirm=None if screen.confirm is None else (screen.confirm.question, screen.confirm.yes),
        engine_hint=engine_hint(screen),
        evaluation=evaluation(screen),
        analysis=analysis_view(screen),
    )


@dataclass(frozen=True)
class InsightView:
    """The parts an answer of the engine's analysis changes, without the
    rest of the screen (an analysis draws one of these per position: the
    board and the settings stay as they are)."""

    moves: tuple[MoveEntry, ...]
    engine_hint: HintView
    evaluation: EvalView
    analysis: AnalysisView | None


def insight_view(screen: GameScreen) -> InsightView:
    return InsightView(move_entries(screen), engine_hint(screen), evaluation(screen), analysis_view(screen))


def board_tree(screen: GameScreen, safe: frozenset[int], portrait: bool) -> Node:
    spec = screen.spec
    options = {name: screen.settings[name] for name in spec.view_settings}
    if spec.stands_upright:
        options["tall"] = stands_upright(screen.settings.get("orientation", "auto"), portrait)
    state = screen.shown_state()
    marked = screen.insight.marked_move()
    hint_move = None
    if marked is not None:
        try:
            hint_move = state.parse_move(marked)
        except GameError:
            hint_move = None
    return spec.view(state, interactive=screen.interactive(), safe_moves=safe, hint_move=hint_move, **options)


def stands_upright(orientation: str, portrait: bool) -> bool:
    """Whether a board that can stand upright does: as the player chose, or
    ("auto") on a narrow portrait screen, where drawn wide it would be small."""
    return portrait if orientation == "auto" else orientation == "upright"


def detail(screen: GameScreen, shown: GameState, ended: ResultView | None) -> Msg | None:
    """The line under the status: why the game ended (with the status
    saying who won, both at the top of a phone's screen), the swap while it
    is offered (its button beside), else where the side to move may play."""
    if ended is not None and screen.origin == LIVE and not screen.reviewing:
        return ended.reason
    if screen.can_swap():
        return Msg("swap.prompt")
    if shown.is_over() or screen.spec.detail is None:
        return None
    return screen.spec.detail(shown)


def note(screen: GameScreen) -> Msg | None:
    """A swap just played, or a move the computer made for a player whose
    time ran out: said on screen until that player moves again."""
    session = screen.session
    state, mode = session.state, session.mode
    timeout = screen.move_clock.timeout_note(session)
    if timeout is not None:
        seat, move = timeout
        return Msg(f"note.timeout.{who(mode, seat)}",
                   {"player": player_name(mode, seat), "move": state.move_to_text(move)})
    swap = getattr(state, "swap_move", None)
    if (isinstance(state, ConnectionState) and swap is not None and len(state.moves) == 2 and state.moves[1] == swap
            and not session.is_over()):
        stone = swapped_stone(state)
        moved = stone != state.moves[0]
        key = f"note.swap{'_mirrored' if moved else ''}.{who(mode, SECOND)}"
        return Msg(key, {"player": player_name(mode, SECOND), "from": state.move_to_text(state.moves[0]),
                         "to": state.move_to_text(stone)})
    return None


def status(screen: GameScreen) -> Msg:
    session = screen.session
    mode, turn = session.mode, session.state.turn
    if screen.origin != LIVE:
        return Msg(f"status.review.{screen.origin}")
    if screen.reviewing:  # the game being played waits, or it is over and nothing waits
        return Msg("status.looking_back_over" if session.is_over() else "status.looking_back")
    if session.is_over():
        ended = result(screen.spec, session, screen.settings)
        assert ended is not None
        return ended.headline
    if screen.thinking or session.computer_to_move():
        if mode.opponent == COMPUTER and turn != mode.home_seat:
            return Msg("status.computer_thinking")
        return Msg(f"status.computer_plays_for.{who(mode, turn)}", {"player": player_name(mode, turn)})
    mark = screen.spec.mark(turn, screen.settings)
    key = "status.turn_mark" if mark else "status.turn"
    return Msg(f"{key}.{who(mode, turn)}", {"player": player_name(mode, turn), "mark": mark or ""})


def reason_subject(outcome: Outcome) -> int | None:
    if outcome.winner is None:
        return None
    return 1 - outcome.winner if outcome.reason in LOSER_REASONS else outcome.winner


def result(spec: GameSpec, session: GameSession, settings: dict[str, Any]) -> ResultView | None:
    """Who won and why. Between two people the winner is named as the
    status names a player, with the colour or mark the board shows
    (``settings``: Hex's and Y's colours), since with "Take turns" Player 1
    plays the other colour every other game."""
    outcome = session.outcome()
    if outcome is None:
        return None
    mode = session.mode
    if outcome.winner is None:
        headline = Msg("result.draw")
    elif mode.opponent == COMPUTER:
        headline = Msg("result.win" if outcome.winner == mode.home_seat else "result.loss")
    else:
        mark = spec.mark(outcome.winner, settings)
        player = player_name(mode, outcome.winner)
        headline = (Msg("result.player_wins_mark", {"player": player, "mark": mark}) if mark
                    else Msg("result.player_wins", {"player": player}))
    subject = reason_subject(outcome)
    name = spec.reason_names.get(outcome.reason, outcome.reason)
    if subject is None:
        reason = Msg(f"reason.{name}")
    else:
        reason = Msg(f"reason.{name}.{who(mode, subject)}", {"player": player_name(mode, subject)})
    return ResultView(headline, reason, outcome.winner)


def settings_note(screen: GameScreen) -> Msg | None:
    if screen.origin != LIVE:
        return Msg("settings.shown_game")
    return Msg("settings.next_game") if screen.play.pending else None


def hint(screen: GameScreen, safe: frozenset[int]) -> Msg | None:
    if not screen.settings.get("hints") or not screen.interactive():
        return None
    return Msg("hint.none") if not safe else Msg("hint.some", {"count": len(safe)})
