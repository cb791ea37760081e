"""Monte Carlo tree search with RAVE for the connection games (Hex, Y).

One engine serves both games: everything game-specific is in a
``Geometry`` built from the core's board layout (neighbour tuples, the
edges each cell lies on, the bridges of every cell).

The search, and why each part is there:

- **Playouts fill the board and find the winner once.** Neither game can
  end in a draw, and a chain stays a chain, so a playout simply fills every
  empty cell, alternating colours, and a single flood fill from one edge
  decides the winner. No per-move win test, no undo.
- **The playout policy saves bridges.** Two stones with two common empty
  neighbours (a bridge; an edge counts as a stone) are as good as joined:
  when the opponent takes one of the two carrier cells, taking the other
  keeps them joined. Random playouts that ignore this cut bridges that no
  player would lose, and the statistics say so. The check costs one lookup
  of the bridges through the cell just played.
- **RAVE** (rapid action value estimation, "all moves as first"): every
  playout also counts as a sample for every move the player to move at a
  node made later in that playout. In a filled board that is simply "the
  cells of that player's colour". Those estimates are biased but come
  about a hundred times faster, and steer the search while real visits are
  few; the blend weight ``beta`` moves to the real statistics as visits
  grow (Silver's formula).
- **Knowledge before statistics.** When a node is created its position is
  analysed (``analyse``): a cell that wins at once makes the node won; a
  single threatened win of the opponent leaves one move, two make the node
  lost. Then virtual connections (``virtual_connections``): groups linked
  by disjoint bridges, a connection no intrusion can cut. The opponent
  having one loses the node; having one, or a cell that completes one,
  wins it; and when the opponent is one cell short of one, only the cells
  of that near-connection (its gap and carriers, intersected over all of
  them) can save the game, so only those are searched. This is a small
  part of what MoHex computes, but it proves most decided endgames and
  keeps the search off moves that lose at once. Proven values propagate up
  the tree (an MCTS-solver), and the root gets the same analysis first: a
  forced or proven move is played without searching.
- **Move priors** (``ai.patterns``): when a node is first searched from,
  each of its moves gets the probability that a strong player plays it,
  from the weights of its local pattern and of how it lies to the last
  move (fitted to MoHex 2.0's games for Hex, Morat's for Y), as
  progressive bias: a weight times it is added to the move's value,
  divided by the square root of its visits plus one (``Selection``).
- **Inferior cells** (``ai.inferior``): the node analysis first fills in
  the dead cells and captured pairs; they leave the node's moves, and the
  search and the playouts below go on from the filled board (the fill-in
  keeps the position's value, so every proof below still holds). The
  dominated cells can leave master's node moves too (a neighbour kept is
  at least as good: about 1.2 of 83 empty cells a position in 11 x 11
  games against MoHex), but that part is off (see ``KNOWN_PARTS``).
- **H-search in the tree** (master; below it Hex only, later): a node
  visited ``H_SEARCH_AT`` times (``SMALL_H_SEARCH_AT`` on positions
  small enough for the solver) gets the exact solver's analysis
  (Anshelevich's H-search and edge template IVa, for both sides): a win
  by virtual connection, the loss, or only
  the opponent's must-play region kept. The root gets it before the
  search on every position too big for the solver (``solve_first``).
  Each of these parts can be switched off for ablation matches
  (``PARTS``, ``switch_off``; ``tools/arena.py --without``).
- **Master picks as MoHex does** (``MASTER_SELECTION``): no UCT term,
  RAVE trusted for long and a strong progressive bias, so the visits go
  to the moves the statistics and the priors favour and a move's mean is
  mostly that of its best reply. The levels below keep the selection
  their ratings were measured with (``LOWER_SELECTION``), a UCT term that
  spreads the visits wider.
- **Tree reuse**: the ``Engine`` keeps its last tree (with the game, its
  settings and the move list; see ``ai.search``) and its next search
  starts from the node of the new position.
- **An exact solver first** (master, and any level given a ``move_time``):
  on a position with at most ``SOLVER_MAX_EMPTY`` empty cells,
  ``ai.solver`` (H-search and must-play, much stronger than the analysis
  here but about a hundred times dearer per position) gets a share of the
  budget. A proven win is played at once; otherwise the search gets the
  rest of the time, its root kept to the moves the solver did not exclude
  (outside the opponent's must-play region, or proven to lose). A position
  proven lost (often long before the end) still gets the whole budget: a
  search blind to the proof picks the move that leaves the opponent the
  hardest task (``STUBBORN_AFTER``). On the smallest positions the search
  gives the solver the moves of the root it visits most, for a time that
  grows with their visits (``TREE_SOLVE_AT``): a proof there settles the
  move, and the search sees it at once.

``Engine.evaluate`` (the hint, the evaluation bar, the analysis of a game)
judges a position with the same parts at master's strength: a win in one,
a single threat to block and a double threat (lost in two) need no
search; then the virtual connection analysis, the exact solver on small
positions and the search from the tree kept by the previous
evaluation. A proof by the search comes with its length in plies when the
proven tree ends in wins in one and double threats (``proof_length``).
With the swap available, half the time values the swap, half the stones.

Boards during search are flat lists: ``0`` empty, ``1`` black (FIRST),
``2`` white (SECOND), followed by one virtual cell per edge holding the
colour(s) that own it (``3`` in Y, whose edges belong to both), so an edge
takes part in bridge patterns like a stone.
"""

from __future__ import annotations

import math
import random
import time
from array import array
from operator import add, itemgetter
from typing import Callable, NamedTuple

from core.base import GameState
from core.hex import ConnectionState, Layout

from . import inferior, patterns, solver
from .search import (
    JUDGED_VISITS, LOSS, WIN, Engine as BaseEngine, SearchResult, Verdict, proof_chance, spend, subtree_size,
)

BLACK, WHITE = 1, 2  # colours on search boards: the player index plus one

