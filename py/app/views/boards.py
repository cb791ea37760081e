"""Board views: (state, options) -> a tree of what to draw.

A node is ``(tag, attrs, children)``; a child is a node or plain text. An
attribute value may be a ``Msg`` (catalog key and parameters) that the
browser layer translates, so views know no language and are tested without
a browser. Events go out through ``data-move`` (the move in notation).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, NamedTuple, Union

from core.base import FIRST, SECOND, GameState
from core.notakto import NotaktoState
from core.uttt import BOARD_CELLS, CELL_BOARD, DRAWN, UtttState, board_span
from core.uttt import cell_text as uttt_cell_text
from core.hex import LETTERS, ConnectionState, HexState
from core.y import cell_index as cell_index_y
from core.y import row_col as y_row_col
from registry import GAMES

from ..model.words import Msg


Node = tuple  # (tag, attrs, children)
Child = Union[Node, str]


def node(tag: str, attrs: dict[str, Any] | None = None, *children: Child) -> Node:
    return (tag, attrs or {}, list(children))


CELL_NAMES = [f"{'abc'[cell % 3]}{cell // 3 + 1}" for cell in range(9)]


def named_move(state: GameState, move: int) -> Msg:
    """A move in words as its notation says it ("e5"): a game's
    ``describe`` unless its registry entry names another."""
    return Msg("move.cell", {"cell": state.move_to_text(move)})


def notakto_move(state: NotaktoState, move: int) -> Msg:
    """"board 2, b2": the board by number, the cell by its name."""
    return Msg("move.notakto", {"board": move // 9 + 1, "cell": CELL_NAMES[move % 9]})


#: The engine's suggested cell (a hint, or the better move in review)
#: carries this attribute; other cells none.
HINTED: dict[bool, dict[str, str]] = {True: {"data-hint": "true"}}


def coordinate(name: str) -> Node:
    """A cell's name drawn in its corner (the coordinates setting of the
    boards made of buttons); screen readers have it from the label."""
    return node("span", {"class": "coord-in", "aria-hidden": "true"}, name)


def notakto_board(
    state: NotaktoState,
    *,
    interactive: bool,
    safe_moves: frozenset[int] = frozenset(),
    coordinates: bool = False,
    hint_move: int | None = None,
) -> Node:
    """The boards side by side. Each cell is a button named for screen
    readers ("b2, empty"); closed boards say so in words and show the line
    that closed them; the last move and safe-move hints carry marks, not
    only colour."""
    last = state.last_move
    boards = []
    for index, bits in enumerate(state.boards):
        closed = state.is_closed(index)
        line = set(state.winning_line(index) or ())
        cells = []
        for cell in range(9):
            move = index * 9 + cell
            filled = bool(bits >> cell & 1)
            playable = interactive and not closed and not filled and not state.is_over()
            classes = ["cell"]
            content = "cell.empty"
            if filled:
                classes.append("x")
                content = "cell.x"
            if cell in line:
                classes.append("line")
            if move == last:
                classes.append("last")
            is_safe = move in safe_moves and playable
            if is_safe:
                classes.append("safe")
            label_key = "cell.label"
            if move == hint_move:
                classes.append("hinted")
                label_key = "cell.label_hint"
            elif move == last:
                label_key = "cell.label_last"
            elif is_safe:
                label_key = "cell.label_safe"
            cells.append(node(
                "button",
                {
                    "type": "button",
                    "class": " ".join(classes),
                    **HINTED.get(move == hint_move, {}),
                    "data-move": state.move_to_text(move),
                    "data-x": index * 3 + cell % 3,
                    "data-y": cell // 3,
                    "data-testid": f"cell-{state.move_to_text(move)}",
                    "aria-disabled": "false" if playable else "true",
                    "aria-label": Msg(label_key, {"cell": CELL_NAMES[cell], "content": Msg(content)}),
                },
                node("span", {"class": "mark", "aria-hidden": "true"}, "X" if filled else ""),
                *((coordinate(CELL_NAMES[cell]),) if coordinates else ()),
            ))
        board_attrs = {
            "class": "nk-board closed" if closed else "nk-board",
            "role": "group",
            "data-testid": f"board-{index + 1}",
            "data-closed": "true" if closed else "false",
            "aria-label": Msg("board.closed_label" if closed else "board.label", {"board": index + 1}),
        }
        caption = node(
            "span", {"class": "nk-caption", "aria-hidden": "true"},
            Msg("board.closed_label" if closed else "board.label", {"board": index + 1}),
        )
        boards.append(node("div", board_attrs, caption, node("div", {"class": "nk-grid"}, *cells)))
    return node("div", {"class": f"nk-boards nk-count-{len(state.boards)}", "data-testid": "notakto-boards"}, *boards)


SMALL_BOARD_STATE = {None: "uttt.board.open", FIRST: "uttt.board.won_x", SECOND: "uttt.board.won_o", DRAWN: "uttt.board.drawn"}
MARK = {FIRST: ("x", "X", "cell.x"), SECOND: ("o", "O", "cell.o")}


def uttt_board(state: UtttState, *, interactive: bool, safe_moves: frozenset[int] = frozenset(),
               coordinates: bool = False, hint_move: int | None = None) -> Node:
    """Nine small boards in a 3x3 big board. The small boards where the side
    to move may play are marked (outline, a tint and their names say
    "play here"); a decided small board shows its big X or O, or says
    drawn; the winning line of boards is marked at the end."""
    over = state.is_over()
    targets = set(state.target_boards())
    results = state.small_board_results()
    winning = set(state.winning_line() or ())
    last = state.last_move
    smalls = []
    for board in range(9):
        result = results[board]
        line = set(state.small_board_line(board) or ())
        cells = []
        for position in range(9):
            cell = BOARD_CELLS[board][position]
            owner = state.cell_owner(cell)
            text = uttt_cell_text(cell)
            playable = interactive and not over and board in targets and owner is None
            classes = ["cell"]
            content = "cell.empty"
            mark = ""
            if owner is not None:
                kind, mark, content = MARK[owner]
                classes.append(kind)
            if cell in line:
                classes.append("line")
            if cell == last:
                classes.append("last")
            label_key = "cell.label_last" if cell == last else "cell.label"
            if cell == hint_move:
                classes.append("hinted")
                label_key = "cell.label_hint"
            cells.append(node(
                "button",
                {
                    "type": "button",
                    "class": " ".join(classes),
                    **HINTED.get(cell == hint_move, {}),
                    "data-move": text,
                    "data-x": cell % 9,
                    "data-y": cell // 9,
                    "data-testid": f"cell-{text}",
                    "aria-disabled": "false" if playable else "true",
                    "aria-label": Msg(label_key, {"cell": text, "content": Msg(content)}),
                },
                node("span", {"class": "mark", "aria-hidden": "true"}, mark),
                *((coordinate(text),) if coordinates else ()),
            ))
        classes = ["ut-small"]
        is_target = board in targets and not over
        if is_target:
            classes.append("target")
        if result is not None:
            classes.append({FIRST: "won-x", SECOND: "won-o", DRAWN: "drawn"}[result])
        if board in winning:
            classes.append("winning")
        state_key = "uttt.board.target" if is_target else SMALL_BOARD_STATE[result]
        label = Msg("uttt.board.label", {"board": board + 1, "state": Msg(state_key)})
        children: list[Child] = [node("div", {"class": "ut-grid"}, *cells)]
        if result in (FIRST, SECOND):
            children.append(node("span", {"class": "ut-owner", "aria-hidden": "true"}, MARK[result][1]))
        elif result == DRAWN:
            children.append(node("span", {"class": "ut-owner drawn", "aria-hidden": "true"}, "="))
        smalls.append(node("div", {
            "class": " ".join(classes), "role": "group", "aria-label": label,
            "data-testid": f"small-{board + 1}", "data-state": state_key.rsplit(".", 1)[1],
        }, *children))
    return node("div", {"class": "ut-big", "data-testid": "uttt-board"}, *smalls)


def uttt_move(state: UtttState, move: int) -> Msg:
    """"e5 (small board 5)"."""
    return Msg("move.uttt", {"cell": uttt_cell_text(move), "board": CELL_BOARD[move] + 1})


def uttt_target(state: UtttState) -> Msg:
    """Where the side to move may play: the forced small board, or any."""
    board = state.forced_board
    if board is None:
        return Msg("uttt.target.any")
    return Msg("uttt.target.one", {"board": board + 1, "span": board_span(board)})


# -- Hex and Y -------------------------------------------------------------
# Cells are hexagons of circumradius 1. Hex is drawn as in the rules page:
# a rhombus whose acute corners point left and right, blue (the first
# player) owning the top-left and bottom-right edges, green the other two;
# a1 is the left corner. On a narrow portrait screen the rhombus stands
# upright instead (acute corners at the top and bottom, a1 at the top): the
# same picture mirrored across the line x = y, which keeps every edge where
# the rules page puts it (top-left and bottom-right still blue) and makes
# the cells larger on a phone (up to 1.7 times; the screen's height caps it,
# css/app.css: 1.15 times on 360 x 640, 1.35 on 390 x 844). Y is a triangle
# with its apex at the top.
ROOT3 = math.sqrt(3)
STONE_CLASS = {FIRST: "blue", SECOND: "green"}
# The red/blue setting: red first, blue second (as PlayHex draws them); the
# marks stay the seat's (a dot for the first player, a ring for the second).
RED_BLUE_CLASS = {FIRST: "red", SECOND: "blue"}
RED_BLUE_EDGE = {"edge blue": "edge red", "edge green": "edge blue"}
# The edge bands lie this far beyond the line through the outer cells'
# centres: just outside the cells (whose corners reach 1).
BAND = (0.95, 1.55)
STONE_NAME = {FIRST: "cell.blue", SECOND: "cell.green"}
RED_BLUE_NAME = {FIRST: "cell.red", SECOND: "cell.blue"}


def _fmt(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _polygon(cx: float, cy: float, start_degrees: float) -> str:
    return " ".join(
        f"{_fmt(cx + math.cos(math.radians(start_degrees + 60 * k)))},{_fmt(cy + math.sin(math.radians(start_degrees + 60 * k)))}"
        for k in range(6)
    )


class Geometry(NamedTuple):
    centres: tuple[tuple[float, float], ...]
    polygons: tuple[str, ...]
    grid: tuple[tuple[int, int], ...]  # (x, y) for keyboard movement
    view_box: str
    edges: tuple[tuple[str, str, str], ...]  # (css class, polygon points, testid)
    labels: tuple[tuple[float, float, str], ...]  # coordinate labels


@lru_cache(maxsize=None)
def hex_geometry(size: int, tall: bool = False) -> Geometry:
    """Flat-topped hexagons: centre (1.5 (r + c), (sqrt 3)/2 (r - c)); when
    ``tall``, x and y exchanged (pointy-topped hexagons, the rhombus
    upright). The keyboard's grid follows the picture: the right arrow
    steps along a row in the wide drawing (up and to the right) and down a
    column in the tall one (down and to the right)."""
    centres = tuple((1.5 * (r + c), ROOT3 / 2 * (r - c)) for r in range(size) for c in range(size))
    if tall:
        centres = tuple((y, x) for x, y in centres)
    polygons = tuple(_polygon(x, y, 30 if tall else 0) for x, y in centres)
    grid = tuple(((r, c) if tall else (c, r)) for r in range(size) for c in range(size))
    n = size - 1
    left, top, right, bottom = centres[0], centres[n], centres[n * size + n], centres[n * size]
    middle = ((left[0] + right[0]) / 2, (top[1] + bottom[1]) / 2)
    # The rhombus has an incircle, so scaling about its centre moves every
    # side out by the same distance: bands between two scaled copies.
    inner_half = _distance_to_side(middle, left, top)
    def scaled(point: tuple[float, float], margin: float) -> tuple[float, float]:
        k = (inner_half + margin) / inner_half
        return (middle[0] + (point[0] - middle[0]) * k, middle[1] + (point[1] - middle[1]) * k)
    corners = (left, top, right, bottom)  # drawn wide; tall: top, left, bottom, right
    sides = (("edge blue", 0, 1, "edge-top-left"), ("edge green", 1, 2, "edge-bottom-left" if tall else "edge-top-right"),
             ("edge blue", 2, 3, "edge-bottom-right"), ("edge green", 3, 0, "edge-top-right" if tall else "edge-bottom-left"))
    edges = tuple(
        (css, " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in (scaled(corners[a], BAND[0]), scaled(corners[b], BAND[0]),
                                                            scaled(corners[b], BAND[1]), scaled(corners[a], BAND[1]))), testid)
        for css, a, b, testid in sides
    )
    # Outside row 1 (the top-left edge) and column a (bottom-left, or
    # top-right when tall).
    row_offset, column_offset = ((-2.6, -1.5), (2.6, -1.5)) if tall else ((-1.5, -2.6), (-1.5, 2.6))
    labels = tuple(
        [(centres[c][0] + row_offset[0], centres[c][1] + row_offset[1], LETTERS[c]) for c in range(size)]
        + [(centres[r * size][0] + column_offset[0], centres[r * size][1] + column_offset[1], str(r + 1))
           for r in range(size)]
    )
    pad = 3.3
    xs, ys = [x for x, _ in centres], [y for _, y in centres]
    view_box = f"{_fmt(min(xs) - pad)} {_fmt(min(ys) - pad)} {_fmt(max(xs) - min(xs) + 2 * pad)} {_fmt(max(ys) - min(ys) + 2 * pad)}"
    return Geometry(centres, polygons, grid, view_box, edges, labels)


def _distance_to_side(point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = point, a, b
    return abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / math.hypot(bx - ax, by - ay)


@lru_cache(maxsize=None)
def y_geometry(size: int) -> Geometry:
    """Pointy-topped hexagons: centre ((sqrt 3)(c - r/2), 1.5 r)."""
    coords = y_row_col(size)
    centres = tuple((ROOT3 * (c - r / 2), 1.5 * r) for r, c in coords)
    polygons = tuple(_polygon(x, y, 30) for x, y in centres)
    grid = tuple((c, r) for r, c in coords)
    n = size - 1
    apex, left, right = centres[0], centres[n * (n + 1) // 2], centres[-1]
    middle = ((apex[0] + left[0] + right[0]) / 3, (apex[1] + left[1] + right[1]) / 3)
    inner = _distance_to_side(middle, apex, left)
    def scaled(point: tuple[float, float], margin: float) -> tuple[float, float]:
        k = (inner + margin) / inner
        return (middle[0] + (point[0] - middle[0]) * k, middle[1] + (point[1] - middle[1]) * k)
    corners = (apex, right, left)
    sides = (("edge neutral", 0, 1, "edge-right"), ("edge neutral", 1, 2, "edge-bottom"), ("edge neutral", 2, 0, "edge-left"))
    edges = tuple(
        (css, " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in (scaled(corners[a], BAND[0]), scaled(corners[b], BAND[0]),
                                                            scaled(corners[b], BAND[1]), scaled(corners[a], BAND[1]))), testid)
        for css, a, b, testid in sides
    )
    labels = tuple((centres[cell_index_y(r, 0)][0] - 2.9, centres[cell_index_y(r, 0)][1], str(r + 1)) for r in range(size)) + tuple(
        (centres[cell_index_y(n, c)][0], centres[cell_index_y(n, c)][1] + 2.8, LETTERS[c]) for c in range(size))
    pad = 3.5
    xs, ys = [x for x, _ in centres], [y for _, y in centres]
    view_box = f"{_fmt(min(xs) - pad)} {_fmt(min(ys) - pad)} {_fmt(max(xs) - min(xs) + 2 * pad)} {_fmt(max(ys) - min(ys) + 2 * pad)}"
    return Geometry(centres, polygons, grid, view_box, edges, labels)


def swapped_stone(state: ConnectionState) -> int:
    """Right after a swap: the cell of the one stone on the board (Hex
    mirrored it, Y left it where it was)."""
    return next(cell for cell in range(state.cell_count) if state.cell_owner(cell) is not None)


def connection_board(
    state: ConnectionState,
    *,
    interactive: bool,
    safe_moves: frozenset[int] = frozenset(),
    coordinates: bool = False,
    tall: bool = False,
    red_blue: bool = False,
    hint_move: int | None = None,
) -> Node:
    """Hex or Y in SVG: crisp at any size. Stones carry a mark as well as a
    colour (blue a dot, green a ring, and very different lightness), the
    last move a small triangle, the winning chain a thick outline. ``tall``:
    the Hex rhombus upright, for a narrow portrait screen (Y's triangle is
    drawn one way). ``red_blue``: red and blue stones and edges instead of
    blue and green, the marks as they are."""
    stone_class, stone_name = (RED_BLUE_CLASS, RED_BLUE_NAME) if red_blue else (STONE_CLASS, STONE_NAME)
    upright = tall and GAMES[state.game].upright
    geometry = hex_geometry(state.size, upright) if isinstance(state, HexState) else y_geometry(state.size)
    over = state.is_over()
    last = state.last_move
    # Right after a swap: the stone that changed sides is the last move, and
    # the cell it came from (Hex mirrors it) is marked too.
    swapped_from = None
    if last is not None and last == state.swap_move:
        last = swapped_stone(state)
        swapped_from = state.moves[0] if state.moves[0] != last else None
    chain = set(state.winning_chain() or ()) if over else set()
    children: list[Child] = [node("polygon", {"class": RED_BLUE_EDGE.get(css, css) if red_blue else css,
                                              "points": points, "data-testid": testid})
                             for css, points, testid in geometry.edges]
    for cell, (x, y) in enumerate(geometry.centres):
        owner = state.cell_owner(cell)
        text = state.cell_text(cell)
        classes = ["hx"]
        content = "cell.empty"
        parts: list[Child] = [node("polygon", {"class": "hx-cell", "points": geometry.polygons[cell]})]
        if owner is not None:
            classes.append(stone_class[owner])
            content = stone_name[owner]
            parts.append(node("circle", {"class": "stone", "cx": _fmt(x), "cy": _fmt(y), "r": "0.72"}))
            if owner == FIRST:
                parts.append(node("circle", {"class": "stone-mark", "cx": _fmt(x), "cy": _fmt(y), "r": "0.2"}))
            else:
                parts.append(node("circle", {"class": "stone-mark", "cx": _fmt(x), "cy": _fmt(y), "r": "0.36"}))
        if cell == last:
            classes.append("last")
            parts.append(node("polygon", {"class": "last-mark",
                                          "points": f"{_fmt(x)},{_fmt(y - 0.62)} {_fmt(x + 0.5)},{_fmt(y + 0.3)} {_fmt(x - 0.5)},{_fmt(y + 0.3)}"}))
        if cell == swapped_from:
            classes.append("swapped-from")
            parts.append(node("circle", {"class": "swap-ghost", "cx": _fmt(x), "cy": _fmt(y), "r": "0.6"}))
        if cell in chain:
            classes.append("chain")
        playable = interactive and not over and owner is None
        key = "cell.label_chain" if cell in chain else ("cell.label_last" if cell == last else "cell.label")
        if cell == hint_move:
            classes.append("hinted")
            key = "cell.label_hint"
            parts.append(node("circle", {"class": "hint-mark", "cx": _fmt(x), "cy": _fmt(y), "r": "0.55"}))
        gx, gy = geometry.grid[cell]
        children.append(node("g", {
            "class": " ".join(classes),
            **HINTED.get(cell == hint_move, {}),
            "role": "button",
            "data-move": text,
            "data-x": gx,
            "data-y": gy,
            "data-testid": f"cell-{text}",
            "aria-disabled": "false" if playable else "true",
            "aria-label": Msg(key, {"cell": text, "content": Msg(content)}),
        }, *parts))
    if coordinates:
        children.extend(node("text", {"class": "coord", "x": _fmt(x), "y": _fmt(y), "aria-hidden": "true"}, label)
                        for x, y, label in geometry.labels)
    return node("svg", {
        "class": f"hx-board {state.game}{' tall' if upright else ''}{' red-blue' if red_blue else ''}",
        "viewBox": geometry.view_box,
        "role": "group",
        "aria-label": Msg(f"board.{state.game}_label", {"size": state.size}),
        "data-testid": f"{state.game}-board",
    }, *children)


def connection_move(state: ConnectionState, move: int) -> Msg:
    if move == state.swap_move:
        return Msg("move.swap")
    return Msg("move.cell", {"cell": state.cell_text(move)})
