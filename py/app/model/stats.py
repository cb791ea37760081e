"""Per-game statistics kept on this device.

Definitions (the player's guide explains them in these same words):

- **Games**: every finished game, two-player games included.
- **Wins**: games won against the computer.
- **Win rate**: wins divided by the games against the computer; none until
  there is a game against the computer. Draws are not wins.
- **Score** of a game won against the computer:
  ``100 * (level number)`` for the computer level, counting the easiest level
  as 1 (beginner = 100, the next level = 200, ...), plus a speed bonus of
  ``max(0, 100 - s // 3)`` where ``s`` is the whole seconds from the first
  move to the end: 100 points for a win within 3 seconds, one point less for
  every further 3 seconds, nothing from 5 minutes on. Only wins against the
  computer score; losses, draws and two-player games have no score.
- **Best score**, **fastest win** (time from the first move to the end) and
  **fewest moves** (your own moves in a won game) come only from wins against
  the computer without help.
- **A game with help** (``assisted``) against the computer: a hint asked
  for or Notakto's safe moves shown, the evaluation bar on, a move taken
  back, the computer playing for you (handed over, or your time ran out),
  or a game continued from a position ("Continue from here"). It counts in
  games and streaks, but not as a win, nor in the win rate, the rating or
  the records. Two-player games count in games and streaks only, so help
  changes nothing there (and their undo is no help: see session.py).
- **Streak day**: a calendar day (local time) on which you finished at least
  one game of any kind.
- **Current streak**: the number of consecutive streak days ending today, or
  ending yesterday if you have not finished a game yet today (the streak is
  still alive); otherwise 0.
- **Best streak**: the longest run of consecutive streak days ever.
- **Rating**: an Elo rating against the computer levels, each of which has a
  fixed rating. It starts at 1000; after each game against the computer it
  moves by ``32 * (result - expected)``, where result is 1 for a win, 1/2 for
  a draw and 0 for a loss, and ``expected = 1 / (1 + 10 ** ((level rating -
  your rating) / 400))``. Shown rounded to a whole number; none until the
  first game against the computer. Two-player games do not change it.

The stored form is a plain JSON-ready dict (``empty_stats``) checked strictly
by ``validate_stats``; ``apply_record`` is pure and idempotent by game id, so
two tabs recording the same finished game count it once.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from dataclasses import dataclass
from typing import Any, Literal

from .storage import Storage

RESULTS = ("win", "loss", "draw", "two_player")
Result = Literal["win", "loss", "draw", "two_player"]

START_RATING = 1000.0
K_FACTOR = 32
RECENT_IDS = 200  # how many finished-game ids are remembered for idempotence

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_ACTUAL = {"win": 1.0, "draw": 0.5, "loss": 0.0}
_KEYS = frozenset({
    "games", "computer_games", "wins", "fastest_win_ms", "fewest_moves",
    "best_score", "streak", "rating", "recent_ids",
})
_STREAK_KEYS = frozenset({"last_day", "current", "best"})
VIEW_FIELDS = (
    "games", "wins", "win_rate", "fastest_win_ms", "fewest_moves",
    "best_score", "current_streak", "best_streak", "rating",
)


@dataclass(frozen=True)
class GameRecord:
    """One finished game, as the statistics see it.

    ``day`` is the local calendar day ``YYYY-MM-DD`` the game finished on
    (the caller computes it from local time). ``result`` is from the human's
    point of view, or ``"two_player"`` for two people on one device, in which
    case ``opponent_level`` and ``opponent_rating`` are None. ``moves`` counts
    the human's own moves; ``duration_ms`` is the time from the first move to
    the end. ``assisted``: the game had help (the module docstring lists
    what counts): it counts as played (games, streaks), but not as a win,
    nor in the win rate, the rating or the records. ``resigned`` says
    the game ended by resignation; it does not change how the game counts
    (a resigning human has ``result="loss"``).
    """

    id: str
    game: str
    day: str
    result: Result
    opponent_level: str | None
    opponent_rating: int | None
    moves: int
    duration_ms: int
    assisted: bool = False
    resigned: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise ValueError(f"record id must be a non-empty string, not {self.id!r}")
        if not isinstance(self.game, str) or not self.game:
            raise ValueError(f"record game must be a non-empty string, not {self.game!r}")
        if not _is_day(self.day):
            raise ValueError(f"record day must be YYYY-MM-DD, not {self.day!r}")
        if self.result not in RESULTS:
            raise ValueError(f"record result must be one of {RESULTS}, not {self.result!r}")
        if self.result == "two_player":
            if self.opponent_level is not None or self.opponent_rating is not None:
                raise ValueError("a two-player record has no computer level")
        else:
            if not isinstance(self.opponent_level, str) or not self.opponent_level:
                raise ValueError(f"a game against the computer needs its level, not {self.opponent_level!r}")
            if not _is_int(self.opponent_rating):
                raise ValueError(f"the level rating must be an int, not {self.opponent_rating!r}")
        for field in ("moves", "duration_ms"):
            value = getattr(self, field)
            if not _is_int(value) or value < 0:
                raise ValueError(f"record {field} must be a non-negative int, not {value!r}")
        for field in ("assisted", "resigned"):
            if not isinstance(getattr(self, field), bool):
                raise ValueError(f"record {field} must be a bool")

    @property
    def vs_computer(self) -> bool:
        """True for a game against a computer level."""
        return self.result != "two_player"


def score(record: GameRecord, level_index: int, level_count: int) -> int | None:
    """The score of ``record`` (see the module docstring), or None when it is
    not a win against the computer. ``level_index`` is the 0-based position of
    the computer level in the game's list of ``level_count`` levels, easiest
    first; an index outside that list raises ValueError."""
    if not (_is_int(level_count) and _is_int(level_index) and 0 <= level_index < level_count):
        raise ValueError(f"level index {level_index!r} is not within {level_count!r} levels")
    if record.result != "win":
        return None
    seconds = record.duration_ms // 1000
    return 100 * (level_index + 1) + max(0, 100 - seconds // 3)


def expected_score(rating: float, opponent_rating: float) -> float:
    """Elo expectation of a player rated ``rating`` against ``opponent_rating``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent_rating - rating) / 400.0))


