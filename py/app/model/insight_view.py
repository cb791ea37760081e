"""What the insight part of a game's screen shows (insight.py): the Hint
action and its line, the evaluation bar, and the analysis panel with its
graph. Plain data for the renderer."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..views.tree import Node, node
from .analysis import BUDGETS, HINT_SECONDS, GameAnalysis, Verdict, graph_points
from .play_view import Button
from .screen import GameScreen
from .session import COMPUTER, player_name
from .words import Msg


@dataclass(frozen=True)
class HintView:
    """The Hint action (Ultimate Tic-Tac-Toe, Hex, Y) and what it found:
    ``thinking`` is the budget in seconds while the engine thinks (its
    progress is drawn over that time), ``line`` the move and why."""

    button: Button
    thinking: float | None
    line: Msg | None
    #: the game being played against the computer had help (stats.py says
    #: what counts): what it counts for, said in the statistics page's words
    assisted: Msg | None = None
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


#: A game with help, as the screen says it: its definition is one catalog
#: string (``assisted.help``) that the statistics page quotes too.
ASSISTED = Msg("hint.assisted", {"help": Msg("assisted.help")})


def engine_hint(screen: GameScreen) -> HintView:
    """The Hint action and its line (the games whose engine searches)."""
    session = screen.session
    assisted = session.assisted and not screen.reviewing and session.mode.opponent == COMPUTER
    return replace(_engine_hint(screen), assisted=ASSISTED if assisted else None)


def _engine_hint(screen: GameScreen) -> HintView:
    if not screen.insight.has_hint:
        return HintView(Button(shown=False), None, None)
    thinking = screen.insight.hint_thinking()
    button = Button(enabled=screen.insight.can_hint() and not thinking, shown=not screen.reviewing and not screen.session.is_over())
    hint = screen.insight.live_hint()
    if thinking:
        return HintView(button, HINT_SECONDS, Msg("hint.thinking"))
    if screen.insight.hint_failed and screen.insight.hint_for == screen.ticket():
        return HintView(button, None, Msg("hint.failed"))
    if hint is not None and hint.move is not None:
        mover = screen.session.state.turn
        return HintView(button, None, Msg("hint.engine", {"move": move_words(hint), "why": why(screen.game, hint, mover)}),
                        swap=hint.move == "swap")
    if screen.reviewing and screen.insight.marked_move() is not None:
        verdict = screen.insight.shown_verdict()
        assert verdict is not None
        return HintView(button, None, Msg("hint.better", {"move": move_words(verdict),
                                                          "why": why(screen.game, verdict, screen.shown_state().turn)}))
    return HintView(button, None, None)


def evaluation(screen: GameScreen) -> EvalView:
    """The evaluation bar for the position on screen, when it is on."""
    if not screen.settings.get("eval"):
        return EvalView(False, None, Msg("eval.waiting"), False)
    verdict = screen.insight.bar_verdict()
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
    move (whole even at 0 or 100 %), and the position on screen. Each position is a column that shows
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
            # A dot: a line of no length with round ends, its width in screen
            # pixels (css/app.css), round however far the drawing is stretched,
            # on a wider one of the surface's colour.
            dot = {"x1": x(at), "x2": x(at), "y1": y(verdict.percent), "y2": y(verdict.percent)}
            children.append(node("line", {"class": f"graph-halo {mark}", **dot}))
            children.append(node("line", {"class": f"graph-mark {mark}", **dot}))
    for at in range(positions):
        children.append(node("rect", {"class": "graph-hit", "data-graph-ply": str(at), "x": f"{max(0.0, (at - 0.5) * step):.1f}",
                                      "y": "0", "width": f"{step:.1f}", "height": str(GRAPH_HEIGHT)}))
    return node("svg", {"class": "graph", "viewBox": f"0 0 {GRAPH_WIDTH} {GRAPH_HEIGHT}",
                        "preserveAspectRatio": "none", "role": "img", "aria-label": Msg("analysis.graph_label"),
                        "data-testid": "analysis-graph"}, *children)


def analysis_view(screen: GameScreen) -> AnalysisView | None:
    """The analysis panel of a finished or reviewed game; None for the
    unfinished game being played."""
    if not screen.insight.can_analyse():
        return None
    analysis = screen.insight.shown_analysis()
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
    elif analysis.budget != screen.insight.budget:
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
    return AnalysisView(True, running, done, total, action, enabled, budgets, str(screen.insight.budget), progress, graph,
                        summary, screen.insight.analysis_failed)
