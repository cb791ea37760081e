"""The Notakto computer player (ai.notakto) against an independent
brute-force solver.

The solver below shares nothing with the engine: its own lines, its own
symmetries, plain memoised minimax over sorted tuples of canonical live
boards (closed boards dropped; no live board left = the player to move has
won, because the opponent closed the last one).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import ai
from ai import notakto as engine
from core import FIRST, SECOND
from core.notakto import NotaktoState
from counted_clock import counted_clock  # noqa: F401  (autouse: the engines' seconds on the counted clock)

# -- the independent solver -------------------------------------------------------
SOLVER_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def has_line(mask: int) -> bool:
    return any(all(mask >> cell & 1 for cell in line) for line in SOLVER_LINES)


def _symmetries() -> list[list[int]]:
    def rotate(cell: int) -> int:
        row, col = divmod(cell, 3)
        return col * 3 + (2 - row)

    def mirror(cell: int) -> int:
        row, col = divmod(cell, 3)
        return row * 3 + (2 - col)

    perms, perm = [], list(range(9))
    for _ in range(4):
        perms.append(perm)
        perms.append([mirror(cell) for cell in perm])
        perm = [rotate(cell) for cell in perm]
    assert len({tuple(p) for p in perms}) == 8
    return perms


SYMMETRIES = _symmetries()


def transform(mask: int, perm: list[int]) -> int:
    return sum(1 << perm[cell] for cell in range(9) if mask >> cell & 1)


DEAD = [has_line(mask) for mask in range(512)]
CANONICAL = [None if DEAD[m] else min(transform(m, p) for p in SYMMETRIES) for m in range(512)]
CLASSES = sorted({c for c in CANONICAL if c is not None})
# each class's distinct successors: -1 for "the move closes the board"
SUCCESSORS = {
    c: tuple(sorted({-1 if DEAD[c | 1 << k] else CANONICAL[c | 1 << k] for k in range(9) if not c >> k & 1}))
    for c in CLASSES
}
_WINS: dict[tuple[int, ...], bool] = {}


def wins(position: tuple[int, ...]) -> bool:
    """Brute force: does the player to move win the sorted tuple of canonical
    live boards?"""
    known = _WINS.get(position)
    if known is not None:
        return known
    result = not position
    for i, board in enumerate(position):
        if result:
            break
        if i and position[i - 1] == board:
            continue
        rest = position[:i] + position[i + 1:]
        for child in SUCCESSORS[board]:
            after = rest if child < 0 else tuple(sorted(rest + (child,)))
            if not wins(after):
                result = True
                break
    _WINS[position] = result
    return result


def key(boards) -> tuple[int, ...]:
    return tuple(sorted(CANONICAL[m] for m in boards if not DEAD[m]))


def state_with(boards: tuple[int, ...] | list[int]) -> NotaktoState:
    """A state whose boards hold these (line-free) masks, board by board."""
    state = NotaktoState(len(boards))
    for index, mask in enumerate(boards):
        for cell in range(9):
            if mask >> cell & 1:
                state.push(index * 9 + cell)
    assert state.boards == tuple(boards)
    return state


def after(state: NotaktoState, move: int) -> tuple[int, ...]:
    boards = list(state.boards)
    boards[move // 9] |= 1 << move % 9
    return tuple(boards)


def brute_safe_moves(state: NotaktoState) -> set[int]:
    return {m for m in state.legal_moves() if not wins(key(after(state, m)))}


def positions_up_to(count: int):
    """Every multiset of at most ``count`` live board classes."""
    for size in range(count + 1):
        yield from itertools.combinations_with_replacement(CLASSES, size)


def test_solver_sanity():
    # 46 line-free boards up to symmetry; known small results
    assert len(CLASSES) == 46
    empty = CANONICAL[0]
    assert wins((empty,))  # one board: the first player wins (centre)
    assert not wins((empty, empty))  # two boards: the second player wins
    assert wins((empty, empty, empty))
    assert not wins((CANONICAL[0b000_010_000],))  # after the centre on one board


# -- the monoid ---------------------------------------------------------------------------
Q = range(len(engine.MUL))
E = engine.element


def word(a: int = 0, b: int = 0, c: int = 0, d: int = 0) -> int:
    value = engine.IDENTITY
    for generator, power in zip("abcd", (a, b, c, d)):
        for _ in range(power):
            value = engine.MUL[value][E(generator)]
    return value


def test_monoid_has_18_elements_with_the_papers_normal_forms():
    assert len(engine.MUL) == 18
    assert sorted(engine.ELEMENT_NAMES) == sorted(
        ["1", "a", "b", "ab", "b^2", "ab^2", "c", "ac", "bc", "abc", "c^2", "ac^2",
         "bc^2", "abc^2", "d", "ad", "bd", "abd"]
    )
    assert all(len(row) == 18 and set(row) <= set(Q) for row in engine.MUL)


def test_monoid_laws():
    mul = engine.MUL
    one = engine.IDENTITY
    assert engine.ELEMENT_NAMES[one] == "1"
    for x in Q:
        assert mul[one][x] == mul[x][one] == x
        for y in Q:
            assert mul[x][y] == mul[y][x]
            for z in Q:
                assert mul[mul[x][y]][z] == mul[x][mul[y][z]]


def test_relations_hold_and_names_are_the_products():
    assert word(a=2) == word()
    assert word(b=3) == word(b=1)
    assert word(b=2, c=1) == word(c=1)
    assert word(c=3) == word(a=1, c=2)
    assert word(b=2, d=1) == word(d=1)
    assert word(c=1, d=1) == word(a=1, d=1)
    assert word(d=2) == word(c=2)
    for element, form in enumerate(engine.NORMAL_FORMS):
        assert word(*form) == element  # each normal form evaluates to itself


def test_quotient_is_reduced():
    # every two elements are told apart by some partner's product landing in P
    P = engine.P_POSITIONS
    assert {engine.ELEMENT_NAMES[p] for p in P} == {"a", "b^2", "bc", "c^2"}
    rows = {frozenset(z for z in Q if engine.MUL[x][z] in P) for x in Q}
    assert len(rows) == 18


# -- board values ------------------------------------------------------------------------------
def test_board_values_are_symmetric_and_closed_boards_are_neutral():
    for mask in range(512):
        if DEAD[mask]:
            assert engine.BOARD_VALUE[mask] == engine.IDENTITY
        else:
            assert {engine.BOARD_VALUE[transform(mask, p)] for p in SYMMETRIES} == {engine.BOARD_VALUE[mask]}


def test_landmark_values():
    name = lambda mask: engine.ELEMENT_NAMES[engine.BOARD_VALUE[mask]]  # noqa: E731
    assert name(0) == "c"  # the empty board
    assert name(0b000_010_000) == "c^2"  # a centre X: a P-position on its own
    assert name(0b000_000_001) == name(0b000_000_010) == "1"  # a corner or an edge X


def test_derivation_is_deterministic():
    assert engine._derive_board_values() == engine.BOARD_VALUE


def test_values_decide_every_position_of_up_to_three_boards():
    count = 0
    for position in positions_up_to(3):
        assert wins(position) == (engine.position_value(position) not in engine.P_POSITIONS), position
        count += 1
    assert count == 1 + 46 + 1081 + 17296


# -- the perfect level ---------------------------------------------------------------------------------
def test_safe_moves_are_exactly_the_winning_moves_on_up_to_three_boards():
    seed = 0
    for position in positions_up_to(3):
        if not position:
            continue
        state = state_with(position)
        safe = engine.safe_moves(state)
        assert safe == sorted(safe)
        assert set(safe) == brute_safe_moves(state), position
        assert engine.is_lost(state) == (not wins(position))
        if safe:
            seed += 1
            assert engine.choose_move(state, "perfect", seed=seed) in safe


def random_position(rng: random.Random) -> NotaktoState:
    """4 to 6 boards played at random until the live boards have at most
    27 empty cells (and a little further, at random)."""
    state = NotaktoState(rng.randint(4, 6))
    while not state.is_over():
        empty = sum(9 - bin(state.boards[b]).count("1") for b in state.live_boards)
        if empty <= 27 and rng.random() < 0.3:
            break
        state.play(rng.choice(state.legal_moves()))
    return state


def test_perfect_play_on_random_positions_of_four_to_six_boards():
    rng = random.Random(2024)
    won = lost = 0
    for index in range(3000):
        state = random_position(rng)
        if state.is_over():
            continue
        winning = wins(key(state.boards))
        assert engine.is_lost(state) == (not winning), state
        safe = engine.safe_moves(state)
        if winning:
            won += 1
            assert safe
            for move in safe:
                assert not wins(key(after(state, move))), (state, move)
            move = engine.choose_move(state, "perfect", seed=index)
            assert move in safe
        else:
            lost += 1
            assert safe == []
    assert won > 1000 and lost > 300  # both kinds were really tested


def test_perfect_first_player_never_loses_three_boards_against_any_replies():
    """Exhaustively: the computer moves first on three empty boards; whatever
    the opponent does, it only ever plays moves to lost positions, so it
    never closes the last board. Every safe move it might pick (for any
    seed) is followed, so the proof covers all seeds."""
    assert wins(key((0, 0, 0)))
    seen: set[tuple[int, ...]] = set()
    checked = 0

    def computer_to_move(state: NotaktoState) -> None:
        nonlocal checked
        position = key(state.boards)
        if position in seen:
            return
        seen.add(position)
        assert not state.is_over()
        assert wins(position)  # the opponent never got out of a lost position
        safe = engine.safe_moves(state)
        assert safe and set(safe) == brute_safe_moves(state)
        assert engine.choose_move(state, "perfect", seed=len(seen)) in safe
        checked += 1
        for move in safe:
            state.push(move)
            if state.is_over():  # cannot happen: closing the last board is never safe
                pytest.fail(f"computer closed the last board in {state}")
            for reply in state.legal_moves():
                state.push(reply)
                if state.is_over():
                    assert state.outcome().winner == FIRST
                else:
                    computer_to_move(state)
                state.pop()
            state.pop()

    computer_to_move(NotaktoState(3))
    assert checked > 1000


def test_perfect_first_player_beats_random_play():
    for seed in range(40):
        rng = random.Random(seed)
        state = NotaktoState(3)
        while not state.is_over():
            if state.turn == FIRST:
                state.play(engine.choose_move(state, "perfect", seed=seed))
            else:
                state.play(rng.choice(state.legal_moves()))
        assert state.outcome().winner == FIRST


# -- a lost position: make it hard for the human -----------------------------------------------------
def reply_fraction(state: NotaktoState, move: int) -> float:
    """Brute force: the share of the opponent's replies that keep their win."""
    child = state.copy()
    child.push(move)
    replies = child.legal_moves()
    return len(brute_safe_moves(child)) / len(replies) if replies else 1.0


