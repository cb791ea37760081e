"""An exact Hex solver for small positions: who wins with perfect play,
and a winning move.

Positions are two bitmasks (bit ``c`` for cell ``c`` of the core's
numbering), the side to move's stones and the opponent's. The solver is a
depth-first proof search with iterative deepening, pruned at every node by
what Hex solvers use first (Anshelevich; Hayward et al., "Solving 7x7
Hex"):

- **H-search.** Virtual connections (VCs: a set of empty cells, the
  carrier, inside which a player stays connected whoever moves first) and
  semi-connections (SCs: connected if the player moves first, at the key
  cell) are built bottom-up from adjacency by Anshelevich's two rules: the
  AND rule chains two VCs with disjoint carriers through a common node (a
  VC through a stone, an SC keyed by the midpoint through an empty cell);
  the OR rule turns SCs between the same two nodes whose carriers have
  nothing in common into a VC (whatever the opponent takes, one of them is
  untouched). The nodes are the player's two edges (with every group
  touching one), its other groups and the empty cells. A VC between the
  two edges wins whoever moves; an SC wins for the side to move.
- **Must-play.** When the opponent has edge-to-edge SCs, the side to move
  must play inside every one of their carriers: only the intersection is
  searched, and when it is empty the position is lost.
- **Wins in one and double threats**, cheaply, before H-search.
- **Transposition table** of proven positions, **history** ordering (the
  moves that refuted before first), and **iterative deepening** on the
  search depth so that short proofs are found before long ones and an
  unlucky first move cannot swallow the whole budget.

The search checks the clock every node and gives up (``Timeout``) when the
deadline passes, so a caller can give it any share of a move's budget; its
table is kept across calls on one board (a game's positions share most of
their proofs). Pure standard library: it runs in the browser's Pyodide.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from core.hex import BOTTOM, LEFT, RIGHT, TOP, layout

#: H-search keeps at most this many VCs / SCs per pair of nodes (the
#: smallest carriers first come first): the usual bound that keeps it fast.
VC_LIMIT = 4
SC_LIMIT = 6


def position_masks(owners: list[int], player: int) -> tuple[int, int]:
    """A core position's owners (-1 empty, else the player) as the solver's
    two bitmasks: ``player``'s stones and the opponent's."""
    mine = theirs = 0
    for cell, owner in enumerate(owners):
        if owner == player:
            mine |= 1 << cell
        elif owner >= 0:
            theirs |= 1 << cell
    return mine, theirs


class Timeout(Exception):
    """The solver's deadline passed before a proof."""


