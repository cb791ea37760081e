"""What the computer players share: level budgets, the search result, the
meaning of proven values, seeded randomness, the checks every
``choose_move`` makes first, the searches' budget loop, and ``Engine``,
the object that plays one game and keeps its search tree between moves.

Whoever plays a game holds an engine (the web worker, the GTP engine, the
arena's player, a test) and asks it for every move of that game; a level
that keeps its tree (``Budget.reuse``, and any move given ``move_time``)
then starts each search from the node of the kept tree that the game has
reached. An engine drops its tree by itself when asked about another game,
other settings or a position that does not follow from the kept one, and
two engines never share a tree. ``ai.choose_move`` and each engine module's
``choose_move`` use a fresh engine per call: they keep nothing, so a seeded
call gives the same move whatever was asked before.

``Engine.evaluate`` is the other question an engine answers: what it
makes of a position (a ``Judgement``: the best move, why, and the winning
chance or the proven result for the side to move), for the hint, the
evaluation bar and the analysis of a game. An engine asked to evaluate the
positions of a game one after the other starts each search from the tree
it kept for the one before (an engine that analyses should not be the one
that plays: each keeps its own tree).

Standard library only, like ``core``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, runtime_checkable

from core.base import GameState

#: Proven values, in both searches: the value of a position for the side
#: to move in it, under perfect play. A node's proof is its position's
#: value for the player to move there, and a search's ``proof`` is the
#: root's (so LOSS means the side asking has lost, whatever it plays).
WIN, DRAWN, LOSS = 1, 0, -1


@runtime_checkable
class Budget(Protocol):
    """A searching level's budget per move: at most ``iterations`` (None:
    no cap) and at most ``seconds``, whichever ends first; and whether it
    keeps its tree between the moves of a game (``reuse``).

    Each searching engine's ``Level`` is a NamedTuple that starts with these
    three fields and adds its own settings. (A NamedTuple cannot inherit
    fields; dataclasses can, but building them costs some 10 million
    instructions at import, several ms, where NamedTuples cost a tenth.)"""

    @property
    def iterations(self) -> int | None: ...

    @property
    def seconds(self) -> float: ...

    @property
    def reuse(self) -> bool: ...


class SearchResult(NamedTuple):
    """What a search found: the move, and figures for tests and tuning."""

    move: int
    iterations: int  # playouts (or proven positions reached) in this search
    root_visits: float  # including those of a reused tree
    proof: int | None  # the root's proven value for the side to move: WIN, DRAWN or LOSS
    win_rate: float  # the chosen move's mean result for the side to move (a draw counts half)
    seconds: float
    nodes: int | None = None  # tree nodes this search created, where the engine counts them


class Judgement(NamedTuple):
    """What the engine makes of a position: its best move and why, and the
    position's value for the side to move. (A verdict, ``app.model.analysis.Verdict``
    and ``ai.verdict_reply``, is a judgement seen from the first player's
    side, as the hint, the evaluation bar and the analysis show it.)"""

    move: int  # the best move (the state's move encoding; state.swap_move for a swap)
    reason: str  # why this move: one of REASONS
    chance: float  # the side to move's winning chance, 0..1 (a draw counts half)
    proof: int | None  # WIN / DRAWN / LOSS for the side to move, when proven, else None
    plies: int | None  # with a proof: moves (plies) to the game's end under best play, when known
    iterations: int  # playouts spent (0 when no search was needed)


class Line(NamedTuple):
    """One of the engine's candidate moves in a position it has evaluated
    (``Engine.lines``), for the analysis board."""

    move: int
    chance: float  # the winning chance after it of the side that plays it, 0..1 (a draw counts half)
    proof: int | None  # WIN / DRAWN / LOSS, when proven: for the side that plays it
    visits: float  # how much the search looked at it (0: not searched: proven or exact)
    line: tuple[int, ...]  # the move and the replies the search expects, as far as it looked


#: How many playouts' worth of the position's mean a move's heat takes in
#: (``steady_heat``): a move the search tried a few times shows near the
#: mean, not at 0 or 100 by the luck of its few playouts.
HEAT_PRIOR = 8.0


def steady_heat(values: dict[int, tuple[float, float, bool]]) -> dict[int, float]:
    """Each move's heat from (chance, playouts, proven): a proven value as
    it is, the others drawn toward the mean of all of them (weighted by
    playouts) by ``HEAT_PRIOR`` playouts."""
    weight = sum(count for _, count, proven in values.values() if not proven)
    mean = sum(chance * count for chance, count, proven in values.values() if not proven) / weight if weight else 0.5
    return {move: chance if proven else (chance * count + mean * HEAT_PRIOR) / (count + HEAT_PRIOR)
            for move, (chance, count, proven) in values.items()}


def _rank(line: Line) -> tuple[int, float, float]:
    """``Engine.lines``'s order: proven wins, then unproven moves and
    proven draws, the most tried first; proven losses last."""
    standing = 1 if line.proof is None or line.proof == DRAWN else 2 if line.proof == WIN else 0
    return standing, line.visits, line.chance


#: The longest line ``Engine.lines`` gives.
LINE_PLIES = 10

#: Why a verdict's move, in order of precedence when several apply:
#: it wins the game at once; it is the only move that stops the opponent's
#: immediate win; it is the only legal move; the position is proven and the
#: move is the proven best one (the most stubborn one when lost); swapping
#: beats every placement (Hex, Y); it leaves the opponent lost (Notakto's
#: misere quotient); best by search, nothing proven.
REASONS = ("wins_now", "blocks", "only_move", "proven", "swap", "safe", "search")


#: Playouts a move needs in a search before its mean judges it (``move_chance``).
JUDGED_VISITS = 24


def proof_chance(proof: int | None, fallback: float) -> float:
    """The winning chance a proof means (1, 0.5, 0), else ``fallback``."""
    if proof is None:
        return min(1.0, max(0.0, fallback))
    return 1.0 if proof == WIN else 0.0 if proof == LOSS else 0.5


def seeded_random(seed: int | None, context: str, moves: Sequence[int]) -> random.Random:
    """The random source for one move: unseeded for ``seed`` None, else
    seeded by the text ``"{context}|{seed}|{moves}"`` (the moves so far,
    comma-separated). One game seed thus gives fresh draws at every move,
    and replaying the same game the same ones. ``context`` names the game
    and what of its settings matters; it is part of every seeded game's
    identity, so changing an engine's context changes its seeded moves."""
    if seed is None:
        return random.Random()
    return random.Random(f"{context}|{seed}|{','.join(map(str, moves))}")


