"""Storage: namespacing, envelopes, backups of damaged data, fallbacks."""

from __future__ import annotations

import json

import pytest

from app.model.storage import (
    PREFIX,
    SCHEMA_VERSION,
    MemoryBackend,
    Notice,
    Storage,
)


class Clock:
    """A controllable clock (seconds)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def is_list_of_ints(data):
    return isinstance(data, list) and all(isinstance(x, int) for x in data)


def envelope(data, schema=SCHEMA_VERSION) -> str:
    return json.dumps({"schema": schema, "data": data})


class RaisingBackend:
    """Blocked storage: every access raises, like a SecurityError."""

    def __getattr__(self, name):
        raise RuntimeError("SecurityError: access denied")


class FullBackend(MemoryBackend):
    """Reads work, but setItem raises (quota exceeded) for chosen keys."""

    def __init__(self, items=None, full_for=None) -> None:
        super().__init__(items)
        self.full_for = full_for  # None: every key is full

    def setItem(self, key, value):  # noqa: N802
        if self.full_for is None or key in self.full_for:
            raise RuntimeError("QuotaExceededError")
        super().setItem(key, value)


# -- namespacing and round trip ------------------------------------------------
def test_write_then_read_round_trips_through_a_namespaced_envelope():
    backend = MemoryBackend()
    storage = Storage(backend)
    assert storage.write("stats/notakto", {"games": 3}) is True
    assert backend.items() == {
        "abstract-games/stats/notakto": json.dumps({"schema": 1, "data": {"games": 3}}, separators=(",", ":"))
    }
    assert storage.read("stats/notakto", lambda d: isinstance(d, dict), None) == {"games": 3}
    assert storage.notices == []


def test_missing_value_returns_default_without_notice():
    storage = Storage(MemoryBackend())
    default = object()
    assert storage.read("prefs", lambda d: True, default) is default
    assert storage.take_notices() == []


def test_raw_key_and_name_of_are_inverse_and_reject_foreign_keys():
    assert Storage.raw_key("save/hex") == "abstract-games/save/hex"
    assert Storage.name_of("abstract-games/save/hex") == "save/hex"
    assert Storage.name_of("other-app/save/hex") is None
    assert Storage.name_of("abstract-games/") is None
    assert Storage.name_of(None) is None  # localStorage.clear() event
    with pytest.raises(ValueError):
        Storage.raw_key("")


def test_foreign_keys_are_neither_read_nor_listed():
    backend = MemoryBackend({"prefs": envelope([1]), "other/backup/x/1": "y"})
    storage = Storage(backend)
    assert storage.read("prefs", is_list_of_ints, "default") == "default"
    assert storage.names() == []
    assert storage.backups() == []


def test_remove_deletes_only_the_named_key():
    backend = MemoryBackend()
    storage = Storage(backend)
    storage.write("save/hex", [1])
    storage.write("save/y", [2])
    assert storage.remove("save/hex") is True
    assert storage.read("save/hex", is_list_of_ints, None) is None
    assert storage.read("save/y", is_list_of_ints, None) == [2]
    assert list(backend.items()) == ["abstract-games/save/y"]


def test_non_json_data_cannot_be_written():
    storage = Storage(MemoryBackend())
    with pytest.raises(ValueError):
        storage.write("prefs", float("nan"))
    with pytest.raises(TypeError):
        storage.write("prefs", {1, 2})


# -- damaged values ------------------------------------------------------------
DAMAGED = {
    "not json": "{not json",
    "empty string": "",
    "not an envelope": json.dumps([1, 2, 3]),
    "envelope without data": json.dumps({"schema": 1}),
    "schema not an int": json.dumps({"schema": "1", "data": [1]}),
    "schema is a bool": json.dumps({"schema": True, "data": [1]}),
    "older schema": json.dumps({"schema": 0, "data": [1]}),
    "fails validation": envelope(["a", "b"]),
}


@pytest.mark.parametrize("raw", DAMAGED.values(), ids=DAMAGED.keys())
def test_damaged_value_is_backed_up_verbatim_and_default_returned(raw):
    other = envelope([7, 8])
    backend = MemoryBackend({PREFIX + "stats/notakto": raw, PREFIX + "stats/hex": other})
    storage = Storage(backend, clock=Clock(1_700_000_000.123))
    assert storage.read("stats/notakto", is_list_of_ints, "default") == "default"
    assert storage.backups() == ["backup/stats/notakto/1700000000123"]
    assert backend.getItem(PREFIX + "backup/stats/notakto/1700000000123") == raw
    # The original is left as is until the next write replaces it.
    assert backend.getItem(PREFIX + "stats/notakto") == raw
    # Another game's data is untouched and still readable.
    assert backend.getItem(PREFIX + "stats/hex") == other
    assert storage.read("stats/hex", is_list_of_ints, None) == [7, 8]
    assert storage.take_notices() == [Notice("corrupt", "stats/notakto")]


def test_validator_raising_value_error_counts_as_invalid():
    def strict(data):
        raise ValueError("bad shape")

    backend = MemoryBackend({PREFIX + "prefs": envelope({"a": 1})})
    storage = Storage(backend)
    assert storage.read("prefs", strict, 0) == 0
    assert storage.notices == [Notice("corrupt", "prefs")]
    assert len(storage.backups()) == 1


def test_repeated_reads_of_damaged_data_make_one_backup_and_one_notice():
    clock = Clock()
    backend = MemoryBackend({PREFIX + "prefs": "garbage"})
    storage = Storage(backend, clock=clock)
    for _ in range(3):
        clock.now += 1
        assert storage.read("prefs", lambda d: True, None) is None
    assert len(storage.backups()) == 1
    assert storage.notices == [Notice("corrupt", "prefs")]
    assert len(storage.take_notices()) == 1
    assert storage.take_notices() == []
    # A later page load (a new Storage) does not pile up another copy.
    clock.now += 60
    again = Storage(backend, clock=clock)
    again.read("prefs", lambda d: True, None)
    assert len(again.backups()) == 1
    assert again.notices == [Notice("corrupt", "prefs")]


def test_backups_are_never_overwritten():
    clock = Clock(1_700_000_000.5)
    existing = PREFIX + "backup/prefs/1700000000500"
    backend = MemoryBackend({existing: "older backup", PREFIX + "prefs": "new garbage"})
    storage = Storage(backend, clock=clock)
    storage.read("prefs", lambda d: True, None)
    assert backend.getItem(existing) == "older backup"
    assert backend.getItem(PREFIX + "backup/prefs/1700000000501") == "new garbage"
    # A different damaged value later gets its own backup.
    backend.setItem(PREFIX + "prefs", "other garbage")
    storage.read("prefs", lambda d: True, None)
    assert sorted(storage.read_raw(b) for b in storage.backups()) == [
        "new garbage", "older backup", "other garbage",
    ]


def test_backup_of_a_name_is_not_confused_with_a_longer_name():
    backend = MemoryBackend({
        PREFIX + "backup/stats/notakto/1": "x",  # a backup of "stats/notakto"
        PREFIX + "stats": "x",
    })
    storage = Storage(backend, clock=Clock(3.0))
    storage.read("stats", lambda d: True, None)
    # "stats" got its own backup even though an identical string is
    # backed up under "stats/notakto".
    assert storage.backups() == ["backup/stats/3000", "backup/stats/notakto/1"]
    assert storage.read_raw("backup/stats/3000") == "x"


def test_write_replaces_damaged_value_and_backup_survives():
    backend = MemoryBackend({PREFIX + "prefs": "{oops"})
    storage = Storage(backend)
    assert storage.read("prefs", lambda d: True, {}) == {}
    assert storage.write("prefs", {"lang": "en"}) is True
    assert storage.read("prefs", lambda d: True, None) == {"lang": "en"}
    [backup] = storage.backups()
    assert storage.read_raw(backup) == "{oops"


def test_write_over_unread_damaged_value_backs_it_up_first():
    backend = MemoryBackend({PREFIX + "prefs": "{oops"})
    storage = Storage(backend)
    assert storage.write("prefs", 1) is True
    [backup] = storage.backups()
    assert backend.getItem(PREFIX + backup) == "{oops"
    assert storage.notices == [Notice("corrupt", "prefs")]


def test_backup_write_failure_keeps_the_backup_in_memory():
    key = PREFIX + "settings/hex"
    backend = FullBackend({key: "damaged"})
    storage = Storage(backend, clock=Clock(2.0))
    assert storage.read("settings/hex", lambda d: True, "d") == "d"
    assert storage.backups() == ["backup/settings/hex/2000"]
    assert storage.read_raw("backup/settings/hex/2000") == "damaged"
    assert Notice("corrupt", "settings/hex") in storage.notices
    assert Notice("quota", "backup/settings/hex/2000") in storage.notices


# -- data from a newer app version ------------------------------------------------
def test_future_schema_is_backed_up_never_overwritten_nor_removed():
    future = json.dumps({"schema": SCHEMA_VERSION + 1, "data": {"new": "format"}})
    backend = MemoryBackend({PREFIX + "stats/hex": future, PREFIX + "stats/y": envelope([3])})
    storage = Storage(backend, clock=Clock(5.0))
    assert storage.read("stats/hex", lambda d: True, "default") == "default"
    assert storage.take_notices() == [Notice("future", "stats/hex")]
    assert storage.read_raw("backup/stats/hex/5000") == future
    assert storage.write("stats/hex", {"games": 1}) is False
    assert storage.remove("stats/hex") is False
    assert backend.getItem(PREFIX + "stats/hex") == future
    # Reads keep returning the default, and other names still work.
    assert storage.read("stats/hex", lambda d: True, "default") == "default"
    assert storage.write("stats/y", [4]) is True
    assert storage.read("stats/y", is_list_of_ints, None) == [4]
    assert storage.take_notices() == []  # "future" for stats/hex was reported once


def test_write_refuses_future_data_even_without_a_read_first():
    future = json.dumps({"schema": 99, "data": None})
    backend = MemoryBackend({PREFIX + "prefs": future})
    storage = Storage(backend)
    assert storage.write("prefs", {}) is False
    assert backend.getItem(PREFIX + "prefs") == future
    assert storage.notices == [Notice("future", "prefs")]
    assert len(storage.backups()) == 1


# -- quota and unavailable storage ---------------------------------------------------
def test_quota_failure_falls_back_to_memory_for_that_key():
    backend = FullBackend({PREFIX + "save/hex": envelope([1])}, full_for={PREFIX + "save/hex"})
    storage = Storage(backend)
    assert storage.write("save/hex", [2]) is True
    assert storage.in_memory("save/hex")
    assert storage.read("save/hex", is_list_of_ints, None) == [2]
    assert storage.take_notices() == [Notice("quota", "save/hex")]
    # The browser keeps the older value; other keys still persist.
    assert backend.getItem(PREFIX + "save/hex") == envelope([1])
    assert storage.write("save/y", [3]) is True
    assert not storage.in_memory("save/y")
    assert backend.getItem(PREFIX + "save/y") is not None
    # Second failure: no duplicate notice, still readable.
    assert storage.write("save/hex", [4]) is True
    assert storage.read("save/hex", is_list_of_ints, None) == [4]
    assert storage.take_notices() == []


def test_memory_copy_is_dropped_once_the_browser_accepts_the_key_again():
    backend = FullBackend(full_for={PREFIX + "prefs"})
    storage = Storage(backend)
    storage.write("prefs", 1)
    assert storage.in_memory("prefs")
    backend.full_for = set()
    storage.write("prefs", 2)
    assert not storage.in_memory("prefs")
    assert backend.getItem(PREFIX + "prefs") == envelope(2).replace(" ", "")
    # The browser value is read again (e.g. another tab updates it).
    backend.setItem(PREFIX + "prefs", envelope(3))
    assert storage.read("prefs", lambda d: True, None) == 3


class ByteQuota(MemoryBackend):
    """A backend that holds at most ``limit`` characters (keys and values),
    raising on a setItem beyond it, as a browser's quota does."""

    def __init__(self, limit: int, items=None) -> None:
        super().__init__(items)
        self.limit = limit

    def used(self, without=None) -> int:
        return sum(len(k) + len(v) for k, v in self.items().items() if k != without)

    def setItem(self, key, value):  # noqa: N802
        if self.used(without=key) + len(key) + len(str(value)) > self.limit:
            raise RuntimeError("QuotaExceededError")
        super().setItem(key, value)


