"""Draws a ``screen_view.ScreenView`` into the game screen's elements. It
decides nothing: every value comes from the view model. No listeners are
attached here: the page delegates its events from the screen's containers
(browser.py), so replacing the settings or toggles leaks nothing.
"""

from __future__ import annotations

from typing import Any, Iterable

import js

from .dom import BoardView, element, tr
from .screen_view import ClockView, ScreenView, StatView
from .views import Msg

shell = js.window.appShell


def by_id(name: str) -> Any:
    return js.document.getElementById(name)


def render(view: ScreenView, parts: Iterable[str], board: BoardView) -> None:
    """Draw the named parts of the screen (``screen.ALL`` for all of them)."""
    parts = set(parts)
    if "board" in parts:
        board.render(view.board)
        hint = by_id("hint-text")
        hint.hidden = view.hint is None
        hint.textContent = "" if view.hint is None else tr(view.hint)
    if "status" in parts or "board" in parts:
        render_status(view)
    if "clock" in parts or "status" in parts:
        render_clock(view.clock)
    if "result" in parts:
        render_result(view)
    if "moves" in parts:
        by_id("move-list").replaceChildren(*(element("li", {}, text) for text in view.moves))
    if "settings" in parts:
        render_settings(view)
    if "toggles" in parts:
        render_toggles(view)
    if "confirm" in parts:
        render_confirm(view)


def render_status(view: ScreenView) -> None:
    status = by_id("status")
    status.textContent = tr(view.status)
    status.dataset.turn = str(view.turn)
    detail = by_id("status-detail")
    detail.textContent = "" if view.detail is None else tr(view.detail)
    detail.hidden = view.detail is None
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
    controls = []
    for setting in view.settings:
        control_id = f"setting-{setting.name}"
        select = element("select", {"id": control_id, "name": setting.name, "data-testid": control_id,
                                    "data-setting": setting.name})
        for value, label in setting.options:
            option = element("option", {"value": value}, tr(label))
            option.selected = value == setting.selected
            select.append(option)
        controls.append(element("label", {"class": "field", "for": control_id},
                                element("span", {}, tr(setting.label)), select))
    if view.settings_pending:
        controls.append(element("p", {"class": "small", "data-testid": "settings-next"}, tr(Msg("settings.next_game"))))
    by_id("settings").replaceChildren(*controls)


def render_toggles(view: ScreenView) -> None:
    toggles = []
    for toggle in view.toggles:
        control_id = f"toggle-{toggle.name}"
        box = element("input", {"type": "checkbox", "id": control_id, "data-testid": control_id,
                                "data-toggle": toggle.name})
        box.checked = toggle.checked
        toggles.append(element("label", {"class": "toggle", "for": control_id}, box,
                               element("span", {}, tr(toggle.label))))
    by_id("toggles").replaceChildren(*toggles)


def render_confirm(view: ScreenView) -> None:
    """The question on screen; its yes button takes the focus when it opens."""
    box = by_id("confirm")
    if view.confirm is None:
        box.hidden = True
        return
    question, yes = view.confirm
    by_id("confirm-text").textContent = tr(question)
    yes_button = by_id("confirm-yes")
    yes_button.textContent = tr(yes)
    was_hidden = box.hidden
    box.hidden = False
    if was_hidden:
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
    for name in ("move-list", "settings", "toggles", "stats"):
        by_id(name).replaceChildren()
    for name in ("result", "confirm", "hint-text", "clock", "status-detail", "swap"):
        by_id(name).hidden = True
    by_id("status").textContent = ""
