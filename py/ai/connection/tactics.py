"""The connection games' tactics: wins in one, virtual connections by
bridges and the node analysis built on them (see the package's doc)."""

from __future__ import annotations

from typing import NamedTuple

from ..search import LOSS, WIN
from .board import BLACK, WHITE, Geometry
from .colours import player_of
from .vcs import Connections


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
    player = player_of(colour)
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
            return Connections(carriers[node], 0, -1)
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
    keys = spread = 0
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
            keys |= bits[cell]
            spread |= need
    return Connections(None, keys, must, spread, gaps=tuple(gaps))


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
    if their_vc.vc is not None:
        bits = geo.bit
        block = [cell for cell in empties if their_vc.vc & bits[cell]] or empties[:1]
        return LOSS, block[:1]
    my_vc = virtual_connections(board, colour, found, geo)
    if my_vc.vc is not None:
        bits = geo.bit
        keep = [cell for cell in empties if my_vc.vc & bits[cell]] or empties[:1]
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

