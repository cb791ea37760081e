"""The connection games' search tree: a node holds the statistics of
every move from it, in parallel lists."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from operator import itemgetter

from ..mcts import best_choice
from ..search import LOSS, WIN, subtree_size

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
        child = self.children[index]
        proof = None if child is None else child.proof
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


def prove(node: Node) -> bool:
    """Update ``node``'s proof from its children's; True when it is proven.
    ``ai.mcts.proof_of`` for a node that mirrors its children's proofs in
    ``winning`` and ``losing`` (kept up to date by ``note_proof``): this runs
    on every playout's way back, where a walk over the children would not
    pay (and Hex and Y have no draws)."""
    if node.proof is None:
        if node.winning >= 0:
            node.proof = WIN
        elif len(node.losing) == len(node.moves):
            node.proof = LOSS
    return node.proof is not None


def best_index(node: Node) -> int:
    """The move to play (``ai.mcts.best_choice``): a proven win, else the
    most visited move not proven lost (ties: the better win rate, then
    RAVE)."""
    if not node.moves:
        return 0
    keys = [(visits, wins / visits if visits else 0.0, rave_wins / rave_visits if rave_visits else 0.0)
            for visits, wins, rave_visits, rave_wins in zip(node.visits, node.wins, node.rave_visits, node.rave_wins)]
    return best_choice([None if child is None else child.proof for child in node.children], keys)


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


