"""Hex puzzles: how many the strongest level solves, and an exact solver
that proves the answers on small boards.

    python tools/puzzles.py [--level master] [--time 2.0] [--only ID ...]
    python tools/puzzles.py --verify [--max-empty 20]

The puzzles are in ``tests/data/hex_puzzles.json``: a position (black and
white stones, the side to move), every winning move and the public
collection it comes from. A puzzle is solved when the level, given
``--time`` seconds (its own budget by default), plays one of the winning
moves. ``--verify`` proves with ``ExactSolver`` that every stated answer
wins, for the puzzles small enough (at most ``--max-empty`` empty cells, or
a board of side 5 or less).

``ExactSolver`` is a depth-first search on bitboards with a transposition
table, pruned by what Hex solvers use first (Hayward et al.): a player who
cannot connect even with every empty cell has lost; a win in one; a single
threat must be blocked and two cannot be; a chain of groups linked by
disjoint bridges (virtual connection) wins whoever is to move, and one that
is a single cell short wins for the side to move; when the opponent has
such a near-connection, only moves inside it (its gap and its carriers) can
save the game, intersected over several of them. History ordering puts the
moves that refuted before first.
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

from core.base import FIRST, SECOND  # noqa: E402
from core.hex import HexState  # noqa: E402

PUZZLES = ROOT / "tests" / "data" / "hex_puzzles.json"
COLOURS = {"black": FIRST, "white": SECOND}


# -- the puzzles -------------------------------------------------------------------------
def load_puzzles(path: Path = PUZZLES) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))["puzzles"]


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
class ExactSolver:
    """Who wins a Hex position with perfect play (see the module doc).

    Positions are two bitmasks (bit ``row * size + col``); ``player`` 0 is
    black (rows 1 and N), 1 white (columns a and the last)."""

    def __init__(self, size: int) -> None:
        self.size = n = size
        self.full = (1 << n * n) - 1
        first_col = sum(1 << (row * n) for row in range(n))
        last_col = first_col << (n - 1)
        self.not_first_col = self.full & ~first_col
        self.not_last_col = self.full & ~last_col
        top = (1 << n) - 1
        self.edges = ((top, top << (n * (n - 1))), (first_col, last_col))
        self.table: dict[tuple[int, int, int], bool] = {}
        self.history = [0] * (n * n)
        self.nodes = 0
        centre = (n - 1) / 2
        # Central cells first: they matter most in the opening.
        self.order = sorted(range(n * n), key=lambda c: abs(c // n - centre) + abs(c % n - centre)
                            + abs(c // n + c % n - 2 * centre))

    def expand(self, x: int) -> int:
        """``x`` and every cell next to it."""
        n = self.size
        return (x | ((x << 1) & self.not_first_col) | ((x >> 1) & self.not_last_col) | (x >> n)
                | ((x >> (n - 1)) & self.not_first_col) | ((x << n) & self.full)
                | ((x << (n - 1)) & self.not_last_col & self.full))

    def flood(self, seed: int, within: int) -> int:
        """The cells of ``within`` connected to ``seed`` through ``within``."""
        x = seed & within
        while True:
            grown = self.expand(x) & within
            if grown == x:
                return x
            x = grown

    def connects(self, stones: int, player: int) -> bool:
        first, second = self.edges[player]
        return bool(self.flood(first, stones) & second)

    def wins_in_one(self, stones: int, empty: int, player: int) -> int:
        """The empty cells that connect ``player``'s edges at once."""
        first, second = self.edges[player]
        near_first = (self.expand(self.flood(first, stones)) | first) & empty
        near_second = (self.expand(self.flood(second, stones)) | second) & empty
        return near_first & near_second

    def chain(self, stones: int, empty: int, player: int, gaps: int) -> tuple[int, int] | None:
        """A virtual connection of ``player``: groups from edge to edge, each
        linked to the next by two common empty neighbours, all these pairs
        disjoint; up to ``gaps`` links may be a single common cell instead.
        Returns (the gap cells, the bridge carriers) or None. Greedy, so it
        may miss one, never invents one."""
        first, second = self.edges[player]
        groups = []
        rest = stones
        while rest:
            group = self.flood(rest & -rest, stones)
            groups.append(group)
            rest &= ~group
        # Nodes: 0 the first edge, 1 the second, then the groups.
        around = [first & empty, second & empty] + [self.expand(g) & empty for g in groups]
        touches_first = [False, False] + [bool(g & first) for g in groups]
        touches_second = [False, False] + [bool(g & second) for g in groups]
        count = len(around)

        def search(node: int, used: int, visited: int, gaps_left: int, gap_cells: int) -> tuple[int, int] | None:
            if node == 1:
                return gap_cells, used
            for other in range(1, count):
                if visited >> other & 1:
                    continue
                if (node == 0 and touches_first[other]) or (other == 1 and touches_second[node]):
                    found = search(other, used, visited | 1 << other, gaps_left, gap_cells)
                elif node == 0 and other == 1:
                    continue
                else:
                    common = around[node] & around[other] & ~used
                    if not common:
                        continue
                    low = common & -common
                    more = common & ~low
                    if more:
                        found = search(other, used | low | (more & -more), visited | 1 << other, gaps_left, gap_cells)
                    elif gaps_left:
                        found = search(other, used | low, visited | 1 << other, gaps_left - 1, gap_cells | low)
                    else:
                        continue
                if found:
                    return found
            return None

        return search(0, 0, 1, gaps, 0)

    def wins(self, mine: int, theirs: int, player: int) -> bool:
        """Whether ``player`` (holding ``mine``) wins with the move."""
        key = (mine, theirs, player)
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        empty = self.full & ~(mine | theirs)
        other = player ^ 1
        if not self.connects(mine | empty, player):
            result = False
        elif not self.connects(theirs | empty, other):
            result = True
        elif self.wins_in_one(mine, empty, player):
            result = True
        else:
            threats = self.wins_in_one(theirs, empty, other)
            if threats & (threats - 1):
                result = False
            elif threats:
                result = not self.wins(theirs, mine | threats, other)
            elif self.chain(theirs, empty, other, 0):
                result = False
            elif self.chain(mine, empty, player, 1):
                result = True
            else:
                result = self._search(mine, theirs, player, empty)
        self.table[key] = result
        return result

    def _search(self, mine: int, theirs: int, player: int, empty: int) -> bool:
        other = player ^ 1
        must = empty
        first = 0
        near = self.chain(theirs, empty, other, 1)
        if near:
            must &= near[0] | near[1]
            first = near[0]
            tried = 0
            while must & ~tried:
                # A move here that leaves the opponent another near-connection
                # loses as well: keep only what every one of them needs.
                probe = must & ~tried & -(must & ~tried)
                tried |= probe
                again = self.chain(theirs, empty & ~probe, other, 1)
                if again:
                    must &= again[0] | again[1]
        history = self.history
        cells = [c for c in self.order if must >> c & 1]
        cells.sort(key=lambda c: -history[c])
        gap = first.bit_length() - 1
        if first & must:
            cells.remove(gap)
            cells.insert(0, gap)
        for c in cells:
            if not self.wins(theirs, mine | 1 << c, other):
                history[c] += 1
                return True
        return False

    def move_wins(self, black: int, white: int, player: int, move: int) -> bool:
        """Whether ``player`` to move wins by playing ``move``."""
        mine, theirs = (black, white) if player == 0 else (white, black)
        return not self.wins(theirs, mine | 1 << move, player ^ 1)

    def winning_moves(self, black: int, white: int, player: int) -> list[int]:
        empty = self.full & ~(black | white)
        return [c for c in range(self.size * self.size) if empty >> c & 1 and self.move_wins(black, white, player, c)]


