"""Rules of Notakto (core.notakto): closing boards, the last-board loss,
notation, settings and damaged saves. What every game must do (random
games, undo, copies, saves, notation round trips, perft) is in
tests/core/test_conformance.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from core import FIRST, SECOND, GameError, IllegalMoveError, NotationError, Outcome, SaveError
from core.notakto import NotaktoState
from registry import STATES

ROWS = [(0, 1, 2), (3, 4, 5), (6, 7, 8)]
COLUMNS = [(0, 3, 6), (1, 4, 7), (2, 5, 8)]
DIAGONALS = [(0, 4, 8), (2, 4, 6)]


# -- the start -------------------------------------------------------------------
def test_registered_under_its_name():
    assert STATES["notakto"] is NotaktoState
    assert NotaktoState.game == "notakto"


@pytest.mark.parametrize("count", range(1, 7))
def test_new_game(count):
    state = NotaktoState(count)
    assert state.boards == (0,) * count
    assert state.live_boards == list(range(count))
    assert state.turn == FIRST
    assert state.legal_moves() == list(range(9 * count))
    assert state.outcome() is None and not state.is_over()
    assert state.last_move is None
    assert state.settings() == {"boards": count}


def test_default_is_three_boards():
    assert NotaktoState().settings() == {"boards": 3}


@pytest.mark.parametrize("bad", [0, 7, -1, True, False, 3.0, "3", None])
def test_bad_board_counts_are_refused(bad):
    with pytest.raises(GameError):
        NotaktoState(bad)


# -- closing boards ----------------------------------------------------------------
@pytest.mark.parametrize("line", ROWS + COLUMNS + DIAGONALS)
def test_every_line_closes_a_board(line):
    state = NotaktoState(2)
    # board 2 gets a harmless X between the line's X so the turns alternate
    fillers = iter([9, 17])
    for index, cell in enumerate(line):
        state.play(cell)
        if index < 2:
            state.play(next(fillers))
    assert state.is_closed(0) and not state.is_closed(1)
    assert state.winning_line(0) == line
    assert state.live_boards == [1]
    assert state.outcome() is None  # another board is live: no loss
    assert all(move >= 9 for move in state.legal_moves())


def test_a_board_without_a_line_stays_live():
    state = NotaktoState(1)
    for text in ["1a1", "1b1", "1c2", "1a2", "1b3"]:  # no three in a line
        state.play(text)
    assert state.live_boards == [0]
    assert state.winning_line(0) is None
    assert state.outcome() is None


def test_closing_the_last_board_loses():
    state = NotaktoState(1)
    state.play("1a1")
    state.play("1b1")
    state.play("1c1")  # first player closes the only board
    assert state.outcome() == Outcome(winner=SECOND, reason="last_board_closed")
    assert state.is_over() and state.legal_moves() == []


def test_closing_a_board_while_another_is_live_is_not_a_loss_but_the_last_is():
    state = NotaktoState(2)
    for text in ["1a1", "1b1", "1c1"]:  # first player closes board 1
        state.play(text)
    assert state.outcome() is None and state.turn == SECOND
    for text in ["2a1", "2b2", "2c3"]:  # second player closes the last board
        state.play(text)
    assert state.outcome() == Outcome(winner=FIRST, reason="last_board_closed")


def test_one_move_can_complete_two_lines():
    state = NotaktoState(1)
    for text in ["1b1", "1a2", "1c2", "1b3"]:  # a plus sign without its centre
        state.play(text)
    assert state.live_boards == [0]
    state.play("1b2")  # completes row 2 and column b at once
    assert state.winning_line(0) == (3, 4, 5)  # the first line found is reported
    assert state.outcome() == Outcome(winner=SECOND, reason="last_board_closed")


def test_last_move_and_turn():
    state = NotaktoState(3)
    state.play("2b2")
    assert state.last_move == 13 and state.turn == SECOND
    state.play("3c3")
    assert state.last_move == 26 and state.turn == FIRST


# -- illegal moves --------------------------------------------------------------------
def closed_first_board() -> NotaktoState:
    state = NotaktoState(3)
    for text in ["1a1", "2a1", "1b1", "3a1", "1c1"]:
        state.play(text)
    return state


@pytest.mark.parametrize(
    "move, shown, why",
    [
        ("1b2", "1b2", "board 1 is closed"),
        (4, "1b2", "board 1 is closed"),
        ("2a1", "2a1", "cell 2a1 is occupied"),
        (9, "2a1", "cell 2a1 is occupied"),
        (27, "27", "no such cell"),
        (-1, "-1", "no such cell"),
    ],
)
def test_illegal_moves_say_why(move, shown, why):
    with pytest.raises(IllegalMoveError) as info:
        closed_first_board().play(move)
    error = info.value
    assert error.why == why
    assert str(error) == (
        f"illegal move {shown!r} in notakto on 3 boards after [1a1 2a1 1b1 3a1 1c1]: {why}"
    )


@pytest.mark.parametrize("text", ["", " ", "1", "a1", "1a", "0a1", "4a1", "9b2", "1d1", "1a0", "1a4",
                                  "1a1x", "11a1", "01a1", "1 a1", "b2", "2b2b", "x", "１a1"])
def test_bad_notation_raises_notation_error(text):
    with pytest.raises(NotationError):
        closed_first_board().parse_move(text)


# -- notation ---------------------------------------------------------------------------
def test_notation_examples():
    state = NotaktoState(6)
    assert state.parse_move("2b2") == 13  # centre of board 2
    assert state.parse_move("1a1") == 0
    assert state.parse_move("1c1") == 2  # columns run left to right
    assert state.parse_move("1a3") == 6  # rows run top to bottom
    assert state.parse_move("6c3") == 53
    assert state.parse_move(" 3B2 ") == state.parse_move("3b2")
    assert state.move_to_text(13) == "2b2"


def test_board_numbers_beyond_the_game_are_notation_errors():
    assert NotaktoState(6).parse_move("6a1") == 45
    with pytest.raises(NotationError):
        NotaktoState(5).parse_move("6a1")


# -- saves ---------------------------------------------------------------------------------
def good_save() -> dict:
    return {"version": 1, "game": "notakto", "settings": {"boards": 2}, "moves": ["1a1", "2b2"]}


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: "not a dict",
        lambda d: {**d, "version": 2},
        lambda d: {k: v for k, v in d.items() if k != "version"},
        lambda d: {**d, "game": "hex"},
        lambda d: {**d, "moves": "1a1 2b2"},
        lambda d: {**d, "moves": ["1a1", 13]},
        lambda d: {**d, "moves": ["1a1", "1a1"]},  # occupied
        lambda d: {**d, "moves": ["1a1", "3a1"]},  # no board 3
        lambda d: {**d, "moves": ["1a1", "zz"]},
        lambda d: {**d, "moves": ["1a1", "1b1", "1c1", "1a2"]},  # closed board
        lambda d: {**d, "settings": {"boards": 1}, "moves": ["1a1", "1b1", "1c1", "1b2"]},  # after the end
        lambda d: {**d, "settings": None},
        lambda d: {**d, "settings": {"boards": 0}},
        lambda d: {**d, "settings": {"boards": 7}},
        lambda d: {**d, "settings": {"boards": True}},
        lambda d: {**d, "settings": {"boards": "2"}},
        lambda d: {**d, "settings": {"boards": 2.0}},
        lambda d: {**d, "settings": {"boards": 2, "size": 9}},
    ],
)
def test_damaged_saves_raise_save_error(damage):
    NotaktoState.from_dict(good_save())  # the undamaged one loads
    with pytest.raises(SaveError):
        NotaktoState.from_dict(damage(good_save()))


def test_from_settings_validates():
    assert NotaktoState.from_settings({"boards": 5}).settings() == {"boards": 5}
    assert NotaktoState.from_settings({}).settings() == {"boards": 3}
    for bad in ({"boards": 0}, {"boards": True}, {"boards": None}, {"boards": 4.5}, [], {"players": 2}):
        with pytest.raises(SaveError):
            NotaktoState.from_settings(bad)  # type: ignore[arg-type]


def test_save_error_message_names_the_bad_move():
    data = {**good_save(), "moves": ["1a1", "1a1"]}
    with pytest.raises(SaveError, match="move 2 of the save.*occupied"):
        NotaktoState.from_dict(data)


# -- undo and copies -------------------------------------------------------------------------
def test_pop_reopens_a_closed_board():
    state = closed_first_board()
    assert state.is_closed(0)
    state.pop()
    assert not state.is_closed(0) and state.winning_line(0) is None
    assert 2 in state.legal_moves()


def test_boards_view_is_read_only():
    state = NotaktoState(2)
    assert isinstance(state.boards, tuple)
    state.live_boards.append(5)
    assert state.live_boards == [0, 1]


# -- random games (Hypothesis) -------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(boards=st.integers(1, 6), choices=st.lists(st.integers(0, 10_000), max_size=60))
def test_random_games_keep_the_rules(boards, choices):
    state = NotaktoState(boards)
    choices = iter(choices)
    while not state.is_over():
        legal = state.legal_moves()
        state.play(legal[next(choices, len(state.moves) * 7) % len(legal)])  # then the same way every time
        # a board is live iff it has no line; the game ends iff none is live
        for board in range(boards):
            assert state.is_closed(board) == (state.winning_line(board) is not None)
        assert state.is_over() == (state.live_boards == [])
    # the player who made the last move closed the last board and lost
    assert state.outcome() == Outcome(winner=len(state.moves) % 2, reason="last_board_closed")
    assert state.is_closed(state.moves[-1] // 9)
    # at most 6 X fit on a board without a line, the 7th forces one
    assert len(state.moves) <= 7 * boards
