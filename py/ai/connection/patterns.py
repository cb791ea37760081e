"""Local patterns of Hex and Y cells, and the move priors learned from them.

A cell's *pattern* is what lies on the twelve cells around it: its six
neighbours (the first ring, clockwise) and the six cells a bridge away (the
far cell of each pair of neighbouring neighbours). Each of those is one of
``EMPTY``, ``MINE`` or ``THEIRS`` (a stone of the side to move or of the
opponent) or, off the board, ``MY_EDGE`` or ``THEIR_EDGE`` (the edge it lies
beyond, by who owns it; in Y every edge belongs to both players and counts
as ``MY_EDGE``). The twelve states, in base 5, make the pattern's number.

Patterns are taken from the side to move's point of view and up to the
symmetries that keep what the states mean, so that one weight serves every
place a shape occurs:

- Hex: the half turn (it maps each player's edges onto themselves); a
  white mover's board is first mirrored across the long diagonal (a
  transpose, which maps white's edges onto black's), so every pattern reads
  as for black, joining top and bottom.
- Y: all twelve symmetries of a cell's hexagon (every edge is everyone's).

The number of a pattern is the smallest over its symmetric images
(``canonical``); ``PatternTables`` precomputes, per board size, each
cell's twelve surrounding cells (or the edge beyond) in the order each
symmetry reads them.

*Priors*: a move's prior strength is the product of
the weights ("gammas", Coulom's generalised Bradley-Terry model, fitted by
minorization-maximization in ``tools/train_patterns.py``) of its features:
its pattern, and how it lies to the last move (``LAST_NEAR``: a neighbour,
``LAST_BRIDGE``: a bridge away, ``LAST_FAR``: neither). A move's share of
the summed strengths of all moves is the probability that the strong
player whose games made the weights plays it there. The search reads
them through ``BoardPriors`` (``board_priors``: the committed weights,
``hex_priors.json`` and ``y_priors.json`` beside this module).

Pure standard library: it runs in the browser's Pyodide.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from operator import itemgetter, mul

from core.y import row_col

from .. import engine_data

EMPTY, MINE, THEIRS, MY_EDGE, THEIR_EDGE = range(5)
STATES = 5
#: Cells around a cell: six neighbours, then six bridge cells.
RING = 12

#: How a move lies to the last move (the feature group after the pattern).
LAST_NEAR, LAST_BRIDGE, LAST_FAR = range(3)

#: The six neighbour offsets (row, column), clockwise; the bridge cell
#: ``i`` lies beyond neighbours ``i`` and ``i + 1``.
HEX_RING = ((-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1))
Y_RING = ((-1, -1), (-1, 0), (0, 1), (1, 1), (1, 0), (0, -1))


def _around(ring: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The twelve offsets: the ring, then each pair's bridge cell."""
    bridges = tuple((ring[i][0] + ring[(i + 1) % 6][0], ring[i][1] + ring[(i + 1) % 6][1]) for i in range(6))
    return tuple(ring) + bridges


def _rotation(steps: int) -> tuple[int, ...]:
    """The permutation of the twelve places under a turn by ``steps``
    sixths: place ``k`` of the turned pattern reads place ``perm[k]``."""
    return tuple((k + steps) % 6 for k in range(6)) + tuple(6 + (k + steps) % 6 for k in range(6))


def _reflection() -> tuple[int, ...]:
    """A mirror image: neighbour ``k`` <-> ``5 - k``; bridge ``k`` (between
    neighbours k and k+1) <-> bridge ``4 - k`` (between 4 - k and 5 - k)."""
    return tuple(5 - k for k in range(6)) + tuple(6 + (4 - k) % 6 for k in range(6))


