"""Save slots: one per game, shared by tabs, no silent overwrites."""

from __future__ import annotations

import json

import pytest

from app.model.saves import SaveResult, SaveSlot, slot_name, validate_slot
from app.model.storage import PREFIX, MemoryBackend, Notice, Storage


class Clock:
    def __init__(self, start: float = 1_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 0.001  # every call a new millisecond
        return self.now


def game(*moves: str) -> dict:
    return {"version": 1, "game": "hex", "settings": {"size": 11}, "moves": list(moves)}


def two_tabs(backend=None):
    """Two tabs of one browser: separate Storage objects over one backend."""
    backend = MemoryBackend() if backend is None else backend
    clock = Clock()
    a = SaveSlot(Storage(backend, clock=clock), "hex", "tab-a")
    b = SaveSlot(Storage(backend, clock=clock), "hex", "tab-b")
    return backend, a, b


def stored(backend) -> dict:
    return json.loads(backend.getItem(PREFIX + "save/hex"))["data"]


def test_save_and_load_round_trip_with_revisions():
    backend, a, _ = two_tabs()
    assert a.load() is None
    assert a.save(game("a1")) is SaveResult.SAVED
    assert a.save(game("a1", "b2")) is SaveResult.SAVED
    payload = stored(backend)
    assert payload["tab"] == "tab-a"
    assert payload["rev"] == 2
    assert payload["game"] == game("a1", "b2")
    assert isinstance(payload["saved_at"], int)
    fresh = SaveSlot(Storage(backend), "hex", "tab-c")
    assert fresh.load() == payload
    assert fresh.seen_rev == 2
    assert slot_name("hex") == "save/hex"


def test_second_tab_continues_after_loading():
    backend, a, b = two_tabs()
    a.load()
    a.save(game("a1"))
    assert b.load()["game"] == game("a1")
    assert b.save(game("a1", "b2")) is SaveResult.SAVED
    assert stored(backend)["rev"] == 2
    assert stored(backend)["tab"] == "tab-b"


def test_conflict_is_detected_and_nothing_is_overwritten():
    backend, a, b = two_tabs()
    a.load()
    b.load()
    assert a.save(game("a1")) is SaveResult.SAVED
    # Tab B has not seen A's game: it must not overwrite it.
    assert b.save(game("c3")) is SaveResult.CONFLICT
    assert stored(backend)["game"] == game("a1")
    assert b.conflict is not None
    assert b.conflict["tab"] == "tab-a"
    assert b.conflict["game"] == game("a1")
    # Still a conflict on the next move: no write slips through.
    assert b.save(game("c3", "d4")) is SaveResult.CONFLICT
    assert stored(backend)["game"] == game("a1")


def test_loading_again_takes_over_the_other_tabs_newest_game():
    backend, a, b = two_tabs()
    a.load()
    b.load()
    a.save(game("a1"))
    assert b.save(game("c3")) is SaveResult.CONFLICT
    a.save(game("a1", "b2"))  # the other tab moves on meanwhile
    taken = b.load()  # the player continues the other tab's game
    assert taken["game"] == game("a1", "b2")
    assert b.conflict is None
    assert b.seen_rev == 2
    assert b.save(game("a1", "b2", "c3")) is SaveResult.SAVED
    assert stored(backend)["rev"] == 3
    # Now tab A is the one behind.
    assert a.save(game("a1", "b2", "x9")) is SaveResult.CONFLICT


def test_force_save_keeps_this_tabs_game():
    backend, a, b = two_tabs()
    a.load()
    b.load()
    a.save(game("a1"))
    assert b.save(game("c3")) is SaveResult.CONFLICT
    assert b.force_save(game("c3")) is SaveResult.SAVED
    assert b.conflict is None
    assert stored(backend) | {"saved_at": 0} == {"tab": "tab-b", "rev": 2, "saved_at": 0, "game": game("c3")}
    assert b.save(game("c3", "d4")) is SaveResult.SAVED
    assert a.save(game("a1", "b2")) is SaveResult.CONFLICT


def test_tab_that_never_loaded_does_not_overwrite_a_game():
    backend, a, b = two_tabs()
    a.load()
    a.save(game("a1"))
    assert b.save(game("z1")) is SaveResult.CONFLICT
    assert stored(backend)["game"] == game("a1")


def test_tab_that_never_loaded_may_write_an_empty_slot():
    _, a, _ = two_tabs()
    assert a.save(game("a1")) is SaveResult.SAVED


def test_clear_bumps_the_revision_and_other_tabs_notice():
    backend, a, b = two_tabs()
    a.load()
    a.save(game("a1"))
    b.load()
    assert a.clear() is SaveResult.SAVED
    assert stored(backend)["game"] is None
    assert stored(backend)["rev"] == 2
    assert a.load() is None
    # An ended slot is not a conflict: writing over it loses nothing.
    assert b.check() is False
    assert b.save(game("a1", "b2")) is SaveResult.SAVED
    assert stored(backend)["rev"] == 3


def test_clear_leaves_another_tabs_newer_game_alone():
    backend, a, b = two_tabs()
    a.load()
    a.save(game("a1"))
    b.load()
    b.save(game("a1", "b2"))
    assert a.clear() is SaveResult.CONFLICT
    assert stored(backend)["game"] == game("a1", "b2")
    assert a.conflict["tab"] == "tab-b"


def test_check_reports_another_tabs_save():
    _, a, b = two_tabs()
    a.load()
    b.load()
    assert b.check() is False
    a.save(game("a1"))
    assert b.check() is True
    assert b.conflict["game"] == game("a1")
    assert a.check() is False


def test_same_revision_from_another_tab_is_still_a_conflict():
    # Two tabs that both saw rev 1 and wrote rev 2 at the same instant: the
    # one whose write was overwritten must notice on its next save.
    backend, a, b = two_tabs()
    a.load()
    a.save(game("a1"))
    b.load()
    a.save(game("a1", "x"))
    backend.setItem(PREFIX + "save/hex", json.dumps(
        {"schema": 1, "data": {"tab": "tab-b", "rev": 2, "saved_at": 5, "game": game("a1", "y")}}
    ))
    assert a.save(game("a1", "x", "z")) is SaveResult.CONFLICT


def test_revision_keeps_growing_after_the_slot_is_reset():
    backend, a, _ = two_tabs()
    a.load()
    for i in range(3):
        a.save(game(str(i)))
    backend.removeItem(PREFIX + "save/hex")  # site data cleared
    assert a.save(game("new")) is SaveResult.SAVED
    assert stored(backend)["rev"] == 4


def test_corrupted_slot_is_backed_up_and_loads_as_none():
    backend = MemoryBackend({PREFIX + "save/hex": '{"schema": 1, "data": {"tab": 3}}'})
    storage = Storage(backend)
    slot = SaveSlot(storage, "hex", "tab-a")
    assert slot.load() is None
    assert storage.notices == [Notice("corrupt", "save/hex")]
    [backup] = storage.backups()
    assert storage.read_raw(backup) == '{"schema": 1, "data": {"tab": 3}}'
    assert slot.save(game("a1")) is SaveResult.SAVED
    assert slot.load()["game"] == game("a1")


def test_future_slot_is_refused_and_kept():
    future = json.dumps({"schema": 2, "data": {"whatever": True}})
    backend = MemoryBackend({PREFIX + "save/hex": future})
    storage = Storage(backend)
    slot = SaveSlot(storage, "hex", "tab-a")
    assert slot.load() is None
    assert slot.save(game("a1")) is SaveResult.REFUSED
    assert slot.clear() is SaveResult.REFUSED
    assert backend.getItem(PREFIX + "save/hex") == future
    assert Notice("future", "save/hex") in storage.notices


def test_quota_failure_keeps_the_game_in_memory_for_this_tab():
    class Full(MemoryBackend):
        def setItem(self, key, value):  # noqa: N802
            raise RuntimeError("QuotaExceededError")

    storage = Storage(Full())
    slot = SaveSlot(storage, "hex", "tab-a")
    slot.load()
    assert slot.save(game("a1")) is SaveResult.SAVED
    assert slot.save(game("a1", "b2")) is SaveResult.SAVED
    assert slot.load()["game"] == game("a1", "b2")
    assert storage.notices == [Notice("quota", "save/hex")]


def test_slots_of_different_games_are_independent():
    backend = MemoryBackend()
    storage = Storage(backend)
    hex_slot = SaveSlot(storage, "hex", "t")
    y_slot = SaveSlot(storage, "y", "t")
    hex_slot.save(game("a1"))
    y_slot.save({"moves": ["b2"]})
    assert hex_slot.load()["game"] == game("a1")
    assert y_slot.load()["game"] == {"moves": ["b2"]}
    hex_slot.clear()
    assert y_slot.load()["game"] == {"moves": ["b2"]}


def test_bad_arguments():
    storage = Storage(MemoryBackend())
    with pytest.raises(ValueError):
        SaveSlot(storage, "hex", "")
    with pytest.raises(TypeError):
        SaveSlot(storage, "hex", "t").save(["a1"])


@pytest.mark.parametrize("payload, ok", [
    ({"tab": "t", "rev": 1, "saved_at": 0, "game": {}}, True),
    ({"tab": "t", "rev": 1, "saved_at": 0, "game": None}, True),
    ({"tab": "", "rev": 1, "saved_at": 0, "game": {}}, False),
    ({"tab": "t", "rev": -1, "saved_at": 0, "game": {}}, False),
    ({"tab": "t", "rev": True, "saved_at": 0, "game": {}}, False),
    ({"tab": "t", "rev": 1, "saved_at": 0.5, "game": {}}, False),
    ({"tab": "t", "rev": 1, "saved_at": 0, "game": []}, False),
    ({"tab": "t", "rev": 1, "saved_at": 0}, False),
    ({"tab": "t", "rev": 1, "saved_at": 0, "game": {}, "x": 1}, False),
    ([], False),
])
def test_validate_slot(payload, ok):
    assert validate_slot(payload) is ok


def test_game_the_caller_cannot_replay_is_set_aside_then_replaced():
    backend, a, _ = two_tabs()
    a.load()
    a.save(game("not-a-move"))
    raw = backend.getItem(PREFIX + "save/hex")
    # A new page load: the slot is well formed, but the moves do not replay.
    storage = Storage(backend, clock=Clock(50.0))
    slot = SaveSlot(storage, "hex", "tab-new")
    assert slot.load()["game"] == game("not-a-move")
    backup = storage.set_aside(slot.name)
    assert storage.read_raw(backup) == raw
    # The fresh game replaces it without a conflict: this tab has seen it.
    assert slot.save(game()) is SaveResult.SAVED
    assert stored(backend)["game"] == game()
    assert storage.read_raw(backup) == raw
