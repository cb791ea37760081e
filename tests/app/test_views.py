"""The Hex board's two drawings: wide (the rules page's picture) and
upright (for a narrow portrait screen), and Y's. Both Hex drawings must
put every edge where the rules page says, and on every board the arrow
keys must step the way they point on screen."""

from __future__ import annotations

import math

import pytest

from app.model.games import SPECS
from app.views import keys
from app.views.connection import LATTICE_STEPS, connection_board, hex_geometry, y_geometry
from core.hex import HexState
from core.y import YState
from registry import GAMES

SIZES = sorted(set(GAMES["hex"].setting("size").values) | {5, 19})


def centre_of(points: str) -> tuple[float, float]:
    pairs = [tuple(map(float, pair.split(","))) for pair in points.split()]
    return sum(x for x, _ in pairs) / len(pairs), sum(y for _, y in pairs) / len(pairs)


def board_middle(size: int, tall: bool) -> tuple[float, float]:
    xs, ys = zip(*hex_geometry(size, tall).centres)
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


@pytest.mark.parametrize("size", SIZES)
def test_the_upright_board_is_the_wide_one_mirrored_across_x_equals_y(size):
    wide, tall = hex_geometry(size), hex_geometry(size, tall=True)
    assert tall.centres == tuple((y, x) for x, y in wide.centres)
    # The viewBox is the wide one's, with width and height exchanged.
    x, y, width, height = wide.view_box.split()
    assert tall.view_box.split() == [y, x, height, width]
    # Drawn wide, it is far wider than high: on a portrait screen the width
    # limits it, and upright it fills the height instead.
    assert float(width) > float(height) * 1.3


@pytest.mark.parametrize("tall", [False, True])
@pytest.mark.parametrize("size", SIZES)
def test_each_edge_is_where_the_rules_page_puts_it(size, tall):
    """Blue owns the top-left and bottom-right edges, green the other two,
    in both drawings; blue's edges are rows 1 and the last."""
    mx, my = board_middle(size, tall)
    geometry = hex_geometry(size, tall)
    for css, points, testid in geometry.edges:
        x, y = centre_of(points)
        vertical = "top" if y < my else "bottom"
        horizontal = "left" if x < mx else "right"
        assert testid == f"edge-{vertical}-{horizontal}"
        assert css == ("edge blue" if testid in ("edge-top-left", "edge-bottom-right") else "edge green")
    # Row 1 runs along the top-left edge: from a1 at the left corner (wide)
    # or the top corner (tall) to the top (wide) or left (tall) corner.
    a1, row_end = geometry.centres[0], geometry.centres[size - 1]
    xs, ys = zip(*geometry.centres)
    if tall:
        assert a1[1] == min(ys) and row_end[0] == min(xs)
    else:
        assert a1[0] == min(xs) and row_end[1] == min(ys)


# The boards the arrow keys move on: Hex wide and upright, Y.
KEY_BOARDS = [("hex", 11, False), ("hex", 11, True), ("hex", 5, False), ("hex", 5, True), ("y", 13, False), ("y", 5, False)]
ARROW_DIRECTIONS = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}


def key_board(game, size, tall):
    """The geometry and each cell's neighbours on the board."""
    if game == "hex":
        return hex_geometry(size, tall), HexState(size).board_layout.neighbours
    return y_geometry(size), YState(size).board_layout.neighbours


def angle_to(key, start, end):
    """Degrees between the key's direction and the way from one centre to another."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    kx, ky = ARROW_DIRECTIONS[key]
    return math.degrees(math.acos(max(-1.0, min(1.0, (dx * kx + dy * ky) / math.hypot(dx, dy)))))


def press(geometry, key, cell, run=None):
    """What the page does (app.page.dom.arrow_target): the first of the
    key's targets that is a cell; ``run`` the line the run began on."""
    at = {place: index for index, place in enumerate(geometry.grid)}
    here = geometry.grid[cell]
    line = here[keys.across(key)] if run is None else run
    return next((at[place] for place in keys.targets(geometry.lattice, key, here, line) if place in at), None)


@pytest.mark.parametrize(("game", "size", "tall"), KEY_BOARDS)
def test_each_cell_sits_on_the_lattice_the_board_names(game, size, tall):
    """data-x / data-y are the centre in the lattice's steps: a neighbour
    one of its six steps away."""
    geometry, neighbours = key_board(game, size, tall)
    across, down = LATTICE_STEPS[geometry.lattice]
    for cell, (x, y) in enumerate(geometry.grid):
        assert (x * across, y * down) == pytest.approx(geometry.centres[cell], abs=1e-9)
        steps = {(geometry.grid[n][0] - x, geometry.grid[n][1] - y) for n in neighbours[cell]}
        every = {step for key_steps in keys.STEPS[geometry.lattice].values() for step in key_steps}
        assert steps <= every


