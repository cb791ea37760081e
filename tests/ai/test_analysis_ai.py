"""The engines' verdicts on positions (``Engine.evaluate``, ai/search.py's
``Judgement``): the hint's move and reason, the evaluation's chance and
proof, the worker's ``analyse`` reply, and the positions the end-to-end
tests load (tests/data/hint_positions.json). Real positions, real engines;
what a position is (a win at once, a threat, a proven result) is checked
with the rules alone, by playing the moves, or with the exact solver."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import ai
from registry import STATES
import worker
from ai.connection import engine as connection_engine, hex as hex_ai, solver
from ai.connection.parts import DEFAULT_PARTS
from ai.connection import rave
from ai.search import DRAWN, LOSS, REASONS, WIN, Judgement
from app.model.analysis import EVAL_SEED
from core.base import GameState
from core.hex import HexState
from core.notakto import NotaktoState
from core.uttt import UtttState
from core.y import YState
from counted_clock import counted_clock  # noqa: F401  (autouse: the engines' seconds on the counted clock)

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = json.loads((ROOT / "tests" / "data" / "hint_positions.json").read_text(encoding="utf-8"))


def game(cls: type[GameState], moves: str = "", **settings) -> GameState:
    return cls.from_settings(settings).replay(moves.split())


def wins_at_once(state: GameState) -> list[int]:
    """The moves after which the side to move has won (by the rules)."""
    out = []
    for move in state.legal_moves():
        after = state.copy()
        after.push(move)
        if after.is_over() and after.outcome().winner == state.turn:
            out.append(move)
    return out


def threats(state: GameState) -> list[int]:
    """Hex and Y: the cells where the opponent would win at once if it were
    their move (a move of ours elsewhere takes nothing of theirs)."""
    empty = [cell for cell in state.legal_moves() if cell != state.swap_move]
    ours = set(wins_at_once(state))
    out = []
    for cell in empty:
        elsewhere = next(other for other in empty if other != cell and other not in ours)
        after = state.copy()
        after.push(elsewhere)
        after.push(cell)
        if after.is_over() and after.outcome().winner != state.turn:
            out.append(cell)
    return out


def lets_win(state: GameState, move: int) -> bool:
    after = state.copy()
    after.push(move)
    return not after.is_over() and bool(wins_at_once(after))


def verdict(state: GameState, seconds: float = 10.0, iterations: int | None = 3000, seed: int = 1,
            parts: frozenset[str] | None = None) -> Judgement:
    found = ai.new_engine(state.game, parts).evaluate(state, seconds, seed=seed, iterations=iterations)
    assert found.reason in REASONS and 0.0 <= found.chance <= 1.0
    assert state.is_legal(found.move)
    return found


def hex_bits(state: HexState) -> tuple[int, int, int]:
    owners, player = state.owners(), state.turn
    mine = sum(1 << cell for cell, owner in enumerate(owners) if owner == player)
    theirs = sum(1 << cell for cell, owner in enumerate(owners) if owner == player ^ 1)
    return mine, theirs, player


def solved(state: HexState, seconds: float = 60.0) -> int:
    """The exact solver's value of ``state`` for its side to move."""
    if state.is_over():
        return LOSS  # the side to move there has lost
    value, _ = solver.Solver(state.size).solve(*hex_bits(state), seconds)
    assert value != solver.UNKNOWN, state.position_text()
    return WIN if value == solver.WIN else LOSS


def winning_cells(state: HexState) -> list[int]:
    """Every move that wins for the side to move, proven cell by cell."""
    out = []
    for cell in state.legal_moves():
        after = state.copy()
        after.push(cell)
        if solved(after) == LOSS:
            out.append(cell)
    return out


# Black (first) joins the top and bottom rows: column a down to row n-1, white beside it.
def column_game(size: int, black_rows: int) -> HexState:
    moves = []
    for row in range(1, black_rows + 1):
        moves.append(f"a{row}")
        if row < black_rows or black_rows == size - 1:
            moves.append(f"b{row}")
    return game(HexState, " ".join(moves), size=size)


