"""What the page's parts may ask of the app (``app.App``), as protocols:
the controller, the dialogs and the harness are given the app through
these and know nothing else of it: they import nothing of the router (no
import cycle) and write none of its fields."""

from __future__ import annotations

from typing import Any, Protocol

from ..model.screen import GameScreen
from ..model.transfer import Transferred
from ..model.words import Msg
from .dom import BoardView
from .engine import Engine
from .notices import Notices


class DialogHost(Protocol):
    """The dialogs' view of the app: the screen open now and the analysis
    board on screen (or None), a game to review (an import: another game's
    screen opens first) and a record to explore."""

    @property
    def screen(self) -> GameScreen | None: ...

    @property
    def explore(self) -> Any: ...

    def open_transferred(self, game: Transferred, origin: str) -> None: ...

    def open_exploration(self, record: Any) -> None: ...


class HarnessHost(Protocol):
    """The harness's view of the app: its engine, and its wall clock moved
    on (the move clock's tests, instead of waiting 30 s)."""

    @property
    def engine(self) -> Engine: ...

    def advance_clock(self, ms: float) -> None: ...


class ControllerHost(Protocol):
    """A screen's controller's view of the page: the board and its touch
    handling, whether the screen is a phone held upright, the engine, the
    notices and the live region."""

    @property
    def board(self) -> BoardView: ...

    @property
    def touch(self) -> Any: ...

    @property
    def portrait(self) -> Any: ...

    @property
    def engine(self) -> Engine: ...

    @property
    def notices(self) -> Notices: ...

    def announce(self, message: Msg) -> None: ...

    def show_storage_notices(self) -> None: ...
