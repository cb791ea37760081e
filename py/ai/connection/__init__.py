"""Monte Carlo tree search with RAVE for the connection games (Hex, Y).

The package: ``board`` (the search's boards and tables, the playouts),
``tactics`` (wins in one, virtual connections, the node analysis),
``tree`` (the node and its statistics), ``parts`` (the knowledge that can
be switched off), ``rave`` (the search), ``engine`` (levels, the player,
its judgements, the exact solver first), ``hex`` and ``y`` (each game's
swap and openings), ``colours`` (how the boards write the sides),
``solver`` (the exact solver), ``vcs`` (H-search: virtual connections),
``bitboard`` (the solver's and H-search's board tables), ``inferior``
(dead and captured cells) and ``patterns`` (the move priors). Here: the
engine's interface, as ``ai``, GTP and the tools use it.

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
- **Move priors** (``ai.connection.patterns``): when a node is first searched from,
  each of its moves gets the probability that a strong player plays it,
  from the weights of its local pattern and of how it lies to the last
  move (fitted to MoHex 2.0's games for Hex, Morat's for Y), as
  progressive bias: a weight times it is added to the move's value,
  divided by the square root of its visits plus one (``Selection``).
- **Inferior cells** (``ai.connection.inferior``): the node analysis first fills in
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
  (``KNOWN_PARTS``, ``Engine(parts=...)``; ``python -m tools.arena --without``).
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
  ``ai.connection.solver`` (H-search and must-play, much stronger than the analysis
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

from .board import BLACK, WHITE, centre_cells, edge_distances, geometry
from .engine import (
    LEVEL_SETTINGS,
    LEVELS,
    MAX_REUSED_NODES,
    SOLVER_MAX_EMPTY,
    Engine,
    Level,
    SearchResult,
    forced_move,
    search,
    solve_first,
)
from .parts import DEFAULT_PARTS, KNOWN_PARTS, choose_parts

__all__ = ["BLACK", "DEFAULT_PARTS", "KNOWN_PARTS", "LEVELS", "LEVEL_SETTINGS", "MAX_REUSED_NODES",
           "SOLVER_MAX_EMPTY", "WHITE", "Engine", "Level", "SearchResult", "centre_cells", "choose_parts",
           "edge_distances", "forced_move", "geometry", "search", "solve_first"]
