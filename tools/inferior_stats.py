"""How much the inferior cell analysis (py/ai/connection/inferior.py) finds, and what
it costs, on real positions.

    python tools/inferior_stats.py [--games 2] [--size 11] [--level strong] [--seed 1]
                                   [--save FILE | --load FILE]

Positions: every puzzle of ``tests/data/hex_puzzles.json`` and every
position (after each move) of ``--games`` games per game (Hex and Y) played
by ``ai.choose_move`` at ``--level``. For each, the cells found dead as they
stand, the captured pairs, the cells ``fill_in`` fills in all, and the mean
time of one ``fill_in`` call (CPython, microseconds). ``--save`` writes the
played positions to a JSON file, ``--load`` measures those instead of
playing again.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

import ai  # noqa: E402
from ai.connection.inferior import analyser  # noqa: E402
from core.hex import HexState  # noqa: E402
from core.y import YState  # noqa: E402


def masks(state) -> tuple[int, int]:
    black = sum(1 << c for c in state.stones(0))
    white = sum(1 << c for c in state.stones(1))
    return black, white


def measure(label: str, game: str, size: int, positions: list[tuple[int, int]]) -> None:
    inf = analyser(game, size)
    dead = captured = filled = empties = 0
    for black, white in positions:
        dead += bin(inf.dead(black, white)).count("1")
        captured += len({(a, b) for a, b, _ in inf.captured(black, white)})
        filled += bin(inf.fill_in(black, white)[2]).count("1")
        empties += inf.cells - bin(black | white).count("1")
    repeat = max(1, 2000 // max(1, len(positions)))
    start = time.perf_counter()
    for _ in range(repeat):
        for black, white in positions:
            inf.fill_in(black, white)
    micro = (time.perf_counter() - start) / (repeat * len(positions)) * 1e6
    n = len(positions)
    print(f"{label}: {n} positions, mean empty {empties / n:.1f}, dead {dead / n:.2f}, "
          f"captured pairs {captured / n:.2f}, filled by fill_in {filled / n:.2f} "
          f"({100 * filled / max(1, empties):.1f}% of empties), fill_in {micro:.0f} us/call")


def game_positions(cls, size: int, games: int, level: str, seed: int) -> list[tuple[int, int]]:
    out = []
    rng = random.Random(seed)
    for g in range(games):
        state = cls(size)
        first = rng.randrange(state.cell_count)  # a random opening, then the level
        state.push(first)
        while not state.is_over():
            out.append(masks(state))
            state.push(ai.choose_move(state, level, seed=seed + g))
        print(f"  {cls.__name__} game {g + 1}: {len(state.move_texts())} moves", file=sys.stderr)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--level", default="strong")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save")
    parser.add_argument("--load")
    args = parser.parse_args()
    puzzles = json.loads((ROOT / "tests/data/hex_puzzles.json").read_text())["puzzles"]
    by_size: dict[int, list[tuple[int, int]]] = {}
    for puzzle in puzzles:
        state = HexState(puzzle["size"])
        black = sum(1 << state.parse_move(t) for t in puzzle["black"])
        white = sum(1 << state.parse_move(t) for t in puzzle["white"])
        by_size.setdefault(puzzle["size"], []).append((black, white))
    for size, positions in sorted(by_size.items()):
        measure(f"hex puzzles {size}x{size}", "hex", size, positions)
    if args.load:
        played = {k: [tuple(p) for p in v] for k, v in json.loads(Path(args.load).read_text()).items()}
    elif args.games:
        played = {game: game_positions(cls, args.size, args.games, args.level, args.seed)
                  for game, cls in (("hex", HexState), ("y", YState))}
    else:
        return
    if args.save:
        Path(args.save).write_text(json.dumps(played))
    measure(f"hex games {args.size}x{args.size} ({args.level})", "hex", args.size, played["hex"])
    measure(f"y games side {args.size} ({args.level})", "y", args.size, played["y"])


if __name__ == "__main__":
    main()