# -- Hex and Y: wins, blocks, double threats ------------------------------------------------
Y_WIN = "f6 d4 g7 i9 a3 c3 d9 c4 b8 b3 f9 d6 b2 b5 b7 c7 a4 a6 b4 f8 a8 a2 b9 d5 a7 g9 a5"
Y_DOUBLE = Y_WIN + " g8 c5 f7"
Y13_WIN = ("d4 g12 j12 f9 a10 c10 e13 b12 d13 h11 c4 d5 b9 d12 a5 b4 d10 m13 e12 h9 f11 a11 b2 b13 d11 g7 f6 "
           "l13 b3 a7 h12 a8 a6 i12 e7 d9 e9 h10 b5 e6 g10 b10 k11 e8 c6 b11 k12 g8 c11 e10 j10 c8 b7 c5 b8 "
           "d7 c9 g9 a1 k13 f13 i11 b6 d8 h8 a2 d6 j11")


@pytest.mark.parametrize("state", [
    column_game(7, 6), column_game(11, 10), game(YState, Y_WIN, size=9), game(YState, Y13_WIN, size=13),
], ids=["hex7", "hex11", "y9", "y13"])
def test_a_win_in_one_is_played_and_proven(state):
    (winning,) = wins_at_once(state)
    found = verdict(state)
    assert found == Judgement(winning, "wins_now", 1.0, WIN, 1, 0)


@pytest.mark.parametrize("state", [
    game(HexState, "a1 b1 a2 b2 a3 b3 a4 b4 a5 b5 a6", size=7),
    game(HexState, " ".join(f"a{r} b{r}" for r in range(1, 10)) + " a10", size=11),
    game(YState, " ".join(Y_WIN.split()[:-1]), size=9),
    game(YState, " ".join(Y13_WIN.split()[:-1]), size=13),
], ids=["hex7", "hex11", "y9", "y13"])
def test_the_single_threat_is_blocked(state):
    assert not wins_at_once(state)
    (threat,) = threats(state)
    found = verdict(state, iterations=500)
    assert found.reason == "blocks" and found.move == threat
    assert found.iterations > 0  # the block's own value was searched
    if found.proof is None:
        assert 0.0 < found.chance < 1.0


@pytest.mark.parametrize("state", [
    game(HexState, "b1 e1 b2 e2 b3 e3 b4", size=5), game(YState, Y_DOUBLE, size=9),
], ids=["hex5", "y9"])
def test_a_double_threat_is_lost_in_two(state):
    assert not wins_at_once(state) and len(threats(state)) == 2
    found = verdict(state)
    assert (found.reason, found.chance, found.proof, found.plies) == ("proven", 0.0, LOSS, 2)
    assert found.move in threats(state)  # still a block: the most a player can do


def test_a_small_proven_hex_win_gives_a_winning_move():
    case = POSITIONS["hex7_one_winner"]
    state = game(HexState, " ".join(case["moves"]), size=7)
    assert not wins_at_once(state)
    found = verdict(state, seconds=2.0, iterations=None)
    assert (found.reason, found.proof, found.chance) == ("proven", WIN, 1.0)
    after = state.copy()
    after.push(found.move)
    assert solved(after) == LOSS  # the opponent is lost after it


@pytest.mark.slow
@pytest.mark.parametrize("state", [HexState(11), HexState(7), YState(9)], ids=["hex11", "hex7", "y9"])
def test_an_opening_is_judged_by_search(state):
    found = verdict(state, iterations=1500)
    assert found.reason == "search" and found.proof is None and found.plies is None
    assert 0.0 < found.chance < 1.0 and found.iterations == 1500


def test_the_side_with_a_virtual_connection_is_the_favourite():
    # Black's column a reaches row 5 of 7 with two free cells below each
    # gap, and it is black's move: black is connected whatever white does.
    state = game(HexState, "a1 b1 a2 b2 a3 b3 a4 b4 a5 g7", size=7)
    found = verdict(state)
    assert found.chance > 0.5 and found.proof == WIN
    after = state.copy()
    after.push(found.move)
    assert solved(after) == LOSS


@pytest.mark.slow
def test_the_swap_is_chosen_after_a_centre_opening():
    state = game(HexState, "d4", size=7, swap=True)
    assert hex_ai.should_swap(state)
    found = verdict(state, iterations=4000)
    assert found.move == state.swap_move and found.reason == "swap"
    assert found.chance > 0.5 and found.iterations == 4000  # half of them for each side of the choice


