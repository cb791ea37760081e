"""Draws the review's part of the screen: the move list, the review bar and
the past games list (``model.review_view``). Decides nothing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import js

from ..model.review_view import MoveEntry, PastGamesView, ReviewView
from ..model.words import Msg
from .dom import by_id, element, found, tr

shell = js.window.appShell


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
        self.current: int | None = None  # the entry marked (aria-current), by index
        self.shown: int | None = None  # the entry of the position on the board, kept in view

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
        rebuilt = keep < max(len(wanted), len(self.drawn))  # entries added or taken away
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
                self.buttons[current].setAttribute("aria-current", "step")
            self.current = current
        shown = next((index for index, entry in enumerate(entries) if entry.shown), None)
        if shown != self.shown or rebuilt:  # not when only the analysis' marks changed: the player may be reading
            keep_in_view(host, None if shown is None else self.buttons[shown])
            self.shown = shown

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
        self.drawn, self.buttons, self.current, self.shown = [], [], None, None


def keep_in_view(host: Any, button: Any) -> None:
    """Scroll the move list itself, never the page (the board must not
    move), so that ``button`` lies wholly in the list's visible box:
    centred when it was not, as it was when it already was; the list's top
    for None (the position before the first move)."""
    if button is None:
        host.scrollTop = 0
        return
    top = host.getBoundingClientRect().top + host.clientTop
    own = button.getBoundingClientRect()
    if own.top >= top and own.bottom <= top + host.clientHeight:
        return
    host.scrollTop = host.scrollTop + own.top - top - (host.clientHeight - own.height) / 2


MOVES = MoveList()
#: A judged move's sign in the list (its name is said to screen readers).
JUDGEMENT_SIGNS = {"mistake": "?", "blunder": "??"}


def render_review(view: ReviewView) -> None:
    """The review bar: there from the start (its steps greyed out until a
    move is made), so that the first move moves nothing under it; while
    another position than the live one is on screen, it says which and
    marks the board."""
    by_id("review").hidden = False
    label = by_id("review-label")
    label.textContent = tr(view.label) if view.reviewing else ""
    label.hidden = not view.reviewing
    for name in ("first", "prev", "next", "last"):
        by_id(f"review-{name}").disabled = not getattr(view, name).enabled
    by_id("review-live").hidden = not view.live.shown
    by_id("review-live").textContent = tr(view.live_words)
    for name in ("continue-computer", "continue-two"):
        by_id(name).hidden = not view.continue_here.shown
    by_id("board-area").classList.toggle("reviewing", view.reviewing)
    by_id("board").dataset.review = "true" if view.reviewing else "false"
    mark_open_past(view.past_id)
    shell.showGameAddress(view.address)


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
