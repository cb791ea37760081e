"""Hex rules (py/core/hex.py): edges and corners, winner detection, the
Hex theorem on random full boards, swap, notation, settings and damaged
saves. What every game must do (random games, undo, copies, saves,
notation round trips, perft) is in tests/core/test_conformance.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from core.base import FIRST, SECOND, GameError, IllegalMoveError, NotationError, Outcome, SaveError
from core.hex import BOTTOM, LEFT, MAX_SIZE, MIN_SIZE, RIGHT, TOP, HexState, layout
from full_boards import first_to_connect, full_boards
from registry import STATES


def game(size: int = 5, moves: str = "", swap: bool = False) -> HexState:
    state = HexState(size, swap)
    for text in moves.split():
        state.play(text)
    return state


def full_board_winner(size: int, black: set[int]) -> int:
    """Independent of the core: does black join row 1 to row N on a full
    board (black's cells ``black``, the rest white)? Flood fill on (row, col)."""
    frontier = [(0, col) for col in range(size) if col in black]
    seen = set(frontier)
    while frontier:
        row, col = frontier.pop()
        if row == size - 1:
            return FIRST
        for dr, dc in ((-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)):
            r, c = row + dr, col + dc
            if 0 <= r < size and 0 <= c < size and (r, c) not in seen and r * size + c in black:
                seen.add((r, c))
                frontier.append((r, c))
    return SECOND


# -- the board -------------------------------------------------------------------------
def test_registered_with_its_settings():
    assert STATES["hex"] is HexState
    assert HexState().settings() == {"size": 11, "swap": False}
    assert HexState.from_settings({}).settings() == {"size": 11, "swap": False}


@pytest.mark.parametrize("size", [5, 7, 11, 14, 19])
def test_neighbours_are_symmetric_and_corners_differ(size):
    board = layout(size)
    for cell in range(board.cells):
        for other in board.neighbours[cell]:
            assert cell in board.neighbours[other]
    last = size - 1
    acute = (0, size * size - 1)  # a1 and the far corner
    obtuse = (last, last * size)  # the last cell of row 1, a<size>
    assert all(len(board.neighbours[c]) == 2 for c in acute)
    assert all(len(board.neighbours[c]) == 3 for c in obtuse)
    assert sum(len(n) == 6 for n in board.neighbours) == (size - 2) ** 2


def test_corners_belong_to_both_players_edges():
    board = layout(5)
    black, white = board.edges
    assert (black[0], white[0]) == (TOP, LEFT)  # a1, acute
    assert (black[4], white[4]) == (TOP, RIGHT)  # e1, obtuse
    assert (black[20], white[20]) == (BOTTOM, LEFT)  # a5, obtuse
    assert (black[24], white[24]) == (BOTTOM, RIGHT)  # e5, acute
    assert (black[12], white[12]) == (0, 0)


# -- winning ---------------------------------------------------------------------------------
def test_black_joins_row_1_with_the_last_row():
    state = game(5, "a1 b1 a2 b2 a3 b3 a4 b4")
    assert state.outcome() is None and state.group_edges(0) == TOP
    state.play("a5")
    assert state.outcome() == Outcome(FIRST, "connection")
    assert state.legal_moves() == [] and state.is_over()
    assert state.winning_chain() == (0, 5, 10, 15, 20)


def test_white_joins_column_a_with_the_last_column():
    state = game(5, "a2 a1 a3 b1 a4 c1 b3 d1")
    assert state.outcome() is None
    state.play("c3")
    state.play("e1")  # the obtuse corner completes white's row
    assert state.outcome() == Outcome(SECOND, "connection")
    assert [state.cell_text(c) for c in state.winning_chain()] == ["a1", "b1", "c1", "d1", "e1"]


def test_row_1_alone_does_not_win_for_black():
    # A full first row touches both of white's edges, none of black's twice.
    state = game(5, "a1 a2 b1 b2 c1 c3 d1 d2 e1")
    assert state.outcome() is None
    assert state.group_edges(0) == TOP


def test_a_winding_chain_and_its_shortest_path():
    # White's row 3 wall sends black sideways along row 2; b1, b2 and e2
    # are black stones the shortest chain does without.
    black = "b1 c1 b2 c2 d2 e2 d3 d4".split()
    white = "a1 a3 b3 c3 e4 a5 b5 e5".split()
    state = HexState(5)
    for b, w in zip(black, white):
        state.play(b)
        state.play(w)
    assert state.outcome() is None
    state.play("c5")
    assert state.outcome() == Outcome(FIRST, "connection")
    cells = state.winning_chain()
    assert [state.cell_text(c) for c in cells] == ["c1", "c2", "d2", "d3", "d4", "c5"]
    assert all(b in state.neighbours(a) for a, b in zip(cells, cells[1:]))


def test_winning_chain_is_none_while_the_game_goes_on():
    assert game(5, "c3").winning_chain() is None


@settings(max_examples=150, deadline=None)
@given(full_boards([5, 6, 7, 11], lambda n: n * n))
def test_a_full_board_has_exactly_one_winner(case):
    size, order = case
    black = set(order[0::2])
    expected = full_board_winner(size, black)
    # Exactly one: white connects iff black does not (checked on the transposed board).
    white_as_black = {(c % size) * size + c // size for c in set(order) - black}
    assert (full_board_winner(size, white_as_black) == FIRST) != (expected == FIRST)
    assert first_to_connect(HexState(size), order) == expected


# -- swap --------------------------------------------------------------------------------------
def test_swap_mirrors_the_stone_across_the_long_diagonal():
    state = game(11, "c2", swap=True)
    assert state.can_swap() and state.legal_moves()[-1] == state.swap_move == 121
    state.play("swap")
    assert state.swapped and state.turn == FIRST
    assert state.cell_owner(state.parse_move("c2")) is None
    assert state.cell_owner(state.parse_move("b3")) == SECOND  # column c, row 2 -> column b, row 3
    assert state.move_texts() == ["c2", "swap"]
    assert state.stones(FIRST) == [] and state.stones(SECOND) == [2 * 11 + 1]
    state.play("f6")
    assert state.turn == SECOND and not state.can_swap()


def test_swap_of_a_diagonal_stone_keeps_its_cell():
    state = game(7, "d4 swap-pieces", swap=True)
    assert state.cell_owner(state.parse_move("d4")) == SECOND
    assert state.last_move == state.swap_move


def test_a_swapped_white_stone_serves_whites_edges():
    state = game(5, "a3 swap", swap=True)  # black on white's edge becomes white on black's
    swapped = state.parse_move("c1")
    assert state.cell_owner(swapped) == SECOND and state.group_edges(swapped) == 0
    state = game(5, "c1 swap", swap=True)
    assert state.group_edges(state.parse_move("a3")) == LEFT


@pytest.mark.parametrize("moves, swap, why", [
    ("c2", False, "the swap rule is off"),
    ("", True, "swap is only allowed as the second move"),
    ("c2 d4", True, "swap is only allowed as the second move"),
    ("c2 swap", True, "swap is only allowed as the second move"),
])
def test_swap_is_legal_only_as_the_second_move_with_the_rule_on(moves, swap, why):
    state = game(5, moves, swap)
    with pytest.raises(IllegalMoveError) as error:
        state.play("swap")
    assert error.value.why == why
    assert state.swap_move not in state.legal_moves()


def test_undo_of_a_swap_restores_the_black_stone():
    state = game(9, "b7", swap=True)
    state.play("swap")
    assert state.cell_owner(state.parse_move("g2")) == SECOND
    assert state.pop() == state.swap_move
    assert state.cell_owner(state.parse_move("b7")) == FIRST and state.cell_owner(state.parse_move("g2")) is None
    assert state.stones(FIRST) == [state.parse_move("b7")] and state.stones(SECOND) == []


# -- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "a", "1", "a0", "f6x", "z1", "l1", "a12", "aa1", "swapp", "pass", " - "])
def test_bad_notation_is_refused(text):
    with pytest.raises(NotationError):
        HexState(11).parse_move(text)


def test_illegal_moves_say_why():
    state = game(5, "c3")
    with pytest.raises(IllegalMoveError, match=r"illegal move 'c3' in hex 5 after \[c3\]: cell c3 is occupied"):
        state.play("c3")
    with pytest.raises(IllegalMoveError, match="no such cell"):
        state.play(26)  # one past the swap move


def test_cells_are_named_column_then_row_on_every_size():
    for size in range(MIN_SIZE, MAX_SIZE + 1):
        state = HexState(size, True)
        names = [f"{'abcdefghijklmnopqrs'[col]}{row + 1}" for row in range(size) for col in range(size)]
        assert [state.move_to_text(cell) for cell in range(size * size)] == names
        assert state.move_to_text(state.swap_move) == "swap"
        assert state.parse_move("swap-pieces") == state.swap_move
    state = HexState(19)
    assert state.move_to_text(0) == "a1" and state.move_to_text(360) == "s19" and state.parse_move("b3") == 39
    with pytest.raises(GameError):
        state.move_to_text(362)


# -- settings and saves ---------------------------------------------------------------------------
@pytest.mark.parametrize("settings_", [
    {"size": 4}, {"size": 20}, {"size": True}, {"size": "11"}, {"swap": "yes"}, {"size": 11, "colour": 1}, [],
])
def test_bad_settings_are_refused(settings_):
    with pytest.raises(SaveError):
        HexState.from_settings(settings_)


def test_damaged_saves_are_refused():
    good = game(7, "a1 swap", swap=True).to_dict()
    for damaged in ({**good, "moves": ["a1", "a1x"]}, {**good, "moves": ["a1", "swap", "swap"]},
                    {**good, "settings": {"size": 7, "swap": False}}, {**good, "game": "y"}):
        with pytest.raises(SaveError):
            HexState.from_dict(damaged)


def test_repr_and_read_only_views():
    state = game(5, "c3 swap", swap=True)
    assert repr(state) == "<HexState size=5 swap moves=[c3 swap]>"
    assert state.size == 5 and state.cell_count == 25 and state.swap_rule
    assert state.owners()[12] == SECOND and state.stones(SECOND) == [12]
    assert state.neighbours(0) == (1, 5)
