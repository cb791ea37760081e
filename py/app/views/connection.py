"""Hex's and Y's boards as data (tree.py): hexagonal cells in a rhombus or
a triangle, the edges each side joins, the geometry both draw from."""

from __future__ import annotations

import math
from functools import cache
from typing import NamedTuple

from core.base import FIRST, SECOND
from core.hex import LETTERS, ConnectionState, HexState
from core.y import cell_index as cell_index_y
from registry import GAMES, Cells

from ..model.words import Msg
from .keys import FLAT, POINTY
from .tree import CARD_MARKS, HINTED, Card, Child, Node, node

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
STONE_CLASS = {FIRST: "blue", SECOND: "green"}
# The red/blue setting: red first, blue second (as PlayHex draws them); the
# marks stay the seat's (a dot for the first player, a ring for the second).
RED_BLUE_CLASS = {FIRST: "red", SECOND: "blue"}
RED_BLUE_EDGE = {"edge blue": "edge red", "edge green": "edge blue"}
# The edge bands lie this far beyond the line through the outer cells'
# centres: just outside the cells (whose corners reach 1).
BAND = (0.95, 1.55)
# A coordinate stands this far from the outer cell of its row or column,
# on the line through that row's or column's centres, past the edge band;
# a short lead on that line, from the band towards it, shows the way in
# (the columns of Hex and Y slant across the edge they are labelled on).
LABEL_DISTANCE = 2.9
LEAD = (1.7, 2.35)
STONE_NAME = {FIRST: "cell.blue", SECOND: "cell.green"}
RED_BLUE_NAME = {FIRST: "cell.red", SECOND: "cell.blue"}


class Label(NamedTuple):
    """A coordinate beside the board: ``text`` centred at (``x``, ``y``)
    and its ``lead``, a segment (x1, y1, x2, y2) towards the edge cell."""

    x: float
    y: float
    text: str
    lead: tuple[float, float, float, float]


def _label(edge_cell: tuple[float, float], outward: tuple[float, float], text: str) -> Label:
    """The label of the row or column whose cell on the edge is
    ``edge_cell``: ``outward`` is the step from that row's or column's
    next cell to this one, so the label stays on their line."""
    def beyond(distance: float) -> tuple[float, float]:
        length = math.hypot(*outward)
        return (edge_cell[0] + outward[0] * distance / length, edge_cell[1] + outward[1] * distance / length)
    return Label(*beyond(LABEL_DISTANCE), text, (*beyond(LEAD[0]), *beyond(LEAD[1])))


