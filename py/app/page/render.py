"""Draws a ``screen_view.ScreenView`` into the game screen's elements. It
decides nothing: every value comes from the view model. No listeners are
attached here: the page delegates its events from the screen's containers
(page/app.py), so replacing the settings or toggles leaks nothing.
"""

from __future__ import annotations

from typing import Any, Iterable

import js

from .dom import BoardView, build, element, found, patch, tr
from ..model.parts import Part
from ..model.clock import ClockView
from ..model.insight_view import AnalysisView, EvalView, HintView
from ..model.play_view import StatView
from ..model.review_view import MoveEntry, PastGamesView, ReviewView
from ..model.screen_view import InsightView, ScreenView
from ..model.words import Msg

shell = js.window.appShell


def by_id(name: str) -> Any:
    return js.document.getElementById(name)


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


class MoveList:
    """The move list: each move a button that shows the position after it
    (``data-ply``, clicks delegated by page/app.py), its number and who
    played it, the move's text in ``.move-text``. Drawn again only where it
    changed: stepping through a game moves the current mark, a move adds
    one entry (a long game's list rebuilt at every step would be hundreds
    of elements through the FFI)."""

    def __init__(self) -> None:
        # (ply, number, mark, text, swap, (judgement, its name) or None, the better move's label or None),
        # the words translated: a language change redraws what they change
        self.drawn: list[tuple[int, str, str, str, bool, tuple[str, str] | None, str | None]] = []
        self.buttons: list[Any] = []
        self.current: int | None = None

    def render(self, moves: Iterable[MoveEntry]) -> None:
        host = by_id("move-list")
        names: dict[Msg, str] = {}
        entries = list(moves)
        wanted = [(entry.ply, entry.number, self.mark(entry.mark, names), entry.text, entry.swap,
                   None if entry.judgement is None else (entry.judgement, self.mark(Msg(f"analysis.{entry.judgement}"), names)),
                   None if entry.better is None else tr(Msg("analysis.better", {"move": entry.better})))
                  for entry in entries]
        keep = 0
        while keep < min(len(wanted), len(self.drawn)) and wanted[keep][:5] == self.drawn[keep][:5]:
            if wanted[keep] != self.drawn[keep]:  # the analysis judged it: only its marks change
                self.judge(self.buttons[keep], wanted[keep])
            keep += 1
        if keep < len(self.drawn):  # an undo, another game: from there on anew
            for button in self.buttons[keep:]:
                button.parentElement.remove()
            del self.buttons[keep:]
            if self.current is not None and self.current >= keep:
                self.current = None
        for entry in wanted[keep:]:
            ply, number, mark, text, swap = entry[:5]
            attrs = {"type": "button", "class": "move" + (" swap" if swap else ""), "data-ply": ply,
                     "data-testid": f"move-{ply}"}
            button = element("button", attrs, element("span", {"class": "move-no"}, number),
                             element("span", {"class": "move-mark"}, mark),
                             element("span", {"class": "move-text", "data-testid": "move-text"}, text))
            host.append(element("li", {}, button))
            self.buttons.append(button)
            if entry[5] is not None or entry[6] is not None:
                self.judge(button, entry)
        self.drawn = wanted
        current = next((index for index, entry in enumerate(entries) if entry.current), None)
        if current != self.current:
            if self.current is not None:
                self.buttons[self.current].removeAttribute("aria-current")
            if current is not None:
                button = self.buttons[current]
                button.setAttribute("aria-current", "step")
                # The list scrolls itself, never the page.
                host.scrollTop = max(0, button.offsetTop - host.offsetTop - host.clientHeight // 2)
            self.current = current

    @staticmethod
    def judge(button: Any, entry: tuple[Any, ...]) -> None:
        """A move's marks from the analysis: its judgement on the button (a
        sign, its name for screen readers) and the better move beside it."""
        ply, judgement, better = entry[0], entry[5], entry[6]
        sign = button.querySelector(".move-judgement")
        if found(sign):
            sign.remove()
        if judgement is None:
            button.removeAttribute("data-judgement")
            button.removeAttribute("aria-description")
        else:
            kind, name = judgement
            button.setAttribute("data-judgement", kind)
            button.setAttribute("aria-description", name)
            button.append(element("span", {"class": "move-judgement", "aria-hidden": "true", "title": name},
                                  JUDGEMENT_SIGNS[kind]))
        item = button.parentElement
        old = item.querySelector(".move-better")
        if found(old):
            old.remove()
        if better is not None:
            item.append(element("button", {"type": "button", "class": "move-better", "data-better": ply,
                                           "data-testid": f"better-{ply}"}, better))

    @staticmethod
    def mark(mark: str | Msg, names: dict[Msg, str]) -> str:
        if not isinstance(mark, Msg):
            return mark
        if mark not in names:
            names[mark] = tr(mark)
        return names[mark]

    def clear(self) -> None:
        by_id("move-list").replaceChildren()
        self.drawn, self.buttons, self.current = [], [], None


MOVES = MoveList()
#: A judged move's sign in the list (its name is said to screen readers).
JUDGEMENT_SIGNS = {"mistake": "?", "blunder": "??"}


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
    by_id("assisted-note").hidden = not view.assisted
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


def render_review(view: ReviewView) -> None:
    """The review bar: shown once a move is made; while another position
    than the live one is on screen, it says which and marks the board."""
    bar = by_id("review")
    bar.hidden = view.total == 0 and view.origin == "live"
    label = by_id("review-label")
    label.textContent = tr(view.label) if view.reviewing else ""
    label.hidden = not view.reviewing
    for name in ("first", "prev", "next", "last"):
        by_id(f"review-{name}").disabled = not getattr(view, name).enabled
    by_id("review-live").hidden = not view.live.shown
    by_id("review-live").textContent = tr(Msg("review.live" if view.origin == "live" else "review.close"))
    for name in ("continue-computer", "continue-two"):
        by_id(name).hidden = not view.continue_here.shown
    by_id("board-area").classList.toggle("reviewing", view.reviewing)
    by_id("board").dataset.review = "true" if view.reviewing else "false"
    mark_open_past(view.past_id)


def mark_open_past(game_id: str | None) -> None:
    """Mark the past game on screen in the list (without drawing it again)."""
    archive = by_id("archive")
    for button in archive.querySelectorAll(".past-open[aria-current]"):
        button.removeAttribute("aria-current")
    if game_id is not None:
        button = archive.querySelector(f'.past-open[data-open="{game_id}"]')
        if found(button):
            button.setAttribute("aria-current", "true")


def render_past_games(view: PastGamesView) -> None:
    """The past games panel: each game a button that opens it for review,
    and one that deletes it (clicks delegated by page/app.py); the words
    every row shares are translated once."""
    items = []
    words_of: dict[Msg, str] = {}

    def tr_once(message: Msg) -> str:
        if message not in words_of:
            words_of[message] = tr(message)
        return words_of[message]

    for row in view.rows:
        words = [str(shell.formatDate(row.ended_ms)), tr_once(row.result), tr_once(row.opponent)]
        if row.variant is not None:
            words.append(tr_once(row.variant))
        words += [tr(Msg("past.moves", {"count": row.plies})), str(shell.formatDuration(row.duration_ms))]
        attrs = {"type": "button", "class": "past-open", "data-open": row.id}
        if row.open:
            attrs["aria-current"] = "true"
        items.append(element("li", {"data-testid": "archive-item", "data-id": row.id},
                             element("button", attrs, " · ".join(words)),
                             element("button", {"type": "button", "class": "past-delete", "data-delete": row.id,
                                                "data-testid": "archive-delete", "aria-label": tr(Msg("past.delete")),
                                                "title": tr(Msg("past.delete"))}, "✕")))
    by_id("archive").replaceChildren(*items)
    by_id("archive-empty").hidden = bool(items)
    by_id("archive-clear").hidden = not items
    more = by_id("archive-more")
    more.hidden = view.more == 0
    more.textContent = tr(Msg("past.more", {"count": view.next_page}))


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
        field = element("div", {"class": "field"}, element("label", {"for": control_id}, tr(setting.label)), select)
        if setting.note is not None:
            note_id = f"{control_id}-note"
            select.setAttribute("aria-describedby", note_id)
            field.append(element("p", {"id": note_id, "class": "field-note", "data-testid": note_id}, tr(setting.note)))
        controls.append(field)
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
        toggles.append(element("label", {"class": f"toggle toggle-{toggle.name}", "for": control_id}, box,
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
    MOVES.clear()
    ANALYSIS_DRAWN.clear()
    by_id("analysis-graph-host").replaceChildren()
    for name in ("settings", "toggles", "stats", "archive"):
        by_id(name).replaceChildren()
    for name in ("result", "confirm", "hint-text", "clock", "status-detail", "status-note", "swap", "swap-help", "review",
                 "hint", "hint-progress", "hint-line", "assisted-note", "eval-bar", "analysis"):
        by_id(name).hidden = True
    by_id("status").textContent = ""
