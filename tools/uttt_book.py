"""Compute the Ultimate Tic-Tac-Toe master's opening book
(``ai.uttt.OPENING_BOOK``) and print it as the module's literal.

    python tools/uttt_book.py [--iterations 300000] [--seed 1]

The book holds the move the master plays in each position of the first
``BOOK_PLIES`` moves that it can meet, up to the grid's eight symmetries:
the empty grid (X's first move), every first move of X (O's reply), and
every reply of O to the book's first move (X's second move). Each is the
move of one search with the master's settings and a fixed number of
iterations (no clock), so the same arguments print the same book on any
machine. 300,000 iterations a position take about 14 seconds in CPython;
the book's 18 positions about four minutes.

Paste the printed table over ``OPENING_BOOK`` in ``py/ai/uttt/book.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from ai import uttt  # noqa: E402
from core.uttt import UtttState, cell_text  # noqa: E402


def book_positions(first_move: int | None) -> list[tuple[int, ...]]:
    """The move lists the book answers, in their least form, one per class
    of symmetric positions: the empty grid, each first move, and (once the
    book's first move is known) each reply to it."""
    lists: list[tuple[int, ...]] = [()] + [(move,) for move in range(81)]
    if first_move is not None:
        state = UtttState()
        state.push(first_move)
        lists += [(first_move, reply) for reply in state.legal_moves()]
    seen: dict[tuple[int, ...], None] = {}
    for moves in lists:
        seen.setdefault(uttt.book_key(moves)[0], None)
    return list(seen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=300_000, help="search iterations per position")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    book: dict[tuple[int, ...], int] = {}
    first = None
    pending = book_positions(None)
    while pending:
        moves = pending.pop(0)
        state = UtttState()
        for move in moves:
            state.push(move)
        start = time.perf_counter()
        result = uttt.search(state, iterations=options.iterations, seed=options.seed, master=True)
        book[moves] = result.move
        print(f"{' '.join(cell_text(move) for move in moves) or '(start)'}: {cell_text(result.move)} "
              f"({result.win_rate:.3f}, {time.perf_counter() - start:.0f} s)", file=sys.stderr)
        if not moves:
            first = result.move
            pending = [key for key in book_positions(first) if key not in book]
    assert first is not None
    print("OPENING_BOOK: dict[tuple[int, ...], int] = {")
    for moves, move in book.items():
        print(f"    {moves!r}: {move},")
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
