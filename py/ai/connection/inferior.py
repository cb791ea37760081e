"""Inferior cell analysis for Hex and Y: dead cells, captured pairs, fill-in.

Standard library only (it runs in Pyodide); every check is a table lookup
on an int that encodes a cell's six neighbours, so it is cheap enough for
tree nodes: the search of ``ai.connection`` fills in every node it analyses.

Words
-----

A full board has exactly one winner, in Hex and in Y, and a stone never
hurts its owner (monotonicity). An empty cell ``c`` is **dead** when its
colour can never change the winner: for every way of filling the other
empty cells, the winner is the same with ``c`` black as with ``c`` white.

**P-useless implies dead.** Call ``c`` useless to player P when, for every
completion, "P wins with c = P" implies "P wins with c = opponent". The only
completion in which c's colour matters is one where black wins with c black
and white wins with c white; uselessness to *either* player excludes it.
So it is enough to show that one of the two players never needs ``c``.

The ring
--------

A cell's six neighbour positions, clockwise, form a ring in which two
consecutive positions touch each other on the board. A position off the
board is a side on an edge and is read as a stone of the edge's owner
(Hex: black owns top and bottom, white left and right; a corner has sides
on two edges, one per player). In Y every edge belongs to both players, so
an off-board side reads as *both* colours (code 3) for what a chain may
touch, but not as a joint: in Y two groups touching one edge are not one
group (the win is one group touching all three edges). Consecutive
ring positions are always joined: two cells that touch, a cell and the edge
it lies on, or two sides of one edge. (In Hex two consecutive sides of
different edges have different colours, so no same-colour run joins them.
In Y a corner cell's sides lie on two different edges that are *not*
joined; corners of Y are simply never analysed - a sound omission.)

Encoding: position ``i`` of the ring contributes ``value * 4**i`` with 0
empty, 1 black, 2 white, 3 both (a Y edge). ``USELESS[code]`` has bit 0 set
when the cell is useless to black, bit 1 when useless to white.

**The dead rule** (``_useless``). For player P let S be the ring positions
P could ever own there (empty, P, or a Y edge side) and D the positions
that already join P's chains (P's stones, and in Hex P's edge sides: an
edge is a node of the winning path; not a Y edge side). The cell is useless to P if every two members u,
v of S are joined without the cell: one of the two arcs of the ring
between them has all its interior positions in D (an empty interior: u and
v touch). Proof: take a completion where P wins with c = P and a minimal
winning chain (Hex: a path between P's edges; Y: a tree touching the three
edges) through c. The chain's neighbours of c are ring positions P owns in
that completion, hence in S; by the rule they are pairwise joined by cells
touching each other or by P's stones already on the board (D), none of
them c. Replace c by those joins: the chain still connects everything it
connected, without c, so P wins with c = opponent.

The familiar patterns are special cases: four or more consecutive stones
of one colour (the other player's S is at most two touching positions);
three black and three white in two runs (each S is one run, its ends
joined through its middle); five of one colour and one empty; and the
cases with empty neighbours, e.g. ``Q Q Q Q . .`` (S for P is two touching
empties) or ``Q Q Q . P .`` (the empties are joined through P's stone).

**Captured pairs** (``captured``). Two touching empty cells a, b are
captured by P when a is dead once b is P's and b is dead once a is P's.
Filling both with P does not change the game-theoretic value, whoever is
to move: P answers a move of the opponent on one of them by taking the
other (the opponent's stone there is then dead, as good as P's), and
otherwise plays as on the filled board; extra moves never hurt in these
games. The converse direction is monotonicity. The classic case is the
edge template of a stone on the second row: its two carrier cells on the
first row (each one with the other black shows four black in a row:
two edge sides, the other carrier, the stone).

**Fill-in** (``fill_in``). A dead cell may get either colour without
changing the value (the same strategy argument: a move on a dead cell is
a pass, and passes never hurt). We give a cell useless to P the colour of
P's opponent (so the runs that made it dead grow and join), black when it
is useless to both; a captured pair gets its captor's colour. Each step
preserves the value of the position it is applied to, so the fixpoint
does too; the loop repeats until nothing changes.

Figures (``python tools/inferior_stats.py``; 76 positions of two 11x11
games of the strong level, 77 of two Y games of side 11): Hex, 101.5 empty
cells on average, 0.03 dead as they stand, 2.75 captured pairs, 8.05 cells
filled by ``fill_in`` (7.9%), about 300 us a call in CPython and 530 us in
Pyodide. The puzzles of side 5: 4.7 of 17.4 empties filled. In Y nothing
was found in those games: its edges join no chains, so the edge patterns
that make most of Hex's captured pairs do not exist there; only interior
patterns (four of one colour in a row around a cell, ...) remain.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from core.hex import layout as hex_layout
from core.y import cell_index as y_cell_index, layout as y_layout, row_col as y_row_col

from .colours import BLACK, BOTH, EMPTY, WHITE

__all__ = ["Inferior", "analyser", "fill_in", "fill_in_board", "dominated_on_board", "dead_cells", "captured"]

_HEX_RING = ((-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1))
_Y_RING = ((-1, -1), (-1, 0), (0, 1), (1, 1), (1, 0), (0, -1))


def _useless(values: tuple[int, ...], player: int) -> bool:
    """The dead rule above for one ring (six values) and one player."""
    can = [v == EMPTY or v == player or v == BOTH for v in values]
    own = [v == player for v in values]  # a Y edge side joins nothing (see above)
    s = [i for i in range(6) if can[i]]
    for x in range(len(s)):
        for y in range(x + 1, len(s)):
            u, v = s[x], s[y]
            if all(own[i] for i in range(u + 1, v)):
                continue
            if all(own[i % 6] for i in range(v + 1, u + 6)):
                continue
            return False
    return True


def _codes(kinds: tuple[tuple[int, ...], ...], pattern: tuple[int, ...]) -> list[int]:
    """The ring codes whose value at each position i is one of
    ``kinds[pattern[i]]``."""
    codes = [0]
    for i, kind in enumerate(pattern):
        codes = [code | value << (2 * i) for code in codes for value in kinds[kind]]
    return codes


def _build_table() -> bytes:
    # To the rule a ring position is only the player's own stone, open to
    # them (empty, or an edge side of both) or shut (the opponent's): one
    # test per pattern of those three kinds, not per code.
    table = bytearray(4 ** 6)
    for bit, player, opponent in ((1, BLACK, WHITE), (2, WHITE, BLACK)):
        kinds = ((player,), (EMPTY, BOTH), (opponent,))
        for pattern in product(range(3), repeat=6):
            if _useless(tuple(kinds[kind][0] for kind in pattern), player):
                for code in _codes(kinds, pattern):
                    table[code] |= bit
    return bytes(table)


#: USELESS[code]: bit 0 useless to black, bit 1 useless to white (so dead if nonzero).
USELESS = _build_table()
_NEVER = bytes(4 ** 6)  # for cells that are not analysed (Y corners)


def _build_partners(table: bytes) -> tuple[int, ...]:
    """Per code: bit i set when the cell turns dead once its empty ring
    position i gets a black stone; bit 6 + i, a white one. A captured pair
    needs this of both its cells, so most cells are ruled out by one lookup."""
    out = []
    for code in range(4 ** 6):
        bits = 0
        for i in range(6):
            if (code >> (2 * i)) & 3 == EMPTY:
                if table[code + (1 << (2 * i))]:
                    bits |= 1 << i
                if table[code + (2 << (2 * i))]:
                    bits |= 1 << (6 + i)
        out.append(bits)
    return tuple(out)


PARTNERS = _build_partners(USELESS)
_NO_PARTNERS = (0,) * 4 ** 6


def _build_dominators() -> tuple[int, ...]:
    """Per code: bit i set when, for black, the cell is dominated by its
    empty neighbour at ring position i; bit 6 + i, for white (see
    ``Inferior.dominated``). A position counts only as empty, as usable
    otherwise (the player's stone, an edge side of both) or as the
    opponent's: one test per pattern of those, not per code."""
    out = [0] * 4 ** 6
    for shift, player, opponent in ((0, BLACK, WHITE), (6, WHITE, BLACK)):
        kinds = ((EMPTY,), (player, BOTH), (opponent,))
        for pattern in product(range(3), repeat=6):
            usable = {i for i in range(6) if pattern[i] < 2}
            bits = 0
            for i in range(6):
                if pattern[i] == 0 and usable <= {(i - 1) % 6, i, (i + 1) % 6}:
                    bits |= 1 << (shift + i)
            if bits:
                for code in _codes(kinds, pattern):
                    out[code] |= bits
    return tuple(out)


#: DOMINATORS[code]: the ring positions whose cell dominates this one (see above).
DOMINATORS = _build_dominators()


class Inferior:
    """The tables of one board (game "hex" or "y", side ``size``)."""

    def __init__(self, game: str, size: int) -> None:
        self.game, self.size = game, size
        if game == "hex":
            board = hex_layout(size)
            coords = [(c // size, c % size) for c in range(size * size)]
            ring_offsets = _HEX_RING

            def index(r: int, c: int) -> int | None:
                return r * size + c if 0 <= r < size and 0 <= c < size else None

            def side(r: int, c: int) -> int:  # an off-board position's owner
                return BLACK if (r < 0 or r >= size) else WHITE
        elif game == "y":
            board = y_layout(size)
            coords = list(y_row_col(size))
            ring_offsets = _Y_RING

            def index(r: int, c: int) -> int | None:
                return y_cell_index(r, c) if 0 <= c <= r < size else None

            def side(r: int, c: int) -> int:
                return BOTH
        else:
            raise ValueError(f"no inferior cell analysis for {game!r}")
        self.cells = cells = board.cells
        #: per cell: the constant part of its code (off-board sides)
        base = [0] * cells
        #: per cell: ((neighbour bit, 4**position), ...) for on-board ring positions
        ring: list[tuple[tuple[int, int], ...]] = []
        tables: list[bytes] = []
        partners: list[tuple[int, ...]] = []
        cell_at: list[tuple[int | None, ...]] = []  # per cell: the cell at each ring position
        position: list[dict[int, int]] = []  # per cell: neighbour -> its ring position
        for cell, (r, c) in enumerate(coords):
            found, where = [], {}
            for i, (dr, dc) in enumerate(ring_offsets):
                n = index(r + dr, c + dc)
                if n is None:
                    base[cell] += side(r + dr, c + dc) << (2 * i)
                else:
                    found.append((1 << n, 1 << (2 * i)))
                    where[n] = i
            ring.append(tuple(found))
            position.append(where)
            corner = game == "y" and bin(board.edges[0][cell]).count("1") > 1
            tables.append(_NEVER if corner else USELESS)
            partners.append(_NO_PARTNERS if corner else PARTNERS)
            cell_at.append(tuple(index(r + dr, c + dc) for dr, dc in ring_offsets))
        self.base, self.ring, self.tables = tuple(base), tuple(ring), tuple(tables)
        self.partners = tuple(partners)
        #: per cell: the cell at each ring position (None off the board)
        self.cell_at = tuple(cell_at)
        #: per cell: ((ring position i, neighbour, i's position in the neighbour's ring), ...)
        self.links = tuple(
            tuple((i, n, position[n][cell]) for i, n in enumerate(cell_at[cell]) if n is not None)
            for cell in range(cells))
        #: (a, b, bit a, bit b, weight of b in a's ring, weight of a in b's ring), a < b touching
        pairs = []
        for a in range(cells):
            for b, i in position[a].items():
                if a < b:
                    pairs.append((a, b, 1 << a, 1 << b, 1 << (2 * i), 1 << (2 * position[b][a])))
        self.pairs = tuple(pairs)
        self.all_cells = (1 << cells) - 1
        self.around = tuple(sum(1 << n for n in position[c]) for c in range(cells))

    def code(self, cell: int, black: int, white: int) -> int:
        """The ring code of ``cell`` on the board given by two bitmasks."""
        code = self.base[cell]
        for bit, weight in self.ring[cell]:
            if black & bit:
                code += weight
            elif white & bit:
                code += weight << 1
        return code

    def useless(self, cell: int, black: int, white: int) -> int:
        """Bit 0: the empty ``cell`` is useless to black, bit 1: to white."""
        return self.tables[cell][self.code(cell, black, white)]

    def dead(self, black: int, white: int) -> int:
        """The mask of the empty cells the rule proves dead."""
        out = 0
        empty = self.all_cells & ~(black | white)
        code, tables = self.code, self.tables
        while empty:
            low = empty & -empty
            empty ^= low
            cell = low.bit_length() - 1
            if tables[cell][code(cell, black, white)]:
                out |= low
        return out

    def captured(self, black: int, white: int) -> list[tuple[int, int, int]]:
        """The captured pairs ``(a, b, player)`` (player 1 black, 2 white) of
        cells that are not dead themselves; pairs may share cells (fill
        them one at a time, rechecking, as ``fill_in`` does)."""
        empty = self.all_cells & ~(black | white)
        dead = self.dead(black, white)
        out = []
        code = self.code
        tables = self.tables
        for a, b, abit, bbit, wa, wb in self.pairs:
            if not (empty & abit and empty & bbit) or (dead & (abit | bbit)):
                continue
            ca, cb = code(a, black, white), code(b, black, white)
            ta, tb = tables[a], tables[b]
            for player in (BLACK, WHITE):
                if ta[ca + wa * player] and tb[cb + wb * player]:
                    out.append((a, b, player))
        return out

    def dominated(self, black: int, white: int, player: int, moves: int) -> int:
        """The cells of ``moves`` that ``player`` (1 black, 2 white) need not
        play, each because a neighbour d in ``moves`` that is kept is at
        least as good for it (neighbourhood domination): every ring
        position of the cell that ``player`` could use (empty, its own, a
        Y edge) is d or one of the two positions next to d, which touch d.
        In any filling where ``player`` wins with the cell, a minimal
        winning chain through it goes through d instead when ``player``
        holds d. Greedy, in cell order, a dominator never removed before its
        turn, so of each chain of dominations the best cell stays."""
        removed = 0
        shift = 0 if player == BLACK else 6
        cell_at, tables = self.cell_at, self.tables
        scan = moves
        while scan:
            low = scan & -scan
            scan ^= low
            cell = low.bit_length() - 1
            if tables[cell] is _NEVER:
                continue  # Y corners: not analysed
            bits = DOMINATORS[self.code(cell, black, white)] >> shift & 63
            while bits:
                i = (bits & -bits).bit_length() - 1
                bits &= bits - 1
                other = cell_at[cell][i]
                if other is not None and moves >> other & 1 and not removed >> other & 1:
                    removed |= low
                    break
        return removed

    def fill_in(self, black: int, white: int) -> tuple[int, int, int]:
        """Fill dead cells and captured pairs until nothing changes.

        Returns ``(black', white', filled)``: the new masks and the mask of
        the cells filled (dead or captured). The value of the position,
        for either side to move, is unchanged (see the module's notes)."""
        filled = 0
        base, ring, tables = self.base, self.ring, self.tables
        around, links, partner_tables = self.around, self.links, self.partners
        codes = [0] * self.cells  # ring codes, current for the empty cells not in dirty
        dirty = self.all_cells
        while True:
            changed = False
            empty = self.all_cells & ~(black | white)
            scan = empty & dirty
            dirty = 0
            while scan:  # dead cells, filled as found (each fill is sound on its own)
                low = scan & -scan
                scan ^= low
                cell = low.bit_length() - 1
                code = base[cell]
                for bit, weight in ring[cell]:
                    if black & bit:
                        code += weight
                    elif white & bit:
                        code += weight << 1
                flags = tables[cell][code]
                if flags:
                    if flags & 2:  # useless to white: black
                        black |= low
                    else:
                        white |= low
                    filled |= low
                    dirty |= around[cell]
                    changed = True
                codes[cell] = code
            if changed:
                continue
            # No dead cell: every empty cell's code is current, until a pair
            # is filled; then the cells around it are stale until rescanned.
            stale = 0
            scan = empty
            while scan:
                low = scan & -scan
                scan ^= low
                a = low.bit_length() - 1
                if not empty & low or stale & low:
                    continue
                want = partner_tables[a][codes[a]]
                if not want:
                    continue
                for i, b, j in links[a]:
                    if not (want >> i & 65) or not empty >> b & 1 or stale >> b & 1:
                        continue
                    back = partner_tables[b][codes[b]]
                    if want >> i & 1 and back >> j & 1:
                        black |= low | 1 << b
                    elif want >> (6 + i) & 1 and back >> (6 + j) & 1:
                        white |= low | 1 << b
                    else:
                        continue
                    filled |= low | 1 << b
                    empty &= ~(low | 1 << b)
                    stale |= around[a] | around[b]
                    dirty |= around[a] | around[b]
                    changed = True
                    break
            if not changed:
                return black, white, filled


@cache
def analyser(game: str, size: int) -> Inferior:
    """The tables for one game and size (built once)."""
    return Inferior(game, size)


def dead_cells(size: int, black: int, white: int, game: str = "hex") -> int:
    return analyser(game, size).dead(black, white)


def captured(size: int, black: int, white: int, game: str = "hex") -> list[tuple[int, int, int]]:
    return analyser(game, size).captured(black, white)


def fill_in(size: int, black: int, white: int, game: str = "hex") -> tuple[int, int, int]:
    """``(black', white', filled_mask)``: see ``Inferior.fill_in``."""
    return analyser(game, size).fill_in(black, white)


def board_masks(inf: Inferior, board: list[int]) -> tuple[int, int]:
    """The black and white masks of a connection-engine search board (``0``
    empty, ``1`` black, ``2`` white for the real cells, virtual edge cells
    after them, ignored)."""
    black = white = 0
    for cell in range(inf.cells):
        v = board[cell]
        if v == 1:
            black |= 1 << cell
        elif v == 2:
            white |= 1 << cell
    return black, white


def fill_in_board(size: int, board: list[int], game: str = "hex") -> int:
    """Fill-in on a connection-engine search board (see ``board_masks``;
    the virtual edge cells are left alone), in place. Returns the mask of
    the cells filled."""
    inf = analyser(game, size)
    black2, white2, filled = inf.fill_in(*board_masks(inf, board))
    scan = filled
    while scan:
        low = scan & -scan
        scan ^= low
        board[low.bit_length() - 1] = 1 if black2 & low else 2
    return filled


def dominated_on_board(size: int, board: list[int], colour: int, moves: list[int], game: str = "hex") -> int:
    """``Inferior.dominated`` on a connection-engine search board for
    ``colour`` (1 black, 2 white) to move, among ``moves``: the mask of the
    moves it need not play."""
    inf = analyser(game, size)
    black, white = board_masks(inf, board)
    return inf.dominated(black, white, colour, sum(1 << move for move in moves))