@pytest.mark.slow
def test_no_swap_after_a_weak_opening_on_the_first_row():
    state = game(HexState, "a1", size=7, swap=True)
    assert not hex_ai.should_swap(state)
    found = verdict(state, iterations=4000)
    assert found.move != state.swap_move and found.reason != "swap"


def test_an_analysis_thinks_on_from_the_tree_of_the_position_before():
    engine = ai.new_engine("hex")
    state = HexState(9)
    first = engine.evaluate(state, 10.0, seed=1, iterations=2000)
    state.push(first.move)
    node = engine.kept_root(state)
    assert node is not None and node.total > 0
    engine.evaluate(state, 10.0, seed=1, iterations=500)
    assert engine.kept_root(state) is node and node.total >= 500


# -- Ultimate Tic-Tac-Toe ------------------------------------------------------------------------
UTTT_GAME = ("h9 e8 f5 i6 g7 b3 d8 a4 c1 h1 f2 h6 f9 i7 h3 d9 b7 d2 b4 e3 e7 e2 e5 e4 d3 a8 c6 h7 e1 f3 i9 g9 "
             "c7 i1 g1 c3 g8 a5 b5 f4 h2 d6 c8 h4 d1 b1 f1 i3 i8 g4 b2 f6 h8 d4 c2 i4 i2 a7 a3").split()
#: A late position the side to move wins, not at once (found by search here, proven by minimax below).
UTTT_WON = ("a7 b1 d1 c1 g2 a5 a6 b7 f1 i1 g3 c7 h3 e7 d3 a9 c9 g8 b5 e4 f2 g5 c6 h7 f3 i7 h1 d8 a4 a1 g6 b8 "
            "f5 h6 d9 h2 d4 e9 f8 h4 i4 i3 h9 d7 i6")


def negamax(state: UtttState) -> int:
    """The exact value for the side to move (WIN, DRAWN or LOSS)."""
    outcome = state.outcome()
    if outcome is not None:
        return DRAWN if outcome.winner is None else WIN if outcome.winner == state.turn else LOSS
    best = LOSS
    for move in state.legal_moves():
        state.push(move)
        value = -negamax(state)
        state.pop()
        if value > best:
            best = value
            if best == WIN:
                break
    return best


def test_uttt_a_win_at_once():
    state = game(UtttState, " ".join(UTTT_GAME[:57]))
    (winning,) = wins_at_once(state)
    assert verdict(state) == Judgement(winning, "wins_now", 1.0, WIN, 1, 0)


@pytest.mark.slow
def test_uttt_a_forced_block():
    state = game(UtttState, " ".join(UTTT_GAME[:56]))
    moves = state.legal_moves()
    assert not wins_at_once(state) and len(moves) >= 2
    (only_safe,) = [move for move in moves if not lets_win(state, move)]
    found = verdict(state)
    assert found.reason == "blocks" and found.move == only_safe
    if found.proof is not None:
        assert found.proof == negamax(state.copy())


def test_uttt_the_only_legal_move():
    state = game(UtttState, " ".join(UTTT_GAME[:46]))
    (only,) = state.legal_moves()
    found = verdict(state, iterations=300)
    assert found.reason == "only_move" and found.move == only and found.iterations > 0


def test_uttt_a_late_position_is_proven_with_its_winning_move():
    state = game(UtttState, UTTT_WON)
    assert not wins_at_once(state) and negamax(state.copy()) == WIN
    found = verdict(state, iterations=None, seconds=5.0)
    assert (found.reason, found.proof, found.chance) == ("proven", WIN, 1.0)
    after = state.copy()
    after.push(found.move)
    assert negamax(after) == LOSS
    assert found.plies is not None and found.plies >= 3 and found.plies % 2 == 1  # the winner plays the last ply


def test_uttt_a_lost_late_position():
    state = game(UtttState, " ".join(UTTT_GAME[:59]))
    assert negamax(state.copy()) == LOSS
    found = verdict(state, iterations=None, seconds=5.0)
    assert (found.proof, found.chance) == (LOSS, 0.0)
    assert found.plies is None or found.plies % 2 == 0  # the opponent plays the last ply


# -- Notakto -----------------------------------------------------------------------------------
def test_notakto_a_won_position_gives_a_safe_move():
    from ai.notakto import safe_moves

    state = NotaktoState(1)
    found = verdict(state)
    assert (found.reason, found.chance, found.proof, found.iterations) == ("safe", 1.0, WIN, 0)
    assert found.move in safe_moves(state) and state.move_to_text(found.move) == "1b2"  # the centre


