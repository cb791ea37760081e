"""The exact solver and H-search on Y boards (py/ai/connection/solver.py, vcs.py): the
connections to the three edges, the winning and must-play cells they give,
the proofs and proof sets, each checked against plain minimax on small
triangles."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from ai.connection import solver
from ai.connection.solver import LOSS, WIN, Board, Solver, h_search
from core.y import cell_index
from test_hex_solver import check_proof_sets, minimax_wins
from test_hex_solver import random_positions as hex_positions
from counted_clock import counted_clock  # noqa: F401  (autouse: the engines' seconds on the counted clock)


@pytest.fixture(autouse=True)
def fresh_tables():
    solver.clear()
    yield
    solver.clear()


def random_positions(rng: random.Random, size: int, empty: tuple[int, int],
                     count: int) -> Iterator[tuple[int, int, int]]:
    """The Hex tests' random positions, on a Y triangle of side ``size``."""
    return hex_positions(rng, size, empty, count, "y")


def test_a_y_board_wins_with_one_group_on_all_three_edges():
    board = Board(4, "y")
    side = sum(1 << cell_index(row, 0) for row in range(1, 4))  # the left side below the apex
    assert not board.connected(side, 0)  # the left and bottom edges only
    assert board.connected(side | 1 << cell_index(0, 0), 0)  # the apex is on the right edge too
    two = sum(1 << cell_index(3, col) for col in (0, 1)) | 1 << cell_index(3, 3)  # bottom row, a gap
    assert not board.connected(two, 1)
    assert board.wins_in_one(two, board.full & ~two, 1) == 1 << cell_index(3, 2)


@pytest.mark.slow
def test_the_fourth_row_templates_hold_on_every_edge_of_y(monkeypatch):
    """Every placement of edge template IVa on a triangle of side 9 (both
    shapes, the three edges): the anchor's stone, with a chain away from
    the carrier to the corner across from its edge (which lies on the two
    other edges), wins with every other cell the opponent's and the
    opponent moving first; with any one carrier cell taken, it loses. The
    solver proves it with the templates out of its H-search; H-search
    with them finds the connection."""
    size = 9
    board = Board(size, "y")
    placements = board.templates[0]
    assert placements == board.templates[1]  # both players own every edge
    assert [sum(1 for edge, _, _ in placements if edge == e) for e in range(3)] == [6, 6, 6]
    neighbours = [[cell for cell in range(board.cells) if board.around[x] >> cell & 1] for x in range(board.cells)]
    across = {0: cell_index(size - 1, size - 1), 1: cell_index(size - 1, 0), 2: cell_index(0, 0)}
    for edge, anchor, carrier in placements:
        assert carrier & board.edges[0][edge]  # the carrier reaches its edge
        start = anchor.bit_length() - 1
        came = {start: -1}
        frontier = [start]
        while across[edge] not in came:
            frontier = [y for x in frontier for y in neighbours[x]
                        if not carrier >> y & 1 and y not in came and not came.__setitem__(y, x)]
        chain, cell = 0, across[edge]
        while cell >= 0:
            chain |= 1 << cell
            cell = came[cell]
        other = board.full & ~(chain | carrier)
        assert h_search(board, chain, carrier, 0).vc is not None
        monkeypatch.setattr(board, "templates", ((), ()))
        plain = Solver(size, "y")
        plain.board = board
        assert plain.solve(other, chain, 1)[0] == LOSS
        rest = carrier
        while rest:
            low = rest & -rest
            rest ^= low
            smaller = Solver(size, "y")
            smaller.board = board
            assert smaller.solve(other | low, chain, 1)[0] == WIN
        monkeypatch.undo()


def test_a_centre_stone_with_three_bridges_to_the_edges_has_won():
    # Side 4, the stone at row 3, second cell: a bridge to each of the three
    # edges, with six distinct carrier cells.
    board = Board(4, "y")
    stone = 1 << cell_index(2, 1)
    found = h_search(board, stone, board.full & ~stone, 0)
    carriers = {(1, 0), (2, 0), (1, 1), (2, 2), (3, 1), (3, 2)}
    assert found.vc == sum(1 << cell_index(r, c) for r, c in carriers)
    assert not minimax_wins(board, 0, stone, 1)  # white to move cannot stop it


@pytest.mark.parametrize("seed", range(4))
def test_y_connections_really_hold(seed):
    # A VC of the side not to move: it wins anyway. A key of the side to
    # move: playing it wins. A cell outside the opponent's must-play region:
    # playing it loses.
    board = Board(5, "y")
    seen = {"vc": 0, "key": 0, "must": 0}
    for mine, theirs, player in random_positions(random.Random(seed), 5, (5, 11), 40):
        empty = board.full & ~(mine | theirs)
        theirs_vc = h_search(board, theirs, empty, player ^ 1)
        if theirs_vc.vc is not None:
            seen["vc"] += 1
            assert not minimax_wins(board, mine, theirs, player)
        elif theirs_vc.must != board.full:
            outside = empty & ~theirs_vc.must
            while outside:
                low = outside & -outside
                outside ^= low
                seen["must"] += 1
                assert board.connected(mine | low, player) or minimax_wins(board, theirs, mine | low, player ^ 1)
        mine_vc = h_search(board, mine, empty, player)
        keys = mine_vc.keys
        while keys:
            low = keys & -keys
            keys ^= low
            seen["key"] += 1
            assert board.connected(mine | low, player) or not minimax_wins(board, theirs, mine | low, player ^ 1)
    assert all(seen.values()), seen


@pytest.mark.parametrize(("size", "seed"), [(5, 0), (5, 1), (6, 2), (6, 3)])
def test_the_y_solver_agrees_with_minimax(size, seed):
    board = Board(size, "y")
    for mine, theirs, player in random_positions(random.Random(seed), size, (6, 12), 15):
        value, move = Solver(size, "y").solve(mine, theirs, player)
        expected = minimax_wins(board, mine, theirs, player)
        assert value == (WIN if expected else LOSS)
        if value == WIN:
            assert (board.full & ~(mine | theirs)) >> move & 1
            assert board.connected(mine | 1 << move, player) or \
                not minimax_wins(board, theirs, mine | 1 << move, player ^ 1)


def test_a_y_proof_holds_whatever_the_loser_adds_outside_its_proof_set():
    rng = random.Random(7)
    checked = 0
    for position in random_positions(rng, 5, (6, 12), 25):
        found = Solver(5, "y")
        found.solve(*position)
        checked += check_proof_sets(Board(5, "y"), found, rng)
    assert checked >= 50
