"""Past games: every finished game, kept in this browser's storage.

Each record is one storage key, ``past/<game>/<id>`` (the session's game
id), so a damaged record is one key and never breaks the others. Its data is
``{"version": 1, "summary": {...}, "session": {...}}``: the summary holds the
``PastGame`` fields (enough to list the game without replaying it), the
session is ``GameSession.to_dict()`` (everything needed to review it). Other
top-level keys are left alone: ``"analysis"`` holds the game's analysis
(app/model/analysis.py), once the player has asked for one, and
``"explore"`` its analysis board (an exploration link's payload,
records.py), once the player has opened one from it.

Reading follows the storage rules of saves: every record's shape is checked
on read and a damaged one is set aside (Storage's backup and ``corrupt``
notice) and skipped; opening a record replays its moves, and a record that
does not replay, or whose replay disagrees with its summary, is set aside too.

The last ``LIMIT`` games of each kind are kept, the oldest dropped first.
The statistics (stats.py) are recorded separately and never read here, so
dropping or deleting a past game changes no statistic. ``drop_oldest`` is
the Storage's ``make_room`` hook: when the quota is full, the oldest past
games of any kind give way before the unfinished game would be lost.

Pure (standard library only), tested under CPython.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from core import GameError

from .session import COMPUTER, TWO_PLAYER, GameSession
from .storage import Storage

LIMIT = 200
RECORD_VERSION = 1
PREFIX = "past/"

_ID = re.compile(r"[0-9a-f]{1,64}")
_GAME = re.compile(r"[a-z0-9_]{1,32}")
# Errors a damaged session may raise while it is replayed.
_REPLAY_ERRORS = (GameError, ValueError, TypeError, KeyError, IndexError, AttributeError)


@dataclass(frozen=True)
class PastGame:
    """One entry of the list of past games, as the summary stores it.
    ``level`` is "" between two players; ``winner`` is a seat, None for a
    draw; ``reason`` is the Outcome's; ``plies`` counts every move."""

    id: str
    game: str
    ended_ms: int
    duration_ms: int
    opponent: str
    level: str
    home_seat: int
    winner: int | None
    reason: str
    plies: int
    settings: dict = field(hash=False)
    assisted: bool


_FIELDS = frozenset(f.name for f in fields(PastGame))


def record_name(game: str, game_id: str) -> str:
    """The storage name of one past game (``past/<game>/<id>``)."""
    return f"{PREFIX}{game}/{game_id}"


def summarize(session: GameSession) -> PastGame | None:
    """The summary of a finished ``session``; None while it is not over or
    when it never began (no move and no resignation)."""
    outcome = session.outcome()
    if outcome is None or (not session.state.moves and session.resigned is None):
        return None
    mode = session.mode
    return PastGame(
        id=session.game_id,
        game=session.game,
        ended_ms=session.ended_ms if session.ended_ms is not None else session.now_ms(),
        duration_ms=session.duration_ms(),
        opponent=mode.opponent,
        level=mode.level if mode.opponent == COMPUTER else "",
        home_seat=mode.home_seat,
        winner=outcome.winner,
        reason=outcome.reason,
        plies=len(session.state.moves),
        settings=session.state.settings(),
        # As in the statistics: a game with help (stats.py lists what counts).
        assisted=session.assisted or session.takeover[mode.home_seat],
    )


