"""Hex rules (py/core/hex.py): edges and corners, winner detection, the
Hex theorem on random full boards, swap, notation, saves, undo, perft."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from core.base import FIRST, SECOND, GameError, IllegalMoveError, NotationError, Outcome, SaveError, perft
from core.hex import BOTTOM, LEFT, RIGHT, TOP, HexState, layout
from registry import STATES


def game(size: int = 5, moves: str = "", swap: bool = False) -> HexState:
    state = HexState(size, swap)
    for text in moves.split():
        state.play(text)
    return state


def internals(state: HexState) -> tuple:
    return (state._owner, state._parent, state._group_size, state._reach, state._unions, state._winner,
            state.moves)


def snapshot(state: HexState) -> tuple:
    return tuple(list(part) if isinstance(part, list) else part for part in internals(state))


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
@given(st.sampled_from([5, 6, 7, 11]).flatmap(lambda n: st.permutations(range(n * n)).map(lambda p: (n, p))))
def test_a_full_board_has_exactly_one_winner(case):
    size, order = case
    black = set(order[0::2])
    expected = full_board_winner(size, black)
    # Exactly one: white connects iff black does not (checked on the transposed board).
    white_as_black = {(c % size) * size + c // size for c in set(order) - black}
    assert (full_board_winner(size, white_as_black) == FIRST) != (expected == FIRST)
    state = HexState(size)
    for move in order:
        state.push(move)
        if state.is_over():
            break
    assert state.outcome() == Outcome(expected, "connection")
    # The game ends exactly when the mover first connects.
    state.pop()
    assert state.outcome() is None


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
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as error:
        state.play("swap")
    assert error.value.why == why
    assert snapshot(state) == before
    assert state.swap_move not in state.legal_moves()


def test_undo_of_a_swap_restores_the_black_stone():
    state = game(9, "b7", swap=True)
    before = snapshot(state)
    state.play("swap")
    assert state.pop() == state.swap_move
    assert snapshot(state) == before and state.cell_owner(state.parse_move("b7")) == FIRST


# -- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "a", "1", "a0", "f6x", "z1", "l1", "a12", "aa1", "swapp", "pass", " - "])
def test_bad_notation_is_refused(text):
    state = game(11, "f6")
    before = snapshot(state)
    with pytest.raises(NotationError):
        state.play(text)
    assert snapshot(state) == before


def test_illegal_moves_say_why_and_change_nothing():
    state = game(5, "c3")
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match=r"illegal move 'c3' in hex 5 after \[c3\]: cell c3 is occupied"):
        state.play("c3")
    for bad in (-1, 26, 1.5, True, None):
        with pytest.raises(IllegalMoveError, match="no such cell"):
            state.play(bad)
    assert snapshot(state) == before
    finished = game(5, "a1 b1 a2 b2 a3 b3 a4 b4 a5")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        finished.play("e5")


def test_notation_round_trip_on_every_size():
    for size in range(5, 20):
        state = HexState(size, True)
        texts = [state.move_to_text(move) for move in range(size * size + 1)]
        assert len(set(texts)) == len(texts)
        assert [state.parse_move(text) for text in texts] == list(range(size * size + 1))
        assert [state.parse_move(text.upper()) for text in texts] == list(range(size * size + 1))
    state = HexState(19)
    assert state.move_to_text(0) == "a1" and state.move_to_text(360) == "s19" and state.parse_move("b3") == 39
    with pytest.raises(GameError):
        state.move_to_text(362)


# -- saves and undo ---------------------------------------------------------------------------
def test_save_and_restore_through_the_move_list():
    state = game(13, "g7 swap d4 e5", swap=True)
    data = state.to_dict()
    assert data == {"version": 1, "game": "hex", "settings": {"size": 13, "swap": True},
                    "moves": ["g7", "swap", "d4", "e5"]}
    restored = HexState.from_dict(data)
    assert restored == state and snapshot(restored) == snapshot(state)


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


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_undo_restores_every_earlier_position_exactly(data):
    size = data.draw(st.sampled_from([5, 6, 9]))
    state = HexState(size, swap=data.draw(st.booleans()))
    history = [snapshot(state)]
    copies = [state.copy()]
    while not state.is_over():
        state.play(data.draw(st.sampled_from(state.legal_moves())))
        history.append(snapshot(state))
        copies.append(state.copy())
    while state.moves:
        state.pop()
        history.pop()
        copies.pop()
        assert snapshot(state) == history[-1]
        assert state == copies[-1] and snapshot(copies[-1]) == history[-1]


def test_copies_are_independent():
    state = game(5, "c3")
    clone = state.copy()
    clone.play("d4")
    assert state.moves == [12] and state.cell_owner(18) is None and clone.cell_owner(18) == SECOND


def test_perft_small_values():
    assert [perft(HexState(5), depth) for depth in range(4)] == [1, 25, 600, 13800]
    # With swap: after any first stone one more reply, then black has 24 cells again.
    assert [perft(HexState(5, True), depth) for depth in range(4)] == [1, 25, 625, 14400]


def test_perft_counts_stop_at_the_end_of_a_game():
    # Black's column a needs a5 to reach row 5: that line ends there.
    state = game(5, "a1 b1 a2 b2 a3 b3 a4 c4")
    assert perft(state, 1) == 17
    assert perft(state, 2) == 16 * 16


def test_repr_and_read_only_views():
    state = game(5, "c3 swap", swap=True)
    assert repr(state) == "<HexState size=5 swap moves=[c3 swap]>"
    assert state.size == 5 and state.cell_count == 25 and state.swap_rule
    assert state.owners()[12] == SECOND and state.stones(SECOND) == [12]
    assert state.neighbours(0) == (1, 5)
