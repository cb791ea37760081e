"""Ultimate Tic-Tac-Toe by Monte Carlo tree search.

``Search`` is UCT over the position's 9-bit boards, with:

- playouts that finish the game at random, except that a cell that wins the
  small board is taken and else one the opponent needs to win it is blocked
  (two lookups in ``WINNING_CELLS``); a playout ends as a draw as soon as no
  line of boards is possible for either side (``LINE_POSSIBLE``);
- priors: a new child starts with ``Prior.visits`` virtual playouts whose
  mean rewards winning or blocking a small board and penalises sending the
  opponent to a board they can win at once or to a free choice; a node is
  expanded (all its children at once) on its second visit;
- an MCTS-solver: game ends, dead positions (drawn whatever is played) and
  positions where the side to move wins at once are proven, and proofs go up
  the tree; a move proven lost is never chosen, a proven win is played at
  once, and the search stops when the root is solved;
- at the master level, an evaluation backed up by minimax beside the
  playouts' mean ("implicit minimax backups", after Lanctot, Winands,
  Pepels and Sturtevant, 2014): when a node is expanded, every child gets
  ``evaluate`` of its position (``Node.ev``, for the child's mover); each
  playout's way back sets every node on its path to the best of its
  children's values, seen from the other side; a child is chosen by half
  its playouts' mean and half that minimax value, plus UCT's bonus. The
  evaluation (see "the evaluation" below) is a good judge of which of two
  sibling moves is better and a poor judge of the position's absolute
  value (the tactics between boards are beyond it), so it serves as minimax
  over the tree, not as the playouts' replacement; where it replaced the
  playouts, or was averaged into them, the search got weaker;
- at the master level, transpositions merged: a position the search meets
  again by another order of moves gets the list of children it got the
  first time (``Search.merged``, by the position's marks and forced board),
  so what was learnt below it serves both ways in; each node keeps its own
  visits and mean, the statistics of the move into it. Rare in this game:
  in 20,000-iteration searches from random games after 10, 20 and 30 moves,
  9, 17 and 89 of some 8,000 expansions were merged, for about 1.5 % of the
  iterations a second;
- tree reuse: the strongest level, and any search given ``move_time``, keeps
  its tree in the ``Engine`` that searched (see ``ai.search``). Its next
  request whose move list extends that one starts from the matching node,
  so the web worker and the GTP engine, which hold one engine for the game,
  think on across moves;
- the master's opening book (``OPENING_BOOK``): X's first move, O's reply
  to each first move, and X's second move after each reply to the book's
  first, each the choice of a 300,000-iteration search by the master itself
  (``tools/uttt_book.py``), found up to the grid's eight symmetries. The
  opening is where a short search is least sure: at 0.25 s a move, six
  seeded searches in each of the book's 18 positions chose the book's move
  (or a symmetric one) 51 times in 108.

``Engine.evaluate`` (the hint, the evaluation bar, the analysis of a game)
answers a win at once, a forced block (the only move after which the
opponent cannot win at once) and an only move without thinking about the
move, and otherwise searches like master for the time given, from the tree
its previous evaluation kept; a proven result comes with its length in
plies when the proven tree ends in finished games.

Everything is seeded: for a given seed and position a playout-capped search
is reproducible; a timed one depends on the machine's speed.

Levels (``LEVELS``, weakest first). A level "slips" with the given chance
and plays a random legal move instead of searching; every level takes a win
on the spot and answers at once when there is only one legal move.

    ========  ==========  ============  =====  ================================
    level     playouts    time cap      slips  tree kept between moves
    ========  ==========  ============  =====  ================================
    beginner  40          0.5 s         30 %   no
    casual    300         0.5 s         10 %   no
    strong    3000        1.0 s         0 %    no
    master    no cap      2.0 s         0 %    yes
    ========  ==========  ============  =====  ================================

The caps make the weak levels equally weak on every device; master is
limited by time only: 2 s in the browser's worker, which runs at about 0.6x
CPython, is about 1.2 s of CPython's work. ``move_time`` replaces the budget
with that many seconds at master's full strength. Only master evaluates
(``Level.minimax_weight``), with exploration 0.5; the others search as
before, so their measured ratings stand.

Tuning (self-play at equal playouts, 2000-3000 a move, 40-60 games each,
so +-8 %): win/block playouts beat plain random ones (62 %) and win-only
ones (66 %); also avoiding sending the opponent to a board they can win made
them worse (30 %); choosing a winnable board on a free choice made them
better (62 %). Priors beat none (62 %); doubling their weight and visits
added a little (60 %). Exploration 0.7 beat 0.5 (63 %) and 0.4 (56 %);
1.0 was level (51 %).

The evaluation's minimax (issue 17), by ``tools/arena.py`` against the
master of commit 0b8cc0d (``py/gtp.py`` of that commit as the opponent),
100 games a match at 0.0625 s a move each, colours alternating: share 0.5
with exploration 0.7 scored 68.5 %, with exploration 0.5 71 %, 0.35
65.5 %, 1.0 60.5 %; shares 0.3 and 0.7 (exploration 0.7) 64.5 % and
61.5 %; halving the priors' weight 70 %; the evaluation mixed into each
playout's result (0.3 of it) 63.5 %. At 3,000 playouts a move each (the
time left out; a first version of the table, exploration 0.7) shares 0.3
and 0.6 scored 73 % and 75 %: a search with it makes about 0.75 times the
playouts a second. Before the minimax, the evaluation in other roles lost
or broke even against the same opponent (60 games each): as the playouts'
replacement 22-44 % (with 2.5 times the iterations), as the children's
priors 43-51 %, as the policy of a PUCT selection 33-45 %, cut-off
playouts (10 plies, then the evaluation) 50 %, half of each playout's
result 52 %.

Against OpenSpiel's MCTSBot (plain UCT in C++, random rollouts, about 2-6
times our playouts in the same time), ``tools/arena.py``, before the
evaluation: 40 games each at 0.5 s a move on a shared 2-core machine:
67.5 % (22 wins, 10 draws, 8 losses; 95 % interval 52-80 %) at equal time
and 58.8 % (18-11-11; 43-73 %) with half the time; 60 games each at 0.25 s
a move: 61.7 % (29-16-15; 49-73 %) and 55.8 % (24-19-17; 43-68 %). README
has the latest figures.
"""

