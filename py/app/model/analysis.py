"""What the engine says about positions, as the app keeps and judges it:
one position's verdict (its best move and why, the first player's winning
chance), a whole game's analysis (a verdict per position, resumable), and
the judgement of each move by how much winning chance it gave away.

The engine answers in the AI worker (py/worker.py's ``analyse``); this
module only reads its replies, keeps them and draws conclusions. Pure
(standard library only), so every threshold is unit-tested
(tests/app/test_analysis.py).

The judgements. A move's *loss* is the winning chance its player had
before it (the engine's value of the position, best play assumed) minus
the chance they have after it, in points of 100 (the chance after it as
the same search valued that move, when it looked at it enough: see
``judge``):

    loss >= 30  a blunder
    loss >= 15  a mistake

Smaller losses are not marked: a short search's values wander by a few
points from one position to the next, and a mark that may be noise teaches
nothing. A proven result counts as 100 or 0 (a draw 50), so a move from
a proven win into a proven draw or loss is always a blunder; one from a
proven win into a position the next search cannot prove is marked only
if its player's chance there is under 50 (a short search may simply not
see the win that is still there). The guide
says the same (``guide.analysis``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

#: The analysis' budgets per position, in seconds of the worker's thinking,
#: and the one chosen unless the player picks another.
BUDGETS: tuple[float, ...] = (0.2, 0.5, 2.0)
DEFAULT_BUDGET = 0.5
#: The hint's budget (the strongest level's time per move) and the
#: evaluation bar's (short: it follows every move and every step).
HINT_SECONDS = 2.0
EVAL_SECONDS = 0.3
#: The evaluation bar's seed: always the same, so that the bar reads a
#: position the same way each time on a machine of the same speed (the
#: engine mixes the position's moves into it: every position still gets
#: its own random draws). A search with a fixed seed that stops sooner is
#: the first part of the one that goes on, so a slower machine sees less of
#: the same search, never a different one.
EVAL_SEED = 0

#: Losses of winning chance (0..1) that make a move a mistake or a blunder.
MISTAKE, BLUNDER = 0.15, 0.30
MISTAKE_MARK, BLUNDER_MARK = "mistake", "blunder"

#: The reasons the engine gives for a move (py/ai/search.py's REASONS), and
#: "over" for a finished position.
REASONS = frozenset({"wins_now", "blocks", "only_move", "proven", "swap", "safe", "search", "over"})
PROOFS = {"first": 0, "second": 1, "draw": None}


@dataclass(frozen=True)
class Verdict:
    """One position as the engine sees it. ``move``: its best move (the
    move's text; None when the game is over); ``chance``: the first
    player's winning chance, 0..1 (a draw counts half); ``proof``: who wins
    under perfect play ("first", "second", "draw"), when proven; ``plies``:
    with a proof, the moves to the end when known."""

    move: str | None
    reason: str
    chance: float
    proof: str | None = None
    plies: int | None = None
    #: in an analysis: the first player's chance after the move the game
    #: went on with, by the same search (None: not asked, or hardly looked at)
    played: float | None = None

    @classmethod
    def from_reply(cls, reply: Any) -> Verdict:
        """The worker's reply (or a stored verdict); ValueError when it is
        not one."""
        if not isinstance(reply, dict):
            raise ValueError("a verdict is a JSON object")
        move, reason, chance = reply.get("move"), reply.get("reason"), reply.get("chance")
        proof, plies, played = reply.get("proof"), reply.get("plies"), reply.get("played_chance")
        if move is not None and not (isinstance(move, str) and 0 < len(move) <= 16):
            raise ValueError(f"bad move {move!r}")
        if reason not in REASONS:
            raise ValueError(f"unknown reason {reason!r}")
        if isinstance(chance, bool) or not isinstance(chance, (int, float)) or not 0.0 <= chance <= 1.0 \
                or math.isnan(chance):
            raise ValueError(f"bad chance {chance!r}")
        if proof is not None and proof not in PROOFS:
            raise ValueError(f"bad proof {proof!r}")
        if plies is not None and (isinstance(plies, bool) or not isinstance(plies, int) or plies < 0):
            raise ValueError(f"bad plies {plies!r}")
        if move is None and reason != "over":
            raise ValueError("a verdict without a move is a finished game's")
        if played is not None and (isinstance(played, bool) or not isinstance(played, (int, float))
                                   or not 0.0 <= played <= 1.0):
            raise ValueError(f"bad played chance {played!r}")
        return cls(move, reason, float(chance), proof, plies, None if played is None else float(played))

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move, "reason": self.reason, "chance": round(self.chance, 4),
                "proof": self.proof, "plies": self.plies,
                "played_chance": None if self.played is None else round(self.played, 4)}

    def chance_of(self, seat: int) -> float:
        """The winning chance of ``seat`` (0 the first player)."""
        return self.chance if seat == 0 else 1.0 - self.chance

    @property
    def percent(self) -> int:
        """The first player's chance in whole points, 0..100 (a proven
        result is exactly 100, 0 or 50; an unproven one never quite is)."""
        if self.proof is not None:
            return {"first": 100, "second": 0, "draw": 50}[self.proof]
        return max(1, min(99, round(self.chance * 100)))

    @property
    def value(self) -> float:
        """The chance used to judge moves: a proof counts in full."""
        return self.percent / 100 if self.proof is not None else self.chance


def judge(before: Verdict, after: Verdict, mover: int) -> str | None:
    """The judgement of a move by ``mover`` that led from the position of
    ``before`` to the one of ``after``: BLUNDER_MARK, MISTAKE_MARK or None.
    The chance after the move is the one the search of ``before`` gave it
    (the same search that found the best move: a short search overrates
    whoever is to move, so two searches from opposite sides would mark
    good moves), unless that search hardly looked at it or ``after`` is
    proven; then the value of ``after``."""
    won = before.proof == ("first" if mover == 0 else "second")
    if won and after.proof is None and (after.value if mover == 0 else 1.0 - after.value) >= 0.5:
        # From a proven win into a position the next search could not
        # prove: the win may well be intact, and it leads still.
        return None
    loss = before.value if mover == 0 else 1.0 - before.value
    if after.proof is None and before.played is not None:
        loss -= before.played if mover == 0 else 1.0 - before.played
    else:
        loss -= after.value if mover == 0 else 1.0 - after.value
    if loss >= BLUNDER - 1e-9:
        return BLUNDER_MARK
    if loss >= MISTAKE - 1e-9:
        return MISTAKE_MARK
    return None


@dataclass
class GameAnalysis:
    """The analysis of one game: a verdict per position (position 0 is the
    start, position ``n`` the one after ``n`` moves), filled in order by
    the worker's answers, at ``budget`` seconds a position. ``running``:
    the player asked for it and has not cancelled it."""

    moves: tuple[str, ...]
    budget: float
    verdicts: list[Verdict | None]
    running: bool = False

    @classmethod
    def empty(cls, moves: tuple[str, ...], budget: float) -> GameAnalysis:
        return cls(moves, budget, [None] * (len(moves) + 1))

    @property
    def positions(self) -> int:
        return len(self.verdicts)

    @property
    def done(self) -> int:
        return sum(verdict is not None for verdict in self.verdicts)

    @property
    def complete(self) -> bool:
        return self.done == self.positions

    def next_ply(self) -> int | None:
        """The first position still to analyse, or None."""
        return next((ply for ply, verdict in enumerate(self.verdicts) if verdict is None), None)

    def judgements(self, movers: list[int]) -> dict[int, str]:
        """ply (1 = the first move) -> its judgement, for the moves whose
        positions before and after are both analysed. ``movers[i]``: the
        seat that played move ``i + 1``."""
        found = {}
        for ply in range(1, self.positions):
            before, after = self.verdicts[ply - 1], self.verdicts[ply]
            if before is not None and after is not None and ply - 1 < len(movers):
                mark = judge(before, after, movers[ply - 1])
                if mark is not None:
                    found[ply] = mark
        return found

    def better_move(self, ply: int) -> str | None:
        """The engine's move in the position before move ``ply``, when it is
        another than the one played."""
        before = self.verdicts[ply - 1] if 0 < ply < self.positions else None
        if before is None or before.move is None or before.move == self.moves[ply - 1]:
            return None
        return before.move

    def to_dict(self) -> dict[str, Any]:
        return {"budget": self.budget, "moves": list(self.moves),
                "verdicts": [None if verdict is None else verdict.to_dict() for verdict in self.verdicts]}

    @classmethod
    def from_dict(cls, data: Any, moves: tuple[str, ...]) -> GameAnalysis | None:
        """A stored analysis of the game with ``moves``; None when it is
        damaged or belongs to other moves (it is then started afresh)."""
        try:
            if not isinstance(data, dict) or tuple(data.get("moves", ())) != moves:
                return None
            budget = data.get("budget")
            verdicts = data.get("verdicts")
            if budget not in BUDGETS or not isinstance(verdicts, list) or len(verdicts) != len(moves) + 1:
                return None
            return cls(moves, budget, [None if item is None else Verdict.from_reply(item) for item in verdicts])
        except (TypeError, ValueError):
            return None


def graph_points(verdicts: list[Verdict | None]) -> list[tuple[int, int]]:
    """(ply, the first player's chance in points) for each analysed
    position, for the graph over the game."""
    return [(ply, verdict.percent) for ply, verdict in enumerate(verdicts) if verdict is not None]
