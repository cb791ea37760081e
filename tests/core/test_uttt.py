"""Rules of Ultimate Tic-Tac-Toe (core.uttt): the forced board, free
choices, small-board and big-board results, notation and damaged saves.
What every game must do (random games, undo, copies, saves, notation round
trips, perft) is in tests/core/test_conformance.py."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from core import FIRST, SECOND, IllegalMoveError, NotationError, Outcome, SaveError
from core.uttt import BOARD_CELLS, CELL_BOARD, CELL_POSITION, DRAWN, LINES, UtttState, cell_text
from registry import STATES

BIG_LINES = [tuple(b for b in range(9) if line >> b & 1) for line in LINES]


def cells(*texts: str) -> list[int]:
    return [UtttState().parse_move(text) for text in texts]


def snapshot(state: UtttState) -> tuple:
    return (state.marks(FIRST), state.marks(SECOND), state.small_board_results(), state.closed_boards,
            state.forced_board, list(state.moves), state.turn, state.outcome(), state.legal_moves())


def random_game(seed: int, stop: int | None = None) -> UtttState:
    rng = random.Random(seed)
    state = UtttState()
    while not state.is_over() and (stop is None or len(state.moves) < stop):
        state.play(rng.choice(state.legal_moves()))
    return state


def setup(x_cells: list[int], o_cells: list[int]) -> UtttState:
    """A position from X's and O's cells, pushed alternately (X first)
    through the unchecked path, so the forced board does not constrain the
    construction; what follows is then checked."""
    assert len(x_cells) - len(o_cells) in (0, 1)
    state = UtttState()
    for index in range(len(x_cells) + len(o_cells)):
        state.push((o_cells if index & 1 else x_cells)[index // 2])
        assert not state.is_over() or index == len(x_cells) + len(o_cells) - 1
    return state


def board_cells(board: int, *positions: int) -> list[int]:
    return [BOARD_CELLS[board][position] for position in positions]


# -- the start ---------------------------------------------------------------------
def test_registered_under_its_name():
    assert STATES["uttt"] is UtttState
    assert UtttState.game == "uttt"


def test_new_game():
    state = UtttState()
    assert state.turn == FIRST
    assert state.legal_moves() == list(range(81))
    assert state.forced_board is None
    assert state.target_boards() == list(range(9))
    assert state.small_board_results() == (None,) * 9
    assert all(state.cell_owner(cell) is None for cell in range(81))
    assert state.outcome() is None and not state.is_over()
    assert state.last_move is None and state.winning_line() is None
    assert state.settings() == {}


def test_settings_accept_only_nothing():
    assert UtttState.from_settings({}) == UtttState()
    for bad in [{"size": 9}, {"swap": False}, [], None, "{}"]:
        with pytest.raises(SaveError):
            UtttState.from_settings(bad)  # type: ignore[arg-type]


# -- notation -----------------------------------------------------------------------
def test_notation_layout():
    # letter = column from the left, number = row from the top
    assert cells("a1", "i1", "a9", "i9", "e5") == [0, 8, 72, 80, 40]
    # small board 1 (top left) holds a1..c3; e5 is the centre of the centre
    assert [cell_text(cell) for cell in BOARD_CELLS[0]] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert (CELL_BOARD[40], CELL_POSITION[40]) == (4, 4)
    assert [cell_text(cell) for cell in BOARD_CELLS[8]][-1] == "i9"
    assert (CELL_BOARD[cells("g1")[0]], CELL_POSITION[cells("g1")[0]]) == (2, 0)


@pytest.mark.parametrize("text", ["", "e", "5e", "j1", "a0", "a10", "e5e5", "pass", "1e5"])
def test_bad_notation(text):
    with pytest.raises(NotationError):
        UtttState().parse_move(text)


# -- the forced board ----------------------------------------------------------------------
def test_the_cell_position_picks_the_next_board():
    state = UtttState()
    state.play("e5")  # centre of the centre: O must play in the centre board
    assert state.forced_board == 4 and state.target_boards() == [4]
    assert [cell_text(m) for m in state.legal_moves()] == ["d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"]
    state.play("f4")  # top right of the centre board: X goes to board 3 (top right)
    assert state.forced_board == 2
    assert state.legal_moves() == sorted(BOARD_CELLS[2])
    assert state.cell_owner(cells("e5")[0]) == FIRST and state.cell_owner(cells("f4")[0]) == SECOND


def test_playing_outside_the_forced_board_is_refused():
    state = UtttState()
    state.play("a1")  # sends O to board 1 (a1..c3)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as error:
        state.play("e5")
    assert error.value.why == "you must play in small board 1 (a1-c3)"
    assert "e5" in str(error.value) and "a1" in str(error.value)
    assert snapshot(state) == before


def test_forced_board_follows_the_rule_in_random_games():
    for seed in range(40):
        rng = random.Random(seed)
        state = UtttState()
        while not state.is_over():
            moves = state.legal_moves()
            results = state.small_board_results()
            if not state.moves:
                assert state.forced_board is None
            else:
                target = CELL_POSITION[state.moves[-1]]
                if results[target] is None:
                    assert state.forced_board == target
                    assert {CELL_BOARD[m] for m in moves} == {target}
                else:
                    assert state.forced_board is None
            open_cells = [c for c in range(81) if results[CELL_BOARD[c]] is None and state.cell_owner(c) is None]
            expected = open_cells if state.forced_board is None else [
                c for c in open_cells if CELL_BOARD[c] == state.forced_board]
            assert moves == expected
            assert state.target_boards() == sorted({CELL_BOARD[m] for m in moves})
            state.play(rng.choice(moves))
        assert state.legal_moves() == [] and state.target_boards() == [] and state.forced_board is None


# -- small boards -------------------------------------------------------------------------------
def test_a_line_wins_a_small_board_and_closes_it():
    # X: a1 b1, O's d4 (top left of the centre board) sends X to board 1.
    state = setup(cells("a1", "b1"), cells("e6", "d4"))
    assert state.forced_board == 0
    state.play("c1")
    assert state.small_board_results()[0] == FIRST
    assert state.small_board_line(0) == tuple(cells("a1", "b1", "c1"))
    assert state.closed_boards == 1
    assert state.forced_board == 2  # c1 is the top right of its board


def test_each_small_board_line_wins():
    for line in BIG_LINES:  # the same eight masks serve the small boards
        state = setup(board_cells(4, *line), board_cells(0, 0, 4))
        assert state.small_board_results()[4] == FIRST
        assert state.small_board_line(4) == tuple(board_cells(4, *line))


def test_a_full_small_board_without_a_line_is_drawn():
    # X O X / X O O / O X X on the centre board: no line for either
    state = setup(board_cells(4, 0, 2, 3, 7, 8), board_cells(4, 1, 4, 5, 6))
    assert state.small_board_results()[4] == DRAWN
    assert state.small_board_line(4) is None
    assert state.closed_boards == 1 << 4
    assert state.outcome() is None


def test_sent_to_a_won_board_means_a_free_choice():
    state = setup(cells("a1", "b1"), cells("e6", "d4"))
    state.play("c1")  # X wins board 1 and sends O to board 3
    state.play("g1")  # O: top left of board 3 -> board 1, which is decided
    assert state.forced_board is None
    assert state.target_boards() == [1, 2, 3, 4, 5, 6, 7, 8]
    expected = [c for c in range(81) if CELL_BOARD[c] != 0 and state.cell_owner(c) is None]
    assert state.legal_moves() == expected
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as error:
        state.play("b2")
    assert error.value.why == "small board 1 is decided"
    assert snapshot(state) == before
    state.play("i9")  # anywhere open is fine
    assert state.forced_board == 8


def test_sent_to_a_drawn_board_means_a_free_choice():
    state = setup(board_cells(0, 0, 2, 3, 7, 8), board_cells(0, 1, 4, 5, 6))
    assert state.small_board_results()[0] == DRAWN
    assert state.forced_board == 8  # X's last move, c3, sends O to board 9
    state.play("g7")  # O: top left of board 9 -> board 1, drawn
    assert state.forced_board is None
    assert state.target_boards() == [1, 2, 3, 4, 5, 6, 7, 8]
    with pytest.raises(IllegalMoveError) as error:
        state.play("a2")
    assert error.value.why == "cell a2 is occupied"


def test_a_free_choice_happens_in_random_games_too():
    # Seen in real (legal) games: sent to a won and to a drawn board.
    seen = set()
    for seed in range(60):
        rng = random.Random(seed)
        state = UtttState()
        while not state.is_over():
            if state.moves and state.forced_board is None:
                seen.add(state.small_board_results()[CELL_POSITION[state.moves[-1]]])
            state.play(rng.choice(state.legal_moves()))
    assert seen == {FIRST, SECOND, DRAWN}


def test_an_occupied_cell_is_refused():
    state = UtttState()
    state.play("e5")
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as error:
        state.play("e5")
    assert error.value.why == "cell e5 is occupied"
    assert snapshot(state) == before


# -- the big board --------------------------------------------------------------------------------
@pytest.mark.parametrize("line", BIG_LINES)
def test_three_won_boards_in_a_line_win_the_game(line):
    others = [board for board in range(9) if board not in line]
    x_cells = [BOARD_CELLS[board][position] for board in line for position in (0, 1, 2)]
    final = x_cells.pop()  # the top-right cell of the line's last board
    # O: two cells (never a line) in each of four other boards, the very
    # last on the position that sends X to the board X finishes in.
    o_cells = [BOARD_CELLS[board][position] for board in others[:3] for position in (3, 7)]
    o_cells += board_cells(others[3], 4 if line[2] != 4 else 3, line[2])
    state = setup(x_cells, o_cells)
    assert state.outcome() is None and state.forced_board == line[2]
    state.play(final)
    assert state.outcome() == Outcome(FIRST, "three_boards_in_line")
    assert state.winning_line() == line
    assert state.is_over() and state.legal_moves() == [] and state.target_boards() == []
    with pytest.raises(IllegalMoveError) as error:
        state.play(next(c for c in range(81) if state.cell_owner(c) is None))
    assert error.value.why == "the game is over"


def test_the_second_player_wins_too():
    x_cells = [BOARD_CELLS[board][position] for board in (1, 3, 5, 6, 7) for position in (3, 7)][:9]
    o_cells = [BOARD_CELLS[board][position] for board in (0, 4, 8) for position in (0, 1, 2)]
    state = setup(x_cells, o_cells)
    assert state.outcome() == Outcome(SECOND, "three_boards_in_line")
    assert state.winning_line() == (0, 4, 8)


def test_all_boards_decided_without_a_line_is_a_draw():
    # X wins boards 1 3 4 8, O wins 2 5 6 7 (no line for either), board 9 is
    # drawn by X's last move, i9; O's last move (position 9) sends X there.
    x_cells = [BOARD_CELLS[b][p] for b in (0, 2, 3, 7) for p in (0, 1, 2)] + board_cells(8, 0, 2, 3, 7)
    o_cells = board_cells(8, 1, 4, 5, 6) + [BOARD_CELLS[b][p] for b in (1, 4, 5, 6) for p in (2, 5, 8)]
    state = setup(x_cells, o_cells)
    assert state.outcome() is None and state.forced_board == 8
    state.play("i9")
    assert state.outcome() == Outcome(None, "all_boards_decided")
    assert state.small_board_results() == (FIRST, SECOND, FIRST, FIRST, SECOND, SECOND, SECOND, FIRST, DRAWN)
    assert state.winning_line() is None and state.legal_moves() == []


# -- saves, random games ------------------------------------------------------------------------
def test_damaged_saves_are_refused():
    saved = random_game(4, stop=10).to_dict()
    with pytest.raises(SaveError):
        UtttState.from_dict({**saved, "moves": saved["moves"] + [saved["moves"][0]]})  # occupied
    with pytest.raises(SaveError):
        UtttState.from_dict({**saved, "moves": saved["moves"] + ["z9"]})
    with pytest.raises(SaveError):
        UtttState.from_dict({**saved, "settings": {"size": 9}})
    with pytest.raises(SaveError):
        UtttState.from_dict({**saved, "game": "hex"})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10**6), max_size=81))
def test_random_games_end_as_the_small_boards_say(choices):
    state = UtttState()
    for choice in choices:
        moves = state.legal_moves()
        if not moves:
            break
        state.play(moves[choice % len(moves)])
    while not state.is_over():  # finish the game the same way every time
        state.play(state.legal_moves()[len(state.moves) * 7 % len(state.legal_moves())])
    outcome = state.outcome()
    results = state.small_board_results()
    if outcome.winner is None:
        assert None not in results and state.winning_line() is None
    else:
        assert all(results[board] == outcome.winner for board in state.winning_line())


def test_repr_names_the_moves():
    state = UtttState()
    state.play("e5")
    assert repr(state) == "<UtttState moves=[e5]>"
    assert state.position_text() == "uttt after [e5]"
