"""What the two tree searches share (``ai.uttt``'s UCT and
``ai.connection``'s RAVE): the proof of a node from its children's, the
choice of the move to play, a level's budget for a move, the engine that
searches on from the tree it kept (with a cap on the kept tree's size) and
the length of a proof.

The searches keep their own nodes, playouts and backups: those are the
inner loops, and each is written for its game's speed (UTTT's statistics
live in the children, the connection games' in parallel lists on the
parent, which RAVE updates at C speed). What is written here runs once a
search or once a proof, not once a playout (``proof_of`` runs where a
UCT backup meets a proven child, so it reads the children directly), and
reads the nodes through small functions each search passes in.

Standard library only, like ``core``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from core.base import GameState

from .search import LOSS, WIN, Budget, Engine, SearchResult, subtree_size


class Proven(Protocol):
    """A node as ``proof_of`` reads it: its proof for the side to move
    there (WIN, LOSS, a draw's 0, or None while unknown)."""

    proof: int | None


def proof_of(children: Iterable[Proven]) -> int | None:
    """A position's proof from its children's (each the proof of the
    position a move leads to, for the opponent, who moves there): WIN when
    a move leaves the opponent lost, else, once every move is proven, the
    best of them for the side to move (the negation of the opponent's
    worst); None while that is unknown. No moves at all: lost. It reads the
    children's ``proof`` itself, with no generator between: UCT calls it on
    its backups' proven paths."""
    worst = WIN  # the least any move is worth to the opponent
    unknown = False
    for child in children:
        proof = child.proof
        if proof == LOSS:
            return WIN
        if proof is None:
            unknown = True
        elif proof < worst:
            worst = proof
    return None if unknown else -worst


def best_choice(proofs: Sequence[int | None], keys: Sequence[Any]) -> int:
    """The index of the move to play: one proven to leave the opponent lost
    (its ``proofs`` entry LOSS, for the opponent), else the greatest of
    ``keys`` (the first on a tie) among the moves not proven to lose (WIN
    for the opponent), or among all of them when every move loses."""
    for index, proof in enumerate(proofs):
        if proof == LOSS:
            return index
    best, best_key = -1, None
    for index, proof in enumerate(proofs):
        if proof != WIN and (best_key is None or keys[index] > best_key):
            best, best_key = index, keys[index]
    if best < 0:
        for index in range(len(proofs)):
            if best_key is None or keys[index] > best_key:
                best, best_key = index, keys[index]
    if best < 0:
        raise ValueError("the search has not expanded the root")
    return best


def move_budget(level: Budget, move_time: float | None) -> tuple[int | None, float, bool]:
    """A move's search budget at ``level``: (at most this many iterations
    (None: no cap), at most these seconds, whether the tree is kept). A
    ``move_time`` replaces the level's budget and lifts its cap, and the
    tree is kept: full strength for that long, thinking on across the game."""
    if move_time is not None:
        return None, move_time, True
    return level.iterations, level.seconds, level.reuse


#: The most nodes ``proof_length`` walks before it gives up.
PROOF_WALK = 20_000


def proof_length(root: Any, lines: Callable[[Any], Iterable[tuple[int, Any]]], push: Callable[[int], object],
                 pop: Callable[[int], object], won_leaf: Callable[[Any], int | None],
                 lost_leaf: Callable[[Any], tuple[bool, int | None]]) -> int | None:
    """Plies to the game's end under best play in the proven tree below
    ``root`` (whose ``proof`` is WIN or LOSS for the side to move): a won
    node takes its shortest proven win, a lost one its longest defence.

    The game's search says how to read its tree and position: ``lines(node)``
    gives the node's (move, child) pairs (child None for a move never
    expanded); ``push(move)`` and ``pop(move)`` play and take back a move
    on the position the walk is at; ``won_leaf(node)`` is the length of a
    won node with no proven winning child (or None: unknown);
    ``lost_leaf(node)`` is (True, its length or None) when the position
    itself tells a lost node's length, or (False, None) to walk its moves,
    every one of which must then be proven to lose. None when some leaf's
    length is unknown, or the tree is bigger than ``PROOF_WALK`` nodes."""
    budget = [PROOF_WALK]

    def walk(node: Any) -> int | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if node.proof == WIN:
            best = None
            for move, child in lines(node):
                if child is not None and child.proof == LOSS:
                    push(move)
                    length = walk(child)
                    pop(move)
                    if length is not None and (best is None or length < best):
                        best = length
            return won_leaf(node) if best is None else best + 1
        if node.proof != LOSS:
            return None
        known, length = lost_leaf(node)
        if known:
            return length
        longest = 0
        for move, child in lines(node):
            if child is None or child.proof != WIN:
                return None
            push(move)
            length = walk(child)
            pop(move)
            if length is None:
                return None
            longest = max(longest, length)
        return 1 + longest

    return walk(root)


class Searcher(Protocol):
    """What ``TreeEngine.tree_search`` needs of a search: its root and ``run``."""

    @property
    def root(self) -> Any: ...

    def run(self, max_iterations: int | None = None, seconds: float | None = None) -> SearchResult: ...


S = TypeVar("S", bound=Searcher)
#: The game a tree engine plays.
G = TypeVar("G", bound=GameState)


class TreeEngine(Engine[G]):
    """An engine that searches a tree and keeps it between the moves of a
    game: the search from the kept tree, and the cap on the kept tree's
    size."""

    #: A kept tree bigger than this (``tree_size``) is dropped, to bound memory.
    max_reused_nodes: ClassVar[int] = 0

    def tree_size(self, node: Any) -> float:
        """The size of a kept tree, as ``max_reused_nodes`` counts it (its
        nodes, unless an engine counts something cheaper)."""
        return subtree_size(node)

    def may_reuse(self, node: Any) -> bool:
        return self.tree_size(node) <= self.max_reused_nodes

    def tree_search(self, state: G, make: Callable[[Any | None], S], iterations: int | None,
                    seconds: float | None, reuse: bool) -> tuple[SearchResult, S]:
        """One search on ``state``: ``make(root)`` builds it, from the kept
        tree's node for ``state`` when ``reuse`` (else from None, a fresh
        tree), and with ``reuse`` its tree is kept for the next search.
        The result, and the search (whose tree the caller may read)."""
        searcher = make(self.kept_root(state) if reuse else None)
        result = searcher.run(iterations, seconds)
        if reuse:
            self.keep(state, searcher.root)
        return result, searcher
