"""The Ultimate Tic-Tac-Toe computer player (ai.uttt): tactics, the solver,
tree reuse, determinism, levels and time budgets.

Positions come from random games (move lists below); each test first checks
its position's claim with a plain brute-force search that shares nothing
with the AI but the rules.
"""

from __future__ import annotations

import random
import time

import pytest

import ai
from ai import uttt as engine
from ai.search import DRAWN, LOSS, WIN
from ai.uttt import evaluation as uttt_evaluation, position as uttt_position
from ai.uttt.book import GRID_SYMMETRIES
from ai.uttt import uct
from core import FIRST, SECOND
from core import uttt as core_uttt
from core.uttt import UtttState
from counted_clock import counted_clock  # noqa: F401  (autouse: the engines' seconds on the counted clock)

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

    monkeypatch.setattr(uct.Search, "run", no_search)
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
    assert result.proof == WIN
    assert result.move == win == state.parse_move("i4")
    assert result.iterations < 20_000  # it stopped once the root was solved


def test_the_solver_sees_the_loss_from_the_other_side():
    state = position(WIN_IN_THREE)
    state.play("i4")  # O to move now loses by force
    result = engine.search(state, iterations=20_000, seed=1)
    assert result.proof == LOSS
    assert state.is_legal(result.move)


#: Six legal moves; five lose by force, and the sixth draws: all boards get
#: decided without a line.
ONLY_DRAW = (
    "i2 i6 h7 f2 g4 a3 b7 e3 f7 i1 g2 b4 e2 d6 c7 h3 e8 e4 f1 h2 d5 c4 i3 i8 h4 d1 b2 d4 c2 h6 d7 a1 b3 "
    "e7 e1 d2 a5 b6 e9 f8 i4 h1 d3 b9 d8 b5 f4 c8 b8 e6 f9 h9 g9 a9 a7 c1 i9 g8 b1"
)
#: Random games where the side to move is sent to a board with four or more
#: empty cells: it can take that board (TAKES), or it cannot but the
#: opponent could (BLOCKS).
TAKES = "i2 h4 e2 e4 f3 h9 e9 d9 a8 b4 d2 a4 a3 b9 e8 d4 c3 h8 e6 e7 d3 a7"
BLOCKS = TAKES + " c1 g1 a1"


def minimax(state: UtttState) -> int:
    """The value of a position for its side to move (1, 0, -1) by brute force."""
    outcome = state.outcome()
    if outcome is not None:
        return 0 if outcome.winner is None else 1 if outcome.winner == state.turn else -1
    best = -1
    for move in state.legal_moves():
        state.push(move)
        best = max(best, -minimax(state))
        state.pop()
        if best == 1:
            break
    return best


def test_the_solver_proves_a_draw_and_plays_the_only_move_that_keeps_it():
    state = position(ONLY_DRAW)
    values = {}
    for move in state.legal_moves():
        state.push(move)
        values[move] = -minimax(state)
        state.pop()
    assert sorted(values.values()) == [-1, -1, -1, -1, -1, 0]
    (draw,) = [move for move, value in values.items() if value == 0]
    result = engine.search(state, iterations=20_000, seed=1)
    assert (result.proof, result.win_rate, result.move) == (DRAWN, 0.5, draw)
    assert result.iterations < 20_000  # solved, so it stopped
    verdict = ai.new_engine("uttt").evaluate(state, seconds=600.0, seed=1, iterations=100_000)
    assert (verdict.proof, verdict.chance, verdict.move) == (DRAWN, 0.5, draw)


# -- the playout policy ----------------------------------------------------------------------------
def first_playout_moves(state: UtttState) -> set[int]:
    """Every cell the playout policy may choose first in ``state`` (a board
    is forced): the playout is stopped at its second random draw, for each
    first draw on a fine grid."""

    class Stop(Exception):
        pass

    chosen = set()
    for tenth in range(100):
        draws = iter([tenth / 100])

        def rand():
            try:
                return next(draws)
            except StopIteration:
                raise Stop from None

        marks = [list(state.marks(0)), list(state.marks(1))]
        before = [row.copy() for row in marks]
        won = [state.won_boards(0), state.won_boards(1)]
        try:
            uttt_position.playout(marks, won, state.closed_boards, state.forced_board, state.turn, rand)
        except Stop:
            pass
        board = state.forced_board
        (played,) = [p for p in range(9) if (marks[state.turn][board] ^ before[state.turn][board]) >> p & 1]
        chosen.add(core_uttt.BOARD_CELLS[board][played])
    return chosen