def test_notakto_a_lost_position_is_proven_lost():
    state = game(NotaktoState, "1b2", boards=1)
    found = verdict(state)
    assert (found.reason, found.chance, found.proof) == ("proven", 0.0, LOSS)


def test_a_finished_game_or_a_bad_budget_is_refused():
    engine = ai.new_engine("hex")
    with pytest.raises(ValueError):
        engine.evaluate(game(HexState, "a1 b1 a2 b2 a3 b3 a4 b4 a5", size=5), 1.0)
    for seconds in (0, -1.0, True, "1"):
        with pytest.raises(ValueError):
            engine.evaluate(HexState(5), seconds)


# -- the worker's analyse --------------------------------------------------------------------------
def ask(state: GameState, **request) -> dict:
    return json.loads(worker.analyse(json.dumps({"game": state.to_dict(), **request})))


def test_the_worker_replies_from_the_first_player_s_side():
    won_by_first = game(HexState, "a1 b1 a2 b2 a3 b3 a4 b4 a5 b5 a6 b6", size=7)
    reply = ask(won_by_first, seconds=1.0, seed=1)
    assert reply == {"move": "a7", "reason": "wins_now", "chance": 1.0, "proof": "first", "plies": 1,
                     "iterations": 0}
    # White to move, black threatens at once twice: white has lost.
    lost_by_second = game(HexState, "b1 e1 b2 e2 b3 e3 b4", size=5)
    reply = ask(lost_by_second, seconds=1.0, seed=1)
    assert reply["chance"] == 1.0 and reply["proof"] == "first" and reply["plies"] == 2
    assert reply["move"] in ("a5", "b5")
    # The same flip for an open position: the reply is 1 - the mover's chance.
    opening = game(HexState, "e5", size=9)
    mover = verdict(opening, iterations=800)
    reply = ask(opening, seconds=10.0, seed=1, iterations=800)
    assert reply["chance"] == pytest.approx(1.0 - mover.chance) and reply["proof"] is None
    assert reply["move"] == opening.move_to_text(mover.move) and reply["iterations"] == 800


def test_the_worker_reply_for_a_finished_game():
    black_won = game(HexState, "a1 b1 a2 b2 a3 b3 a4 b4 a5", size=5)
    assert ask(black_won, seconds=1.0) == {"move": None, "reason": "over", "chance": 1.0, "proof": "first",
                                          "plies": 0, "iterations": 0}
    state = NotaktoState(1)
    for text in ("1a1", "1b1", "1c1"):  # the first player closes the only board: the second wins
        state.play(text)
    assert ask(state, seconds=1.0)["chance"] == 0.0 and ask(state, seconds=1.0)["proof"] == "second"


def test_the_worker_answers_garbage_with_an_error():
    for request in ("not json", json.dumps({"game": {"game": "chess"}, "seconds": 1.0}),
                    json.dumps({"game": HexState(5).to_dict()}),
                    json.dumps({"game": HexState(5).to_dict(), "seconds": "soon"}),
                    json.dumps({"game": HexState(5).to_dict(), "seconds": -1}),
                    json.dumps({"game": HexState(5).to_dict(), "seconds": 1, "iterations": 1.5})):
        reply = json.loads(worker.analyse(request))
        assert set(reply) == {"error"}, request


@pytest.mark.slow
def test_an_analysis_leaves_the_opponent_s_kept_tree_alone():
    state = game(HexState, "f6", size=11)
    worker.choose_move(json.dumps({"game": state.to_dict(), "level": "master", "seed": 1, "move_time": 0.3}))
    player = worker.PLAYERS["hex"]
    kept = player._tree
    assert kept is not None
    visits = kept[2].total
    ask(state, seconds=0.3, seed=2)
    ask(game(HexState, "f6 e7", size=11), seconds=0.3, seed=2)
    assert player._tree is kept and kept[2].total == visits
    assert worker.ANALYSTS["hex"] is not player and worker.ANALYSTS["hex"]._tree is not None


