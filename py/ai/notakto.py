"""Perfect Notakto through its misère quotient, and weaker human-like levels.

Plambeck and Whitehead ("The Secrets of Notakto: Winning at X-only
Tic-Tac-Toe", 2013) showed that every 3x3 Notakto board has a value in the
18-element commutative monoid

    Q = < a, b, c, d | a^2 = 1, b^3 = b, b^2 c = c, c^3 = a c^2,
                       b^2 d = d, c d = a d, d^2 = c^2 >

such that a position of any number of boards is lost for the player to move
exactly when the product of its live boards' values lies in
P = {a, b^2, b c, c^2}. Evaluating a position is then K table lookups and
K - 1 multiplications.

Nothing here is copied from a table. At import the monoid is built from its
presentation, and the value of every one of the 512 board masks is derived
from the rule that makes misère quotients work: a board G whose options have
values S, added to any position H of value y whose options have values T, is
lost for the player to move iff no option of either part is lost, i.e.

    x y in P  <=>  (s y not in P for every s in S) and (x t not in P for every t in T)

where x is G's value. A board's value therefore depends only on the set of
its options' values; it is searched for (simplest element first) so that the
rule holds against every (y, T) that sums of boards can produce. The check
runs over the whole finite closure of such pairs, so passing it proves the
values right for any number of boards; the tests also confirm them against
brute-force search.

Levels (``LEVELS``, weakest first). At each move a level "slips" with the
given probability and plays a plausible move at random (one that closes no
board, unless every move does) instead of the perfect one. Once the live
boards have at most ``horizon`` empty cells left it calculates the ending
like a person would and slips less:

    ===========  =========  =======  ==============
    level        mistakes   horizon  in the ending
    ===========  =========  =======  ==============
    beginner     80 %       3        50 %
    casual       50 %       5        20 %
    strong       25 %       8        0 %
    perfect      0 %        -        0 %
    ===========  =========  =======  ==============

A slip is only a mistake when the random move happens to be a losing one, so
the rate of actual errors is lower than the table's. Against a model player
who moves at random (never closing a board needlessly) but calculates the
last six cells, on three boards with each side starting half the games, the
levels win about 50 %, 70 %, 85 % and 100 % of games. In a lost position the
perfect level does not give up: it picks the move that gives the opponent the
most room to go wrong (see ``_tricky_moves``).

``Engine.evaluate`` needs no search either: every position is proven, a
won one with a safe move (reason ``safe``), a lost one with the perfect
level's most stubborn move (``proven``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from typing import NamedTuple

from core.notakto import CELLS, HAS_LINE, NotaktoState

from .search import LINE_PLIES, LOSS, WIN, Engine as BaseEngine, Judgement, Line

# -- the monoid -----------------------------------------------------------------
GENERATORS = "abcd"

#: The presentation's relations as pairs of exponent vectors (a, b, c, d).
RELATIONS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = (
    ((2, 0, 0, 0), (0, 0, 0, 0)),  # a^2 = 1
    ((0, 3, 0, 0), (0, 1, 0, 0)),  # b^3 = b
    ((0, 2, 1, 0), (0, 0, 1, 0)),  # b^2 c = c
    ((0, 0, 3, 0), (1, 0, 2, 0)),  # c^3 = a c^2
    ((0, 2, 0, 1), (0, 0, 0, 1)),  # b^2 d = d
    ((0, 0, 1, 1), (1, 0, 0, 1)),  # c d = a d
    ((0, 0, 0, 2), (0, 0, 2, 0)),  # d^2 = c^2
)

# Words are exponent vectors inside this box: it holds both sides of every
# relation and the product of any two normal forms (at most a b^2 c^2 d).
_BOX = (2, 4, 4, 2)


def _shortlex(vector: tuple[int, ...]) -> tuple[int, ...]:
    """Simplest first: fewer letters, then earlier letters (b before d)."""
    return (sum(vector), *reversed(vector))


def _build_monoid() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Normal forms and multiplication table of Q, from the presentation.

    Words are exponent vectors in a box; applying every relation wherever it
    fits and merging the two sides (union-find) leaves one class per element.
    A class's normal form is its shortlex-least word."""
    words = list(itertools.product(*(range(top + 1) for top in _BOX)))
    index = {word: i for i, word in enumerate(words)}
    parent = list(range(len(words)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for word in words:
        for left, right in RELATIONS:
            if all(w >= low for w, low in zip(word, left)):
                other = tuple(w - low + r for w, low, r in zip(word, left, right))
                if other in index:
                    parent[find(index[word])] = find(index[other])
    classes: dict[int, list[tuple[int, ...]]] = {}
    for word in words:
        classes.setdefault(find(index[word]), []).append(word)
    forms = {root: min(members, key=_shortlex) for root, members in classes.items()}
    normal = sorted(forms.values(), key=_shortlex)
    number = {form: i for i, form in enumerate(normal)}
    element_of = {word: number[forms[find(index[word])]] for word in words}
    table = tuple(
        tuple(element_of[tuple(p + q for p, q in zip(x, y))] for y in normal) for x in normal
    )
    return tuple(normal), table


#: Element i's normal form as an exponent vector over (a, b, c, d).
NORMAL_FORMS, MUL = _build_monoid()
IDENTITY = 0  # the empty word sorts first


def element_name(element: int) -> str:
    """Normal form as text: ``"1"``, ``"a"``, ``"b^2"``, ``"abc^2"`` ..."""
    parts = [g + (f"^{e}" if e > 1 else "") for g, e in zip(GENERATORS, NORMAL_FORMS[element]) if e]
    return "".join(parts) or "1"


ELEMENT_NAMES: tuple[str, ...] = tuple(element_name(e) for e in range(len(NORMAL_FORMS)))


def element(name: str) -> int:
    """The element with this normal-form name (``"b^2"``)."""
    return ELEMENT_NAMES.index(name)


#: The values of positions lost for the player to move.
P_POSITIONS: frozenset[int] = frozenset(element(n) for n in ("a", "b^2", "bc", "c^2"))
_P_BITS = sum(1 << e for e in P_POSITIONS)


# -- board values -----------------------------------------------------------------
_TIMES_CACHE: dict[tuple[int, int], int] = {}


def _times(elements: int, y: int) -> int:
    """{t * y for t in the set}, sets of elements as bitmasks (memoised: the
    derivation asks for the same few sets again and again)."""
    key = (elements, y)
    out = _TIMES_CACHE.get(key)
    if out is None:
        out = 0
        while elements:
            low = elements & -elements
            out |= 1 << MUL[low.bit_length() - 1][y]
            elements ^= low
        _TIMES_CACHE[key] = out
    return out


class _Kind(NamedTuple):
    """What the rule needs to know of a board or sum: value and option values."""

    value: int
    options: int  # bitmask of elements


#: ``_P_ROWS[x]``: bitmask of the y with x * y in P.
_P_ROWS = tuple(sum(1 << y for y, xy in enumerate(row) if xy in P_POSITIONS) for row in MUL)
_ALL = (1 << len(MUL)) - 1
_QUIET_CACHE: dict[int, int] = {}


def _quiet_against(options: int) -> int:
    """Bitmask of the y for which no option value s has s * y in P."""
    out = _QUIET_CACHE.get(options)
    if out is None:
        out, rest = _ALL, options
        while rest:
            low = rest & -rest
            out &= ~_P_ROWS[low.bit_length() - 1]
            rest ^= low
        _QUIET_CACHE[options] = out
    return out


def _rule_holds(g: _Kind, h: _Kind) -> bool:
    """The quotient's defining rule for the sum g + h (see module doc):
    lost iff no option of g or h is lost."""
    lost = _P_ROWS[g.value] >> h.value & 1
    no_lost_option = _quiet_against(g.options) >> h.value & _quiet_against(h.options) >> g.value & 1
    return lost == no_lost_option


def _add(g: _Kind, h: _Kind) -> _Kind:
    return _Kind(MUL[g.value][h.value], _times(g.options, h.value) | _times(h.options, g.value))


_EMPTY_SUM = _Kind(IDENTITY, 0)  # no live board: the player to move has won


def _derive_board_values() -> tuple[int, ...]:
    """The value of each of the 512 board masks (closed boards: identity).

    Boards are visited with the fullest first, so their options are known.
    A board whose option-value set was met before shares that value. A new
    set is assigned the simplest element for which the rule holds against
    the closure of every kind seen so far. A choice that a later board
    contradicts is undone: the fuller boards alone cannot tell some elements
    apart (b from d, say); only the centre and empty boards settle it."""
    order = sorted((m for m in range(1 << CELLS) if not HAS_LINE[m]), key=lambda m: -m.bit_count())
    values = [IDENTITY] * (1 << CELLS)

    def option_set(mask: int) -> int:
        return sum(
            {1 << values[mask | 1 << cell] for cell in range(CELLS) if not mask >> cell & 1}
        )

    def solve(start: int, assigned: dict[int, int], kinds: list[_Kind], closure: set[_Kind]) -> bool:
        for i in range(start, len(order)):
            mask = order[i]
            options = option_set(mask)
            if options not in assigned:
                break
            values[mask] = assigned[options]
        else:
            return True
        for value in range(len(MUL)):
            new = _Kind(value, options)
            if not all(_rule_holds(new, kind) for kind in (_EMPTY_SUM, new, *kinds)):
                continue  # cheap filter before building the closure
            grown = _grow(closure, new)
            if all(_rule_holds(new, h) for h in grown) and all(
                _rule_holds(g, h) for g in kinds for h in grown - closure
            ):
                values[mask] = value
                if solve(i + 1, {**assigned, options: value}, [*kinds, new], grown):
                    return True
        return False

    if not solve(0, {}, [], {_EMPTY_SUM}):  # pragma: no cover - would be a bug
        raise RuntimeError("no consistent Notakto board values")
    for mask in range(1 << CELLS):
        if HAS_LINE[mask]:
            values[mask] = IDENTITY  # a closed board drops out of the product
    return tuple(values)


def _grow(closure: set[_Kind], new: _Kind) -> set[_Kind]:
    """The closure under sums, once ``new`` may be added any number of times."""
    grown = set(closure)
    frontier = set(closure)
    while frontier:
        frontier = {_add(kind, new) for kind in frontier} - grown
        grown |= frontier
    return grown


#: ``BOARD_VALUE[mask]``: the monoid value of a board holding these X.
BOARD_VALUE: tuple[int, ...] = _derive_board_values()

#: For each live mask, its empty cells with the board's value after an X there.
_CELL_VALUES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    () if HAS_LINE[mask] else tuple(
        (cell, BOARD_VALUE[mask | 1 << cell]) for cell in range(CELLS) if not mask >> cell & 1
    )
    for mask in range(1 << CELLS)
)

#: For each live mask, (value after the move, how many cells give it).
_OPTION_COUNTS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((value, sum(1 for _, v in cells if v == value)) for value in sorted({v for _, v in cells}))
    for cells in _CELL_VALUES
)


