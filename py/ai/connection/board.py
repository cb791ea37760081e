"""The connection games' boards during search: the tables of a board
(``Geometry``), the playouts and the flood fill that decides them.

Boards during search are flat lists: ``0`` empty, ``1`` black (FIRST),
``2`` white (SECOND), followed by one virtual cell per edge holding the
colour(s) that own it (``3`` in Y, whose edges belong to both), so an edge
takes part in bridge patterns like a stone.
"""

from __future__ import annotations

from collections.abc import Callable

from core.hex import ConnectionState, Layout

from . import patterns
from .colours import BLACK, WHITE

#: ``INDICATOR[colour]``: bytes.translate table mapping that colour to 1.
INDICATOR = {
    BLACK: bytes(1 if value == BLACK else 0 for value in range(256)),
    WHITE: bytes(1 if value == WHITE else 0 for value in range(256)),
}


class Geometry:
    """A board's tables for the search, built once per game and size.

    ``neighbours``: per cell, the adjacent cells. ``edges[p]``/``goal[p]``:
    as in the core's ``Layout``. ``bridges[x]``: per cell x, the triples
    ``(p, q, y)`` such that p and q (cells or virtual edge cells) form a
    bridge whose two carriers are x and y; index ``cells`` (one past the
    last) holds none, for "no last move". ``virtual``: the colours of the
    virtual edge cells that follow the real ones on a search board.
    ``starts``: the cells on black's first edge, where the final flood fill
    begins."""

    def __init__(self, game: str, board: Layout) -> None:
        self.game = game
        self.size = board.size
        self.cells = cells = board.cells
        self.neighbours = board.neighbours
        self.edges = board.edges
        self.goal = board.goal
        shared = board.edges[0] == board.edges[1]
        virtual: list[tuple[int, list[int]]] = []  # (colour, the cells on that edge)
        for player in (0,) if shared else (0, 1):
            colour = BLACK | WHITE if shared else player + 1
            goal = board.goal[player]
            for bit in _bits(goal):
                virtual.append((colour, [c for c in range(cells) if board.edges[player][c] & bit]))
        self.virtual = tuple(colour for colour, _ in virtual)
        extended: list[set[int]] = [set(n) for n in board.neighbours]
        extended += [set() for _ in virtual]
        for index, (_, edge_cells) in enumerate(virtual):
            node = cells + index
            for cell in edge_cells:
                extended[cell].add(node)
                extended[node].add(cell)
        bridges: list[tuple[tuple[int, int, int], ...]] = []
        for carrier in range(cells):
            found = []
            around = sorted(extended[carrier])
            for i, p in enumerate(around):
                for q in around[i + 1:]:
                    if (p >= cells and q >= cells) or q in extended[p]:
                        continue
                    common = extended[p] & extended[q]
                    if len(common) != 2:
                        continue
                    (other,) = common - {carrier}
                    if other < cells and other in extended[carrier]:
                        found.append((p, q, other))
            bridges.append(tuple(found))
        bridges.append(())  # "no last move"
        self.bridges = tuple(bridges)
        self.no_bridges: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(() for _ in bridges)
        first_edge = _bits(board.goal[0])[0]
        self.starts = tuple(c for c in range(cells) if board.edges[0][c] & first_edge)
        self.black_edges = board.edges[0]
        self.black_goal = board.goal[0]
        self.bit = tuple(1 << c for c in range(cells))
        #: The move priors of ``ai.connection.patterns`` for this game, or None.
        self.priors = patterns.board_priors(game, self.size)
        self.all_cells = (1 << cells) - 1
        self.around = tuple(sum(1 << n for n in board.neighbours[c]) for c in range(cells))
        #: Per player: (edge bit, the cells on that edge as a bitmask).
        self.edge_cells = tuple(
            tuple((bit, sum(1 << c for c in range(cells) if board.edges[player][c] & bit))
                  for bit in _bits(board.goal[player]))
            for player in (0, 1)
        )

    def search_board(self, owners: tuple[int, ...]) -> list[int]:
        """A search board from the core's owners (FIRST, SECOND, -1): their
        colours (``colours.colour_of``, written out), then the edges'."""
        return [owner + 1 for owner in owners] + list(self.virtual)


