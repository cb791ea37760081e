"""Setting up a position for the analysis board: stones or marks placed
freely, the side to move chosen (and, in Ultimate Tic-Tac-Toe, the board it
must play in), checked as a position the rules allow and turned into an
ordinary game: a move list, replayed through the rules' checked path, that
ends in exactly that position. The engines, the records and the tree of
variations then need nothing new; the analysis board starts its tree there
and says the moves before are a setup, not a game's history.

What the rules do not allow, each with its own ``SetupError`` kind (and the
catalog message ``setup.<kind>``):

- ``counts``: stone or mark counts that the side to move cannot have (the
  first player moves first and the players alternate; in Notakto, where both
  play the same mark, the count alone says who is to move);
- ``two_winners``: both sides have won (in Ultimate Tic-Tac-Toe, three
  small boards in a row each; in Hex and Y two winning chains cannot
  both be on a board);
- ``board_two_lines``: an Ultimate Tic-Tac-Toe small board with three in a
  row for both sides;
- ``won_before``: the game was over before the last move: the side to move
  has already won, or no last move can be the one that won (two separate
  winning chains, a Notakto board with its lines wherever the last mark
  went, the game decided before the last mark);
- ``forced_closed`` and ``forced_unreachable``: the board the side to move
  must play in is decided, or no move of the other side points there;
- ``unreachable``: no order of the moves reaches the position (Ultimate
  Tic-Tac-Toe: each move sends the next one to a board);
- ``too_complex``: the search for such an order gave up (``SEARCH_LIMIT``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core import GameError, GameState
from core.base import FIRST, SECOND
from core.uttt import BOARDS, CELL_BOARD, CELL_POSITION, CELLS, FULL, HAS_LINE
from registry import GAMES

#: How many positions the Ultimate Tic-Tac-Toe search looks at, at most,
#: for an order of the moves (a crowded board with free choices can have
#: many; a position people set up takes a few hundred).
SEARCH_LIMIT = 200_000
#: How many of them one attempt looks at before it starts again in another order.
ATTEMPT = 2_000


class SetupError(GameError):
    """A set-up position the rules do not allow: ``kind`` names why,
    ``params`` say where (the catalog message ``setup.<kind>``)."""

    def __init__(self, kind: str, detail: str, **params: Any) -> None:
        super().__init__(detail)
        self.kind = kind
        self.params = params


@dataclass(frozen=True)
class Placement:
    """A position as the player set it up: each occupied cell's owner (in
    Notakto every mark is the same: FIRST), the side to move, and in
    Ultimate Tic-Tac-Toe the small board it must play in (None: any)."""

    game: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    cells: Mapping[int, int] = field(default_factory=dict)
    turn: int = FIRST
    forced: int | None = None


def build(placement: Placement) -> GameState:
    """The game that ends in the set-up position (its moves a legal order
    of the placement). Raises SetupError for a position the rules do not
    allow, GameError for cells or settings that are not the game's."""
    state = GAMES[placement.game].new_state(placement.settings)
    cells = dict(placement.cells)
    for cell, owner in cells.items():
        if owner not in (FIRST, SECOND) or not _on_board(state, cell):
            raise GameError(f"{cell!r}: {owner!r} is not a stone on this {placement.game} board")
    if placement.turn not in (FIRST, SECOND):
        raise GameError(f"{placement.turn!r} is no side to move")
    order = {"notakto": _notakto_order, "uttt": _uttt_order}.get(placement.game, _connection_order)(
        state, cells, placement)
    for move in order:
        state.play(move)
    assert placed(state) == cells, "the order found does not end in the set-up position"
    if placement.game == "uttt" and not state.is_over():
        assert state.forced_board == placement.forced, "the order found sends play elsewhere"  # type: ignore[attr-defined]
    return state


