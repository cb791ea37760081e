"""The computer players' shared scaffold (py/ai/search.py): the engine that
keeps its search tree for one game, the checks before every move, one
meaning of proven values in both searches, seeded randomness and the
levels' budgets.

The UTTT positions come from random games; each test first checks its
position's claim by brute force over the rules alone.
"""

from __future__ import annotations

import math
import random
import re

import pytest

import ai
from ai import connection, notakto as notakto_ai, uttt as uttt_ai
from ai.connection import hex as hex_ai, y as y_ai
from ai.uttt.position import dead as no_line_left
from ai.uttt.uct import Node as UtttNode
from ai.search import DRAWN, LOSS, WIN, Budget, Engine, SearchResult, seeded_random
from core.base import GameState
from core.hex import HexState
from core.uttt import UtttState
from core.y import YState
from registry import STATES
from test_uttt_ai import winning_moves_now
from counted_clock import counted_clock  # noqa: F401  (autouse: the engines' seconds on the counted clock)

#: The side to move (O) can win the game at once.
UTTT_WIN_NOW = (
    "i2 h4 e2 e4 f3 h9 e9 d9 a8 b4 d2 a4 a3 b9 e8 d4 c3 h8 e6 e7 d3 a7 c1 g1 a1 b1 e3 d7 b3 d8 c5 g4 g8 a5 "
    "b6 i8 g6 c7 g2 b5 f6 h7"
)
#: Every move of the side to move (X) lets the opponent win at once.
UTTT_LOST_NOW = (
    "g1 b1 f3 g7 b3 f7 i1 i3 i8 i5 g4 c1 g3 a8 a4 a2 c4 h1 e1 e2 d4 b2 e5 e6 d7 c2 h6 d9 b8 e4 e3 e8 d5 a6 "
    "b9 h8 f6 g9 b7 f2 h4 d1 i4"
)
#: Nobody can get three boards in a line any more, with moves still to play.
UTTT_DEAD = (
    "h6 d9 c8 g5 a5 b4 f1 g2 c4 g1 a2 c6 g9 c9 i9 h8 e4 d1 c1 i3 i8 g4 a1 a3 b9 e8 e6 e7 f3 h7 e3 f9 g8 a6 "
    "c7 g3 a7 c3 i7 d3 b8 f5 h4 e2 d4 b2 f4 g6 b7 e1 f2 b3 f7 d7"
)


def played(state: GameState, moves: str) -> GameState:
    for text in moves.split():
        state.play(text)
    return state


#: The searching games: (engine module, a position early in a game).
SEARCHING = {
    "uttt": (uttt_ai, lambda: played(UtttState(), "e5 e4 e2")),
    "hex": (hex_ai, lambda: played(HexState(7), "d4")),
    "y": (y_ai, lambda: played(YState(9), "e5")),
}


def most_visited(node) -> int:
    """The move the search tried most from ``node`` (either tree's nodes)."""
    if isinstance(node, UtttNode):
        return max(node.children, key=lambda child: child.visits).move
    return node.moves[max(range(len(node.moves)), key=node.visits.__getitem__)]


def finished(game: str) -> GameState:
    state = STATES[game]()
    rng = random.Random(5)
    while not state.is_over():
        state.play(rng.choice(state.legal_moves()))
    return state


wins_now = winning_moves_now  # the brute force of tests/ai/test_uttt_ai.py


# -- the engine keeps its tree for one game ----------------------------------------------------
@pytest.mark.parametrize("game", sorted(SEARCHING))
def test_an_engine_keeps_its_tree_across_a_game(game: str) -> None:
    module, start = SEARCHING[game]
    player = module.Engine()
    state = start()
    first = player.search(state, iterations=800, seed=1, reuse=True)
    root = player.kept_root(state)
    assert root is not None and first.root_visits >= 800
    # Our move, then the reply the search looked at most: the kept tree has
    # both, and the next search starts from there.
    node = root.child(first.move)
    reply = most_visited(node)
    state.play(first.move)
    state.play(reply)
    reached = node.child(reply)
    assert reached is not None and player.kept_root(state) is reached
    inherited = reached.visits if isinstance(reached, UtttNode) else reached.total
    assert inherited > 0
    second = player.search(state, iterations=100, seed=2, reuse=True)
    assert second.root_visits == inherited + 100
    assert player.kept_root(state) is reached  # kept, now for this position


