"""The UTTT tree search: UCT with priors, an MCTS-solver, the evaluation's
minimax beside the playouts' mean and merged transpositions (see the
package's doc)."""

from __future__ import annotations

import math
import random
import time
from typing import NamedTuple

from core.uttt import CELL_BOARD, CELL_POSITION, FULL, HAS_LINE, WINNING_CELLS, UtttState

from ..mcts import best_choice, proof_of
from ..search import DRAWN, LOSS, WIN, SearchResult, spend, subtree_size
from .evaluation import child_values
from .position import DRAW, legal_cells, play, playout, winning_move

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
        self.root = root if root is not None else Node(-1 if state.last_move is None else state.last_move)
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
                if not prove(node) and self.minimax_weight:
                    node.ev = 1.0 - max(child.ev for child in children)
                return
        win = winning_move(marks, won, closed, forced, player)
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
        for move in legal_cells(marks, closed, forced):
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
            for child, value in zip(children, child_values(marks, won, closed, player, [c.move for c in children])):
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
                result = playout(marks, won, closed, forced, player, rand)
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
            closed, forced, ended = play(marks, won, closed, player, node.move)
            player ^= 1
            if ended is not None:
                node.prove(DRAWN if ended == DRAW else LOSS)  # the mover won: lost for the side to move
                result = ended
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
                proving = prove(node)
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


def prove(node: Node) -> bool:
    """Update ``node``'s proof from its children; True when it is proven."""
    if node.proof is not None:
        return True
    proof = proof_of(node.children or ())
    if proof is None:
        return False
    node.prove(proof)
    return True


def best_child(root: Node) -> Node:
    """The move to play: a proven win, else the most visited move not
    proven lost (a proven draw when the best of the rest looks worse)."""
    children = root.children
    if not children:
        raise ValueError("the search has not expanded the root")
    best = children[best_choice([child.proof for child in children],
                                [(child.visits, child.mean) for child in children])]
    if best.proof is None and best.mean < 0.5:
        draws = [child for child in children if child.proof == DRAWN]
        if draws:
            return max(draws, key=lambda child: child.visits)
    return best
