"""An exact solver for small Hex and Y positions: who wins with perfect
play, and a winning move.

Positions are two bitmasks (bit ``c`` for cell ``c`` of the core's
numbering), the side to move's stones and the opponent's. The solver is a
depth-first proof-number search (df-pn), pruned at every node by what Hex
solvers use first (Anshelevich; Hayward et al., "Solving 7x7 Hex"):
- **H-search** (``ai.connection.vcs``): virtual connections and
  semi-connections, built bottom-up by Anshelevich's rules, with edge
  template IVa added, in Hex and in Y.
- **Must-play.** When the opponent has edge-to-edge SCs, the side to move
  must play inside every one of their carriers: only the intersection is
  searched, and when it is empty the position is lost.
- **Fill-in** of the dead cells and captured pairs (``ai.connection.inferior``)
  before a position is analysed: the value is the same, the board is
  smaller and H-search sees the filled stones.
- **Wins in one and double threats**, cheaply, before H-search.
- **Proof numbers** (Nagai's df-pn with Pawlewicz and Lew's 1 + epsilon
  thresholds): the search goes down the line that is cheapest to prove or
  disprove, not to a fixed depth. A **transposition table** keeps the
  proven positions and the numbers of the unproven ones; **history**
  ordering (the moves that proved a win before first) breaks ties. A
  move not searched yet starts with a disproof number that grows with
  its place in that order (``RANK_WEIGHT``), so the search stays longer
  with the first moves before it spreads over the rest.
- **Proof sets**: a proven position keeps the empty cells its proof uses
  (the loser's stones anywhere else change nothing); once a move is
  proven to lose, only the moves inside its proof set stay to be searched
  (Henderson's "mustplay" from proofs). On the
  public 6 x 6 puzzles of ``tests/data/hex_puzzles.json`` it proves 13 of
  15 within 5 s each (with the H-search below), 14 since the proof sets
  and a faster H-search (6x6-henderson-17 in 2.0 s, was 2.8 s); the
  iterative deepening it replaced, with the H-search of before, proved
  none in 20 s. Then the AND rule stopped scanning every connection of
  an empty cell when it joins two empty cells (only groups, and the
  cell's own neighbours, can give an SC there): H-search 1.7 times as
  fast on 600 of the solver's positions (1.09 ms against 1.84), with
  as good a must-play region (13,664 cells in all against 13,632), and
  6x6-henderson-17 in 0.8 s (2.1 s), -13 in 0.9 s (1.6 s), -21 in
  2.4 s (3.6 s), 7x7-henderson-24 in 3.7 s (6.9 s). Then each two VCs
  were combined once (a new VC only with those already taken from the
  queue), and the SCs and bridges between empty cells two steps apart
  came from a table of the board (``Board.two_apart``), not from the AND
  rule: H-search 17 % faster on 6,000 random 7 x 7 positions (6.85 s
  against 8.26 s; VC wins 644 against 651, must-play cells 20,662
  against 21,041) and 19 % on 300 of 11 x 11; the solver 0.46 ms a node
  against 0.56 on 150 random unsolved 6 x 6 positions (16,416 nodes
  against 15,875), 0.78 against 1.00 on 60 of 7 x 7. Node counts move
  either way with the order connections are found in (6x6-henderson-09:
  6,032 against 3,317; 7 x 7: 45,852 against 39,590 on the 57 proven by
  both, in 30.9 s against 34.2 s).

The search checks the clock every node and gives up (``OutOfTimeError``) when the
deadline passes, so a caller can give it any share of a move's budget; its
table is kept across calls on one board (a game's positions share most of
their proofs). Pure standard library: it runs in the browser's Pyodide.
"""

from __future__ import annotations

import time

from . import inferior
from .bitboard import TEMPLATES, Board, position_masks  # noqa: F401 - as the solver's users know them
from .vcs import LEAN_MAX_EMPTY, Connections, OutOfTimeError, h_search  # noqa: F401

