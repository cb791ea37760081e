"""Draws a ``screen_view.ScreenView`` into the game screen's elements. It
decides nothing: every value comes from the view model. No listeners are
attached here: the page delegates its events from the screen's containers
(page/app.py), so replacing the settings or toggles leaks nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

import js

from ..model.clock_view import ClockView
from ..model.parts import Part
from ..model.play_view import StatView
from ..model.screen_view import InsightView, ScreenView
from ..model.words import Msg
from .dom import BoardView, by_id, element, found, tr
from .insight_panel import ANALYSIS_DRAWN, render_analysis, render_engine_hint, render_eval
from .review_panel import MOVES, render_review

shell = js.window.appShell


def render(view: ScreenView, parts: Iterable[Part], board: BoardView) -> None:
    """Draw the named parts of the screen (``parts.EVERY`` for all of them)."""
    parts = set(parts)
    if Part.BOARD in parts:
        board.render(view.board)
        hint = by_id("hint-text")
        hint.hidden = view.hint is None
        hint.textContent = "" if view.hint is None else tr(view.hint)
    if Part.STATUS in parts or Part.BOARD in parts:
        render_status(view)
    if Part.CLOCK in parts or Part.STATUS in parts:
        render_clock(view.clock)
    if Part.RESULT in parts:
        render_result(view)
    if Part.MOVES in parts:
        MOVES.render(view.moves)
    if Part.REVIEW in parts or Part.BOARD in parts:
        render_review(view.review)
    if Part.SETTINGS in parts:
        render_settings(view)
    if Part.TOGGLES in parts:
        render_toggles(view)
    if Part.CONFIRM in parts:
        render_confirm(view)
    if Part.HINT in parts or Part.BOARD in parts:
        render_engine_hint(view.engine_hint)
    if Part.EVAL in parts or Part.BOARD in parts:
        render_eval(view.evaluation)
    if Part.ANALYSIS in parts or Part.REVIEW in parts or Part.BOARD in parts:
        render_analysis(view.analysis)


def render_insight(view: InsightView, parts: Iterable[Part]) -> None:
    """Draw only what an answer of the engine's analysis changed."""
    parts = set(parts)
    if Part.MOVES in parts:
        MOVES.render(view.moves)
    if Part.HINT in parts:
        render_engine_hint(view.engine_hint)
    if Part.EVAL in parts:
        render_eval(view.evaluation)
    if Part.ANALYSIS in parts:
        render_analysis(view.analysis)


def render_status(view: ScreenView) -> None:
    status = by_id("status")
    status.textContent = tr(view.status)
    status.dataset.turn = str(view.turn)
    for name, message in (("status-detail", view.detail), ("status-note", view.note), ("swap-help", view.swap_help)):
        line = by_id(name)
        line.textContent = "" if message is None else tr(message)
        line.hidden = message is None
    for name in ("undo", "resign", "new_game", "swap"):
        button = getattr(view, name)
        node = by_id(name.replace("_", "-"))
        node.disabled = not button.enabled
        node.hidden = not button.shown


def render_clock(view: ClockView | None) -> None:
    clock = by_id("clock")
    if view is None:
        clock.hidden = True
        return
    clock.textContent = view.text
    clock.setAttribute("aria-label", tr(Msg("clock.label", {"time": view.text})))
    clock.classList.toggle("low", view.low)
    clock.hidden = False


def render_result(view: ScreenView) -> None:
    box = by_id("result")
    if view.result is None:
        box.hidden = True
        return
    by_id("result-text").textContent = tr(view.result.headline)
    by_id("result-reason").textContent = tr(view.result.reason)
    box.dataset.winner = "none" if view.result.winner is None else str(view.result.winner)
    box.hidden = False


def render_settings(view: ScreenView) -> None:
    """The settings form, drawn anew; the menu that had the focus (just
    changed with the keyboard) keeps it."""
    form = by_id("settings")
    focused = js.document.activeElement
    focused_id = str(focused.id) if found(focused) and form.contains(focused) and focused.id else None
    controls = []
    for setting in view.settings:
        control_id = f"setting-{setting.name}"
        select = element("select", {"id": control_id, "name": setting.name, "data-testid": control_id,
                                    "data-setting": setting.name})
        for value, label in setting.options:
            option = element("option", {"value": value}, tr(label))
            option.selected = value == setting.selected
            select.append(option)
        select.disabled = not setting.enabled
        field = element("div", {"class": "field"}, element("label", {"for": control_id}, tr(setting.label)), select)
        if setting.note is not None:
            note_id = f"{control_id}-note"
            select.setAttribute("aria-describedby", note_id)
            field.append(element("p", {"id": note_id, "class": "field-note", "data-testid": note_id}, tr(setting.note)))
        controls.append(field)
    if view.settings_note is not None:
        controls.append(element("p", {"class": "small", "data-testid": "settings-note"}, tr(view.settings_note)))
    form.replaceChildren(*controls)
    if focused_id is not None and found(by_id(focused_id)):
        by_id(focused_id).focus()


def render_toggles(view: ScreenView) -> None:
    toggles = []
    for toggle in view.toggles:
        control_id = f"toggle-{toggle.name}"
        box = element("input", {"type": "checkbox", "id": control_id, "data-testid": control_id,
                                "data-toggle": toggle.name})
        box.checked = toggle.checked
        toggles.append(element("label", {"class": f"toggle toggle-{toggle.name}", "for": control_id}, box,
                               element("span", {}, tr(toggle.label))))
    by_id("toggles").replaceChildren(*toggles)


def render_confirm(view: ScreenView) -> None:
    """The question, in a modal dialog over the page (which does not move
    for it); its yes button takes the focus when it opens."""
    box = by_id("confirm")
    if view.confirm is None:
        if box.open:
            box.close()
        return
    question, yes = view.confirm
    by_id("confirm-text").textContent = tr(question)
    yes_button = by_id("confirm-yes")
    yes_button.textContent = tr(yes)
    if not box.open:
        box.showModal()
        yes_button.focus()


def render_stats(rows: Iterable[StatView]) -> None:
    dash = tr(Msg("stats.none"))
    children = []
    for row in rows:
        if row.kind == "percent":
            text = shell.formatPercent(row.value)
        elif row.kind == "duration":
            text = shell.formatDuration(row.value)
        elif row.kind == "days":
            text = tr(Msg("stats.days", {"count": row.value}))
        elif row.kind == "number":
            text = shell.formatNumber(row.value)
        else:
            text = dash
        children.append(element("dt", {}, tr(Msg(f"stats.{row.name}"))))
        children.append(element("dd", {"data-testid": f"stat-{row.name}"}, str(text)))
    by_id("stats").replaceChildren(*children)


def clear_screen() -> None:
    """Take down what a game screen drew (leaving a screen: the next one
    draws its own, and nothing of this one may show under its title)."""
    MOVES.clear()
    ANALYSIS_DRAWN.clear()
    by_id("analysis-graph-host").replaceChildren()
    for name in ("settings", "toggles", "stats", "archive"):
        by_id(name).replaceChildren()
    if by_id("confirm").open:
        by_id("confirm").close()
    for name in ("result", "hint-text", "clock", "status-detail", "status-note", "swap", "swap-help", "review",
                 "hint", "hint-progress", "hint-line", "assisted-note", "eval-bar", "analysis"):
        by_id(name).hidden = True
    by_id("status").textContent = ""