from __future__ import annotations

import json
import math
import pkgutil
import random
import time
from typing import Any, NamedTuple

from core.uttt import (
    BITS, BOARD_CELLS, CELL_BOARD, CELL_POSITION, CELLS_OF, FULL, HAS_LINE, LINES, WINNING_CELLS, UtttState,
)

from .search import (
    DRAWN, JUDGED_VISITS, LOSS, WIN, Engine as BaseEngine, SearchResult, Verdict, proof_chance, spend,
    subtree_size,
)

DRAW = -1  # a playout's result when nobody wins (else the winner, 0 or 1)

#: ``LINE_POSSIBLE[blocked]``: whether some line of the big board avoids
#: every board in ``blocked`` (those drawn or won by the opponent).
LINE_POSSIBLE: tuple[bool, ...] = tuple(
    any(not line & blocked for line in LINES) for blocked in range(1 << 9)
)


#: The mean a proven node keeps (for its mover, while its proof is for the
#: side to move there), so that UCT needs no test for proofs: a move into a
#: position its side to move wins is never chosen, one into a lost position
#: always, and a proven draw is worth exactly a draw.
PROVEN_MEAN = {WIN: -1e9, DRAWN: 0.5, LOSS: 1e9}
#: A proven node's ``ev`` (for its mover): what the proof is worth to it.
PROVEN_EV = {WIN: 0.0, DRAWN: 0.5, LOSS: 1.0}


class Node:
    """One position in the search tree, reached by ``move``.

    ``visits`` and ``mean`` are from the point of view of the player who
    played ``move`` (the "mover"): the mean reward of the playouts through
    it (1 a win, 0.5 a draw), starting with a few virtual visits worth the
    move's prior. ``rsqrt`` is ``visits ** -0.5``, kept up to date so that
    choosing among siblings costs no square roots. ``children`` is None until
    the node is expanded. ``proof`` is None until the solver knows the
    position's value under perfect play for the side to move in it (not the
    mover): WIN, LOSS or DRAWN, as everywhere (``ai.search``). ``ev`` (for
    the mover, master only) is ``evaluate`` of the position when its parent
    was expanded and, once it has children, the best of theirs for the other
    side: the evaluation's minimax over the tree below; a proof sets it.
    """

    __slots__ = ("move", "children", "visits", "mean", "rsqrt", "proof", "ev")

    def __init__(self, move: int, visits: float = 0.0, mean: float = 0.5) -> None:
        self.move = move
        self.children: list[Node] | None = None
        self.visits = visits
        self.mean = mean
        self.rsqrt = visits ** -0.5 if visits else 0.0
        self.proof: int | None = None
        self.ev = 0.5

    def prove(self, proof: int) -> None:
        self.proof = proof
        self.mean = PROVEN_MEAN[proof]
        self.ev = PROVEN_EV[proof]

    def child(self, move: int) -> Node | None:
        for child in self.children or ():
            if child.move == move:
                return child
        return None

    def size(self) -> int:
        """Nodes in this subtree."""
        return subtree_size(self)

    def __repr__(self) -> str:
        return f"<Node move={self.move} visits={self.visits:g} mean={self.mean:.3f} proof={self.proof}>"


# -- the position during search ----------------------------------------------------
# Search works on bare lists and ints, not on UtttState: copying a few small
# values per iteration and playing moves inline is several times faster than
# method calls with an undo stack.


def _moves(marks: list[list[int]], closed: int, forced: int) -> list[int]:
    """The legal cells (the game must not be over)."""
    x, o = marks
    if forced >= 0:
        return list(CELLS_OF[forced][FULL ^ (x[forced] | o[forced])])
    moves: list[int] = []
    for board in BITS[FULL ^ closed]:
        moves.extend(CELLS_OF[board][FULL ^ (x[board] | o[board])])
    return moves