def _bits(mask: int) -> list[int]:
    return [1 << i for i in range(mask.bit_length()) if mask >> i & 1]


_GEOMETRIES: dict[tuple[str, int], Geometry] = {}


def geometry(state: ConnectionState) -> Geometry:
    """The search tables for ``state``'s board (built once per game and size)."""
    key = (state.game, state.size)
    geo = _GEOMETRIES.get(key)
    if geo is None:
        geo = _GEOMETRIES[key] = Geometry(state.game, state.board_layout)
    return geo


# -- playouts -------------------------------------------------------------------------
def bridge_reply(board: list[int], bridges: tuple[tuple[int, int, int], ...], colour: int) -> int:
    """The cell that saves a bridge of ``colour`` the opponent has just
    intruded into (``bridges`` are those through the intruded cell), or -1.
    The playout policy, as a function for the tests; ``playout`` inlines it."""
    for p, q, y in bridges:
        if board[p] & colour and board[q] & colour and not board[y]:
            return y
    return -1


def playout(board: list[int], empties: list[int], colour: int, last: int,
            bridges: tuple[tuple[tuple[int, int, int], ...], ...], geo: Geometry,
            rand: Callable[[], float]) -> int:
    """Fill every cell of ``empties`` (a scratch list: its contents get
    scrambled), ``colour`` first; return the winner's colour. ``last`` is the cell just played (or
    ``geo.cells``), whose bridge intrusions the first mover may answer;
    ``bridges`` is ``geo.bridges`` or, for a policy-free playout,
    ``geo.no_bridges``."""
    k = len(empties)
    i = 0
    while i < k:
        # The policy: answer an intrusion into one of our bridges.
        for p, q, y in bridges[last]:
            if board[p] & colour and board[q] & colour and not board[y]:
                board[y] = colour
                last = y
                colour ^= 3
                break
        else:
            # Otherwise a uniformly random empty cell (an incremental
            # Fisher-Yates shuffle; cells taken by replies are skipped).
            j = i + int(rand() * (k - i))
            cell = empties[j]
            empties[j] = empties[i]
            i += 1
            if board[cell]:
                continue
            board[cell] = colour
            last = cell
            colour ^= 3
    return BLACK if black_connected(board, geo) else WHITE


def black_connected(board: list[int], geo: Geometry) -> bool:
    """Whether some black group touches all of black's edges (a flood fill
    from black's first edge; on a full board this decides the game)."""
    neighbours = geo.neighbours
    edges = geo.black_edges
    goal = geo.black_goal
    seen = bytearray(geo.cells)
    for start in geo.starts:
        if board[start] != BLACK or seen[start]:
            continue
        seen[start] = 1
        stack = [start]
        reach = 0
        while stack:
            cell = stack.pop()
            reach |= edges[cell]
            if reach == goal:
                return True
            for neighbour in neighbours[cell]:
                if board[neighbour] == BLACK and not seen[neighbour]:
                    seen[neighbour] = 1
                    stack.append(neighbour)
    return False


def edge_distances(state: ConnectionState) -> list[int]:
    """For each cell, how many cells lie between it and the nearest edge
    (0 on an edge), by breadth-first search from the edge cells."""
    board = state.board_layout
    on_edge = [bool(board.edges[0][cell] or board.edges[1][cell]) for cell in range(board.cells)]
    distance = [0 if edge else -1 for edge in on_edge]
    frontier = [cell for cell in range(board.cells) if on_edge[cell]]
    while frontier:
        following = []
        for cell in frontier:
            for neighbour in board.neighbours[cell]:
                if distance[neighbour] < 0:
                    distance[neighbour] = distance[cell] + 1
                    following.append(neighbour)
        frontier = following
    return distance

def centre_cells(state: ConnectionState) -> list[int]:
    """The cells farthest from every edge (the strongest first moves)."""
    distance = edge_distances(state)
    best = max(distance)
    return [cell for cell, d in enumerate(distance) if d == best]