def test_the_warm_up_builds_the_board_s_tables_and_keeps_no_engine(monkeypatch):
    """``prepare`` plays the computer's move in the position on screen (or
    a new game's), with two stones on the board at least, so that it
    searches, by an engine of its own, once per game and level:
    the computer's and the analyst's engines stay as they were, and this
    size's move priors are built (the first reply does not wait for them).
    Bad input is an error, as everywhere in the worker."""
    from ai.connection import patterns

    monkeypatch.setattr(worker, "PREPARED", set())
    players, analysts = dict(worker.PLAYERS), dict(worker.ANALYSTS)
    patterns._BOARD_PRIORS.pop(("hex", 6), None)
    for state in (HexState(6), game(HexState, "b2 c3", size=6)):
        assert json.loads(worker.prepare(json.dumps({"game": state.to_dict()}))) == {}
    assert ("hex", 6) in patterns._BOARD_PRIORS
    assert json.loads(worker.prepare(json.dumps({"new": "y"}))) == {}
    assert len(worker.PREPARED) == 2  # hex once (both positions), y once
    assert json.loads(worker.prepare(json.dumps({"game": HexState(6).to_dict(), "level": "master"}))) == {}
    assert len(worker.PREPARED) == 3
    assert len(worker.searched_position(HexState(6)).moves) == 2
    assert worker.searched_position(game(HexState, "b2 c3 d4", size=6)).move_texts() == ["b2", "c3", "d4"]
    assert worker.PLAYERS == players and worker.ANALYSTS == analysts
    finished, rng = HexState(5), random.Random(1)
    while not finished.is_over():
        finished.play(rng.choice(finished.legal_moves()))
    assert json.loads(worker.prepare(json.dumps({"game": finished.to_dict()}))) == {}
    assert set(json.loads(worker.prepare("not json"))) == {"error"}
    assert set(json.loads(worker.prepare(json.dumps({"new": "chess"})))) == {"error"}


# -- the positions the end-to-end tests load ------------------------------------------------------
def test_hex7_one_winner_has_exactly_one_winning_move_and_the_engine_finds_it():
    case = POSITIONS["hex7_one_winner"]
    state = game(HexState, " ".join(case["moves"]), size=case["size"], swap=case["swap"])
    assert (case["size"], case["swap"]) == (7, False)
    winning = state.parse_move(case["winning"])
    assert winning_cells(state) == [winning]
    assert winning not in wins_at_once(state)
    for seconds in (2.0, 1.0):
        solver.clear()  # the engine proves it afresh, as a browser's worker would
        found = ai.new_engine("hex").evaluate(state, seconds, seed=1)
        assert found.move == winning, seconds


def test_hex7_decisive_move_wins_and_the_evaluation_says_so():
    case = POSITIONS["hex7_decisive"]
    state = game(HexState, " ".join(case["moves"]), size=case["size"], swap=case["swap"])
    assert (case["size"], case["swap"]) == (7, False) and case["mover"] == ("first", "second")[state.turn]
    after_state = state.copy()
    after_state.push(state.parse_move(case["move"]))
    assert solved(after_state) == LOSS  # the move wins: the opponent has lost
    solver.clear()
    before = ai.new_engine("hex").evaluate(state, 0.5, seed=2)
    # The proof after it takes the search about 700 playouts (0.3 s here): capped, so a busy machine finds it too.
    after = ai.new_engine("hex").evaluate(after_state, 5.0, seed=2, iterations=3000)
    mover_after = 1.0 - after.chance
    assert mover_after > 0.9 and mover_after == case["chance_after"] and after.proof == LOSS
    assert before.chance <= mover_after  # the bar moves toward the mover (or stays, when already proven)
    assert case["first_player_chance_after"] == (mover_after if state.turn == 0 else 1.0 - mover_after)


def test_y9_decisive_move_is_proven_before_and_after_it_is_played():
    # As the evaluation bar sees it: seed EVAL_SEED, the position before the
    # move, then the position after it from the same engine's kept tree. Y's
    # H-search at the root sees the win before the move (a group with VCs
    # to two edges and an SC to the third, keyed by the move), in the bar's
    # time or less; after it the position is lost for the opponent.
    case = POSITIONS["y9_decisive"]
    state = STATES["y"].from_settings({"size": case["size"], "swap": case["swap"]})
    for text in case["moves"]:
        state.play(text)
    assert case["mover"] == ("first", "second")[state.turn]
    after_state = state.copy()
    after_state.play(case["move"])
    engine = ai.new_engine("y")
    before = engine.evaluate(state, 0.1, seed=EVAL_SEED)
    assert before.proof == WIN and before.chance == 1.0 and before.move == state.parse_move(case["move"])
    after = engine.evaluate(after_state, 0.1, seed=EVAL_SEED)
    assert after.proof == LOSS and after.chance == 0.0  # the opponent, to move, has lost


