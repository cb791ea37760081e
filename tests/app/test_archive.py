"""Past games: real finished games kept, listed newest first, reviewed by
replaying them, trimmed to the last 200 per game, deleted, set aside when
damaged, and dropped oldest first when the browser's quota is full."""

from __future__ import annotations

import ast
import json
import random
import sys
from pathlib import Path

import pytest

from app.model.archive import LIMIT, Archive, PastGame, drop_oldest, record_name
from app.model.saves import SaveResult, SaveSlot
from app.model.session import COMPUTER, TWO_PLAYER, GameSession, Mode
from app.model.stats import load_stats, record_game
from app.model.storage import CORRUPT, PREFIX, QUOTA, MemoryBackend, Notice, Storage
from registry import GAMES

SMALL = {"notakto": {"boards": 1}, "uttt": {}, "hex": {"size": 7}, "y": {"size": 9}}
DAY = "2026-03-01"


class Clock:
    def __init__(self, start: float = 1_750_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


class ByteQuota(MemoryBackend):
    """At most ``limit`` characters of keys and values, like a browser's
    quota: a setItem beyond it raises."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def used(self, without: str | None = None) -> int:
        return sum(len(k) + len(v) for k, v in self.items().items() if k != without)

    def setItem(self, key, value):  # noqa: N802
        if self.used(without=key) + len(key) + len(str(value)) > self.limit:
            raise RuntimeError("QuotaExceededError")
        super().setItem(key, value)


def levels(game: str) -> list[str]:
    return list(GAMES[game].levels.names)


def begun(game: str, clock: Clock, *, opponent: str = COMPUTER, home_seat: int = 0,
          settings: dict | None = None) -> GameSession:
    mode = Mode(opponent, GAMES[game].levels.default if opponent == COMPUTER else "", home_seat)
    return GameSession(GAMES[game].new_state(SMALL[game] if settings is None else settings), mode, clock=clock)


def play(session: GameSession, seed: int, clock: Clock, moves: int | None = None) -> GameSession:
    """Random legal moves, 1.5 s apart, until the end (or ``moves`` more)."""
    rng = random.Random(seed)
    while not session.is_over() and moves != 0:
        session.play(rng.choice(session.state.legal_moves()))
        clock.now += 1.5
        moves = None if moves is None else moves - 1
    return session


def finished(game: str, seed: int, clock: Clock, *, resign_after: int | None = None, **kwargs) -> GameSession:
    """A real game played to its end, or resigned after ``resign_after`` moves."""
    session = play(begun(game, clock, **kwargs), seed, clock, resign_after)
    if resign_after is not None:
        session.resign()
    clock.now += 60  # the next game ends later
    return session


def record(storage: Storage, session: GameSession) -> None:
    """Count the game in the statistics, as the app does at the end."""
    level = session.mode.level
    record_game(storage, session.record(DAY, GAMES[session.game].levels.rating(level) if level else None))


def ids(entries: list[PastGame]) -> list[str]:
    return [entry.id for entry in entries]


def stored(storage: Storage, game: str, game_id: str) -> dict:
    return json.loads(storage.read_raw(record_name(game, game_id)))["data"]


def put(backend: MemoryBackend, game: str, game_id: str, data) -> str:
    """Write a record straight into the browser's storage (as damage would)."""
    name = record_name(game, game_id)
    backend.setItem(PREFIX + name, data if isinstance(data, str) else json.dumps({"schema": 1, "data": data}))
    return name


# -- adding and listing ------------------------------------------------------------
def test_finished_games_are_listed_newest_first_with_their_summary() -> None:
    clock, storage = Clock(), Storage(MemoryBackend())
    archive = Archive(storage, "hex")
    played = finished("hex", 1, clock)
    resigned = finished("hex", 2, clock, opponent=TWO_PLAYER, resign_after=4)
    second = finished("hex", 3, clock, home_seat=1, settings={"size": 9, "swap": False})
    added = [archive.add(session) for session in (played, resigned, second)]
    assert archive.entries() == added[::-1]
    entry = added[1]
    assert entry == PastGame(
        id=resigned.game_id, game="hex", ended_ms=resigned.ended_ms, duration_ms=resigned.duration_ms(),
        opponent=TWO_PLAYER, level="", home_seat=0, winner=1 - resigned.resigned, reason="resignation",
        plies=4, settings={"size": 7, "swap": True}, assisted=False)
    assert added[0].reason == "connection" and added[0].winner == played.outcome().winner
    assert added[0].plies == len(played.state.moves) and added[0].level == "casual"
    assert added[2].settings == {"size": 9, "swap": False} and added[2].home_seat == 1
    assert storage.notices == []


def test_games_ending_together_are_ordered_by_id() -> None:
    clock, storage = Clock(), Storage(MemoryBackend())
    archive = Archive(storage, "notakto")
    sessions = [begun("notakto", clock) for _ in range(3)]
    for session in sessions:
        play(session, 5, clock, moves=1)
    for session in sessions:
        session.resign()  # the clock stands still: all end at the same ms
        archive.add(session)
    assert ids(archive.entries()) == sorted((s.game_id for s in sessions), reverse=True)


def test_the_same_game_twice_is_one_record() -> None:
    clock, storage = Clock(), Storage(MemoryBackend())
    archive = Archive(storage, "uttt")
    session = finished("uttt", 7, clock)
    archive.add(session)
    archive.add(session)
    reviewed = archive.open(session.game_id, levels("uttt"))
    archive.add(reviewed)
    assert ids(archive.entries()) == [session.game_id]
    assert [name for name in storage.names() if name.startswith("past/")] == [record_name("uttt", session.game_id)]


def test_games_not_over_or_never_begun_are_not_kept() -> None:
    clock, storage = Clock(), Storage(MemoryBackend())
    archive = Archive(storage, "y")
    fresh = begun("y", clock)
    assert archive.add(fresh) is None
    assert archive.add(play(begun("y", clock), 1, clock, moves=3)) is None
    assert storage.names() == [] and archive.entries() == []
    # Resigning before the first move is a game that ended: it is kept.
    fresh.resign()
    kept = archive.add(fresh)
    assert kept is not None and kept.plies == 0 and kept.reason == "resignation" and kept.duration_ms == 0
    with pytest.raises(ValueError):
        archive.add(finished("hex", 1, clock))  # another game's archive


def test_the_last_200_of_each_game_are_kept() -> None:
    clock, storage = Clock(), Storage(MemoryBackend())
    notakto, hexes = Archive(storage, "notakto"), Archive(storage, "hex")
    other = [hexes.add(finished("hex", seed, clock)) for seed in range(3)]
    sessions = [finished("notakto", seed, clock) for seed in range(LIMIT + 1)]
    for session in sessions[:LIMIT]:
        notakto.add(session)
    assert ids(notakto.entries()) == [s.game_id for s in reversed(sessions[:LIMIT])]
    notakto.add(sessions[LIMIT])
    assert ids(notakto.entries()) == [s.game_id for s in reversed(sessions[1:])]
    assert storage.read_raw(record_name("notakto", sessions[0].game_id)) is None
    assert hexes.entries() == other[::-1]


# -- reviewing ---------------------------------------------------------------------
def test_opening_a_past_game_replays_it() -> None:
    clock, storage = Clock(), Storage(MemoryBackend())
    archive = Archive(storage, "hex")
    session = finished("hex", 11, clock, home_seat=1)
    archive.add(session)
    reviewed = archive.open(session.game_id, levels("hex"), clock=clock)
    assert reviewed is not None and reviewed.to_dict() == session.to_dict()
    assert reviewed.outcome() == session.outcome() and reviewed.is_over()
    assert archive.open("0" * 32, levels("hex")) is None
    assert archive.open("../save/hex", levels("hex")) is None
    assert storage.notices == []


def test_unknown_top_level_keys_are_kept_and_tolerated() -> None:
    clock, backend = Clock(), MemoryBackend()
    storage = Storage(backend)
    archive = Archive(storage, "notakto")
    session = finished("notakto", 3, clock)
    archive.add(session)
    data = stored(storage, "notakto", session.game_id)
    data["analysis"] = {"mistakes": [2, 5]}  # what a later version may add
    put(backend, "notakto", session.game_id, data)
    assert ids(archive.entries()) == [session.game_id]
    assert archive.open(session.game_id, levels("notakto")) is not None
    assert storage.notices == []


# -- damage ------------------------------------------------------------------------
SHAPE_DAMAGE = {
    "not json": lambda data: "{not json",
    "not an object": lambda data: [1, 2],
    "newer record version": lambda data: {**data, "version": 2},
    "version is a bool": lambda data: {**data, "version": True},
    "no session": lambda data: {"version": 1, "summary": data["summary"]},
    "summary field missing": lambda data: {**data, "summary": {k: v for k, v in data["summary"].items()
                                                                if k != "plies"}},
    "summary field extra": lambda data: {**data, "summary": {**data["summary"], "rating": 5}},
    "winner is text": lambda data: {**data, "summary": {**data["summary"], "winner": "0"}},
    "seat is a bool": lambda data: {**data, "summary": {**data["summary"], "home_seat": True}},
    "negative time": lambda data: {**data, "summary": {**data["summary"], "ended_ms": -1}},
    "no level against the computer": lambda data: {**data, "summary": {**data["summary"], "level": ""}},
    "unknown opponent": lambda data: {**data, "summary": {**data["summary"], "opponent": "robot"}},
    "settings not an object": lambda data: {**data, "summary": {**data["summary"], "settings": [7]}},
    "summary of another id": lambda data: {**data, "summary": {**data["summary"], "id": "ab"}},
    "session of another id": lambda data: {**data, "session": {**data["session"], "id": "ab"}},
    "summary of another game": lambda data: {**data, "summary": {**data["summary"], "game": "y"}},
}


@pytest.mark.parametrize("damage", SHAPE_DAMAGE.values(), ids=SHAPE_DAMAGE.keys())
def test_a_damaged_record_is_set_aside_and_the_others_still_list(damage) -> None:
    clock, backend = Clock(), MemoryBackend()
    storage = Storage(backend, clock=clock)
    archive = Archive(storage, "hex")
    good = [archive.add(finished("hex", seed, clock)) for seed in range(3)]
    victim = good.pop(1)
    data = damage(stored(storage, "hex", victim.id))
    name = put(backend, "hex", victim.id, data)
    raw = backend.getItem(PREFIX + name)
    assert archive.entries() == good[::-1]
    assert storage.take_notices() == [Notice(CORRUPT, name)]
    [backup] = storage.backups()
    assert backup.startswith(f"backup/{name}/") and storage.read_raw(backup) == raw
    # Listing again neither raises nor piles up copies; opening it is None.
    assert archive.entries() == good[::-1] and archive.open(victim.id, levels("hex")) is None
    assert storage.backups() == [backup]
    assert all(archive.open(entry.id, levels("hex")) is not None for entry in good)


def moves(data: dict) -> list[str]:
    return data["session"]["state"]["moves"]


REPLAY_DAMAGE = {
    "a move onto a taken cell": lambda d: moves(d).__setitem__(-1, moves(d)[-3]),
    "a move that names no cell": lambda d: moves(d).__setitem__(0, "zz99"),
    "a level that does not exist": lambda d: d["session"]["mode"].update(level="grandmaster"),
    "the game is not over": lambda d: moves(d).pop(),
    "another winner": lambda d: d["summary"].update(winner=1 - d["summary"]["winner"]),
    "another reason": lambda d: d["summary"].update(reason="resignation"),
    "another move count": lambda d: d["summary"].update(plies=d["summary"]["plies"] + 1),
    "other settings": lambda d: d["summary"].update(settings={"size": 9, "swap": True}),
    "another time": lambda d: d["summary"].update(duration_ms=d["summary"]["duration_ms"] + 1),
}


@pytest.mark.parametrize("damage", REPLAY_DAMAGE.values(), ids=REPLAY_DAMAGE.keys())
def test_a_record_that_does_not_replay_to_its_summary_is_set_aside_when_opened(damage) -> None:
    clock, backend = Clock(), MemoryBackend()
    storage = Storage(backend, clock=clock)
    archive = Archive(storage, "hex")
    good = [archive.add(finished("hex", seed, clock)) for seed in range(3)]
    victim = good.pop(1)
    data = stored(storage, "hex", victim.id)
    damage(data)
    name = put(backend, "hex", victim.id, data)
    raw = backend.getItem(PREFIX + name)
    assert len(archive.entries()) == 3  # its shape is fine: listed until opened
    assert archive.open(victim.id, levels("hex")) is None
    assert storage.take_notices() == [Notice(CORRUPT, name)]
    [backup] = storage.backups()
    assert storage.read_raw(backup) == raw
    assert archive.entries() == good[::-1]  # set aside: it left the list
    assert archive.open(victim.id, levels("hex")) is None and storage.take_notices() == []


# -- deleting and the statistics ---------------------------------------------------
def test_delete_one_or_all_of_a_game_leaves_everything_else() -> None:
    clock, backend = Clock(), MemoryBackend()
    storage = Storage(backend)
    uttt, hexes = Archive(storage, "uttt"), Archive(storage, "hex")
    games = [finished("uttt", seed, clock) for seed in range(3)]
    for session in games:
        uttt.add(session)
        record(storage, session)
    other = hexes.add(finished("hex", 1, clock))
    put(backend, "uttt", "dead", "{not json")
    stats = load_stats(storage, "uttt")
    uttt.delete(games[1].game_id)
    uttt.delete("0" * 32)  # unknown
    uttt.delete("../stats/uttt")  # not an id: nothing happens
    assert ids(uttt.entries()) == [games[2].game_id, games[0].game_id]
    uttt.delete_all()
    assert uttt.entries() == [] and hexes.entries() == [other]
    assert [name for name in storage.names() if name.startswith("past/uttt/")] == []
    assert [backup.rsplit("/", 1)[0] for backup in storage.backups()] == ["backup/past/uttt/dead"]
    assert load_stats(storage, "uttt") == stats and stats["games"] == 3


def test_trimming_changes_no_statistic() -> None:
    clock, storage = Clock(), Storage(MemoryBackend())
    archive = Archive(storage, "notakto", limit=3)
    for seed in range(6):
        session = finished("notakto", seed, clock)
        record(storage, session)
        archive.add(session)
    assert len(archive.entries()) == 3
    assert load_stats(storage, "notakto")["games"] == 6


# -- making room -------------------------------------------------------------------
def test_drop_oldest_removes_the_oldest_past_game_of_any_kind_and_nothing_else() -> None:
    clock, backend = Clock(), MemoryBackend()
    storage = Storage(backend)
    order = []
    for seed, game in enumerate(("hex", "notakto", "uttt", "hex", "notakto")):
        session = finished(game, seed, clock)
        Archive(storage, game).add(session)
        record(storage, session)
        order.append(record_name(game, session.game_id))
    SaveSlot(storage, "hex", "tab").force_save(play(begun("hex", clock), 1, clock, moves=5).to_dict())
    storage.write("prefs", {"language": "en"})
    put(backend, "y", "dead", "{not json")  # damaged: set aside, never dropped
    others = [name for name in storage.names() if name not in order]
    for index in range(len(order)):
        assert drop_oldest(storage) is True
        assert [name for name in order if storage.read_raw(name) is not None] == order[index + 1:]
    assert drop_oldest(storage) is False
    assert [name for name in storage.names() if not name.startswith("backup/")] == others


def test_a_full_quota_drops_the_oldest_past_games_and_keeps_the_unfinished_game() -> None:
    clock, backend = Clock(), ByteQuota(10**9)
    storage = Storage(backend, clock=clock)
    archive = Archive(storage, "hex")
    sessions = [finished("hex", seed, clock, settings={"size": 9}) for seed in range(12)]
    for session in sessions:
        record(storage, session)
    Archive(storage, "notakto").add(finished("notakto", 1, clock))  # the newest of all
    for session in sessions:
        archive.add(session)
    stats = load_stats(storage, "hex")
    backend.limit = backend.used() + 100  # full: no other game fits
    storage.make_room = lambda: drop_oldest(storage)

    newest = finished("hex", 99, clock, settings={"size": 9})
    assert archive.add(newest) is not None and not storage.in_memory(record_name("hex", newest.game_id))
    kept = ids(archive.entries())
    assert kept[0] == newest.game_id and 1 < len(kept) <= len(sessions)
    assert kept[1:] == [s.game_id for s in reversed(sessions)][: len(kept) - 1]  # oldest went first

    backend.limit = backend.used() + 100  # full again
    slot = SaveSlot(storage, "hex", "tab")
    slot.load()
    unfinished = play(begun("hex", clock, settings={"size": 11}), 5, clock, moves=40)
    assert slot.save(unfinished.to_dict()) == SaveResult.SAVED
    assert not storage.in_memory("save/hex") and backend.getItem(PREFIX + "save/hex") is not None
    left = ids(archive.entries())
    assert left and len(left) < len(kept) and left == kept[: len(left)]
    assert len(Archive(storage, "notakto").entries()) == 1  # newer than every hex record
    assert load_stats(storage, "hex") == stats and not storage.in_memory("stats/hex")
    assert all(notice.kind != QUOTA for notice in storage.notices)
    assert backend.used() <= backend.limit


def test_without_make_room_a_full_quota_keeps_the_game_in_memory_only() -> None:
    clock, backend = Clock(), ByteQuota(10**9)
    storage = Storage(backend, clock=clock)
    archive = Archive(storage, "hex")
    for seed in range(3):
        archive.add(finished("hex", seed, clock))
    backend.limit = backend.used()
    slot = SaveSlot(storage, "hex", "tab")
    slot.load()
    assert slot.save(play(begun("hex", clock), 5, clock, moves=4).to_dict()) == SaveResult.SAVED
    assert storage.in_memory("save/hex") and Notice(QUOTA, "save/hex") in storage.notices
    assert len(archive.entries()) == 3


def test_the_archive_is_a_pure_module() -> None:
    path = Path(__file__).resolve().parents[2] / "py" / "app" / "model" / "archive.py"
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.split(".")[0])
    assert imported <= set(sys.stdlib_module_names) | {"core", "registry"}, imported


def test_a_past_game_keeps_its_analysis_board_beside_its_record() -> None:
    clock, storage = Clock(), Storage(MemoryBackend())
    archive = Archive(storage, "hex")
    session = finished("hex", 12, clock)
    archive.add(session)
    before = stored(storage, "hex", session.game_id)
    assert archive.exploration(session.game_id) is None
    assert archive.keep_exploration(session.game_id, "1.AbC~000000")
    assert archive.exploration(session.game_id) == "1.AbC~000000"
    after = stored(storage, "hex", session.game_id)
    assert {key: value for key, value in after.items() if key != "explore"} == before  # the game itself as it was
    assert archive.open(session.game_id, levels("hex"), clock=clock).to_dict() == session.to_dict()
    assert not archive.keep_exploration("0" * 32, "1.x~000000")  # no such game: nothing written
    assert not archive.keep_exploration("../save/hex", "1.x~000000")
    assert archive.exploration("../save/hex") is None
