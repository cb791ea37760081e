"""The one conformance test every game runs (as OpenSpiel runs the same
random-simulation test on every game), against ``core.base.GameState``.

Seeded random games are played to the end under every listed setting. At
every ply the legal moves are sorted and unique, the game is over exactly
when there are none, the checked and unchecked paths agree, copies are
independent and undo restores everything exactly. At the first plies and
at a dozen more per game (every ply on the smallest boards): every legal
move's notation round-trips, ``is_legal`` agrees with the legal moves, the
save rebuilds the same position from its move list, several moves are
played by int, by text and unchecked, and illegal moves and garbage text
raise the core's errors (``ValueError`` subclasses) and change nothing.
Known perft counts pin each move generator. Rules of one game only (known
positions, the forced board, swap mirroring, ...) stay in its own file.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from core import FIRST, SECOND, GameError, GameState, IllegalMoveError, NotationError, Outcome, SaveError
from core import hex as hex_rules, notakto as notakto_rules
from core.base import SAVE_VERSION, perft
from registry import GAMES, STATES

#: Every game under test, name -> state class: the registry's.
GAME_CLASSES: dict[str, type[GameState]] = STATES


def _connection_settings(offered: tuple[int, ...]) -> list[dict[str, Any]]:
    # The smallest legal board too: the shortest games, the most endings.
    sizes = sorted({hex_rules.MIN_SIZE, *offered})
    return [{"size": size, "swap": swap} for size in sizes for swap in (False, True)]


#: The settings each game is exercised with, from the rules modules' own
#: figures. A game missing here runs with its default settings.
SETTINGS: dict[str, list[dict[str, Any]]] = {
    "notakto": [{"boards": n} for n in range(notakto_rules.MIN_BOARDS, notakto_rules.MAX_BOARDS + 1)],
    "uttt": [{}],
    "hex": _connection_settings(GAMES["hex"].setting("size").values),
    "y": _connection_settings(GAMES["y"].setting("size").values),
}

#: Known move counts: (game, settings, moves played first, perft from depth 0).
PERFT: list[tuple[str, dict[str, Any], list[str], list[int]]] = [
    # 9*8*7 sequences of three X; 8 lines x 3! of them close the board, the
    # other 456 leave 6 cells each.
    ("notakto", {"boards": 1}, [], [1, 9, 72, 504, 456 * 6]),
    ("notakto", {"boards": 2}, [], [1, 18, 18 * 17]),  # no board closes within two moves
    ("uttt", {}, [], [1, 81, 720, 6336, 55080, 473256]),
    ("hex", {"size": 5, "swap": False}, [], [1, 25, 600, 13800]),
    # With swap: after any first stone one more reply, then black has 24 cells again.
    ("hex", {"size": 5, "swap": True}, [], [1, 25, 625, 14400]),
    # Black's column a needs a5 to reach row 5: that line ends there.
    ("hex", {"size": 5, "swap": False}, "a1 b1 a2 b2 a3 b3 a4 c4".split(), [1, 17, 16 * 16]),
    ("y", {"size": 5, "swap": False}, [], [1, 15, 210, 2730]),
    ("y", {"size": 5, "swap": True}, [], [1, 15, 225, 2940]),
]

#: Text that names no move in any game.
GARBAGE = ["", " ", "pass", "resign", "swapp", "?", "a", "1", "a0", "-1", "a-1", "a 1", "zz9", "a1a1",
           "1a1a1", "99z99", "\x00", "\u00e95", "\uff11a1"]
#: Things that are not moves at all (beside the out-of-range ints).
NOT_MOVES = [True, 1.5, 2.0, None]



def case_id(name: str, choice: dict[str, Any]) -> str:
    return "-".join([name, *(f"{key}{value}" for key, value in choice.items())])


#: (game, settings) for every game and each of its settings.
CASES = [
    pytest.param(name, choice, id=case_id(name, choice))
    for name, cls in GAME_CLASSES.items()
    for choice in SETTINGS.get(name, [cls.from_settings({}).settings()])
]


def new_game(name: str, choice: dict[str, Any]) -> GameState:
    return GAME_CLASSES[name].from_settings(dict(choice))


def internals(state: GameState) -> dict[str, Any]:
    """Everything the state holds, lists frozen into tuples: equal internals
    mean the same position, the same history and the same undo records."""
    return {name: _frozen(value) for name, value in vars(state).items()}


def _frozen(value: Any) -> Any:
    if type(value) is not list:
        return value
    if value and type(value[0]) is list:  # a list of lists (UTTT's marks)
        return tuple(_frozen(item) for item in value)
    return tuple(value)


def every_move(state: GameState) -> list[int]:
    """Every move of a fresh game's board: the legal moves at the start and
    after each first move (where a swap becomes legal)."""
    moves = set(state.legal_moves())
    for first in state.legal_moves():
        state.push(first)
        moves.update(state.legal_moves())
        state.pop()
    return sorted(moves)


def has_name(state: GameState, move: Any) -> bool:
    """Whether ``move`` has a notation in this game (legal or not)."""
    try:
        state.move_to_text(move)
    except GameError:
        return False
    return True


# -- the checks of one position ---------------------------------------------------
def check_legal_moves(state: GameState) -> list[int]:
    """The legal moves, sorted and unique; the game is over exactly when
    there are none, and then its outcome says who won and why."""
    legal = state.legal_moves()
    assert all(type(move) is int for move in legal)
    assert legal == sorted(set(legal))
    outcome = state.outcome()
    assert state.is_over() == (outcome is not None) == (legal == [])
    if outcome is not None:
        assert isinstance(outcome, Outcome) and outcome.winner in (FIRST, SECOND, None)
        assert isinstance(outcome.reason, str) and outcome.reason
    assert state.turn == len(state.moves) % 2
    return legal


def check_notation(state: GameState, legal: list[int], loose: bool = False) -> None:
    """Each move has its own name, which reads back as the move (``loose``:
    in capitals and between spaces too)."""
    texts = [state.move_to_text(move) for move in legal]
    assert len(set(texts)) == len(texts)
    assert [state.parse_move(text) for text in texts] == legal
    if loose:
        assert [state.parse_move(f" {text.upper()} ") for text in texts] == legal


def check_branch(state: GameState, move: int, full: bool = True) -> None:
    """``move`` played from copies of ``state``: the checked path (by int,
    and when ``full`` by text) and the unchecked path agree; the copies
    leave ``state`` alone; undo restores ``state`` exactly."""
    before = internals(state)
    checked, unchecked = state.copy(), state.copy()
    assert internals(checked) == before and checked == state and checked is not state
    assert checked.play(move) == move
    unchecked.push(move)
    assert internals(checked) == internals(unchecked) and checked == unchecked
    if full:
        by_text = state.copy()
        assert by_text.play(state.move_to_text(move)) == move
        assert internals(by_text) == internals(unchecked)
    assert internals(state) == before
    assert unchecked.pop() == move
    assert internals(unchecked) == before and unchecked == state


def check_save(state: GameState) -> None:
    """The JSON save holds the game, its settings and its moves in notation,
    and loading it replays them into exactly this state."""
    saved = json.loads(json.dumps(state.to_dict()))
    assert saved == {"version": SAVE_VERSION, "game": state.game, "settings": state.settings(),
                     "moves": state.move_texts()}
    rebuilt = type(state).from_dict(saved)
    assert internals(rebuilt) == internals(state) and rebuilt == state
    assert rebuilt.outcome() == state.outcome()
    assert rebuilt.legal_moves() == state.legal_moves()


def check_refusals(state: GameState, illegal: list[Any]) -> None:
    """Illegal moves and garbage text raise the core's errors, which name
    the input and the position, and change nothing."""
    before = internals(state)
    over = state.is_over()
    position = state.position_text()
    for move in illegal:
        assert not state.is_legal(move)
        with pytest.raises(IllegalMoveError) as error:
            state.play(move)
        assert isinstance(error.value, GameError) and isinstance(error.value, ValueError)
        assert error.value.position == position
        if over:
            assert error.value.why == "the game is over"
        elif not has_name(state, move):
            assert error.value.why == "no such cell"
    for text in GARBAGE:
        try:
            state.play(text)
        except NotationError as error:
            assert error.text == text and repr(text) in str(error)
        else:
            raise AssertionError(f"{text!r} was played")
    assert internals(state) == before


def check_position(state: GameState, legal: list[int], candidates: range, rng: random.Random) -> None:
    """The full check of one position: notation, ``is_legal``, the save,
    several moves played every way, refusals."""
    check_notation(state, legal)
    assert [move for move in candidates if state.is_legal(move)] == legal
    check_save(state)
    # The first move, the last (where a swap sits) and two more.
    tried = legal if len(legal) <= 4 else {legal[0], legal[-1], *rng.sample(legal, 2)}
    for move in tried:
        check_branch(state, move)
        if len(state.moves) == 1:  # the saves of second moves, a swap among them
            child = state.copy()
            child.push(move)
            check_save(child)
    illegal = sorted(set(candidates) - set(legal))  # never empty: it holds -2 and -1
    check_refusals(state, [rng.choice(illegal), candidates[0], candidates[-1], rng.choice(NOT_MOVES)])


# -- random games ---------------------------------------------------------------------
def test_each_game_is_registered_under_its_name():
    for name, cls in GAME_CLASSES.items():
        assert cls.game == name
        assert issubclass(cls, GameState)


@pytest.mark.parametrize("name, choice", CASES)
def test_the_start(name, choice):
    state = new_game(name, choice)
    assert state.moves == [] and state.turn == FIRST and state.outcome() is None
    assert state.settings() == type(state).from_settings(state.settings()).settings()
    for key, value in choice.items():
        assert state.settings()[key] == value
    moves = every_move(state)
    check_notation(state, moves, loose=True)
    # Any other int with a name (Hex's swap with the rule off) is a move of
    # this board too: its name reads back as itself.
    for move in range(-2, moves[-1] + 3):
        if has_name(state, move):
            assert state.parse_move(state.move_to_text(move)) == move
    for bad in (-1, 10**6, "a1", *NOT_MOVES):
        with pytest.raises(GameError):
            state.move_to_text(bad)
        assert not state.is_legal(bad)
    assert internals(state) == internals(new_game(name, choice))
    with pytest.raises(TypeError):  # a state changes: it must not be a dict key
        hash(state)


#: About how many positions of a random game beyond its first two get the
#: full check (a board of N cells: every N // FULL_CHECKS-th ply), which
#: keeps the big boards fast; the cheap checks run at every ply.
FULL_CHECKS = 12
#: Boards of up to this many cells, where games end soon, play three games
#: per setting; bigger ones one.
SMALL_BOARD = 30


def _games(name: str, choice: dict[str, Any]) -> range:
    return range(3 if len(new_game(name, choice).legal_moves()) <= SMALL_BOARD else 1)


@pytest.mark.parametrize("name, choice, seed", [
    pytest.param(*case.values, seed, id=f"{case.id}-{seed}") for case in CASES for seed in _games(*case.values)
])
def test_random_games(name, choice, seed):
    """A random game to its end and back by undo, checked all the way."""
    rng = random.Random(f"{name} {choice} {seed}")
    state = new_game(name, choice)
    candidates = range(-2, every_move(state)[-1] + 3)
    stride = max(1, len(state.legal_moves()) // FULL_CHECKS)
    history = [internals(state)]
    while True:
        legal = check_legal_moves(state)
        if len(state.moves) < 2 or len(state.moves) % stride == 0 or not legal:
            check_position(state, legal, candidates, rng)
        if not legal:
            break
        move = rng.choice(legal)
        check_branch(state, move, full=False)
        previous = state.copy()
        state.play(move)
        assert internals(previous) == history[-1]  # the copy did not follow
        history.append(internals(state))
    assert not any(state.is_legal(move) for move in candidates)
    check_refusals(state, NOT_MOVES + rng.sample(candidates, 5))
    played = list(state.moves)
    while state.moves:
        assert state.pop() == played[len(state.moves)]
        history.pop()
        assert internals(state) == history[-1]
        assert not state.is_over()  # no game goes on after its end
    assert internals(state) == internals(new_game(name, choice))


# -- garbage notation ----------------------------------------------------------------
def _midgame(name: str) -> GameState:
    """Three moves into a game on the biggest board listed for ``name``."""
    state = new_game(name, SETTINGS.get(name, [{}])[-1])
    rng = random.Random(name)
    for _ in range(3):
        state.play(rng.choice(state.legal_moves()))
    return state


NOTATION_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCSW0123456789 -_\t"


@pytest.mark.parametrize("name", list(GAME_CLASSES))
@settings(max_examples=60, deadline=None)
@given(text=st.one_of(st.text(NOTATION_CHARACTERS, max_size=6), st.text(max_size=8)))
def test_any_text_is_a_move_or_a_notation_error(name, text):
    state = _midgame(name)
    before = internals(state)
    try:
        move = state.parse_move(text)
    except NotationError as error:
        assert repr(text) in str(error)
        with pytest.raises(NotationError):
            state.play(text)
    else:
        assert state.parse_move(state.move_to_text(move)) == move
        if state.is_legal(move):
            assert state.play(text) == move
            state.pop()
        else:
            with pytest.raises(IllegalMoveError) as error:
                state.play(text)
            assert error.value.move_text == text
    assert internals(state) == before


@pytest.mark.parametrize("name", list(GAME_CLASSES))
@pytest.mark.parametrize("thing", [None, 5, b"a1", ["a1"]])
def test_parse_move_refuses_what_is_not_text(name, thing):
    with pytest.raises(NotationError):
        new_game(name, {}).parse_move(thing)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", list(GAME_CLASSES))
def test_bad_settings_are_save_errors(name):
    for bad in ([], None, "{}", {"no such setting": 1}):
        with pytest.raises(SaveError):
            GAME_CLASSES[name].from_settings(bad)  # type: ignore[arg-type]


# -- perft ----------------------------------------------------------------------------------
def bulk_perft(state: GameState, depth: int) -> int:
    """``perft`` counting the last ply's moves instead of playing them."""
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.push(move)
        total += bulk_perft(state, depth - 1)
        state.pop()
    return total


@pytest.mark.parametrize("name, choice, opening, counts", [
    pytest.param(name, choice, opening, counts, id=f"{case_id(name, choice)}-after{len(opening)}")
    for name, choice, opening, counts in PERFT if name in GAME_CLASSES
])
def test_perft(name, choice, opening, counts):
    state = new_game(name, choice)
    for text in opening:
        state.play(text)
    before = internals(state)
    # The core's own perft where it is quick, the bulk count beyond.
    assert [perft(state, depth) for depth in range(min(len(counts), 4))] == counts[:4]
    assert [bulk_perft(state, depth) for depth in range(len(counts))] == counts
    assert internals(state) == before