@pytest.mark.parametrize("game", sorted(SEARCHING))
def test_an_engine_drops_its_tree_for_another_position(game: str) -> None:
    module, start = SEARCHING[game]
    player = module.Engine()
    state = start()
    player.search(state, iterations=300, seed=1, reuse=True)
    assert player.kept_root(state) is not None
    # Back one move (a take-back, or another game's opening): not a position the tree grew from.
    earlier = state.copy()
    earlier.pop()
    assert player.kept_root(earlier) is None
    elsewhere = earlier.copy()
    elsewhere.play([move for move in elsewhere.legal_moves() if move != state.last_move][0])
    assert player.kept_root(elsewhere) is None
    assert player.search(elsewhere, iterations=50, seed=1, reuse=True).root_visits == 50
    assert player.kept_root(state) is None  # that search replaced the tree
    player.search(state, iterations=50, seed=1, reuse=True)
    player.forget()
    assert player.kept_root(state) is None


def test_a_tree_is_kept_for_its_game_and_settings_only() -> None:
    player = connection.Engine()
    hex7 = HexState(7)
    player.search(hex7, iterations=200, seed=1, reuse=True)
    assert player.kept_root(hex7) is not None
    # The same (empty) move list in another game or size, or with the swap rule on.
    for other in (YState(7), HexState(9), HexState(7, True)):
        assert player.kept_root(other) is None, other.settings()


@pytest.mark.parametrize("game", sorted(SEARCHING))
def test_two_engines_do_not_share_a_tree(game: str) -> None:
    module, start = SEARCHING[game]
    mine, yours = module.Engine(), module.Engine()
    state = start()
    found = mine.search(state, iterations=300, seed=1, reuse=True)
    assert yours.kept_root(state) is None
    again = yours.search(state, iterations=300, seed=1, reuse=True)
    assert again.move == found.move and again.root_visits == found.root_visits  # afresh, like mine
    assert mine.kept_root(state) is not yours.kept_root(state)
    # The modules' own ``search`` and ``choose_move`` use a fresh engine each time.
    assert module.search(state, iterations=300, seed=1).root_visits == found.root_visits


# -- the checks before every move ----------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(ai.MODULES))
def test_every_engine_checks_the_request_first(game: str) -> None:
    state = STATES[game]()
    player = ai.new_engine(game)
    unknown = re.escape(f"unknown {game} level 'godlike' (levels: {', '.join(ai.levels(game))})")
    for choose in (player.choose_move, ai.choose_move):
        with pytest.raises(ValueError, match=unknown):
            choose(state, "godlike")
        for bad in (0, -1.0, math.nan):
            with pytest.raises(ValueError, match="move_time must be a positive number of seconds"):
                choose(state, ai.levels(game)[0], move_time=bad)
        with pytest.raises(ValueError, match="the game is over"):
            choose(finished(game), ai.levels(game)[0])
    assert state.is_legal(player.choose_move(state, ai.levels(game)[0], seed=1, move_time=0.05))


def test_the_base_engine_plays_nothing_itself() -> None:
    class Sketch(Engine):
        level_settings = {"only": uttt_ai.Level(iterations=1, seconds=0.1)}

    state = UtttState()
    with pytest.raises(ValueError, match="unknown uttt level 'other' \\(levels: only\\)"):
        Sketch().choose_move(state, "other")
    with pytest.raises(NotImplementedError):
        Sketch().choose_move(state, "only")


