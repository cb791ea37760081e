"""Y rules (py/core/y.py): the triangle, its three edges and corners,
winner detection, agreement with Y-reduction on random full boards, swap,
notation and damaged saves. What every game must do (random games, undo,
copies, saves, notation round trips, perft) is in
tests/core/test_conformance.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from core.base import FIRST, SECOND, IllegalMoveError, NotationError, Outcome, SaveError
from core.y import ALL_EDGES, BOTTOM_EDGE, LEFT_EDGE, RIGHT_EDGE, YState, cell_index, layout
from full_boards import first_to_connect, full_boards
from registry import STATES


def game(size: int = 5, moves: str = "", swap: bool = False) -> YState:
    state = YState(size, swap)
    for text in moves.split():
        state.play(text)
    return state


def y_reduction(rows: list[list[int]]) -> int:
    """The winner of a full Y board by reduction (independent of the core):
    a triangle of side n becomes one of side n - 1 whose cell (r, c) takes
    the majority colour of the small triangle (r, c), (r+1, c), (r+1, c+1);
    the last cell's colour has won (van Rijswijck's theorem)."""
    while len(rows) > 1:
        rows = [
            [1 if rows[r][c] + rows[r + 1][c] + rows[r + 1][c + 1] >= 2 else 0 for c in range(r + 1)]
            for r in range(len(rows) - 1)
        ]
    return FIRST if rows[0][0] else SECOND


# -- the board -----------------------------------------------------------------------------
def test_registered_with_its_settings():
    assert STATES["y"] is YState
    assert YState().settings() == {"size": 13, "swap": False}
    assert YState(9).cell_count == 45


@pytest.mark.parametrize("size", [5, 9, 13, 19])
def test_triangle_neighbours_and_edges(size):
    board = layout(size)
    assert board.cells == size * (size + 1) // 2
    for cell in range(board.cells):
        for other in board.neighbours[cell]:
            assert cell in board.neighbours[other]
    edges = board.edges[0]
    assert board.edges[1] == edges  # the edges belong to nobody
    apex, bottom_left, bottom_right = 0, cell_index(size - 1, 0), cell_index(size - 1, size - 1)
    assert edges[apex] == LEFT_EDGE | RIGHT_EDGE
    assert edges[bottom_left] == LEFT_EDGE | BOTTOM_EDGE
    assert edges[bottom_right] == RIGHT_EDGE | BOTTOM_EDGE
    assert all(len(board.neighbours[c]) == 2 for c in (apex, bottom_left, bottom_right))
    assert sum(len(n) == 6 for n in board.neighbours) == (size - 2) * (size - 3) // 2
    assert sum(1 for e in edges if e) == 3 * (size - 1)


# -- winning ------------------------------------------------------------------------------------
def test_the_left_edge_alone_wins_through_its_two_corners():
    state = game(5, "a1 c3 a2 c4 a3 d4 a4 e5")
    assert state.outcome() is None
    state.play("a5")
    assert state.outcome() == Outcome(FIRST, "connection")
    assert [state.cell_text(c) for c in sorted(state.winning_chain())] == ["a1", "a2", "a3", "a4", "a5"]


def test_two_edges_are_not_enough():
    # Row 3 from the left edge to the right edge, but not down to row 5.
    state = game(5, "a3 a5 b3 b5 c3 d5")
    assert state.outcome() is None
    assert state.group_edges(state.parse_move("b3")) == LEFT_EDGE | RIGHT_EDGE
    assert state.group_edges(state.parse_move("a1")) == 0


def test_a_corner_counts_for_both_its_edges():
    state = game(5, "e5 a1")
    assert state.group_edges(state.parse_move("e5")) == RIGHT_EDGE | BOTTOM_EDGE
    assert state.group_edges(state.parse_move("a1")) == LEFT_EDGE | RIGHT_EDGE


def test_a_y_shaped_chain_and_its_smallest_set():
    # White's row 5 spans the left and right edges, c6-c7 drops to the
    # bottom; b4 and d6 are white stones the chain does without. Black holds
    # the left and right edges higher up, and two bottom corners.
    black = "a1 a2 b2 a3 c3 a4 d4 a7 g7".split()
    white = "b4 d6 a5 b5 c5 d5 c6 c7 e5".split()
    state = YState(7)
    for b, w in zip(black, white):
        assert state.outcome() is None
        state.play(b)
        state.play(w)
    assert state.outcome() == Outcome(SECOND, "connection")
    chain = state.winning_chain()
    assert sorted(state.cell_text(c) for c in chain) == ["a5", "b5", "c5", "c6", "c7", "d5", "e5"]
    reach = 0
    for cell in chain:
        reach |= layout(7).edges[1][cell]
    assert reach == ALL_EDGES


@settings(max_examples=200, deadline=None)
@given(full_boards([5, 6, 8, 13], lambda n: n * (n + 1) // 2))
def test_union_find_agrees_with_y_reduction_on_full_boards(case):
    size, order = case
    black = set(order[0::2])
    rows = [[1 if cell_index(r, c) in black else 0 for c in range(r + 1)] for r in range(size)]
    assert first_to_connect(YState(size), order) == y_reduction(rows)


# -- swap ----------------------------------------------------------------------------------------
def test_swap_recolours_the_stone_in_place():
    state = game(9, "e7", swap=True)
    assert state.can_swap() and state.swap_move == 45 and 45 in state.legal_moves()
    state.play("swap")
    assert state.swapped and state.turn == FIRST
    assert state.cell_owner(state.parse_move("e7")) == SECOND
    assert state.stones(FIRST) == []
    state.play("a1")
    assert not state.can_swap()
    with pytest.raises(IllegalMoveError, match="swap is only allowed as the second move"):
        state.play("swap-pieces")


def test_swap_is_illegal_without_the_rule():
    state = game(9, "e7")
    with pytest.raises(IllegalMoveError, match="the swap rule is off"):
        state.play("swap")
    assert state.legal_moves() == [c for c in range(45) if c != state.parse_move("e7")]


# -- notation and bad input ------------------------------------------------------------------
def test_notation():
    state = YState(5)
    assert state.parse_move("c5") == cell_index(4, 2) == 12
    assert state.move_to_text(0) == "a1" and state.move_to_text(14) == "e5"
    assert [state.move_to_text(m) for m in range(3)] == ["a1", "a2", "b2"]


@pytest.mark.parametrize("text", ["c2", "b1", "a0", "a6", "f5", "", "a", "swapped"])
def test_cells_off_the_triangle_are_refused(text):
    with pytest.raises(NotationError):
        YState(5).parse_move(text)


def test_an_occupied_cell_is_refused():
    with pytest.raises(IllegalMoveError, match="cell c3 is occupied"):
        game(5, "c3").play("c3")


# -- saves -------------------------------------------------------------------------
def test_damaged_saves_are_refused():
    data = game(11, "f8 swap a1", swap=True).to_dict()
    with pytest.raises(SaveError):
        YState.from_dict({**data, "game": "hex"})
    with pytest.raises(SaveError):
        YState.from_settings({"size": 21})


def test_repr():
    assert repr(game(5, "c5")) == "<YState size=5 moves=[c5]>"
