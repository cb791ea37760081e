"""The connection games' search: RAVE with priors, node knowledge,
H-search and the exact solver in the tree (see the package's doc)."""

from __future__ import annotations

import math
import random
import time
from array import array
from operator import add
from typing import NamedTuple

from core.hex import ConnectionState

from ..search import LOSS, WIN, SearchResult, spend
from . import inferior, solver
from .board import BLACK, INDICATOR, WHITE, Geometry, geometry, playout
from .colours import colour_of, player_of
from .parts import DEFAULT_PARTS
from .tactics import analyse
from .tree import (
    TREE_SOLVE_LEAST,
    TREE_SOLVE_MAX_EMPTY,
    TREE_SOLVE_PER_VISIT,
    Node,
    best_index,
    prove,
)

EXPAND_AFTER = 2  # visits of a move before its position gets a node
KNOWLEDGE_AT = 4  # visits of a node before its virtual connections are analysed
#: Visits of a node before the exact solver's H-search analyses it, at
#: master (300 beat 1000 against MoHex: issue 16); on a position
#: small enough for the exact solver (at most ``SOLVER_MAX_EMPTY`` empty
#: cells at the root), where H-search is cheap and tactics decide, from
#: ``SMALL_H_SEARCH_AT`` visits: 20 solved 20 of the 27 6 x 6 and 7 x 7
#: puzzles at 2 s in each of three runs (seeds 1-3), 300 solved 16-18 in
#: the same runs, 30 and 50 18-19, 10 and 5 16-17.
H_SEARCH_AT = 300
SMALL_H_SEARCH_AT = 20
#: The same for the levels below master, as they were measured
#: (docs/levels.md): Hex only, later.
LOWER_H_SEARCH_AT = {"hex": 1000}
H_SEARCH_SECONDS = 0.3  # the most one such analysis may take
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
#: (issue 16): the UCT term spread the visits over many replies,
#: so a move's mean hid its refutation.
MASTER_SELECTION = Selection(exploration=0.0, visit_weight=0.47, rave_bias=0.0012, untried_bonus=0.0,
                             prior_weight=2.5)
#: The levels below master, as their ratings were measured
#: (docs/levels.md): tuned in self-play (the UCT constant 0.4 beat 0.2,
#: 0 and 0.7; the RAVE bias 0.01 beat 0.0025 and 0.04).
LOWER_SELECTION = Selection(exploration=0.4, visit_weight=1.0, rave_bias=0.01, untried_bonus=0.1,
                            prior_weight=1.0)




#: The share of the move's budget the exact solver may use (the search
#: gets the rest; half of it when more than ``SOLVER_EASY`` cells are
#: empty, where a proof in time is rare), and the most empty cells it is
#: tried on.
SOLVER_SHARE = 0.5
SOLVER_EASY = 36
SOLVER_MAX_EMPTY = 49


def move_bias(board: list[int], colour: int, last: int, moves: list[int], geo: Geometry,
              weight: float, priors_on: bool = True) -> array:
    """Each move's progressive bias (``weight`` times its prior
    probability among ``moves``); all 0 without priors. A compact array:
    4 bytes a move, where a list of floats takes 32 (on 19 x 19 that is
    10 KB a node)."""
    priors = geo.priors
    if priors is None or len(moves) < 2 or not priors_on:
        return array("f", bytes(4 * len(moves)))
    probabilities = priors.probabilities(board, player_of(colour), last if last < geo.cells else None, moves)
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

    def __init__(self, state: ConnectionState, rng: random.Random, root: Node | None = None,
                 use_bridges: bool = True, knowledge: bool = True,
                 fill: bool = True, master: bool = False, parts: frozenset[str] = DEFAULT_PARTS) -> None:
        if state.is_over():
            raise ValueError(f"no move to search: the game is over in {state.position_text()}")
        self.geo = geo = geometry(state)
        self.board = geo.search_board(state.owners())
        self.empties = [cell for cell in range(geo.cells) if not self.board[cell]]
        self.colour = colour_of(state.turn)
        last = state.last_move
        self.last = geo.cells if last is None or last >= geo.cells else last
        self.rng = rng
        #: how moves are picked (master's differs from the levels below)
        self.selection = MASTER_SELECTION if master and "selection" in parts else LOWER_SELECTION
        #: whether the moves get the patterns' priors (``move_bias``)
        self.priors = "priors" in parts
        #: whether H-search adds the edge templates (the solver it asks)
        self.templates = "templates" in parts
        self.bridges = geo.bridges if use_bridges else geo.no_bridges
        self.knowledge = knowledge
        #: whether the analysed nodes fill in their inferior cells (``_deepen``)
        self.fill = fill and "inferior" in parts
        #: from how many visits nodes get H-search (``_h_search``; None: never)
        small = len(self.empties) <= SOLVER_MAX_EMPTY
        at = (SMALL_H_SEARCH_AT if small else H_SEARCH_AT) if master else LOWER_H_SEARCH_AT.get(geo.game)
        self.h_search = knowledge and "tree_vc" in parts and at is not None
        self.h_search_at: int = 0 if at is None else at
        #: whether the root's moves get the exact solver (``_solve``; timed searches only)
        self.tree_solve = master and knowledge and "tree_solver" in parts and len(self.empties) <= TREE_SOLVE_MAX_EMPTY
        self.deadline: float | None = None  # the running search's (``run``)
        #: whether the analysed nodes drop their dominated cells (master's knowledge)
        self.dominated = master and self.fill and "dominated" in parts
        if root is None:
            root = new_node(self.board, self.empties, self.colour, geo, False)
        if knowledge and not root.deep and root.proof is None:
            self._deepen(root, self.board, self.colour)
        if root.bias is None:
            root.bias = move_bias(self.board, self.colour, self.last, root.moves, geo, self.selection.prior_weight,
                                  self.priors)
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
                    node.bias = move_bias(board, colour, last, moves, geo, prior_weight, self.priors)
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
        found = solver.solver_for(geo.size, geo.game, self.templates)
        value, move, moves = found.analyse(mine, theirs, player_of(colour), H_SEARCH_SECONDS)
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
        deadline = self.deadline
        if deadline is None:  # (only timed searches solve in the tree)
            return
        seconds = min(max(TREE_SOLVE_LEAST, node.total * TREE_SOLVE_PER_VISIT), deadline - time.perf_counter())
        if seconds <= 0:
            return
        geo = self.geo
        mine, theirs = self._masks(board, colour)
        value, move = solver.solver_for(geo.size, geo.game, self.templates).solve(mine, theirs, player_of(colour), seconds)
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
            indicators = {BLACK: final.translate(INDICATOR[BLACK]), WHITE: final.translate(INDICATOR[WHITE])}
        colour = self.colour ^ (3 if len(path) % 2 else 0)  # the side to move after the path
        proving = board is None
        for node, index in reversed(path):
            if proving:
                child = node.children[index]
                if child is not None and child.proof is not None:
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
                proving = prove(node)

    # -- reporting -----------------------------------------------------------------------
    def principal_variation(self, length: int = 8) -> list[int]:
        """The most visited line from the root (for tuning and tests)."""
        line: list[int] = []
        node: Node | None = self.root
        while node is not None and node.moves and len(line) < length:
            index = best_index(node)
            line.append(node.moves[index])
            node = node.children[index]
        return line