# -- proven values: one meaning --------------------------------------------------------------------
def test_a_proof_is_for_the_side_to_move_in_the_uttt_search() -> None:
    won = played(UtttState(), UTTT_WIN_NOW)
    (win,) = wins_now(won)
    player = uttt_ai.Engine()
    result = player.search(won, iterations=50, seed=1, reuse=True)
    root = player.kept_root(won)
    assert result.proof == root.proof == WIN and result.move == win and result.win_rate == 1.0
    assert root.child(win).proof == LOSS  # the opponent, to move after it, has lost

    lost = played(UtttState(), UTTT_LOST_NOW)
    assert not wins_now(lost)
    for move in lost.legal_moves():
        lost.push(move)
        assert wins_now(lost)
        lost.pop()
    result = player.search(lost, iterations=2000, seed=1, reuse=True)
    root = player.kept_root(lost)
    assert result.proof == root.proof == LOSS and result.win_rate == 0.0
    assert all(child.proof == WIN for child in root.children)

    dead = played(UtttState(), UTTT_DEAD)
    assert not dead.is_over() and no_line_left([dead.won_boards(0), dead.won_boards(1)], dead.closed_boards)
    result = player.search(dead, iterations=20_000, seed=1, reuse=True)
    assert result.proof == player.kept_root(dead).proof == DRAWN and result.win_rate == 0.5
    assert result.iterations < 20_000  # it stopped once the draw was proven


def test_a_proof_is_for_the_side_to_move_in_the_connection_search() -> None:
    won = played(HexState(5), "b1 e1 b2 e2 b3 e3 b4 a1")  # black connects at a5 or b5
    player = hex_ai.Engine()
    result = player.search(won, iterations=10, seed=1, reuse=True)
    assert result.proof == player.kept_root(won).proof == WIN
    lost = played(HexState(5), "b1 e1 b2 e2 b3 e3 b4")  # white cannot stop both
    result = player.search(lost, iterations=10, seed=1, reuse=True)
    assert result.proof == player.kept_root(lost).proof == LOSS


# -- seeds, budgets, results ----------------------------------------------------------------------------
def test_a_seed_gives_the_same_draws_for_the_same_game_and_moves_only() -> None:
    def draws(seed, context, moves):
        rng = seeded_random(seed, context, moves)
        return [rng.random() for _ in range(3)]

    assert draws(7, "uttt", [40, 36]) == draws(7, "uttt", [40, 36])
    assert len({tuple(draws(*case)) for case in [(7, "uttt", [40, 36]), (8, "uttt", [40, 36]),
                                                  (7, "uttt", [40]), (7, "hex|size=11", [40, 36])]}) == 4
    assert isinstance(seeded_random(None, "uttt", []), random.Random)


@pytest.mark.parametrize(("state", "context"), [
    (UtttState(), "uttt"),
    (HexState(11), "hex|size=11,swap=False"),
    (YState(13, True), "y|size=13,swap=True"),
    (STATES["notakto"].from_settings({"boards": 3}), "notakto|3"),
])
def test_each_engine_seeds_as_it_always_has(state: GameState, context: str) -> None:
    """Seeded games (tests, the bench, shared positions) replay the same
    moves only while each engine's seed text stays what it was."""
    assert ai.new_engine(state.game).seed_context(state) == context
    state.play(state.legal_moves()[0])
    expected = random.Random(f"{context}|9|{state.moves[0]}").random()
    assert ai.new_engine(state.game).rng(state, 9).random() == expected


@pytest.mark.parametrize("module", [uttt_ai, connection])
def test_the_searching_levels_are_budgets(module) -> None:
    levels = module.LEVEL_SETTINGS
    assert all(isinstance(level, Budget) for level in levels.values())
    assert [name for name, level in levels.items() if level.reuse] == ["master"]
    assert levels["master"].iterations is None
    with pytest.raises(AttributeError):
        levels["master"].seconds = 60.0  # type: ignore[misc]


def test_notakto_levels_are_not_budgets() -> None:
    # Notakto answers at once: its levels are mistake rates, not budgets.
    assert not any(isinstance(level, Budget) for level in notakto_ai.LEVEL_SETTINGS.values())


@pytest.mark.parametrize("game", sorted(SEARCHING))
def test_both_searches_report_one_result(game: str) -> None:
    module, start = SEARCHING[game]
    result = module.search(start(), iterations=200, seed=3)
    assert type(result) is SearchResult and result.iterations == 200 and result.proof is None
    assert 0.0 < result.win_rate < 1.0
