"""The analysis board's engine answers (``Engine.lines``, ``Engine.heat``,
``ai.lines_reply``, the worker's ``explore``): the best moves with their
values and lines, and every legal move's heat, for every game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ai
import worker
from setups import Placement, build
from core.base import FIRST, SECOND
from registry import GAMES
from counted_clock import counted_clock  # noqa: F401  (autouse: the engines' seconds on the counted clock)

PUZZLES = json.loads((Path(__file__).resolve().parents[1] / "data" / "hex_puzzles.json").read_text())["puzzles"]


def game(name: str, moves: str = "", **settings):
    state = GAMES[name].new_state(settings)
    for text in moves.split():
        state.play(text)
    return state


def puzzle(name: str):
    found = next(p for p in PUZZLES if p["id"] == name)
    state = GAMES["hex"].new_state({"size": found["size"], "swap": False})
    cells = {state.parse_move(text): FIRST for text in found["black"]}
    cells.update({state.parse_move(text): SECOND for text in found["white"]})
    turn = FIRST if found["to_move"] == "black" else SECOND
    return build(Placement("hex", {"size": found["size"], "swap": False}, cells, turn)), found["winning"]


def test_notakto_lines_are_exact_the_one_safe_move_first_the_rest_lost():
    # One empty board: the first player wins by the centre, and only by it.
    state = game("notakto", boards=1)
    engine = ai.new_engine("notakto")
    engine.evaluate(state, 1.0, seed=1)
    lines = engine.lines(state, 3)
    [safe] = ai.engine("notakto").safe_moves(state)
    assert state.move_to_text(safe) == "1b2"
    assert lines[0].move == safe and lines[0].proof == 1 and lines[0].chance == 1.0
    assert all(line.proof == -1 and line.chance == 0.0 for line in lines[1:])
    assert len(lines) == 3
    heat = engine.heat(state)
    assert heat[safe] == 1.0 and sorted(heat.values()).count(1.0) == 1
    assert set(heat) == set(state.legal_moves())
    # The line goes on with perfect play to the end of the game (or ten plies).
    after = state.copy()
    for move in lines[0].line:
        after.play(move)
    assert after.is_over() or len(lines[0].line) == 10


def test_two_moves_that_win_at_once_are_both_proven_wins_at_the_top():
    # Hex 5x5, the first player to move: a4 and b4 both join its chain to
    # the last row (the rules say which moves win, not the test).
    state = game("hex", "a5 d3 b3 d4 b1 d5 e5 c2 b2 c4 c1 d1", size=5, swap=False)
    winning = []
    for move in state.legal_moves():
        after = state.copy()
        after.push(move)
        if after.is_over():
            winning.append(move)
    assert len(winning) == 2
    engine = ai.new_engine("hex")
    engine.evaluate(state, 0.5, seed=1)
    lines = engine.lines(state, 3)
    assert {line.move for line in lines[:2]} == set(winning)
    assert all(line.proof == 1 and line.chance == 1.0 for line in lines[:2])
    assert lines[0].chance == lines[1].chance


@pytest.mark.parametrize("name", ["6x6-henderson-04", "6x6-henderson-13", "7x7-enderton-02"])
def test_a_hex_puzzle_set_up_by_hand_has_its_known_winning_move_first(name):
    state, winning = puzzle(name)
    engine = ai.new_engine("hex")
    reply = ai.lines_reply(engine, state, 2.0, seed=1)
    assert reply["lines"][0]["move"] in winning, reply["lines"]
    assert reply["lines"][0]["line"][0] == reply["lines"][0]["move"]
    # Up to three: fewer where the engine has ruled the other moves out
    # (outside the region that stops the opponent's connection: lost).
    assert 2 <= len(reply["lines"]) <= 3
    assert set(reply["heat"]) == {state.move_to_text(move) for move in state.legal_moves()}


@pytest.mark.parametrize("name, moves, settings", [
    ("uttt", "e5 e4 d2", {}), ("hex", "f6 e7", {"size": 11}), ("y", "e5", {"size": 9})])
def test_searching_games_give_three_lines_that_are_legal_and_a_heat_for_every_move(name, moves, settings):
    state = game(name, moves, **settings)
    engine = ai.new_engine(name)
    reply = ai.lines_reply(engine, state, 0.5, seed=3)
    assert len(reply["lines"]) == 3
    assert len({line["move"] for line in reply["lines"]}) == 3
    for line in reply["lines"]:
        after = state.copy()
        for text in line["line"]:
            after.play(text)  # every move of every line legal in turn
        assert 0.0 <= line["chance"] <= 1.0 and line["visits"] > 0
    # The most tried first, and more thinking on the same position grows the same tree.
    assert reply["lines"][0]["visits"] >= reply["lines"][1]["visits"] >= reply["lines"][2]["visits"]
    again = ai.lines_reply(engine, state, 0.5, seed=3)
    assert sum(line["visits"] for line in again["lines"]) > sum(line["visits"] for line in reply["lines"])
    heat = reply["heat"]
    legal = {state.move_to_text(move) for move in state.legal_moves()}
    assert set(heat) == legal
    valued = [value for value in heat.values() if value is not None]
    assert valued and all(0 <= value <= 100 for value in valued)
    if name != "y":  # Y's swap is a move but no cell: not valued by the placements' tree
        assert len(valued) >= len(legal) * 0.9


def test_a_finished_game_has_no_lines_and_the_worker_refuses_bad_requests():
    done = game("hex", "c1 a1 c2 a2 c3 a3 c4 a4 c5", size=5, swap=False)
    assert ai.lines_reply(ai.new_engine("hex"), done, 0.5) == {
        "verdict": ai.result_reply(done), "lines": [], "heat": {}}
    state = game("uttt", "e5")
    for request, why in (({"seconds": 0}, "seconds"), ({"seconds": 5.0}, "seconds"), ({"count": 0}, "count"),
                         ({"count": True}, "count"), ({"seed": "x"}, "seed")):
        answer = json.loads(worker.explore(json.dumps({"game": state.to_dict(), "seconds": 0.2, **request})))
        assert why in answer["error"]
    answer = json.loads(worker.explore(json.dumps({"game": state.to_dict(), "seconds": 0.2, "count": 2})))
    assert len(answer["lines"]) == 2 and answer["verdict"]["move"] == answer["lines"][0]["move"] or \
        answer["verdict"]["reason"] == "search"


def test_the_heat_of_a_move_tried_a_few_times_stays_near_the_mean_and_a_proven_one_is_exact():
    heat = ai.search.steady_heat({1: (1.0, 1, False), 2: (0.5, 100, False), 3: (0.0, 4, True)})
    assert heat[3] == 0.0  # proven
    assert 0.5 < heat[1] < 0.6  # one lucky playout is not a sure win
    assert heat[2] == pytest.approx(0.5, abs=0.01)


def test_the_worker_finds_a_set_up_position_s_game_or_says_why_it_cannot_be():
    request = {"game": "uttt", "settings": {}, "cells": {"e5": 0}, "turn": 1, "forced": 4}
    reply = json.loads(worker.setup(json.dumps(request)))
    state = GAMES["uttt"].new_state({}).from_dict(reply["game"])
    assert state.move_texts() == ["e5"] and state.forced_board == 4
    reply = json.loads(worker.setup(json.dumps({**request, "forced": 0})))
    assert reply == {"refused": "forced_unreachable", "params": {"board": 1}}
    for bad in ({**request, "turn": 2}, {**request, "cells": {"z9": 0}}, {**request, "game": "chess"}, "[]"):
        assert "error" in json.loads(worker.setup(json.dumps(bad)))
