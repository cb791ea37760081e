"""Small DOM helpers for the browser layer: build elements from view trees
(text only, never HTML), translate catalog messages through the shell,
keyboard movement on boards, form controls, and the error guard that turns
any Python exception into a friendly panel instead of a dead page.
"""

from __future__ import annotations

import traceback
from collections.abc import Awaitable, Callable
from typing import Any

import js
from pyodide.ffi import JsNull, create_proxy, to_js

from ..model.words import Msg
from ..views import keys

shell = js.window.appShell
# Looked up once: every crossing into JavaScript costs, and a first draw
# translates hundreds of texts and creates hundreds of nodes.
_translate = shell.t
_from_entries = js.Object.fromEntries
_document = js.document


def by_id(name: str) -> Any:
    """The page's element with this id."""
    return js.document.getElementById(name)


def found(node: Any) -> bool:
    """Whether a DOM lookup found something: a missing element is JS
    ``null``, which Pyodide gives as ``jsnull``, not None."""
    return node is not None and not isinstance(node, JsNull)


def tr(value: Any) -> str:
    """A Msg in the current language (nested Msgs first); anything else as
    text."""
    if isinstance(value, Msg):
        if not value.params:
            return str(_translate(value.key))
        params = {name: tr(param) if isinstance(param, Msg) else param for name, param in value.params.items()}
        return str(_translate(value.key, to_js(params, dict_converter=_from_entries)))
    return str(value)


def report_error(error: BaseException) -> None:
    js.console.error("".join(traceback.format_exception(error)))
    shell.showError("runtime")


