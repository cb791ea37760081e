"""What a game's screen keeps in storage, read and written here only: the
game's settings (with those waiting for the next game and who started the
last one), the app's sound and analysis budget, the unfinished game's save
slot with the game list's preview, the statistics and the past games.

The page's controller opens a screen with ``screen.open_screen``: it reads
what is kept (``ScreenStore.load``), builds the model from it (whose
constructor reads nothing) and writes the new game's save. The model writes through the
``ScreenStore`` it is given, never through the storage itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core import GameError, SaveError

from .analysis import BUDGETS, DEFAULT_BUDGET
from .archive import Archive
from .games import GameSpec
from .saves import SaveResult, SaveSlot, write_preview
from .session import GameSession, who
from .stats import GameRecord, record_game
from .storage import Storage

# The app's one sound setting (a storage name of its own, not a game's).
SOUND_SETTING = "sound"
# The analysis' budget per position (app-wide, remembered).
BUDGET_SETTING = "analysis_budget"


def settings_name(game: str) -> str:
    return f"settings/{game}"


@dataclass
class Saved:
    """What a screen opens with: the game's settings (validated), the
    settings chosen for the next game, the home player's seat in the last
    game, the sound and the analysis budget, and the unfinished game, if
    its save could be read."""

    settings: dict[str, Any]
    pending: dict[str, Any]
    last_home_seat: int | None
    sound: bool
    budget: float
    session: GameSession | None


class ScreenStore:
    """One game's storage as its screen uses it."""

    def __init__(self, storage: Storage, game: str, tab_id: str) -> None:
        self.storage = storage
        self.game = game
        self.slot = SaveSlot(storage, game, tab_id)
        self.archive = Archive(storage, game)

    def load(self, spec: GameSpec, clock: Callable[[], float]) -> Saved:
        stored = self.storage.read(settings_name(self.game), lambda data: isinstance(data, dict), {})
        settings = spec.validate(stored)
        last = stored.get("last_home_seat")
        return Saved(
            settings=settings,
            pending=valid_pending(spec, settings, stored.get("pending")),
            last_home_seat=last if last in (0, 1) and not isinstance(last, bool) else None,
            sound=self.storage.read(SOUND_SETTING, lambda data: isinstance(data, bool), False),
            budget=self.storage.read(BUDGET_SETTING, lambda data: data in BUDGETS, DEFAULT_BUDGET),
            session=self.restore(spec, clock),
        )

    def restore(self, spec: GameSpec, clock: Callable[[], float]) -> GameSession | None:
        """The unfinished game of the save slot, or None; a damaged save is
        set aside (the storage layer tells the player)."""
        payload = self.slot.load()
        if payload is None:
            return None
        try:
            return GameSession.from_dict(payload["game"], spec.levels, clock=clock)
        except (SaveError, GameError, KeyError, TypeError):
            self.storage.set_aside(self.slot.name)
            return None

    def save(self, session: GameSession, red_blue: bool) -> SaveResult:
        result = self.slot.save(session.to_dict())
        if result == SaveResult.SAVED:
            self.write_preview(session, red_blue)
        return result

    def force_save(self, session: GameSession, red_blue: bool) -> None:
        """This tab's game over another tab's."""
        if self.slot.force_save(session.to_dict()) == SaveResult.SAVED:
            self.write_preview(session, red_blue)

    def write_preview(self, session: GameSession, red_blue: bool) -> None:
        """The game list's card of this game shows what the slot now holds."""
        write_preview(self.storage, self.game, session.state, who(session.mode, session.state.turn),
                      session.is_over(), red_blue)

    def store_settings(self, settings: dict[str, Any], pending: dict[str, Any], last_home_seat: int | None) -> None:
        stored = {**settings, "pending": dict(pending), "last_home_seat": last_home_seat}
        self.storage.write(settings_name(self.game), stored)

    def store_sound(self, on: bool) -> None:
        self.storage.write(SOUND_SETTING, on)

    def store_budget(self, budget: float) -> None:
        self.storage.write(BUDGET_SETTING, budget)

    def record(self, session: GameSession, record: GameRecord, levels: list[str]) -> None:
        """A finished game: its statistics and its place in the past games."""
        index = levels.index(session.mode.level) if record.opponent_level in levels else None
        record_game(self.storage, record, level_index=index, level_count=len(levels))
        self.archive.add(session)


def valid_pending(spec: GameSpec, settings: dict[str, Any], pending: Any) -> dict[str, Any]:
    """The kept settings for the next game that are still valid and differ
    from the game's."""
    if not isinstance(pending, dict):
        return {}
    valid = spec.validate(pending)
    return {choice.name: valid[choice.name] for choice in spec.choices
            if choice.applies == "next" and choice.name in pending and valid[choice.name] == pending[choice.name]
            and valid[choice.name] != settings[choice.name]}

