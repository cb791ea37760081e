"""The UTTT player: levels, the engine and its verdicts (see the package's doc)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple

from core.uttt import UtttState

from ..mcts import TreeEngine, move_budget, proof_length
from ..search import JUDGED_VISITS, LINE_PLIES, LOSS, WIN, Judgement, Line, SearchResult, proof_chance
from .book import book_move
from .position import winning_move
from .uct import DEFAULT_PRIOR, Node, Prior, Search


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


def trivial_move(state: UtttState) -> int | None:
    """A move that needs no thought: the only legal one, or one that wins
    the game at once."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    marks = [list(state.marks(0)), list(state.marks(1))]
    won = [state.won_boards(0), state.won_boards(1)]
    forced = state.forced_board
    win = winning_move(marks, won, state.closed_boards, -1 if forced is None else forced, state.turn)
    return win if win >= 0 else None


class Engine(TreeEngine[UtttState]):
    """The UTTT player: ``choose_move`` at a level (see the module doc), and
    the tree it keeps for the master level and any move given ``move_time``."""

    level_settings = LEVEL_SETTINGS
    max_reused_nodes = MAX_REUSED_NODES

    def seed_context(self, state: UtttState) -> str:
        # UTTT has no settings; this text is what its seeded games have
        # always been seeded with, so they replay as before.
        return "uttt"

    def tree_size(self, node: Node) -> float:
        return node.visits  # about one node per visit, and cheaper to count

    def search(self, state: UtttState, iterations: int | None = None, seconds: float | None = None,
               seed: int | None = None, exploration: float = 0.7, reuse: bool = False,
               prior: Prior = DEFAULT_PRIOR, minimax_weight: float = 0.0, merge: bool = False) -> SearchResult:
        """Run one search on ``state`` (left unchanged) and return what it
        found. With ``reuse``, start from the kept tree when it covers this
        position and keep the new tree for the next call."""
        rng = self.rng(state, seed)
        return self.tree_search(state, lambda root: Search(state, rng, exploration, root, prior, minimax_weight, merge),
                                iterations, seconds, reuse)[0]

    def move(self, state: UtttState, settings: Level, seed: int | None, move_time: float | None) -> int:
        """The move at ``settings``. ``move_time`` (seconds) replaces the
        level's budget and lifts its playout cap: full strength for that long."""
        move = trivial_move(state)
        if move is None and settings.book:
            move = book_move(state)
        if move is not None:
            return move
        iterations, seconds, reuse = move_budget(settings, move_time)
        if move_time is None and settings.slip:
            rng = self.rng(state, seed)
            if rng.random() < settings.slip:
                return rng.choice(state.legal_moves())
            seed = None if seed is None else rng.randrange(1 << 30)
        return self.search(state, iterations, seconds, seed, reuse=reuse, **settings.search_options()).move

    def move_chance(self, state: UtttState, move: int) -> float | None:
        root = self.kept_root(state)
        child = None if root is None else root.child(move)
        if child is None:
            return None
        if child.proof is not None:  # for the opponent, to move there
            return 1.0 - proof_chance(child.proof, 0.5)
        return child.mean if child.visits >= JUDGED_VISITS else None

    def grow(self, state: UtttState, seconds: float, seed: int | None = None) -> None:
        if not state.is_over():
            self.tree_search(state, _master_search(state, self.rng(state, seed)), None, seconds, reuse=True)

    def tree_lines(self, state: UtttState) -> list[Line]:
        root = self.kept_root(state)
        if root is None or not root.children:
            return []
        return [_line(child) for child in root.children]

    def judge(self, state: UtttState, seconds: float, seed: int | None, iterations: int | None) -> Judgement:
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
        win = winning_move(marks, won, state.closed_boards, forced, player)
        if win >= 0:
            return Judgement(win, "wins_now", 1.0, WIN, 1, 0)
        moves = state.legal_moves()
        safe = [move for move in moves if not _lets_win(state, move)]
        if not safe:  # every move lets the opponent win at once
            return Judgement(moves[0], "only_move" if len(moves) == 1 else "proven", 0.0, LOSS, 2, 0)
        reason, chosen = "search", None
        if len(moves) == 1:
            reason, chosen = "only_move", moves[0]
        elif len(safe) == 1:
            reason, chosen = "blocks", safe[0]
        rng = self.rng(state, seed)
        result, searcher = self.tree_search(state, _master_search(state, rng), iterations, seconds, reuse=True)
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
        return Judgement(move, reason, proof_chance(proof, chance), proof, plies, result.iterations)


def _lets_win(state: UtttState, move: int) -> bool:
    """Whether, after ``move``, the opponent can win the game at once."""
    after = state.copy()
    after.push(move)
    if after.is_over():
        return False
    forced = -1 if after.forced_board is None else after.forced_board
    return winning_move([list(after.marks(0)), list(after.marks(1))], [after.won_boards(0), after.won_boards(1)],
                         after.closed_boards, forced, after.turn) >= 0


def _proof_length(root: Node, state: UtttState) -> int | None:
    """Plies to the game's end under best play in the proven tree below
    ``root`` (the node of ``state``, a scratch copy played on;
    ``ai.mcts.proof_length``): every leaf of a proven tree is a finished
    game. None when a leaf's length is unknown (a dead position: drawn, but
    not yet over), the proof is a draw, or the tree is too big to walk."""

    def lost_leaf(node: Node) -> tuple[bool, int | None]:
        if state.is_over():
            return True, 0
        return (True, None) if not node.children else (False, None)

    return proof_length(root, lambda node: ((child.move, child) for child in node.children or ()), state.push,
                        lambda move: state.pop(), lambda node: None, lost_leaf)


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


#: The computer's move at ``level`` by a fresh engine. Nothing is kept
#: between calls: a player that wants the master level to think on across
#: a game holds an ``Engine``.
choose_move = Engine.fresh_move


def _master_search(state: UtttState, rng: random.Random) -> Callable[[Node | None], Search]:
    """How the verdict and the analysis board search: at master's
    settings, from the kept node ``root`` when there is one."""
    return lambda root: Search(state, rng, root=root, **LEVEL_SETTINGS["master"].search_options())


def _line(child: Node) -> Line:
    """A root move's line: its value for the side that plays it (a child's
    proof is the opponent's), and the most tried replies after it."""
    chance = child.mean if child.proof is None else 1.0 - proof_chance(child.proof, 0.5)
    proof = None if child.proof is None else -child.proof
    moves = [child.move]
    node = child
    while node.children and len(moves) < LINE_PLIES:
        node = max(node.children, key=lambda reply: (reply.proof == LOSS, reply.proof != WIN, reply.visits))
        moves.append(node.move)
    return Line(child.move, chance, proof, child.visits, tuple(moves))