def small_board_takers(state: UtttState, player: int) -> set[int]:
    """The legal cells that would win their small board for ``player``, by the rules."""
    found = set()
    for move in state.legal_moves():
        cells = core_uttt.BOARD_CELLS[core_uttt.CELL_BOARD[move]]
        held = {index for index, cell in enumerate(cells) if state.cell_owner(cell) == player or cell == move}
        if any(set(core_uttt.BITS[line]) <= held for line in core_uttt.LINES):
            found.add(move)
    return found


def test_the_playout_takes_a_small_board_when_it_can():
    state = position(TAKES)
    takers = small_board_takers(state, state.turn)
    assert takers and len(state.legal_moves()) >= 4 and state.forced_board is not None
    assert first_playout_moves(state) == takers


def test_the_playout_blocks_the_opponent_else_plays_anywhere():
    state = position(BLOCKS)
    assert not small_board_takers(state, state.turn) and state.forced_board is not None
    blocks = small_board_takers(state, state.turn ^ 1)
    assert blocks and len(state.legal_moves()) >= 4
    assert first_playout_moves(state) == blocks
    quiet = position("e5 e4")  # nobody can take a board: any empty cell of the forced one
    assert first_playout_moves(quiet) == set(quiet.legal_moves())


# -- the evaluation ----------------------------------------------------------------------------------
def evaluation(state: UtttState) -> float:
    forced = -1 if state.forced_board is None else state.forced_board
    return uttt_evaluation.evaluate([list(state.marks(0)), list(state.marks(1))], [state.won_boards(0), state.won_boards(1)],
                           state.closed_boards, forced, state.turn)


def made(won_by_mover: int, won_by_other: int, drawn: int = 0, mover: int = FIRST) -> UtttState:
    """A hand-made position: small boards won by the side to move, by the
    other, and drawn (9-bit masks), the rest empty, a free choice."""
    state = UtttState()
    line, draw_x, draw_o = 0b000_000_111, 0b110_001_101, 0b001_110_010  # a row; a full board without a line
    for board in range(9):
        bit = 1 << board
        if won_by_mover & bit:
            state._marks[mover][board] = line
        elif won_by_other & bit:
            state._marks[mover ^ 1][board] = line
        elif drawn & bit:
            state._marks[FIRST][board], state._marks[SECOND][board] = draw_x, draw_o
    state._won = [won_by_mover, won_by_other] if mover == FIRST else [won_by_other, won_by_mover]
    state._closed = won_by_mover | won_by_other | drawn
    state.moves = [0] * mover  # only its length is read: whose turn it is
    return state


def test_the_evaluation_favours_the_side_with_the_better_big_board():
    assert evaluation(UtttState()) > 0.5  # the first move's tempo
    for mover in (FIRST, SECOND):
        two_in_line = made(0b000_010_001, 0b000_000_110, mover=mover)  # boards 1, 5 (9 open) against 2, 3
        assert evaluation(two_in_line) > 0.7
        assert evaluation(made(0b000_000_110, 0b000_010_001, mover=mover)) < 0.3
        assert evaluation(made(0b000_000_001, 0, mover=mover)) > evaluation(made(0, 0, mover=mover))
        assert evaluation(made(0, 0b000_010_000, mover=mover)) < 0.5  # the centre board lost
        # The same position for the other side, colours swapped: the same value.
        assert evaluation(made(0b000_010_001, 0b000_000_110, mover=mover ^ 1)) == evaluation(two_in_line)


def test_the_evaluation_calls_a_dead_position_even():
    # X has won boards 1, 2 and 4, O the centre, boards 3 and 7 are drawn:
    # every line holds a board the one side or the other can never use.
    dead = made(0b000_001_011, 0b000_010_000, drawn=0b001_000_100)
    assert not dead.is_over() and dead.legal_moves()
    for player in (FIRST, SECOND):
        usable = dead.won_boards(player) | (0b111_111_111 ^ dead.closed_boards)
        assert all(line & ~usable for line in core_uttt.LINES)
    assert evaluation(dead) == 0.5


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
    state = position("e5 e4 e2")  # out of the opening book
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


