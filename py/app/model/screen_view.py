"""What a game's screen shows, as plain data: ``screen_view(screen)`` turns
the model (``screen.GameScreen``) into a ``ScreenView`` that the browser
layer draws without deciding anything. Words are catalog ``Msg``s; numbers
for the statistics come with their kind, formatted by the shell. Pure, so
every state is unit-tested (tests/app/test_screen.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from core import GameError, GameState, Outcome
from core.base import SECOND

from .analysis import BUDGETS, HINT_SECONDS, GameAnalysis, Verdict, graph_points
from .games import GameSpec, split_opponent
from .screen import LIVE, PAST, PAST_PAGE, SOUND_SETTING, GameScreen
from .session import COMPUTER, TWO_PLAYER, GameSession, player_name, takeover_seats, who
from .stats import load_stats, stats_view
from ..views.boards import Node, node, swapped_stone
from .words import Msg

# Whom a game-end sentence is about: the player who lost ("You closed the
# last live board") or who won ("You won three small boards in a line").
LOSER_REASONS = {"last_board_closed", "resignation"}


@dataclass(frozen=True)
class Button:
    """A command button: whether it can be pressed and whether it is there at all."""

    enabled: bool = True
    shown: bool = True


@dataclass(frozen=True)
class ResultView:
    """A finished game's result: the headline, why it ended, the winning seat (None: a draw)."""

    headline: Msg
    reason: Msg
    winner: int | None


@dataclass(frozen=True)
class SelectView:
    """A setting that applies to the next game: a labelled menu."""

    name: str
    label: Msg
    options: tuple[tuple[str, Msg], ...]  # (value as text, its short name)
    selected: str
    #: a line under the menu about the chosen value (the level: what it
    #: does, its measured rating), or None
    note: Msg | None = None


@dataclass(frozen=True)
class ToggleView:
    """An option that applies at once: a labelled check box."""

    name: str  # "hints", "coordinates", "takeover-<seat>"
    label: Msg
    checked: bool


@dataclass(frozen=True)
class ClockView:
    """The time the player to move has left for this move."""

    text: str  # "0:27"
    low: bool  # ten seconds or less


@dataclass(frozen=True)
class MoveEntry:
    """One move of the list: a button that shows the position after it."""

    ply: int  # moves from the start, this one included
    number: str  # "1." (each stone, each mark is numbered: as Hex, Y and the tic-tac-toe games count)
    mark: str | Msg  # who played it: "X", black, "Player 1"
    text: str  # "f6", "swap"
    current: bool  # the board shows the position after it
    swap: bool
    judgement: str | None = None  # the analysis': "mistake", "blunder"
    better: str | None = None  # with a judgement: the engine's move instead


@dataclass(frozen=True)
class ReviewView:
    """The review bar: where in the shown game the board is, the steps, and
    the way back to the game being played (or on from a reviewed one)."""

    origin: str  # screen.LIVE, PAST, LINK, IMPORT
    ply: int
    total: int
    reviewing: bool  # another position than the live one is on screen
    label: Msg  # "Move 12 of 31"
    first: Button
    prev: Button
    next: Button
    last: Button
    live: Button  # back to the game being played
    continue_here: Button  # play on from here (a reviewed game)
    past_id: str | None  # the past game on screen (marked in the list)


@dataclass(frozen=True)
class HintView:
    """The Hint action (Ultimate Tic-Tac-Toe, Hex, Y) and what it found:
    ``thinking`` is the budget in seconds while the engine thinks (its
    progress is drawn over that time), ``line`` the move and why."""

    button: Button
    thinking: float | None
    line: Msg | None
    #: the game being played is assisted (a hint, the evaluation bar, an
    #: undo, the computer's help): said, since it changes what it counts for
    assisted: bool = False
    #: the hint is to swap: the swap button is marked instead of a cell
    swap: bool = False


@dataclass(frozen=True)
class EvalView:
    """The evaluation bar: the first player's winning chance in points
    (None while the engine has not said), in words, and who is who."""

    shown: bool
    percent: int | None
    label: Msg
    proven: bool


@dataclass(frozen=True)
class AnalysisView:
    """The analysis of the game on screen: whether it can be asked for,
    how far it is, its budget menu, the graph and the count of marks."""

    shown: bool
    running: bool
    done: int
    total: int
    action: Msg
    action_enabled: bool
    budgets: tuple[tuple[str, Msg], ...]
    budget: str
    progress: Msg | None
    graph: Node | None
    summary: Msg | None
    failed: bool