def placed(state: GameState) -> dict[int, int]:
    """Each occupied cell's owner in ``state`` (Notakto: FIRST), read off
    the board (after a swap, the stone is where the swap put it)."""
    if state.game == "notakto":
        return dict.fromkeys(state.moves, FIRST)
    owners = ((cell, state.cell_owner(cell)) for cell in range(getattr(state, "cell_count", CELLS)))  # type: ignore[attr-defined]
    return {cell: owner for cell, owner in owners if owner is not None}


def _on_board(state: GameState, cell: Any) -> bool:
    if isinstance(cell, bool) or not isinstance(cell, int) or cell < 0:
        return False
    try:
        return state.move_to_text(cell) != "swap"
    except GameError:
        return False


def _check_counts(first: int, second: int, turn: int) -> None:
    """The first player moves first, then they alternate."""
    if (first, turn) not in ((second, FIRST), (second + 1, SECOND)):
        raise SetupError("counts", f"{first} of the first player's and {second} of the second's, "
                         f"{'first' if turn == FIRST else 'second'} to move",
                         first=first, second=second, turn=turn)


def _interleave(first: list[int], second: list[int]) -> list[int]:
    moves: list[int] = []
    for index, move in enumerate(first):
        moves.append(move)
        if index < len(second):
            moves.append(second[index])
    return moves


# -- Hex and Y ------------------------------------------------------------------------
def _connection_order(state: GameState, cells: dict[int, int], placement: Placement) -> list[int]:
    stones = {player: sorted(cell for cell, owner in cells.items() if owner == player) for player in (FIRST, SECOND)}
    _check_counts(len(stones[FIRST]), len(stones[SECOND]), placement.turn)
    whole = state.copy()
    for move in _interleave(stones[FIRST], stones[SECOND]):
        whole.push(move)  # unchecked: which side, if any, has a chain at all
    outcome = whole.outcome()
    if outcome is None:
        return _interleave(stones[FIRST], stones[SECOND])
    winner = outcome.winner
    assert winner is not None  # Hex and Y have no draws
    if winner == placement.turn:
        raise SetupError("won_before", "the side to move has already won", winner=winner)
    # The winner's last stone must be one without which no chain is left.
    for last in stones[winner]:
        mine = [cell for cell in stones[winner] if cell != last] + [last]
        theirs = stones[1 - winner]
        order = _interleave(mine, theirs) if winner == FIRST else _interleave(theirs, mine)
        if _replays(state, order):
            return order
    raise SetupError("won_before", "no stone can be the one that won: the game was over before",
                     winner=winner)


def _replays(state: GameState, order: Iterable[int]) -> bool:
    trial = state.copy()
    try:
        for move in order:
            trial.play(move)
    except GameError:
        return False
    return True


