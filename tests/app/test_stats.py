"""Statistics: each definition of the module docstring, one by one."""

from __future__ import annotations

import copy
import datetime as dt
import itertools
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.model.stats import (
    RECENT_IDS,
    VIEW_FIELDS,
    GameRecord,
    apply_record,
    empty_stats,
    expected_score,
    load_stats,
    record_game,
    score,
    stats_name,
    stats_view,
    validate_stats,
)
from app.model.storage import PREFIX, MemoryBackend, Notice, Storage

_ids = itertools.count()


def rec(result="win", day="2024-05-01", *, level="beginner", rating=1000, moves=5,
        duration_ms=30_000, assisted=False, resigned=False, id=None, game="notakto"):
    """A record with sensible defaults; two-player records drop the level."""
    if result == "two_player":
        level = rating = None
    return GameRecord(
        id=id if id is not None else f"g{next(_ids)}", game=game, day=day, result=result,
        opponent_level=level, opponent_rating=rating, moves=moves,
        duration_ms=duration_ms, assisted=assisted, resigned=resigned,
    )


def play(*records, stats=None, **levels):
    stats = empty_stats() if stats is None else stats
    for record in records:
        stats = apply_record(stats, record, **levels)
        assert validate_stats(stats)
    return stats


def view(stats, today="2024-05-01"):
    return stats_view(stats, today)


# -- empty and view shape ---------------------------------------------------------
def test_empty_stats_view():
    stats = empty_stats()
    assert validate_stats(stats)
    assert view(stats) == {
        "games": 0, "wins": 0, "win_rate": None, "fastest_win_ms": None,
        "fewest_moves": None, "best_score": None, "current_streak": 0,
        "best_streak": 0, "rating": None,
    }
    assert tuple(view(stats)) == VIEW_FIELDS


def test_stats_survive_a_json_round_trip():
    stats = play(rec("win"), rec("draw"), rec("two_player"), level_index=0, level_count=3)
    again = json.loads(json.dumps(stats))
    assert validate_stats(again)
    assert view(again) == view(stats)


# -- games, wins, win rate ---------------------------------------------------------
def test_games_count_every_finished_game_wins_only_against_the_computer():
    stats = play(rec("win"), rec("loss"), rec("draw"), rec("two_player"), rec("two_player"))
    shown = view(stats)
    assert shown["games"] == 5
    assert shown["wins"] == 1
    # Win rate: wins over the 3 games against the computer; draws are not wins.
    assert shown["win_rate"] == pytest.approx(1 / 3)


def test_win_rate_is_none_with_only_two_player_games():
    shown = view(play(rec("two_player")))
    assert shown["games"] == 1
    assert shown["win_rate"] is None
    assert shown["rating"] is None


def test_assisted_and_resigned_games_still_count_but_an_assisted_win_is_no_win():
    stats = play(rec("win", assisted=True), rec("loss", resigned=True))
    shown = view(stats)
    # Played: both; the player's own results: the resigned loss only.
    assert (shown["games"], shown["wins"], shown["win_rate"]) == (2, 0, 0.0)
    assert shown["current_streak"] == 1
    assert view(play(rec("win", assisted=True)))["win_rate"] is None


def test_apply_record_does_not_modify_its_input():
    stats = play(rec("win"))
    before = copy.deepcopy(stats)
    apply_record(stats, rec("loss", day="2024-05-02"))
    assert stats == before


# -- records: fastest win, fewest moves, best score -------------------------------------
def test_records_come_only_from_unassisted_wins_against_the_computer():
    stats = play(
        rec("loss", moves=1, duration_ms=1),
        rec("draw", moves=2, duration_ms=2),
        rec("two_player", moves=3, duration_ms=3),
        rec("win", moves=4, duration_ms=4, assisted=True),
        level_index=2, level_count=3,
    )
    shown = view(stats)
    assert (shown["fastest_win_ms"], shown["fewest_moves"], shown["best_score"]) == (None, None, None)
    stats = play(rec("win", moves=9, duration_ms=90_000), stats=stats, level_index=0, level_count=3)
    shown = view(stats)
    assert (shown["fastest_win_ms"], shown["fewest_moves"], shown["best_score"]) == (90_000, 9, 170)


def test_fastest_and_fewest_are_independent_minimums():
    stats = play(rec("win", moves=10, duration_ms=20_000), rec("win", moves=6, duration_ms=50_000))
    shown = view(stats)
    assert shown["fastest_win_ms"] == 20_000
    assert shown["fewest_moves"] == 6


