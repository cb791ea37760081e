"""The connection games' player: levels, the engine, its verdicts and the
exact solver tried first (see the package's doc)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from typing import NamedTuple, TypeVar

from core.base import GameState
from core.hex import ConnectionState

from ..mcts import TreeEngine, move_budget, proof_length as walk_proof
from ..search import JUDGED_VISITS, LINE_PLIES, LOSS, WIN, Judgement, Line, SearchResult, proof_chance, steady_heat
from . import solver
from .board import Geometry, centre_cells, geometry
from .colours import colour_of
from .parts import DEFAULT_PARTS, KNOWN_PARTS
from .rave import MAX_NODES, SOLVER_EASY, SOLVER_MAX_EMPTY, SOLVER_SHARE, Search
from .tactics import analyse, tactics
from .tree import Node, balanced_rate, best_index

#: The connection game an engine plays (Hex or Y).
C = TypeVar("C", bound=ConnectionState)


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


def forced_move(state: ConnectionState, deep: bool = True) -> int | None:
    """A move that needs no search: one that wins at once, the block of the
    opponent's single immediate win, one of the blocks when the opponent
    has two (the game is lost), the only cell that stops the opponent's
    near-connections; with ``deep``, also the move that completes a virtual
    connection or keeps one, or the most stubborn one in a lost position."""
    geo = geometry(state)
    board = geo.search_board(state.owners())
    empties = [cell for cell in range(geo.cells) if not board[cell]]
    proof, moves = analyse(board, colour_of(state.turn), geo, empties, deep)
    return moves[0] if proof is not None or len(moves) == 1 else None


class Engine(TreeEngine[C]):
    """A connection game's player: ``choose_move`` at a level, and the tree
    it keeps for the master level and any move given ``move_time``. The
    games subclass it with their swap decision (``swaps``) and openings
    (``opening``); this one never swaps and opens like without the swap rule."""

    level_settings = LEVEL_SETTINGS
    max_reused_nodes = MAX_REUSED_NODES
    #: the parts of its knowledge this engine uses (``ai.connection.parts``)
    parts: frozenset[str] = DEFAULT_PARTS

    def __init__(self, parts: Iterable[str] | None = None) -> None:
        """``parts``: the knowledge to use (``KNOWN_PARTS``; None: the
        default, ``DEFAULT_PARTS``), for ablation matches."""
        super().__init__()
        if parts is not None:
            unknown = set(parts) - set(KNOWN_PARTS)
            if unknown:
                raise ValueError(f"unknown parts {sorted(unknown)} (parts: {', '.join(KNOWN_PARTS)})")
            self.parts = frozenset(parts)

    def swaps(self, state: C) -> bool:
        """Whether to swap the opening stone (asked when the swap is legal)."""
        return False

    def opening(self, state: C, rng: random.Random) -> int | None:
        """The first move when the swap rule is on, or None: then every
        level but the weakest opens in the centre, as without the rule."""
        return None

    def search(self, state: C, iterations: int | None = None, seconds: float | None = None,
               seed: int | None = None, reuse: bool = False, bridges: bool = True,
               knowledge: bool = True, only: list[int] | None = None, fill: bool = True,
               master: bool = False) -> SearchResult:
        """Run one search on ``state`` (left unchanged) and return what it
        found (``searched``, which also gives the search)."""
        return self.searched(state, iterations, seconds, seed, reuse, bridges, knowledge, only, fill, master)[0]

    def searched(self, state: C, iterations: int | None = None, seconds: float | None = None,
                 seed: int | None = None, reuse: bool = False, bridges: bool = True,
                 knowledge: bool = True, only: list[int] | None = None, fill: bool = True,
                 master: bool = False) -> tuple[SearchResult, Search]:
        """Run one search on ``state`` (left unchanged). With ``reuse``, start
        from the kept tree when it covers this position and keep the new tree
        for the next call. ``only``: search no other root moves than these
        (ignored if it would leave none). ``fill``: the inferior cells' fill-in;
        ``master``: master's knowledge (see ``Search``)."""
        rng = self.rng(state, seed)

        def make(root: Node | None) -> Search:
            searcher = Search(state, rng, root, use_bridges=bridges, knowledge=knowledge, fill=fill, master=master,
                              parts=self.parts)
            if only and searcher.root.proof is None:
                allowed = set(only)
                kept = [move for move in searcher.root.moves if move in allowed]
                if kept:
                    searcher.root.keep(kept)
            return searcher

        return self.tree_search(state, make, iterations, seconds, reuse)

    def move(self, state: C, settings: Level, seed: int | None, move_time: float | None) -> int:
        """The move at ``settings``. ``move_time`` (seconds) replaces the
        level's budget and lifts its playout cap: full strength for that long."""
        if state.can_swap():
            if self.swaps(state):
                return state.swap_move
        elif not state.moves:
            if state.swap_rule:
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
        iterations, seconds, reuse = move_budget(settings, move_time)
        if settings.solver or move_time is not None:
            start = time.perf_counter()
            budget = seconds
            empty = state.owners().count(-1)
            share = SOLVER_SHARE if empty <= SOLVER_EASY else SOLVER_SHARE / 2
            move, only = solve_first(state, budget * share, self.parts)
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
        return self.search(state, iterations, seconds, seed, reuse, settings.bridges, settings.knowledge).move


    # -- judging -------------------------------------------------------------------------------
    def judge(self, state: C, seconds: float, seed: int | None, iterations: int | None) -> Judgement:
        """The verdict (see ``ai.search.Engine.evaluate``). With the swap
        available, half the time values the position after the swap and
        half the placements, and the better one is the verdict."""
        if not state.can_swap():
            return self._judge_placements(state, seconds, seed, iterations)
        half = seconds / 2
        capped = None if iterations is None else max(1, iterations // 2)
        after = state.copy()
        after.push(after.swap_move)
        swapped = self._judge_placements(after, half, seed, capped)  # the opponent to move there
        placed = self._judge_placements(state, half, seed, capped)
        swap_chance = 1.0 - swapped.chance
        if swap_chance > placed.chance and placed.reason not in ("wins_now", "blocks", "only_move"):
            proof = None if swapped.proof is None else -swapped.proof
            plies = None if swapped.plies is None else swapped.plies + 1
            return Judgement(state.swap_move, "swap", swap_chance, proof, plies,
                           swapped.iterations + placed.iterations)
        return placed._replace(iterations=swapped.iterations + placed.iterations)

    def move_chance(self, state: C, move: int) -> float | None:
        root = self.kept_root(state)
        if root is None or move not in root.moves:
            return None
        index = root.moves.index(move)
        child = root.children[index]
        if child is not None and child.proof is not None:
            return 1.0 if child.proof == LOSS else 0.0  # the child's proof is the opponent's
        return balanced_rate(root, index) if root.visits[index] >= JUDGED_VISITS else None

    def grow(self, state: C, seconds: float, seed: int | None = None) -> None:
        if not state.is_over():
            self.searched(state, None, seconds, seed, reuse=True, fill=False, master=True)

    def tree_lines(self, state: C) -> list[Line]:
        root = self.kept_root(state)
        if root is None or not root.moves:
            return []
        return [_line(root, index) for index in range(len(root.moves))]

    def heat(self, state: C) -> dict[int, float | None]:
        """The tree's estimates: a move's mean where it was tried, its RAVE
        rate (the playouts where that cell became the side's) where it was
        not, each steadied by the others (``steady_heat``), None for the cells the engine ruled out (dead or dominated:
        never better than another move) or never saw."""
        root = self.kept_root(state)
        values: dict[int, tuple[float, float, bool]] = {}
        if root is not None:
            for index, move in enumerate(root.moves):
                chance, proof = _value(root, index)
                if proof is not None or root.visits[index]:
                    values[move] = (chance, root.visits[index], proof is not None)
                elif root.rave_visits[index]:
                    values[move] = (root.rave_wins[index] / root.rave_visits[index], root.rave_visits[index], False)
        known = steady_heat(values)
        return {move: known.get(move) for move in state.legal_moves()}

    def _judge_placements(self, state: C, seconds: float, seed: int | None,
                          iterations: int | None) -> Judgement:
        """The verdict among the stones ``state``'s side to move can place:
        the one-move tactics and virtual connections (``analyse``), the
        exact solver for a share of the time when few cells are empty
        (as master plays), then the search, from the kept tree and keeping
        its own (bridges and knowledge on)."""
        start = time.perf_counter()
        geo = geometry(state)
        board = geo.search_board(state.owners())
        colour = colour_of(state.turn)
        found = tactics(board, geo)
        mine, theirs = found.wins[colour], found.wins[colour ^ 3]
        if mine:
            return Judgement(mine[0], "wins_now", 1.0, WIN, 1, 0)
        empties = [cell for cell in range(geo.cells) if not board[cell]]
        if len(theirs) >= 2:  # a double threat: lost in two, whatever is played
            return Judgement(theirs[0], "only_move" if len(empties) == 1 else "proven", 0.0, LOSS, 2, 0)
        reason = "blocks" if theirs and len(empties) >= 2 else "only_move" if len(empties) == 1 else None
        proof, moves = analyse(board, colour, geo, empties, True)
        if proof is not None:
            return Judgement(moves[0], reason or "proven", proof_chance(proof, 0.5), proof, None, 0)
        only = None
        if reason is None and isinstance(state, ConnectionState):
            empty = len(empties)
            share = SOLVER_SHARE if empty <= SOLVER_EASY else SOLVER_SHARE / 2
            move, only = solve_first(state, seconds * share, self.parts)
            if move is not None:
                return Judgement(move, "proven", 1.0, WIN, None, 0)
        budget = max(seconds - (time.perf_counter() - start), 0.01)
        # No fill-in here: a proof's length counts the loser's every defence,
        # and the filled cells are defences too (``proof_length``).
        result, searcher = self.searched(state, iterations, budget, seed, reuse=True, only=only, fill=False,
                                         master=True)
        root = searcher.root
        plies = None
        if result.proof is not None:
            plies = proof_length(root, board, colour, geo)
        move = moves[0] if reason == "blocks" else result.move
        if reason is None:
            reason = "search" if result.proof is None else "proven"
        rate = result.win_rate
        if result.proof is None and move in root.moves:
            rate = balanced_rate(root, root.moves.index(move))
        return Judgement(move, reason, proof_chance(result.proof, rate), result.proof, plies, result.iterations)


def _value(root: Node, index: int) -> tuple[float, int | None]:
    """The root's move ``index``: its chance and proof for the side to move
    (a child's proof is the opponent's)."""
    child = root.children[index]
    if child is not None and child.proof is not None:
        return (1.0 if child.proof == LOSS else 0.0), -child.proof
    return (balanced_rate(root, index) if root.visits[index] else 0.5), None


def _line(root: Node, index: int) -> Line:
    """The root's move ``index`` as a line: its value, and the best
    replies after it as the tree has them."""
    move, child = root.moves[index], root.children[index]
    chance, proof = _value(root, index)
    moves = [move]
    node = child
    while node is not None and node.moves and len(moves) < LINE_PLIES:
        reply = best_index(node)
        after = node.children[reply]
        if not node.visits[reply] and (after is None or after.proof is None):
            break  # a reply the search never tried is no line
        moves.append(node.moves[reply])
        node = after
    return Line(move, chance, proof, root.visits[index], tuple(moves))


def proof_length(root: Node, board: list[int], colour: int, geo: Geometry) -> int | None:
    """Plies to the game's end under best play in the proven tree below
    ``root`` (the node of ``board``, a scratch board played on, ``colour``
    to move; ``ai.mcts.proof_length``): a won node takes its shortest
    proven win (1 for a win in one), a lost one its longest defence (2
    against a double threat). None when a leaf's length is unknown (a proof
    by virtual connection), when a lost node's moves were narrowed to where
    its proof does not cover the others (the must-play region), or when the
    tree is too big to walk."""
    turn = [colour]  # the side to move where the walk is

    def push(move: int) -> None:
        board[move] = turn[0]
        turn[0] ^= 3

    def pop(move: int) -> None:
        turn[0] ^= 3
        board[move] = 0

    def won_leaf(node: Node) -> int | None:
        return 1 if tactics(board, geo).wins[turn[0]] else None

    def lost_leaf(node: Node) -> tuple[bool, int | None]:
        found = tactics(board, geo)
        if found.connected:
            return True, 0
        mine, theirs = found.wins[turn[0]], found.wins[turn[0] ^ 3]
        if len(theirs) >= 2 and not mine:
            return True, 2
        empty = sum(1 for cell in range(geo.cells) if not board[cell])
        if len(node.moves) != empty and not (len(theirs) == 1 and node.moves == theirs):
            return True, None  # moves outside the tree lose too, but how fast is unknown
        return False, None

    return walk_proof(root, lambda node: zip(node.moves, node.children), push, pop, won_leaf, lost_leaf)


def search(state: ConnectionState, iterations: int | None = None, seconds: float | None = None,
           seed: int | None = None, bridges: bool = True, knowledge: bool = True,
           only: list[int] | None = None, master: bool = False) -> SearchResult:
    """One search on ``state`` by a fresh engine (``Engine.search``): no
    tree is reused or kept."""
    engine: Engine[ConnectionState] = Engine()
    return engine.search(state, iterations, seconds, seed, bridges=bridges, knowledge=knowledge, only=only,
                         master=master)

def solve_first(state: GameState, seconds: float,
                parts: frozenset[str] = DEFAULT_PARTS) -> tuple[int | None, list[int] | None]:
    """Try to solve a small Hex or Y position exactly within ``seconds``:
    (a proven winning move, None), or (None, the moves not excluded) where
    the excluded ones are outside the opponent's must-play region or
    proven to lose; (None, None) when nothing is known. On a position with
    too many empty cells to solve, the same from H-search at the root
    (unless ``parts`` leaves out "root_vc"); with "templates" in ``parts``
    H-search adds the edge templates."""
    if not isinstance(state, ConnectionState):
        return None, None
    owners = state.owners()
    player = state.turn
    mine, theirs = solver.position_masks(owners, player)
    found = solver.solver_for(state.size, state.game, "templates" in parts)
    if owners.count(-1) > SOLVER_MAX_EMPTY:
        # Too big to solve: H-search at the root alone (a win by a virtual
        # connection, or the must-play region of the opponent's).
        if "root_vc" not in parts:
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

