"""Cells big enough for a finger.

On a touch screen whose board draws its cells smaller than ``SMALL_CELL_PX``
(Hex 11×11 or Y 13 on a 360 px phone), a fingertip covers three cells. So
there, by default (the ``confirm`` setting of every game), a first tap only
marks the cell and says which it is, and a second tap on the same cell
plays it; a tap elsewhere marks that cell instead. The board can also be
zoomed in its own frame (``ZOOMS``) and panned there with a finger, while
the page around it stays as it is. A mouse click, a pen on a board with
large cells and the keyboard play at once.

The page learns whether this applies from ``body[data-small-cells]``: the
setting's switch and the zoom buttons are shown only then (css/app.css).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import js

from ..model.words import Msg
from . import dom
from .dom import by_id, found, tr

#: Below this (CSS pixels, the smaller side of a cell's box) a cell is too
#: small for a fingertip (Apple and Google ask 44 and 48; 32 is where a
#: finger starts to hit the neighbour).
SMALL_CELL_PX = 32
#: The board's zoom levels: its width as a multiple of its frame's.
ZOOMS = (1, 1.5, 2)


class TouchBoard:
    """The board's touch state: the cell marked by a first tap (with the
    position it was marked in) and the zoom level."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self.coarse = js.window.matchMedia("(pointer: coarse)")
        self.zoom = 0
        #: Whether the cells are small at zoom 1 (the switch and the zoom
        #: buttons are offered), and whether they are small as drawn now.
        self.small_base = False
        self.small_now = False
        self.pending: tuple[str, Hashable] | None = None

    # -- measuring --------------------------------------------------------------------
    def cell_px(self) -> float | None:
        cell = self.host.querySelector("[data-move]")
        if not found(cell):
            return None
        box = cell.getBoundingClientRect()
        return min(float(box.width), float(box.height))

    def measure(self) -> None:
        """After the board is drawn, resized or zoomed."""
        size = self.cell_px()
        touch = bool(self.coarse.matches)
        if size is None or size <= 0:  # no board drawn (yet): keep what was found
            return
        self.small_now = touch and size < SMALL_CELL_PX
        self.small_base = touch and size / ZOOMS[self.zoom] < SMALL_CELL_PX
        js.document.body.dataset.smallCells = "true" if self.small_base else "false"
        if not self.small_base and self.zoom:
            self.set_zoom(0)

    # -- taps ------------------------------------------------------------------------
    def wants_play(self, event: Any, target: Any, confirm: bool, position: Hashable) -> bool:
        """Whether this click plays its cell, or (a first tap on a small
        cell) only marks it."""
        pointer = getattr(event, "pointerType", "")
        if not confirm or not self.small_now or pointer not in ("touch", "pen"):
            self.clear()
            return True
        move = str(target.dataset.move)
        if self.pending == (move, position):
            self.clear()
            return True
        self.clear()
        self.pending = (move, position)
        self._mark(target)
        prompt = by_id("tap-confirm")
        prompt.textContent = tr(Msg("tap.confirm", {"cell": move}))
        prompt.hidden = False
        return False

    def _mark(self, target: Any) -> None:
        target.setAttribute("data-pending", "true")

    def drawn(self, position: Hashable) -> None:
        """The board was drawn again: a mark made in another position is
        gone; one in this position is put back on its (maybe new) cell."""
        self.measure()
        if self.pending is None:
            return
        move, marked_in = self.pending
        if marked_in != position or not self.small_now:
            self.clear()
            return
        cell = self.host.querySelector(f'[data-move="{move}"]')
        if found(cell) and cell.getAttribute("aria-disabled") != "true":
            self._mark(cell)
        else:
            self.clear()

    def clear(self) -> None:
        self.pending = None
        for cell in self.host.querySelectorAll('[data-pending="true"]'):
            cell.removeAttribute("data-pending")
        prompt = by_id("tap-confirm")
        if found(prompt):
            prompt.hidden = True

    # -- zoom ------------------------------------------------------------------------
    def step_zoom(self, by: int) -> None:
        self.set_zoom(max(0, min(len(ZOOMS) - 1, self.zoom + by)))

    def set_zoom(self, index: int) -> None:
        self.zoom = index
        if index:
            self.host.dataset.zoom = str(ZOOMS[index])
        else:
            self.host.removeAttribute("data-zoom")
        by_id("zoom-in").disabled = index == len(ZOOMS) - 1
        by_id("zoom-out").disabled = index == 0
        # The middle of the board in view, where a game is mostly played.
        self.host.scrollLeft = (self.host.scrollWidth - self.host.clientWidth) / 2
        self.host.scrollTop = (self.host.scrollHeight - self.host.clientHeight) / 2
        self.measure()

    def zoom_click(self, event: Any) -> None:
        button = event.target.closest("[data-zoom-step]")
        if found(button):
            self.step_zoom(int(str(button.getAttribute("data-zoom-step"))))


def install(host: Any) -> TouchBoard:
    board = TouchBoard(host)
    dom.on(by_id("zoom"), "click", board.zoom_click)
    dom.on(js.window, "resize", lambda _event: board.measure())
    board.set_zoom(0)
    return board