def test_best_score_is_the_maximum_and_needs_the_level_position():
    slow_hard = rec("win", duration_ms=400_000)
    fast_easy = rec("win", duration_ms=1_000)
    stats = play(slow_hard, level_index=2, level_count=3)  # 300 + 0
    stats = play(fast_easy, stats=stats, level_index=0, level_count=3)  # 100 + 100
    assert view(stats)["best_score"] == 300
    # Without the level position a win counts but cannot set a best score.
    stats = play(rec("win", duration_ms=0))
    assert view(stats)["wins"] == 1
    assert view(stats)["best_score"] is None


# -- score -------------------------------------------------------------------------
@pytest.mark.parametrize("level_index, duration_ms, expected", [
    (0, 0, 200),           # beginner, instant: 100 + 100
    (0, 2_999, 200),       # 2 s -> 2 // 3 = 0
    (0, 3_000, 199),       # 3 s costs the first point
    (1, 60_000, 280),      # 200 + (100 - 20)
    (2, 299_999, 301),     # 299 s -> 99 -> bonus 1
    (2, 300_000, 300),     # 5 minutes: no bonus left
    (3, 10_000_000, 400),  # never negative
])
def test_score_formula(level_index, duration_ms, expected):
    assert score(rec("win", duration_ms=duration_ms), level_index, 4) == expected


def test_score_is_monotone_in_level_and_speed():
    for seconds in range(0, 400):
        a = score(rec("win", duration_ms=seconds * 1000), 1, 3)
        slower = score(rec("win", duration_ms=(seconds + 1) * 1000), 1, 3)
        assert a >= slower  # faster is never worse
    # A harder level never scores less, whatever the speeds.
    slowest_hard = score(rec("win", duration_ms=10**9), 2, 3)
    fastest_easy = score(rec("win", duration_ms=0), 1, 3)
    assert slowest_hard >= fastest_easy


def test_only_wins_score_and_level_must_be_in_range():
    assert score(rec("loss"), 0, 3) is None
    assert score(rec("draw"), 0, 3) is None
    assert score(rec("two_player"), 0, 3) is None
    with pytest.raises(ValueError):
        score(rec("win"), 3, 3)
    with pytest.raises(ValueError):
        score(rec("win"), -1, 3)


# -- streaks -------------------------------------------------------------------------
def test_streak_counts_consecutive_days_and_several_games_a_day_once():
    stats = play(*(rec("loss", day=d) for d in ("2024-05-01", "2024-05-01", "2024-05-02", "2024-05-03")))
    assert view(stats, "2024-05-03")["current_streak"] == 3
    assert view(stats, "2024-05-03")["best_streak"] == 3


@pytest.mark.parametrize("days", [
    ("2024-01-30", "2024-01-31", "2024-02-01"),          # month boundary
    ("2023-12-31", "2024-01-01", "2024-01-02"),          # year boundary
    ("2024-02-28", "2024-02-29", "2024-03-01"),          # leap day
    ("2023-02-27", "2023-02-28", "2023-03-01"),          # no leap day
])
def test_streak_crosses_month_and_year_boundaries(days):
    stats = play(*(rec("two_player", day=d) for d in days))
    assert view(stats, days[-1])["current_streak"] == 3


def test_current_streak_today_yesterday_rule():
    stats = play(rec("win", day="2024-05-01"), rec("win", day="2024-05-02"))
    assert view(stats, "2024-05-02")["current_streak"] == 2  # played today
    assert view(stats, "2024-05-03")["current_streak"] == 2  # not yet today: still alive
    assert view(stats, "2024-05-04")["current_streak"] == 0  # a whole day missed
    assert view(stats, "2024-05-04")["best_streak"] == 2


def test_gap_resets_current_streak_but_best_streak_is_kept():
    stats = play(*(rec("loss", day=f"2024-05-0{d}") for d in (1, 2, 3)))
    stats = play(rec("loss", day="2024-05-05"), stats=stats)
    assert view(stats, "2024-05-05")["current_streak"] == 1
    assert view(stats, "2024-05-05")["best_streak"] == 3
    stats = play(rec("loss", day="2024-05-06"), stats=stats)
    assert view(stats, "2024-05-06")["current_streak"] == 2
    assert view(stats, "2024-05-06")["best_streak"] == 3


def test_record_from_an_earlier_day_counts_but_does_not_move_the_streak():
    stats = play(rec("win", day="2024-05-02"), rec("win", day="2024-05-03"))
    stats = play(rec("win", day="2024-05-01"), stats=stats)
    shown = view(stats, "2024-05-03")
    assert shown["games"] == 3
    assert shown["current_streak"] == 2
    assert stats["streak"]["last_day"] == "2024-05-03"


