"""Hex SGF with variations and set-up stones, for the analysis board
(py/app/model/sgf.py: read_sgf_tree, sgf_tree_text), against records
written as HexGui writes them, and round trips of random trees."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from app.model.replay import TransferError
from app.model.sgf import read_sgf_tree, sgf_text, sgf_tree_text
from app.model.variations import from_text, to_text
from registry import GAMES
from test_variations import random_tree


def hex_game(moves: str = "", size: int = 9, swap: bool = False):
    state = GAMES["hex"].new_state({"size": size, "swap": swap})
    for text in moves.split():
        state.play(text)
    return state


def test_a_hexgui_record_with_variations_and_comments_reads_as_its_tree():
    text = """(;FF[4]AP[HexGui:0.9.GIT]GM[11]SZ[9]
;B[e5]
(;W[d6]C[the main line];B[c7])
(;W[f4]C[a comment \\] with a bracket]
  (;B[g3])
  (;B[cb]))
)"""
    start, tree, setup = read_sgf_tree(text)
    assert (start.size, start.moves, setup) == (9, [], False)
    assert to_text(tree) == "e5 d6 (f4 g3 (c2)) c7"


def test_set_up_stones_and_the_side_to_move_start_the_tree():
    start, tree, setup = read_sgf_tree("(;FF[4]GM[11]SZ[7]AB[d4][e2]AW[c5]PL[W];W[b6](;B[e5])(;B[a1]))")
    assert setup
    assert sorted(start.cell_text(cell) for cell in start.stones(0)) == ["d4", "e2"]
    assert [start.cell_text(cell) for cell in start.stones(1)] == ["c5"] and start.turn == 1
    assert to_text(tree) == "b6 e5 (a1)"
    # Without PL: equal counts, black to move; one more black, white.
    start, _, _ = read_sgf_tree("(;FF[4]GM[11]SZ[7]AB[d4]AW[c5];B[a1])")
    assert start.turn == 0


def test_the_swap_is_read_along_each_line_on_its_own():
    # In one line white swaps (HexGui: the stone stays, white moves again,
    # the cells after it mirrored); in the other white places a stone.
    start, tree, _ = read_sgf_tree("(;FF[4]GM[11]SZ[7]RU[swap];B[c2](;W[swap-pieces];W[e7])(;W[d4];B[e5]))")
    assert start.swap_rule
    assert to_text(tree) == "c2 swap (d4 e5) g5"


def test_the_main_line_is_written_as_the_game_exporter_writes_it():
    game = hex_game("c2 swap g5 e3", size=7, swap=True)
    tree = from_text("c2 swap g5 e3")
    flat = sgf_text(game, None).replace("\n", "")
    written = sgf_tree_text(hex_game(size=7, swap=True), tree, False).strip()
    assert written == flat


def test_an_explorations_start_is_its_games_moves_then_its_tree():
    start = hex_game("e5 d6", size=9)
    text = sgf_tree_text(start, from_text("c7 (f4 g3)"), False)
    assert text.startswith("(;FF[4]GM[11]SZ[9]AP[abstract-games:1];B[e5];W[d6](;B[c7])(;B[f4];W[g3]))")
    again, tree, setup = read_sgf_tree(text)
    # Read back, the game's moves are the tree's main line from the empty board.
    assert to_text(tree) == "e5 d6 c7 (f4 g3)" and again.moves == [] and not setup


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), branches=st.integers(0, 6))
def test_random_trees_round_trip(seed, branches):
    tree, _ = random_tree("hex", seed, branches)
    start = hex_game(size=11, swap=True)  # random_tree plays the default game: 11, swap on
    assert start.settings() == GAMES["hex"].new_state().settings()
    text = sgf_tree_text(start, tree, False)
    again, read, setup = read_sgf_tree(text)
    assert read == tree and not setup and again.settings() == start.settings()


@pytest.mark.parametrize("text, kind", [
    ("(;FF[4]GM[11]SZ[7];B[a1](;W[a1])(;W[b2]))", "illegal_move"),
    ("(;FF[4]GM[11]SZ[7];B[a1](;W[b2];AB[c3]))", "setup"),
    ("(;FF[4]GM[11]SZ[7]AE[a1];B[b2])", "setup"),
    ("(;FF[4]GM[11]SZ[7]AB[a1][b2]PL[B];W[c3])", "setup"),  # two black stones, black to move
    ("(;FF[4]GM[11]SZ[7];B[a1](;W[b2])", "format"),
    ("(;FF[4]GM[11]SZ[7];B[a1](W[b2]))", "format"),
    ("(;FF[4]GM[1]SZ[7];B[a1])", "unknown_game"),
    ("(;FF[4]GM[11]SZ[7];B[a1](;B[b2]))", "illegal_move"),  # out of turn in a variation
])
def test_bad_records_name_what_is_wrong(text, kind):
    with pytest.raises(TransferError) as caught:
        read_sgf_tree(text)
    assert caught.value.kind == kind
