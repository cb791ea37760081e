"""The analysis board's model (py/app/model/explore.py): branching from a
game without touching it, the keys, promoting and deleting with the cursor
kept on its node, the engine asked about the position on screen only and
its late answers dropped, AutoPlay, and records round trip."""

from __future__ import annotations

import pytest

import ai
from app.model.explore import AUTOPLAY_THINK, FIRST_SLICE, SLICE, THINK_LIMIT, Exploration
from app.model.variations import VariationError
from core import GameError
from registry import GAMES


def hex_game(moves: str = "", size: int = 7):
    state = GAMES["hex"].new_state({"size": size, "swap": False})
    for text in moves.split():
        state.play(text)
    return state


def reply(lines: list[str], **extra) -> dict:
    return {"verdict": {}, "lines": [{"move": move, "chance": 0.5, "proof": None, "visits": 1, "line": [move]}
                                     for move in lines], "heat": {"a1": 40}, **extra}


def test_branching_twice_from_a_game_leaves_the_game_as_it_was():
    game = hex_game("d4 c5 e3")
    board = Exploration(game)
    board.play("c3")
    board.play("b4")
    board.key("home")
    board.play("c3")  # the same move: along the tree
    board.key("left")
    board.play("e5")  # a second variation
    assert board.to_text() == "c3 (e5) b4"  # e5 instead of c3, b4 after c3
    assert board.moves() == ["e5"]
    assert board.state().move_texts() == ["d4", "c5", "e3", "e5"]
    assert game.move_texts() == ["d4", "c5", "e3"]  # untouched
    with pytest.raises(GameError):
        board.play("e5")  # occupied now
    assert board.to_text() == "c3 (e5) b4"  # e5 instead of c3, b4 after c3


def test_the_keys_and_clicks_move_through_the_tree():
    board = Exploration.from_text(hex_game(), "d4 c5 (e3 b2) (a1) f6")
    board.key("end")
    assert board.moves() == ["d4", "c5", "f6"]
    board.key("left")
    board.key("down")
    assert board.moves() == ["d4", "e3"]
    board.key("down")
    assert board.moves() == ["d4", "a1"]
    board.key("up")
    board.key("end")
    assert board.moves() == ["d4", "e3", "b2"]
    board.key("home")
    assert board.moves() == []
    board.go((0, 2))
    assert board.moves() == ["d4", "a1"]
    with pytest.raises(VariationError):
        board.go((0, 7))
    with pytest.raises(ValueError):
        board.key("pageup")


def test_promote_make_main_line_and_delete_keep_the_cursor_on_its_node():
    board = Exploration.from_text(hex_game(), "d4 c5 (e3 b2) (a1) f6")
    board.go((0, 1, 0))  # b2, in the first variation
    board.promote()
    assert board.to_text() == "d4 e3 (c5 f6) (a1) b2"
    assert board.moves() == ["d4", "e3", "b2"]
    board.go((0, 2))  # a1
    board.make_main_line()
    assert board.to_text() == "d4 a1 (e3 b2) (c5 f6)"
    assert board.moves() == ["d4", "a1"]
    board.go((0, 1, 0))  # b2 again
    board.delete((0, 1))  # its whole variation
    assert board.to_text() == "d4 a1 (c5 f6)"
    assert board.moves() == ["d4"]


def test_a_tree_that_does_not_fit_the_position_is_refused():
    with pytest.raises(VariationError, match="after d4"):
        Exploration.from_text(hex_game(), "d4 d4")
    with pytest.raises(VariationError):
        Exploration.from_text(hex_game(), "d4 (")