WIN, LOSS, UNKNOWN = 1, -1, 0
#: A move not searched yet, the ``i``-th in the order tried (central
#: cells first, then the history's), starts with the disproof number
#: ``1 + RANK_WEIGHT * i`` (proof number 1), instead of 1 for all: the
#: proof-number search then stays with the first moves until their
#: numbers grow past the next ones'. On the 15 puzzles of side 6
#: (``tests/data/hex_puzzles.json``, no time limit) the solver took 9.6 s
#: in all against 13.6 s with 1 for all (6x6-henderson-09 in 2.8 s, was
#: 4.4 s; -17 0.6 s, was 0.8 s; -21 1.6 s, was 2.4 s); a weight of 0.5
#: took 10.1 s, 2 took 11.5 s, 4 took 13.3 s. On the five of side 7 it
#: proves within 12 s, 21.1 s against 22.3 s.
RANK_WEIGHT = 1
#: A proof or disproof number that cannot be reached: the position is proven.
INFINITE = 1 << 40
#: A proven position's (phi, delta), by its value for the side to move.
PROVEN = {WIN: (0, INFINITE), LOSS: (INFINITE, 0)}


class Solver:
    """The proof search on one board size (see the module doc). ``solve``
    answers for the side to move; the tables persist between calls.
    ``templates``: whether its H-search adds the edge templates."""

    def __init__(self, size: int, game: str = "hex", templates: bool = True) -> None:
        self.board = Board(size, game, templates)
        self.inferior = inferior.analyser(game, size)
        #: a position -> the same after the fill-in of its inferior cells
        self.filled: dict[tuple[int, int, int], tuple[int, int]] = {}
        #: (to move's stones, the other's, player) -> (WIN or LOSS, a winning move or -1)
        self.table: dict[tuple[int, int, int], tuple[int, int]] = {}
        #: the same key -> what the node analysis found (see ``_analyse``)
        self.analysed: dict[tuple[int, int, int], tuple[int, int, int, int]] = {}
        #: a proven position's key -> its proof set: empty cells such that
        #: the loser given any stones outside them still loses
        self.proofs: dict[tuple[int, int, int], int] = {}
        self.history = [0] * self.board.cells
        #: the same key -> (phi, delta) of an unproven position the proof-number search left
        self.numbers: dict[tuple[int, int, int], tuple[int, int]] = {}
        self.nodes = 0
        self.deadline: float | None = None

    # -- the interface ------------------------------------------------------------------
    def solve(self, mine: int, theirs: int, player: int, seconds: float | None = None) -> tuple[int, int]:
        """(WIN, a winning move), (LOSS, -1) or (UNKNOWN, -1) when
        ``seconds`` ran out first, for ``player`` to move holding ``mine``
        against ``theirs``. An unfinished search leaves its proof and
        disproof numbers behind: the next call goes on from them."""
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        key = (mine, theirs, player)
        try:
            self._mid(mine, theirs, player, INFINITE, INFINITE)
        except OutOfTimeError:
            pass
        return self.table.get(key, (UNKNOWN, -1))

    def analyse(self, mine: int, theirs: int, player: int, seconds: float | None = None) -> tuple[int, int, int]:
        """The node analysis alone, with no search below it (for positions
        too big to solve): (WIN, a winning move, 0), (LOSS, -1, 0), or
        (UNKNOWN, -1, the moves worth playing: the opponent's must-play
        region, or its single threat), or (UNKNOWN, -1, 0) when
        ``seconds`` ran out first."""
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        filled_mine, filled_theirs = self._fill(mine, theirs, player)
        try:
            value, move, moves, _ = self._analyse(filled_mine, filled_theirs, player)
        except OutOfTimeError:
            return UNKNOWN, -1, 0
        if value == WIN and move < 0:
            move = self._any_move(mine, theirs)
        return value, move, moves

    def _any_move(self, mine: int, theirs: int) -> int:
        """A move for a position whose filled-in board is already won for the
        side to move, with nothing left to play there: every move wins (a
        stone never hurts its owner); the first empty cell."""
        free = self.board.full & ~(mine | theirs)
        return (free & -free).bit_length() - 1

    def losing_moves(self, mine: int, theirs: int, player: int) -> int:
        """The moves already proven to lose (a bitmask), from the table."""
        empty = self.board.full & ~(mine | theirs)
        lost = 0
        table = self.table
        other = player ^ 1
        e = empty
        while e:
            low = e & -e
            e ^= low
            known = table.get((theirs, mine | low, other))
            if known is not None and known[0] == WIN:
                lost |= low
        return lost

    def candidates(self, mine: int, theirs: int, player: int) -> int:
        """The moves not known to lose, as far as the tables tell: inside
        the opponent's must-play region and not proven lost (0 when the
        position is lost or was never analysed)."""
        mine, theirs = self._fill(mine, theirs, player)
        known = self.analysed.get((mine, theirs, player))
        if known is None or known[0] == LOSS:
            return 0
        if known[0] == WIN:
            return 1 << known[1]
        return known[2] & ~self.losing_moves(mine, theirs, player)

    # -- the search -----------------------------------------------------------------------
    def _fill(self, mine: int, theirs: int, player: int) -> tuple[int, int]:
        """(mine, theirs) with the dead cells and captured pairs filled in
        (``ai.connection.inferior``): the position's value is unchanged, for either
        side to move, and a move that wins there wins here."""
        key = (mine, theirs, player)
        known = self.filled.get(key)
        if known is None:
            black, white = (mine, theirs) if player == 0 else (theirs, mine)
            black, white, _ = self.inferior.fill_in(black, white)
            known = self.filled[key] = (black, white) if player == 0 else (white, black)
        return known

    def _analyse(self, mine: int, theirs: int, player: int) -> tuple[int, int, int, int]:
        """(value, move, moves, support): a proven value with its move, or
        UNKNOWN with the bitmask of the moves worth searching. ``support``
        is what the verdict rests on: a proven value's proof set (see
        ``proofs``), or the cells that confine the moves worth searching
        (every other move loses whatever the loser adds outside them)."""
        key = (mine, theirs, player)
        known = self.analysed.get(key)
        if known is not None:
            return known
        board = self.board
        empty = board.full & ~(mine | theirs)
        other = player ^ 1
        result: tuple[int, int, int, int]
        wins = board.wins_in_one(mine, empty, player)
        if wins:
            win = wins & -wins
            result = (WIN, win.bit_length() - 1, 0, win)
        else:
            threats = board.wins_in_one(theirs, empty, other)
            if threats & (threats - 1):
                result = (LOSS, -1, 0, threats)
            elif threats:
                result = (UNKNOWN, -1, threats, threats)
            else:
                deadline = self.deadline
                lean = empty.bit_count() <= LEAN_MAX_EMPTY
                mine_vc = h_search(board, mine, empty, player, deadline, lean)
                if mine_vc.vc is not None:
                    carrier = mine_vc.vc
                    move = mine_vc.keys or carrier or empty
                    result = (WIN, (move & -move).bit_length() - 1, 0, carrier)
                elif mine_vc.keys:
                    result = (WIN, mine_vc.key.bit_length() - 1, 0, mine_vc.semi)
                else:
                    their_vc = h_search(board, theirs, empty, other, deadline, lean)
                    if their_vc.vc is not None:
                        result = (LOSS, -1, 0, their_vc.vc)
                    else:
                        must = their_vc.must & empty
                        result = (UNKNOWN, -1, must, their_vc.spread) if must else (LOSS, -1, 0, their_vc.spread)
        self.analysed[key] = result
        return result

    def _mid(self, mine: int, theirs: int, player: int, limit_phi: int, limit_delta: int) -> tuple[int, int]:
        """Depth-first proof-number search (Nagai's df-pn in negamax form,
        with Pawlewicz and Lew's 1 + epsilon thresholds) below one position:
        its (phi, delta), the proof and disproof numbers of a win for the
        side to move, once one reaches its limit. A proven position has its
        ``PROVEN`` numbers, and goes to ``table`` with its proof set.

        Proof sets prune the moves: once a move is proven to lose, every
        move outside its proof set loses too (the loser's stone there
        changes nothing, and the stone it did not play could only have
        helped it), so only the moves inside it stay to be searched."""
        key = (mine, theirs, player)
        known = self.table.get(key)
        if known is not None:
            return PROVEN[known[0]]
        filled = self._fill(mine, theirs, player)
        if filled != (mine, theirs):
            # The same value with the inferior cells filled in, and the
            # same winning move (an empty cell of both).
            numbers = self._mid(filled[0], filled[1], player, limit_phi, limit_delta)
            proven = self.table.get((filled[0], filled[1], player))
            if proven is not None:
                if proven[0] == WIN and proven[1] < 0:
                    proven = (WIN, self._any_move(mine, theirs))
                self.table[key] = proven
                # A fill of the winner's colour rests on the cells around
                # it; the loser's extra stones go anywhere else. (Put the
                # fills in again in their order, those of the loser's colour
                # as plain stones: that only hurts the winner, and each of
                # the winner's sees the same neighbours as before.)
                empty = self.board.full & ~(mine | theirs)
                won = filled[0] if proven[0] == WIN else filled[1]
                halo = self.board.grow(won & empty) & empty
                self.proofs[key] = self.proofs[(filled[0], filled[1], player)] | halo
            else:
                self.numbers[key] = numbers
            return numbers
        self.nodes += 1
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTimeError
        value, move, moves, support = self._analyse(mine, theirs, player)
        table, unproven, proofs = self.table, self.numbers, self.proofs
        if value != UNKNOWN:
            table[key] = (value, move)
            proofs[key] = support
            return PROVEN[value]
        history = self.history
        order = [c for c in self.board.order if moves >> c & 1]
        order.sort(key=lambda c: -history[c])
        other = player ^ 1
        children = [(theirs, mine | 1 << c, other) for c in order]
        while True:
            # phi: the least delta of a child; delta: the sum of their phis.
            phi, delta = INFINITE, 0
            best = -1
            best_phi = second = INFINITE
            confine = -1  # the proof sets of the moves proven to lose
            for index, child in enumerate(children):
                proven = table.get(child)
                if proven is not None:
                    if proven[0] == WIN:  # the move loses
                        confine &= proofs[child]
                        support |= proofs[child]
                        continue
                    child_phi, child_delta = PROVEN[LOSS]
                else:
                    child_phi, child_delta = unproven.get(child) or (1, 1 + RANK_WEIGHT * index)
                delta += child_phi
                if child_delta < phi:
                    second = phi
                    phi, best, best_phi = child_delta, index, child_phi
                elif child_delta < second:
                    second = child_delta
            if phi == 0:
                move = order[best]
                history[move] += 1
                table[key] = (WIN, move)
                proofs[key] = 1 << move | proofs[children[best]]
                unproven.pop(key, None)
                return PROVEN[WIN]
            if confine != -1:
                # Keep the moves inside every lost move's proof set; the
                # lost ones go (their proof sets are in ``support`` now).
                kept = [index for index, child in enumerate(children)
                        if confine >> order[index] & 1 and child not in table]
                order = [order[index] for index in kept]
                children = [children[index] for index in kept]
                continue
            if delta == 0:  # every move is proven to lose
                table[key] = (LOSS, -1)
                proofs[key] = support
                unproven.pop(key, None)
                return PROVEN[LOSS]
            delta = min(delta, INFINITE - 1)
            if phi >= limit_phi or delta >= limit_delta:
                unproven[key] = (phi, delta)
                return phi, delta
            child_limit_phi = limit_delta - delta + best_phi
            child_limit_delta = min(limit_phi, second + 1 + second // 4)
            mine_c, theirs_c, player_c = children[best]
            self._mid(mine_c, theirs_c, player_c, child_limit_phi, child_limit_delta)


#: The solvers of the boards in use, by game, size and whether H-search
#: adds the edge templates (their tables help the next moves).
_SOLVERS: dict[tuple[str, int, bool], Solver] = {}
#: Past this many stored positions a solver starts afresh, to bound memory.
MAX_TABLE = 200_000


def solver_for(size: int, game: str = "hex", templates: bool = True) -> Solver:
    """The shared solver of the board of ``game`` and side ``size`` (whose
    H-search adds the edge templates, unless ``templates`` is false: the
    part "templates" of ``ai.connection.parts``)."""
    found = _SOLVERS.get((game, size, templates))
    if found is None or sum(len(part) for part in (found.table, found.proofs, found.analysed, found.numbers,
                                                   found.filled)) > MAX_TABLE:
        found = _SOLVERS[(game, size, templates)] = Solver(size, game, templates)
    return found


def clear() -> None:
    """Forget every solver's tables."""
    _SOLVERS.clear()
