"""The analysis board's tree of variations (py/app/model/variations.py):
branching, moving through it as the keys do, promoting and deleting, its
text, and every game's trees round trip through the text and the rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from app.model.variations import (Node, Tree, VariationError, check, format_path, from_text, parse_path, state_at,
                                  to_text)
from registry import GAMES, STATES


def tree(text: str) -> Tree:
    return from_text(text)


def test_a_new_move_goes_on_the_line_and_another_one_branches():
    t = Tree()
    path = t.play((), "a1")
    path = t.play(path, "b2")
    assert path == (0, 0)
    branch = t.play((0,), "c3")
    assert branch == (0, 1)
    assert to_text(t) == "a1 b2 (c3)"
    # A move tried already is the same node, not a copy.
    assert t.play((0,), "c3") == (0, 1)
    assert t.play((0,), "b2") == (0, 0)
    assert t.size() == 3


def test_text_reads_what_it_writes_with_variations_nested_and_in_a_row():
    for text in ("", "a1", "a1 b2 (c3 d4 (e5)) f6", "a1 b2 (c3) (d4 e1) f6", "a1 (b2) (c3 e5 (d4))",
                 "e5 swap (f6 g7 (h8 a1 (i9)) b2) c3"):
        assert to_text(from_text(text)) == text


def test_a_variation_inside_a_variation_replaces_the_move_before_it():
    # "(d4)" right after c3 is another move instead of c3, at the start.
    assert to_text(from_text("a1 (b2) (c3 (d4) e5)")) == "a1 (b2) (c3 e5) (d4)"


def test_text_forgives_space_and_case_not_structure():
    assert to_text(from_text("  A1\nB2 ( C3  d4 )\r\n f6 ")) == "a1 b2 (c3 d4) f6"
    for bad, why in (("(a1)", "must follow"), ("a1 )", "closes no"), ("a1 (b2", "not closed"),
                     ("a1 ()", "empty"), ("a1 (a1)", "twice"), ("a1 b2 (c3 c3) (b2)", "twice"),
                     ("a1 b_2", "not a move")):
        with pytest.raises(VariationError, match=why):
            from_text(bad)


def test_a_text_error_says_where_it_is():
    for bad, at in (("(a1)", 0), ("a1 )", 3), ("a1 (b2", 6), ("a1 ()", 4), ("a1 b2 (a1) (a1)", 12),
                    ("a1 b_2", 3)):
        with pytest.raises(VariationError) as caught:
            from_text(bad)
        assert caught.value.at == at, bad


def test_the_keys_move_along_lines_and_across_variations():
    t = tree("a1 b2 (c3 d4) (e5) f6")
    assert t.forward(()) == (0,)
    assert t.forward((0,)) == (0, 0)  # the main line, not a variation
    assert t.forward((0, 0, 0)) == (0, 0, 0)  # the line's end stays
    assert t.back((0, 0)) == (0,) and t.back(()) == ()
    assert t.sibling((0, 0), 1) == (0, 1)  # down: into the first variation
    assert t.sibling((0, 1), 1) == (0, 2)
    assert t.sibling((0, 2), 1) == (0, 2)  # none further
    assert t.sibling((0, 2), -1) == (0, 1) and t.sibling((0, 0), -1) == (0, 0)
    assert t.sibling((), 1) == ()
    assert t.main_line() == (0, 0, 0)  # End
    assert t.main_line((0, 1)) == (0, 1, 0)  # End inside a variation: its own line
    assert t.moves((0, 1, 0)) == ["a1", "c3", "d4"]
    assert t.is_main_line((0, 0, 0)) and not t.is_main_line((0, 1))


def test_promote_moves_a_variation_up_one_place_at_a_time():
    t = tree("a1 b2 (c3) (d4 e1) f6")
    path = t.promote((0, 2, 0))  # e1 is in the variation d4, the third at a1
    assert path == (0, 1, 0)
    assert to_text(t) == "a1 b2 (d4 e1) (c3) f6"
    path = t.promote(path)
    assert path == (0, 0, 0)
    assert to_text(t) == "a1 d4 (b2 f6) (c3) e1"
    assert t.promote(path) == path  # on the main line already
    assert to_text(t) == "a1 d4 (b2 f6) (c3) e1"


def test_promote_acts_at_the_nearest_branch_point_above_the_node():
    t = tree("a1 (b2 c3 (d4)) e5")
    # d4 is a variation of c3 inside the variation b2: promoting it makes it
    # b2's line first, and leaves the tree's main line alone.
    assert t.promote((1, 1)) == (1, 0)
    assert to_text(t) == "a1 (b2 d4 (c3)) e5"
    assert t.make_main_line((1, 0)) == (0, 0)
    assert to_text(t) == "b2 (a1 e5) d4 (c3)"


def test_delete_removes_the_node_and_what_follows_and_keeps_the_cursor_meaningful():
    t = tree("a1 b2 (c3 d4) (e5) f6")
    assert t.delete((0, 1)) == (0,)
    assert to_text(t) == "a1 b2 (e5) f6"
    # A cursor inside what went goes to where it hung; one past it among
    # the siblings shifts down one; others stay.
    assert t.after_delete((0, 1, 0), (0, 1)) == (0,)
    assert t.after_delete((0, 2), (0, 1)) == (0, 1)
    assert t.after_delete((0, 0, 0), (0, 1)) == (0, 0, 0)
    assert t.after_delete((0,), (0, 1)) == (0,)
    with pytest.raises(VariationError):
        t.delete(())
    with pytest.raises(VariationError):
        t.delete((0, 5))


def test_paths_as_the_page_names_them():
    assert format_path(()) == "" and format_path((0, 2, 10)) == "0.2.10"
    for path in ((), (0,), (3, 0, 11)):
        assert parse_path(format_path(path)) == path
    for bad in ("a", "0..1", "01", "-1", "1.", " 1"):
        with pytest.raises(VariationError):
            parse_path(bad)
    with pytest.raises(VariationError, match="no node"):
        tree("a1").node((0, 0))


def test_check_replays_every_variation_through_the_rules():
    start = STATES["hex"].from_settings({"size": 5, "swap": True})
    good = tree("c3 swap (b2 d4) a1")
    check(good, start)
    assert start.moves == []  # left as it was
    assert state_at(good, start, (0, 1, 0)).move_texts() == ["c3", "b2", "d4"]
    with pytest.raises(VariationError, match=r"after c3 b2: .*illegal move 'swap'"):
        check(tree("c3 swap (b2 swap)"), start)
    with pytest.raises(VariationError, match="after the start"):
        check(tree("z9"), start)


def random_tree(game: str, seed: int, branches: int) -> tuple[Tree, object]:
    """A tree of legal moves of ``game``: random lines from random points."""
    rng = random.Random(seed)
    start = GAMES[game].new_state()
    t = Tree()
    for _ in range(branches):
        # From a random node already in the tree, a random line.
        paths = [path for path, _ in t.walk()]
        path = rng.choice(paths)
        state = state_at(t, start, path)
        for _ in range(rng.randint(1, 8)):
            moves = state.legal_moves()
            if not moves:
                break
            move = state.move_to_text(rng.choice(moves))
            path = t.play(path, move)
            state.play(move)
    return t, start


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32), branches=st.integers(0, 6))
def test_every_games_trees_round_trip_through_text_and_pass_the_rules(game, seed, branches):
    t, start = random_tree(game, seed, branches)
    text = to_text(t)
    again = from_text(text)
    assert again == t
    assert to_text(again) == text
    check(again, start)
    for path, node in t.walk():
        assert again.node(path).move == node.move and len(again.node(path).children) == len(node.children)
        assert parse_path(format_path(path)) == path


def test_a_long_line_is_no_recursion():
    t = Tree([Node("a1")])
    node = t.root.children[0]
    for _ in range(5000):
        node.children.append(Node("b2"))
        node = node.children[0]
    assert from_text(to_text(t)) == t
    assert t.main_line() == (0,) * 5001