def test_make_room_frees_space_until_the_write_fits():
    backend = ByteQuota(200)
    storage = Storage(backend)
    for index in range(3):
        assert storage.write(f"past/{index}", "x" * 20)
    calls = []

    def make_room():
        left = sorted(name for name in storage.names() if name.startswith("past/"))
        calls.append(left)
        return bool(left) and storage.remove(left[0])

    storage.make_room = make_room
    assert storage.write("save/hex", "y" * 60) is True
    assert not storage.in_memory("save/hex")
    assert storage.read("save/hex", lambda d: True, None) == "y" * 60
    assert len(calls) == 2 and storage.names() == ["past/2", "save/hex"]
    assert storage.take_notices() == []


def test_make_room_that_cannot_help_falls_back_to_memory():
    backend = FullBackend({PREFIX + "a": envelope(1), PREFIX + "b": envelope(2)})
    answers = iter([True, True, False])
    storage = Storage(backend, make_room=lambda: next(answers))
    assert storage.write("save/hex", [1]) is True
    assert storage.in_memory("save/hex")
    assert storage.take_notices() == [Notice("quota", "save/hex")]
    assert next(answers, "spent") == "spent"  # asked until it said False


def test_make_room_is_never_re_entered_and_cannot_loop_forever():
    backend = FullBackend({PREFIX + "a": envelope(1), PREFIX + "b": envelope(2)})
    calls = []

    def make_room():
        calls.append(1)
        # Its own write (and the backup of a damaged value) fails over to
        # memory instead of asking make_room again.
        storage.write("note", len(calls))
        return True  # wrongly claims to have freed something, every time

    storage = Storage(backend, make_room=make_room)
    assert storage.write("save/hex", [1]) is True
    assert storage.in_memory("save/hex") and storage.in_memory("note")
    assert 1 <= len(calls) <= 10
    # A backup asks for room too, and falls back to memory the same way.
    backend._items[PREFIX + "bad"] = "{not json"
    calls.clear()
    assert storage.read("bad", lambda d: True, "d") == "d"
    assert calls and storage.in_memory(storage.backups()[0])


