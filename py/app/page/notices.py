"""The bar of messages above the page: storage trouble, a game changed in
another tab, a new version, a link that could not be read."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..model.words import Msg
from . import dom
from .dom import by_id, found, on, tr


class Notices:
    """The bar of messages above the page: storage trouble, a game changed
    in another tab. Each is shown once and can be dismissed; its buttons'
    clicks are delegated from the bar."""

    def __init__(self) -> None:
        self.host = by_id("notices")
        self.shown: dict[str, tuple[Any, Msg, list[Callable[[], None]]]] = {}
        on(self.host, "click", self.clicked)

    def show(self, notice_id: str, message: Msg, actions: Sequence[tuple[Msg, Callable[[], None]]] = ()) -> None:
        self.dismiss(notice_id)
        box = dom.element("div", {"class": "notice", "role": "status", "data-testid": f"notice-{notice_id}"})
        box.append(dom.element("p", {}, tr(message)))
        callbacks = [action for _, action in actions] + [lambda: None]
        for index, (label, _) in enumerate(list(actions) + [(Msg("notice.dismiss"), None)]):
            box.append(dom.element("button", {"type": "button", "data-notice": notice_id, "data-action": index}, tr(label)))
        self.host.append(box)
        self.shown[notice_id] = (box, message, callbacks)

    def clicked(self, event: Any) -> None:
        button = event.target.closest("[data-notice]")
        if not found(button):
            return
        notice_id = str(button.dataset.notice)
        shown = self.shown.get(notice_id)
        if shown is None:
            return
        self.dismiss(notice_id)
        shown[2][int(button.dataset.action)]()

    def dismiss(self, notice_id: str) -> None:
        shown = self.shown.pop(notice_id, None)
        if shown:
            shown[0].remove()

    def translate(self) -> None:
        for box, message, _ in self.shown.values():
            box.querySelector("p").textContent = tr(message)
