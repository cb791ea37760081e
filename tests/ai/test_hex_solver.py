"""The exact Hex solver (py/ai/connection/solver.py, vcs.py) and its use by the master level:
H-search's connections, proofs checked against plain minimax, the puzzle
answers, the time limit."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import pytest

import ai
from ai import connection
from ai.connection import solver
from ai.connection.solver import LOSS, UNKNOWN, WIN, Board, Solver, h_search
from core.hex import HexState
from core.y import YState
from tool_modules import load_tool  # noqa: E402
from counted_clock import counted_clock  # noqa: F401  (autouse: the engines' seconds on the counted clock)

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = json.loads((ROOT / "tests" / "data" / "hex_puzzles.json").read_text(encoding="utf-8"))["puzzles"]




puzzles_tool = load_tool("puzzles")


@pytest.fixture(autouse=True)
def fresh_tables():
    solver.clear()
    yield
    solver.clear()


def mask(size: int, texts: str) -> int:
    state = HexState(size)
    return sum(1 << state.parse_move(text) for text in texts.split())


# -- plain minimax, the reference -----------------------------------------------------------
def minimax_wins(board: Board, mine: int, theirs: int, player: int) -> bool:
    """Whether ``player`` to move wins, by trying everything (tiny positions)."""

    @lru_cache(maxsize=None)
    def wins(mine: int, theirs: int, player: int) -> bool:
        empty = board.full & ~(mine | theirs)
        cell = empty
        while cell:
            low = cell & -cell
            cell ^= low
            if board.connected(mine | low, player) or not wins(theirs, mine | low, player ^ 1):
                return True
        return False

    return wins(mine, theirs, player)


def random_position(rng: random.Random, size: int, empty: int,
                    game: str = "hex") -> tuple[int, int, int] | None:
    """(stones of the side to move, the other's, player) reached by random
    alternate moves, or None if somebody has already won."""
    board = Board(size, game)
    cells = list(range(board.cells))
    rng.shuffle(cells)
    stones = [0, 0]
    placed = board.cells - empty
    for index, cell in enumerate(cells[:placed]):
        stones[index % 2] |= 1 << cell
    if board.connected(stones[0], 0) or board.connected(stones[1], 1):
        return None
    player = placed % 2
    return stones[player], stones[player ^ 1], player


def random_positions(rng: random.Random, size: int, empty: tuple[int, int], count: int,
                     game: str = "hex") -> Iterator[tuple[int, int, int]]:
    """``count`` random positions of ``random_position`` still in play, each
    with a number of empty cells drawn from ``range(*empty)``."""
    found = 0
    while found < count:
        position = random_position(rng, size, rng.randrange(*empty), game)
        if position is not None:
            found += 1
            yield position


# -- H-search -------------------------------------------------------------------------------
def test_a_chain_of_bridges_is_a_virtual_connection():
    # Black b2 and c4 with bridges to each other and to both edges.
    board = Board(5)
    stones = mask(5, "c2 b4")
    empty = board.full & ~stones
    found = h_search(board, stones, empty, 0)
    assert found.vc is not None
    assert not found.vc & stones


def test_an_intrusion_leaves_a_semi_connection_with_its_key():
    # White takes one carrier of the bridge c2-b4 (b3 and c3 join them).
    board = Board(5)
    black, white = mask(5, "c2 b4"), mask(5, "c3")
    found = h_search(board, black, board.full & ~(black | white), 0)
    assert found.vc is None
    assert found.keys >> HexState(5).parse_move("b3") & 1
    # The opponent must play inside every such semi-connection.
    assert found.must and not found.must & (black | white)


def test_no_connection_through_a_wall():
    board = Board(5)
    white = mask(5, "a3 b3 c3 d3 e3")
    black = mask(5, "c1")
    found = h_search(board, black, board.full & ~(black | white), 0)
    assert found.vc is None and not found.keys


@pytest.mark.parametrize("lean", [False, True])
def test_virtual_connections_really_hold(lean):
    # A VC for the side that is not to move means it wins anyway (with
    # H-search's extra limits of small positions too).
    board = Board(5)
    for mine, theirs, player in random_positions(random.Random(3), 5, (6, 11), 40):
        empty = board.full & ~(mine | theirs)
        theirs_vc = h_search(board, theirs, empty, player ^ 1, lean=lean)
        if theirs_vc.vc is not None:
            assert not minimax_wins(board, mine, theirs, player)
        mine_vc = h_search(board, mine, empty, player, lean=lean)
        if mine_vc.keys:
            key = (mine_vc.keys & -mine_vc.keys).bit_length() - 1
            assert not minimax_wins(board, theirs, mine | 1 << key, player ^ 1)


def test_the_extra_limits_apply_to_small_positions_only(monkeypatch):
    # The node analysis asks H-search for its extra limits on positions the
    # solver works on (at most LEAN_MAX_EMPTY empty cells), not on an open
    # big board, where the long connections count.
    calls = []
    real = solver.h_search

    def watched(board, stones, empty, player, deadline=None, lean=False):
        calls.append((empty.bit_count(), lean))
        return real(board, stones, empty, player, deadline, lean)

    monkeypatch.setattr(solver, "h_search", watched)
    assert solver.LEAN_MAX_EMPTY == 49
    for size, stones in ((7, "d4"), (8, "d4 e5 c6")):
        black, white = mask(size, stones.split()[0]), mask(size, " ".join(stones.split()[1:]))
        Solver(size).analyse(white, black, 1)
    assert calls and all(lean == (empty <= 49) for empty, lean in calls)
    assert {lean for _, lean in calls} == {True, False}


def stone_above_a_wall(size: int, row: int, column: int) -> tuple[Board, int, int]:
    """Black's column from the bottom edge up to ``row`` (1: the top row) in
    ``column`` (0: a), every other cell below ``row`` white: black is
    connected exactly when the top stone reaches the top edge through the
    empty rows above it (and its own row), as an edge template does."""
    board = Board(size)
    black = sum(1 << (r * size + column) for r in range(row - 1, size))
    white = sum(1 << (r * size + c) for r in range(row, size) for c in range(size) if c != column)
    return board, black, white


@pytest.mark.parametrize(("row", "column", "cells"), [
    (2, 4, "e1 f1"),  # template II: the bridge to the edge
    (3, 4, "d1 e1 f1 g1 d2 e2 f2 d3"),  # template IIIa, the ziggurat
    (3, 1, "a1 b1 c1 d1 a2 b2 c2 a3"),  # the ziggurat against the side, its other way round
])
def test_h_search_finds_the_edge_templates_and_they_hold(row, column, cells):
    board, black, white = stone_above_a_wall(9, row, column)
    found = h_search(board, black, board.full & ~(black | white), 0)
    assert found.vc == mask(9, cells)
    assert h_search(board, black, board.full & ~(black | white), 0, lean=True).vc == found.vc
    # Only that carrier left empty, white moving first still cannot cut it.
    rest = board.full & ~(black | found.vc)
    assert not minimax_wins(board, rest, black, 1)


def test_h_search_finds_a_fourth_row_edge_connection():
    # Template IVa's stone, fourth row (its carrier is too big for the brute
    # force; H-search's soundness is checked on random positions above).
    board, black, white = stone_above_a_wall(9, 4, 3)
    found = h_search(board, black, board.full & ~(black | white), 0)
    assert found.vc is not None and found.vc & ~mask(9, "a1 b1 c1 d1 e1 f1 g1 h1 i1 a2 b2 c2 d2 e2 f2 g2 h2 i2 "
                                                     "a3 b3 c3 d3 e3 f3 g3 h3 i3 a4 b4 c4 e4 f4 g4 h4 i4") == 0


def template_position(shape: tuple[tuple[int, int], ...], size: int = 9, column: int = 2) -> tuple[Board, int, int]:
    """Black's anchor on the fourth row (column ``column``) with a straight
    chain below it to the bottom edge, the carrier of ``shape`` above it
    empty and every other cell white: black is connected exactly when the
    anchor reaches the top edge inside the carrier."""
    board = Board(size)
    black = sum(1 << (row * size + column) for row in range(3, size))
    carrier = sum(1 << ((3 + row) * size + column + step) for row, step in shape)
    white = board.full & ~(black | carrier)
    return board, black, white


@pytest.mark.parametrize("shape", solver.TEMPLATES, ids=["IVa", "IVa mirrored"])
def test_the_fourth_row_templates_hold_and_no_cell_of_them_can_go(shape, monkeypatch):
    # Proven by the solver with the templates out of its H-search (its
    # soundness is checked against minimax on random positions).
    board, black, white = template_position(shape)
    monkeypatch.setattr(board, "templates", ((), ()))
    assert len(shape) == 19 and board.full & ~(black | white) == sum(
        1 << ((3 + row) * 9 + 2 + step) for row, step in shape)
    plain = Solver(9)
    plain.board = board
    assert plain.solve(white, black, 1)[0] == LOSS  # white moving first cannot cut it
    carrier = board.full & ~(black | white)
    cell = carrier
    while cell:
        low = cell & -cell
        cell ^= low
        smaller = Solver(9)
        smaller.board = board
        assert smaller.solve(white | low, black, 1)[0] == WIN, HexState(9).cell_text(low.bit_length() - 1)


def test_h_search_adds_the_fourth_row_templates_on_every_edge():
    size = 9
    for shape in solver.TEMPLATES:
        board, black, white = template_position(shape, size)
        empty = board.full & ~(black | white)
        # Without the wall of white stones, the same chain.
        found = h_search(board, black, board.full & ~black, 0)
        assert found.vc is not None
        assert h_search(board, black, empty, 0).vc == empty
        # The same on black's other edge (half a turn) and on white's two
        # (row and column exchanged).
        for transform in (lambda r, c: (r, c), lambda r, c: (size - 1 - r, size - 1 - c)):
            for player in (0, 1):
                def place(cells: int) -> int:
                    out = 0
                    for index in range(size * size):
                        if cells >> index & 1:
                            r, c = transform(*divmod(index, size))
                            out |= 1 << ((c * size + r) if player else (r * size + c))
                    return out

                mine, theirs = place(black), place(white)
                assert h_search(board, mine, board.full & ~(mine | theirs), player).vc is not None
                # An opponent stone on a carrier cell at the edge: a semi-connection is left.
                edge_cell = empty & -empty
                cut = h_search(board, mine, board.full & ~(mine | theirs | place(edge_cell)), player)
                assert cut.vc is None and cut.keys


def test_the_templates_can_be_switched_off_for_an_ablation_match():
    board, black, white = template_position(solver.TEMPLATES[0])
    empty = board.full & ~(black | white)
    assert h_search(board, black, empty, 0).vc == empty
    without = Board(board.size, board.game, templates=False)
    assert h_search(without, black, empty, 0).vc is None
    # The engine's part "templates" chooses the solver's board.
    assert "templates" not in connection.choose_parts(without="templates")
    assert solver.solver_for(board.size, board.game, templates=False).board.templates == ((), ())
    assert solver.solver_for(board.size, board.game).board.templates == board.templates


# -- the proofs -----------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_the_solver_agrees_with_minimax(seed):
    board = Board(5)
    for mine, theirs, player in random_positions(random.Random(seed), 5, (4, 11), 15):
        value, move = Solver(5).solve(mine, theirs, player)
        expected = minimax_wins(board, mine, theirs, player)
        assert value == (WIN if expected else LOSS)
        if value == WIN:
            assert not mine & 1 << move and not theirs & 1 << move
            assert board.connected(mine | 1 << move, player) or \
                not minimax_wins(board, theirs, mine | 1 << move, player ^ 1)


def check_proof_sets(board: Board, found: Solver, rng: random.Random) -> int:
    """Check the proof sets of the first positions ``found`` proved: the
    loser given random extra stones outside one still loses, by minimax.
    Returns how many such positions were checked."""
    checked = 0
    for (mine, theirs, player), (value, _) in list(found.table.items())[:10]:
        winner = mine if value == WIN else theirs
        if board.connected(winner, player if value == WIN else player ^ 1):
            continue  # over already
        proof = found.proofs[(mine, theirs, player)]
        empty = board.full & ~(mine | theirs)
        assert not proof & ~empty
        outside = [cell for cell in range(board.cells) if (empty & ~proof) >> cell & 1]
        for _ in range(3):
            extra = sum(1 << cell for cell in outside if rng.random() < 0.5)
            checked += 1
            if value == WIN:
                assert not board.connected(theirs | extra, player ^ 1)
                assert minimax_wins(board, mine, theirs | extra, player)
            else:
                assert not board.connected(mine | extra, player)
                assert not minimax_wins(board, mine | extra, theirs, player)
    return checked


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_a_proof_holds_whatever_the_loser_adds_outside_its_proof_set(seed):
    # A proven position's proof set is what the search prunes sibling moves
    # with: the loser given any extra stones outside it must still lose.
    # Checked on the root and on positions inside the proofs.
    rng = random.Random(seed)
    checked = 0
    for position in random_positions(rng, 5, (6, 14), 30):
        found = Solver(5)
        found.solve(*position)
        checked += check_proof_sets(Board(5), found, rng)
    assert checked >= 100


# Every 5 x 5 puzzle, and public 6 x 6 ones the proof-number search proves
# in well under a second (the iterative deepening before it proved none of
# the 15 in 20 s).
QUICK_6X6 = ("6x6-henderson-02", "6x6-henderson-14", "6x6-henderson-15", "6x6-henderson-18")


@pytest.mark.parametrize("puzzle", [p for p in PUZZLES if p["size"] == 5 or p["id"] in QUICK_6X6],
                         ids=lambda p: p["id"])
def test_the_solver_proves_a_stated_answer_of_the_small_puzzles(puzzle):
    size = puzzle["size"]
    black, white, player = puzzles_tool.bitboards(puzzle)
    mine, theirs = (black, white) if player == 0 else (white, black)
    value, move = Solver(size).solve(mine, theirs, player)
    answers = {puzzles_tool.cell(text, size) for text in puzzle["winning"]}
    assert value == WIN and move in answers


def test_a_position_won_by_its_fill_in_alone_still_gets_a_real_move():
    # Black to move: the fill-in of dead cells and captured pairs fills every
    # empty cell and joins black's edges, so the filled board has no move left.
    board = Board(5)
    mine, theirs = mask(5, "c1 a2 b2 c2 b4 a5 b5 e5"), mask(5, "e1 d3 d4 e4 c5 d5")
    solver = Solver(5)
    filled_mine, filled_theirs = solver._fill(mine, theirs, 0)
    assert not board.full & ~(filled_mine | filled_theirs) and board.connected(filled_mine, 0)
    for value, move, *_ in (solver.analyse(mine, theirs, 0), Solver(5).solve(mine, theirs, 0)):
        assert value == WIN and (board.full & ~(mine | theirs)) >> move & 1
        assert board.connected(mine | 1 << move, 0) or not minimax_wins(board, theirs, mine | 1 << move, 1)


def test_an_interrupted_proof_goes_on_from_where_it_stopped():
    puzzle = next(p for p in PUZZLES if p["id"] == "6x6-henderson-02")
    black, white, player = puzzles_tool.bitboards(puzzle)
    mine, theirs = (black, white) if player == 0 else (white, black)
    fresh = Solver(6)
    assert fresh.solve(mine, theirs, player)[0] == WIN
    interrupted = Solver(6)
    assert interrupted.solve(mine, theirs, player, seconds=0.0) == (UNKNOWN, -1)
    for _ in range(3):  # a few slices of search: none starts from scratch
        interrupted.solve(mine, theirs, player, seconds=0.01)
    before = interrupted.nodes
    assert interrupted.solve(mine, theirs, player)[0] == WIN
    assert interrupted.nodes - before < fresh.nodes


def test_the_first_moves_tried_keep_the_search_until_their_numbers_grow(monkeypatch):
    # The rank-weighted starting numbers (solver.RANK_WEIGHT) against a
    # start of 1 for every move: the same win, proven in fewer positions.
    puzzle = next(p for p in PUZZLES if p["id"] == "6x6-henderson-19")
    black, white, player = puzzles_tool.bitboards(puzzle)
    mine, theirs = (black, white) if player == 0 else (white, black)
    answers = {puzzles_tool.cell(text, 6) for text in puzzle["winning"]}
    nodes, weighted = {}, solver.RANK_WEIGHT
    for weight in (0, weighted):
        monkeypatch.setattr(solver, "RANK_WEIGHT", weight)
        search = Solver(6)
        value, move = search.solve(mine, theirs, player)
        assert value == WIN and move in answers
        nodes[weight] = search.nodes
    assert weighted and nodes[weighted] < nodes[0] * 0.75, nodes


# Every 5 x 5 puzzle, and 6 x 6 ones that take a few seconds to check move
# by move: among them the three whose public answers missed winning moves
# (6x6-henderson-02, -15 and -16: the suite lists what its solver keeps
# after pruning inferior cells; MoHex's own dfpn proves the added ones win).
EVERY_MOVE_CHECKED = ("6x6-henderson-02", "6x6-henderson-15", "6x6-henderson-16", "6x6-henderson-22")


@pytest.mark.parametrize("puzzle", [p for p in PUZZLES if p["size"] == 5 or p["id"] in EVERY_MOVE_CHECKED],
                         ids=lambda p: p["id"])
def test_the_tool_proves_that_only_the_stated_moves_win(puzzle):
    ok, report = puzzles_tool.verify(puzzle, every=True)
    assert ok, report


@pytest.mark.parametrize("answer", ["f1", "d2", "d5"])
def test_every_stated_answer_of_7x7_henderson_24_wins(answer):
    # The public suite gives d5 alone; f1 and d2 win as well (an exact
    # check of every cell with MoHex's dfpn, see the data file's note).
    # The solver proves each in about a second.
    puzzle = next(p for p in PUZZLES if p["id"] == "7x7-henderson-24")
    assert answer in puzzle["winning"]
    black, white, player = puzzles_tool.bitboards(puzzle)
    assert puzzles_tool.move_wins(Solver(7), black, white, player, puzzles_tool.cell(answer, 7))


def test_the_time_limit_is_kept():
    # An open 7 x 7 board, black's first stone in the centre: far too big
    # to prove in a fraction of a second. (With white's c5 as well, white
    # to move, the edge template IVa proves white's win at once; 3.5 s
    # without it.)
    board = Board(7)
    mine, theirs = mask(7, "d4"), 0
    search = Solver(7)
    start = time.perf_counter()
    value, move = search.solve(theirs, mine, 1, seconds=0.05)
    elapsed = time.perf_counter() - start
    assert value == UNKNOWN and move == -1
    assert elapsed < 0.1  # the counted clock (tests/counted_clock.py): the deadline ends it, whatever the machine
    # What it learnt is still sound: the moves left lie on the board's empty cells.
    left = search.candidates(theirs, mine, 1)
    assert left and not left & (mine | theirs) and left & board.full == left


# -- the master level -----------------------------------------------------------------------
@pytest.mark.parametrize("puzzle_id", ["5x5-hein-06", "5x5-henderson-12", "5x5-constructed-03"])
def test_master_plays_the_proven_winning_move(puzzle_id):
    puzzle = next(p for p in PUZZLES if p["id"] == puzzle_id)
    state, exchanged = puzzles_tool.puzzle_state(puzzle)
    # A proven win is played as soon as it is proven: the long budget only
    # keeps a loaded machine from running out of time (how many puzzles
    # the level solves in its own 2 s is measured by `make bench`).
    move = ai.choose_move(state, "master", seed=1, move_time=30.0)
    assert move in puzzles_tool.answers(puzzle, exchanged)


def test_the_solver_is_tried_on_small_positions_of_both_games():
    # A crowded board: H-search at the root only, which excludes nothing here.
    assert connection.solve_first(HexState(11), 1.0) == (None, None)
    # Y: a won position of side 5, and the move is a winning one.
    state = YState(5)
    for text in "a1 e5".split():
        state.play(text)
    move, only = connection.solve_first(state, 5.0)
    assert move is not None and only is None
    black, white = solver.position_masks(state.owners(), 0)
    assert not minimax_wins(Board(5, "y"), white, black | 1 << move, 1)
    state = HexState(5)
    for text in "c2 c3 b4".split():
        state.play(text)
    move, only = connection.solve_first(state, 5.0)
    assert move is not None or only


def test_master_keeps_its_budget_on_a_small_board():
    state = HexState(7)
    for text in "d4 c5 e3".split():
        state.play(text)
    start = time.perf_counter()
    move = ai.choose_move(state, "master", seed=1, move_time=0.5)
    assert state.is_legal(move)
    assert time.perf_counter() - start < 3.0  # the counted clock: the budget ends it