def guarded(function: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap an event handler: an exception is logged with its traceback and
    the player sees the friendly error panel; the page keeps working."""

    def handler(*args: Any) -> Any:
        try:
            return function(*args)
        except Exception as error:  # noqa: BLE001 - the last line of defence
            report_error(error)
            return None

    return handler


async def guard(awaitable: Awaitable[Any]) -> Any:
    try:
        return await awaitable
    except Exception as error:  # noqa: BLE001 - the last line of defence
        report_error(error)
        return None


class Listeners:
    """Event listeners (and their proxies) owned by one part of the page,
    released together: a screen that is taken down leaves nothing behind.
    ``LIVE`` counts the registrations of every group still bound."""

    LIVE = 0

    def __init__(self) -> None:
        self._bound: list[tuple[Any, str, Any]] = []

    def on(self, target: Any, event: str, handler: Callable[[Any], Any]) -> None:
        proxy = create_proxy(guarded(handler))
        target.addEventListener(event, proxy)
        self._bound.append((target, event, proxy))
        Listeners.LIVE += 1

    def release(self) -> None:
        for target, event, proxy in self._bound:
            target.removeEventListener(event, proxy)
            proxy.destroy()
        Listeners.LIVE -= len(self._bound)
        self._bound.clear()


class Interval:
    """``setInterval`` with a Python callback, stopped (and its proxy
    released) by ``stop``."""

    def __init__(self, callback: Callable[[], Any], ms: int) -> None:
        self._proxy = create_proxy(guarded(callback))
        self._id = js.setInterval(self._proxy, ms)
        Listeners.LIVE += 1

    def stop(self) -> None:
        if self._proxy is not None:
            js.clearInterval(self._id)
            self._proxy.destroy()
            self._proxy = None
            Listeners.LIVE -= 1


#: The page's own listeners, bound once for the page's life.
PAGE = Listeners()
on = PAGE.on


SVG_NS = "http://www.w3.org/2000/svg"


def element(tag: str, attrs: dict[str, Any] | None = None, *children: Any, svg: bool = False) -> Any:
    node = _document.createElementNS(SVG_NS, tag) if svg else _document.createElement(tag)
    for name, value in (attrs or {}).items():
        node.setAttribute(name, tr(value))
    for child in children:
        node.append(child if hasattr(child, "nodeType") else tr(child))
    return node


def build(tree: Any, svg: bool = False) -> Any:
    """A view tree as DOM nodes; an ``svg`` element and everything inside it
    are created in the SVG namespace."""
    if isinstance(tree, (str, Msg)):
        return _document.createTextNode(tr(tree))
    tag, attrs, children = tree
    svg = svg or tag == "svg"
    return element(tag, attrs, *(build(child, svg) for child in children), svg=svg)


class BoardView:
    """Draws a board tree into its host and, on later draws, changes only
    what changed (a 19x19 Hex board has hundreds of cells: rebuilding them
    all through the FFI after every move would block the page). One cell
    is in the tab order (a roving tabindex) and keyboard focus stays on the
    same cell across draws."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self.tree: Any = None

    def reset(self) -> None:
        """Forget what is drawn (the next draw rebuilds: after a language
        change, every translated attribute must be redone)."""
        self.tree = None

    def clear(self) -> None:
        """Take the board off the page (its screen was left)."""
        self.host.replaceChildren()
        self.tree = None

    def render(self, tree: Any) -> None:
        focused = js.document.activeElement
        focused_move = None
        if found(focused) and self.host.contains(focused) and found(focused.getAttribute("data-move")):
            focused_move = str(focused.getAttribute("data-move"))
        tree = with_roving_tabindex(tree, focused_move)
        if self.tree is None or not self.host.firstElementChild:
            self.host.replaceChildren(build(tree))
        else:
            patch(self.host.firstElementChild, self.tree, tree, svg=False)
        self.tree = tree
        if focused_move is not None:
            target = self.host.querySelector(f'[data-move="{focused_move}"]')
            if found(target) and js.document.activeElement != target:
                target.focus()


def _cells(tree: Any) -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = []
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            if "data-move" in item[1]:
                cells.append(item[1])
            stack.extend(reversed(item[2]))
    return cells


def with_roving_tabindex(tree: Any, focused_move: str | None) -> Any:
    """The tree with tabindex 0 on one cell (the focused one, else the first
    playable, else the first) and -1 on the others."""
    cells = _cells(tree)
    chosen = next((c for c in cells if c["data-move"] == focused_move), None)
    chosen = chosen or next((c for c in cells if c.get("aria-disabled") == "false"), None) or (cells[0] if cells else None)
    for cell in cells:
        cell["tabindex"] = "0" if cell is chosen else "-1"
    return tree


def patch(node: Any, old: Any, new: Any, svg: bool) -> None:
    """Make the DOM ``node`` drawn from ``old`` match ``new``, touching only
    what differs."""
    if old == new:
        return
    if not isinstance(old, tuple) or not isinstance(new, tuple) or old[0] != new[0]:
        node.replaceWith(build(new, svg))
        return
    tag, old_attrs, old_children = old
    _, new_attrs, new_children = new
    svg = svg or tag == "svg"
    if old_attrs != new_attrs:
        for name, value in new_attrs.items():
            if old_attrs.get(name) != value:
                node.setAttribute(name, tr(value))
        for name in old_attrs:
            if name not in new_attrs:
                node.removeAttribute(name)
    if old_children != new_children:
        nodes = node.childNodes
        for index, (old_child, new_child) in enumerate(zip(old_children, new_children)):
            if old_child != new_child:
                child = nodes.item(index)
                if isinstance(old_child, tuple) or isinstance(new_child, tuple):
                    patch(child, old_child, new_child, svg)
                else:
                    child.textContent = tr(new_child)
        # Children added or taken away at the end (a stone placed, the
        # coordinates turned on or off): the others stay the same elements,
        # so the placement animation of the last move does not start again.
        for _ in range(len(old_children) - len(new_children)):
            node.lastChild.remove()
        for new_child in new_children[len(old_children):]:
            node.append(build(new_child, svg))


def grid_keys(event: Any) -> None:
    """Arrow keys move the focus to the neighbouring cell in their direction
    on screen (views/keys.py); Home/End jump to the first/last cell. Enter
    and Space play: a <button> does it itself, an SVG cell gets a click."""
    cell = event.target.closest("[data-move]")
    host = event.currentTarget
    if not found(cell) or host.dataset.review == "true":  # reviewing: the keys step through the game
        return
    key = str(event.key)
    if key in ("Enter", " ") and cell.tagName.lower() != "button":
        event.preventDefault()
        cell.dispatchEvent(js.MouseEvent.new("click", to_js({"bubbles": True}, dict_converter=js.Object.fromEntries)))
        return
    if key == "Home":
        target = host.querySelector("[data-move]")
    elif key == "End":
        every = host.querySelectorAll("[data-move]")
        target = every.item(every.length - 1)
    elif key in keys.ARROWS:
        event.preventDefault()  # at an edge too: the page does not scroll the board away
        target = arrow_target(host, cell, key)
    else:
        return
    if not found(target):
        return
    event.preventDefault()
    cell.setAttribute("tabindex", "-1")
    target.setAttribute("tabindex", "0")
    target.focus()


def arrow_target(host: Any, cell: Any, key: str) -> Any:
    """The cell an arrow key moves the focus to from ``cell``, or None. The
    board host remembers the run of presses along one axis
    (``data-arrow-run``: the axis, the line the run began on, the cell it
    reached), so that a run keeps to its row or column on screen."""
    board = cell.closest("[data-lattice]")
    lattice = str(board.getAttribute("data-lattice")) if found(board) else keys.SQUARE
    here = (int(cell.getAttribute("data-x")), int(cell.getAttribute("data-y")))
    axis = keys.across(key)
    run_text = host.getAttribute("data-arrow-run")
    run = run_text.split(" ") if isinstance(run_text, str) else []
    same_run = len(run) == 3 and run[0] == str(axis) and run[2] == str(cell.getAttribute("data-move"))
    line = int(run[1]) if same_run else here[axis]
    for x, y in keys.targets(lattice, key, here, line):
        target = host.querySelector(f'[data-x="{x}"][data-y="{y}"]')
        if found(target):
            host.setAttribute("data-arrow-run", f"{axis} {line} {target.getAttribute('data-move')}")
            return target
    return None


class LocalStorage:
    """``window.localStorage`` with Python values: Pyodide turns a missing
    key's JS ``null`` into ``jsnull``, not None."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    @property
    def length(self) -> int:
        return int(self.storage.length)

    def key(self, index: int) -> str | None:
        return _text_or_none(self.storage.key(index))

    def keys(self) -> list[str]:
        """Every key at once: one call instead of two for each key."""
        return [str(key) for key in js.Object.keys(self.storage)]

    def getItem(self, key: str) -> str | None:  # noqa: N802 - Web API name
        return _text_or_none(self.storage.getItem(key))

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        self.storage.setItem(key, value)

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.storage.removeItem(key)


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None
