"""Small DOM helpers for the browser layer: build elements from view trees
(text only, never HTML), translate catalog messages through the shell,
keyboard movement on boards, form controls, and the error guard that turns
any Python exception into a friendly panel instead of a dead page.
"""

from __future__ import annotations

import traceback
from typing import Any, Awaitable, Callable

import js
from pyodide.ffi import create_proxy, to_js

from .views import Msg

shell = js.window.appShell
_proxies: list[Any] = []  # event handlers must outlive this call


def tr(value: Any) -> str:
    """A Msg in the current language (nested Msgs first); anything else as
    text."""
    if isinstance(value, Msg):
        params = {name: tr(param) if isinstance(param, Msg) else param for name, param in value.params.items()}
        return str(shell.t(value.key, to_js(params, dict_converter=js.Object.fromEntries)))
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


def on(target: Any, event: str, handler: Callable[[Any], Any]) -> None:
    proxy = create_proxy(guarded(handler))
    _proxies.append(proxy)
    target.addEventListener(event, proxy)


SVG_NS = "http://www.w3.org/2000/svg"


def element(tag: str, attrs: dict[str, Any] | None = None, *children: Any, svg: bool = False) -> Any:
    node = js.document.createElementNS(SVG_NS, tag) if svg else js.document.createElement(tag)
    for name, value in (attrs or {}).items():
        node.setAttribute(name, tr(value))
    for child in children:
        node.append(child if hasattr(child, "nodeType") else tr(child))
    return node


def build(tree: Any, svg: bool = False) -> Any:
    """A view tree as DOM nodes; an ``svg`` element and everything inside it
    are created in the SVG namespace."""
    if isinstance(tree, (str, Msg)):
        return js.document.createTextNode(tr(tree))
    tag, attrs, children = tree
    svg = svg or tag == "svg"
    return element(tag, attrs, *(build(child, svg) for child in children), svg=svg)


def render_board(host: Any, tree: Any) -> None:
    """Replace the board, keeping keyboard focus on the same cell and one
    cell in the tab order (a roving tabindex)."""
    focused = js.document.activeElement
    focused_move = focused.dataset.move if focused is not None and host.contains(focused) else None
    host.replaceChildren(build(tree))
    cells = host.querySelectorAll("[data-move]")
    target = None
    if focused_move is not None:
        target = host.querySelector(f'[data-move="{focused_move}"]')
    if target is None:
        target = host.querySelector('[data-move][aria-disabled="false"]') or (cells.item(0) if cells.length else None)
    for index in range(cells.length):
        cells.item(index).tabIndex = -1
    if target is not None:
        target.tabIndex = 0
        if focused_move is not None:
            target.focus()


KEY_STEPS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}


def grid_keys(event: Any) -> None:
    """Arrow keys move the focus between cells by their grid position
    (``data-x``/``data-y``); Home/End jump to the first/last cell. Enter
    and Space play through the button's own click."""
    cell = event.target.closest("[data-move]")
    if cell is None:
        return
    host = event.currentTarget
    cells = [host.querySelectorAll("[data-move]").item(i) for i in range(host.querySelectorAll("[data-move]").length)]
    if event.key in ("Home", "End"):
        target = cells[0] if event.key == "Home" else cells[-1]
    elif event.key in KEY_STEPS:
        dx, dy = KEY_STEPS[event.key]
        x, y = int(cell.dataset.x) + dx, int(cell.dataset.y) + dy
        target = next((c for c in cells if int(c.dataset.x) == x and int(c.dataset.y) == y), None)
        if target is None:
            return
    else:
        return
    event.preventDefault()
    cell.tabIndex = -1
    target.tabIndex = 0
    target.focus()


def select_control(choice: Any, value: Any, label_of: Callable[[str, Any], Msg], changed: Callable[[str, Any], None]) -> Any:
    """A labelled <select> for one setting."""
    control_id = f"setting-{choice.name}"
    select = element("select", {"id": control_id, "name": choice.name, "data-testid": control_id})
    for option_value in choice.values:
        option = element("option", {"value": str(option_value)}, tr(label_of(choice.name, option_value)))
        if option_value == value:
            option.selected = True
        select.append(option)
    by_text = {str(v): v for v in choice.values}
    on(select, "change", lambda event: changed(choice.name, by_text[str(event.target.value)]))
    return element("label", {"class": "field", "for": control_id}, element("span", {}, tr(Msg(choice.label))), select)


def checkbox(name: str, label: Msg, checked: bool, changed: Callable[[bool], None]) -> Any:
    control_id = f"toggle-{name}"
    box = element("input", {"type": "checkbox", "id": control_id, "data-testid": control_id})
    box.checked = checked
    on(box, "change", lambda event: changed(bool(event.target.checked)))
    return element("label", {"class": "toggle", "for": control_id}, box, element("span", {}, tr(label)))


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

    def getItem(self, key: str) -> str | None:  # noqa: N802 - Web API name
        return _text_or_none(self.storage.getItem(key))

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        self.storage.setItem(key, value)

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.storage.removeItem(key)


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None