class HexBoard:
    """The bitmask tables of a Hex board of side ``size``: each cell's
    neighbours, and each player's two edges (black: the first and last
    rows, white: the first and last columns)."""

    def __init__(self, size: int) -> None:
        board = layout(size)  # the core's geometry, as bitmasks
        self.size = n = size
        self.cells = board.cells
        self.full = (1 << self.cells) - 1
        self.around = tuple(sum(1 << cell for cell in near) for near in board.neighbours)

        def on_edge(player: int, edge: int) -> int:
            return sum(1 << cell for cell, edges in enumerate(board.edges[player]) if edges & edge)

        #: edges[player] = (first edge's cells, second edge's cells)
        self.edges = ((on_edge(0, TOP), on_edge(0, BOTTOM)), (on_edge(1, LEFT), on_edge(1, RIGHT)))
        centre = (n - 1) / 2
        # Central cells first: they matter most.
        self.order = tuple(sorted(range(self.cells), key=lambda c: (
            abs(c // n - centre) + abs(c % n - centre) + abs(c // n + c % n - 2 * centre), c)))

    def grow(self, x: int) -> int:
        """``x`` and every cell next to it."""
        around = self.around
        out = x
        while x:
            low = x & -x
            out |= around[low.bit_length() - 1]
            x ^= low
        return out

    def flood(self, seed: int, within: int) -> int:
        """The cells of ``within`` connected to ``seed`` through ``within``."""
        x = seed & within
        frontier = x
        around = self.around
        while frontier:
            grown = 0
            while frontier:
                low = frontier & -frontier
                grown |= around[low.bit_length() - 1]
                frontier ^= low
            frontier = grown & within & ~x
            x |= frontier
        return x

    def connected(self, stones: int, player: int) -> bool:
        first, second = self.edges[player]
        return bool(self.flood(first, stones) & second)

    def wins_in_one(self, stones: int, empty: int, player: int) -> int:
        """The empty cells that join ``player``'s edges at once."""
        first, second = self.edges[player]
        near_first = (self.grow(self.flood(first, stones)) | first) & empty
        near_second = (self.grow(self.flood(second, stones)) | second) & empty
        return near_first & near_second


class Connections(NamedTuple):
    """H-search's verdict on one player's edge-to-edge connection:
    ``vc`` the carrier of a VC (None if none was found); ``keys`` the key
    cells of the SCs (moves that make a VC); ``must`` the intersection of
    the SCs' carriers (keys included): where the opponent has to play
    (``full`` when there are no SCs)."""

    vc: int | None
    keys: int
    must: int


def h_search(board: HexBoard, stones: int, empty: int, player: int, deadline: float | None = None) -> Connections:
    """Anshelevich's H-search for ``player`` holding ``stones`` with the
    cells of ``empty`` free (see the module doc)."""
    first, second = board.edges[player]
    around = board.around
    # Nodes: 0 and 1 the edges (with the groups touching them), then the
    # other groups, then the empty cells. ``ends[x]``: the node's own bit
    # when it is an empty cell (a carrier must not contain its endpoints).
    rest = stones
    edge_stones = [board.flood(first, stones), board.flood(second, stones)]
    if edge_stones[0] & edge_stones[1]:
        return Connections(0, 0, 0)
    rest &= ~(edge_stones[0] | edge_stones[1])
    reach = [(board.grow(edge_stones[0]) | first) & empty, (board.grow(edge_stones[1]) | second) & empty]
    while rest:
        group = board.flood(rest & -rest, stones)
        rest &= ~group
        reach.append(board.grow(group) & empty)
    groups = len(reach)
    cells = []
    node_of = {}
    e = empty
    while e:
        low = e & -e
        e ^= low
        node_of[low] = len(reach) + len(cells)
        cells.append(low)
    count = groups + len(cells)
    ends = [0] * groups + cells
    vcs: list[dict[int, list[int]]] = [{} for _ in range(count)]
    scs: dict[tuple[int, int], list[int]] = {}
    queue: list[tuple[int, int, int]] = []
    keys = [0]  # the keys of the edge-to-edge SCs

    def add_vc(x: int, y: int, carrier: int) -> bool:
        known = vcs[x].get(y)
        if known is None:
            known = vcs[x][y] = []
            vcs[y][x] = known
        else:
            for old in known:
                if old & carrier == old:
                    return False
            if len(known) >= VC_LIMIT:
                return False
            known[:] = [old for old in known if old & carrier != carrier]
        known.append(carrier)
        queue.append((x, y, carrier))
        return True

    def add_sc(x: int, y: int, carrier: int, key: int) -> None:
        if x + y == 1:
            keys[0] |= key
        known = vcs[x].get(y)
        if known:
            for old in known:
                if old & carrier == old:
                    return
        pair = (x, y) if x < y else (y, x)
        semis = scs.get(pair)
        if semis is None:
            scs[pair] = [carrier]
            return
        for old in semis:
            if old & carrier == old:
                return
        semis[:] = [old for old in semis if old & carrier != carrier]
        if len(semis) >= SC_LIMIT:
            return
        # The OR rule, greedily from the new SC.
        common, union = carrier, carrier
        for old in semis:
            if common & old != common:
                common &= old
                union |= old
                if not common:
                    add_vc(x, y, union)
                    break
        semis.append(carrier)

    # Adjacency: the base VCs, with empty carriers.
    for x in range(groups):
        near = reach[x]
        while near:
            low = near & -near
            near ^= low
            add_vc(x, node_of[low], 0)
    for cell in cells:
        x = node_of[cell]
        near = around[cell.bit_length() - 1] & empty
        while near:
            low = near & -near
            near ^= low
            y = node_of[low]
            if y > x:
                add_vc(x, y, 0)
    # The AND rule on every new VC, until nothing new appears.
    checks = 0
    while queue:
        x, y, carrier = queue.pop()
        if 1 in vcs[0]:
            break
        checks += 1
        if deadline is not None and not checks & 255 and time.perf_counter() > deadline:
            raise Timeout
        for end, mid in ((x, y), (y, x)):
            known = vcs[end].get(mid)
            if known is None or carrier not in known:
                break  # replaced by a smaller one meanwhile
            end_bit = ends[end]
            mid_bit = ends[mid]
            for z, others in list(vcs[mid].items()):
                if z == end:
                    continue
                z_bit = ends[z]
                if carrier & z_bit:
                    continue
                for other in others:
                    if other & carrier or other & end_bit:
                        continue
                    if mid_bit:
                        add_sc(end, z, carrier | other | mid_bit, mid_bit)
                    else:
                        add_vc(end, z, carrier | other)
    win = vcs[0].get(1)
    if win:
        return Connections(min(win, key=int.bit_count), 0, 0)
    must = board.full
    for carrier in scs.get((0, 1), ()):
        must &= carrier
    return Connections(None, keys[0], must)


WIN, LOSS, UNKNOWN = 1, -1, 0


class Solver:
    """The proof search on one board size (see the module doc). ``solve``
    answers for the side to move; the tables persist between calls."""

    def __init__(self, size: int) -> None:
        self.board = HexBoard(size)
        #: (to move's stones, the other's, player) -> (WIN or LOSS, a winning move or -1)
        self.table: dict[tuple[int, int, int], tuple[int, int]] = {}
        #: the same key -> what the node analysis found (see ``_analyse``)
        self.analysed: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        self.history = [0] * self.board.cells
        self.nodes = 0
        self.deadline: float | None = None

    # -- the interface ------------------------------------------------------------------
    def solve(self, mine: int, theirs: int, player: int, seconds: float | None = None,
              max_depth: int = 64) -> tuple[int, int]:
        """(WIN, a winning move), (LOSS, -1) or (UNKNOWN, -1) when
        ``seconds`` ran out first (or ``max_depth`` plies were not enough),
        for ``player`` to move holding ``mine`` against ``theirs``."""
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        key = (mine, theirs, player)
        # Past as many plies as empty cells every line has ended.
        deepest = min(max_depth, (self.board.full & ~(mine | theirs)).bit_count() + 1)
        try:
            for depth in range(1, deepest + 1):
                if self._solve(mine, theirs, player, depth) != UNKNOWN:
                    return self.table[key]
        except Timeout:
            pass
        return UNKNOWN, -1

    def analyse(self, mine: int, theirs: int, player: int, seconds: float | None = None) -> tuple[int, int, int]:
        """The node analysis alone, with no search below it (for positions
        too big to solve): (WIN, a winning move, 0), (LOSS, -1, 0), or
        (UNKNOWN, -1, the moves worth playing: the opponent's must-play
        region, or its single threat), or (UNKNOWN, -1, 0) when
        ``seconds`` ran out first."""
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        try:
            return self._analyse(mine, theirs, player)
        except Timeout:
            return UNKNOWN, -1, 0

    def losing_moves(self, mine: int, theirs: int, player: int) -> int:
        """The moves already proven to lose (a bitmask), from the table."""
        empty = self.board.full & ~(mine | theirs)
        lost = 0
        table = self.table
        other = player ^ 1
        e = empty
        while e:
            low = e & -e
            e ^= low
            known = table.get((theirs, mine | low, other))
            if known is not None and known[0] == WIN:
                lost |= low
        return lost

    def candidates(self, mine: int, theirs: int, player: int) -> int:
        """The moves not known to lose, as far as the tables tell: inside
        the opponent's must-play region and not proven lost (0 when the
        position is lost or was never analysed)."""
        known = self.analysed.get((mine, theirs, player))
        if known is None or known[0] == LOSS:
            return 0
        if known[0] == WIN:
            return 1 << known[1]
        return known[2] & ~self.losing_moves(mine, theirs, player)

    # -- the search -----------------------------------------------------------------------
    def _analyse(self, mine: int, theirs: int, player: int) -> tuple[int, int, int]:
        """(value, move, moves): a proven value with its move, or UNKNOWN
        with the bitmask of the moves worth searching."""
        key = (mine, theirs, player)
        known = self.analysed.get(key)
        if known is not None:
            return known
        board = self.board
        empty = board.full & ~(mine | theirs)
        other = player ^ 1
        result: tuple[int, int, int]
        wins = board.wins_in_one(mine, empty, player)
        if wins:
            result = (WIN, (wins & -wins).bit_length() - 1, 0)
        else:
            threats = board.wins_in_one(theirs, empty, other)
            if threats & (threats - 1):
                result = (LOSS, -1, 0)
            elif threats:
                result = (UNKNOWN, -1, threats)
            else:
                deadline = self.deadline
                mine_vc = h_search(board, mine, empty, player, deadline)
                if mine_vc.vc is not None or mine_vc.keys:
                    keys = mine_vc.keys or mine_vc.vc or empty
                    result = (WIN, (keys & -keys).bit_length() - 1, 0)
                else:
                    their_vc = h_search(board, theirs, empty, other, deadline)
                    if their_vc.vc is not None:
                        result = (LOSS, -1, 0)
                    else:
                        must = their_vc.must & empty
                        result = (UNKNOWN, -1, must) if must else (LOSS, -1, 0)
        self.analysed[key] = result
        return result

    def _solve(self, mine: int, theirs: int, player: int, depth: int) -> int:
        key = (mine, theirs, player)
        known = self.table.get(key)
        if known is not None:
            return known[0]
        self.nodes += 1
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Timeout
        value, move, moves = self._analyse(mine, theirs, player)
        if value != UNKNOWN:
            self.table[key] = (value, move)
            return value
        if depth <= 0:
            return UNKNOWN
        history = self.history
        order = [c for c in self.board.order if moves >> c & 1]
        order.sort(key=lambda c: -history[c])
        other = player ^ 1
        unknown = False
        for c in order:
            child = self._solve(theirs, mine | 1 << c, other, depth - 1)
            if child == LOSS:
                history[c] += depth * depth
                self.table[key] = (WIN, c)
                return WIN
            if child == UNKNOWN:
                unknown = True
        if unknown:
            return UNKNOWN
        self.table[key] = (LOSS, -1)
        return LOSS


#: The solvers of the boards in use (their tables help the next moves).
_SOLVERS: dict[int, Solver] = {}
#: Past this many stored positions a solver starts afresh, to bound memory.
MAX_TABLE = 200_000


def solver_for(size: int) -> Solver:
    """The shared solver of the Hex board of side ``size``."""
    found = _SOLVERS.get(size)
    if found is None or len(found.table) + len(found.analysed) > MAX_TABLE:
        found = _SOLVERS[size] = Solver(size)
    return found


def clear() -> None:
    """Forget every solver's tables."""
    _SOLVERS.clear()