@pytest.mark.parametrize(("game", "size", "tall"), KEY_BOARDS)
def test_an_arrow_key_moves_to_the_neighbour_nearest_its_direction_on_screen(game, size, tall):
    """From every cell, each key moves to a neighbour (never further), the
    one whose centre lies nearest the key's direction, and within 30
    degrees of it; with none there (an edge) the focus stays."""
    geometry, neighbours = key_board(game, size, tall)
    centres = geometry.centres
    for cell in range(len(centres)):
        for key in ARROW_DIRECTIONS:
            target = press(geometry, key, cell)
            angles = {n: angle_to(key, centres[cell], centres[n]) for n in neighbours[cell]}
            near = {n for n, angle in angles.items() if angle < 30 + 1e-6}
            if not near:
                assert target is None, (cell, key)
                continue
            assert target in near, (cell, key)
            assert angles[target] == pytest.approx(min(angles.values())), (cell, key)


@pytest.mark.parametrize(("game", "size", "tall"), [board for board in KEY_BOARDS if board[1] >= 11])
def test_a_run_of_presses_keeps_to_its_line_and_comes_back(game, size, tall):
    """Right, Right, ... runs along the row on screen (within half a
    neighbour's distance of it), and as many Lefts come back; the same for
    Down and Up."""
    geometry, _ = key_board(game, size, tall)
    xs, ys = zip(*geometry.centres)
    mx, my = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    middle = min(range(len(xs)), key=lambda cell: math.hypot(xs[cell] - mx, ys[cell] - my))
    for forth, back in (("ArrowRight", "ArrowLeft"), ("ArrowDown", "ArrowUp")):
        k = keys.across(forth)
        line = geometry.grid[middle][k]
        path = [middle]
        for _ in range(3):
            step = press(geometry, forth, path[-1], line)
            if step is None:
                break
            path.append(step)
        assert len(path) > 2, (forth, path)
        for cell in path:
            assert abs(geometry.centres[cell][k] - geometry.centres[middle][k]) < 0.9
        cell = path[-1]
        for _ in path[1:]:
            cell = press(geometry, back, cell, line)
        assert cell == middle


@pytest.mark.parametrize("tall", [False, True])
def test_coordinate_labels_lie_outside_the_cells(tall):
    geometry = hex_geometry(11, tall)
    for label in geometry.labels:
        nearest = min((label.x - cx) ** 2 + (label.y - cy) ** 2 for cx, cy in geometry.centres) ** 0.5
        assert nearest > 1.5, label.text


def geometries():
    for size in GAMES["hex"].setting("size").values:
        yield hex_geometry(size), HexState(size)
        yield hex_geometry(size, tall=True), HexState(size)
    for size in GAMES["y"].setting("size").values:
        yield y_geometry(size), YState(size)


def centres_named(geometry, state, text: str) -> list[tuple[float, float]]:
    """The centres of the cells of the column (a letter) or the row (a number) ``text`` names."""
    def part(cell: int) -> str:
        name = state.cell_text(cell)
        return name[1:] if text.isdigit() else name[0]
    return [geometry.centres[cell] for cell in range(state.cell_count) if part(cell) == text]


def test_each_coordinate_and_its_lead_lie_on_the_line_of_the_cells_it_names():
    for geometry, state in geometries():
        for label in geometry.labels:
            named = centres_named(geometry, state, label.text)
            # The columns (and the rows) are parallel: the longest gives the direction of a column of one cell.
            longest = max((centres_named(geometry, state, other.text) for other in geometry.labels
                           if other.text.isdigit() == label.text.isdigit()), key=len)
            dx, dy = longest[-1][0] - longest[0][0], longest[-1][1] - longest[0][1]
            length = (dx * dx + dy * dy) ** 0.5
            x1, y1, x2, y2 = label.lead
            for x, y in ((label.x, label.y), (x1, y1), (x2, y2)):
                assert abs((x - named[0][0]) * dy - (y - named[0][1]) * dx) / length < 1e-3, (state.game, label)


def test_only_hex_stands_upright():
    assert [game for game, spec in SPECS.items() if spec.stands_upright] == ["hex"]
    state = HexState(7)
    assert "tall" in connection_board(state, interactive=True, tall=True)[1]["class"].split()
    assert "tall" not in connection_board(state, interactive=True)[1]["class"].split()


def elements(tree, css_class: str) -> list:
    """Every element of a view tree with this class, in document order."""
    found, stack = [], [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            if css_class in item[1].get("class", "").split():
                found.append(item)
            stack.extend(reversed(item[2]))
    return found


def test_notakto_names_each_cell_in_its_corner_and_uttt_its_rows_and_columns_beside_the_board() -> None:
    notakto, uttt = SPECS["notakto"], SPECS["uttt"]
    state = notakto.make_state(notakto.defaults())
    assert elements(notakto.view(state, interactive=True, coordinates=False), "coord-in") == []
    names = [label[2][0] for label in elements(notakto.view(state, interactive=True, coordinates=True), "coord-in")]
    assert names == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"] * 3
    state = uttt.make_state(uttt.defaults())
    plain, shown = uttt.view(state, interactive=True, coordinates=False), uttt.view(state, interactive=True, coordinates=True)
    assert elements(plain, "ut-cols") == elements(plain, "ut-rows") == [] and "coords" not in plain[1]["class"]
    assert "coords" in shown[1]["class"].split()
    letters = [span[2][0] for strip in elements(shown, "ut-cols") for span in strip[2]]
    numbers = [span[2][0] for strip in elements(shown, "ut-rows") for span in strip[2]]
    assert letters == list("abcdefghi") and numbers == [str(row) for row in range(1, 10)]