def _compose(first: tuple[int, ...], then: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(first[then[k]] for k in range(RING))


#: Hex: identity and the half turn. Y: the twelve symmetries of a hexagon.
HEX_SYMMETRIES = (_rotation(0), _rotation(3))
Y_SYMMETRIES = tuple(_rotation(s) for s in range(6)) + tuple(_compose(_reflection(), _rotation(s)) for s in range(6))
#: Hex's transpose (row, col) -> (col, row) as a permutation of the places
#: (it maps the offset list onto itself, mirrored).
HEX_TRANSPOSE = _reflection()


def number(states: Sequence[int]) -> int:
    """The pattern number of twelve states (place 0 the lowest digit)."""
    value = 0
    for state in reversed(states):
        value = value * STATES + state
    return value


def states_of(value: int) -> list[int]:
    """The twelve states of a pattern number (``number``'s inverse)."""
    out = []
    for _ in range(RING):
        value, state = divmod(value, STATES)
        out.append(state)
    return out


def canonical(states: Sequence[int], symmetries: Sequence[tuple[int, ...]]) -> int:
    """The smallest number among the symmetric images of ``states``."""
    return min(number([states[perm[k]] for k in range(RING)]) for perm in symmetries)


class PatternTables:
    """One game and board size's tables. ``places[cell]``: the twelve
    surrounding cells (an index, or ``-1 - edge`` beyond the board, where
    edge 0 is the first player's and 1 the second's; ``-3`` beyond a Hex
    corner, read as the opponent's edge by either player; in Y every edge
    is both players', code ``-1``). ``near[cell]``/``bridge[cell]``: the cells
    a neighbour / a bridge away."""

    def __init__(self, game: str, size: int) -> None:
        if game not in ("hex", "y"):
            raise ValueError(f"no patterns for {game!r}")
        self.game, self.size = game, size
        if game == "hex":
            coords = [(row, col) for row in range(size) for col in range(size)]
            offsets = _around(HEX_RING)
            self.symmetries: tuple[tuple[int, ...], ...] = HEX_SYMMETRIES
        else:
            coords = list(row_col(size))
            offsets = _around(Y_RING)
            self.symmetries = Y_SYMMETRIES
        index = {rc: i for i, rc in enumerate(coords)}
        places = []
        for row, col in coords:
            here = []
            for dr, dc in offsets:
                at = (row + dr, col + dc)
                if at in index:
                    here.append(index[at])
                elif game == "y":
                    here.append(-1)
                else:  # beyond a row edge: black's; a column edge: white's; beyond both: -3
                    rows_out, cols_out = not 0 <= at[0] < size, not 0 <= at[1] < size
                    here.append(-3 if rows_out and cols_out else -1 if rows_out else -2)
            places.append(tuple(here))
        self.places = tuple(places)
        self.cells = len(coords)
        self.near = tuple(frozenset(p for p in here[:6] if p >= 0) for here in self.places)
        self.bridge = tuple(frozenset(p for p in here[6:] if p >= 0) for here in self.places)

    def states(self, owners: Sequence[int], cell: int, mover: int) -> list[int]:
        """The twelve states around ``cell`` for ``mover`` (0 or 1) on a
        board of owners (-1 empty, else the player), in the frame patterns
        are numbered in (a white Hex mover's pattern transposed)."""
        out = []
        for place in self.places[cell]:
            if place >= 0:
                owner = owners[place]
                out.append(EMPTY if owner < 0 else MINE if owner == mover else THEIRS)
            elif self.game == "y":
                out.append(MY_EDGE)
            else:  # beyond a corner (both edges) counts as neither player's help
                out.append(MY_EDGE if -1 - place == mover else THEIR_EDGE)
        if self.game == "hex" and mover == 1:
            out = [out[HEX_TRANSPOSE[k]] for k in range(RING)]
        return out

    def pattern(self, owners: Sequence[int], cell: int, mover: int) -> int:
        """``cell``'s canonical pattern number for ``mover``."""
        return canonical(self.states(owners, cell, mover), self.symmetries)

    def last_relation(self, cell: int, last: int | None) -> int:
        """How ``cell`` lies to the last move (``LAST_*``)."""
        if last is None or last < 0:
            return LAST_FAR
        if cell in self.near[last]:
            return LAST_NEAR
        if cell in self.bridge[last]:
            return LAST_BRIDGE
        return LAST_FAR


_TABLES: dict[tuple[str, int], PatternTables] = {}


def tables(game: str, size: int) -> PatternTables:
    """The tables for one game and size (built once)."""
    key = (game, size)
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = PatternTables(game, size)
    return found


class Priors:
    """Learned weights: ``patterns`` (pattern number -> gamma), ``rare``
    (the gamma of every other pattern) and ``last`` (one gamma per
    ``LAST_*``), as ``tools/train_patterns.py`` writes them."""

    def __init__(self, patterns: Mapping[int, float], last: Sequence[float], rare: float = 1.0) -> None:
        self.patterns = dict(patterns)
        self.last = tuple(last)
        self.rare = rare

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Priors:
        """The priors from the trainer's JSON object."""
        return cls({int(k): float(v) for k, v in data["patterns"].items()},  # type: ignore[attr-defined]
                   [float(v) for v in data["last"]], float(data["rare"]))  # type: ignore[attr-defined,arg-type]

    def strengths(self, table: PatternTables, owners: Sequence[int], mover: int, last: int | None,
                  cells: Sequence[int]) -> list[float]:
        """Each of ``cells``' strength (the product of its features' gammas)."""
        get, rare = self.patterns.get, self.rare
        return [get(table.pattern(owners, cell, mover), rare) * self.last[table.last_relation(cell, last)]
                for cell in cells]

    def probabilities(self, table: PatternTables, owners: Sequence[int], mover: int, last: int | None,
                      cells: Sequence[int]) -> list[float]:
        """Each of ``cells``' share of the summed strength (they add to 1)."""
        strengths = self.strengths(table, owners, mover, last, cells)
        total = sum(strengths)
        return [value / total for value in strengths]


#: The gammas by raw pattern number, for a black mover and for a white one.
Gammas = tuple[dict[int, float], dict[int, float]]


def expanded_gammas(priors: Priors, symmetries: Sequence[tuple[int, ...]]) -> Gammas:
    """Each pattern's gamma under the number of every symmetric image of it,
    for a black mover, and for a white one with the stone colours swapped.
    An image's number is the pattern's states weighted by the powers of
    ``STATES`` the symmetry moves them to (``number`` of the permuted
    states, without building them)."""
    swap = (EMPTY, THEIRS, MINE, MY_EDGE, THEIR_EDGE)  # a white mover reads the board's colours swapped
    weights = []  # per symmetry, per place: the power of STATES its state moves to
    for perm in symmetries:
        power = [0] * RING
        for k in range(RING):
            power[perm[k]] = STATES ** k
        weights.append(tuple(power))
    black: dict[int, float] = {}
    white: dict[int, float] = {}
    for value, gamma in priors.patterns.items():
        states = states_of(value)
        swapped = [swap[s] for s in states]
        for places in weights:
            black[sum(map(mul, states, places))] = gamma
            white[sum(map(mul, swapped, places))] = gamma
    return black, white


class BoardPriors:
    """``Priors`` read straight off the search's boards (``ai.connection``:
    ``0`` empty, ``1``/``2`` the players' stones), fast enough for every
    node of the tree.

    A cell's raw pattern number is a weighted sum of the board values on
    its on-board places plus a constant for the edges beyond it, with the
    weights of the mover's frame (a white Hex mover's transposed); the
    table of gammas is expanded to every symmetric image of each pattern,
    and for a white mover to the images with the stone colours swapped, so
    that no canonical form is taken during the search. About 1 us a cell
    under CPython, against ``PatternTables.pattern``'s 4."""

    def __init__(self, priors: Priors, table: PatternTables, gammas: Gammas | None = None) -> None:
        self.table = table
        self.rare = priors.rare
        self.last = priors.last
        #: ``expanded_gammas(priors, table.symmetries)``, which any board
        #: size of the game shares (``board_priors`` passes them in).
        self.gammas = gammas or expanded_gammas(priors, table.symmetries)
        #: Per mover (0, 1), per cell: (the edges' constant, a getter of the
        #: on-board places' values, their weights).
        self.reads: tuple[list[tuple[int, Callable[[Sequence[int]], tuple[int, ...]], tuple[int, ...]]], ...] = ([], [])
        transpose = table.game == "hex"
        for mover in (0, 1):
            for cell in range(table.cells):
                base = 0
                places, weights = [], []
                for k, place in enumerate(table.places[cell]):
                    weight = STATES ** (HEX_TRANSPOSE[k] if transpose and mover == 1 else k)
                    if place >= 0:
                        places.append(place)
                        weights.append(weight)
                    elif table.game == "y" or -1 - place == mover:
                        base += MY_EDGE * weight
                    else:
                        base += THEIR_EDGE * weight
                getter = itemgetter(*places) if len(places) > 1 else (lambda board, p=places[0]: (board[p],))
                self.reads[mover].append((base, getter, tuple(weights)))

    def strengths(self, board: Sequence[int], mover: int, last: int | None, cells: Sequence[int]) -> list[float]:
        """Each of ``cells``' strength for ``mover`` (0 or 1) on a search
        board, ``last`` the cell last played (or None)."""
        reads = self.reads[mover]
        get, rare = self.gammas[mover].get, self.rare
        out = []
        for cell in cells:
            base, getter, weights = reads[cell]
            out.append(get(base + sum(map(mul, getter(board), weights)), rare))
        if last is not None and 0 <= last < self.table.cells:
            near, bridge = self.table.near[last], self.table.bridge[last]
            g_near, g_bridge, g_far = self.last
            out = [value * (g_near if cell in near else g_bridge if cell in bridge else g_far)
                   for value, cell in zip(out, cells)]
        else:
            far = self.last[LAST_FAR]
            out = [value * far for value in out]
        return out

    def probabilities(self, board: Sequence[int], mover: int, last: int | None,
                      cells: Sequence[int]) -> list[float]:
        """Each of ``cells``' share of their summed strength."""
        strengths = self.strengths(board, mover, last, cells)
        total = sum(strengths) or 1.0
        return [value / total for value in strengths]


#: The committed weights, per game: a file beside this module, made by
#: tools/train_patterns.py (see docs/priors.md).
PRIOR_FILES = {"hex": "hex_priors.json", "y": "y_priors.json"}
_BOARD_PRIORS: dict[tuple[str, int], BoardPriors | None] = {}


@cache
def committed_priors(game: str) -> tuple[Priors, Gammas] | None:
    """The committed priors of a game and their expanded gammas, read and
    expanded once for every board size (the AI worker does it before it
    keeps its snapshot: py/worker.py's warm_up); None for a game without
    them."""
    name = PRIOR_FILES.get(game)
    if name is None:
        return None
    priors = Priors.from_dict(json.loads(engine_data(__package__ or "ai.connection", name)))
    return priors, expanded_gammas(priors, HEX_SYMMETRIES if game == "hex" else Y_SYMMETRIES)


def board_priors(game: str, size: int) -> BoardPriors | None:
    """The committed priors for one game and board size, built once; None
    for a game without them."""
    key = (game, size)
    if key not in _BOARD_PRIORS:
        committed = committed_priors(game)
        _BOARD_PRIORS[key] = None if committed is None else BoardPriors(*committed[:1], tables(game, size), committed[1])
    return _BOARD_PRIORS[key]
