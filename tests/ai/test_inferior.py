"""Inferior cell analysis (py/ai/connection/inferior.py) proven by brute force on small
Hex and Y boards: every dead cell is dead over all completions, every
captured pair and every fill-in keeps the exact game value."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from ai.connection import inferior
from ai.connection.inferior import USELESS, analyser
from core.hex import layout as hex_layout
from core.y import layout as y_layout
from counted_clock import counted_clock  # noqa: F401  (autouse: the engines' seconds on the counted clock)


def board_layout(game: str, size: int):
    return hex_layout(size) if game == "hex" else y_layout(size)


@lru_cache(maxsize=None)
def tables(game: str, size: int):
    board = board_layout(game, size)
    around = tuple(sum(1 << n for n in near) for near in board.neighbours)
    per_player = []
    for player in (0, 1):
        bits = [b for b in (1, 2, 4) if board.goal[player] & b]
        per_player.append(tuple(
            sum(1 << c for c in range(board.cells) if board.edges[player][c] & b) for b in bits))
    return board.cells, around, tuple(per_player)


def black_wins(game: str, size: int, black: int) -> bool:
    """On a full board: does black (owning ``black``) win? Independent of
    the modules: a search cell by cell from one black edge (Y: from the left
    edge) that must reach every other edge of black."""
    cells, around, edges = tables(game, size)
    first, *others = edges[0]
    stack = [cell for cell in range(cells) if (first & black) >> cell & 1]
    seen = set(stack)
    while stack:
        cell = stack.pop()
        for near in range(cells):
            if around[cell] >> near & 1 and black >> near & 1 and near not in seen:
                seen.add(near)
                stack.append(near)
    reached = sum(1 << cell for cell in seen)
    return all(reached & edge for edge in others)


def completions_agree(game, size, black, white, cell) -> bool:
    """Is the winner the same with ``cell`` black and with it white, for
    every filling of the other empty cells?"""
    cells = tables(game, size)[0]
    rest = [1 << c for c in range(cells) if not (black | white) >> c & 1 and c != cell]
    for pattern in range(1 << len(rest)):
        extra = sum(bit for i, bit in enumerate(rest) if pattern >> i & 1)
        if black_wins(game, size, black | extra | 1 << cell) != black_wins(game, size, black | extra):
            return False
    return True


def solve(game: str, size: int, black: int, white: int, black_to_move: bool) -> bool:
    """Exact value: does black win with best play? (Negamax with memo.)"""
    cells = tables(game, size)[0]
    full = (1 << cells) - 1
    memo: dict[tuple[int, int, bool], bool] = {}

    def win(b: int, w: int, bt: bool) -> bool:
        key = (b, w, bt)
        if key in memo:
            return memo[key]
        empty = full & ~(b | w)
        if not empty:
            out = black_wins(game, size, b)
        elif bt:
            out = False
            while empty:
                low = empty & -empty
                empty ^= low
                if win(b | low, w, False):
                    out = True
                    break
        else:
            out = True
            while empty:
                low = empty & -empty
                empty ^= low
                if not win(b, w | low, True):
                    out = False
                    break
        memo[key] = out
        return out

    return win(black, white, black_to_move)


def random_position(rng: random.Random, cells: int, empties: int) -> tuple[int, int]:
    order = list(range(cells))
    rng.shuffle(order)
    black = white = 0
    for i, cell in enumerate(order[: cells - empties]):
        if i % 2 == 0:
            black |= 1 << cell
        else:
            white |= 1 << cell
    if rng.random() < 0.5:  # not always alternating counts
        black, white = white, black
    return black, white


def random_positions(seed: str, cells: int, empties: int, count: int):
    """``count`` random positions (``random_position``) from the seed text."""
    rng = random.Random(seed)
    for _ in range(count):
        yield random_position(rng, cells, empties)


# (game, size, empty cells, positions, how many hits the test must see).
# Dead cells are rarer in Y: its edges touch but never join chains.
CASES = [("hex", 3, 7, 60, 20), ("hex", 4, 10, 60, 20), ("hex", 5, 10, 25, 8),
         ("y", 4, 4, 300, 10), ("y", 5, 8, 300, 10)]


def test_the_table_knows_the_textbook_patterns() -> None:
    def code(values):
        return sum(v << (2 * i) for i, v in enumerate(values))

    assert USELESS[code((1, 1, 1, 1, 0, 0))]          # four in a row
    assert USELESS[code((1, 1, 1, 2, 2, 2))]          # three and three
    assert USELESS[code((2, 2, 2, 2, 2, 0))]          # five and an empty
    assert USELESS[code((2, 2, 2, 0, 1, 0))]          # empties joined through a stone
    assert not USELESS[code((0,) * 6)]
    assert not USELESS[code((1, 1, 1, 0, 0, 0))]      # three and three empties: alive
    assert not USELESS[code((1, 2, 1, 2, 0, 0))]
    assert not USELESS[code((1, 1, 0, 1, 1, 0))]      # black needs it to join its two pairs


def test_the_tables_built_by_pattern_are_the_rules_applied_to_every_ring() -> None:
    """USELESS and DOMINATORS are built once per pattern of kinds (own,
    open, shut) for speed; here each of the 4096 rings is tested directly."""
    for code in range(4 ** 6):
        values = tuple((code >> (2 * i)) & 3 for i in range(6))
        useless = inferior._useless(values, inferior.BLACK) | inferior._useless(values, inferior.WHITE) << 1
        assert USELESS[code] == useless, values
        dominators = 0
        for shift, player in ((0, inferior.BLACK), (6, inferior.WHITE)):
            usable = {i for i in range(6) if values[i] in (inferior.EMPTY, player, inferior.BOTH)}
            for i in range(6):
                if values[i] == inferior.EMPTY and usable <= {(i - 1) % 6, i, (i + 1) % 6}:
                    dominators |= 1 << (shift + i)
        assert inferior.DOMINATORS[code] == dominators, values


@pytest.mark.parametrize("game,size,empties,count,want", CASES)
def test_every_dead_cell_is_dead_over_all_completions(game, size, empties, count, want) -> None:
    inf = analyser(game, size)
    found = 0
    for black, white in random_positions(f"dead {game} {size}", inf.cells, empties, count):
        dead = inf.dead(black, white)
        for cell in range(inf.cells):
            if dead >> cell & 1:
                found += 1
                assert completions_agree(game, size, black, white, cell), (game, size, black, white, cell)
    assert found >= want  # the check really ran on dead cells


@pytest.mark.parametrize("game,size,empties,count,want", CASES)
def test_captured_pairs_keep_the_value(game, size, empties, count, want) -> None:
    rng = random.Random(f"captured {game} {size}")
    inf = analyser(game, size)
    found = 0
    tries = 0
    while found < want and tries < 40 * count:
        tries += 1
        black, white = random_position(rng, inf.cells, min(empties, 9))
        for a, b, player in inf.captured(black, white):
            found += 1
            fill = (1 << a) | (1 << b)
            b2, w2 = (black | fill, white) if player == 1 else (black, white | fill)
            for black_to_move in (True, False):
                assert solve(game, size, black, white, black_to_move) == solve(
                    game, size, b2, w2, black_to_move), (game, size, black, white, a, b, player)
            break
    assert found >= want


def test_the_edge_template_carriers_are_captured() -> None:
    inf = analyser("hex", 5)
    stone = 1 << (1 * 5 + 2)  # c2, black, on the second row
    pairs = inf.captured(stone, 0)
    assert (2, 3, 1) in pairs  # c1 and d1, captured by black
    assert inf.dead(stone, 0) == 0


@pytest.mark.parametrize("game,size,empties,count,want", CASES)
def test_fill_in_never_changes_who_wins(game, size, empties, count, want) -> None:
    inf = analyser(game, size)
    filled_total = 0
    for black, white in random_positions(f"fill {game} {size}", inf.cells, min(empties, 9), count):
        b2, w2, filled = inf.fill_in(black, white)
        assert b2 & w2 == 0 and b2 & black == black and w2 & white == white
        assert (b2 | w2) == (black | white | filled)
        filled_total += bin(filled).count("1")
        for black_to_move in (True, False):
            assert solve(game, size, black, white, black_to_move) == solve(
                game, size, b2, w2, black_to_move), (game, size, black, white)
    assert filled_total >= want


def test_fill_in_board_matches_the_masks() -> None:
    rng = random.Random("flat")
    inf = analyser("hex", 6)
    for _ in range(20):
        black, white = random_position(rng, inf.cells, 16)
        board = [1 if black >> c & 1 else 2 if white >> c & 1 else 0 for c in range(inf.cells)]
        board += [1, 1, 2, 2]  # the virtual edge cells stay as they are
        filled = inferior.fill_in_board(6, board)
        b2, w2, expected = inf.fill_in(black, white)
        assert filled == expected
        assert board[-4:] == [1, 1, 2, 2]
        assert board[:-4] == [1 if b2 >> c & 1 else 2 if w2 >> c & 1 else 0 for c in range(inf.cells)]


@pytest.mark.parametrize("game,size", [("hex", 5), ("hex", 11), ("y", 7)])
def test_fill_in_reaches_a_fixpoint(game, size) -> None:
    """Nothing dead or captured is left after fill-in (the fast pair search
    of ``fill_in`` misses none that ``captured`` finds)."""
    rng = random.Random(f"fixpoint {game} {size}")
    inf = analyser(game, size)
    pairs_seen = 0
    for _ in range(40):
        black, white = random_position(rng, inf.cells, rng.randrange(inf.cells // 3, inf.cells))
        b2, w2, filled = inf.fill_in(black, white)
        assert inf.dead(b2, w2) == 0 and inf.captured(b2, w2) == []
        pairs_seen += len(inf.captured(black, white))
    assert pairs_seen


@pytest.mark.parametrize("game,size,empties,count,want", [
    ("hex", 4, 9, 80, 15), ("hex", 5, 10, 40, 15), ("y", 5, 8, 300, 15), ("y", 6, 10, 120, 15)])
def test_a_dominated_cell_never_wins_where_a_kept_neighbour_loses(game, size, empties, count, want) -> None:
    # Neighbourhood domination, by minimax: whenever playing the dominated
    # cell wins, playing one of its kept neighbours wins too.
    rng = random.Random(f"dominated {game} {size}")
    inf = analyser(game, size)
    board = board_layout(game, size)
    found = 0
    for _ in range(count):
        black, white = random_position(rng, inf.cells, empties)
        empty = inf.all_cells & ~(black | white)
        for player in (1, 2):
            removed = inf.dominated(black, white, player, empty)
            assert not removed & ~empty and (empty & ~removed)

            def wins_with(cell: int) -> bool:
                if player == 1:
                    return solve(game, size, black | 1 << cell, white, False)
                return not solve(game, size, black, white | 1 << cell, True)

            for cell in range(inf.cells):
                if removed >> cell & 1:
                    found += 1
                    kept = [n for n in board.neighbours[cell] if (empty & ~removed) >> n & 1]
                    assert kept
                    if wins_with(cell):
                        assert any(wins_with(n) for n in kept), (game, size, black, white, player, cell)
    assert found >= want


def test_the_dominated_textbook_cell() -> None:
    # Hex 5, black to move, white stones on a2 and b2: a3 lies on white's
    # edge under them, so black can use only b3 and a4 around it, and a
    # black stone on b3 (or a4) touches both: a3 is dominated.
    inf = analyser("hex", 5)
    white = 1 << 5 | 1 << 6  # a2, b2
    empty = inf.all_cells & ~white
    assert inf.dominated(0, white, 1, empty) >> 10 & 1  # a3
    assert not inf.dominated(0, white, 1, empty & ~(1 << 11 | 1 << 15)) >> 10 & 1  # no b3, a4 to play
    assert not inf.dominated(0, 0, 1, inf.all_cells)  # nothing on an empty board