def test_the_engine_is_asked_about_the_position_on_screen_and_late_answers_are_dropped():
    board = Exploration(hex_game("d4"))
    assert board.request() is None  # off
    board.toggle_engine()
    asked = board.request()
    assert asked is not None and asked.seconds == FIRST_SLICE and asked.state.move_texts() == ["d4"]
    board.play("c5")  # the player moves on before the answer
    assert not board.answer(asked, reply(["e3"]))
    assert board.lines() == []
    again = board.request()
    assert again.seconds == FIRST_SLICE  # a new position: a short first look
    assert board.answer(again, reply(["e3", "b2"]))
    assert board.request().seconds == SLICE  # then longer slices on it
    assert [line["move"] for line in board.lines()] == ["e3", "b2"]
    assert board.heat() == {}  # the heat map is off
    board.toggle_heat()
    assert board.heat() == {"a1": 40}
    # Going back and forth: the answer belongs to its position only.
    board.key("left")
    assert board.lines() == [] and board.heat() == {}
    board.key("right")
    assert [line["move"] for line in board.lines()] == ["e3", "b2"]
    assert not board.answer(board.request(), {"error": "ValueError: no"})


def test_it_thinks_on_in_slices_up_to_the_limit():
    board = Exploration(hex_game("d4"))
    board.toggle_engine()
    total = 0.0
    while (asked := board.request()) is not None:
        board.answer(asked, reply(["e3"]))
        total += asked.seconds
    assert total == pytest.approx(THINK_LIMIT)
    board.play("e3")
    assert board.request() is not None  # a new position starts afresh


def test_autoplay_plays_on_for_both_sides_and_stops_at_the_end_or_when_asked():
    board = Exploration(hex_game(size=7))
    engine = ai.new_engine("hex")
    board.toggle_autoplay()
    assert board.engine_on
    played = 0
    while (asked := board.request()) is not None and played < 200:
        answer = ai.lines_reply(engine, asked.state, 0.05, seed=played)
        board.answer(asked, answer)
        played += 1
    assert board.state().is_over()
    assert not board.autoplay  # it stopped by itself
    assert board.tree.is_main_line(board.cursor) and len(board.moves()) >= 13
    # Stopped by the player: no more moves.
    board = Exploration(hex_game(size=7))
    board.toggle_autoplay()
    asked = board.request()
    assert asked.seconds <= AUTOPLAY_THINK
    board.toggle_autoplay()
    board.answer(asked, reply(["d4"]))
    assert board.moves() == []


def test_play_best_plays_the_engines_first_line():
    board = Exploration(hex_game("d4"))
    assert not board.play_best()
    board.toggle_engine()
    board.answer(board.request(), reply(["c5", "e3"]))
    assert board.play_best()
    assert board.moves() == ["c5"]


def test_a_solved_position_is_not_asked_about_again_and_autoplay_still_plays_on_from_it():
    board = Exploration(hex_game("d4"))
    board.toggle_engine()
    proven = reply(["e3", "b2"])
    for line in proven["lines"]:
        line["proof"] = "second"
    assert board.answer(board.request(), proven)
    assert board.request() is None  # every line proven: nothing more to think about
    board.toggle_autoplay()  # turned on after the engine finished here: it plays the best move at once
    asked = board.request()
    assert board.moves() == ["e3"] and asked is not None and asked.state.move_texts() == ["d4", "e3"]


def test_a_board_kept_with_a_past_game_comes_back_with_its_variations_at_the_move_asked_for():
    from app.model.records import explore_payload

    game = hex_game("d4 c5 e3 b6")
    board = Exploration.of_game(game, 4, home="abc")
    board.go((0,))
    board.play("a1")  # a variation after d4
    kept = explore_payload(board.start, board.tree, board.setup, board.cursor)
    again = Exploration.of_game(game, 2, kept, home="abc")
    assert again.to_text() == "d4 c5 (a1) e3 b6" and again.moves() == ["d4", "c5"] and again.home == "abc"
    # Damaged, or of another game (its main line not this game's moves): a fresh board.
    for bad in (kept[:-2] + "zz", explore_payload(board.start, Exploration.of_game(hex_game("a1"), 1).tree, False)):
        fresh = Exploration.of_game(game, 1, bad)
        assert fresh.to_text() == "d4 c5 e3 b6" and fresh.moves() == ["d4"]
