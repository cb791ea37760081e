"""Namespaced, versioned access to localStorage that never loses a player's data.

Every key this app owns is ``"abstract-games/" + name`` (for example
``abstract-games/stats/notakto``), so the app shares the origin with anything
else without collisions, and the UI can tell its own keys apart in the
cross-tab ``storage`` event (``raw_key`` / ``name_of``).

Values are JSON envelopes ``{"schema": SCHEMA_VERSION, "data": ...}``. A value
that cannot be used (not JSON, not an envelope, rejected by the caller's
validator, or written by a newer app version) is never silently dropped: the
exact raw string is copied to ``backup/<name>/<timestamp-ms>`` first, the
caller gets its default, and a ``Notice`` says what happened. Data from a
newer schema is additionally protected: this Storage refuses to overwrite or
remove it, so going back to an older version of the app cannot destroy it.

When the browser refuses to store (quota full, storage blocked, private
mode), the optional ``make_room`` hook may free space first (the app drops
the oldest past games, see archive.py) and the write is tried again after
each success; only when it can free nothing more does the data live on in
memory for the rest of the session, with a notice the UI explains to the
player in their language.

Standard library only: the browser passes ``js.localStorage`` as ``backend``;
tests and the no-storage fallback use ``MemoryBackend``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

PREFIX = "abstract-games/"
SCHEMA_VERSION = 1
BACKUP_PREFIX = "backup/"

# Notice kinds: stable identifiers, translated by the UI.
CORRUPT = "corrupt"
FUTURE = "future"
QUOTA = "quota"
UNAVAILABLE = "unavailable"
NOTICE_KINDS = (CORRUPT, FUTURE, QUOTA, UNAVAILABLE)

# Exceptions a validator may raise to mean "this data has the wrong shape".
# Anything else (a bug in the validator) propagates so tests see it.
_SHAPE_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError)


@dataclass(frozen=True)
class Notice:
    """Something the player should hear about. ``kind`` is one of
    ``NOTICE_KINDS``; ``name`` is the storage name it concerns ("" when it
    concerns the whole storage, as for ``unavailable`` at start-up)."""

    kind: str
    name: str


class Backend(Protocol):
    """The part of the Web Storage interface this module uses."""

    length: int

    def getItem(self, key: str) -> str | None: ...  # noqa: N802 - Web API name
    def setItem(self, key: str, value: str) -> None: ...  # noqa: N802
    def removeItem(self, key: str) -> None: ...  # noqa: N802
    def key(self, index: int) -> str | None: ...


class MemoryBackend:
    """A localStorage look-alike kept in a dict (tests, and the fallback when
    the browser offers no storage)."""

    def __init__(self, items: dict[str, str] | None = None) -> None:
        self._items: dict[str, str] = dict(items or {})

    @property
    def length(self) -> int:
        """Number of stored keys (an attribute, as on ``js.localStorage``)."""
        return len(self._items)

    def key(self, index: int) -> str | None:
        """The key at ``index`` or None, like ``Storage.key``."""
        keys = list(self._items)
        return keys[index] if 0 <= index < len(keys) else None

    def getItem(self, key: str) -> str | None:  # noqa: N802 - Web API name
        """The stored string, or None for a missing key (as in Pyodide)."""
        return self._items.get(str(key))

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        """Store ``value`` as a string, like the browser does."""
        self._items[str(key)] = str(value)

    def removeItem(self, key: str) -> None:  # noqa: N802
        """Forget ``key``; a missing key is not an error."""
        self._items.pop(str(key), None)

    def clear(self) -> None:
        """Forget everything."""
        self._items.clear()

    def items(self) -> dict[str, str]:
        """A copy of every stored key and value (for tests)."""
        return dict(self._items)


class Storage:
    """Namespaced, enveloped, validated storage over a localStorage-like
    backend. See the module docstring for the guarantees."""

    def __init__(
        self,
        backend: Backend | None,
        clock: Callable[[], float] = time.time,
        make_room: Callable[[], bool] | None = None,
    ) -> None:
        """``backend`` is ``js.localStorage`` in the browser (None when even
        getting it failed); ``clock`` returns seconds since the epoch.
        ``make_room`` (also settable later as an attribute) is called when the
        browser refuses a write: it removes something expendable and returns
        True, or False when there is nothing left to remove."""
        self._clock = clock
        self.make_room = make_room
        self._making_room = False  # make_room is running: never call it again
        # Raw key -> raw envelope string: values the backend refused. They
        # shadow the backend for the rest of this session.
        self._memory: dict[str, str] = {}
        self._notices: list[Notice] = []
        self._noticed: set[tuple[str, str]] = set()
        self._taken = 0
        self._backend: Backend | None = backend if _usable(backend) else None
        if self._backend is None:
            self._notice(UNAVAILABLE, "")

    # -- names -------------------------------------------------------------
    @staticmethod
    def raw_key(name: str) -> str:
        """The localStorage key for ``name`` (what a ``storage`` event shows)."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"storage name must be a non-empty string, not {name!r}")
        return PREFIX + name

    @staticmethod
    def name_of(raw_key: str | None) -> str | None:
        """The name behind a localStorage key, or None for keys that are not
        ours (including the ``None`` key of a ``localStorage.clear()`` event)."""
        if isinstance(raw_key, str) and raw_key.startswith(PREFIX) and len(raw_key) > len(PREFIX):
            return raw_key[len(PREFIX):]
        return None

    # -- state -------------------------------------------------------------
    @property
    def available(self) -> bool:
        """False when the whole Storage runs in memory (nothing persists)."""
        return self._backend is not None

    def in_memory(self, name: str) -> bool:
        """True when ``name`` currently lives only in memory (will not
        survive a reload)."""
        return self._backend is None or self.raw_key(name) in self._memory

    def now_ms(self) -> int:
        """The clock in whole milliseconds (timestamps in keys and saves)."""
        return int(self._clock() * 1000)

    @property
    def notices(self) -> list[Notice]:
        """Every notice recorded so far, oldest first, each (kind, name) once."""
        return list(self._notices)

    def take_notices(self) -> list[Notice]:
        """The notices recorded since the previous call (the UI shows them)."""
        new = self._notices[self._taken:]
        self._taken = len(self._notices)
        return new

    # -- data --------------------------------------------------------------
    def read(self, name: str, validate: Callable[[Any], bool], default: Any) -> Any:
        """The stored data for ``name`` if it is present and valid, else
        ``default``. ``validate(data)`` returns a bool or raises ValueError.
        Unusable values are backed up and reported (see module docstring);
        the key itself is left alone until the next ``write``."""
        key = self.raw_key(name)
        raw: Any
        if key in self._memory:
            raw = self._memory[key]
        elif self._backend is None:
            return default
        else:
            try:
                raw = self._backend.getItem(key)
            except Exception:  # noqa: BLE001 - JsException in Pyodide
                self._notice(UNAVAILABLE, name)
                return default
        if raw is None:
            return default
        if not isinstance(raw, str):  # a foreign writer; keep what we can
            raw = str(raw)
        status, data = _decode(raw, validate)
        if status is None:
            return data
        self._set_aside(name, raw, status)
        return default

    def write(self, name: str, data: Any) -> bool:
        """Store ``data`` (JSON-ready) under ``name``. Returns True when it
        was stored — in the browser, or in memory for this session if the
        browser refused (``quota`` notice) — and False when it was refused
        because the current value comes from a newer app version (``future``
        notice). Data that is not JSON-serialisable raises (a caller bug)."""
        key = self.raw_key(name)
        text = json.dumps(
            {"schema": SCHEMA_VERSION, "data": data}, allow_nan=False, separators=(",", ":")
        )
        if self._backend is None:
            self._memory[key] = text
            return True
        if not self._may_replace(name, key):
            return False
        if not self._set_item(key, text):
            self._memory[key] = text
            self._notice(QUOTA, name)
            return True
        # The browser has the newest value again; stop shadowing it.
        self._memory.pop(key, None)
        return True

    def remove(self, name: str) -> bool:
        """Delete ``name``. False when refused (newer-version data) or when
        the browser raised."""
        key = self.raw_key(name)
        if self._backend is None:
            self._memory.pop(key, None)
            return True
        if not self._may_replace(name, key):
            return False
        self._memory.pop(key, None)
        try:
            self._backend.removeItem(key)
        except Exception:  # noqa: BLE001
            self._notice(UNAVAILABLE, name)
            return False
        return True

    def set_aside(self, name: str) -> str | None:
        """Back up the current value of ``name`` because the caller found it
        unusable beyond what its validator checks (e.g. a saved game whose
        moves do not replay), and record a ``corrupt`` notice. The value
        itself stays until the next write. Returns the backup's name (an
        existing identical backup is reused), or None if nothing is stored."""
        raw = self.read_raw(name)
        if raw is None:
            return None
        return self._set_aside(name, raw, CORRUPT)

    def read_raw(self, name: str) -> str | None:
        """The exact stored string for ``name`` (memory first), or None.
        Used to show or export backups."""
        key = self.raw_key(name)
        if key in self._memory:
            return self._memory[key]
        if self._backend is None:
            return None
        try:
            raw = self._backend.getItem(key)
        except Exception:  # noqa: BLE001
            return None
        return None if raw is None else str(raw)

    def names(self) -> list[str]:
        """Every name this app has stored (browser and memory), sorted."""
        found = {self.name_of(key) for key in self._backend_keys()}
        found.update(self.name_of(key) for key in self._memory)
        return sorted(name for name in found if name is not None)

    def backups(self) -> list[str]:
        """The names of all backups (``backup/<name>/<timestamp-ms>``), sorted."""
        return [name for name in self.names() if name.startswith(BACKUP_PREFIX)]

    # -- internals ---------------------------------------------------------
    def _notice(self, kind: str, name: str) -> None:
        if (kind, name) not in self._noticed:
            self._noticed.add((kind, name))
            self._notices.append(Notice(kind, name))

    def _may_replace(self, name: str, key: str) -> bool:
        """Check the value about to be replaced: refuse newer-version data,
        and set aside damaged data that nobody has read yet."""
        assert self._backend is not None
        try:
            current = self._backend.getItem(key)
        except Exception:  # noqa: BLE001 - let the write itself report failure
            return True
        if current is None:
            return True
        current = str(current)
        status, _ = _decode(current, _accept_any)
        if status is None:
            return True
        self._set_aside(name, current, status)
        if status == FUTURE:
            return False
        return True

    def _set_aside(self, name: str, raw: str, kind: str) -> str:
        """Record the notice and copy ``raw`` to a fresh backup key, unless
        an identical backup of this name already exists; returns the name of
        the backup holding ``raw``."""
        self._notice(kind, name)
        # An earlier read or page load may already have backed up the same
        # string (the damaged key stays until replaced): no pile of copies.
        for backup in self._backups_of(name):
            if self.read_raw(backup) == raw:
                return backup
        stamp = self.now_ms()
        existing = set(self.names())
        while f"{BACKUP_PREFIX}{name}/{stamp}" in existing:
            stamp += 1  # never overwrite an earlier backup
        backup = f"{BACKUP_PREFIX}{name}/{stamp}"
        key = self.raw_key(backup)
        if self._backend is not None:
            if self._set_item(key, raw):
                return backup
            self._notice(QUOTA, backup)
        self._memory[key] = raw
        return backup

    def _set_item(self, key: str, text: str) -> bool:
        """Store ``text`` in the browser; when it refuses, let ``make_room``
        free space and try again after each success. False when the browser
        still refuses. ``make_room`` is never re-entered (its own writes, or
        backups it causes, simply fail over to memory), and it is called at
        most once per stored key, so a hook that wrongly keeps answering
        True cannot hang the page."""
        assert self._backend is not None
        try:
            self._backend.setItem(key, text)
            return True
        except Exception:  # noqa: BLE001 - QuotaExceededError/SecurityError as JsException
            pass
        if self.make_room is None or self._making_room:
            return False
        self._making_room = True
        try:
            for _ in range(len(self._backend_keys()) + len(self._memory) + 1):
                if not self.make_room():
                    return False
                try:
                    self._backend.setItem(key, text)
                    return True
                except Exception:  # noqa: BLE001
                    continue
            return False
        finally:
            self._making_room = False

    def _backups_of(self, name: str) -> list[str]:
        start = f"{BACKUP_PREFIX}{name}/"
        # The suffix must be a bare timestamp: "backup/stats/1" belongs to
        # "stats", "backup/stats/notakto/1" does not.
        return [
            backup for backup in self.backups()
            if backup.startswith(start) and backup[len(start):].isdigit()
        ]

    def _backend_keys(self) -> list[str]:
        if self._backend is None:
            return []
        keys_of = getattr(self._backend, "keys", None)
        if callable(keys_of):  # every key in one call (the browser's: one FFI call, not two a key)
            try:
                return [key for key in keys_of() if isinstance(key, str)]
            except Exception:  # noqa: BLE001
                return []
        try:
            count = int(self._backend.length)
            keys = [self._backend.key(index) for index in range(count)]
        except Exception:  # noqa: BLE001
            return []
        return [key for key in keys if isinstance(key, str)]


def _usable(backend: Backend | None) -> bool:
    """Whether the backend answers at all (blocked storage raises on access)."""
    if backend is None:
        return False
    try:
        int(backend.length)
        backend.getItem(PREFIX + "prefs")
    except Exception:  # noqa: BLE001 - SecurityError arrives as JsException
        return False
    return True


def _accept_any(data: Any) -> bool:
    return True


def _decode(raw: str, validate: Callable[[Any], bool]) -> tuple[str | None, Any]:
    """(None, data) for a usable value, else (CORRUPT or FUTURE, None)."""
    try:
        envelope = json.loads(raw)
    except (ValueError, RecursionError):
        return CORRUPT, None
    if not isinstance(envelope, dict) or "data" not in envelope:
        return CORRUPT, None
    schema = envelope.get("schema")
    if type(schema) is not int:  # bool is not a schema number
        return CORRUPT, None
    if schema > SCHEMA_VERSION:
        return FUTURE, None
    if schema != SCHEMA_VERSION:
        # Older schemas would be migrated here; version 1 is the first.
        return CORRUPT, None
    try:
        ok = validate(envelope["data"])
    except _SHAPE_ERRORS:
        ok = False
    return (None, envelope["data"]) if ok else (CORRUPT, None)
