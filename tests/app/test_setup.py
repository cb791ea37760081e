"""Setting up a position (py/setups.py): every position a game
reaches is accepted and rebuilt exactly, and each kind of position the
rules do not allow gets its own reason."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

import setups
from setups import Placement, SetupError, build
from core import GameError
from core.base import FIRST, SECOND
from registry import GAMES


def placement_of(state, **changes) -> Placement:
    """What a player would set up to get ``state``'s position."""
    if state.game == "notakto":
        cells = dict.fromkeys(state.moves, FIRST)
    else:
        cells = {cell: state.cell_owner(cell) for cell in state.moves if state.move_to_text(cell) != "swap"}
        cells = {cell: owner for cell, owner in cells.items() if owner is not None}
    forced = state.forced_board if state.game == "uttt" else None
    fields = {"game": state.game, "settings": state.settings(), "cells": cells, "turn": state.turn, "forced": forced}
    return Placement(**{**fields, **changes})


def cells_of(game: str, settings: dict, first: str = "", second: str = "") -> dict[int, int]:
    state = GAMES[game].new_state(settings)
    cells = {state.parse_move(text): FIRST for text in first.split()}
    cells.update({state.parse_move(text): SECOND for text in second.split()})
    return cells


def random_game(game: str, seed: int, plies: int):
    rng = random.Random(seed)
    state = GAMES[game].new_state({"size": 7} if GAMES[game].has_setting("size") else {})
    for _ in range(plies):
        moves = [move for move in state.legal_moves() if state.move_to_text(move) != "swap"]
        if not moves:
            break
        state.play(rng.choice(moves))
    return state


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32), plies=st.integers(0, 81))
def test_every_position_a_game_reaches_is_accepted_and_rebuilt_exactly(game, seed, plies):
    played = random_game(game, seed, plies)
    wanted = placement_of(played)
    built = build(wanted)
    assert placement_of(built) == wanted
    assert built.turn == played.turn and built.is_over() == played.is_over()
    assert built.outcome() == played.outcome()
    if game == "uttt":
        assert built.forced_board == played.forced_board


def test_an_empty_board_is_a_new_game():
    for game in GAMES:
        assert build(Placement(game)).moves == []


def test_counts_the_side_to_move_cannot_have():
    hex7 = {"size": 7, "swap": False}
    with pytest.raises(SetupError) as caught:
        build(Placement("hex", hex7, cells_of("hex", hex7, "a1 b2"), turn=SECOND))
    assert caught.value.kind == "counts" and caught.value.params == {"first": 2, "second": 0, "turn": SECOND}
    with pytest.raises(SetupError, match="counts|first player") as caught:
        build(Placement("y", {"size": 9}, cells_of("y", {"size": 9}, "a1", "b2"), turn=SECOND))
    assert caught.value.kind == "counts"
    with pytest.raises(SetupError) as caught:
        build(Placement("uttt", {}, cells_of("uttt", {}, "", "e5"), turn=FIRST))
    assert caught.value.kind == "counts"
    # Notakto: one mark, so the second player is to move.
    with pytest.raises(SetupError) as caught:
        build(Placement("notakto", {"boards": 1}, cells_of("notakto", {"boards": 1}, "1a1"), turn=FIRST))
    assert caught.value.kind == "counts"
    assert build(Placement("notakto", {"boards": 1}, cells_of("notakto", {"boards": 1}, "1a1"), turn=SECOND)).turn == SECOND


def test_a_connection_game_won_by_the_side_to_move_was_over_before():
    hex5 = {"size": 5, "swap": False}
    column = " ".join(f"c{row}" for row in range(1, 6))  # the first player's: row 1 joined to row 5
    # Five stones each: the first player to move, and already connected.
    with pytest.raises(SetupError) as caught:
        build(Placement("hex", hex5, cells_of("hex", hex5, column, "a1 a2 a3 a4 a5"), turn=FIRST))
    assert caught.value.kind == "won_before"
    # One fewer of the second's: the first moved last, and that won.
    state = build(Placement("hex", hex5, cells_of("hex", hex5, column, "a1 a2 a3 a4"), turn=SECOND))
    assert state.outcome().winner == FIRST and len(state.moves) == 9