def test_unusable_backend_runs_in_memory_with_a_notice():
    storage = Storage(RaisingBackend())
    assert storage.available is False
    assert storage.take_notices() == [Notice("unavailable", "")]
    assert storage.write("stats/notakto", {"games": 1}) is True
    assert storage.read("stats/notakto", lambda d: True, None) == {"games": 1}
    assert storage.in_memory("stats/notakto")
    assert storage.names() == ["stats/notakto"]
    assert storage.remove("stats/notakto") is True
    assert storage.read("stats/notakto", lambda d: True, None) is None
    assert storage.take_notices() == []


def test_no_backend_at_all_runs_in_memory():
    storage = Storage(None)
    assert not storage.available
    assert storage.notices == [Notice("unavailable", "")]
    storage.write("prefs", [1])
    assert storage.read("prefs", is_list_of_ints, None) == [1]


def test_backend_failing_after_start_returns_default_and_reports():
    class Flaky(MemoryBackend):
        broken = False

        def getItem(self, key):  # noqa: N802
            if self.broken:
                raise RuntimeError("SecurityError")
            return super().getItem(key)

    backend = Flaky({PREFIX + "prefs": envelope([1])})
    storage = Storage(backend)
    backend.broken = True
    assert storage.read("prefs", is_list_of_ints, "d") == "d"
    assert storage.notices == [Notice("unavailable", "prefs")]
    # No backup was made: nothing was damaged.
    assert storage.backups() == []