def closes(state: NotaktoState, move: int) -> bool:
    return DEAD[after(state, move)[move // 9]]


def lost_samples(seed: int, boards: int, count: int):
    """``count`` of the lost positions of up to ``boards`` boards, at random, as states."""
    lost_positions = [p for p in positions_up_to(boards) if p and not wins(p)]
    for position in random.Random(seed).sample(lost_positions, count):
        yield position, state_with(position)


def test_lost_positions_get_the_trickiest_move():
    for position, state in lost_samples(7, 3, 400):
        move = engine.choose_move(state, "perfect", seed=1)
        moves = state.legal_moves()
        quiet = [m for m in moves if not closes(state, m)]
        if quiet:
            assert not closes(state, move), position  # never an early end when avoidable
        pool = quiet or moves
        best = min(reply_fraction(state, m) for m in pool)
        assert reply_fraction(state, move) == pytest.approx(best), position


def tricky_rank(state: NotaktoState, move: int) -> tuple:
    child = state.copy()
    child.push(move)
    return closes(state, move), round(reply_fraction(state, move), 9), -len(child.legal_moves())


def test_lost_position_ranking_on_small_positions():
    for position, state in lost_samples(3, 2, 150):
        move = engine.choose_move(state, "perfect", seed=2)
        ranks = {m: tricky_rank(state, m) for m in state.legal_moves()}
        assert ranks[move] == min(ranks.values()), position


def test_forced_to_close_a_board_it_keeps_the_game_long():
    # A quiet move always removes one empty cell, so the length tie-break
    # decides only between board-closing moves: close the fullest board.
    decided = 0
    for position in positions_up_to(3):
        if not position or wins(position):
            continue
        state = state_with(position)
        if not all(closes(state, m) for m in state.legal_moves()):
            continue
        ranks = {m: tricky_rank(state, m) for m in state.legal_moves()}
        best = min(ranks.values())
        decided += len({rank[2] for rank in ranks.values() if rank[:2] == best[:2]}) > 1
        for seed in range(3):
            assert ranks[engine.choose_move(state, "perfect", seed=seed)] == best, position
    assert decided >= 10


def test_lost_single_board_example():
    # After a centre X on one board every move loses; the computer plays an
    # edge or corner that does not close, never anything that closes.
    state = state_with((0b000_010_000,))
    assert engine.safe_moves(state) == []
    for seed in range(20):
        move = engine.choose_move(state, "perfect", seed=seed)
        assert not closes(state, move)


def test_forced_to_close_the_last_board():
    # only moves that close: the computer has to (and the game ends)
    mask = 0b000_011_011  # a1 b1 a2 b2: every empty cell completes a line
    assert not DEAD[mask]
    state = state_with((mask,))
    assert all(closes(state, m) for m in state.legal_moves())
    move = engine.choose_move(state, "perfect", seed=0)
    state.play(move)
    assert state.is_over()


# -- levels --------------------------------------------------------------------------------------------
def test_levels_and_entry_point():
    assert ai.levels("notakto") == ["beginner", "casual", "strong", "perfect"] == engine.LEVELS
    assert ai.DEFAULT_LEVEL["notakto"] == "perfect"
    state = NotaktoState(3)
    state.play("1b2")
    before = state.to_dict()
    assert ai.choose_move(state, "perfect", seed=1) in state.legal_moves()
    assert state.to_dict() == before  # the AI does not touch the state
    with pytest.raises(ValueError, match="unknown notakto level"):
        ai.choose_move(state, "grandmaster")
    with pytest.raises(ValueError, match="no computer player"):
        ai.levels("chess")
    over = NotaktoState(1)
    for text in ["1a1", "1b1", "1c1"]:
        over.play(text)
    with pytest.raises(ValueError, match="game is over"):
        ai.choose_move(over, "perfect")


@pytest.mark.parametrize("level", ["beginner", "casual", "strong", "perfect"])
def test_levels_are_deterministic_per_seed(level):
    rng = random.Random(11)
    for _ in range(50):
        state = random_position(rng)
        if state.is_over():
            continue
        first = [ai.choose_move(state, level, seed=s) for s in range(5)]
        assert first == [ai.choose_move(state, level, seed=s) for s in range(5)]
        assert all(m in state.legal_moves() for m in first)


def test_a_seeded_game_is_reproducible_but_seeds_differ():
    def game(seed: int) -> list[int]:
        state = NotaktoState(4)
        while not state.is_over():
            state.play(ai.choose_move(state, "casual", seed=seed))
        return state.moves

    assert game(1) == game(1)
    assert len({tuple(game(s)) for s in range(8)}) > 1


@pytest.mark.parametrize("level", ["beginner", "casual", "strong"])
def test_weaker_levels_err_at_about_their_rate(level):
    """In won positions a level slips with its rate (lower in the ending) and
    then picks uniformly among the plausible moves; so the expected number of
    losing moves is the sum of rate x (share of losing plausible moves)."""
    settings = engine.LEVEL_SETTINGS[level]
    rng = random.Random(5)
    expected = observed = slips_possible = 0.0
    samples = 0
    while samples < 2500:
        state = random_position(rng)
        if state.is_over() or not wins(key(state.boards)):
            continue
        empty = sum(9 - bin(state.boards[b]).count("1") for b in state.live_boards)
        rate = settings.ending_rate if empty <= settings.horizon else settings.mistake_rate
        assert engine.mistake_rate(state, level) == rate
        plausible = engine._plausible_moves(state)
        for m in plausible:
            assert not closes(state, m) or all(closes(state, x) for x in state.legal_moves())
        losing = [m for m in plausible if wins(key(after(state, m)))]
        expected += rate * len(losing) / len(plausible)
        slips_possible += len(losing) > 0
        move = engine.choose_move(state, level, seed=samples)
        observed += wins(key(after(state, move)))
        samples += 1
    assert slips_possible > 1000
    sigma = expected ** 0.5
    assert abs(observed - expected) < 4 * sigma + 5, (level, observed, expected)


def test_levels_see_better_in_the_ending():
    rng = random.Random(9)
    tested = 0
    while tested < 300:
        state = random_position(rng)
        while not state.is_over() and sum(9 - bin(state.boards[b]).count("1") for b in state.live_boards) > 8:
            state.push(rng.choice(state.legal_moves()))
        if state.is_over() or not wins(key(state.boards)):
            continue
        assert engine.mistake_rate(state, "strong") == 0.0
        for seed in range(3):
            move = engine.choose_move(state, "strong", seed=seed)
            assert not wins(key(after(state, move)))
        tested += 1
    opening = NotaktoState(3)
    assert [engine.mistake_rate(opening, level) for level in engine.LEVELS] == [
        engine.LEVEL_SETTINGS[level].mistake_rate for level in engine.LEVELS
    ]


def test_rates_fall_with_the_level():
    rates = [engine.LEVEL_SETTINGS[level] for level in engine.LEVELS]
    assert [r.mistake_rate for r in rates] == sorted((r.mistake_rate for r in rates), reverse=True)
    assert rates[-1].mistake_rate == rates[-1].ending_rate == 0.0
    assert all(r.ending_rate <= r.mistake_rate for r in rates)


def test_beginner_loses_to_perfect_play_often_and_perfect_never():
    results = Counter()
    for seed in range(60):
        state = NotaktoState(3)
        level_plays = FIRST if seed % 2 else SECOND
        while not state.is_over():
            level = "beginner" if state.turn == level_plays else "perfect"
            state.play(ai.choose_move(state, level, seed=seed))
        results[state.outcome().winner == level_plays] += 1
    # beginner moves first half the time from a won start, yet mostly loses
    assert results[False] > 40


# -- six boards -----------------------------------------------------------------------------------------
def test_perfect_move_on_six_boards_is_a_safe_move_when_there_is_one():
    # How fast (``make bench``: "Notakto, perfect level, 6 boards") is the bench's to measure.
    rng = random.Random(1)
    states = []
    while len(states) < 100:
        state = NotaktoState(6)
        for _ in range(rng.randint(0, 20)):
            if state.is_over():
                break
            state.push(rng.choice(state.legal_moves()))
        if not state.is_over():
            states.append(state)
    for index, state in enumerate(states):
        safe = engine.safe_moves(state)
        move = engine.choose_move(state, "perfect", seed=index)
        assert move in safe if safe else state.is_legal(move)