class Archive:
    """The past games of one kind (``game``) in ``storage``."""

    def __init__(self, storage: Storage, game: str, limit: int = LIMIT) -> None:
        if not isinstance(game, str) or not _GAME.fullmatch(game):
            raise ValueError(f"bad game name {game!r}")
        self.storage = storage
        self.game = game
        self.limit = limit
        # The list as last read (newest first), with the record names it was
        # read from: reading 200 records through the browser's storage is
        # dear, listing the names is not. Records removed or added behind
        # this object's back (another tab, the quota's drop_oldest) change
        # the names; one rewritten in place (another tab finishing the same
        # game) needs ``forget``.
        self._entries: tuple[tuple[str, ...], list[PastGame]] | None = None

    def add(self, session: GameSession) -> PastGame | None:
        """Keep a finished ``session`` (the same game id again replaces its
        record), then drop the oldest records beyond ``limit``. Returns its
        summary, or None (and keeps nothing) for a game not over or never
        begun."""
        if session.game != self.game:
            raise ValueError(f"a {session.game} game is not kept with {self.game}")
        if not _ID.fullmatch(session.game_id):
            raise ValueError(f"bad game id {session.game_id!r}")
        summary = summarize(session)
        if summary is None:
            return None
        saved = session.to_dict()
        saved["ended_ms"] = summary.ended_ms  # opening it gives the same summary
        record = {"version": RECORD_VERSION, "summary": asdict(summary), "session": saved}
        self.storage.write(record_name(self.game, summary.id), record)
        self.forget()
        for old in self.entries()[self.limit:]:
            self.storage.remove(record_name(self.game, old.id))
        self.forget()
        return summary

    def entries(self) -> list[PastGame]:
        """Every readable past game, newest first (ended_ms, then id, both
        descending). Damaged records are set aside by Storage and skipped."""
        names = tuple(self._names())
        if self._entries is None or self._entries[0] != names:
            found = [entry for entry in (_read(self.storage, name) for name in names) if entry is not None]
            self._entries = (names, sorted(found, key=_age, reverse=True))
        return list(self._entries[1])

    def forget(self) -> None:
        """Read the records again next time (another tab, or the quota's
        ``drop_oldest``, may have changed them)."""
        self._entries = None

    def open(self, game_id: str, levels: list[str], clock: Callable[[], float] = time.time) -> GameSession | None:
        """The full session of a past game, replayed through
        ``GameSession.from_dict`` (``levels``: the game's level names), or
        None when there is no such (readable) record. A record that does not
        replay, or replays to another result than its summary says, is set
        aside with a ``corrupt`` notice and leaves the list."""
        if not isinstance(game_id, str) or not _ID.fullmatch(game_id):
            return None
        name = record_name(self.game, game_id)
        data = self.storage.read(name, _validator(name), None)
        if data is None:
            self.forget()  # gone meanwhile (another tab, the quota) or damaged
            return None
        try:
            session = GameSession.from_dict(data["session"], levels, clock=clock)
        except _REPLAY_ERRORS:
            session = None
        if session is None or summarize(session) != PastGame(**data["summary"]):
            self.forget()
            backup = self.storage.set_aside(name)
            # Once its copy is safe in the browser, the record leaves the list.
            if backup is not None and not self.storage.in_memory(backup):
                self.storage.remove(name)
            return None
        return session

    def analysis(self, game_id: str) -> Any:
        """What was stored as the past game's analysis (``analysis.py``
        checks it), or None."""
        return self._kept(game_id, "analysis")

    def keep_analysis(self, game_id: str, analysis: dict[str, Any]) -> bool:
        """Keep ``analysis`` with the past game, so that it is not computed
        twice; False when there is no such past game (any more)."""
        return self._keep(game_id, "analysis", analysis)

    def exploration(self, game_id: str) -> Any:
        """What was stored as the past game's analysis board (an exploration
        link's payload, ``records.py`` checks it), or None."""
        return self._kept(game_id, "explore")

    def keep_exploration(self, game_id: str, payload: str) -> bool:
        """Keep the analysis board opened from the past game with it (its
        variations come back when the board is opened from it again);
        False when there is no such past game (any more)."""
        return self._keep(game_id, "explore", payload)

    def _kept(self, game_id: str, key: str) -> Any:
        if not isinstance(game_id, str) or not _ID.fullmatch(game_id):
            return None
        name = record_name(self.game, game_id)
        record = self.storage.read(name, _validator(name), None)
        return None if record is None else record.get(key)

    def _keep(self, game_id: str, key: str, value: Any) -> bool:
        if not isinstance(game_id, str) or not _ID.fullmatch(game_id):
            return False
        name = record_name(self.game, game_id)
        record = self.storage.read(name, _validator(name), None)
        if record is None:
            return False
        if record.get(key) == value:
            return True
        return self.storage.write(name, {**record, key: value})

    def delete(self, game_id: str) -> None:
        """Forget one past game (an unknown id is no error)."""
        if isinstance(game_id, str) and _ID.fullmatch(game_id):
            self.storage.remove(record_name(self.game, game_id))
            self.forget()

    def delete_all(self) -> None:
        """Forget every past game of this kind (others are left alone)."""
        for name in self._names():
            self.storage.remove(name)
        self.forget()

    def _names(self) -> list[str]:
        """The storage names of this game's records, damaged ones included."""
        prefix = record_name(self.game, "")
        return [name for name in self.storage.names() if name.startswith(prefix) and _parse_name(name)]


def drop_oldest(storage: Storage) -> bool:
    """Remove the single oldest past game of any kind (the ``make_room``
    hook); False when there is none left to remove. Damaged records are not
    candidates (they are set aside, not dropped), and nothing but past games
    is ever touched."""
    found = []
    for name in storage.names():
        entry = _read(storage, name) if _parse_name(name) is not None else None
        if entry is not None:
            found.append((_age(entry), name))
    for _, name in sorted(found):
        if storage.remove(name):
            return True
    return False


# -- reading and checking records ----------------------------------------------
def _parse_name(name: str) -> tuple[str, str] | None:
    """(game, id) of a past game's storage name, None for any other name."""
    if not name.startswith(PREFIX):
        return None
    game, _, game_id = name[len(PREFIX):].partition("/")
    if _GAME.fullmatch(game) and _ID.fullmatch(game_id):
        return game, game_id
    return None


def _read(storage: Storage, name: str) -> PastGame | None:
    data = storage.read(name, _validator(name), None)
    return None if data is None else PastGame(**data["summary"])


def _age(entry: PastGame) -> tuple[int, str]:
    return entry.ended_ms, entry.id


def _validator(name: str) -> Callable[[Any], bool]:
    parsed = _parse_name(name)
    assert parsed is not None, name
    game, game_id = parsed
    return lambda data: _valid_record(data, game, game_id)


def _valid_record(data: Any, game: str, game_id: str) -> bool:
    """The record's shape: the keys this version knows, with the summary's
    every field of the right type and naming this key's game and id."""
    if not isinstance(data, dict) or not _is_int(data.get("version")) or data["version"] != RECORD_VERSION:
        return False
    summary, session = data.get("summary"), data.get("session")
    if not isinstance(summary, dict) or set(summary) != _FIELDS:
        return False
    if not isinstance(session, dict) or session.get("id") != game_id:
        return False
    opponent, level, settings = summary["opponent"], summary["level"], summary["settings"]
    # A level against the computer, none between two players.
    levelled = isinstance(level, str) and (level != "") == (opponent == COMPUTER)
    return (
        summary["id"] == game_id
        and summary["game"] == game
        and all(_is_count(summary[key]) for key in ("ended_ms", "duration_ms", "plies"))
        and opponent in (COMPUTER, TWO_PLAYER) and levelled
        and summary["home_seat"] in (0, 1) and _is_int(summary["home_seat"])
        and (summary["winner"] is None or (summary["winner"] in (0, 1) and _is_int(summary["winner"])))
        and isinstance(summary["reason"], str) and bool(summary["reason"])
        and isinstance(settings, dict) and all(isinstance(key, str) for key in settings)
        and isinstance(summary["assisted"], bool)
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return _is_int(value) and value >= 0