def test_streak_stores_only_last_day_current_and_best():
    stats = play(rec("loss", day="2024-05-01"))
    assert stats["streak"] == {"last_day": "2024-05-01", "current": 1, "best": 1}


# -- rating -------------------------------------------------------------------------
def test_rating_starts_at_1000_and_moves_the_right_way():
    assert view(play(rec("win", rating=1000)))["rating"] == 1016
    assert view(play(rec("loss", rating=1000)))["rating"] == 984
    assert view(play(rec("win", rating=1400)))["rating"] > 1016   # upset: bigger gain
    assert view(play(rec("loss", rating=600)))["rating"] < 984    # upset: bigger loss


def test_draw_against_an_equal_rating_leaves_the_rating_unchanged():
    stats = play(rec("draw", rating=1000))
    assert stats["rating"] == 1000.0
    assert view(stats)["rating"] == 1000


def test_draw_moves_towards_the_opponent_rating():
    assert play(rec("draw", rating=1200))["rating"] > 1000
    assert play(rec("draw", rating=800))["rating"] < 1000


def test_rating_is_exact_elo_and_stored_as_float():
    stats = play(rec("win", rating=1200), rec("loss", rating=800))
    r = 1000 + 32 * (1 - 1 / (1 + 10 ** ((1200 - 1000) / 400)))
    r = r + 32 * (0 - 1 / (1 + 10 ** ((800 - r) / 400)))
    assert stats["rating"] == pytest.approx(r)
    assert isinstance(stats["rating"], float)
    assert view(stats)["rating"] == math.floor(r + 0.5)
    assert expected_score(1000, 1000) == 0.5


def test_two_player_and_assisted_games_and_the_rating():
    stats = play(rec("win", rating=1000))
    assert play(rec("two_player"), stats=stats)["rating"] == stats["rating"]
    assert play(rec("win", rating=1000, assisted=True))["rating"] is None  # not the player's result
    assert play(rec("loss", rating=1000, assisted=True), stats=stats)["rating"] == stats["rating"]


# -- idempotence ----------------------------------------------------------------------
def test_the_same_record_twice_counts_once():
    game = rec("win", id="tab-a:42", moves=3, duration_ms=3000)
    once = play(game, level_index=0, level_count=3)
    twice = apply_record(once, game, level_index=0, level_count=3)
    assert twice == once


def test_idempotence_holds_after_more_than_recent_ids_other_games():
    stats = play(rec("loss", id="first"))
    others = [rec("loss", id=f"o{i}") for i in range(RECENT_IDS + 50)]
    stats = play(*others, stats=stats)
    assert len(stats["recent_ids"]) == RECENT_IDS
    assert view(stats)["games"] == RECENT_IDS + 51
    # Every one of the last RECENT_IDS games is still recognised.
    for again in others[-RECENT_IDS:]:
        assert apply_record(stats, again) == stats
    # Older ids are forgotten (the window is bounded on purpose).
    assert apply_record(stats, rec("loss", id="first"))["games"] == stats["games"] + 1


# -- validation -------------------------------------------------------------------------
def _bad(**changes):
    stats = play(rec("win", day="2024-05-01"), rec("loss", day="2024-05-02"), level_index=0, level_count=2)
    assert validate_stats(stats)
    for path, value in changes.items():
        target = stats
        *parents, last = path.split("__")
        for parent in parents:
            target = target[parent]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value
    return stats


@pytest.mark.parametrize("changes", [
    {"games": -1},
    {"games": 1.0},
    {"games": True},
    {"wins": 3},                           # wins > computer games
    {"computer_games": 5},                 # computer games > games
    {"fastest_win_ms": -5},
    {"fewest_moves": "3"},
    {"best_score": 1.5},
    {"rating": None},                      # computer games but no rating
    {"rating": float("nan")},
    {"rating": "1000"},
    {"streak__last_day": "2024-5-1"},
    {"streak__last_day": "20240501"},
    {"streak__last_day": "2024-02-30"},
    {"streak__current": 0},
    {"streak__current": 3},                # current > best
    {"streak__best": 9},                   # best > games
    {"streak__extra": 1},
    {"streak": KeyError},
    {"recent_ids": ["a", "a"]},
    {"recent_ids": "ab"},
    {"recent_ids": ["a", "b", "c"]},       # more ids than games
    {"extra": 1},
    {"wins": KeyError},
])
def test_validate_stats_rejects(changes):
    assert not validate_stats(_bad(**changes))


def test_validate_stats_rejects_records_without_wins_and_rating_without_games():
    stats = empty_stats()
    assert not validate_stats({**stats, "best_score": 100})
    assert not validate_stats({**stats, "rating": 1000.0})
    assert not validate_stats(None)
    assert not validate_stats([])


