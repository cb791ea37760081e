"""The Ultimate Tic-Tac-Toe computer player (ai.uttt): tactics, the solver,
tree reuse, determinism, levels and time budgets.

Positions come from random games (move lists below); each test first checks
its position's claim with a plain brute-force search that shares nothing
with the AI but the rules.
"""

from __future__ import annotations

import time

import pytest

import ai
from ai import uttt as engine
from core import FIRST, SECOND
from core.uttt import UtttState

#: The side to move (O) wins by force in three plies, with i4 only.
WIN_IN_THREE = (
    "h1 e1 f1 g3 c7 h3 e8 e5 d5 a4 c1 h2 e6 e9 f9 i9 i8 i6 g8 c5 g4 a1 b2 f5 g5 b5 d6 a8 b6 e7 d2 "
    "c4 g1 a2 a6 b7 e2 f4 g2 a5 h7 f3 h8 f6 i3"
)
#: The side to move has four moves; three let the opponent win at once.
ONE_SAFE_MOVE = (
    "f5 i4 g3 a7 b1 f3 h7 f2 g4 b2 d4 a1 a3 b9 e7 e1 d1 c3 h9 d7 d9 c8 h4 d2 a4 g7 a8 b6 f7 g2 b4 "
    "e2 d5 c5 h5 e6 d8 c6 h8 f6 c9 c7 h1 i2 i6 e9 f9 e4 d6 b7 a6 i1"
)


def position(texts: str) -> UtttState:
    state = UtttState()
    for text in texts.split():
        state.play(text)
    return state


def won_position() -> UtttState:
    """The side to move can win the game at once (after the i4 above and any reply)."""
    state = position(WIN_IN_THREE)
    state.play("i4")
    state.play(state.legal_moves()[0])
    return state


# -- brute force, for the positions' claims -------------------------------------------
def winning_moves_now(state: UtttState) -> list[int]:
    wins = []
    for move in state.legal_moves():
        state.push(move)
        outcome = state.outcome()
        state.pop()
        if outcome is not None and outcome.winner == state.turn:
            wins.append(move)
    return wins


def wins_within_three_plies(state: UtttState) -> list[int]:
    """Moves after which every reply allows a winning move at once."""
    found = []
    for move in state.legal_moves():
        state.push(move)
        if not state.is_over():
            replies_lose = True
            for reply in state.legal_moves():
                state.push(reply)
                if state.is_over() or not winning_moves_now(state):
                    replies_lose = False
                state.pop()
                if not replies_lose:
                    break
            if replies_lose:
                found.append(move)
        state.pop()
    return found


def safe_moves(state: UtttState) -> list[int]:
    """Moves that do not give the opponent a win at once."""
    safe = []
    for move in state.legal_moves():
        state.push(move)
        if not winning_moves_now(state):
            safe.append(move)
        state.pop()
    return safe


# -- tactics -------------------------------------------------------------------------------------
def test_registered_with_levels_weakest_first():
    assert ai.ENGINES["uttt"] is engine
    assert ai.levels("uttt") == engine.LEVELS == ["beginner", "casual", "strong", "master"]
    assert ai.DEFAULT_LEVEL["uttt"] == "master"


@pytest.mark.parametrize("level", engine.LEVELS)
def test_takes_an_immediate_win_at_once(level, monkeypatch):
    state = won_position()
    wins = winning_moves_now(state)
    assert wins and len(state.legal_moves()) > 1

    def no_search(*args, **kwargs):
        raise AssertionError("a won position was searched")

    monkeypatch.setattr(engine.Search, "run", no_search)
    move = ai.choose_move(state, level, seed=1)
    assert move in wins


@pytest.mark.parametrize("level", ["casual", "strong", "master"])
def test_avoids_the_moves_that_lose_at_once(level):
    state = position(ONE_SAFE_MOVE)
    assert len(state.legal_moves()) == 4 and not winning_moves_now(state)
    (safe,) = safe_moves(state)
    assert ai.choose_move(state, level, seed=3, move_time=0.3 if level == "master" else None) == safe


def test_the_solver_proves_a_forced_win():
    state = position(WIN_IN_THREE)
    assert not winning_moves_now(state) and len(state.legal_moves()) == 28
    (win,) = wins_within_three_plies(state)
    result = engine.search(state, iterations=20_000, seed=1)
    assert result.proof == engine.WIN
    assert result.move == win == state.parse_move("i4")
    assert result.iterations < 20_000  # it stopped once the root was solved


def test_the_solver_sees_the_loss_from_the_other_side():
    state = position(WIN_IN_THREE)
    state.play("i4")  # O to move now loses by force
    result = engine.search(state, iterations=20_000, seed=1)
    assert result.proof == engine.LOSS
    assert state.is_legal(result.move)


# -- tree reuse ------------------------------------------------------------------------------------
def test_the_tree_is_reused_between_moves():
    player = engine.Engine()
    state = position("e5 e4 e2")
    first = player.search(state, iterations=3000, seed=1, reuse=True)
    kept = player.kept_root(state).child(first.move)
    state.play(first.move)
    reply = max(kept.children, key=lambda child: child.visits)
    state.play(reply.move)
    inherited = reply.visits
    assert inherited > 50
    second = player.search(state, iterations=1000, seed=1, reuse=True)
    # the root carries on from the node of the earlier search, now kept for this position
    assert second.root_visits == inherited + 1000
    assert player.kept_root(state) is reply


