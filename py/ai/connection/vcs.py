"""H-search: virtual connections for Hex and Y, on bitmasks (the exact
solver's node analysis, and the search's in the tree and at the root).

Positions are two bitmasks (bit ``c`` for cell ``c`` of the core's
numbering), the side to move's stones and the opponent's.

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
  The OR rule runs greedily: a new SC is intersected with the pair's
  others in turn until nothing is left, one VC at most. Every subset (the
  complete rule) found proofs of 37 % fewer nodes on the 15 puzzles of
  side 6 but took 13.8 s for them against 9.8 s, pairs only 12.4 s, and
  with pairs the level at 1.2 s a puzzle solved fewer of them (24 of 35
  against 27). So the edge template the greedy rule misses, IVa (a stone
  four rows from its edge), is added as a VC of its own (``TEMPLATES``);
  the bridge to the edge and the ziggurat it finds.
  An edge is never the middle of an AND, in Hex as in Y: a chain through
  an edge is of no use to a connection between the two edges, which is all
  H-search is for (an edge-to-edge VC or SC derived through an edge holds
  on the part from that edge on alone, a smaller carrier; if the part left
  out held the key, the rest is a VC and the game is won). Chaining
  through the edges was over a quarter of the AND rule's steps on the
  puzzles of side 6, and what it made filled the lists bounded by
  ``VC_LIMIT``, pushing out connections that count. Without it the solver
  proved the 15 puzzles of side 6 in 5.4 s against 8.3 s (16,278 nodes
  against 18,072) and four of side 7 in 3.9 s against 6.2 s; H-search on
  300 random positions of 6 x 6 to 11 x 11 took 0.89 s against 3.32 s,
  with the same edge-to-edge VCs (15), an SC in the same positions, and
  the same must-play regions but one (11 cells, was 14).
- **Y** has three edges, both players', and a group wins by touching all
  three; an edge joins nothing (two groups on one edge are not one chain).
  So the edges are three nodes of their own, never the middle of an AND,
  and a group touching one is joined to it; a group with VCs to the three
  edges, their carriers pairwise disjoint, has won. The same from an
  empty cell, or from a group with two such VCs and an SC to the third
  edge, is a win for the side to move: those are Y's winning SCs, whose
  carriers make the opponent's must-play region (``_y_verdict``).
"""

from __future__ import annotations

import time
from collections import deque
from typing import NamedTuple

from .bitboard import Board

#: H-search keeps at most this many VCs / SCs per pair of nodes, the
#: smallest carriers (a smaller one replaces the biggest of a full list):
#: the usual bound that keeps it fast. New VCs are combined oldest first,
#: so that the small carriers are built before the big ones. (Newest first,
#: with a full list refusing whatever came later, it missed the ziggurat on
#: an open 9 x 9 board: the lists filled up with long detours first.)
VC_LIMIT = 6
SC_LIMIT = 8
#: On positions of at most ``LEAN_MAX_EMPTY`` empty cells (those the
#: solver works on) H-search keeps to two more limits, ``h_search(...,
#: lean=True)``: the proofs there are about a fifth faster. On bigger
#: positions (the search's analysis of an open 11 x 11 board) it keeps
#: everything: with the limits everywhere the master scored 14-6 and
#: 11-9 against MoHex at 100 simulations (python -m tools.arena, seeds 1 and 2),
#: against 18-2 and 15-5 without them (commit `232913e`).
#:
#: ``LINK_LIMIT``: a VC between two empty cells through a group of the
#: player's (each joined to the group) is kept only when its carrier has
#: at most this many cells: a cell next to the group and one a bridge
#: away, say. The longer ones are many (every pair of the group's
#: connections), and the group, a node of the search, carries the same
#: connection. The solver on the 15 puzzles of side 6 (``tests/data/
#: hex_puzzles.json``, CPython, from fresh tables): 8.1 s in all against
#: 9.6 s keeping them all (6x6-henderson-09 1.8 s, was 2.7 s; -20 1.2 s,
#: was 1.5 s; -21 1.1 s, was 1.7 s; -17 1.2 s, was 0.6 s); the four of
#: side 7 it proves in 30 s, 5.9 s against 8.6 s. A limit of 0 took 9.8 s;
#: 4 took 7.9 s, but 2.2 s on 6x6-henderson-09.
LINK_LIMIT = 2
#: ``INNER_SC_SIZE``: an SC between two nodes of which neither is an edge
#: (groups and empty cells) is kept only when its carrier, key included,
#: has at most this many cells; those to an edge are all kept. On the 15
#: puzzles of side 6 the proofs had the same nodes within 0.3 % (14,800
#: against 14,833) in 7.9 s against 8.5 s, and on the four of side 7 the
#: same nodes in 5.8 s against 6.3 s; a limit of 2 took 11 % more nodes,
#: 0 ten times as many.
INNER_SC_SIZE = 4
#: (The same bound as the master's solver, ``ai.connection.SOLVER_MAX_EMPTY``.)
LEAN_MAX_EMPTY = 49
#: Between two empty cells H-search makes only the SCs through one common
#: neighbour (from ``Board.two_apart``; two of them make a bridge); the AND
#: rule makes no longer SC there. Those were three quarters of its work. On 240
#: random positions (6 x 6 to 11 x 11) keeping them found as many
#: edge-to-edge VCs (32) and must-play regions of 22,870 cells against
#: 23,201, in 2.5-3.3 times the time.


