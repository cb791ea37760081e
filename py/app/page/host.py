"""What the page's add-ons may ask of the app (``app.App``), as protocols:
the dialogs and the harness are given the app through these and know
nothing else of it, so they import nothing of the router (no import cycle)
and write none of its fields."""

from __future__ import annotations

from typing import Protocol

from ..model.screen import GameScreen
from ..model.transfer import Transferred
from .engine import Engine


class DialogHost(Protocol):
    """The dialogs' view of the app: the screen open now, and a game to
    review (an import: another game's screen opens first)."""

    @property
    def screen(self) -> GameScreen | None: ...

    def open_transferred(self, game: Transferred, origin: str) -> None: ...


class HarnessHost(Protocol):
    """The harness's view of the app: its engine, and its wall clock moved
    on (the move clock's tests, instead of waiting 30 s)."""

    @property
    def engine(self) -> Engine: ...

    def advance_clock(self, ms: float) -> None: ...