def test_no_reuse_for_another_game_or_when_asked_not_to():
    player = engine.Engine()
    state = position("e5 e4 e2")
    player.search(state, iterations=500, seed=1, reuse=True)
    other = position("a1 b2")
    assert player.search(other, iterations=300, seed=1, reuse=True).root_visits == 300
    assert player.search(other, iterations=300, seed=1, reuse=False).root_visits == 300
    assert player.search(other, iterations=300, seed=1, reuse=True).root_visits == 600  # same position
    assert engine.search(other, iterations=300, seed=1).root_visits == 300  # a fresh engine's


def test_choose_move_reuses_the_tree_at_full_strength():
    player = engine.Engine()
    state = position("e5 e4")
    move = player.choose_move(state, "master", seed=2, move_time=0.2)
    root = player.kept_root(state)
    assert root.visits > 100
    state.play(move)
    node = root.child(move)
    reply = max(node.children, key=lambda child: child.visits)
    state.play(reply.move)
    inherited = reply.visits
    player.choose_move(state, "master", seed=2, move_time=0.1)
    assert player.kept_root(state) is reply and reply.visits > inherited  # it searched on from there


# -- determinism, levels, budgets --------------------------------------------------------------------
def test_the_same_seed_gives_the_same_move():
    state = position("e5 e4 e2 d6")
    runs = [engine.search(state, iterations=1500, seed=7) for _ in range(2)]
    assert runs[0] == runs[1]._replace(seconds=runs[0].seconds)
    for level in ("beginner", "casual", "strong"):
        assert len({ai.choose_move(state, level, seed=5) for _ in range(3)}) == 1


def test_different_seeds_vary_the_weak_levels():
    state = UtttState()
    assert len({ai.choose_move(state, "beginner", seed=seed) for seed in range(12)}) > 1


@pytest.mark.parametrize("level", engine.LEVELS)
def test_every_level_plays_legal_moves_quickly(level):
    state = position("e5 e4 e2")
    budget = engine.LEVEL_SETTINGS[level].seconds
    for seed in range(2):
        start = time.perf_counter()
        move = ai.choose_move(state, level, seed=seed, move_time=0.3 if level == "master" else None)
        elapsed = time.perf_counter() - start
        assert state.is_legal(move)
        # The slack is for a loaded machine (a scheduler's pause is not the
        # engine's); a level that ignored its budget would run for seconds.
        assert elapsed < (0.3 if level == "master" else budget) + 0.5


def test_weak_levels_are_weaker_by_playouts():
    budgets = [engine.LEVEL_SETTINGS[level] for level in engine.LEVELS]
    caps = [budget.iterations for budget in budgets[:-1]]
    assert caps == sorted(caps) and budgets[-1].iterations is None
    assert all(budget.seconds <= 2.0 for budget in budgets)


@pytest.mark.parametrize("move_time", [0.1, 0.4])
def test_the_time_budget_is_respected(move_time):
    state = UtttState()
    start = time.perf_counter()
    ai.choose_move(state, "master", seed=1, move_time=move_time)
    elapsed = time.perf_counter() - start
    assert move_time * 0.8 < elapsed < move_time + 0.5  # the master's own budget is 2 s


def test_a_whole_game_between_levels_stays_legal():
    state = UtttState()
    levels = {FIRST: "casual", SECOND: "beginner"}
    while not state.is_over():
        state.play(ai.choose_move(state, levels[state.turn], seed=len(state.moves)))
    assert state.outcome() is not None


def test_bad_requests_are_refused():
    with pytest.raises(ValueError, match="unknown uttt level"):
        ai.choose_move(UtttState(), "grandmaster")
    state = won_position()
    state.play(winning_moves_now(state)[0])
    with pytest.raises(ValueError, match="game is over"):
        ai.choose_move(state, "master")
    with pytest.raises(ValueError, match="move_time"):
        ai.choose_move(UtttState(), "master", move_time=0)


# -- the GTP engine plays it ---------------------------------------------------------------------------
def test_gtp_engine_plays_uttt():
    import gtp

    e = gtp.GtpEngine("uttt", {}, level="casual", seed=1)
    assert e.execute("boardsize 9") == "=\n\n"
    assert e.execute("boardsize 11").startswith("? unacceptable size")
    assert e.execute("play b e5") == "=\n\n"
    refused = e.execute("play w a1")
    assert refused == "? illegal move: you must play in small board 5 (d4-f6)\n\n"
    assert e.execute("all_legal_moves") == "= d4 e4 f4 d5 f5 d6 e6 f6\n\n"
    reply = e.execute("genmove w")
    assert reply.startswith("= ") and e.state.parse_move(reply[2:].strip()) in BOARD_5
    drawing = e.execute("showboard")
    assert "    a b c   d e f   g h i" in drawing and "black to move" in drawing
    assert drawing.count("X") == 1 and drawing.count("O") == 1 and "play in: " in drawing
    assert e.execute("undo") == "=\n\n" and e.execute("undo") == "=\n\n"
    assert e.state == UtttState()


BOARD_5 = set(UtttState().parse_move(text) for text in "d4 e4 f4 d5 f5 d6 e6 f6".split())