class OutOfTimeError(Exception):
    """The solver's deadline passed before a proof."""


class Connections(NamedTuple):
    """What a search for one player's edge-to-edge connections found: by
    H-search (``h_search``) or by the bridges of the search's node analysis
    (``ai.connection.tactics.virtual_connections``).

    ``vc``: the carrier of a VC (None if none was found); ``keys``: the key
    cells of the SCs (the cells that make a VC); ``must``: the intersection
    of the SCs' carriers (keys included), where the opponent has to play
    (every cell when there are no SCs: the board's ``full`` mask from
    H-search, -1 from the bridges); ``spread``: the union of those carriers
    (what the must-play region depends on); ``semi``: the carrier of one
    edge-to-edge SC, key included (0 when there is none), and ``key`` its
    key; ``gaps``: each SC's key with its carrier, in cell order (the
    bridges' analysis lists them; H-search leaves them out)."""

    vc: int | None
    keys: int
    must: int
    spread: int = 0
    semi: int = 0
    key: int = 0
    gaps: tuple[tuple[int, int], ...] = ()


def _make_room(carriers: list[int], carrier: int) -> bool:
    """Drop the biggest of a full list of carriers for ``carrier`` if that
    is smaller (True), else keep the list as it is (False): the limits keep
    the smallest carriers, whatever order they were found in."""
    biggest = max(carriers, key=int.bit_count)
    if biggest.bit_count() <= carrier.bit_count():
        return False
    carriers.remove(biggest)
    return True


