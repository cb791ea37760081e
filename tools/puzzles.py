"""Hex puzzles: how many the strongest level solves, and a proof of the
answers on small boards.

    python tools/puzzles.py [--level master] [--time 2.0] [--only ID ...]
    python tools/puzzles.py --verify [--max-empty 20]

The puzzles are in ``tests/data/hex_puzzles.json``: a position (black and
white stones, the side to move), every winning move and the public
collection it comes from. A puzzle is solved when the level, given
``--time`` seconds (its own budget by default), plays one of the winning
moves. ``--verify`` proves with the exact solver that every stated answer
wins, for the puzzles small enough (at most ``--max-empty`` empty cells, or
a board of side 5 or less).

The exact solver is ``ai.connection.solver`` (H-search virtual connections, must-play
regions, fill-in, proof-number search; see its doc), the
same one the master level tries first on small positions.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from ai import connection  # noqa: E402
from ai.connection.solver import LOSS, Solver  # noqa: E402
from core.base import FIRST, SECOND  # noqa: E402
from core.hex import HexState  # noqa: E402

PUZZLES = ROOT / "tests" / "data" / "hex_puzzles.json"
COLOURS = {"black": FIRST, "white": SECOND}


# -- the puzzles -------------------------------------------------------------------------
def load_puzzles(path: Path = PUZZLES) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))["puzzles"]


def made_here(puzzle: dict[str, Any]) -> bool:
    """Whether the puzzle was constructed for this repository (a random
    position proven to have a single winning move), not taken from a public
    collection: reports count the two apart."""
    return puzzle["source"].startswith("constructed")


def cell(text: str, size: int) -> int:
    """``a1`` -> 0 on a board of side ``size`` (the core's notation)."""
    return HexState(size).parse_move(text)


def transpose(cell_: int, size: int) -> int:
    row, col = divmod(cell_, size)
    return col * size + row


def puzzle_state(puzzle: dict[str, Any]) -> tuple[HexState, bool]:
    """The puzzle as a game (its stones played alternately), and whether
    colours had to be exchanged for that.

    A position reached by alternate moves has as many black stones as white
    ones with black to move, or one more with white to move. A puzzle with
    white to move and equal numbers is the same puzzle, colours exchanged
    and the board mirrored across the long diagonal (as the swap does): then
    black is to move, and the answers are mirrored too."""
    size = puzzle["size"]
    black = [cell(text, size) for text in puzzle["black"]]
    white = [cell(text, size) for text in puzzle["white"]]
    to_move = COLOURS[puzzle["to_move"]]
    exchanged = False
    if len(black) - len(white) != to_move:
        black, white = [transpose(c, size) for c in white], [transpose(c, size) for c in black]
        to_move ^= 1
        exchanged = True
    if len(black) - len(white) != to_move:
        raise ValueError(f"puzzle {puzzle['id']}: no game reaches {len(black)} black and {len(white)} white "
                         f"stones with {puzzle['to_move']} to move")
    state = HexState(size)
    for index in range(len(black) + len(white)):
        state.push((black if index % 2 == 0 else white)[index // 2])
    return state, exchanged


def answers(puzzle: dict[str, Any], exchanged: bool) -> set[int]:
    """The winning moves as cells of ``puzzle_state``'s game."""
    size = puzzle["size"]
    cells = {cell(text, size) for text in puzzle["winning"]}
    return {transpose(c, size) for c in cells} if exchanged else cells


# -- the exact solver ----------------------------------------------------------------------
def move_wins(solver: Solver, black: int, white: int, player: int, move: int) -> bool:
    """Whether ``player`` to move wins by playing ``move`` (proven)."""
    mine, theirs = (black, white) if player == 0 else (white, black)
    value, _ = solver.solve(theirs, mine | 1 << move, player ^ 1)
    return value == LOSS


def winning_moves(solver: Solver, black: int, white: int, player: int) -> list[int]:
    empty = solver.board.full & ~(black | white)
    return [c for c in range(solver.board.cells) if empty >> c & 1 and move_wins(solver, black, white, player, c)]


def bitboards(puzzle: dict[str, Any]) -> tuple[int, int, int]:
    """(black, white, player to move) of a puzzle, for the solver."""
    size = puzzle["size"]
    black = sum(1 << cell(text, size) for text in puzzle["black"])
    white = sum(1 << cell(text, size) for text in puzzle["white"])
    return black, white, COLOURS[puzzle["to_move"]]


def verify(puzzle: dict[str, Any], every: bool = False) -> tuple[bool, str]:
    """Prove that each stated answer wins (and, with ``every``, that no other
    move does). Returns (all right, a short report)."""
    size = puzzle["size"]
    black, white, player = bitboards(puzzle)
    solver = Solver(size)
    stated = {cell(text, size) for text in puzzle["winning"]}
    for move in sorted(stated):
        if not move_wins(solver, black, white, player, move):
            return False, f"{HexState(size).cell_text(move)} does not win"
    if every:
        found = set(winning_moves(solver, black, white, player))
        if found != stated:
            names = sorted(HexState(size).cell_text(c) for c in found)
            return False, f"the winning moves are {names}"
    return True, f"{solver.nodes} positions"


# -- the score -------------------------------------------------------------------------------
def solve_with_ai(puzzle: dict[str, Any], level: str, seconds: float | None, seed: int,
                  parts: frozenset[str] | None = None) -> tuple[bool, str, float]:
    """Whether ``level`` finds a winning move (with ``parts`` of its
    knowledge, None: all); its move and the time taken."""
    from ai.connection import hex as hex_ai

    state, exchanged = puzzle_state(puzzle)
    start = time.perf_counter()
    # A fresh engine: nothing kept.
    move = hex_ai.Engine(parts).choose_move(state, level, seed=seed, move_time=seconds)
    elapsed = time.perf_counter() - start
    text = state.cell_text(transpose(move, state.size) if exchanged else move)
    return move in answers(puzzle, exchanged), text, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="master")
    parser.add_argument("--time", type=float, default=None, help="seconds per puzzle (default: the level's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", help="puzzle ids")
    parser.add_argument("--verify", action="store_true", help="prove the answers of the small puzzles")
    parser.add_argument("--every", action="store_true", help="with --verify: also that no other move wins")
    parser.add_argument("--max-empty", type=int, default=18)
    parser.add_argument("--without", default="", metavar="PARTS",
                        help="parts of the engine's knowledge switched off, comma-separated (ablation; see "
                             "ai.connection.KNOWN_PARTS)")
    options = parser.parse_args(argv)
    try:
        parts = connection.choose_parts(without=options.without)
    except ValueError as error:
        parser.error(f"--without: {error}")
    puzzles = [p for p in load_puzzles() if not options.only or p["id"] in options.only]
    if options.verify:
        bad = 0
        for puzzle in puzzles:
            empty = puzzle["size"] ** 2 - len(puzzle["black"]) - len(puzzle["white"])
            if puzzle["size"] > 5 and empty > options.max_empty:
                continue
            start = time.perf_counter()
            ok, report = verify(puzzle, options.every)
            bad += not ok
            print(f"{puzzle['id']:24} {'ok' if ok else 'WRONG'}  {report}  {time.perf_counter() - start:.1f} s")
        return 1 if bad else 0
    solved: list[bool] = []
    for puzzle in puzzles:
        ok, move, elapsed = solve_with_ai(puzzle, options.level, options.time, options.seed, parts)
        solved.append(ok)
        print(f"{puzzle['id']:24} {'solved' if ok else 'missed'}  played {move:4} "
              f"(answer {' '.join(puzzle['winning'])})  {elapsed:.2f} s", flush=True)
    budget = f"{options.time:g} s" if options.time else "its own budget"
    published = [ok for ok, puzzle in zip(solved, puzzles) if not made_here(puzzle)]
    print(f"{options.level} ({budget} per puzzle) solved {sum(solved)} of {len(puzzles)}, "
          f"{sum(published)} of the {len(published)} from public collections")
    return 0


if __name__ == "__main__":
    sys.exit(main())