def test_hex11_40_is_a_legal_unfinished_engine_game():
    case = POSITIONS["hex11_40"]
    state = game(HexState, " ".join(case["moves"]), size=case["size"], swap=case["swap"])
    assert (case["size"], case["swap"], len(case["moves"])) == (11, False, 40)
    assert not state.is_over()


def test_hex7_20_blunder_is_a_finished_game_with_a_blunder_at_its_ply():
    case = POSITIONS["hex7_20_blunder"]
    moves, ply = case["moves"], case["blunder_ply"]
    assert 16 <= len(moves) <= 30 and not case["swap"]
    full = game(HexState, " ".join(moves), size=case["size"])
    assert full.is_over()
    before = game(HexState, " ".join(moves[:ply]), size=case["size"])  # the blunderer to move
    after = game(HexState, " ".join(moves[:ply + 1]), size=case["size"])  # the opponent to move
    assert solved(before) == WIN and solved(after) == WIN  # a won position thrown away
    # As an analysis sees them: the positions in order, by one engine, 0.3 s each.
    analyst = ai.new_engine("hex")
    for plies in range(ply - 6, ply):
        analyst.evaluate(game(HexState, " ".join(moves[:plies]), size=case["size"]), 0.3, seed=1)
    mover_before = analyst.evaluate(before, 0.3, seed=1)
    opponent_after = analyst.evaluate(after, 0.3, seed=1)
    assert mover_before.proof == WIN or mover_before.chance > 0.7
    assert opponent_after.proof == WIN or opponent_after.chance > 0.7
    # The earlier slip the note names: also a won position thrown away.
    slip_before = game(HexState, " ".join(moves[:15]), size=case["size"])
    slip_after = game(HexState, " ".join(moves[:16]), size=case["size"])
    assert "moves[15] (d3)" in case["about"] and moves[15] == "d3"
    assert solved(slip_before) == WIN and solved(slip_after) == WIN


# -- the length of a proof found by the search (the MCTS-solver's proven tree) ---------------------
def plies_to_end(state: GameState, memo: dict) -> tuple[int, int]:
    """(value, plies) under best play for the side to move: the winner
    ends the game as soon as it can, the loser as late as it can."""
    key = tuple(state.owners())
    if key in memo:
        return memo[key]
    best: tuple[int, int] | None = None
    for move in state.legal_moves():
        state.push(move)
        if state.is_over():
            found = (WIN, 1)
        else:
            value, plies = plies_to_end(state, memo)
            found = (-value, plies + 1)
        state.pop()
        # A win beats a loss; the shorter win, the longer loss.
        if best is None or (found[0], -found[1] if found[0] == WIN else found[1]) > (
                best[0], -best[1] if best[0] == WIN else best[1]):
            best = found
    memo[key] = best
    return best


@pytest.mark.parametrize("state", [
    game(HexState, "e1 b5 a5 b3 c2 d2 a1 d3 a4 a3 c5 b1 e3 a2 c1", size=5),
    game(YState, "d4 d5 a3 a1 a4 e5 c5 c3 d6 c4 b4 a6", size=6),
], ids=["hex5-lost", "y6-won"])
def test_a_proof_by_search_knows_its_length(state, monkeypatch):
    # The search's own proof: no exact solver first (it proves the Y
    # position at the root, without a line of play).
    monkeypatch.setattr(connection_engine, "SOLVER_MAX_EMPTY", -1)
    monkeypatch.setattr(rave, "SOLVER_MAX_EMPTY", -1)
    value, shortest = plies_to_end(state.copy(), {})
    found = verdict(state, iterations=20000, parts=DEFAULT_PARTS - {"root_vc"})
    assert found.reason == "proven" and found.iterations > 0 and found.proof == value
    # The proven tree's line: no shorter than best play, and the winner plays its last ply.
    assert found.plies is not None and found.plies >= shortest
    assert found.plies % 2 == (1 if value == WIN else 0)