def position_value(boards: Iterable[int]) -> int:
    """Product of the boards' values (closed boards count as 1)."""
    value = IDENTITY
    for mask in boards:
        value = MUL[value][BOARD_VALUE[mask]]
    return value


def is_lost(state: NotaktoState) -> bool:
    """True when the player to move loses against perfect play."""
    return position_value(state.boards) in P_POSITIONS


def _rest_values(values: list[int]) -> list[int]:
    """For each board, the product of all the other boards' values."""
    rests = []
    for i in range(len(values)):
        rest = IDENTITY
        for j, value in enumerate(values):
            if j != i:
                rest = MUL[rest][value]
        rests.append(rest)
    return rests


def safe_moves(state: NotaktoState) -> list[int]:
    """The moves that leave the opponent lost; empty when the position is
    already lost (or over). Sorted ascending."""
    boards = state.boards
    rests = _rest_values([BOARD_VALUE[mask] for mask in boards])
    return [
        board * CELLS + cell
        for board, mask in enumerate(boards)
        for cell, value in _CELL_VALUES[mask]
        if MUL[value][rests[board]] in P_POSITIONS
    ]


def _tricky_moves(state: NotaktoState) -> list[int]:
    """In a lost position, the moves that make a human likeliest to go wrong.

    Ranked by: closes no board (keeps the game going); leaves the opponent
    the smallest fraction of replies that keep their win; leaves the most
    empty live cells (a longer game, more to calculate; this separates only
    board-closing moves, as a quiet move always leaves one cell fewer).
    Returns the moves that tie for best."""
    boards = list(state.boards)
    ranked: list[tuple[tuple[int, float, int], int]] = []
    for board, mask in enumerate(boards):
        for cell, _ in _CELL_VALUES[mask]:
            after = boards.copy()
            after[board] = mask | 1 << cell
            values = [BOARD_VALUE[m] for m in after]
            rests = _rest_values(values)
            replies = safe = 0
            for other, m in enumerate(after):
                for value, count in _OPTION_COUNTS[m]:
                    replies += count
                    if MUL[value][rests[other]] in P_POSITIONS:
                        safe += count
            closes = int(HAS_LINE[after[board]])
            ranked.append(((closes, safe / replies if replies else 1.0, -replies), board * CELLS + cell))
    best = min(key for key, _ in ranked)
    return [move for key, move in ranked if key == best]