def _step(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """The vector from ``b`` to ``a``."""
    return (a[0] - b[0], a[1] - b[1])


def _fmt(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _polygon(cx: float, cy: float, start_degrees: float) -> str:
    return " ".join(
        f"{_fmt(cx + math.cos(math.radians(start_degrees + 60 * k)))},{_fmt(cy + math.sin(math.radians(start_degrees + 60 * k)))}"
        for k in range(6)
    )


#: The lattice of hexagons' centres (views/keys.py): its step across and
#: down, a quarter or a half of the distance between neighbours.
LATTICE_STEPS = {FLAT: (1.5, math.sqrt(3) / 2), POINTY: (math.sqrt(3) / 2, 1.5)}


class Geometry(NamedTuple):
    centres: tuple[tuple[float, float], ...]
    polygons: tuple[str, ...]
    lattice: str  # FLAT or POINTY (views/keys.py)
    grid: tuple[tuple[int, int], ...]  # each centre's place on the lattice: the arrow keys' (x, y)
    view_box: str
    edges: tuple[tuple[str, str, str], ...]  # (css class, polygon points, testid)
    labels: tuple[Label, ...]


def _on_lattice(centres: tuple[tuple[float, float], ...], lattice: str) -> tuple[tuple[int, int], ...]:
    """Each centre's place on the lattice, in whole steps (views/keys.py)."""
    across, down = LATTICE_STEPS[lattice]
    return tuple((round(x / across), round(y / down)) for x, y in centres)


def _cells(game: str) -> Cells:
    """The game's hexagonal cells, as its registry entry describes them."""
    cells = GAMES[game].cells
    if cells is None:
        raise LookupError(f"the registry gives {game} no cells")
    return cells


@cache
def hex_geometry(size: int, tall: bool = False) -> Geometry:
    """Flat-topped hexagons, centred as the registry's ``Cells`` says
    (1.5 (r + c), (sqrt 3)/2 (r - c)); when
    ``tall``, x and y exchanged (pointy-topped hexagons, the rhombus
    upright)."""
    centres = _cells("hex").centres(size)
    if tall:
        centres = tuple((y, x) for x, y in centres)
    polygons = tuple(_polygon(x, y, 30 if tall else 0) for x, y in centres)
    lattice = POINTY if tall else FLAT
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
    # The letters outside row 1 (the top-left edge), each on its column's
    # line; the numbers outside column a (bottom-left, or top-right when
    # tall), each on its row's line.
    column_out, row_out = _step(centres[0], centres[size]), _step(centres[0], centres[1])
    labels = tuple(
        [_label(centres[c], column_out, LETTERS[c]) for c in range(size)]
        + [_label(centres[r * size], row_out, str(r + 1)) for r in range(size)]
    )
    pad = 3.3
    xs, ys = [x for x, _ in centres], [y for _, y in centres]
    view_box = f"{_fmt(min(xs) - pad)} {_fmt(min(ys) - pad)} {_fmt(max(xs) - min(xs) + 2 * pad)} {_fmt(max(ys) - min(ys) + 2 * pad)}"
    return Geometry(centres, polygons, lattice, _on_lattice(centres, lattice), view_box, edges, labels)


def _distance_to_side(point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = point, a, b
    return abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / math.hypot(bx - ax, by - ay)


@cache
def y_geometry(size: int) -> Geometry:
    """Pointy-topped hexagons, centred as the registry's ``Cells`` says
    ((sqrt 3)(c - r/2), 1.5 r)."""
    centres = _cells("y").centres(size)
    polygons = tuple(_polygon(x, y, 30) for x, y in centres)
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
    # The numbers left of the rows; the letters below the bottom row, each on
    # its column's line (a column runs down to the left, along the left edge).
    corner = centres[cell_index_y(n, 0)]
    row_out, column_out = _step(corner, centres[cell_index_y(n, 1)]), _step(corner, centres[cell_index_y(n - 1, 0)])
    labels = tuple(_label(centres[cell_index_y(r, 0)], row_out, str(r + 1)) for r in range(size)) + tuple(
        _label(centres[cell_index_y(n, c)], column_out, LETTERS[c]) for c in range(size))
    pad = 3.5
    xs, ys = [x for x, _ in centres], [y for _, y in centres]
    view_box = f"{_fmt(min(xs) - pad)} {_fmt(min(ys) - pad)} {_fmt(max(xs) - min(xs) + 2 * pad)} {_fmt(max(ys) - min(ys) + 2 * pad)}"
    return Geometry(centres, polygons, POINTY, _on_lattice(centres, POINTY), view_box, edges, labels)


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
        children.extend(node("line", {"class": "coord-lead", "aria-hidden": "true",
                                      **{name: _fmt(value) for name, value in zip(("x1", "y1", "x2", "y2"), label.lead)}})
                        for label in geometry.labels)
        children.extend(node("text", {"class": "coord", "x": _fmt(label.x), "y": _fmt(label.y), "aria-hidden": "true"},
                             label.text) for label in geometry.labels)
    return node("svg", {
        "class": f"hx-board {state.game}{' tall' if upright else ''}{' red-blue' if red_blue else ''}",
        "viewBox": geometry.view_box,
        "data-lattice": geometry.lattice,
        "role": "group",
        "aria-label": Msg(f"board.{state.game}_label", {"size": state.size}),
        "data-testid": f"{state.game}-board",
    }, *children)


def connection_move(state: ConnectionState, move: int) -> Msg:
    if move == state.swap_move:
        return Msg("move.swap")
    return Msg("move.cell", {"cell": state.cell_text(move)})


def connection_card(state: ConnectionState) -> Card:
    """The stones as they stand (a swap has moved one: it is the last move)."""
    cells = "".join(CARD_MARKS[state.cell_owner(cell)] for cell in range(state.cell_count))
    last = -1
    if state.moves:
        last = state.moves[-1] if state.moves[-1] != state.swap_move else swapped_stone(state)
    return Card(state.size, cells, "", last)
