"""Build ``py/ai/uttt/boards.json``, the small-board table behind the
Ultimate Tic-Tac-Toe evaluation (``ai.uttt.evaluation.evaluate``).

    python tools/uttt_boards.py [--games 300000] [--seed 1] [--min-count 20] [--out py/ai/uttt/boards.json]

Games are played from the empty grid with the engine's own playout policy
(take a small board when you can, else stop the opponent taking one, else
any cell; on a free choice, a board you can take if there is one), a new
random game each time, seeded. In every position of every game, each open
small board is one observation: its pattern seen by the side to move (its
marks, the opponent's), up to the board's eight symmetries, and its *kind*:
the board the side to move is sent to (``sent``), another board while one
is forced (``other``), or any board when the side to move may choose
(``free``). The observation's outcome is who went on to win that board in
the game: the side to move, the other, or neither.

The table gives, per kind and pattern seen at least ``--min-count`` times,
both players' chances of winning the board, smoothed towards 0.3 each by
three virtual observations (``SMOOTHING``) and written in thousandths.
Rarer patterns are left out; the engine falls back to the ``other`` kind,
then to the prior.

The evaluation combines the nine boards' chances into each player's chance
of some line of three on the big board (as if the boards were independent),
and turns the difference into a winning chance with a logistic ``scale``.
That scale is fitted here too: one position drawn at random from each game
(at most 20,000), by least squares between the evaluation and the game's
result for its side to move (a draw counts half), a golden-section search
on 0.5..10.

Everything is seeded: the same arguments write the same file. 300,000
games take about two minutes under CPython.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from ai.uttt import evaluation, position as playing  # noqa: E402
from core.uttt import BITS, FULL, WINNING_CELLS  # noqa: E402

#: Virtual observations each pattern starts with, 0.3 of them won by each
#: player (a rare pattern leans towards an undecided board).
SMOOTHING = 3.0


def play(rng: random.Random, counts: dict[int, list[int]], sample: list) -> None:
    """One policy game: its observations into ``counts`` (key: kind << 18 |
    canonical pattern; [side to move won, the other won, neither]), and one
    of its positions, with the result for its side to move, into ``sample``."""
    marks = [[0] * 9, [0] * 9]
    won = [0, 0]
    closed, forced, player = 0, -1, 0
    seen: list[tuple[int, int, int]] = []  # (key, board, side to move)
    positions = []
    rand = rng.random
    result = None
    while result is None:
        positions.append(([marks[0].copy(), marks[1].copy()], won.copy(), closed, forced, player))
        mine, theirs = marks[player], marks[player ^ 1]
        for board in BITS[FULL ^ closed]:
            kind = evaluation.KIND_FREE if forced < 0 else evaluation.KIND_SENT if board == forced else evaluation.KIND_OTHER
            seen.append((kind << 18 | evaluation.canonical_pattern(mine[board], theirs[board]), board, player))
        if forced < 0:
            boards = BITS[FULL ^ closed]
            choices = [board for board in boards if WINNING_CELLS[mine[board]] & ~theirs[board]] or boards
            board = choices[int(rand() * len(choices))]
        else:
            board = forced
        empty = FULL ^ (mine[board] | theirs[board])
        cells = BITS[WINNING_CELLS[mine[board]] & empty or WINNING_CELLS[theirs[board]] & empty or empty]
        move = playing.BOARD_CELLS[board][cells[int(rand() * len(cells))]]
        closed, forced, result = playing.play(marks, won, closed, player, move)
        player ^= 1
    for key, board, mover in seen:
        outcome = 0 if won[mover] >> board & 1 else 1 if won[mover ^ 1] >> board & 1 else 2
        counts.setdefault(key, [0, 0, 0])[outcome] += 1
    position = positions[int(rand() * len(positions))]
    reward = 0.5 if result == playing.DRAW else float(result == position[4])
    sample.append((position, reward))


def fit_scale(sample: list) -> tuple[float, float]:
    """The logistic scale that best fits the sampled results, and its mean squared error."""
    edges = []
    for (marks, won, closed, forced, player), reward in sample:
        edges.append((evaluation.line_edge(marks, won, closed, forced, player), reward))

    def error(scale: float) -> float:
        return sum((1.0 / (1.0 + math.exp(-scale * edge)) - reward) ** 2 for edge, reward in edges) / len(edges)

    low, high = 0.5, 10.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if error(a) < error(b):
            high = b
        else:
            low = a
    scale = (low + high) / 2
    return scale, error(scale)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="uttt_boards.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-count", type=int, default=20)
    parser.add_argument("--out", type=Path, default=ROOT / "py" / "ai" / "uttt" / "boards.json")
    options = parser.parse_args(argv)
    rng = random.Random(options.seed)
    counts: dict[int, list[int]] = {}
    sample: list = []
    started = time.perf_counter()
    for _ in range(options.games):
        play(rng, counts, sample)
    rng.shuffle(sample)
    sample = sample[:20_000]
    table: dict[str, list[list[int]]] = {name: [] for name in evaluation.KIND_NAMES}
    for key in sorted(counts):
        mover, other, neither = counts[key]
        seen = mover + other + neither
        if seen < options.min_count:
            continue
        total = seen + SMOOTHING
        table[evaluation.KIND_NAMES[key >> 18]].append([key & 0x3FFFF, round(1000 * (mover + 0.3 * SMOOTHING) / total),
                                                  round(1000 * (other + 0.3 * SMOOTHING) / total)])
    data = {"about": "small-board chances for ai.uttt.evaluate, made by tools/uttt_boards.py",
            "games": options.games, "seed": options.seed, "min_count": options.min_count, "scale": 1.0, **table}
    evaluation.load_board_table(data)  # the scale is fitted with this table
    scale, error = fit_scale(sample)
    data["scale"] = round(scale, 3)
    options.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    sizes = ", ".join(f"{name} {len(rows)}" for name, rows in table.items())
    print(f"{options.games} games in {time.perf_counter() - started:.0f} s; patterns: {sizes}; "
          f"scale {scale:.3f} (mean squared error {error:.4f} on {len(sample)} positions); wrote {options.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