def empty_stats() -> dict[str, Any]:
    """Statistics before the first game (plain JSON-ready dict)."""
    return {
        "games": 0,
        "computer_games": 0,
        "wins": 0,
        "fastest_win_ms": None,
        "fewest_moves": None,
        "best_score": None,
        "streak": {"last_day": None, "current": 0, "best": 0},
        "rating": None,
        "recent_ids": [],
    }


def validate_stats(obj: Any) -> bool:
    """True when ``obj`` is a statistics dict this module could have made:
    exact keys and types, non-negative counts, wins <= computer games <=
    games, records only once there is a win, a rating exactly when there is
    a game against the computer, a consistent streak, and at most
    ``RECENT_IDS`` distinct recent ids."""
    if not isinstance(obj, dict) or set(obj) != _KEYS:
        return False
    games, computer, wins = obj["games"], obj["computer_games"], obj["wins"]
    if not all(_is_count(value) for value in (games, computer, wins)):
        return False
    if not wins <= computer <= games:
        return False
    records = (obj["fastest_win_ms"], obj["fewest_moves"], obj["best_score"])
    for value in records:
        if value is not None and not _is_count(value):
            return False
    # Records come only from wins (assisted wins set none, so they may be
    # None even with wins).
    if wins == 0 and any(value is not None for value in records):
        return False
    rating = obj["rating"]
    if computer == 0:
        if rating is not None:
            return False
    elif not (_is_number(rating) and math.isfinite(rating)):
        return False
    streak = obj["streak"]
    if not isinstance(streak, dict) or set(streak) != _STREAK_KEYS:
        return False
    last_day, current, best = streak["last_day"], streak["current"], streak["best"]
    if not (_is_count(current) and _is_count(best)):
        return False
    if games == 0:
        if last_day is not None or current != 0 or best != 0:
            return False
    # Every streak day holds at least one counted game.
    elif not (_is_day(last_day) and 1 <= current <= best <= games):
        return False
    ids = obj["recent_ids"]
    if not isinstance(ids, list) or len(ids) > min(RECENT_IDS, games):
        return False
    if not all(isinstance(i, str) and i for i in ids) or len(set(ids)) != len(ids):
        return False
    return True


