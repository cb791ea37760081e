"""Hex: join your two edges of a rhombus of hexagons with one chain.

Black (FIRST) connects row 1 with the last row, white (SECOND) column ``a``
with the last column. Players alternately place a stone on an empty cell;
stones never move. A full board always has exactly one winner (the Hex
theorem), so there are no draws. With the swap rule on, the second player
may answer the very first stone with ``swap``: the stone changes colour and
is mirrored across the long diagonal (column c, row r -> column r, row c),
which makes it a white stone with the same relation to white's edges as the
black one had to black's; then black moves again.

Cells are ints ``row * size + col``, rows from the top, columns from the
left; ``SWAP`` is ``size * size``. Notation as in ``docs/gtp.md``:
column letter then row number, ``a1`` .. ``k11``, and ``swap`` (also read as
``swap-pieces``). Rows are drawn shifted half a cell further right each, so
``(r, c)`` touches ``(r, c±1)``, ``(r-1, c)``, ``(r-1, c+1)``, ``(r+1, c)``
and ``(r+1, c-1)``: ``a1`` and the last cell are the acute corners, the
other two the obtuse ones. Each corner lies on two edges, one per player.

Winner detection is incremental: union-find over each player's stones,
every group's root holding a bitmask of the player's edges it touches. The
unions of each move are logged, so ``pop`` undoes them exactly without path
compression ever having to be reversed (union by size keeps trees shallow).

``ConnectionState`` is the part shared with Y (``core.y``), which differs
only in its layout, its notation and what a swap does to the stone.
"""

from __future__ import annotations

import re
from collections import deque
from functools import cache
from typing import Any, ClassVar, NamedTuple, Self

from .base import FIRST, SECOND, GameError, GameState, NotationError, Outcome, SaveError

MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 5, 19, 11
LETTERS = "abcdefghijklmnopqrs"
EMPTY = -1

# Black's edges and white's edges as bits of a group's edge mask.
TOP, BOTTOM = 1, 2  # black: row 1, last row
LEFT, RIGHT = 1, 2  # white: column a, last column


class Layout(NamedTuple):
    """A board's geometry, everything precomputed once per size.

    ``edges[player][cell]`` is the mask of ``player``'s edges the cell lies
    on; a group whose masks add up to ``goal[player]`` has won."""

    size: int
    cells: int
    neighbours: tuple[tuple[int, ...], ...]
    edges: tuple[tuple[int, ...], tuple[int, ...]]
    goal: tuple[int, int]


_CELL_RE = re.compile(r"([a-z])([0-9]{1,2})", re.IGNORECASE)
SWAP_TEXTS = ("swap", "swap-pieces")


@cache
def layout(size: int) -> Layout:
    """The Hex board of side ``size`` (cached: built once per size)."""
    def inside(row: int, col: int) -> bool:
        return 0 <= row < size and 0 <= col < size

    neighbours = tuple(
        tuple(
            (row + dr) * size + col + dc
            for dr, dc in ((-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1))  # clockwise ring
            if inside(row + dr, col + dc)
        )
        for row in range(size)
        for col in range(size)
    )
    black = tuple((TOP if row == 0 else 0) | (BOTTOM if row == size - 1 else 0)
                  for row in range(size) for _ in range(size))
    white = tuple((LEFT if col == 0 else 0) | (RIGHT if col == size - 1 else 0)
                  for _ in range(size) for col in range(size))
    return Layout(size, size * size, neighbours, (black, white), (TOP | BOTTOM, LEFT | RIGHT))