def bitboards(puzzle: dict[str, Any]) -> tuple[int, int, int]:
    """(black, white, player to move) of a puzzle, for ``ExactSolver``."""
    size = puzzle["size"]
    black = sum(1 << cell(text, size) for text in puzzle["black"])
    white = sum(1 << cell(text, size) for text in puzzle["white"])
    return black, white, COLOURS[puzzle["to_move"]]


def verify(puzzle: dict[str, Any], every: bool = False) -> tuple[bool, str]:
    """Prove that each stated answer wins (and, with ``every``, that no other
    move does). Returns (all right, a short report)."""
    size = puzzle["size"]
    black, white, player = bitboards(puzzle)
    solver = ExactSolver(size)
    stated = {cell(text, size) for text in puzzle["winning"]}
    for move in sorted(stated):
        if not solver.move_wins(black, white, player, move):
            return False, f"{HexState(size).cell_text(move)} does not win"
    if every:
        found = set(solver.winning_moves(black, white, player))
        if found != stated:
            names = sorted(HexState(size).cell_text(c) for c in found)
            return False, f"the winning moves are {names}"
    return True, f"{solver.nodes} positions"


# -- the score -------------------------------------------------------------------------------
def solve_with_ai(puzzle: dict[str, Any], level: str, seconds: float | None, seed: int) -> tuple[bool, str, float]:
    """Whether ``level`` finds a winning move; its move and the time taken."""
    from ai import connection, hex as hex_ai

    state, exchanged = puzzle_state(puzzle)
    connection.clear_cache()
    start = time.perf_counter()
    move = hex_ai.choose_move(state, level, seed=seed, move_time=seconds)
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
    options = parser.parse_args(argv)
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
    solved = 0
    for puzzle in puzzles:
        ok, move, elapsed = solve_with_ai(puzzle, options.level, options.time, options.seed)
        solved += ok
        print(f"{puzzle['id']:24} {'solved' if ok else 'missed'}  played {move:4} "
              f"(answer {' '.join(puzzle['winning'])})  {elapsed:.2f} s", flush=True)
    budget = f"{options.time:g} s" if options.time else "its own budget"
    print(f"{options.level} ({budget} per puzzle) solved {solved} of {len(puzzles)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