#: ``_INDICATOR[colour]``: bytes.translate table mapping that colour to 1.
_INDICATOR = {
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
        #: The move priors of ``ai.patterns`` for this game, or None.
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
        """A search board from the core's owners (FIRST, SECOND, -1)."""
        return [owner + 1 for owner in owners] + list(self.virtual)


def _bits(mask: int) -> list[int]:
    return [1 << i for i in range(mask.bit_length()) if mask >> i & 1]


_GEOMETRIES: dict[tuple[str, int], Geometry] = {}


def geometry(state: GameState) -> Geometry:
    """The search tables for ``state``'s board (built once per game and size)."""
    key = (state.game, state.size)  # type: ignore[attr-defined]
    geo = _GEOMETRIES.get(key)
    if geo is None:
        geo = _GEOMETRIES[key] = Geometry(state.game, state.board_layout)  # type: ignore[attr-defined]
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


# -- tactics ----------------------------------------------------------------------------
class Tactics(NamedTuple):
    """A position's one-move tactics. ``wins[c]``: the empty cells where a
    stone of colour c connects at once; ``connected``: the colour already
    connected (the game is over), or 0. ``label``/``reach``/``stones``/
    ``colours``: each cell's group (-1 for empty) and, per group, the edges
    it touches, its cells as a bitmask and its colour."""

    wins: dict[int, list[int]]
    connected: int
    label: list[int]
    reach: list[int]
    stones: list[int]
    colours: list[int]


def tactics(board: list[int], geo: Geometry) -> Tactics:
    """Every immediate win of both colours, by labelling the groups (with
    the edges each touches) and asking each empty cell which edges its
    neighbouring groups would join."""
    cells = geo.cells
    neighbours = geo.neighbours
    bits = geo.bit
    label = [-1] * cells
    reach: list[int] = []
    stones: list[int] = []
    colours: list[int] = []
    connected = 0
    for start in range(cells):
        colour = board[start]
        if not colour or label[start] >= 0:
            continue
        edges = geo.edges[colour - 1]
        group = len(reach)
        label[start] = group
        stack = [start]
        mask = members = 0
        while stack:
            cell = stack.pop()
            mask |= edges[cell]
            members |= bits[cell]
            for neighbour in neighbours[cell]:
                if board[neighbour] == colour and label[neighbour] < 0:
                    label[neighbour] = group
                    stack.append(neighbour)
        reach.append(mask)
        stones.append(members)
        colours.append(colour)
        if mask == geo.goal[colour - 1]:
            connected = colour
    wins: dict[int, list[int]] = {BLACK: [], WHITE: []}
    black_edges, white_edges = geo.edges
    black_goal, white_goal = geo.goal
    for cell in range(cells):
        if board[cell]:
            continue
        black, white = black_edges[cell], white_edges[cell]
        for neighbour in neighbours[cell]:
            colour = board[neighbour]
            if colour == BLACK:
                black |= reach[label[neighbour]]
            elif colour == WHITE:
                white |= reach[label[neighbour]]
        if black == black_goal:
            wins[BLACK].append(cell)
        if white == white_goal:
            wins[WHITE].append(cell)
    return Tactics(wins, connected, label, reach, stones, colours)


class Connections(NamedTuple):
    """What ``virtual_connections`` found for one colour.

    ``carrier``: when the colour is already virtually connected, the empty
    cells its connection needs (else None). ``gaps``: the cells that would
    complete a virtual connection, each with the cells that connection
    needs (the gap included). ``must``: the cells the opponent has to play
    in to stop all of them (the intersection; -1, i.e. all cells, if there
    are none)."""

    carrier: int | None
    gaps: list[tuple[int, int]]
    must: int


def virtual_connections(board: list[int], colour: int, found: Tactics, geo: Geometry) -> Connections:
    """``colour``'s virtual connections between its edges, and the cells
    one stone short of one.

    Groups are joined greedily whenever two of them have two common empty
    neighbours that no earlier join uses (a bridge), and a group gains an
    edge it has two empty neighbours on (a bridge to the edge). Whatever the
    opponent takes of such a pair, the other cell restores the link, and as
    no two links share a cell every intrusion has its own answer: a
    component touching all the colour's edges is a sure connection, whoever
    moves. An edge never joins two groups (in Y two groups on one edge are
    not one chain). This is H-search's first rule only (Anshelevich; MoHex
    uses the full algebra): it finds fewer connections, never a false one."""
    player = colour - 1
    around = geo.around
    empty = geo.all_cells & ~sum(found.stones)
    groups = [g for g, c in enumerate(found.colours) if c == colour]
    nbh: list[int] = []
    reach: list[int] = []
    for g in groups:
        members = found.stones[g]
        near = 0
        while members:
            low = members & -members
            near |= around[low.bit_length() - 1]
            members ^= low
        nbh.append(near & empty)
        reach.append(found.reach[g])
    count = len(nbh)
    parent = list(range(count))
    carriers = [0] * count
    goal = geo.goal[player]
    edge_cells = geo.edge_cells[player]
    used = 0
    changed = True
    while changed:
        changed = False
        roots = [node for node in range(count) if parent[node] == node]
        for a in roots:
            for edge_bit, cells_on_edge in edge_cells:
                if not reach[a] & edge_bit:
                    common = nbh[a] & cells_on_edge & ~used
                    if common & (common - 1):  # two or more: a bridge to the edge
                        low = common & -common
                        pair = low | ((common ^ low) & -(common ^ low))
                        used |= pair
                        carriers[a] |= pair
                        reach[a] |= edge_bit
                        changed = True
        for i, a in enumerate(roots):
            for b in roots[i + 1:]:
                if parent[b] != b or parent[a] != a:
                    continue
                common = nbh[a] & nbh[b] & ~used
                if common & (common - 1):  # a bridge between the components
                    low = common & -common
                    pair = low | ((common ^ low) & -(common ^ low))
                    used |= pair
                    parent[b] = a
                    reach[a] |= reach[b]
                    nbh[a] |= nbh[b]
                    carriers[a] |= carriers[b] | pair
                    changed = True
    for node in range(count):
        if parent[node] == node and reach[node] == goal:
            return Connections(carriers[node], [], -1)
    # One stone short: an empty cell whose neighbouring components (and own
    # edges) add up to the goal.
    root_of = [0] * count
    for node in range(count):
        root = node
        while parent[root] != root:
            root = parent[root]
        root_of[node] = root
    component = {g: root_of[i] for i, g in enumerate(groups)}
    gaps: list[tuple[int, int]] = []
    must = -1
    label = found.label
    edges = geo.edges[player]
    neighbours = geo.neighbours
    bits = geo.bit
    for cell in range(geo.cells):
        if board[cell]:
            continue
        touched = 0
        total = edges[cell]
        need = bits[cell]
        for neighbour in neighbours[cell]:
            if board[neighbour] == colour:
                root = component[label[neighbour]]
                if not touched >> root & 1:
                    touched |= 1 << root
                    total |= reach[root]
                    need |= carriers[root]
        if total == goal:
            gaps.append((cell, need))
            must &= need
    return Connections(None, gaps, must)


def analyse(board: list[int], colour: int, geo: Geometry, empties: list[int],
            deep: bool = True) -> tuple[int | None, list[int]]:
    """The proof and the moves worth searching for ``colour`` to move.

    In order: a finished game; a win in one; the opponent's single threat
    (the only move) or double threat (lost). Then, when ``deep``: the
    opponent's virtual connection (lost); our own, or a cell that completes
    one (won); else only the cells inside every near-connection of the
    opponent can save the game (if there are none left, it is lost)."""
    found = tactics(board, geo)
    if found.connected:
        return (LOSS if found.connected != colour else WIN), []
    other = colour ^ 3
    mine, theirs = found.wins[colour], found.wins[other]
    if mine:
        return WIN, mine[:1]
    if len(theirs) >= 2:
        return LOSS, theirs[:1]  # one block is as good as another
    if theirs:
        return None, theirs
    if not deep:
        return None, empties.copy()
    their_vc = virtual_connections(board, other, found, geo)
    if their_vc.carrier is not None:
        bits = geo.bit
        block = [cell for cell in empties if their_vc.carrier & bits[cell]] or empties[:1]
        return LOSS, block[:1]
    my_vc = virtual_connections(board, colour, found, geo)
    if my_vc.carrier is not None:
        bits = geo.bit
        keep = [cell for cell in empties if my_vc.carrier & bits[cell]] or empties[:1]
        return WIN, keep[:1]
    if my_vc.gaps:
        return WIN, [my_vc.gaps[0][0]]
    if their_vc.gaps:
        bits = geo.bit
        must = their_vc.must
        moves = [cell for cell in empties if must & bits[cell]]
        if not moves:
            return LOSS, empties[:1]
        return None, moves
    return None, empties.copy()


# -- the tree -----------------------------------------------------------------------------
class Node:
    """A position in the tree, with the statistics of every move from it.

    The moves' statistics live in the node in parallel lists (as in MoHex
    and Fuego), not in the children: a child ``Node`` is only created once
    its move has been tried ``EXPAND_AFTER`` times, and RAVE updates touch
    whole lists at C speed. All values are from the point of view of the
    side to move here: ``wins[i]`` playouts won out of ``visits[i]`` after
    move ``moves[i]``; ``rave_wins[i]`` of ``rave_visits[i]`` playouts in
    which that cell ended up this side's colour. ``proof`` is WIN or LOSS
    for the side to move once known (as everywhere: ``ai.search``);
    ``deep`` tells whether the virtual connection analysis has been applied
    (see ``Search._deepen``).
    ``winning`` (the index of a move proven to win, or -1) and ``losing``
    (the indices of moves proven to lose) mirror the children's proofs, so
    that selection need not look at the children."""

    __slots__ = ("moves", "children", "visits", "wins", "rave_visits", "rave_wins", "bias", "total", "proof",
                 "deep", "fill", "h_searched", "solve_at", "winning", "losing", "_pick")

    def __init__(self, moves: list[int], proof: int | None = None, deep: bool = False,
                 bias: array | None = None) -> None:
        count = len(moves)
        self.moves = moves
        self.bias = bias  # None until the node is first searched from (``Search._iterate``)
        self.children: list[Node | None] = [None] * count
        self.visits = [0] * count
        self.wins = [0] * count
        self.rave_visits = [0] * count
        self.rave_wins = [0] * count
        self.total = 0
        self.proof = proof
        self.deep = deep
        self.fill: tuple[tuple[int, int], ...] = ()
        self.h_searched = False
        self.solve_at = TREE_SOLVE_AT  # the visits at which the exact solver is tried next (``Search._solve``)
        self.winning = -1
        self.losing: set[int] = set()
        self._pick = _picker(moves)

    def note_proof(self, index: int) -> None:
        """Record the proof of the child at ``index`` (from its mover's side)."""
        proof = self.children[index].proof  # type: ignore[union-attr]
        if proof == LOSS:
            self.winning = index
        elif proof == WIN:
            self.losing.add(index)

    def keep(self, moves: list[int]) -> None:
        """Drop every move not in ``moves`` (with its statistics)."""
        wanted = set(moves)
        kept = [i for i, move in enumerate(self.moves) if move in wanted]
        if len(kept) == len(self.moves):
            return
        for name in ("moves", "children", "visits", "wins", "rave_visits", "rave_wins"):
            values = getattr(self, name)
            setattr(self, name, [values[i] for i in kept])
        if self.bias is not None:
            self.bias = array("f", [self.bias[i] for i in kept])
        self._pick = _picker(self.moves)
        self.winning, self.losing = -1, set()
        for index, child in enumerate(self.children):
            if child is not None and child.proof is not None:
                self.note_proof(index)

    def child(self, move: int) -> Node | None:
        try:
            return self.children[self.moves.index(move)]
        except ValueError:
            return None

    def size(self) -> int:
        """Nodes in this subtree."""
        return subtree_size(self)

    def __repr__(self) -> str:
        return f"<Node moves={len(self.moves)} total={self.total} proof={self.proof}>"


def _picker(moves: list[int]) -> Callable[[bytes], tuple[int, ...]]:
    """Reads these moves' entries out of a colour indicator in one C call."""
    if len(moves) > 1:
        return itemgetter(*moves)
    move = moves[0] if moves else 0
    return lambda seq: (seq[move],)


EXPAND_AFTER = 2  # visits of a move before its position gets a node
KNOWLEDGE_AT = 4  # visits of a node before its virtual connections are analysed
#: Visits of a node before the exact solver's H-search analyses it, at
#: master (300 beat 1000 against MoHex: README, issue 16); on a position
#: small enough for the exact solver (at most ``SOLVER_MAX_EMPTY`` empty
#: cells at the root), where H-search is cheap and tactics decide, from
#: ``SMALL_H_SEARCH_AT`` visits: 20 solved 20 of the 27 6 x 6 and 7 x 7
#: puzzles at 2 s in each of three runs (seeds 1-3), 300 solved 16-18 in
#: the same runs, 30 and 50 18-19, 10 and 5 16-17.
H_SEARCH_AT = 300
SMALL_H_SEARCH_AT = 20
#: The same for the levels below master, as they were measured (README,
#: "Level ratings"): Hex only, later.
LOWER_H_SEARCH_AT = {"hex": 1000}
H_SEARCH_SECONDS = 0.3  # the most one such analysis may take
#: On a position with at most ``TREE_SOLVE_MAX_EMPTY`` empty cells (master,
#: timed searches), a move of the root whose node has been visited
#: ``TREE_SOLVE_AT`` times gets the exact solver for ``TREE_SOLVE_PER_VISIT``
#: seconds per visit (at least ``TREE_SOLVE_LEAST``), and again each time
#: its visits double (``Search._solve``): the moves the search likes best
#: get proven or refuted. The solver keeps its numbers, so each call goes
#: on from the last. On 6x6-henderson-09, -20 and -21
#: (``tests/data/hex_puzzles.json``) at 1.2 s a puzzle under CPython (the
#: worker's speed at 2 s), ten seeds each: 22, 23 and 24 of 30 solved in
#: three runs, against 6 of 30 without; 0.5 ms a visit solved 19, 2 ms
#: 21, from 30 visits 22, deeper nodes too 20. On the side-7 puzzles (42 to 47 empty cells) it
#: cost more than it proved, whatever the time a visit (0.1 ms: 19 of 48
#: against 22 of 48 at 1.2 s, seeds 1-4): there the proofs take longer than
#: the move's budget, and the search needs every playout.
TREE_SOLVE_AT = 50
TREE_SOLVE_PER_VISIT = 0.001
TREE_SOLVE_LEAST = 0.02
TREE_SOLVE_MAX_EMPTY = 36
#: Nodes one search may create (each holds a few lists as long as its move
#: list: about 20 KB on a 19 x 19 board). Past it the tree stops growing
#: and playouts go on from its leaves, so long thinking times stay in memory.
MAX_NODES = 40_000
FIRST_PLAY = 1.1  # value of a move with no sample at all: try it first


class Selection(NamedTuple):
    """How the search picks a node's move: the RAVE blend, the UCT term
    and the progressive bias (``Search._iterate``). With ``v`` visits
    and ``r`` RAVE samples, the RAVE weight is
    ``r / (r + visit_weight * v + rave_bias * r * v)``: RAVE alone at
    first, the real statistics once ``v`` outgrows ``1 / rave_bias``.
    ``exploration`` is the UCT constant on top (``c * sqrt(ln N / v)``);
    ``untried_bonus`` is added to the RAVE value of a move never tried
    at the node; ``prior_weight`` times the move's prior probability,
    divided by ``sqrt(v + 1)``, is the progressive bias."""

    exploration: float
    visit_weight: float
    rave_bias: float
    untried_bonus: float
    prior_weight: float


#: Master's: no UCT term, RAVE trusted for long and a strong progressive
#: bias, as MoHex 2.0 is set (its RAVE weights 2.12 and 830 are our
#: ``1 / visit_weight`` and ``1 / rave_bias``; its bias constant 2.47).
#: Against MoHex at 100 simulations a move (11 x 11, ours at 2 s) it
#: scored 15-5 on the openings where ``LOWER_SELECTION`` scored 8-12
#: (README, issue 16): the UCT term spread the visits over many replies,
#: so a move's mean hid its refutation.
MASTER_SELECTION = Selection(exploration=0.0, visit_weight=0.47, rave_bias=0.0012, untried_bonus=0.0,
                             prior_weight=2.5)
#: The levels below master, as their ratings were measured (README,
#: "Level ratings"): tuned in self-play (the UCT constant 0.4 beat 0.2,
#: 0 and 0.7; the RAVE bias 0.01 beat 0.0025 and 0.04).
LOWER_SELECTION = Selection(exploration=0.4, visit_weight=1.0, rave_bias=0.01, untried_bonus=0.1,
                            prior_weight=1.0)


#: The parts of the engine's knowledge that can be switched off, for the
#: ablation matches (``tools/arena.py --without``, ``py/gtp.py --without``):
#: "priors", the pattern priors as progressive bias; "inferior", the
#: fill-in of dead and captured cells (``ai.inferior``) at every node the
#: analysis reaches, which drops them from its moves and fills them for
#: the search and the playouts below it; "root_vc", on positions too
#: big for the exact solver, its H-search at the root (a win by virtual
#: connection, else only the opponent's must-play region is searched);
#: "tree_vc", the same H-search at the tree's most visited nodes;
#: "tree_solver", the exact solver on the root's most visited moves in
#: small positions (``TREE_SOLVE_AT``); "templates", the edge templates
#: H-search adds (``ai.solver.TEMPLATES``), wherever it runs;
#: "selection", master's own way of picking moves (``MASTER_SELECTION``;
#: off, master picks as the levels below do); "dominated", master's
#: dropping of the dominated cells at the analysed nodes: off unless
#: switched on (``tools/arena.py --with``): sound, but it scored 8 of 40
#: against MoHex where the same engine without it scored 21 of 60 on the
#: same openings (README, issue 16).
KNOWN_PARTS = ("priors", "inferior", "root_vc", "tree_vc", "tree_solver", "templates", "selection", "dominated")
#: The parts that are on (all but "dominated", but in those matches).
PARTS = set(KNOWN_PARTS) - {"dominated"}


def _part_names(names: str) -> list[str]:
    """The comma-separated part names of ``names`` (ValueError for a name
    not in ``KNOWN_PARTS``)."""
    found = [part.strip() for part in names.split(",") if part.strip()]
    for name in found:
        if name not in KNOWN_PARTS:
            raise ValueError(f"unknown part {name!r} (parts: {', '.join(KNOWN_PARTS)})")
    return found


def switch_off(names: str) -> None:
    """Turn off the comma-separated parts in ``names`` for this process."""
    PARTS.difference_update(_part_names(names))
    _tell_solver()


def switch_on(names: str) -> None:
    """Turn on the comma-separated parts in ``names`` for this process."""
    PARTS.update(_part_names(names))
    _tell_solver()


def _tell_solver() -> None:
    """The solver's own switch follows ``PARTS`` (its tables, built with
    or without the templates, are dropped when it changes)."""
    wanted = "templates" in PARTS
    if solver.USE_TEMPLATES != wanted:
        solver.USE_TEMPLATES = wanted
        solver.clear()


def move_bias(board: list[int], colour: int, last: int, moves: list[int], geo: Geometry,
              weight: float) -> array:
    """Each move's progressive bias (``weight`` times its prior
    probability among ``moves``); all 0 without priors. A compact array:
    4 bytes a move, where a list of floats takes 32 (on 19 x 19 that is
    10 KB a node)."""
    priors = geo.priors
    if priors is None or len(moves) < 2 or "priors" not in PARTS:
        return array("f", bytes(4 * len(moves)))
    probabilities = priors.probabilities(board, colour - 1, last if last < geo.cells else None, moves)
    return array("f", [weight * p for p in probabilities])


def new_node(board: list[int], empties: list[int], colour: int, geo: Geometry, deep: bool = True) -> Node:
    """The node of the position on ``board`` (``colour`` to move, the
    cells in ``empties`` still empty), its moves and proof from ``analyse``.
    Its moves' priors come when it is first searched from: most nodes
    never are (a playout goes on from a new node)."""
    proof, moves = analyse(board, colour, geo, empties, deep)
    return Node(moves, proof, deep)


class Search:
    """One search tree on one position. Build, ``run``, read ``best_move``."""

    def __init__(self, state: GameState, rng: random.Random, root: Node | None = None,
                 use_bridges: bool = True, knowledge: bool = True,
                 fill: bool = True, master: bool = False) -> None:
        if state.is_over():
            raise ValueError(f"no move to search: the game is over in {state.position_text()}")
        self.geo = geo = geometry(state)
        self.board = geo.search_board(state.owners())  # type: ignore[attr-defined]
        self.empties = [cell for cell in range(geo.cells) if not self.board[cell]]
        self.colour = state.turn + 1
        last = state.last_move
        self.last = geo.cells if last is None or last >= geo.cells else last
        self.rng = rng
        #: how moves are picked (master's differs from the levels below)
        self.selection = MASTER_SELECTION if master and "selection" in PARTS else LOWER_SELECTION
        self.bridges = geo.bridges if use_bridges else geo.no_bridges
        self.knowledge = knowledge
        #: whether the analysed nodes fill in their inferior cells (``_deepen``)
        self.fill = fill and "inferior" in PARTS
        #: from how many visits nodes get H-search (``_h_search``; None: never)
        small = len(self.empties) <= SOLVER_MAX_EMPTY
        self.h_search_at = (SMALL_H_SEARCH_AT if small else H_SEARCH_AT) if master else LOWER_H_SEARCH_AT.get(geo.game)
        self.h_search = knowledge and "tree_vc" in PARTS and self.h_search_at is not None
        #: whether the root's moves get the exact solver (``_solve``; timed searches only)
        self.tree_solve = master and knowledge and "tree_solver" in PARTS and len(self.empties) <= TREE_SOLVE_MAX_EMPTY
        self.deadline: float | None = None  # the running search's (``run``)
        #: whether the analysed nodes drop their dominated cells (master's knowledge)
        self.dominated = master and self.fill and "dominated" in PARTS
        if root is None:
            root = new_node(self.board, self.empties, self.colour, geo, False)
        if knowledge and not root.deep and root.proof is None:
            self._deepen(root, self.board, self.colour)
        if root.bias is None:
            root.bias = move_bias(self.board, self.colour, self.last, root.moves, geo, self.selection.prior_weight)
        self.root = root
        self.iterations = 0
        self.nodes = 0  # created by this search

    def run(self, max_iterations: int | None = None, seconds: float | None = None) -> SearchResult:
        """Search until ``max_iterations`` playouts or ``seconds`` have
        passed (whichever first; at least one), or the root is proven."""
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        self.deadline = deadline
        root = self.root
        done = spend(self._iterate, root, max_iterations, deadline, every=8)
        self.iterations += done
        index = best_index(root)
        visits = root.visits[index]
        rate = root.wins[index] / visits if visits else 0.5
        return SearchResult(root.moves[index], done, root.total, root.proof, rate,
                            time.perf_counter() - start, self.nodes)

    def best_move(self) -> int:
        return self.root.moves[best_index(self.root)]

    def _iterate(self) -> None:
        geo = self.geo
        rand = self.rng.random
        board = self.board.copy()
        colour = self.colour
        last = self.last
        node = self.root
        path: list[tuple[Node, int]] = []
        sqrt, log = math.sqrt, math.log
        exploration, visit_weight, rave_bias, untried_bonus, prior_weight = self.selection
        result = 0  # the winner's colour
        while True:
            if node.proof is not None:
                result = colour if node.proof == WIN else colour ^ 3
                break
            if node.fill:
                for cell, value in node.fill:
                    board[cell] = value
            elif node.total >= KNOWLEDGE_AT and not node.deep and self.knowledge:
                self._deepen(node, board, colour)
                if node.proof is not None:
                    continue
            if self.h_search and not node.h_searched and node.total >= self.h_search_at:
                self._h_search(node, board, colour)
                if node.proof is not None:
                    continue
            if node.total >= node.solve_at and self.tree_solve and len(path) == 1 and self.deadline is not None:
                node.solve_at = 2 * node.total
                self._solve(node, board, colour)
                if node.proof is not None:
                    continue
            # -- selection: a proven win, else RAVE-blended UCT over the
            # moves not proven to lose --
            moves, children = node.moves, node.children
            index = node.winning
            if index < 0:
                if node.bias is None:
                    node.bias = move_bias(board, colour, last, moves, geo, prior_weight)
                losing = node.losing
                best = -1e9
                scale = exploration * exploration * log(node.total + 1) if exploration else 0.0
                for i, (visits, wins, rave_visits, rave_wins, bias) in enumerate(
                        zip(node.visits, node.wins, node.rave_visits, node.rave_wins, node.bias)):
                    if visits:
                        if rave_visits:
                            # (1 - beta) * wins / visits + beta * rave_wins / rave_visits
                            # with beta = rave_visits / (rave_visits + c * visits), in one division
                            c = visit_weight + rave_bias * rave_visits
                            value = (wins * c + rave_wins) / (rave_visits + visits * c) + bias / sqrt(visits + 1)
                        else:  # (only walks that ended on a proof, which give no RAVE sample)
                            value = wins / visits + bias / sqrt(visits + 1)
                        if scale:
                            value += sqrt(scale / visits)
                    elif rave_visits:
                        value = rave_wins / rave_visits + untried_bonus + bias
                    else:
                        value = FIRST_PLAY + bias
                    if value > best and not (losing and i in losing):
                        best, index = value, i
            if index < 0:
                # Every move is proven lost: so is this position.
                node.proof = LOSS
                result = colour ^ 3
                break
            move = moves[index]
            board[move] = colour
            path.append((node, index))
            last = move
            colour ^= 3
            child = children[index]
            if child is None:
                empties = [cell for cell in self.empties if not board[cell]]
                if node.visits[index] + 1 >= EXPAND_AFTER and self.nodes < MAX_NODES:
                    # Cheap tactics now; the deeper analysis once it is visited more.
                    child = new_node(board, empties, colour, geo, False)
                    self.nodes += 1
                    children[index] = child
                    if child.proof is not None:
                        result = colour if child.proof == WIN else colour ^ 3
                        break
                result = playout(board, empties, colour, last, self.bridges, geo, rand)
                self._backpropagate(path, result, board)
                return
            node = child
        # The walk ended on a proven position: no playout, and maybe news
        # for the proofs above it.
        self._backpropagate(path, result, None)

    def _deepen(self, node: Node, board: list[int], colour: int) -> None:
        """Apply the virtual connection analysis to a node that has earned
        it: prove it, or keep only the moves inside the opponent's
        near-connections. Costly, so only nodes visited ``KNOWLEDGE_AT``
        times get it (MoHex's knowledge threshold)."""
        node.deep = True
        geo = self.geo
        work, filled = board, 0
        if self.fill:
            work = board.copy()
            filled = inferior.fill_in_board(geo.size, work, geo.game)
        empties = [cell for cell in self.empties if not work[cell]]
        proof, moves = analyse(work, colour, geo, empties, True)
        if proof == LOSS:
            node.proof = LOSS  # its statistics stay: the least bad move is still wanted
            return
        known = set(node.moves)
        moves = [move for move in moves if move in known]
        if self.dominated and proof is None and len(moves) > 1:
            # Neither are the dominated cells (a neighbour kept is as good).
            removed = inferior.dominated_on_board(geo.size, work, colour, moves, geo.game)
            if removed:
                moves = [move for move in moves if not removed >> move & 1]
        if moves:  # (always: the node's moves are all the cells the analysis may pick)
            node.keep(moves)
            node.proof = proof
            if filled and proof is None:
                # The search below goes on from the filled-in board.
                node.fill = tuple((cell, work[cell]) for cell in range(geo.cells) if filled >> cell & 1)
                for cell, value in node.fill:
                    board[cell] = value

    def _h_search(self, node: Node, board: list[int], colour: int) -> None:
        """The exact solver's node analysis (H-search and edge templates,
        for both sides) on a node visited ``H_SEARCH_AT`` times: a win by
        virtual connection keeps only its move, the opponent's one proves
        the loss, and otherwise only the opponent's must-play region is
        searched. About 0.1 s on an 11 x 11 middle game: only the few most
        visited nodes of a search get it."""
        node.h_searched = True
        geo = self.geo
        mine, theirs = self._masks(board, colour)
        value, move, moves = solver.solver_for(geo.size, geo.game).analyse(mine, theirs, colour - 1, H_SEARCH_SECONDS)
        if value == solver.WIN and move in node.moves:
            node.keep([move])
            node.proof = WIN
        elif value == solver.LOSS:
            node.proof = LOSS
        elif moves:
            kept = [m for m in node.moves if moves >> m & 1]
            if kept:
                node.keep(kept)

    def _solve(self, node: Node, board: list[int], colour: int) -> None:
        """The exact solver on a root move's node (``TREE_SOLVE_AT``), for
        a time that grows with its visits, never past the search's
        deadline: a win keeps only its move, a loss proves the node."""
        seconds = min(max(TREE_SOLVE_LEAST, node.total * TREE_SOLVE_PER_VISIT),
                      self.deadline - time.perf_counter())  # type: ignore[operator]
        if seconds <= 0:
            return
        geo = self.geo
        mine, theirs = self._masks(board, colour)
        value, move = solver.solver_for(geo.size, geo.game).solve(mine, theirs, colour - 1, seconds)
        if value == solver.WIN and move in node.moves:
            node.keep([move])
            node.proof = WIN
        elif value == solver.LOSS:
            node.proof = LOSS

    def _masks(self, board: list[int], colour: int) -> tuple[int, int]:
        """The solver's bitmasks of ``board``: ``colour``'s stones, the other's."""
        bit = self.geo.bit
        mine = theirs = 0
        for cell in range(self.geo.cells):
            value = board[cell]
            if value:
                if value == colour:
                    mine |= bit[cell]
                else:
                    theirs |= bit[cell]
        return mine, theirs

    def _backpropagate(self, path: list[tuple[Node, int]], winner: int, board: list[int] | None) -> None:
        """Add the result to every node on the path. With a playout
        (``board`` is then the filled board) also RAVE; without one the walk
        ended on a proven position, whose proof may prove the nodes above."""
        if board is not None:
            final = bytes(board[:self.geo.cells])
            indicators = {BLACK: final.translate(_INDICATOR[BLACK]), WHITE: final.translate(_INDICATOR[WHITE])}
        colour = self.colour ^ (3 if len(path) % 2 else 0)  # the side to move after the path
        proving = board is None
        for node, index in reversed(path):
            if proving and node.children[index] is not None and node.children[index].proof is not None:
                node.note_proof(index)
            colour ^= 3  # the side to move at ``node``
            won = 1 if winner == colour else 0
            node.total += 1
            node.visits[index] += 1
            node.wins[index] += won
            if board is not None:
                hits = node._pick(indicators[colour])
                node.rave_visits = list(map(add, node.rave_visits, hits))
                if won:
                    node.rave_wins = list(map(add, node.rave_wins, hits))
            if proving:
                proving = _prove(node)

    # -- reporting -----------------------------------------------------------------------
    def principal_variation(self, length: int = 8) -> list[int]:
        """The most visited line from the root (for tuning and tests)."""
        line, node = [], self.root
        while node is not None and node.moves and len(line) < length:
            index = best_index(node)
            line.append(node.moves[index])
            node = node.children[index]
        return line


def _prove(node: Node) -> bool:
    """Update ``node``'s proof from its children's; True when it is proven."""
    if node.proof is None:
        if node.winning >= 0:
            node.proof = WIN
        elif len(node.losing) == len(node.moves):
            node.proof = LOSS
    return node.proof is not None


def best_index(node: Node) -> int:
    """The move to play: a proven win, else the most visited move not
    proven lost (ties: the better win rate, then RAVE)."""
    children = node.children
    for i, child in enumerate(children):
        if child is not None and child.proof == LOSS:
            return i
    best, best_key = 0, None
    for i in range(len(node.moves)):
        child = children[i]
        lost = child is not None and child.proof == WIN
        visits = node.visits[i]
        rave = node.rave_wins[i] / node.rave_visits[i] if node.rave_visits[i] else 0.0
        key = (not lost, visits, node.wins[i] / visits if visits else 0.0, rave)
        if best_key is None or key > best_key:
            best, best_key = i, key
    return best


# -- levels, swap and openings --------------------------------------------------------
class Level(NamedTuple):
    """A level's budget (an ``ai.search.Budget``): at most ``iterations``
    playouts (None: no cap) and ``seconds``; whether it keeps its tree.
    Then whether playouts save bridges; whether it sees virtual connections
    (else only wins in one); whether it first tries the exact solver on
    small positions (``solve_first``)."""

    iterations: int | None
    seconds: float
    reuse: bool
    bridges: bool = True
    knowledge: bool = True
    solver: bool = False


LEVEL_SETTINGS: dict[str, Level] = {
    "beginner": Level(iterations=60, seconds=0.3, reuse=False, bridges=False, knowledge=False),
    "casual": Level(iterations=400, seconds=0.5, reuse=False),
    "strong": Level(iterations=3000, seconds=1.0, reuse=False),
    "master": Level(iterations=None, seconds=2.0, reuse=True, solver=True),
}
LEVELS: list[str] = list(LEVEL_SETTINGS)

#: Master, proven lost with more than this many seconds left, spends them
#: looking for the most stubborn move (``Engine.move``).
STUBBORN_AFTER = 0.1
#: A kept tree bigger than this many nodes is dropped, to bound memory.
MAX_REUSED_NODES = MAX_NODES // 2


def forced_move(state: GameState, deep: bool = True) -> int | None:
    """A move that needs no search: one that wins at once, the block of the
    opponent's single immediate win, one of the blocks when the opponent
    has two (the game is lost), the only cell that stops the opponent's
    near-connections; with ``deep``, also the move that completes a virtual
    connection or keeps one, or the most stubborn one in a lost position."""
    geo = geometry(state)
    board = geo.search_board(state.owners())  # type: ignore[attr-defined]
    empties = [cell for cell in range(geo.cells) if not board[cell]]
    proof, moves = analyse(board, state.turn + 1, geo, empties, deep)
    return moves[0] if proof is not None or len(moves) == 1 else None


def centre_cells(state: GameState) -> list[int]:
    """The cells farthest from every edge (the strongest first moves)."""
    distance = edge_distances(state)
    best = max(distance)
    return [cell for cell, d in enumerate(distance) if d == best]


class Engine(BaseEngine):
    """A connection game's player: ``choose_move`` at a level, and the tree
    it keeps for the master level and any move given ``move_time``. The
    games subclass it with their swap decision (``swaps``) and openings
    (``opening``); this one never swaps and opens like without the swap rule."""

    level_settings = LEVEL_SETTINGS

    def may_reuse(self, node: Node) -> bool:
        return node.size() <= MAX_REUSED_NODES

    def swaps(self, state: GameState) -> bool:
        """Whether to swap the opening stone (asked when the swap is legal)."""
        return False

    def opening(self, state: GameState, rng: random.Random) -> int | None:
        """The first move when the swap rule is on, or None: then every
        level but the weakest opens in the centre, as without the rule."""
        return None

    def search(self, state: GameState, iterations: int | None = None, seconds: float | None = None,
               seed: int | None = None, reuse: bool = False, bridges: bool = True,
               knowledge: bool = True, only: list[int] | None = None, fill: bool = True,
               master: bool = False) -> SearchResult:
        """Run one search on ``state`` (left unchanged). With ``reuse``, start
        from the kept tree when it covers this position and keep the new tree
        for the next call. ``only``: search no other root moves than these
        (ignored if it would leave none). ``fill``: the inferior cells' fill-in;
        ``master``: master's knowledge (see ``Search``)."""
        root = self.kept_root(state) if reuse else None
        searcher = Search(state, self.rng(state, seed), root, use_bridges=bridges, knowledge=knowledge, fill=fill,
                          master=master)
        if only and searcher.root.proof is None:
            allowed = set(only)
            kept = [move for move in searcher.root.moves if move in allowed]
            if kept:
                searcher.root.keep(kept)
        result = searcher.run(iterations, seconds)
        if reuse:
            self.keep(state, searcher.root)
        return result

    def move(self, state: GameState, settings: Level, seed: int | None, move_time: float | None) -> int:
        """The move at ``settings``. ``move_time`` (seconds) replaces the
        level's budget and lifts its playout cap: full strength for that long."""
        if state.can_swap():  # type: ignore[attr-defined]
            if self.swaps(state):
                return state.swap_move  # type: ignore[attr-defined]
        elif not state.moves:
            if state.swap_rule:  # type: ignore[attr-defined]
                first = self.opening(state, self.rng(state, seed))
                if first is not None:
                    return first
            if settings.knowledge:
                return self.rng(state, seed).choice(centre_cells(state))
        deep = settings.knowledge or move_time is not None
        move = forced_move(state, deep)
        if move is not None:
            return move
        only = None
        if settings.solver or move_time is not None:
            start = time.perf_counter()
            budget = settings.seconds if move_time is None else move_time
            empty = state.owners().count(-1)  # type: ignore[attr-defined]
            share = SOLVER_SHARE if empty <= SOLVER_EASY else SOLVER_SHARE / 2
            move, only = solve_first(state, budget * share)
            if move is not None:
                return move
            searched = time.perf_counter()
            budget = max(budget - (searched - start), 0.01)
            found = self.search(state, None, budget, seed, reuse=True, only=only, master=True)
            rest = budget - (time.perf_counter() - searched)
            if found.proof == LOSS and rest > STUBBORN_AFTER and (only is None or len(only) > 1):
                # Proven lost, usually long before the end: every move loses
                # against perfect play, and the search stopped at the proof.
                # The rest of the time goes to a search that does not see
                # the proof (no connections, only wins in one), whose most
                # visited move leaves the opponent the hardest task. It keeps
                # to the root's must-play region (a move outside it loses to
                # a connection the opponent already has). The kept tree
                # stays as it was, for the next move.
                return self.search(state, None, rest, seed, knowledge=False, only=only).move
            return found.move
        return self.search(state, settings.iterations, settings.seconds, seed, settings.reuse, settings.bridges,
                           settings.knowledge).move


    # -- judging -------------------------------------------------------------------------------
    def judge(self, state: GameState, seconds: float, seed: int | None, iterations: int | None) -> Verdict:
        """The verdict (see ``ai.search.Engine.evaluate``). With the swap
        available, half the time values the position after the swap and
        half the placements, and the better one is the verdict."""
        if not state.can_swap():  # type: ignore[attr-defined]
            return self._judge_placements(state, seconds, seed, iterations)
        half = seconds / 2
        capped = None if iterations is None else max(1, iterations // 2)
        after = state.copy()
        after.push(after.swap_move)  # type: ignore[attr-defined]
        swapped = self._judge_placements(after, half, seed, capped)  # the opponent to move there
        placed = self._judge_placements(state, half, seed, capped)
        swap_chance = 1.0 - swapped.chance
        if swap_chance > placed.chance and placed.reason not in ("wins_now", "blocks", "only_move"):
            proof = None if swapped.proof is None else -swapped.proof
            plies = None if swapped.plies is None else swapped.plies + 1
            return Verdict(state.swap_move, "swap", swap_chance, proof, plies,  # type: ignore[attr-defined]
                           swapped.iterations + placed.iterations)
        return placed._replace(iterations=swapped.iterations + placed.iterations)

    def move_chance(self, state: GameState, move: int) -> float | None:
        root = self.kept_root(state)
        if root is None or move not in root.moves:
            return None
        index = root.moves.index(move)
        child = root.children[index]
        if child is not None and child.proof is not None:
            return 1.0 if child.proof == LOSS else 0.0  # the child's proof is the opponent's
        return balanced_rate(root, index) if root.visits[index] >= JUDGED_VISITS else None

    def _judge_placements(self, state: GameState, seconds: float, seed: int | None,
                          iterations: int | None) -> Verdict:
        """The verdict among the stones ``state``'s side to move can place:
        the one-move tactics and virtual connections (``analyse``), the
        exact solver for a share of the time when few cells are empty
        (as master plays), then the search, from the kept tree and keeping
        its own (bridges and knowledge on)."""
        start = time.perf_counter()
        geo = geometry(state)
        board = geo.search_board(state.owners())  # type: ignore[attr-defined]
        colour = state.turn + 1
        found = tactics(board, geo)
        mine, theirs = found.wins[colour], found.wins[colour ^ 3]
        if mine:
            return Verdict(mine[0], "wins_now", 1.0, WIN, 1, 0)
        empties = [cell for cell in range(geo.cells) if not board[cell]]
        if len(theirs) >= 2:  # a double threat: lost in two, whatever is played
            return Verdict(theirs[0], "only_move" if len(empties) == 1 else "proven", 0.0, LOSS, 2, 0)
        reason = "blocks" if theirs and len(empties) >= 2 else "only_move" if len(empties) == 1 else None
        proof, moves = analyse(board, colour, geo, empties, True)
        if proof is not None:
            return Verdict(moves[0], reason or "proven", proof_chance(proof, 0.5), proof, None, 0)
        only = None
        if reason is None and isinstance(state, ConnectionState):
            empty = len(empties)
            share = SOLVER_SHARE if empty <= SOLVER_EASY else SOLVER_SHARE / 2
            move, only = solve_first(state, seconds * share)
            if move is not None:
                return Verdict(move, "proven", 1.0, WIN, None, 0)
        budget = max(seconds - (time.perf_counter() - start), 0.01)
        # No fill-in here: a proof's length counts the loser's every defence,
        # and the filled cells are defences too (``proof_length``).
        result = self.search(state, iterations, budget, seed, reuse=True, only=only, fill=False, master=True)
        root = self._tree[2] if self._tree is not None else None
        plies = None
        if result.proof is not None and root is not None:
            plies = proof_length(root, board, colour, geo)
        move = moves[0] if reason == "blocks" else result.move
        if reason is None:
            reason = "search" if result.proof is None else "proven"
        rate = result.win_rate
        if result.proof is None and root is not None and move in root.moves:
            rate = balanced_rate(root, root.moves.index(move))
        return Verdict(move, reason, proof_chance(result.proof, rate), result.proof, plies, result.iterations)


#: Playouts of the opponent's best reply before it corrects a move's mean.
BALANCE_VISITS = 8


def balanced_rate(node: Node, index: int) -> float:
    """The mean result of ``node``'s move ``index`` for its side, corrected
    for the playouts' lean toward the side to move (it places the extra
    stone when the empty cells are odd, and its best move is the maximum of
    noisy means): averaged with one minus the opponent's best reply's mean
    in the child, which leans the other way. Without a child, or with a
    reply too little tried, the move's own mean."""
    rate = node.wins[index] / node.visits[index] if node.visits[index] else 0.5
    child = node.children[index]
    if child is None or not child.moves:
        return rate
    reply = best_index(child)
    visits = child.visits[reply]
    if visits < BALANCE_VISITS:
        return rate
    return (rate + 1.0 - child.wins[reply] / visits) / 2


#: The most nodes ``proof_length`` walks before it gives up.
PROOF_WALK = 20_000


def proof_length(root: Node, board: list[int], colour: int, geo: Geometry) -> int | None:
    """Plies to the game's end under best play in the proven tree below
    ``root`` (the node of ``board``, a scratch board played on, ``colour``
    to move): a won node takes its shortest proven win (1 for a win in
    one), a lost one its longest defence (2 against a double threat).
    None when a leaf's length is unknown (a proof by virtual connection),
    when a lost node's moves were narrowed to where its proof does not
    cover the others (the must-play region), or when the tree is too big
    to walk."""
    budget = [PROOF_WALK]

    def walk(node: Node, colour: int) -> int | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if node.proof == WIN:
            best = None
            for move, child in zip(node.moves, node.children):
                if child is not None and child.proof == LOSS:
                    board[move] = colour
                    length = walk(child, colour ^ 3)
                    board[move] = 0
                    if length is not None and (best is None or length < best):
                        best = length
            if best is not None:
                return best + 1
            return 1 if tactics(board, geo).wins[colour] else None
        if node.proof != LOSS:
            return None
        found = tactics(board, geo)
        if found.connected:
            return 0
        theirs = found.wins[colour ^ 3]
        if len(theirs) >= 2 and not found.wins[colour]:
            return 2
        empty = sum(1 for cell in range(geo.cells) if not board[cell])
        if len(node.moves) != empty and not (len(theirs) == 1 and node.moves == theirs):
            return None  # moves outside the tree lose too, but how fast is unknown
        longest = 0
        for move, child in zip(node.moves, node.children):
            if child is None or child.proof != WIN:
                return None
            board[move] = colour
            length = walk(child, colour ^ 3)
            board[move] = 0
            if length is None:
                return None
            longest = max(longest, length)
        return 1 + longest

    return walk(root, colour)


def search(state: GameState, iterations: int | None = None, seconds: float | None = None,
           seed: int | None = None, bridges: bool = True, knowledge: bool = True,
           only: list[int] | None = None, master: bool = False) -> SearchResult:
    """One search on ``state`` by a fresh engine (``Engine.search``): no
    tree is reused or kept."""
    return Engine().search(state, iterations, seconds, seed, bridges=bridges, knowledge=knowledge, only=only,
                           master=master)


#: The share of the move's budget the exact solver may use (the search
#: gets the rest; half of it when more than ``SOLVER_EASY`` cells are
#: empty, where a proof in time is rare), and the most empty cells it is
#: tried on.
SOLVER_SHARE = 0.5
SOLVER_EASY = 36
SOLVER_MAX_EMPTY = 49


def solve_first(state: GameState, seconds: float) -> tuple[int | None, list[int] | None]:
    """Try to solve a small Hex or Y position exactly within ``seconds``:
    (a proven winning move, None), or (None, the moves not excluded) where
    the excluded ones are outside the opponent's must-play region or
    proven to lose; (None, None) when nothing is known. On a position with
    too many empty cells to solve, the same from H-search at the root."""
    if not isinstance(state, ConnectionState):
        return None, None
    owners = state.owners()
    player = state.turn
    mine, theirs = solver.position_masks(owners, player)
    found = solver.solver_for(state.size, state.game)
    if owners.count(-1) > SOLVER_MAX_EMPTY:
        # Too big to solve: H-search at the root alone (a win by a virtual
        # connection, or the must-play region of the opponent's).
        if "root_vc" not in PARTS:
            return None, None
        value, move, moves = found.analyse(mine, theirs, player, seconds)
        if value == solver.WIN:
            return move, None
        empty = found.board.full & ~(mine | theirs)
        if value == solver.LOSS or not moves or not empty & ~moves:  # lost, or nothing excluded
            return None, None
        return None, [cell for cell in range(len(owners)) if moves >> cell & 1]
    value, move = found.solve(mine, theirs, player, seconds)
    if value == solver.WIN:
        return move, None
    allowed = found.candidates(mine, theirs, player)
    if not allowed:  # lost (or nothing known): let the search pick the most stubborn move
        return None, None
    return None, [cell for cell in range(len(owners)) if allowed >> cell & 1]


def edge_distances(state: GameState) -> list[int]:
    """For each cell, how many cells lie between it and the nearest edge
    (0 on an edge), by breadth-first search from the edge cells."""
    board = state.board_layout  # type: ignore[attr-defined]
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