def check_size(size: Any, game: str) -> int:
    """``size`` as a valid board side, else GameError."""
    # bool is an int subclass; a size of True is a damaged save, not 1.
    if isinstance(size, bool) or not isinstance(size, int):
        raise GameError(f"the {game} board size must be an integer, not {size!r}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise GameError(f"the {game} board size must be {MIN_SIZE} to {MAX_SIZE}, not {size}")
    return size


class ConnectionState(GameState):
    """A placement game won by a chain joining edges (Hex, Y).

    Subclasses provide ``game``, ``DEFAULT_SIZE``, ``_make_layout``,
    ``cell_text``, ``_parse_cell``, ``_swap_target`` and the notation hint.
    ``moves`` doubles as the move list and, with the union log, as the undo
    stack.
    """

    DEFAULT_SIZE: ClassVar[int] = DEFAULT_SIZE
    NOTATION_HINT: ClassVar[str] = ""

    def __init__(self, size: int | None = None, swap: bool = False) -> None:
        size = check_size(self.DEFAULT_SIZE if size is None else size, self.game)
        if not isinstance(swap, bool):
            raise GameError(f"the swap setting must be true or false, not {swap!r}")
        self._layout = self._make_layout(size)
        self._swap_rule = swap
        cells = self._layout.cells
        self._owner: list[int] = [EMPTY] * cells
        self._parent: list[int] = list(range(cells))
        self._group_size: list[int] = [1] * cells
        self._reach: list[int] = [0] * cells  # edge mask, valid at roots of stones
        #: Per move, the unions it made: (absorbed root, new root, the new
        #: root's old reach). Undo replays them backwards.
        self._unions: list[tuple[tuple[int, int, int], ...]] = []
        self._winner: int | None = None
        self.moves: list[int] = []

    # -- to be provided by each game ------------------------------------------------
    @staticmethod
    def _make_layout(size: int) -> Layout:  # pragma: no cover - abstract
        raise NotImplementedError

    def cell_text(self, cell: int) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def _parse_cell(self, letter: str, number: int) -> int | None:  # pragma: no cover
        """The cell for a column letter and a row number, None if off the board."""
        raise NotImplementedError

    def _swap_target(self, cell: int) -> int:  # pragma: no cover - abstract
        """Where the first stone goes when the second player swaps."""
        raise NotImplementedError

    # -- the protocol -------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return len(self.moves) & 1

    @property
    def swap_move(self) -> int:
        """The int of the move ``swap`` (one past the last cell)."""
        return self._layout.cells

    def can_swap(self) -> bool:
        """Whether ``swap`` is legal now: the rule is on and exactly one
        stone has been played."""
        return self._swap_rule and len(self.moves) == 1

    def legal_moves(self) -> list[int]:
        if self._winner is not None:
            return []
        moves = [cell for cell, owner in enumerate(self._owner) if owner == EMPTY]
        if self.can_swap():
            moves.append(self._layout.cells)
        return moves

    def push(self, move: int) -> None:
        if move == self._layout.cells:
            self._push_swap()
            return
        player = len(self.moves) & 1
        self._place(move, player)
        owner, parent, size, reach = self._owner, self._parent, self._group_size, self._reach
        unions = []
        root = move
        for neighbour in self._layout.neighbours[move]:
            if owner[neighbour] != player:
                continue
            other = neighbour
            while parent[other] != other:
                other = parent[other]
            if other == root:
                continue
            if size[other] > size[root]:  # union by size: the bigger tree's root stays
                root, other = other, root
            unions.append((other, root, reach[root]))
            parent[other] = root
            size[root] += size[other]
            reach[root] |= reach[other]
        self._unions.append(tuple(unions))
        if reach[root] == self._layout.goal[player]:
            self._winner = player
        self.moves.append(move)

    def _place(self, cell: int, player: int) -> None:
        self._owner[cell] = player
        self._parent[cell] = cell
        self._group_size[cell] = 1
        self._reach[cell] = self._layout.edges[player][cell]

    def _push_swap(self) -> None:
        # Only ever the second move: the board holds one lone stone.
        first = self.moves[0]
        self._remove(first)
        self._place(self._swap_target(first), SECOND)
        self._unions.append(())
        self.moves.append(self._layout.cells)

    def pop(self) -> int:
        move = self.moves.pop()
        self._unions_undo(self._unions.pop())
        self._winner = None  # the game ended on its last move, if at all
        if move == self._layout.cells:
            first = self.moves[0]
            self._remove(self._swap_target(first))
            self._place(first, FIRST)
        else:
            self._remove(move)
        return move

    def _remove(self, cell: int) -> None:
        # Its unions are undone: the cell is a lone root again. Clearing the
        # edge mask too makes undo restore every list exactly.
        self._owner[cell] = EMPTY
        self._reach[cell] = 0

    def _unions_undo(self, unions: tuple[tuple[int, int, int], ...]) -> None:
        parent, size, reach = self._parent, self._group_size, self._reach
        for absorbed, root, old_reach in reversed(unions):
            parent[absorbed] = absorbed
            size[root] -= size[absorbed]
            reach[root] = old_reach

    def sketch(self, cells: dict[int, int], forced: int | None = None) -> Self:
        """This board emptied, with the stones ``cells`` (cell: FIRST or
        SECOND) on it, to draw a position while it is set up by hand. No
        game: no moves, no winner, nothing to play on (``forced`` is
        Ultimate Tic-Tac-Toe's)."""
        sketch = self.__class__(self._layout.size, self._swap_rule)
        for cell, owner in cells.items():
            sketch._place(cell, owner)
        return sketch

    def copy(self) -> Self:
        clone = self.__class__.__new__(self.__class__)
        clone._layout = self._layout
        clone._swap_rule = self._swap_rule
        clone._owner = self._owner.copy()
        clone._parent = self._parent.copy()
        clone._group_size = self._group_size.copy()
        clone._reach = self._reach.copy()
        clone._unions = self._unions.copy()
        clone._winner = self._winner
        clone.moves = self.moves.copy()
        return clone

    def outcome(self) -> Outcome | None:
        if self._winner is None:
            return None
        return Outcome(self._winner, "connection")

    def is_over(self) -> bool:
        return self._winner is not None

    def move_to_text(self, move: int) -> str:
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move <= self._layout.cells:
            raise GameError(f"{move!r} is not a move on the {self.game} board of size {self.size}")
        if move == self._layout.cells:
            return "swap"
        return self.cell_text(move)

    def parse_move(self, text: str) -> int:
        expected = f"{self.NOTATION_HINT.format(last=LETTERS[self.size - 1], size=self.size)}, or swap"
        if not isinstance(text, str):
            raise NotationError(str(text), self.game, expected)
        clean = text.strip().lower()
        if clean in SWAP_TEXTS:
            return self._layout.cells
        match = _CELL_RE.fullmatch(clean)
        cell = None if match is None else self._parse_cell(match[1], int(match[2]))
        if cell is None:
            raise NotationError(text, self.game, expected)
        return cell

    def settings(self) -> dict[str, Any]:
        return {"size": self.size, "swap": self._swap_rule}

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> Self:
        if not isinstance(settings, dict):
            raise SaveError(f"{cls.game} settings must be an object, not {type(settings).__name__}")
        unknown = sorted(str(key) for key in settings if key not in ("size", "swap"))
        if unknown:
            raise SaveError(f"unknown {cls.game} settings: {', '.join(unknown)}")
        try:
            return cls(settings.get("size", cls.DEFAULT_SIZE), settings.get("swap", False))
        except GameError as error:
            raise SaveError(str(error)) from error

    def _why_illegal(self, move: int) -> str | None:
        cells = self._layout.cells
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move <= cells:
            return "no such cell"
        if move == cells:
            if not self._swap_rule:
                return "the swap rule is off"
            if len(self.moves) != 1:
                return "swap is only allowed as the second move"
            return None
        if self._owner[move] != EMPTY:
            return f"cell {self.cell_text(move)} is occupied"
        return None

    def move_texts(self) -> list[str]:
        # A cell's name does not depend on the position: no replay needed.
        return [self.move_to_text(move) for move in self.moves]

    def position_text(self) -> str:
        rule = " with swap" if self._swap_rule else ""
        return f"{self.game} {self.size}{rule} after [{' '.join(self.move_texts())}]"

    # -- read-only views for the UI and the AI --------------------------------------
    @property
    def size(self) -> int:
        return self._layout.size

    @property
    def swap_rule(self) -> bool:
        """Whether this game is played with the swap rule."""
        return self._swap_rule

    @property
    def swapped(self) -> bool:
        """Whether the second player swapped."""
        return len(self.moves) >= 2 and self.moves[1] == self._layout.cells

    @property
    def cell_count(self) -> int:
        return self._layout.cells

    @property
    def board_layout(self) -> Layout:
        """The board's geometry (neighbours, edges), shared and read-only."""
        return self._layout

    @property
    def last_move(self) -> int | None:
        return self.moves[-1] if self.moves else None

    def neighbours(self, cell: int) -> tuple[int, ...]:
        """The cells next to ``cell``."""
        return self._layout.neighbours[cell]

    def cell_owner(self, cell: int) -> int | None:
        """FIRST or SECOND for a stone, None for an empty cell."""
        owner = self._owner[cell]
        return None if owner == EMPTY else owner

    def owners(self) -> tuple[int, ...]:
        """Every cell's owner: FIRST, SECOND or EMPTY (-1)."""
        return tuple(self._owner)

    def stones(self, player: int) -> list[int]:
        """``player``'s cells, ascending."""
        return [cell for cell, owner in enumerate(self._owner) if owner == player]

    def group_edges(self, cell: int) -> int:
        """The mask of its owner's edges that the group through ``cell``
        touches (0 for an empty cell)."""
        if self._owner[cell] == EMPTY:
            return 0
        while self._parent[cell] != cell:
            cell = self._parent[cell]
        return self._reach[cell]

    def winning_chain(self) -> tuple[int, ...] | None:
        """A smallest set of the winner's stones that joins the winner's
        edges (the cells to highlight at the end), or None while the game
        goes on."""
        if self._winner is None:
            return None
        return _steiner_chain(self._owner, self._layout, self._winner)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConnectionState) or other.game != self.game:
            return NotImplemented
        return (self.settings(), self.moves) == (other.settings(), other.moves)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        swap = " swap" if self._swap_rule else ""
        return f"<{type(self).__name__} size={self.size}{swap} moves=[{' '.join(self.move_texts())}]>"


