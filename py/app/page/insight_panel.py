"""Draws the insight part of the screen: the Hint action and its line, the
evaluation bar and the analysis panel (``model.insight_view``). Decides
nothing."""

from __future__ import annotations

from typing import Any

from ..model.insight_view import AnalysisView, EvalView, HintView
from .dom import build, by_id, element, patch, tr


def render_engine_hint(view: HintView) -> None:
    """The Hint action, its progress while the engine thinks (drawn by CSS
    over the budget: the page does nothing meanwhile) and its line."""
    button = by_id("hint")
    button.hidden = not view.button.shown
    button.disabled = not view.button.enabled
    progress = by_id("hint-progress")
    if view.thinking is None:
        progress.hidden = True
    elif progress.hidden:
        progress.style.setProperty("--budget", f"{view.thinking}s")
        progress.hidden = False
    line = by_id("hint-line")
    line.hidden = view.line is None
    line.textContent = "" if view.line is None else tr(view.line)
    note = by_id("assisted-note")
    note.hidden = view.assisted is None
    note.textContent = "" if view.assisted is None else tr(view.assisted)
    by_id("swap").classList.toggle("hinted", view.swap)


def render_eval(view: EvalView) -> None:
    """The evaluation bar: the first player's share of the winning chance;
    while the engine thinks it keeps the last value, marked busy."""
    bar = by_id("eval-bar")
    bar.hidden = not view.shown
    if not view.shown:
        return
    bar.setAttribute("aria-busy", "true" if view.percent is None else "false")
    label = tr(view.label)
    by_id("eval-text").textContent = label
    bar.dataset.proven = "true" if view.proven else "false"
    if view.percent is not None:
        bar.setAttribute("aria-valuenow", str(view.percent))
        bar.setAttribute("aria-valuetext", label)
        by_id("eval-fill").style.setProperty("--share", f"{view.percent}%")


#: What the analysis panel shows now (its menu, its graph's tree), so that a
#: step through the game changes only what moved.
ANALYSIS_DRAWN: dict[str, Any] = {}


def render_analysis(view: AnalysisView | None) -> None:
    """The analysis panel: the budget, the action, the progress, the graph
    over the game and the count of mistakes and blunders."""
    box = by_id("analysis")
    box.hidden = view is None
    if view is None:
        return
    select = by_id("analysis-budget")
    menu = (tuple((value, tr(label)) for value, label in view.budgets), view.budget)
    if ANALYSIS_DRAWN.get("menu") != menu:
        options = []
        for value, label in menu[0]:
            option = element("option", {"value": value}, label)
            option.selected = value == view.budget
            options.append(option)
        select.replaceChildren(*options)
        ANALYSIS_DRAWN["menu"] = menu
    select.disabled = view.running
    action = by_id("analyse")
    action.textContent = tr(view.action)
    action.disabled = not view.action_enabled
    by_id("analysis-cancel").hidden = not view.running
    row = by_id("analysis-progress-row")
    row.hidden = view.progress is None
    progress = by_id("analysis-progress")
    progress.max = view.total
    progress.value = view.done
    by_id("analysis-progress-text").textContent = "" if view.progress is None else tr(view.progress)
    host = by_id("analysis-graph-host")
    drawn = ANALYSIS_DRAWN.get("graph")
    if view.graph is None:
        host.replaceChildren()
    elif drawn is None or not host.firstElementChild:
        host.replaceChildren(build(view.graph))
    else:  # a step through the game moves one line; an answer adds a point
        patch(host.firstElementChild, drawn, view.graph, svg=True)
    ANALYSIS_DRAWN["graph"] = view.graph
    summary = by_id("analysis-summary")
    summary.hidden = view.summary is None
    summary.textContent = "" if view.summary is None else tr(view.summary)
    by_id("analysis-failed").hidden = not view.failed