def test_memory_backend_behaves_like_local_storage():
    backend = MemoryBackend()
    assert backend.getItem("x") is None
    backend.setItem("x", 5)
    assert backend.getItem("x") == "5"
    assert backend.length == 1
    assert backend.key(0) == "x"
    assert backend.key(1) is None
    backend.removeItem("x")
    backend.removeItem("x")
    assert backend.length == 0


# -- set_aside: damage only the caller can see ---------------------------------------
def test_set_aside_backs_up_a_value_the_caller_rejected():
    raw = envelope({"moves": ["zz"]})
    backend = MemoryBackend({PREFIX + "save/hex": raw})
    storage = Storage(backend, clock=Clock(7.0))
    assert storage.read("save/hex", lambda d: True, None) == {"moves": ["zz"]}
    assert storage.set_aside("save/hex") == "backup/save/hex/7000"
    assert storage.read_raw("backup/save/hex/7000") == raw
    assert backend.getItem(PREFIX + "save/hex") == raw  # left until the next write
    assert storage.take_notices() == [Notice("corrupt", "save/hex")]
    # Setting the same value aside again reuses the backup.
    assert storage.set_aside("save/hex") == "backup/save/hex/7000"
    assert storage.backups() == ["backup/save/hex/7000"]
    assert storage.set_aside("missing") is None


def test_a_backend_that_lists_its_keys_at_once_gives_the_same_names() -> None:
    class Listing(MemoryBackend):
        """As the browser's wrapper (app/page/dom.py LocalStorage): every key in one call."""

        calls = 0

        def keys(self) -> list[str]:
            Listing.calls += 1
            return list(self.items())

        def key(self, index: int) -> str | None:
            raise AssertionError("listed key by key")

    items = {PREFIX + "stats/hex": '{"schema":1,"data":{}}', PREFIX + "past/hex/ab": "x", "someone-else": "y"}
    assert Storage(Listing(items)).names() == Storage(MemoryBackend(items)).names() == ["past/hex/ab", "stats/hex"]
    assert Listing.calls == 1