def h_search(board: Board, stones: int, empty: int, player: int, deadline: float | None = None,
             lean: bool = False) -> Connections:
    """Anshelevich's H-search for ``player`` holding ``stones`` with the
    cells of ``empty`` free (see the module doc; Y's differences in
    ``_y_verdict``). ``lean``: within the limits ``LINK_LIMIT`` and
    ``INNER_SC_SIZE`` (for small positions, see ``LEAN_MAX_EMPTY``)."""
    around = board.around
    hex_board = board.game == "hex"
    sides = board.edges[player]
    # Nodes: first the edges, then the groups, then the empty cells.
    # ``ends[x]``: the node's own bit when it is an empty cell (a carrier
    # must not contain its endpoints). In Hex, where the two edges are the
    # two ends of the one connection wanted, a group touching an edge is
    # part of the edge's node; in Y it is a node of its own, joined to each
    # edge it touches (two groups on one edge are not joined).
    rest = stones
    if hex_board:
        first, second = sides
        edge_stones = [board.flood(first, stones), board.flood(second, stones)]
        if edge_stones[0] & edge_stones[1]:
            return Connections(0, 0, 0)
        rest &= ~(edge_stones[0] | edge_stones[1])
        reach = [(board.grow(edge_stones[0]) | first) & empty, (board.grow(edge_stones[1]) | second) & empty]
    else:
        if board.connected(stones, player):
            return Connections(0, 0, 0)
        reach = [side & empty for side in sides]
    terminals = len(reach)
    touching: list[tuple[int, int]] = []  # (edge, group node) of Y's groups on an edge
    group_stones = []  # the stones of each group node after the terminals
    while rest:
        group = board.flood(rest & -rest, stones)
        group_stones.append(group)
        rest &= ~group
        if not hex_board:
            touching.extend((edge, len(reach)) for edge, side in enumerate(sides) if group & side)
        reach.append(board.grow(group) & empty)
    groups = len(reach)
    cells: list[int] = []
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
    #: the VCs the AND rule has taken from the queue, the same way: a new
    #: VC is combined with those only, so each two are combined once (when
    #: the second is taken), not once more if both were known at the first
    done: list[dict[int, list[int]]] = [{} for _ in range(count)]
    #: the same lists, by the group and edge nodes alone (an empty cell's
    #: connections to other cells are mostly of no use to the AND rule)
    group_done: list[dict[int, list[int]]] = [{} for _ in range(count)]
    #: scs[x][y] (the same list as scs[y][x]): the SCs' carriers, keys included
    scs: list[dict[int, list[int]]] = [{} for _ in range(count)]
    queue: deque[tuple[int, int, int]] = deque()
    keys = [0]  # the keys of the edge-to-edge SCs (Hex)
    semi = [0, 0]  # the smallest edge-to-edge SC's carrier and key (Hex)
    #: Y: (edge, node, SC carrier) -> the SC's key
    edge_keys: dict[tuple[int, int, int], int] = {}

    def add_vc(x: int, y: int, carrier: int) -> bool:
        known = vcs[x].get(y)
        if known is None:
            known = vcs[x][y] = []
            vcs[y][x] = known
        else:
            for old in known:
                if old & carrier == old:
                    return False
            size = len(known)
            known[:] = [old for old in known if old & carrier != carrier]
            if len(known) >= VC_LIMIT and not _make_room(known, carrier):
                return False
            if len(known) < size:  # the dropped ones go from done too
                taken = done[x].get(y)
                if taken:
                    taken[:] = [old for old in taken if old in known]
        known.append(carrier)
        queue.append((x, y, carrier))
        return True

    def add_sc(x: int, y: int, carrier: int, key: int) -> None:
        if lean and x >= terminals and y >= terminals and carrier.bit_count() > INNER_SC_SIZE:
            return
        if hex_board:
            if x + y == 1:
                keys[0] |= key
                if not semi[0] or carrier.bit_count() < semi[0].bit_count():
                    semi[0], semi[1] = carrier, key
        elif x < terminals or y < terminals:
            edge_keys[(x, y, carrier) if x < y else (y, x, carrier)] = key
        known = vcs[x].get(y)
        if known:
            for old in known:
                if old & carrier == old:
                    return
        semis = scs[x].get(y)
        if semis is None:
            scs[x][y] = scs[y][x] = [carrier]
            return
        for old in semis:
            if old & carrier == old:
                return
        semis[:] = [old for old in semis if old & carrier != carrier]
        if len(semis) >= SC_LIMIT and not _make_room(semis, carrier):
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
    for edge, group in touching:
        add_vc(edge, group, 0)
    for x in range(groups):
        near = reach[x]
        while near:
            low = near & -near
            near ^= low
            add_vc(x, node_of[low], 0)
    # The edge templates H-search would miss (``TEMPLATES``): an anchor
    # of the player's (a group, or an empty cell) with no opponent stone
    # in the carrier is joined to the edge.
    free = empty | stones
    for edge, anchor, carrier in board.templates[player]:
        if carrier & ~free:
            continue
        if anchor & empty:
            node = node_of[anchor]
        elif not anchor & stones:
            continue  # the opponent's
        elif hex_board and anchor & (edge_stones[0] | edge_stones[1]):
            if anchor & edge_stones[edge]:
                continue  # on the edge already
            node = 1 - edge
        else:
            index = next(i for i, group in enumerate(group_stones) if group & anchor)
            if group_stones[index] & sides[edge]:
                continue  # a Y group on the edge already
            node = terminals + index
        add_vc(edge, node, carrier & empty)
    for cell in cells:
        x = node_of[cell]
        near = around[cell.bit_length() - 1] & empty
        while near:
            low = near & -near
            near ^= low
            y = node_of[low]
            if y > x:
                add_vc(x, y, 0)
    # Two empty cells two steps apart: an SC through each empty cell both
    # touch, and a VC (the bridge) when there are two.
    for one, two, between in board.two_apart:
        if one & empty and two & empty and between & empty:
            x, y = node_of[one], node_of[two]
            between &= empty
            low = between & -between
            if low == between:
                scs[x][y] = scs[y][x] = [low]
            else:
                scs[x][y] = scs[y][x] = [low, between ^ low]
                add_vc(x, y, between)
    # The AND rule on every new VC, oldest first (the small carriers come
    # before the big ones built from them), until nothing new appears.
    checks = 0
    while queue:
        x, y, carrier = queue.popleft()
        if hex_board and 1 in vcs[0]:
            break
        checks += 1
        if deadline is not None and not checks & 255 and time.perf_counter() > deadline:
            raise OutOfTimeError
        known = vcs[x].get(y)
        if known is None or carrier not in known:
            continue  # replaced by a smaller one meanwhile
        taken = done[x].get(y)
        if taken is None:
            taken = done[x][y] = []
            done[y][x] = taken
            if x < groups:
                group_done[y][x] = taken
            if y < groups:
                group_done[x][y] = taken
        for end, mid in ((x, y), (y, x)):
            if mid < terminals:
                continue  # an edge is never the middle of a chain (see the module doc)
            end_bit = ends[end]
            mid_bit = ends[mid]
            end_vcs = vcs[end]
            # (add_vc changes the lists of end and z, never mid's dict)
            if end_bit and mid_bit:
                # Two empty cells: SCs through mid to groups (those between
                # two cells come from ``Board.two_apart``, above).
                for z, others in group_done[mid].items():
                    joined = end_vcs.get(z)
                    if joined and not joined[0]:
                        continue  # end and z touch: nothing to add
                    for other in others:
                        if not (other & carrier or other & end_bit):
                            add_sc(end, z, carrier | other | mid_bit, mid_bit)
                continue
            for z, others in done[mid].items():
                if z == end:
                    continue
                z_bit = ends[z]
                if carrier & z_bit:
                    continue
                joined = end_vcs.get(z)
                if joined and not joined[0]:
                    continue  # end and z touch: nothing to add
                if not hex_board and end < terminals and z < terminals:
                    continue  # two edges of Y: nothing to join
                if mid_bit:  # (end is a group or an edge)
                    for other in others:
                        if not (other & carrier or other & end_bit):
                            add_sc(end, z, carrier | other | mid_bit, mid_bit)
                elif lean and end_bit and z_bit:  # two empty cells through a group
                    if carrier.bit_count() <= LINK_LIMIT:
                        for other in others:
                            if not (other & carrier or other & end_bit) and (carrier | other).bit_count() <= LINK_LIMIT:
                                add_vc(end, z, carrier | other)
                else:
                    for other in others:
                        if not (other & carrier or other & end_bit):
                            add_vc(end, z, carrier | other)
        taken.append(carrier)
    if not hex_board:
        return _y_verdict(board, vcs, scs, edge_keys, ends, groups)
    win = vcs[0].get(1)
    if win:
        return Connections(min(win, key=int.bit_count), 0, 0)
    # The must-play region, and what it rests on: the SCs taken smallest
    # first, each only if it shrinks the region (an empty region, a loss,
    # then rests on few carriers).
    must, spread = board.full, 0
    for carrier in sorted(scs[0].get(1, ()), key=int.bit_count):
        if must & carrier != must:
            must &= carrier
            spread |= carrier
    return Connections(None, keys[0], must, spread, semi[0], semi[1])