def _winning_move(marks: list[list[int]], won: list[int], closed: int, forced: int, player: int) -> int:
    """A cell that wins the game at once for ``player``, or -1."""
    mine, theirs = marks[player], marks[player ^ 1]
    boards = (forced,) if forced >= 0 else BITS[FULL ^ closed]
    have = won[player]
    for board in boards:
        if HAS_LINE[have | 1 << board]:
            cells = WINNING_CELLS[mine[board]] & ~theirs[board]
            if cells:
                return BOARD_CELLS[board][BITS[cells][0]]
    return -1


def _dead(won: list[int], closed: int) -> bool:
    """Whether neither player can still get three boards in a line: every
    line holds a board drawn or won by the other side. The game is then a
    draw, whatever is played."""
    return not LINE_POSSIBLE[closed & ~won[0]] and not LINE_POSSIBLE[closed & ~won[1]]


def _play(marks: list[list[int]], won: list[int], closed: int, player: int, move: int) -> tuple[int, int, int | None]:
    """Play ``move`` for ``player`` in place: (closed, forced, result) where
    result is None while the game goes on, else the winner or DRAW (a dead
    position counts as drawn already)."""
    board, position = CELL_BOARD[move], CELL_POSITION[move]
    mine = marks[player]
    mask = mine[board] | 1 << position
    mine[board] = mask
    if HAS_LINE[mask]:
        won[player] |= 1 << board
        closed |= 1 << board
        if HAS_LINE[won[player]]:
            return closed, -1, player
        if _dead(won, closed):
            return closed, -1, DRAW
    elif mask | marks[player ^ 1][board] == FULL:
        closed |= 1 << board
        if _dead(won, closed):
            return closed, -1, DRAW
    return closed, -1 if closed >> position & 1 else position, None


def _playout(marks: list[list[int]], won: list[int], closed: int, forced: int, player: int, rand) -> int:
    """Finish the game with cheap random moves; the winner or DRAW.

    Policy: on a free choice, a random open board among those the player
    can win at once, else among all; then in the board, a cell that wins it
    if there is one, else one that stops the opponent winning it, else any
    empty cell. Taking and blocking small boards is what separates a
    sensible game from noise, and costs two table lookups (measured: see the
    module doc). The playout stops as soon as nobody can get a line of
    boards."""
    won0, won1 = won
    mine, other = marks[player], marks[player ^ 1]  # the side to move's marks and the other's, swapped each ply
    while True:
        if forced < 0:
            boards = BITS[FULL ^ closed]
            winnable = [board for board in boards if WINNING_CELLS[mine[board]] & ~other[board]]
            if winnable:
                boards = winnable
            board = boards[int(rand() * len(boards))]
        else:
            board = forced
        mask = mine[board]
        theirs = other[board]
        empty = FULL ^ (mask | theirs)
        cells = BITS[WINNING_CELLS[mask] & empty or WINNING_CELLS[theirs] & empty or empty]
        position = cells[int(rand() * len(cells))]
        mask |= 1 << position
        mine[board] = mask
        if HAS_LINE[mask]:
            closed |= 1 << board
            if player:
                won1 |= 1 << board
                if HAS_LINE[won1]:
                    return 1
            else:
                won0 |= 1 << board
                if HAS_LINE[won0]:
                    return 0
            if not LINE_POSSIBLE[closed & ~won0] and not LINE_POSSIBLE[closed & ~won1]:
                return DRAW
        elif mask | theirs == FULL:
            closed |= 1 << board
            if not LINE_POSSIBLE[closed & ~won0] and not LINE_POSSIBLE[closed & ~won1]:
                return DRAW
        forced = -1 if closed >> position & 1 else position
        player ^= 1
        mine, other = other, mine


# -- the evaluation ----------------------------------------------------------------
# Each small board gets both players' chances of winning it, from a table
# (``uttt_boards.json``, made by tools/uttt_boards.py from games of the
# playout policy) indexed by the board's pattern seen by the side to move,
# up to symmetry, and its kind: the board the side to move is sent to, one
# of the others while a board is forced, or any board on a free choice.
# Treating the boards as independent, each player's chance of some line of
# three on the big board follows; a logistic of the difference is the
# evaluation. It knows which boards are won, drawn or dead, the small-board
# threats, and the tempo of being sent to a board; not the tactics between
# boards, which the search and its playouts see.

KIND_OTHER, KIND_SENT, KIND_FREE = 0, 1, 2
#: Each kind's name in ``uttt_boards.json``, by kind.
KIND_NAMES = ("other", "sent", "free")

#: A pattern the table does not know: both players' chances.
UNKNOWN_CHANCES = (0.3, 0.3)

_symmetries: list[tuple[int, ...]] = []  # the eight maps of a 9-bit mask, built on first use
_table: dict[int, tuple[float, float]] = {}  # kind << 18 | canonical pattern -> chances
_chances_of: dict[int, tuple[float, float]] = {}  # kind << 18 | pattern -> chances, filled as met
_scale = 0.0  # the logistic's scale; 0 until the table is loaded