def test_the_master_merges_a_position_reached_by_two_orders_of_moves():
    state = UtttState()
    rng = random.Random(31)
    for _ in range(30):
        state.play(rng.choice(state.legal_moves()))
    searcher = uct.Search(state, rng, 0.5, minimax_weight=0.5, merge=True)
    searcher.run(20_000)
    assert searcher.transpositions > 0
    owners: dict[int, list[tuple]] = {}  # a children list -> (position, moves) of each node holding it

    def walk(node):
        if not node.children:
            return
        first = id(node.children) not in owners
        owners.setdefault(id(node.children), []).append(
            ((state.marks(0), state.marks(1), state.forced_board), tuple(state.moves)))
        if first:
            for child in node.children:
                state.push(child.move)
                walk(child)
                state.pop()

    walk(searcher.root)
    shared = [holders for holders in owners.values() if len(holders) > 1]
    assert sum(len(holders) - 1 for holders in shared) == searcher.transpositions  # each merge found
    for holders in shared:
        positions = {position for position, _ in holders}
        orders = {moves for _, moves in holders}
        assert len(positions) == 1 and len(orders) == len(holders)  # one position, different orders
        assert len({tuple(sorted(moves)) for moves in orders}) == 1  # the same moves


# -- the opening book --------------------------------------------------------------------------------
def test_the_grid_symmetries_map_games_to_games():
    rng = random.Random(4)
    for _ in range(20):
        game = UtttState()
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
        images = set()
        for symmetry in GRID_SYMMETRIES:
            image = UtttState()
            for move in game.moves:
                assert image.is_legal(symmetry[move])  # the board sent to maps with the move
                image.play(symmetry[move])
            outcome, mapped = image.outcome(), game.outcome()
            assert outcome.winner == mapped.winner
            images.add(tuple(image.moves))
        assert len(images) == 8 or len(game.moves) < 3  # eight different maps


def test_the_book_answers_every_position_it_covers_with_a_legal_move():
    first = engine.OPENING_BOOK[()]
    for moves, move in engine.OPENING_BOOK.items():
        assert engine.book_key(moves)[0] == moves  # stored in least form
        state = UtttState()
        for earlier in moves:
            state.play(earlier)
        assert state.is_legal(move)
    # Every first move of X, and every reply of O to the book's first move.
    for opening in [[cell] for cell in range(81)] + [[first, reply] for reply in position(
            core_uttt.cell_text(first)).legal_moves()]:
        state = UtttState()
        for move in opening:
            state.play(move)
        assert state.is_legal(engine.book_move(state))
    assert engine.book_move(position("e5 e4 e2")) is None  # beyond the book's plies


def test_the_book_holds_exactly_the_positions_its_tool_searches():
    from tool_modules import load_tool

    positions = load_tool("uttt_book").book_positions(engine.OPENING_BOOK[()])
    # The empty grid; X's 81 first moves fall into 15 classes; O's 8 replies
    # to the centre of the centre into 2 (a corner, an edge).
    assert len(positions) == 1 + 15 + 2
    assert set(positions) == set(engine.OPENING_BOOK)


def test_master_plays_the_book_in_every_symmetric_image_of_a_position():
    state = position("a1")  # a corner opening; its images are the other corners
    book = engine.book_move(state)
    answers = set()
    for symmetry in GRID_SYMMETRIES:
        image = UtttState()
        image.play(symmetry[state.moves[0]])
        move = ai.choose_move(image, "master", seed=1, move_time=5.0)  # the book answers without the 5 s
        # The book's reply seen through the same symmetry (or one the
        # position cannot tell from it): the same game up to symmetry.
        assert engine.book_key([*image.moves, move])[0] == engine.book_key([*state.moves, book])[0]
        answers.add(move)
    assert len(answers) >= 4


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
def test_every_level_plays_legal_moves_within_its_budget(level):
    # The time here is the counted clock's (tests/counted_clock.py): the
    # level stops when its budget is spent, whatever the machine; how
    # fast it plays is the bench's to measure.
    state = position("e5 e4 e2")
    budget = engine.LEVEL_SETTINGS[level].seconds
    for seed in range(2):
        start = time.perf_counter()
        move = ai.choose_move(state, level, seed=seed, move_time=0.3 if level == "master" else None)
        elapsed = time.perf_counter() - start
        assert state.is_legal(move)
        # A level that ignored its budget would run for seconds.
        assert elapsed < (0.3 if level == "master" else budget) + 0.5


def test_weak_levels_are_weaker_by_playouts():
    budgets = [engine.LEVEL_SETTINGS[level] for level in engine.LEVELS]
    caps = [budget.iterations for budget in budgets[:-1]]
    assert caps == sorted(caps) and budgets[-1].iterations is None
    assert all(budget.seconds <= 2.0 for budget in budgets)


@pytest.mark.parametrize("move_time", [0.1, 0.4])
def test_the_time_budget_is_respected(move_time):
    # The counted clock's time: the search runs until its deadline, not past it.
    state = position("e5 e4 e2")  # out of the opening book
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