def _y_verdict(board: Board, vcs: list[dict[int, list[int]]], scs: list[dict[int, list[int]]],
               edge_keys: dict[tuple[int, int, int], int], ends: list[int], groups: int) -> Connections:
    """H-search's verdict in Y, from the connections between its nodes
    (nodes 0-2 the edges, then ``groups - 3`` groups, then the empty cells).

    A group with VCs to the three edges whose carriers are pairwise
    disjoint has won (the opponent's move touches one carrier; the answer
    in it restores that one). The same from an empty cell is a win for the
    side that plays there; from a group with VCs to two edges and an SC to
    the third, all disjoint, a win for the side that plays the SC's key:
    those are the SCs of the win, and the opponent must play in each of
    their carriers. Every node is tried as the centre, so a Y-shaped chain
    is found at its fork."""
    best_vc: int | None = None
    semis: list[tuple[int, int]] = []  # (carrier, key) of the winning SCs
    for x in range(3, len(ends)):
        x_bit = ends[x]
        near = vcs[x]
        lists = [near.get(edge) or () for edge in range(3)]
        if lists[0] and lists[1] and lists[2]:
            for a in lists[0]:
                for b in lists[1]:
                    if a & b:
                        continue
                    for c in lists[2]:
                        if (a | b) & c:
                            continue
                        carrier = a | b | c
                        if x_bit:
                            semis.append((carrier | x_bit, x_bit))
                        elif best_vc is None or carrier.bit_count() < best_vc.bit_count():
                            best_vc = carrier
        if x_bit or x >= groups:
            continue
        for edge in range(3):  # a group: two VCs and an SC
            one, two = [lists[e] for e in range(3) if e != edge]
            if not (one and two):
                continue
            for semi in scs[edge].get(x, ()):
                for a in one:
                    if a & semi:
                        continue
                    for b in two:
                        if b & (a | semi):
                            continue
                        semis.append((a | b | semi, edge_keys[(edge, x, semi)]))
    if best_vc is not None:
        return Connections(best_vc, 0, 0)
    keys = 0
    must, spread = board.full, 0
    semis.sort(key=lambda found: found[0].bit_count())
    for carrier, key in semis:
        keys |= key
        if must & carrier != must:
            must &= carrier
            spread |= carrier
    semi, key = semis[0] if semis else (0, 0)
    return Connections(None, keys, must, spread, semi, key)
