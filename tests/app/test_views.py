"""The Hex board's two drawings: wide (the rules page's picture) and
upright (for a narrow portrait screen). Both must put every edge where the
rules page says, and the arrow keys must step the way they point."""

from __future__ import annotations

import pytest

from app.model.games import SPECS
from app.views.connection import connection_board, hex_geometry
from core.hex import HexState
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


@pytest.mark.parametrize("tall", [False, True])
def test_the_arrow_keys_step_the_way_they_point(tall):
    """data-x / data-y steer the arrow keys (app.page.dom.grid_keys): one step
    right must move right on the screen, one step down must move down."""
    size = 11
    geometry = hex_geometry(size, tall)
    at = {geometry.grid[cell]: geometry.centres[cell] for cell in range(size * size)}
    state = HexState(size)
    for (gx, gy), (x, y) in at.items():
        if (gx + 1, gy) in at:
            assert at[gx + 1, gy][0] > x
        if (gx, gy + 1) in at:
            assert at[gx, gy + 1][1] > y
    # Neighbours on the board are neighbours in the grid, diagonals included.
    cell = state.parse_move("f6")
    grid_steps = {(geometry.grid[n][0] - geometry.grid[cell][0], geometry.grid[n][1] - geometry.grid[cell][1])
                  for n in state.board_layout.neighbours[cell]}
    assert grid_steps == {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}


@pytest.mark.parametrize("tall", [False, True])
def test_coordinate_labels_lie_outside_the_cells(tall):
    geometry = hex_geometry(11, tall)
    for x, y, label in geometry.labels:
        nearest = min((x - cx) ** 2 + (y - cy) ** 2 for cx, cy in geometry.centres) ** 0.5
        assert nearest > 1.5, label


def test_only_hex_stands_upright():
    assert [game for game, spec in SPECS.items() if spec.stands_upright] == ["hex"]
    state = HexState(7)
    assert "tall" in connection_board(state, interactive=True, tall=True)[1]["class"].split()
    assert "tall" not in connection_board(state, interactive=True)[1]["class"].split()


def test_every_board_can_show_coordinates_in_its_cells() -> None:
    from app.model.games import SPECS

    for game, cell, name in (("notakto", "cell-1b2", "b2"), ("uttt", "cell-e5", "e5")):
        spec = SPECS[game]
        state = spec.make_state(spec.defaults())
        plain = spec.view(state, interactive=True, coordinates=False)
        shown = spec.view(state, interactive=True, coordinates=True)
        assert "coord-in" not in str(plain)
        stack, found = [shown], None
        while stack:
            item = stack.pop()
            if isinstance(item, tuple):
                if item[1].get("data-testid") == cell:
                    found = item
                stack.extend(item[2])
        assert found is not None and ("span", {"class": "coord-in", "aria-hidden": "true"}, [name]) in found[2]