@dataclass(frozen=True)
class StatView:
    """One figure of the statistics panel."""

    name: str
    kind: str  # "number", "percent", "duration", "days" or "none" (no value yet)
    value: Any


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
    settings_pending: bool
    toggles: tuple[ToggleView, ...]
    hint: Msg | None
    confirm: tuple[Msg, Msg] | None  # (question, the yes button's label)
    engine_hint: HintView = HintView(Button(shown=False), None, None)
    evaluation: EvalView = EvalView(False, None, Msg("eval.waiting"), False)
    analysis: AnalysisView | None = None


def screen_view(screen: GameScreen, tall: bool = False) -> ScreenView:
    """Everything the screen shows. ``tall``: a narrow portrait screen
    (boards that can stand upright do)."""
    session = screen.session
    busy = screen.thinking or session.computer_to_move()
    over = session.is_over()
    live = not screen.reviewing
    safe = screen.safe_moves() if live else frozenset()
    shown = screen.shown_state()
    at_end = screen.shown_ply() == len(screen.shown.state.moves)
    ended = result(screen.spec, screen.shown) if at_end else None
    return ScreenView(
        game=screen.game,
        board=board_tree(screen, safe, tall),
        status=status(screen),
        turn=shown.turn,
        detail=detail(screen, shown, ended),
        note=note(screen) if live else None,
        clock=clock(session),
        undo=Button(enabled=live and not busy and not over and session.can_undo()),
        resign=Button(enabled=live and not over),
        new_game=Button(),
        swap=Button(shown=screen.can_swap()),
        swap_help=Msg(f"swap.offer.{screen.game}") if screen.can_swap() else None,
        result=ended,
        moves=move_entries(screen),
        review=review(screen),
        settings=settings(screen),
        settings_pending=bool(screen.pending),
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


def board_tree(screen: GameScreen, safe: frozenset[int], tall: bool) -> Node:
    spec = screen.spec
    options = {name: screen.settings[name] for name in spec.view_settings}
    if spec.stands_upright:
        options["tall"] = tall
    state = screen.shown_state()
    marked = screen.marked_move()
    hint_move = None
    if marked is not None:
        try:
            hint_move = state.parse_move(marked)
        except GameError:
            hint_move = None
    return spec.view(state, interactive=screen.interactive(), safe_moves=safe, hint_move=hint_move, **options)


def mover_mark(spec: GameSpec, session: GameSession, seat: int, settings: dict[str, Any]) -> str | Msg:
    """Who played a move, as the players see it: the mark or the colour
    (as the settings draw it), else the player's name (Notakto: both play X)."""
    if spec.seat_mark is not None:
        return spec.seat_mark(seat, settings)
    mode = session.mode
    if mode.opponent == COMPUTER:
        return Msg(f"player.{who(mode, seat)}")
    return player_name(mode, seat)


def move_entries(screen: GameScreen) -> tuple[MoveEntry, ...]:
    session = screen.shown
    state = session.state
    shown = screen.shown_ply()
    swap = getattr(state, "swap_move", None)
    movers = session.movers()
    analysis = screen.shown_analysis()
    judged = analysis.judgements(movers) if analysis is not None else {}
    return tuple(
        MoveEntry(ply, f"{ply}.", mover_mark(screen.spec, session, seat, screen.settings), text,
                  ply == shown and screen.reviewing,
                  move == swap, judged.get(ply),
                  analysis.better_move(ply) if analysis is not None and ply in judged else None)
        for ply, (seat, move, text) in enumerate(zip(movers, state.moves, state.move_texts()), start=1)
    )


def review(screen: GameScreen) -> ReviewView:
    total = len(screen.shown.state.moves)
    ply = screen.shown_ply()
    origin = screen.origin
    label = Msg("review.position", {"ply": ply, "total": total}) if ply else Msg("review.start", {"total": total})
    continuing = origin != LIVE and not screen.shown_state().is_over()
    return ReviewView(
        origin=origin, ply=ply, total=total, reviewing=screen.reviewing, label=label,
        first=Button(enabled=ply > 0), prev=Button(enabled=ply > 0),
        next=Button(enabled=ply < total), last=Button(enabled=ply < total or (origin == LIVE and screen.reviewing)),
        live=Button(shown=screen.reviewing), continue_here=Button(shown=continuing),
        past_id=screen.shown.game_id if origin == PAST else None,
    )


def detail(screen: GameScreen, shown: GameState, ended: ResultView | None) -> Msg | None:
    """The line under the status: why the game ended (with the status
    saying who won, both at the top of a phone's screen), else where the
    side to move may play."""
    if ended is not None and screen.origin == LIVE and not screen.reviewing:
        return ended.reason
    if shown.is_over() or screen.spec.detail is None:
        return None
    return screen.spec.detail(shown)


def note(screen: GameScreen) -> Msg | None:
    """A swap just played, or a move the computer made for a player whose
    time ran out: said on screen until that player moves again."""
    session = screen.session
    state, mode = session.state, session.mode
    timeout = screen.timeout_note()
    if timeout is not None:
        seat, move = timeout
        return Msg(f"note.timeout.{who(mode, seat)}",
                   {"player": player_name(mode, seat), "move": state.move_to_text(move)})
    swap = getattr(state, "swap_move", None)
    if swap is not None and len(state.moves) == 2 and state.moves[1] == swap and not session.is_over():
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
    if screen.reviewing:
        return Msg("status.looking_back")
    if session.is_over():
        ended = result(screen.spec, session)
        assert ended is not None
        return ended.headline
    if screen.thinking or session.computer_to_move():
        if mode.opponent == COMPUTER and turn != mode.home_seat:
            return Msg("status.computer_thinking")
        return Msg(f"status.computer_plays_for.{who(mode, turn)}", {"player": player_name(mode, turn)})
    mark = screen.spec.seat_mark(turn, screen.settings) if screen.spec.seat_mark else None
    key = "status.turn_mark" if mark else "status.turn"
    return Msg(f"{key}.{who(mode, turn)}", {"player": player_name(mode, turn), "mark": mark or ""})


def clock(session: GameSession) -> ClockView | None:
    """The countdown of a timed move (None without a time limit)."""
    left = session.time_left_ms()
    if left is None:
        return None
    seconds = max(0, -(-left // 1000))  # whole seconds, rounded up
    return ClockView(f"{seconds // 60}:{seconds % 60:02d}", seconds <= 10)


def reason_subject(outcome: Outcome) -> int | None:
    if outcome.winner is None:
        return None
    return 1 - outcome.winner if outcome.reason in LOSER_REASONS else outcome.winner


def result(spec: GameSpec, session: GameSession) -> ResultView | None:
    outcome = session.outcome()
    if outcome is None:
        return None
    mode = session.mode
    if outcome.winner is None:
        headline = Msg("result.draw")
    elif mode.opponent == COMPUTER:
        headline = Msg("result.win" if outcome.winner == mode.home_seat else "result.loss")
    else:
        headline = Msg("result.player_wins", {"player": player_name(mode, outcome.winner)})
    subject = reason_subject(outcome)
    name = spec.reason_names.get(outcome.reason, outcome.reason)
    if subject is None:
        reason = Msg(f"reason.{name}")
    else:
        reason = Msg(f"reason.{name}.{who(mode, subject)}", {"player": player_name(mode, subject)})
    return ResultView(headline, reason, outcome.winner)


def option_label(spec: GameSpec, name: str, value: Any, opponent: str) -> Msg:
    """A setting's value in words; ``starts`` names the players as the
    chosen ``opponent`` does."""
    if name == "starts" and value in ("home", "away"):
        return Msg(f"starts.{value}.{'two_player' if opponent == TWO_PLAYER else 'computer'}")
    if name == "size":
        return Msg(f"size.{spec.game}", {"size": value})
    if name == "opponent":
        kind, level = split_opponent(value)
        if kind == TWO_PLAYER:
            return Msg("opponent.two_player")
        # Short, to fit a phone's menu: "Master · 1720"; the note says more.
        return Msg("level.rated", {"level": Msg(f"level.{spec.game}.{level}.name"),
                                   "rating": str(spec.rating(level))})
    choice = next(c for c in spec.choices if c.name == name)
    return Msg(f"{choice.value_labels}.{str(value).lower()}")


#: Options whose short name in the menu needs a sentence under it: the
#: catalog key of the name, then ``_help`` (the menus stay short enough
#: for a 360 px phone in every language).
OPTION_HELP = frozenset({"starts.alternate"})


def option_note(spec: GameSpec, name: str, value: Any) -> Msg | None:
    """The line under a menu about its chosen value: for a computer level,
    what it does and its measured rating; for an option whose short name
    needs it, its sentence."""
    if name == "opponent":
        kind, level = split_opponent(value)
        if kind == TWO_PLAYER:
            return None
        return Msg("level.note", {"about": Msg(f"level.{spec.game}.{level}.about"), "rating": str(spec.rating(level))})
    label = option_label(spec, name, value, "")
    return Msg(f"{label.key}_help") if label.key in OPTION_HELP else None


def settings(screen: GameScreen) -> tuple[SelectView, ...]:
    chosen = screen.next_settings()
    opponent = split_opponent(chosen["opponent"])[0]
    return tuple(
        SelectView(choice.name, Msg(choice.label),
                   tuple((str(value), option_label(screen.spec, choice.name, value, opponent)) for value in choice.values),
                   str(chosen[choice.name]), option_note(screen.spec, choice.name, chosen[choice.name]))
        for choice in screen.spec.choices if choice.applies == "next"
    )


def toggles(screen: GameScreen) -> tuple[ToggleView, ...]:
    """The switches that apply at once: the display settings, the sound
    (the app's), then "the computer plays for …" for each seat a player
    may hand over."""
    found = [ToggleView(choice.name, Msg(choice.label), bool(screen.settings[choice.name]))
             for choice in screen.spec.choices if choice.applies == "now"]
    found.append(ToggleView(SOUND_SETTING, Msg("settings.sound"), screen.sound))
    mode = screen.session.mode
    for seat in takeover_seats(mode):
        label = Msg(f"takeover.{who(mode, seat)}", {"player": player_name(mode, seat)})
        found.append(ToggleView(f"takeover-{seat}", label, screen.session.takeover[seat]))
    return tuple(found)


def hint(screen: GameScreen, safe: frozenset[int]) -> Msg | None:
    if not screen.settings.get("hints") or not screen.interactive():
        return None
    return Msg("hint.none") if not safe else Msg("hint.some", {"count": len(safe)})


# -- the engine's view: hint, evaluation, analysis --------------------------------
def side_name(screen: GameScreen, seat: int) -> str | Msg:
    """A side as the evaluation names it: its mark or colour, else the
    player (Notakto, where both play X)."""
    if screen.spec.seat_mark is not None:
        return screen.spec.seat_mark(seat, screen.settings)
    return player_name(screen.shown.mode, seat)


def why(game: str, verdict: Verdict, mover: int) -> Msg:
    """Why the engine plays its move, in one line, for ``mover`` (the side
    to move in the position it judged)."""
    reason = verdict.reason
    if reason == "wins_now":
        return Msg(f"why.wins_now.{game}")
    if reason in ("blocks", "only_move", "swap", "safe"):
        return Msg(f"why.{reason}")
    if verdict.proof is not None and (reason == "proven" or verdict.proof == "draw"):
        if verdict.proof == "draw":
            return Msg("why.proven_draw")
        if (verdict.proof == "first") == (mover == 0):
            return Msg("why.proven_win_in", {"count": verdict.plies}) if verdict.plies else Msg("why.proven_win")
        return Msg("why.proven_loss")
    return Msg("why.search", {"percent": round(verdict.chance_of(mover) * 100)})


def move_words(verdict: Verdict) -> str | Msg:
    return Msg("hint.swap") if verdict.move == "swap" else verdict.move or ""


def engine_hint(screen: GameScreen) -> HintView:
    """The Hint action and its line (the games whose engine searches)."""
    session = screen.session
    assisted = session.assisted and not screen.reviewing and session.mode.opponent == COMPUTER
    return replace(_engine_hint(screen), assisted=assisted)


def _engine_hint(screen: GameScreen) -> HintView:
    if not screen.has_hint:
        return HintView(Button(shown=False), None, None)
    thinking = screen.hint_thinking()
    button = Button(enabled=screen.can_hint() and not thinking, shown=not screen.reviewing and not screen.session.is_over())
    hint = screen.live_hint()
    if thinking:
        return HintView(button, HINT_SECONDS, Msg("hint.thinking"))
    if screen.hint_failed and screen.hint_for == screen.ticket():
        return HintView(button, None, Msg("hint.failed"))
    if hint is not None and hint.move is not None:
        mover = screen.session.state.turn
        return HintView(button, None, Msg("hint.engine", {"move": move_words(hint), "why": why(screen.game, hint, mover)}),
                        swap=hint.move == "swap")
    if screen.reviewing and screen.marked_move() is not None:
        verdict = screen.shown_verdict()
        assert verdict is not None
        return HintView(button, None, Msg("hint.better", {"move": move_words(verdict),
                                                          "why": why(screen.game, verdict, screen.shown_state().turn)}))
    return HintView(button, None, None)


def evaluation(screen: GameScreen) -> EvalView:
    """The evaluation bar for the position on screen, when it is on."""
    if not screen.settings.get("eval"):
        return EvalView(False, None, Msg("eval.waiting"), False)
    verdict = screen.shown_verdict()
    if verdict is None:
        return EvalView(True, None, Msg("eval.waiting"), False)
    percent = verdict.percent
    if verdict.proof == "draw":
        return EvalView(True, percent, Msg("eval.draw"), True)
    if verdict.proof is not None:
        winner = side_name(screen, 0 if verdict.proof == "first" else 1)
        if verdict.plies == 0:
            return EvalView(True, percent, Msg("eval.won", {"player": winner}), True)
        if verdict.plies:
            return EvalView(True, percent, Msg("eval.proven_in", {"player": winner, "count": verdict.plies}), True)
        return EvalView(True, percent, Msg("eval.proven", {"player": winner}), True)
    leader = 0 if percent >= 50 else 1
    shown = percent if leader == 0 else 100 - percent
    return EvalView(True, percent, Msg("eval.chance", {"player": side_name(screen, leader), "percent": shown}), False)


#: The graph's drawing box: plies along x (``GRAPH_STEP`` each, at most
#: ``GRAPH_WIDTH`` in all), the first player's chance up y (0..100).
GRAPH_WIDTH, GRAPH_HEIGHT = 300, 100


def analysis_graph(analysis: GameAnalysis, judged: dict[int, str], ply: int) -> Node:
    """The first player's winning chance over the game, as SVG: the line
    through every analysed position, the 50 % line, a dot on each marked
    move, and the position on screen. Each position is a column that shows
    it when clicked (``data-graph-ply``)."""
    positions = analysis.positions
    step = GRAPH_WIDTH / max(1, positions - 1)

    def x(at: int) -> str:
        return f"{at * step:.1f}"

    def y(percent: int) -> str:
        return f"{GRAPH_HEIGHT - percent:.0f}"

    points = graph_points(analysis.verdicts)
    children: list[Any] = [
        node("rect", {"class": "graph-second", "x": "0", "y": "0", "width": str(GRAPH_WIDTH), "height": str(GRAPH_HEIGHT)}),
        node("line", {"class": "graph-even", "x1": "0", "x2": str(GRAPH_WIDTH), "y1": "50", "y2": "50"}),
    ]
    if points:
        area = " ".join(f"{x(at)},{y(percent)}" for at, percent in points)
        first, last = points[0][0], points[-1][0]
        children.append(node("polygon", {"class": "graph-first",
                                         "points": f"{x(first)},{GRAPH_HEIGHT} {area} {x(last)},{GRAPH_HEIGHT}"}))
        children.append(node("polyline", {"class": "graph-line", "points": area}))
    children.append(node("line", {"class": "graph-now", "x1": x(ply), "x2": x(ply), "y1": "0", "y2": str(GRAPH_HEIGHT)}))
    for at, mark in sorted(judged.items()):
        verdict = analysis.verdicts[at]
        if verdict is not None:
            children.append(node("circle", {"class": f"graph-mark {mark}", "cx": x(at), "cy": y(verdict.percent),
                                            "r": "4" if mark == "blunder" else "3"}))
    for at in range(positions):
        children.append(node("rect", {"class": "graph-hit", "data-graph-ply": str(at), "x": f"{max(0.0, (at - 0.5) * step):.1f}",
                                      "y": "0", "width": f"{step:.1f}", "height": str(GRAPH_HEIGHT)}))
    return node("svg", {"class": "graph", "viewBox": f"0 0 {GRAPH_WIDTH} {GRAPH_HEIGHT}",
                        "preserveAspectRatio": "none", "role": "img", "aria-label": Msg("analysis.graph_label"),
                        "data-testid": "analysis-graph"}, *children)


def analysis_view(screen: GameScreen) -> AnalysisView | None:
    """The analysis panel of a finished or reviewed game; None for the
    unfinished game being played."""
    if not screen.can_analyse():
        return None
    analysis = screen.shown_analysis()
    budgets = tuple((str(budget), Msg("analysis.budget_option", {"seconds": budget})) for budget in BUDGETS)
    total = len(screen.shown.state.moves) + 1
    done = 0 if analysis is None else analysis.done
    running = analysis is not None and analysis.running
    if analysis is None:
        action, enabled = Msg("analysis.start"), True
    elif running:
        action, enabled = Msg("analysis.running"), False
    elif not analysis.complete:
        action, enabled = Msg("analysis.resume"), True
    elif analysis.budget != screen.budget:
        action, enabled = Msg("analysis.again"), True
    else:
        action, enabled = Msg("analysis.done"), False
    progress = Msg("analysis.progress", {"done": done, "count": total}) if analysis is not None and not analysis.complete else None
    graph = summary = None
    if analysis is not None and done:
        movers = screen.shown.movers()
        judged = analysis.judgements(movers)
        graph = analysis_graph(analysis, judged, screen.shown_ply())
        if analysis.complete or done > 1:
            sides = []
            for seat in (0, 1):
                marks = [judged[ply] for ply in judged if movers[ply - 1] == seat]
                sides.append(Msg("analysis.side", {
                    "player": side_name(screen, seat),
                    "mistakes": Msg("analysis.mistakes", {"count": marks.count("mistake")}),
                    "blunders": Msg("analysis.blunders", {"count": marks.count("blunder")}),
                }))
            summary = Msg("analysis.summary", {"first": sides[0], "second": sides[1]})
    return AnalysisView(True, running, done, total, action, enabled, budgets, str(screen.budget), progress, graph,
                        summary, screen.analysis_failed)


def stats_rows(screen: GameScreen) -> tuple[StatView, ...]:
    """The statistics panel: each figure with how to show it."""
    view = stats_view(load_stats(screen.storage, screen.game), screen.today())
    kinds = (("games", "number", "games"), ("wins", "number", "wins"), ("win_rate", "percent", "win_rate"),
             ("fastest_win", "duration", "fastest_win_ms"), ("fewest_moves", "number", "fewest_moves"),
             ("best_score", "number", "best_score"), ("current_streak", "days", "current_streak"),
             ("best_streak", "days", "best_streak"), ("rating", "number", "rating"))
    return tuple(StatView(name, "none" if view[key] is None else kind, view[key]) for name, kind, key in kinds)


@dataclass(frozen=True)
class PastGameView:
    """One entry of the past games: when, against whom, how it ended."""

    id: str
    ended_ms: int
    duration_ms: int
    result: Msg
    opponent: Msg
    variant: Msg | None  # the rules' settings in words ("9 × 9, swap"), None when there are none
    plies: int
    open: bool  # the one on screen


@dataclass(frozen=True)
class PastGamesView:
    """The past games list as shown: a page of rows and how many more there are."""

    rows: tuple[PastGameView, ...]  # the newest, as many as the list shows
    more: int  # how many older ones there are besides
    next_page: int  # how many of them "show more" reveals


def past_games(screen: GameScreen) -> PastGamesView:
    """The past games list, newest first, a page at a time."""
    spec = screen.spec
    shown = screen.shown.game_id if screen.origin == PAST else None
    every = screen.past_games()
    rows = []
    for past in every[:screen.past_listed]:
        if past.opponent == TWO_PLAYER:
            result_msg = (Msg("result.draw") if past.winner is None
                          else Msg("past.player_won", {"player": Msg("player.numbered", {"number": 1 if past.winner == past.home_seat else 2})}))
            opponent = Msg("opponent.two_player")
        else:
            result_msg = Msg("past.draw" if past.winner is None else "past.won" if past.winner == past.home_seat else "past.lost")
            opponent = Msg(f"level.{spec.game}.{past.level}")
        words = [option_label(spec, name, value, past.opponent) for name, value in sorted(past.settings.items())
                 if any(c.name == name for c in spec.choices)]
        variant = None if not words else words[0] if len(words) == 1 else Msg("past.variant", {"first": words[0], "second": words[1]})
        rows.append(PastGameView(past.id, past.ended_ms, past.duration_ms, result_msg, opponent, variant, past.plies,
                                 past.id == shown))
    more = max(0, len(every) - screen.past_listed)
    return PastGamesView(tuple(rows), more, min(more, PAST_PAGE))