def _steiner_chain(owner: list[int], board: Layout, player: int) -> tuple[int, ...]:
    """The fewest of ``player``'s stones touching all of the player's edges.

    With k edges to join (2 in Hex, 3 in Y) an optimal chain is a tree whose
    leaves lie on the edges; for k <= 3 it has at most one branching stone,
    so it is the best over all stones v of the shortest paths from v to each
    edge. One breadth-first search per edge gives every distance."""
    edges = board.edges[player]
    goal = board.goal[player]
    bits = [1 << i for i in range(goal.bit_length()) if goal >> i & 1]
    mine = [cell for cell in range(board.cells) if owner[cell] == player]
    parents: list[dict[int, int]] = []
    distances: list[dict[int, int]] = []
    for bit in bits:
        seeds = [cell for cell in mine if edges[cell] & bit]
        distance = dict.fromkeys(seeds, 0)
        parent = dict.fromkeys(seeds, -1)
        queue = deque(seeds)
        while queue:
            cell = queue.popleft()
            for neighbour in board.neighbours[cell]:
                if owner[neighbour] == player and neighbour not in distance:
                    distance[neighbour] = distance[cell] + 1
                    parent[neighbour] = cell
                    queue.append(neighbour)
        distances.append(distance)
        parents.append(parent)
    best_cost, centre = None, -1
    for cell in mine:
        if all(cell in distance for distance in distances):
            cost = sum(distance[cell] for distance in distances)
            if best_cost is None or cost < best_cost:
                best_cost, centre = cost, cell
    chain: list[int] = [centre]
    seen = {centre}
    for parent in parents:  # walk from the centre down to each edge
        cell = parent[centre]
        while cell != -1:
            if cell not in seen:
                seen.add(cell)
                chain.append(cell)
            cell = parent[cell]
    if len(bits) == 2:
        # A path: order it from the first edge to the second.
        first = bits[0]
        chain.sort(key=lambda cell: distances[0][cell])
        assert edges[chain[0]] & first
    return tuple(chain)


class HexState(ConnectionState):
    """A Hex game in progress on a ``size`` x ``size`` rhombus."""

    game = "hex"
    DEFAULT_SIZE = DEFAULT_SIZE
    NOTATION_HINT = "a column a-{last} and a row 1-{size}, like a1"

    @staticmethod
    def _make_layout(size: int) -> Layout:
        return layout(size)

    def cell_text(self, cell: int) -> str:
        """``0`` -> ``a1``: column letter, then row number."""
        row, col = divmod(cell, self._layout.size)
        return f"{LETTERS[col]}{row + 1}"

    def _parse_cell(self, letter: str, number: int) -> int | None:
        size = self._layout.size
        col = LETTERS.find(letter)
        if not 0 <= col < size or not 1 <= number <= size:
            return None
        return (number - 1) * size + col

    def _swap_target(self, cell: int) -> int:
        row, col = divmod(cell, self._layout.size)
        return col * self._layout.size + row