def test_apply_record_and_view_refuse_invalid_input():
    with pytest.raises(ValueError):
        apply_record({"games": 1}, rec("win"))
    with pytest.raises(ValueError):
        stats_view({"games": 1}, "2024-05-01")
    with pytest.raises(ValueError):
        stats_view(empty_stats(), "2024-W01-1")


@pytest.mark.parametrize("kwargs", [
    {"day": "2024-13-01"},
    {"day": "20240501"},
    {"result": "victory"},
    {"moves": -1},
    {"duration_ms": 1.5},
    {"assisted": 1},
    {"id": ""},
])
def test_game_record_rejects_bad_fields(kwargs):
    with pytest.raises(ValueError):
        rec(**kwargs)


def test_game_record_level_rules():
    with pytest.raises(ValueError):
        GameRecord("x", "hex", "2024-05-01", "two_player", "beginner", None, 1, 1)
    with pytest.raises(ValueError):
        GameRecord("x", "hex", "2024-05-01", "win", None, None, 1, 1)
    with pytest.raises(ValueError):
        GameRecord("x", "hex", "2024-05-01", "win", "beginner", 1000.0, 1, 1)


# -- storage glue ---------------------------------------------------------------------
def test_record_game_reads_fresh_and_writes_back():
    backend = MemoryBackend()
    tab_a, tab_b = Storage(backend), Storage(backend)
    game = rec("win", id="shared", game="hex", moves=4, duration_ms=6_000)
    record_game(tab_a, game, level_index=1, level_count=3)
    record_game(tab_b, game, level_index=1, level_count=3)  # the other tab, same game
    record_game(tab_b, rec("loss", game="hex"))
    stats = load_stats(tab_a, "hex")
    assert (stats["games"], stats["wins"]) == (2, 1)
    assert view(stats)["best_score"] == 298
    assert load_stats(tab_a, "notakto") == empty_stats()
    assert stats_name("hex") == "stats/hex"


def test_damaged_stats_are_backed_up_and_start_empty():
    backend = MemoryBackend({PREFIX + "stats/hex": json.dumps({"schema": 1, "data": {"games": -1}})})
    storage = Storage(backend)
    assert load_stats(storage, "hex") == empty_stats()
    assert storage.notices == [Notice("corrupt", "stats/hex")]
    assert len(storage.backups()) == 1


# -- properties -------------------------------------------------------------------------
# A window across a month and a year boundary, small enough for runs and gaps.
days = st.dates(min_value=dt.date(2023, 12, 20), max_value=dt.date(2024, 1, 15)).map(dt.date.isoformat)


@st.composite
def records(draw):
    result = draw(st.sampled_from(["win", "loss", "draw", "two_player"]))
    return rec(
        result,
        day=draw(days),
        rating=draw(st.integers(0, 3000)),
        moves=draw(st.integers(0, 200)),
        duration_ms=draw(st.integers(0, 10_000_000)),
        assisted=draw(st.booleans()),
        resigned=draw(st.booleans()),
        id=draw(st.sampled_from([f"id{i}" for i in range(30)])),
    )


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(records(), st.integers(0, 4)), max_size=60), days)
def test_any_sequence_of_records_keeps_stats_valid(items, today):
    stats = empty_stats()
    seen = set()
    for record, level_index in items:
        new = apply_record(stats, record, level_index=level_index, level_count=5)
        assert validate_stats(new)
        assert new["wins"] <= new["games"]
        assert new["games"] == stats["games"] + (record.id not in seen)
        seen.add(record.id)
        stats = new
        stats = json.loads(json.dumps(stats))
        assert validate_stats(stats)
    shown = stats_view(stats, today)
    assert set(shown) == set(VIEW_FIELDS)
    assert shown["current_streak"] <= shown["best_streak"] <= shown["games"]
    if shown["win_rate"] is not None:
        assert 0.0 <= shown["win_rate"] <= 1.0


@settings(max_examples=200, deadline=None)
@given(st.lists(days, min_size=1, max_size=40))
def test_best_streak_equals_longest_run_for_days_in_order(day_list):
    ordered = sorted(day_list)
    stats = play(*(rec("two_player", day=d) for d in ordered))
    unique = sorted({dt.date.fromisoformat(d) for d in ordered})
    longest = run = 1
    for a, b in zip(unique, unique[1:]):
        run = run + 1 if (b - a).days == 1 else 1
        longest = max(longest, run)
    assert view(stats, ordered[-1])["best_streak"] == longest
    assert view(stats, ordered[-1])["current_streak"] == run
