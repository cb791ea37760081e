"""What every match of the tools shares (the bench's Notakto matches, the
arena's against OpenSpiel or a GTP engine, the ladder's between levels):
how a game of a match is seeded and who moves first, the tally of its
results, and the Wilson interval of its score."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from core import FIRST, SECOND

#: z for a two-sided 95 % interval
Z95 = 1.959963984540054


def wilson(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``points / games``
    (``points``: wins plus half the draws); (0, 1) for no games."""
    if games <= 0:
        return 0.0, 1.0
    if not 0 <= points <= games:
        raise ValueError(f"a score of {points} in {games} games")
    p = points / games
    denominator = 1 + z * z / games
    center = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (0.0 if points == 0 else max(0.0, center - half)), (1.0 if points == games else min(1.0, center + half))


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a match seeded ``seed``: the same game
    in any run, whichever games of the match it plays."""
    return seed * 100_003 + index * 1009


def first_seat(index: int) -> int:
    """Who the side named first moves as in game ``index``: first in even
    games, second in odd ones (colours alternate)."""
    return FIRST if index % 2 == 0 else SECOND


class Score:
    """Wins, draws and losses of one side, and what they make: games,
    points, the score (a draw counts half) and its 95 % interval."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """The score's Wilson 95 % interval."""
        return wilson(self.points, self.games)


MARKS = ("W", "D", "L")


@dataclass
class Tally(Score):
    """Results of one side of a match: [wins, draws, losses] as first and as
    second player, and the seconds both sides thought per move."""

    first: list[int] = field(default_factory=lambda: [0, 0, 0])
    second: list[int] = field(default_factory=lambda: [0, 0, 0])
    our_seconds: list[float] = field(default_factory=list)
    their_seconds: list[float] = field(default_factory=list)

    def add(self, seat: int, winner: int | None) -> str:
        """Count a game played as ``seat``; its mark, W, D or L."""
        into = self.first if seat == FIRST else self.second
        outcome = 1 if winner is None else 0 if winner == seat else 2
        into[outcome] += 1
        return MARKS[outcome]

    @property
    def wins(self) -> int:  # type: ignore[override]
        return self.first[0] + self.second[0]

    @property
    def draws(self) -> int:  # type: ignore[override]
        return self.first[1] + self.second[1]

    @property
    def losses(self) -> int:  # type: ignore[override]
        return self.first[2] + self.second[2]

    @staticmethod
    def score_of(record: Sequence[int]) -> float | None:
        games = sum(record)
        return None if games == 0 else (record[0] + record[1] / 2) / games


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