# -- Notakto ----------------------------------------------------------------------------
def _notakto_order(state: GameState, cells: dict[int, int], placement: Placement) -> list[int]:
    marks = sorted(cells)
    count = len(marks)
    if count % 2 != placement.turn:
        raise SetupError("counts", f"{count} marks: {'second' if count % 2 else 'first'} to move, not the other",
                         first=count, second=0, turn=placement.turn)
    by_board: dict[int, list[int]] = {}
    for move in marks:
        by_board.setdefault(move // 9, []).append(move)
    early: list[int] = []
    last: list[int] = []
    for board, moves in sorted(by_board.items()):
        mask = sum(1 << (move % 9) for move in moves)
        if not HAS_LINE[mask]:
            early.extend(moves)
            continue
        # A closed board: its last mark closed it, the others did not.
        closing = next((move for move in moves if not HAS_LINE[mask & ~(1 << (move % 9))]), None)
        if closing is None:
            raise SetupError("won_before", f"board {board + 1} has three in a row wherever its last mark went",
                             board=board + 1)
        early.extend(move for move in moves if move != closing)
        last.append(closing)
    order = early + last
    if not _replays(state, order):
        raise SetupError("won_before", "every board was closed before the last mark", board=0)
    return order


# -- Ultimate Tic-Tac-Toe ---------------------------------------------------------------
def _uttt_order(state: GameState, cells: dict[int, int], placement: Placement) -> list[int]:
    marks = [[0] * BOARDS, [0] * BOARDS]
    for cell, owner in cells.items():
        marks[owner][CELL_BOARD[cell]] |= 1 << CELL_POSITION[cell]
    won = [0, 0]
    closed = 0
    for board in range(BOARDS):
        x, o = marks[FIRST][board], marks[SECOND][board]
        if HAS_LINE[x] and HAS_LINE[o]:
            raise SetupError("board_two_lines", f"small board {board + 1} has three in a row for both sides",
                             board=board + 1)
        if HAS_LINE[x]:
            won[FIRST] |= 1 << board
        if HAS_LINE[o]:
            won[SECOND] |= 1 << board
        if HAS_LINE[x] or HAS_LINE[o] or x | o == FULL:
            closed |= 1 << board
    if HAS_LINE[won[FIRST]] and HAS_LINE[won[SECOND]]:
        raise SetupError("two_winners", "both sides have three small boards in a row")
    counts = [sum(bin(mask).count("1") for mask in marks[player]) for player in (FIRST, SECOND)]
    _check_counts(counts[FIRST], counts[SECOND], placement.turn)
    forced = placement.forced
    over = HAS_LINE[won[FIRST]] or HAS_LINE[won[SECOND]] or closed == FULL
    if forced is not None:
        if not (isinstance(forced, int) and not isinstance(forced, bool) and 0 <= forced < BOARDS):
            raise GameError(f"{forced!r} is not a small board")
        if over:
            forced = None  # a finished game has no board to play in
        elif closed >> forced & 1:
            raise SetupError("forced_closed", f"small board {forced + 1} is decided", board=forced + 1)
        elif not any(marks[1 - placement.turn][board] >> forced & 1 for board in range(BOARDS)):
            raise SetupError("forced_unreachable", f"no move of the other side sends play to small board {forced + 1}",
                             board=forced + 1)
    if HAS_LINE[won[placement.turn]]:
        raise SetupError("won_before", "the side to move has already won", winner=placement.turn)
    search = _UtttSearch(marks)
    order = search.order(placement.turn, forced, over)
    if order is None:
        if search.visited >= SEARCH_LIMIT:
            raise SetupError("too_complex", "no order of the moves was found in time")
        raise SetupError("unreachable", "no order of the moves reaches this position")
    return order


#: What the last move must have done (``_UtttSearch``): sent play to a
#: decided board (the choice free: a board named allows that too), or
#: anything (the game is over).
_FREE, _ANY = -1, -2


class _UtttSearch:
    """From the set-up position back to the empty board: which move came
    last, and before it, and so on, each a move the one before it allowed
    (sent to its board, or free to go anywhere because that board was
    decided), on a board still open when it was played, in a game not yet
    over."""

    def __init__(self, marks: list[list[int]]) -> None:
        self.marks = marks
        self.visited = 0
        self.budget = 0  # where this attempt stops (``order``)
        self.cells = [(board, position) for board in range(BOARDS) for position in range(9)]
        self.failed: set[tuple[tuple[int, ...], int, bool]] = set()

    def order(self, to_move: int, forced: int | None, over: bool) -> list[int] | None:
        need = _ANY if over else _FREE if forced is None else forced
        # Such searches either succeed soon or wander for long in a wrong
        # part of the tree: they try again from the start in another order
        # of the candidates, with what failed remembered (it failed in any order).
        rng = random.Random(0)
        while self.visited < SEARCH_LIMIT:
            self.budget = min(SEARCH_LIMIT, self.visited + ATTEMPT)
            backwards = self._back(to_move, need, exact=need >= 0)
            if backwards is not None:
                return backwards[::-1]
            if self.visited < self.budget:
                return None  # the whole tree was searched: there is none
            rng.shuffle(self.cells)
        return None

    def _closed(self, board: int) -> bool:
        x, o = self.marks[FIRST][board], self.marks[SECOND][board]
        return HAS_LINE[x] or HAS_LINE[o] or x | o == FULL

    def _over(self) -> bool:
        won = [0, 0]
        for board in range(BOARDS):
            for player in (FIRST, SECOND):
                if HAS_LINE[self.marks[player][board]]:
                    won[player] |= 1 << board
        return HAS_LINE[won[FIRST]] or HAS_LINE[won[SECOND]] or all(self._closed(b) for b in range(BOARDS))

    def _may_be_a_game(self, to_move: int, need: int) -> bool:
        """A necessary condition for an order of the marks left, from the
        first move to the last (which must send play to ``need``).

        A mark is a step from (its board, its player) to (the board its
        position sends play to, the other player): a game is a walk along
        every step once, broken only by jumps: after a step to a decided
        board, the next move may be on any open board. So a step to a board
        open now (it was open then too) is followed by a step from there,
        unless it is the game's last: at such a place, arrivals are at most
        departures (plus one where the walk ends). And each departure not
        preceded by an arrival needs a jump, which needs a step to a
        decided board, of the same side to move."""
        arrivals = [0] * (2 * BOARDS)
        departures = [0] * (2 * BOARDS)
        for player in (FIRST, SECOND):
            for board in range(BOARDS):
                mask = self.marks[player][board]
                if not mask:
                    continue
                departures[board * 2 + player] += bin(mask).count("1")
                for position in range(9):
                    if mask >> position & 1:
                        arrivals[position * 2 + 1 - player] += 1
        closed = [self._closed(board) for board in range(BOARDS)]
        landings = [0, 0]
        jumps = [0, 0]
        for vertex in range(2 * BOARDS):
            board, side = divmod(vertex, 2)
            if closed[board]:
                jumps[side] += arrivals[vertex]
                continue
            end = 1 if side == to_move and (need == board or need == _ANY) else 0
            if arrivals[vertex] > departures[vertex] + end:
                return False
            landings[side] += departures[vertex] - arrivals[vertex]
        # The first move needs no jump (the first player's).
        return landings[FIRST] - 1 <= jumps[FIRST] and landings[SECOND] <= jumps[SECOND]

    def _back(self, to_move: int, need: int, exact: bool = False) -> list[int] | None:
        """Moves, last first, that take the position back to the empty
        board; the last of them (by the other side than ``to_move``) must
        send play to board ``need`` (with ``exact``, only there) or to a
        decided board (``need`` -1: only the latter), or may be any
        (``_ANY``)."""
        mover = 1 - to_move
        mine = self.marks[mover]
        if not any(mine):
            return [] if not any(self.marks[to_move]) else None
        key = (tuple(self.marks[FIRST] + self.marks[SECOND]), need, exact)
        if key in self.failed or self.visited >= self.budget:
            return None
        self.visited += 1
        if not self._may_be_a_game(to_move, need):
            self.failed.add(key)
            return None
        for board, position in self.cells:
            if not mine[board] >> position & 1:
                continue
            if need != _ANY and position != need and (exact or not self._closed(position)):
                continue
            mine[board] &= ~(1 << position)
            # Before the move, its board was open (no line for either
            # side: it cannot be full without the move) and the game on;
            # the move before it sent play there, or to a decided board.
            if not (HAS_LINE[mine[board]] or HAS_LINE[self.marks[to_move][board]] or self._over()):
                earlier = self._back(mover, board)
                if earlier is not None:
                    mine[board] |= 1 << position
                    return [board_cell(board, position), *earlier]
            mine[board] |= 1 << position
            if self.visited >= self.budget:
                return None  # not known to fail: not remembered
        self.failed.add(key)
        return None


def board_cell(board: int, position: int) -> int:
    """The grid cell of ``position`` (0-8) on small ``board`` (0-8)."""
    return (board // 3 * 3 + position // 3) * 9 + board % 3 * 3 + position % 3