def test_two_separate_winning_chains_mean_the_game_was_over_before():
    hex5 = {"size": 5, "swap": False}
    two = " ".join(f"{col}{row}" for col in "ae" for row in range(1, 6))  # two columns, ten stones
    cells = cells_of("hex", hex5, two, "b1 b2 b3 b4 b5 d1 d2 d3 d4")
    with pytest.raises(SetupError) as caught:
        build(Placement("hex", hex5, cells, turn=SECOND))
    assert caught.value.kind == "won_before"


def test_ultimate_tic_tac_toe_positions_the_rules_do_not_allow():
    def uttt(first: str, second: str, turn: int, forced: int | None = None) -> SetupError:
        with pytest.raises(SetupError) as caught:
            build(Placement("uttt", {}, cells_of("uttt", {}, first, second), turn=turn, forced=forced))
        return caught.value

    # Small board 1 (a1-c3): a row for each side.
    assert uttt("a1 b1 c1 a3", "a2 b2 c2", SECOND).kind == "board_two_lines"
    # Boards 1, 2, 3 for the first player, 4, 5, 6 for the second: one row each.
    firsts = " ".join(f"{c}1" for c in "abcdefghi")
    seconds = " ".join(f"{c}4" for c in "abcdefghi")
    error = uttt(firsts, seconds, FIRST)
    assert error.kind == "two_winners"
    # The first player's one mark at the centre of board 1 sends play to
    # board 5 (the centre), not board 1.
    assert uttt("b2", "", SECOND, forced=0).kind == "forced_unreachable"
    # Board 1 won by the first player: play cannot be sent there.
    assert uttt("a1 b1 c1 e5 h8", "d4 g7 a4 b5", SECOND, forced=0).kind == "forced_closed"
    # b2 (board 1's centre) sends play to board 5; e5 (its centre) keeps it
    # there; d4 (its top left) sends it to board 1. Sent to board 5 instead,
    # the last move would be b2, after e5 and d4, which no move sent to
    # board 1: no order of these three moves ends there.
    assert build(Placement("uttt", {}, cells_of("uttt", {}, "b2 d4", "e5"), turn=SECOND, forced=0)).forced_board == 0
    assert uttt("b2 d4", "e5", SECOND, forced=4).kind == "unreachable"


def test_the_side_to_move_may_not_have_won_ultimate_tic_tac_toe_already():
    # The first player has boards 1, 2 and 3 and is to move.
    firsts = " ".join(f"{c}1" for c in "abcdefghi")
    seconds = "d5 e5 f5 d6 e6 f6 g5 h5 i5"
    with pytest.raises(SetupError) as caught:
        build(Placement("uttt", {}, cells_of("uttt", {}, firsts, seconds), turn=FIRST))
    assert caught.value.kind == "won_before"


def test_a_notakto_board_closed_wherever_its_last_mark_went():
    full = " ".join(f"1{c}{r}" for c in "abc" for r in "123")
    with pytest.raises(SetupError) as caught:
        build(Placement("notakto", {"boards": 2}, cells_of("notakto", {"boards": 2}, full), turn=SECOND))
    assert caught.value.kind == "won_before" and caught.value.params == {"board": 1}
    # Three in a row and two more: the row came last.
    state = build(Placement("notakto", {"boards": 2}, cells_of("notakto", {"boards": 2}, "1a1 1b1 1c1 1a3 2b2"),
                            turn=SECOND))
    assert state.is_closed(0) and not state.is_over()


def test_the_search_for_an_order_gives_up_with_its_own_reason(monkeypatch):
    played = random_game("uttt", 7, 40)
    monkeypatch.setattr(setups, "SEARCH_LIMIT", 3)
    with pytest.raises(SetupError) as caught:
        build(placement_of(played))
    assert caught.value.kind == "too_complex"


def test_cells_and_sides_that_are_not_the_games_are_refused():
    for bad in (Placement("hex", {"size": 7}, {49: FIRST}), Placement("hex", {"size": 7}, {-1: FIRST}),
                Placement("uttt", {}, {81: FIRST}), Placement("notakto", {"boards": 1}, {9: FIRST}),
                Placement("y", {"size": 9}, {0: 2}), Placement("hex", {"size": 7}, {}, turn=3),
                Placement("uttt", {}, {40: FIRST}, turn=SECOND, forced=9)):
        with pytest.raises(GameError):
            build(bad)