def canonical_pattern(mine: int, theirs: int) -> int:
    """The least of ``mine | theirs << 9`` over the board's eight symmetries."""
    if not _symmetries:
        for turns in range(4):
            for mirror in (False, True):
                where = []
                for cell in range(9):
                    for _ in range(turns):
                        cell = cell % 3 * 3 + 2 - cell // 3  # a quarter turn
                    where.append(cell // 3 * 3 + 2 - cell % 3 if mirror else cell)
                _symmetries.append(tuple(sum(1 << where[cell] for cell in BITS[mask]) for mask in range(512)))
    return min(symmetry[mine] | symmetry[theirs] << 9 for symmetry in _symmetries)


def load_board_table(data: dict[str, Any] | None = None) -> None:
    """Read the small-board table (``data`` in the file's format, or the
    committed file); the evaluation reads it on first use by itself."""
    global _scale
    if data is None:
        data = json.loads(pkgutil.get_data(__name__, "uttt_boards.json") or b"")
    table: dict[int, tuple[float, float]] = {}
    for kind, name in enumerate(KIND_NAMES):
        for pattern, mover, other in data[name]:
            table[kind << 18 | pattern] = (mover / 1000, other / 1000)
    _table.clear()
    _table.update(table)
    _chances_of.clear()
    _scale = float(data["scale"])


def _chances(key: int) -> tuple[float, float]:
    """The chances of a board (``kind << 18 | mine | theirs << 9``): the
    side to move's and the other's; remembered."""
    if not _scale:
        load_board_table()
    canonical = canonical_pattern(key & FULL, key >> 9 & FULL)
    pair = _table.get(key >> 18 << 18 | canonical) or _table.get(canonical) or UNKNOWN_CHANCES
    _chances_of[key] = pair
    return pair


def _board_chances(marks: list[list[int]], won: list[int], closed: int, forced: int,
                   player: int) -> tuple[list[float], list[float]]:
    """Each board's chance of being won by ``player`` (to move) and by the other."""
    mine, theirs = marks[player], marks[player ^ 1]
    won_mine, won_theirs = won[player], won[player ^ 1]
    me, them = [0.0] * 9, [0.0] * 9
    known = _chances_of
    for board in range(9):
        bit = 1 << board
        if won_mine & bit:
            me[board] = 1.0
        elif won_theirs & bit:
            them[board] = 1.0
        elif not closed & bit:
            kind = KIND_FREE if forced < 0 else KIND_SENT if board == forced else KIND_OTHER
            key = kind << 18 | mine[board] | theirs[board] << 9
            me[board], them[board] = known.get(key) or _chances(key)
    return me, them


def _edge(me: list[float], them: list[float]) -> float:
    """One side's chance of some line of boards minus the other's: one
    minus the product of its lines' chances of failing (the big board's
    rows, columns and diagonals, ``LINES``'s order, written out: this runs
    for every child of every expanded node)."""
    a, b, c, d, e, f, g, h, i = me
    miss_me = ((1.0 - a * b * c) * (1.0 - d * e * f) * (1.0 - g * h * i) * (1.0 - a * d * g)
               * (1.0 - b * e * h) * (1.0 - c * f * i) * (1.0 - a * e * i) * (1.0 - c * e * g))
    a, b, c, d, e, f, g, h, i = them
    miss_them = ((1.0 - a * b * c) * (1.0 - d * e * f) * (1.0 - g * h * i) * (1.0 - a * d * g)
                 * (1.0 - b * e * h) * (1.0 - c * f * i) * (1.0 - a * e * i) * (1.0 - c * e * g))
    return miss_them - miss_me


def line_edge(marks: list[list[int]], won: list[int], closed: int, forced: int, player: int) -> float:
    """The side to move's chance of a line of boards minus the opponent's
    (the evaluation before its logistic)."""
    return _edge(*_board_chances(marks, won, closed, forced, player))


def evaluate(marks: list[list[int]], won: list[int], closed: int, forced: int, player: int) -> float:
    """The evaluation of a position (not over): the chance that ``player``,
    to move, wins, a draw counting half."""
    edge = line_edge(marks, won, closed, forced, player)
    if not _scale:
        load_board_table()
    return 1.0 / (1.0 + math.exp(-_scale * edge))


def _child_values(marks: list[list[int]], won: list[int], closed: int, player: int,
                  moves: list[int]) -> list[float]:
    """``evaluate`` after each of ``moves`` for ``player``, who plays it (1
    for a move that wins the game): the boards' chances are worked out once
    for the position and changed where a move changes them (its board, and
    the board it sends the opponent to; every open board on a free choice)."""
    if not _scale:
        load_board_table()
    opponent = player ^ 1
    mine, theirs = marks[opponent], marks[player]  # "mine": the side to move after the move
    won_mover = won[player]
    base_me, base_them = _board_chances(marks, won, closed, 9, opponent)  # no board is "sent"
    known = _chances_of
    scale = _scale
    values = []
    for move in moves:
        board, position = CELL_BOARD[move], CELL_POSITION[move]
        after = theirs[board] | 1 << position
        me, them = base_me.copy(), base_them.copy()
        decided = True
        if HAS_LINE[after]:
            if HAS_LINE[won_mover | 1 << board]:
                values.append(1.0)
                continue
            me[board], them[board] = 0.0, 1.0
        elif after | mine[board] == FULL:
            me[board] = them[board] = 0.0
        else:
            decided = False
        if closed >> position & 1 or (decided and position == board):
            # A free choice: every open board is of that kind.
            now_closed = closed | 1 << board if decided else closed
            for other in BITS[FULL ^ now_closed]:
                key = KIND_FREE << 18 | mine[other] | (after if other == board else theirs[other]) << 9
                me[other], them[other] = known.get(key) or _chances(key)
        else:
            if not decided and board != position:
                key = mine[board] | after << 9  # KIND_OTHER
                me[board], them[board] = known.get(key) or _chances(key)
            key = KIND_SENT << 18 | mine[position] | (after if position == board else theirs[position]) << 9
            me[position], them[position] = known.get(key) or _chances(key)
        values.append(1.0 / (1.0 + math.exp(scale * _edge(me, them))))
    return values


class Prior(NamedTuple):
    """Knowledge a new child starts with, as ``visits`` virtual playouts
    averaging 0.5 plus the bonuses that apply (for the player moving)."""

    visits: float = 8.0
    wins_board: float = 0.3  # the move wins its small board
    blocks: float = 0.2  # it takes the cell the opponent needed to win the board
    sends_to_threat: float = -0.3  # the opponent's board is one they can win at once
    gives_free_choice: float = -0.3  # the opponent may play anywhere


DEFAULT_PRIOR = Prior()


class Search:
    """Monte Carlo tree search with UCT, priors, an MCTS-solver and tree reuse.

    Build it on a position (optionally with the node of a previous search
    for that position), ``run`` it, read ``best_move``."""

    def __init__(self, state: UtttState, rng: random.Random, exploration: float = 0.7,
                 root: Node | None = None, prior: Prior = DEFAULT_PRIOR, minimax_weight: float = 0.0,
                 merge: bool = False) -> None:
        if state.is_over():
            raise ValueError(f"no move to search: the game is over in {state.position_text()}")
        self.player = state.turn
        self.marks = (list(state.marks(0)), list(state.marks(1)))
        self.won = (state.won_boards(0), state.won_boards(1))
        self.closed = state.closed_boards
        forced = state.forced_board
        self.forced = -1 if forced is None else forced
        self.rng = rng
        self.exploration = exploration
        self.prior = prior
        self.minimax_weight = minimax_weight
        #: With ``merge``: the children of each position expanded in this
        #: search, by its marks and forced board (which give the rest).
        self.merged: dict[tuple[int, ...], list[Node]] | None = {} if merge else None
        self.transpositions = 0  # expansions that found their position's children in ``merged``
        self.root = root if root is not None else Node(state.last_move if state.moves else -1)
        self.iterations = 0
        self.nodes = 0  # children created by this search's expansions

    # -- the loop ------------------------------------------------------------------
    def run(self, max_iterations: int | None = None, seconds: float | None = None) -> SearchResult:
        """Search until ``max_iterations`` playouts or ``seconds`` have passed
        (whichever first; at least one playout), or the root is solved."""
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        root = self.root
        if root.children is None:
            # A reused node may be proven (a dead position: drawn whatever is
            # played) without ever having been expanded; a move is still due.
            marks = [self.marks[0].copy(), self.marks[1].copy()]
            self._expand(root, marks, list(self.won), self.closed, self.forced, self.player)
        # The clock is read every 16 playouts: about 1 ms, and far cheaper
        # than a playout in Pyodide.
        done = spend(self._iterate, root, max_iterations, deadline, every=16)
        self.iterations += done
        nodes, self.nodes = self.nodes, 0
        best = best_child(root)
        # The chosen child's mean is for its mover, the side to move here.
        rate = best.mean if best.proof is None else 0.5 if best.proof == DRAWN else float(best.proof == LOSS)
        return SearchResult(best.move, done, root.visits, root.proof, rate, time.perf_counter() - start, nodes)

    def _expand(self, node: Node, marks: list[list[int]], won: list[int], closed: int, forced: int,
                player: int) -> None:
        """Give ``node`` its children, each with its prior; or, when the side
        to move wins at once, the winning move alone and the proof. With
        ``merge``, a position met before in this search by another order of
        moves gets the very list of children it got then."""
        if self.merged is not None:
            key = (*marks[0], *marks[1], forced)
            children = self.merged.get(key)
            if children is not None:
                node.children = children
                self.transpositions += 1
                if not _prove(node) and self.minimax_weight:
                    node.ev = 1.0 - max(child.ev for child in children)
                return
        win = _winning_move(marks, won, closed, forced, player)
        if win >= 0:
            child = Node(win, 1.0)
            child.prove(LOSS)  # the opponent, to move there, has lost
            node.children = [child]
            if self.merged is not None:
                self.merged[key] = node.children
            node.prove(WIN)
            self.nodes += 1
            return
        prior = self.prior
        weight = prior.visits
        mine, theirs = marks[player], marks[player ^ 1]
        children = []
        for move in _moves(marks, closed, forced):
            board, position = CELL_BOARD[move], CELL_POSITION[move]
            bit = 1 << position
            value = 0.5
            after = mine[board] | bit
            decided = False
            if HAS_LINE[after]:
                value += prior.wins_board
                decided = True
            elif after | theirs[board] == FULL:
                decided = True
            if WINNING_CELLS[theirs[board]] & bit:
                value += prior.blocks
            if closed >> position & 1 or (decided and position == board):
                value += prior.gives_free_choice
            else:
                target_mine = after if position == board else mine[position]
                target_theirs = theirs[position]
                if WINNING_CELLS[target_theirs] & (FULL ^ (target_mine | target_theirs)):
                    value += prior.sends_to_threat
            children.append(Node(move, weight, value))
        if self.minimax_weight:
            for child, value in zip(children, _child_values(marks, won, closed, player, [c.move for c in children])):
                child.ev = value
        node.children = children
        if self.merged is not None:
            self.merged[key] = children
        self.nodes += len(children)

    def _iterate(self) -> None:
        rand = self.rng.random
        marks = [self.marks[0].copy(), self.marks[1].copy()]
        won = list(self.won)
        closed, forced, player = self.closed, self.forced, self.player
        node = self.root
        path = [node]
        log, sqrt = math.log, math.sqrt
        scale = self.exploration
        weight = self.minimax_weight
        keep = 1.0 - weight
        while True:
            if node.proof is not None:
                result = player if node.proof == WIN else DRAW if node.proof == DRAWN else player ^ 1
                break
            children = node.children
            if children is None:
                # A leaf: the first real visit plays out, the next expands it.
                if node.visits > self.prior.visits or node is self.root:
                    self._expand(node, marks, won, closed, forced, player)
                    continue
                result = _playout(marks, won, closed, forced, player, rand)
                break
            # UCT (a child proven lost has a mean no bonus can lift).
            explore = scale * sqrt(log(node.visits + 1))
            best, best_value = children[0], -2e9
            if weight:
                for child in children:
                    value = keep * child.mean + weight * child.ev + explore * child.rsqrt
                    if value > best_value:
                        best, best_value = child, value
            else:
                for child in children:
                    value = child.mean + explore * child.rsqrt
                    if value > best_value:
                        best, best_value = child, value
            node = best
            path.append(node)
            closed, forced, result = _play(marks, won, closed, player, node.move)
            player ^= 1
            if result is not None:
                node.prove(DRAWN if result == DRAW else LOSS)  # the mover won: lost for the side to move
                break
        self._backpropagate(path, result, player)

    def _backpropagate(self, path: list[Node], result: int, player: int) -> None:
        # ``player`` is the side to move at the last node; its mover is the other.
        reward = 0.5 if result == DRAW else 1.0 if result == player ^ 1 else 0.0
        proving = path[-1].proof is not None
        # Whether the evaluation's minimax may have changed below: only the
        # node just reached (proven or expanded on the way down) starts a
        # change, and a node whose value stays put leaves its ancestors' alone.
        changed = self.minimax_weight != 0.0
        for index in range(len(path) - 1, -1, -1):
            node = path[index]
            visits = node.visits + 1
            node.visits = visits
            node.rsqrt = visits ** -0.5
            if node.proof is None:
                node.mean += (reward - node.mean) / visits
            reward = 1.0 - reward
            if proving and index < len(path) - 1:
                proving = _prove(node)
                if proving:
                    changed = self.minimax_weight != 0.0  # a proof sets the value
                    continue
            if changed and node.proof is None and node.children:
                # The evaluation backed up by minimax: the best child's, for the other side.
                best = 0.0
                for child in node.children:
                    if child.ev > best:
                        best = child.ev
                value = 1.0 - best
                changed = value != node.ev
                node.ev = value

    # -- the answer ------------------------------------------------------------------
    def best_move(self) -> int:
        return best_child(self.root).move


def _prove(node: Node) -> bool:
    """Update ``node``'s proof from its children; True when it is proven."""
    if node.proof is not None:
        return True
    worst = WIN  # the least any child is worth to the opponent, who moves there
    unknown = False
    for child in node.children or ():
        proof = child.proof
        if proof == LOSS:
            node.prove(WIN)  # a move leaves the opponent lost
            return True
        if proof is None:
            unknown = True
        elif proof < worst:
            worst = proof
    if unknown:
        return False
    node.prove(-worst)
    return True


def best_child(root: Node) -> Node:
    """The move to play: a proven win, else the most visited move not
    proven lost (a proven draw when the best of the rest looks worse)."""
    children = root.children
    if not children:
        raise ValueError("the search has not expanded the root")
    for child in children:
        if child.proof == LOSS:  # the opponent, to move there, has lost
            return child
    alive = [child for child in children if child.proof != WIN] or children
    best = max(alive, key=lambda child: (child.visits, child.mean))
    if best.proof is None and best.mean < 0.5:
        draws = [child for child in alive if child.proof == DRAWN]
        if draws:
            return max(draws, key=lambda child: child.visits)
    return best


# -- levels and the entry point ------------------------------------------------------
class Level(NamedTuple):
    """A level's budget (an ``ai.search.Budget``): at most ``iterations``
    playouts (None: no cap) and at most ``seconds``; whether it keeps its
    tree between moves. Then how often it slips into a random move instead
    of searching, and UCT's exploration constant."""

    iterations: int | None
    seconds: float
    reuse: bool = False
    slip: float = 0.0
    exploration: float = 0.7
    minimax_weight: float = 0.0  # the share of the evaluation's minimax in a move's value (0: not evaluated)
    book: bool = False  # whether it plays the opening book's moves
    merge: bool = False  # whether its search merges transpositions (``Search``'s ``merge``)

    def search_options(self) -> dict[str, Any]:
        """How the level searches: the keywords of ``Search`` and ``Engine.search``."""
        return {"exploration": self.exploration, "minimax_weight": self.minimax_weight, "merge": self.merge}


LEVEL_SETTINGS: dict[str, Level] = {
    "beginner": Level(iterations=40, seconds=0.5, slip=0.3),
    "casual": Level(iterations=300, seconds=0.5, slip=0.1),
    "strong": Level(iterations=3000, seconds=1.0),
    "master": Level(iterations=None, seconds=2.0, reuse=True, exploration=0.5, minimax_weight=0.5, book=True,
                    merge=True),
}
LEVELS: list[str] = list(LEVEL_SETTINGS)

#: A reused tree is dropped beyond this many nodes, to bound memory.
MAX_REUSED_NODES = 2_000_000


# -- the opening book ---------------------------------------------------------------------
#: The eight symmetries of the 9x9 grid, as maps of its cells. Each maps
#: small boards to small boards and positions within them alike, so it maps
#: a game to an equivalent game (the board a move sends to follows).
def _grid_map(flip_rows: bool, flip_columns: bool, transpose: bool) -> tuple[int, ...]:
    cells = []
    for cell in range(81):
        row, column = divmod(cell, 9)
        if flip_rows:
            row = 8 - row
        if flip_columns:
            column = 8 - column
        if transpose:
            row, column = column, row
        cells.append(row * 9 + column)
    return tuple(cells)


GRID_SYMMETRIES: tuple[tuple[int, ...], ...] = tuple(
    _grid_map(flip_rows, flip_columns, transpose)
    for flip_rows in (False, True) for flip_columns in (False, True) for transpose in (False, True)
)

#: The master's first moves, computed by the engine itself with long searches
#: (``tools/uttt_book.py``, which prints this table): for a game's move list
#: in its least form over ``GRID_SYMMETRIES`` (``book_key``), the move to
#: play in that form. Written by the tool; not edited by hand.
OPENING_BOOK: dict[tuple[int, ...], int] = {
    (): 40,
    (0,): 20,
    (1,): 14,
    (2,): 8,
    (3,): 0,
    (4,): 22,
    (10,): 40,
    (11,): 44,
    (12,): 36,
    (13,): 40,
    (20,): 80,
    (21,): 72,
    (22,): 68,
    (30,): 0,
    (31,): 4,
    (40,): 48,
    (40, 30): 0,
    (40, 31): 14,
}
#: The book covers games of at most this many moves.
BOOK_PLIES = max(len(moves) for moves in OPENING_BOOK)


def book_key(moves: list[int] | tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The least image of ``moves`` over the grid's symmetries, and a
    symmetry that gives it."""
    return min((tuple(symmetry[move] for move in moves), symmetry) for symmetry in GRID_SYMMETRIES)


def book_move(state: UtttState) -> int | None:
    """The opening book's move for ``state``, or None out of the book."""
    if len(state.moves) > BOOK_PLIES:
        return None
    key, symmetry = book_key(state.moves)
    move = OPENING_BOOK.get(key)
    if move is None:
        return None
    return symmetry.index(move)  # back from the book's form to the game's


def trivial_move(state: UtttState) -> int | None:
    """A move that needs no thought: the only legal one, or one that wins
    the game at once."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    marks = [list(state.marks(0)), list(state.marks(1))]
    won = [state.won_boards(0), state.won_boards(1)]
    forced = state.forced_board
    win = _winning_move(marks, won, state.closed_boards, -1 if forced is None else forced, state.turn)
    return win if win >= 0 else None


class Engine(BaseEngine):
    """The UTTT player: ``choose_move`` at a level (see the module doc), and
    the tree it keeps for the master level and any move given ``move_time``."""

    level_settings = LEVEL_SETTINGS

    def seed_context(self, state: UtttState) -> str:
        # UTTT has no settings; this text is what its seeded games have
        # always been seeded with, so they replay as before.
        return "uttt"

    def may_reuse(self, node: Node) -> bool:
        return node.visits <= MAX_REUSED_NODES  # about one node per visit

    def search(self, state: UtttState, iterations: int | None = None, seconds: float | None = None,
               seed: int | None = None, exploration: float = 0.7, reuse: bool = False,
               prior: Prior = DEFAULT_PRIOR, minimax_weight: float = 0.0, merge: bool = False) -> SearchResult:
        """Run one search on ``state`` (left unchanged) and return what it
        found. With ``reuse``, start from the kept tree when it covers this
        position and keep the new tree for the next call."""
        root = self.kept_root(state) if reuse else None
        searcher = Search(state, self.rng(state, seed), exploration, root, prior, minimax_weight, merge)
        result = searcher.run(iterations, seconds)
        if reuse:
            self.keep(state, searcher.root)
        return result

    def move(self, state: UtttState, settings: Level, seed: int | None, move_time: float | None) -> int:
        """The move at ``settings``. ``move_time`` (seconds) replaces the
        level's budget and lifts its playout cap: full strength for that long."""
        move = trivial_move(state)
        if move is None and settings.book:
            move = book_move(state)
        if move is not None:
            return move
        if move_time is not None:
            return self.search(state, None, move_time, seed, reuse=True, **settings.search_options()).move
        if settings.slip:
            rng = self.rng(state, seed)
            if rng.random() < settings.slip:
                return rng.choice(state.legal_moves())
            seed = None if seed is None else rng.randrange(1 << 30)
        return self.search(state, settings.iterations, settings.seconds, seed, reuse=settings.reuse,
                           **settings.search_options()).move

    def move_chance(self, state: UtttState, move: int) -> float | None:
        root = self.kept_root(state)
        child = None if root is None else root.child(move)
        if child is None:
            return None
        if child.proof is not None:  # for the opponent, to move there
            return 1.0 - proof_chance(child.proof, 0.5)
        return child.mean if child.visits >= JUDGED_VISITS else None

    def judge(self, state: UtttState, seconds: float, seed: int | None, iterations: int | None) -> Verdict:
        """The verdict (see ``ai.search.Engine.evaluate``): a win at once
        needs no search; a position where every move but one lets the
        opponent win at once is a forced block (and where every move does,
        lost in two). Otherwise, and to value a block or an only move, a
        search at master's strength from the tree kept by the previous
        evaluation, which keeps its own."""
        marks = [list(state.marks(0)), list(state.marks(1))]
        won = [state.won_boards(0), state.won_boards(1)]
        forced = -1 if state.forced_board is None else state.forced_board
        player = state.turn
        win = _winning_move(marks, won, state.closed_boards, forced, player)
        if win >= 0:
            return Verdict(win, "wins_now", 1.0, WIN, 1, 0)
        moves = state.legal_moves()
        safe = [move for move in moves if not _lets_win(state, move)]
        if not safe:  # every move lets the opponent win at once
            return Verdict(moves[0], "only_move" if len(moves) == 1 else "proven", 0.0, LOSS, 2, 0)
        reason, chosen = "search", None
        if len(moves) == 1:
            reason, chosen = "only_move", moves[0]
        elif len(safe) == 1:
            reason, chosen = "blocks", safe[0]
        root = self.kept_root(state)
        searcher = Search(state, self.rng(state, seed), root=root, **LEVEL_SETTINGS["master"].search_options())
        result = searcher.run(iterations, seconds)
        self.keep(state, searcher.root)
        proof = result.proof
        chance = result.win_rate
        move = result.move
        if chosen is not None:
            # The block's (or the only move's) own value: the search may not
            # have settled on it yet.
            move = chosen
            child = searcher.root.child(chosen)
            if child is not None and proof is None:
                chance = child.mean if child.proof is None else proof_chance(-child.proof, 0.5)
        elif proof is not None:
            reason = "proven"
        plies = None if proof is None else _proof_length(searcher.root, state.copy())
        return Verdict(move, reason, proof_chance(proof, chance), proof, plies, result.iterations)


def _lets_win(state: UtttState, move: int) -> bool:
    """Whether, after ``move``, the opponent can win the game at once."""
    after = state.copy()
    after.push(move)
    if after.is_over():
        return False
    forced = -1 if after.forced_board is None else after.forced_board
    return _winning_move([list(after.marks(0)), list(after.marks(1))], [after.won_boards(0), after.won_boards(1)],
                         after.closed_boards, forced, after.turn) >= 0


#: The most nodes ``_proof_length`` walks before it gives up.
PROOF_WALK = 20_000


def _proof_length(root: Node, state: UtttState) -> int | None:
    """Plies to the game's end under best play in the proven tree below
    ``root`` (the node of ``state``, a scratch copy played on): a won node
    takes its shortest proven win, a lost one its longest defence. None
    when a leaf's length is unknown (a dead position: drawn, but not yet
    over), the proof is a draw, or the tree is too big to walk."""
    budget = [PROOF_WALK]

    def walk(node: Node) -> int | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if state.is_over():
            return 0
        if node.proof not in (WIN, LOSS) or not node.children:
            return None
        lengths = []
        for child in node.children:
            if node.proof == WIN and child.proof != LOSS:
                continue
            state.push(child.move)
            length = walk(child)
            state.pop()
            if length is None and node.proof == LOSS:
                return None
            if length is not None:
                lengths.append(length)
        if not lengths:
            return None
        return 1 + (min(lengths) if node.proof == WIN else max(lengths))

    return walk(root)


def search(state: UtttState, iterations: int | None = None, seconds: float | None = None,
           seed: int | None = None, exploration: float = 0.7, prior: Prior = DEFAULT_PRIOR,
           master: bool = False) -> SearchResult:
    """One search on ``state`` by a fresh engine (``Engine.search``): no
    tree is reused or kept. ``master`` searches with the master level's
    exploration and evaluation instead of ``exploration`` and none."""
    if master:
        return Engine().search(state, iterations, seconds, seed, prior=prior,
                               **LEVEL_SETTINGS["master"].search_options())
    return Engine().search(state, iterations, seconds, seed, exploration, prior=prior)


def choose_move(state: UtttState, level: str, seed: int | None = None, move_time: float | None = None) -> int:
    """The computer's move at ``level`` by a fresh engine
    (``Engine.choose_move``). Nothing is kept between calls: a player that
    wants the master level to think on across a game holds an ``Engine``."""
    return Engine().choose_move(state, level, seed, move_time)