def _plausible_moves(state: NotaktoState) -> list[int]:
    """What a person might play without calculating: no board-closing move
    unless there is nothing else."""
    moves = state.legal_moves()
    boards = state.boards
    quiet = [m for m in moves if not HAS_LINE[boards[m // CELLS] | 1 << m % CELLS]]
    return quiet or moves


class Level(NamedTuple):
    """How often a level slips (see the module doc)."""

    mistake_rate: float  # chance per move of a random plausible move
    horizon: int  # at most this many empty live cells: the ending is calculated
    ending_rate: float  # the chance per move once in the ending


LEVEL_SETTINGS: dict[str, Level] = {
    "beginner": Level(0.80, 3, 0.50),
    "casual": Level(0.50, 5, 0.20),
    "strong": Level(0.25, 8, 0.0),
    "perfect": Level(0.0, 0, 0.0),
}
LEVELS: list[str] = list(LEVEL_SETTINGS)


def mistake_rate(state: NotaktoState, level: str) -> float:
    """The chance that ``level`` slips on this move."""
    return _slip_chance(state, LEVEL_SETTINGS[level])


def _slip_chance(state: NotaktoState, settings: Level) -> float:
    empty_live = sum(len(_CELL_VALUES[mask]) for mask in state.boards)
    return settings.ending_rate if empty_live <= settings.horizon else settings.mistake_rate


def perfect_move(state: NotaktoState, rng: random.Random) -> int:
    """A winning move when there is one, else the trickiest losing move."""
    return rng.choice(safe_moves(state) or _tricky_moves(state))


class Engine(BaseEngine[NotaktoState]):
    """The Notakto player. It searches nothing and keeps nothing: every
    level answers at once from the position (``move_time`` is not needed)."""

    level_settings = LEVEL_SETTINGS

    def seed_context(self, state: NotaktoState) -> str:
        # The text Notakto's seeded games have always used, so they replay as before.
        return f"notakto|{state.board_count}"

    def move(self, state: NotaktoState, settings: Level, seed: int | None, move_time: float | None) -> int:
        """A slip at the level's rate (see the module doc), else the perfect move."""
        rng = self.rng(state, seed)
        if rng.random() < _slip_chance(state, settings):
            return rng.choice(_plausible_moves(state))
        return perfect_move(state, rng)

    def judge(self, state: NotaktoState, seconds: float, seed: int | None, iterations: int | None) -> Judgement:
        """Always proven, at once, from the misere quotient: a won position's
        verdict is a safe move (chance 1); a lost one's is the perfect
        level's most stubborn move (chance 0). Nothing is searched."""
        rng = self.rng(state, seed)
        safe = safe_moves(state)
        move = rng.choice(safe) if safe else rng.choice(_tricky_moves(state))
        only = len(state.legal_moves()) == 1
        reason = "only_move" if only else "safe" if safe else "proven"
        return Judgement(move, reason, 1.0 if safe else 0.0, WIN if safe else LOSS, None, 0)

    def move_chance(self, state: NotaktoState, move: int) -> float | None:
        """Exact: 1 for a safe move (it leaves the opponent lost), else 0."""
        return 1.0 if move in safe_moves(state) else 0.0

    def lines(self, state: NotaktoState, count: int = 3) -> list[Line]:
        """Exact, with no tree: the safe moves first (proven wins), then the
        others (proven losses), the most stubborn of them first; each with
        perfect play after it to the end, the loser's moves the most
        stubborn, as far as ``LINE_PLIES``."""
        safe = safe_moves(state)
        tricky = [move for move in _tricky_moves(state) if move not in safe]
        losing = tricky + [move for move in state.legal_moves() if move not in safe and move not in tricky]
        rng = self.rng(state, 0)
        found = []
        for move in (safe + losing)[:count]:
            after = state.copy()
            after.push(move)
            line = [move]
            while not after.is_over() and len(line) < LINE_PLIES:
                reply = perfect_move(after, rng)
                after.push(reply)
                line.append(reply)
            won = move in safe
            found.append(Line(move, 1.0 if won else 0.0, WIN if won else LOSS, 0, tuple(line)))
        return found

    def heat(self, state: NotaktoState) -> dict[int, float | None]:
        """Exact: 1 for every safe move, 0 for the others."""
        safe = set(safe_moves(state))
        return {move: 1.0 if move in safe else 0.0 for move in state.legal_moves()}


#: The computer's move at ``level`` (every level answers at once).
#: Deterministic for a given seed and position.
choose_move = Engine.fresh_move
