"""The unfinished game of each kind, saved after every move.

There is one slot per game (storage name ``save/<game>``), shared by every
tab of this browser. A slot holds ``{"tab", "rev", "saved_at", "game"}``:
the id of the tab that wrote it, a revision number that every write
increases, the time in ms, and the game itself (opaque here: a dict the
caller checks further by replaying its moves), or None when cleared. A
finished game stays in its slot (it is shown until the player starts
another); one marked ``"over": true`` is no conflict for another tab:
writing over it loses nothing (it is kept with the past games).

Two tabs must never silently overwrite each other's game. Each ``SaveSlot``
remembers which revision it last loaded or wrote; before writing it reads
the slot again, and if someone else has saved a game since, it does not
write but reports ``SaveResult.CONFLICT`` and keeps the other game in
``conflict``. The UI then lets the player choose: ``load()`` again (continue
the other tab's game: its newest version becomes what this tab has seen)
or ``force_save(game)`` (keep this tab's game).

Limit: localStorage has no compare-and-set, so two tabs writing within the
same instant can still race; the UI's ``storage`` event (see ``check``)
closes most of that window.

Beside the slot, ``preview/<game>`` holds what the game list's card draws of
the unfinished game (``board_preview``): the shell (shell/cards.js) draws the cards
before Python has started, so it cannot replay the slot's moves itself.
``write_preview`` keeps it in step with the slot: present while a game that
has begun is unfinished, removed once it is over or replaced by a new one.
"""

from __future__ import annotations

import enum
from typing import Any

from .games import SPECS
from .storage import Storage

_SLOT_KEYS = frozenset({"tab", "rev", "saved_at", "game"})


class SaveResult(enum.Enum):
    """What ``save``/``force_save``/``clear`` did."""

    SAVED = "saved"          # written (in memory only if Storage says quota/unavailable)
    CONFLICT = "conflict"    # not written: another tab's newer game is in ``conflict``
    REFUSED = "refused"      # not written: the slot holds a newer app version's data


def slot_name(game: str) -> str:
    """The storage name of ``game``'s save slot (``save/<game>``)."""
    return f"save/{game}"


def preview_name(game: str) -> str:
    """The storage name of the card's preview of ``game``'s unfinished game."""
    return f"preview/{game}"


def board_preview(state: Any, to_move: str, red_blue: bool = False) -> dict[str, Any]:
    """What the game list's card draws of ``state``: the game's card
    (``size``, ``cells``, ``boards``, ``last``: ``app.views.Card``, by the
    function its registry entry names, as the game's spec holds it),
    ``moves`` (how many were played) and ``to_move`` ("you", "computer" or
    "player", as ``session.who`` says it); ``red_blue`` whether Hex and Y stones are drawn red and blue
    (the player's setting) rather than blue and green."""
    card = SPECS[state.game].card(state)
    return {**card._asdict(), "moves": len(state.moves), "to_move": to_move, "red_blue": red_blue}


def write_preview(storage: Storage, game: str, state: Any, to_move: str, over: bool, red_blue: bool = False) -> None:
    """Keep the card's preview in step with the slot just written: the
    position while the game has begun and is not ``over`` (by the rules or
    by resignation), else no preview (the card then shows its plain board)."""
    if over or not state.moves:
        storage.remove(preview_name(game))
    else:
        storage.write(preview_name(game), board_preview(state, to_move, red_blue))


def validate_slot(obj: Any) -> bool:
    """True for a well-formed slot payload (the game itself is checked by
    the caller)."""
    if not isinstance(obj, dict) or set(obj) != _SLOT_KEYS:
        return False
    if not isinstance(obj["tab"], str) or not obj["tab"]:
        return False
    for field in ("rev", "saved_at"):
        value = obj[field]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return False
    return obj["game"] is None or isinstance(obj["game"], dict)