def apply_record(
    stats: dict[str, Any],
    record: GameRecord,
    *,
    level_index: int | None = None,
    level_count: int | None = None,
) -> dict[str, Any]:
    """New statistics with ``record`` counted (``stats`` is not modified).

    A record whose id is among the last ``RECENT_IDS`` counted games is
    ignored, so recording the same finished game twice (two tabs, a retry)
    counts it once. ``level_index``/``level_count`` place the computer level
    for ``score``; without them a win counts but cannot set a best score.
    A record dated before the last streak day (clock or time-zone change, a
    late second tab) counts everywhere except the streak, which only moves
    forward. Raises ValueError if ``stats`` is not valid.
    """
    if not validate_stats(stats):
        raise ValueError("statistics are not valid")
    new = _copy(stats)
    if record.id in new["recent_ids"]:
        return new
    new["recent_ids"] = (new["recent_ids"] + [record.id])[-RECENT_IDS:]
    new["games"] += 1

    # An assisted game is a game played, not the player's own result.
    if record.vs_computer and not record.assisted:
        new["computer_games"] += 1
        assert record.opponent_rating is not None
        rating = START_RATING if new["rating"] is None else float(new["rating"])
        actual = _ACTUAL[record.result]
        rating += K_FACTOR * (actual - expected_score(rating, record.opponent_rating))
        new["rating"] = rating
        if record.result == "win":
            new["wins"] += 1
            new["fastest_win_ms"] = _min(new["fastest_win_ms"], record.duration_ms)
            new["fewest_moves"] = _min(new["fewest_moves"], record.moves)
            if level_index is not None and level_count is not None:
                points = score(record, level_index, level_count)
                if points is not None and (new["best_score"] is None or points > new["best_score"]):
                    new["best_score"] = points

    streak = new["streak"]
    if streak["last_day"] is None:
        streak.update(last_day=record.day, current=1)
    else:
        gap = (_dt.date.fromisoformat(record.day) - _dt.date.fromisoformat(streak["last_day"])).days
        if gap == 1:
            streak.update(last_day=record.day, current=streak["current"] + 1)
        elif gap > 1:
            streak.update(last_day=record.day, current=1)
        # gap == 0: same day, nothing changes; gap < 0: see docstring.
    streak["best"] = max(streak["best"], streak["current"])
    return new


def stats_view(stats: dict[str, Any], today: str) -> dict[str, Any]:
    """The display fields, exactly ``VIEW_FIELDS``, as seen on local day
    ``today`` (``YYYY-MM-DD``): win_rate is a float in [0, 1] or None, rating
    a rounded int or None, the current streak 0 once a whole day has passed
    without a game. Raises ValueError for invalid stats or day."""
    if not validate_stats(stats):
        raise ValueError("statistics are not valid")
    if not _is_day(today):
        raise ValueError(f"today must be YYYY-MM-DD, not {today!r}")
    streak = stats["streak"]
    current = 0
    if streak["last_day"] is not None:
        gap = (_dt.date.fromisoformat(today) - _dt.date.fromisoformat(streak["last_day"])).days
        # gap < 0 only if the clock went back: do not punish the player.
        current = streak["current"] if gap <= 1 else 0
    computer = stats["computer_games"]
    rating = stats["rating"]
    return {
        "games": stats["games"],
        "wins": stats["wins"],
        "win_rate": stats["wins"] / computer if computer else None,
        "fastest_win_ms": stats["fastest_win_ms"],
        "fewest_moves": stats["fewest_moves"],
        "best_score": stats["best_score"],
        "current_streak": current,
        "best_streak": streak["best"],
        # Half-up rounding, not Python's round-half-even, as players expect.
        "rating": None if rating is None else math.floor(rating + 0.5),
    }


# -- storage glue --------------------------------------------------------------
def stats_name(game: str) -> str:
    """The storage name of ``game``'s statistics (``stats/<game>``)."""
    return f"stats/{game}"


def load_stats(storage: Storage, game: str) -> dict[str, Any]:
    """``game``'s statistics from storage, or empty ones (damaged data is
    backed up and reported by Storage)."""
    return storage.read(stats_name(game), validate_stats, None) or empty_stats()


def record_game(
    storage: Storage,
    record: GameRecord,
    *,
    level_index: int | None = None,
    level_count: int | None = None,
) -> dict[str, Any]:
    """Read the freshest statistics of ``record.game``, count ``record``
    and write them back; returns the new statistics. Reading fresh right
    before writing keeps games another tab recorded meanwhile."""
    stats = apply_record(
        load_stats(storage, record.game), record, level_index=level_index, level_count=level_count
    )
    storage.write(stats_name(record.game), stats)
    return stats


# -- helpers --------------------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return _is_int(value) and value >= 0


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_day(value: Any) -> bool:
    # fromisoformat alone also accepts "20240101" and week dates on 3.11+.
    if not isinstance(value, str) or not _DAY.fullmatch(value):
        return False
    try:
        _dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _min(old: int | None, value: int) -> int:
    return value if old is None else min(old, value)


def _copy(stats: dict[str, Any]) -> dict[str, Any]:
    new = dict(stats)
    new["streak"] = dict(stats["streak"])
    new["recent_ids"] = list(stats["recent_ids"])
    return new