def spend(iterate: Callable[[], None], root: Any, max_iterations: int | None, deadline: float | None,
          every: int) -> int:
    """The searches' budget loop: call ``iterate`` until ``root.proof`` is
    set, ``max_iterations`` calls were made or ``deadline`` (a
    ``time.perf_counter`` value) has passed, whichever comes first, and at
    least once. The clock is read every ``every`` calls (a power of two),
    far less often than a playout costs. Returns the number of calls."""
    mask = every - 1
    done = 0
    while root.proof is None:
        iterate()
        done += 1
        if max_iterations is not None and done >= max_iterations:
            break
        if deadline is not None and not done & mask and time.perf_counter() >= deadline:
            break
    return done


def subtree_size(root: Any) -> int:
    """Nodes in a search tree (iterative: trees get deep). A node's
    ``children`` may be None (not expanded) or hold None (a move never
    tried)."""
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(child for child in node.children or () if child is not None)
    return count


def settings_key(state: GameState) -> tuple[Any, ...]:
    """The game's settings as a hashable key (sorted by name)."""
    return tuple(sorted(state.settings().items()))


#: The game an engine plays (its positions' type).
G = TypeVar("G", bound=GameState)


class Engine(Generic[G]):
    """A computer player: ``choose_move`` at one of ``level_settings``, and
    the search tree it keeps between the moves of a game.

    A game's engine subclasses this with its levels and ``move``; searching
    engines also grow and keep trees through ``kept_root`` and ``keep``.
    The tree is kept together with the game, its settings and the move
    list it was grown for; its nodes need only ``child(move)``, the node
    reached by ``move`` or None when the search never went there."""

    #: level name -> that level's settings, weakest first
    level_settings: Mapping[str, Any] = {}

    def __init__(self) -> None:
        self._tree: tuple[Hashable, tuple[int, ...], Any] | None = None
        self._judged: tuple[Hashable, tuple[int, ...], Judgement] | None = None

    # -- playing ---------------------------------------------------------------------------
    def choose_move(self, state: G, level: str, seed: int | None = None,
                    move_time: float | None = None) -> int:
        """The computer's move at ``level`` for the side to move in
        ``state`` (left as it was). ``seed`` makes the choice reproducible;
        ``move_time`` (seconds) replaces the level's budget where the game
        searches. Raises ValueError for an unknown level, a finished game
        or a ``move_time`` that is not a positive number."""
        if level not in self.level_settings:
            raise ValueError(f"unknown {state.game} level {level!r} (levels: {', '.join(self.level_settings)})")
        if state.is_over():
            raise ValueError(f"no move to choose: the game is over in {state.position_text()}")
        if move_time is not None and not move_time > 0:
            raise ValueError(f"move_time must be a positive number of seconds, not {move_time!r}")
        return self.move(state, self.level_settings[level], seed, move_time)

    @classmethod
    def fresh_move(cls, state: G, level: str, seed: int | None = None,
                   move_time: float | None = None) -> int:
        """The move at ``level`` by a fresh engine of this class
        (``choose_move``), which keeps nothing: a seeded call gives the same
        move whatever was asked before (each game module's ``choose_move``)."""
        return cls().choose_move(state, level, seed, move_time)

    def move(self, state: G, settings: Any, seed: int | None, move_time: float | None) -> int:
        """The move at a level whose settings are ``settings``, once
        ``choose_move`` has checked the request."""
        raise NotImplementedError

    # -- judging -------------------------------------------------------------------------------
    def evaluate(self, state: G, seconds: float, seed: int | None = None,
                 iterations: int | None = None) -> Judgement:
        """What the engine makes of ``state`` (left as it was): its best
        move for the side to move, why, and the position's value for that
        side (``Judgement``), thinking at full strength for at most
        ``seconds`` and, when given, at most ``iterations`` playouts (with
        ``seed``, a capped evaluation is reproducible on a fresh engine).
        A search starts from the tree kept by this engine's previous
        evaluation when the game has gone on from there, and keeps its own
        for the next. Raises ValueError for a finished game or a
        ``seconds`` that is not a positive number."""
        if state.is_over():
            raise ValueError(f"nothing to evaluate: the game is over in {state.position_text()}")
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
            raise ValueError(f"seconds must be a positive number, not {seconds!r}")
        if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int)
                                       or iterations < 1):
            raise ValueError(f"iterations must be a positive whole number, not {iterations!r}")
        judgement = self.judge(state, float(seconds), seed, iterations)
        self._judged = (self.tree_key(state), tuple(state.moves), judgement)
        return judgement

    def lines(self, state: G, count: int = 3) -> list[Line]:
        """After ``evaluate(state)``: the engine's best ``count`` moves (fewer
        where it has ruled the others out without valuing them: dead or
        dominated cells, moves outside the region that stops a connection),
        best first, each with its value and the line it leads to: proven
        wins (every move that wins at once among them), then the search's
        most tried moves, proven losses last. The verdict's move comes
        first where the verdict is sure of it (a win at once, a block, a
        proof), whether or not the search looked at it."""
        found = self.tree_lines(state)
        tried = {line.move for line in found}
        mover = state.turn
        for move in state.legal_moves():
            if move in tried:
                continue
            after = state.copy()
            after.push(move)
            outcome = after.outcome()
            if outcome is not None and outcome.winner == mover:
                found.append(Line(move, 1.0, WIN, 0, (move,)))
        found.sort(key=_rank, reverse=True)
        judged = self.judgement(state)
        if judged is not None and (judged.reason != "search" or not found):
            first = next((line for line in found if line.move == judged.move), None)
            sure = Line(judged.move, judged.chance, judged.proof, 0 if first is None else first.visits,
                        (judged.move,) if first is None else first.line)
            found = [sure] + [line for line in found if line.move != judged.move]
        return found[:count]

    def grow(self, state: G, seconds: float, seed: int | None = None) -> None:
        """Search ``state`` for ``seconds`` into the kept tree, whatever a
        verdict found without one (a proof, a tactic), so that ``lines``
        has the other moves too (engines that search override it)."""

    def judgement(self, state: G) -> Judgement | None:
        """The last ``evaluate``'s verdict if it was of ``state``."""
        judged = self._judged
        if judged is None or judged[:2] != (self.tree_key(state), tuple(state.moves)):
            return None
        return judged[2]

    def tree_lines(self, state: G) -> list[Line]:
        """Every move the kept tree of ``state`` holds, as a ``Line``, in
        any order (engines that search override it; ``lines`` sorts)."""
        return []

    def heat(self, state: G) -> dict[int, float | None]:
        """After ``evaluate(state)``: each legal move's winning chance for
        the side to move, as far as the engine knows it (None: it did not
        look at that move, or ruled it out without valuing it)."""
        known = steady_heat({line.move: (line.chance, line.visits, line.proof is not None)
                             for line in self.tree_lines(state)})
        return {move: known.get(move) for move in state.legal_moves()}

    def judge(self, state: G, seconds: float, seed: int | None, iterations: int | None) -> Judgement:
        """The verdict, once ``evaluate`` has checked the request."""
        raise NotImplementedError

    def move_chance(self, state: G, move: int) -> float | None:
        """After ``evaluate(state)``: the side to move's winning chance
        after ``move`` by the same search (its proof, else its mean once
        it has had ``JUDGED_VISITS`` playouts), or None when the search
        hardly looked at it. Judging a move against the best one in one
        search avoids the bias between two searches from opposite sides (a
        short search overrates the side to move by several points)."""
        return None

    def seed_context(self, state: G) -> str:
        """The game and its settings, for ``seeded_random``."""
        settings = ",".join(f"{key}={value}" for key, value in settings_key(state))
        return f"{state.game}|{settings}"

    def rng(self, state: G, seed: int | None) -> random.Random:
        """The random source for this move (``seeded_random``)."""
        return seeded_random(seed, self.seed_context(state), state.moves)

    # -- the kept tree -------------------------------------------------------------------------
    def kept_root(self, state: G) -> Any | None:
        """The kept tree's node for ``state``: when the tree was grown for
        the same game and settings, ``state``'s move list extends the kept
        one, the search went the way the game went, and ``may_reuse``
        allows the node. Else None."""
        if self._tree is None:
            return None
        key, kept_moves, node = self._tree
        moves = tuple(state.moves)
        if key != self.tree_key(state) or moves[: len(kept_moves)] != kept_moves:
            return None
        for move in moves[len(kept_moves):]:
            node = node.child(move)
            if node is None:
                return None
        return node if self.may_reuse(node) else None

    def keep(self, state: G, root: Any) -> None:
        """Keep ``root``, the tree of a search on ``state``, for the next move."""
        self._tree = (self.tree_key(state), tuple(state.moves), root)

    def forget(self) -> None:
        """Drop the kept tree: the next search starts afresh."""
        self._tree = None

    def tree_key(self, state: G) -> Hashable:
        """What a kept tree must have been grown for besides the moves."""
        return state.game, settings_key(state)

    def may_reuse(self, node: Any) -> bool:
        """Whether a kept node is small enough to search on from (engines
        bound their trees' memory here)."""
        return True