class SaveSlot:
    """One game's save slot as seen from one tab."""

    def __init__(self, storage: Storage, game: str, tab_id: str) -> None:
        """``tab_id`` must be unique per open tab (e.g. random at page load)."""
        if not isinstance(tab_id, str) or not tab_id:
            raise ValueError(f"tab id must be a non-empty string, not {tab_id!r}")
        self.storage = storage
        self.game = game
        self.tab_id = tab_id
        self.name = slot_name(game)
        self.conflict: dict[str, Any] | None = None
        # (rev, tab) of the slot when this tab last loaded or wrote it; None
        # before the first load. Comparing the pair, not just "rev is
        # greater", also catches a slot reset by clearing site data.
        self._seen: tuple[int, str] | None = None
        self._loaded = False

    @property
    def seen_rev(self) -> int | None:
        """The revision this tab last loaded or wrote (None: never looked)."""
        return None if self._seen is None else self._seen[0]

    def load(self) -> dict[str, Any] | None:
        """The saved payload if the slot holds an unfinished game, else None
        (empty, finished, or damaged — Storage backs up and reports damage).
        Whatever was there becomes what this tab has seen."""
        current = self._read()
        self.conflict = None
        self._loaded = True
        self._seen = None if current is None else (current["rev"], current["tab"])
        return current if current is not None and current["game"] is not None else None

    def check(self) -> bool:
        """True when another tab has saved a game since this tab last loaded
        or wrote (call it on the ``storage`` event); sets ``conflict``."""
        current = self._read()
        if self._is_foreign_game(current):
            self.conflict = current
            return True
        return False

    def save(self, game: dict[str, Any]) -> SaveResult:
        """Save this tab's game, unless another tab saved a game since this
        tab last loaded or wrote: then nothing is written, ``conflict`` holds
        the other payload and CONFLICT is returned."""
        _check_game(game)
        return self._write_unless_foreign(game)

    def force_save(self, game: dict[str, Any]) -> SaveResult:
        """Save this tab's game even over another tab's (the player chose
        to keep this one)."""
        _check_game(game)
        return self._write(self._read(), game)

    def clear(self) -> SaveResult:
        """Mark the game as ended (finished or replaced by a new game). The
        slot keeps a revision bump so other tabs notice. If another tab has
        saved a game since, that game is left alone and CONFLICT returned."""
        return self._write_unless_foreign(None)

    # -- internals ---------------------------------------------------------
    def _write_unless_foreign(self, game: dict[str, Any] | None) -> SaveResult:
        """Write ``game`` (None: the game ended) unless the slot holds a game
        this tab has not seen: then keep that one in ``conflict``."""
        current = self._read()
        if self._is_foreign_game(current):
            self.conflict = current
            return SaveResult.CONFLICT
        return self._write(current, game)

    def _read(self) -> dict[str, Any] | None:
        return self.storage.read(self.name, validate_slot, None)

    def _is_foreign_game(self, current: dict[str, Any] | None) -> bool:
        """A game that this tab has not seen is in the slot. An empty slot,
        or one holding a finished game, is never a conflict: writing over it
        loses nothing."""
        if current is None or current["game"] is None or current["game"].get("over") is True:
            return False
        if not self._loaded:
            return True  # a tab that never looked must not overwrite a game
        return self._seen != (current["rev"], current["tab"])

    def _write(self, current: dict[str, Any] | None, game: dict[str, Any] | None) -> SaveResult:
        # Revisions only grow, even when the slot was reset below what this
        # tab saw, so other tabs always see a change.
        rev = max(0 if current is None else current["rev"], self.seen_rev or 0) + 1
        payload = {"tab": self.tab_id, "rev": rev, "saved_at": self.storage.now_ms(), "game": game}
        if not self.storage.write(self.name, payload):
            return SaveResult.REFUSED
        self._seen = (rev, self.tab_id)
        self._loaded = True
        self.conflict = None
        return SaveResult.SAVED


def _check_game(game: Any) -> None:
    if not isinstance(game, dict):
        raise TypeError(f"a saved game must be a dict, not {type(game).__name__}")
