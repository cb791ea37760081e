"""What the analysis board shows (pure): the board with the engine's marks
and heat, the status, the move list with its variations, the engine's
lines, and the set-up editor while it is open. The page draws these trees
(``page/explore_panel.py``) and decides nothing.

A move of the list is a button with its node's path (``data-path``, the
format of ``variations.format_path``); the main line runs on, and after a
move where more than one was tried the others follow indented, each with
its own line, as deep as the tree goes. The engine's candidate moves are
numbered 1-3 on the board and listed with their chances for the side that
plays them (or the proven result) and the line each leads to; with the heat
map on, every legal cell carries its value (``data-heat``, 0-100: the side
to move's chance after that move).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core import GameState

from ..views.tree import Child, Node, node
from .explore import Exploration
from .games import GameSpec
from .setup_board import SetupBoard
from .variations import Path, format_path
from .words import Msg

#: How many moves of an engine line are shown.
LINE_SHOWN = 8
SEATS = ("first", "second")


@dataclass(frozen=True)
class SetupView:
    """The set-up editor's controls: who is to move (None: the marks say),
    the forced board (None: not this game; "" any, "1"-"9"), and why the
    position was refused."""

    turn: tuple[tuple[str, Msg], ...] | None
    turn_chosen: str
    board: tuple[tuple[str, Msg], ...] | None
    board_chosen: str
    error: Msg | None


@dataclass(frozen=True)
class ExploreView:
    board: Node
    status: Msg
    detail: Msg | None
    moves: Node
    lines: Node
    engine_on: bool
    heat_on: bool
    autoplay: bool
    #: Which of the tree's buttons can act now, by command name.
    enabled: dict[str, bool]
    setup: SetupView | None


def player(seat: int) -> Msg:
    return Msg("player.numbered", {"number": seat + 1})


def side(spec: GameSpec, seat: int, settings: dict[str, Any]) -> Msg:
    """"Player 1 (Blue)", "Player 2 (O)", "Player 1" (Notakto)."""
    mark = spec.mark(seat, settings)
    return Msg("explore.side_mark", {"player": player(seat), "mark": mark}) if mark else player(seat)


def explore_view(spec: GameSpec, board: Exploration, setup: SetupBoard | None, options: dict[str, Any],
                 settings: dict[str, Any]) -> ExploreView:
    """The analysis board as drawn: ``options`` are the board view's
    (coordinates, colours, upright), ``settings`` the game's (for the
    sides' marks)."""
    if setup is not None:
        return setup_view(spec, board, setup, options, settings)
    state = board.state()
    lines = board.lines()
    marks = {line["move"]: rank for rank, line in enumerate(lines, 1)}
    drawn = spec.view(state, interactive=True, **options)
    return ExploreView(
        board=decorate(drawn, board.heat(), marks),
        status=status(spec, state, settings),
        detail=(spec.detail(state) if spec.detail is not None and not state.is_over() else None),
        moves=move_list(board),
        lines=lines_panel(board, state, lines),
        engine_on=board.engine_on,
        heat_on=board.heat_on,
        autoplay=board.autoplay,
        enabled=enabled(board, state, lines),
        setup=None,
    )


def status(spec: GameSpec, state: GameState, settings: dict[str, Any]) -> Msg:
    outcome = state.outcome()
    if outcome is None:
        return Msg("explore.to_move", {"side": side(spec, state.turn, settings)})
    if outcome.winner is None:
        return Msg("result.draw")
    return Msg("explore.wins", {"side": side(spec, outcome.winner, settings)})


def enabled(board: Exploration, state: GameState, lines: list[dict[str, Any]]) -> dict[str, bool]:
    """Which buttons act on ``state``, the position on screen, with the
    engine's ``lines`` for it."""
    cursor, tree = board.cursor, board.tree
    return {
        "swap": bool(getattr(state, "can_swap", lambda: False)()) and not state.is_over(),
        "home": bool(cursor), "back": bool(cursor),
        "forward": bool(tree.node(cursor).children), "end": tree.main_line(cursor) != cursor,
        "promote": any(cursor), "main": any(cursor), "delete": bool(cursor),
        "best": bool(lines) and not board.autoplay,
    }


# -- the board --------------------------------------------------------------------------
def decorate(tree: Node, heat: dict[str, int | None], marks: dict[str, int], editable: bool = False) -> Node:
    """The board tree with the heat and the candidate marks on its cells
    (``editable``: every cell takes clicks, as in the set-up editor)."""
    return _decorate(tree, shades(heat), heat, marks, editable)


def shades(heat: dict[str, int | None]) -> dict[str, int]:
    """How strongly each valued cell is shaded, 0-100 (drawn in tenths,
    ``data-shade``): the best move the
    most, the worst the least (the chances of a position's moves are often
    close together; shaded by the chance itself they would all look alike)."""
    values = {move: value for move, value in heat.items() if value is not None}
    if not values:
        return {}
    low, high = min(values.values()), max(values.values())
    return {move: 100 if high == low else round(100 * (value - low) / (high - low)) for move, value in values.items()}


def _decorate(tree: Node, shade: dict[str, int], heat: dict[str, int | None], marks: dict[str, int],
              editable: bool) -> Node:
    tag, attrs, children = tree
    if "data-move" in attrs:
        move = attrs["data-move"]
        return _cell(tree, heat.get(move), shade.get(move), marks.get(move), editable)
    return (tag, attrs, [_decorate(child, shade, heat, marks, editable) if isinstance(child, tuple) else child
                         for child in children])


def _cell(tree: Node, heat: int | None, shade: int | None, rank: int | None, editable: bool) -> Node:
    tag, attrs, children = tree
    attrs = dict(attrs)
    children = list(children)
    if editable and attrs.get("data-move") != "swap":
        attrs["aria-disabled"] = "false"
    if heat is not None:
        attrs["data-heat"] = str(heat)
        attrs["data-shade"] = str(round((shade or 0) / 10))  # CSS shades by tenths: no inline styles
        attrs["aria-label"] = Msg("explore.cell_heat", {"cell": attrs["aria-label"], "percent": heat})
    if rank is not None:
        attrs["data-candidate"] = str(rank)
        attrs["class"] = f"{attrs.get('class', '')} candidate".strip()
        children.append(_rank_mark(tag, children, rank))
    return (tag, attrs, children)


def _rank_mark(tag: str, children: list[Child], rank: int) -> Node:
    """The candidate's number on its cell: SVG text at the cell's centre
    (Hex, Y), else a span."""
    if tag != "g":
        return node("span", {"class": "rank-mark", "aria-hidden": "true"}, str(rank))
    points = next(child[1]["points"] for child in children if isinstance(child, tuple) and child[0] == "polygon")
    xs, ys = zip(*(tuple(float(value) for value in point.split(",")) for point in points.split()))
    x, y = sum(xs) / len(xs), sum(ys) / len(ys)
    return node("text", {"class": "rank-mark", "x": f"{x:.2f}", "y": f"{y + 0.3:.2f}", "aria-hidden": "true"},
                str(rank))


# -- the move list ------------------------------------------------------------------------
def move_list(board: Exploration) -> Node:
    """The tree of moves: the main line, each variation indented after the
    move it replaces."""
    first_ply = len(board.start.moves)
    line = _line(board, (), first_ply)
    if not line:
        line = [node("p", {"class": "explore-empty small"}, Msg("explore.no_moves"))]
    return node("div", {"class": "vt-line vt-main", "data-testid": "explore-moves"}, *line)


def _line(board: Exploration, path: Path, ply: int) -> list[Child]:
    """The line that goes on from the node at ``path`` (at ``ply`` moves
    from the game's start): its moves, and after each move that had
    others tried beside it, those others."""
    out: list[Child] = []
    parent = board.tree.node(path)
    while parent.children:
        main, *others = parent.children
        out.append(_move(board, (*path, 0), main.move, ply + 1))
        if others:
            out.append(node("div", {"class": "vt-branches"}, *(
                node("div", {"class": "vt-line"}, _move(board, (*path, index), child.move, ply + 1),
                     *_line(board, (*path, index), ply + 1))
                for index, child in enumerate(others, 1))))
        path, parent, ply = (*path, 0), main, ply + 1
    return out


def _move(board: Exploration, path: Path, move: str, ply: int) -> Node:
    attrs = {"type": "button", "class": "variation", "data-testid": "variation", "data-path": format_path(path),
             "aria-label": Msg("explore.move_label", {"number": ply, "move": move})}
    if path == board.cursor:
        attrs["aria-current"] = "true"
    return node("button", attrs, node("span", {"class": "vt-no", "aria-hidden": "true"}, f"{ply}."),
                node("span", {"class": "vt-move", "aria-hidden": "true"}, move))


# -- the engine's lines ---------------------------------------------------------------------
def lines_panel(board: Exploration, state: GameState, lines: list[dict[str, Any]]) -> Node:
    """The engine's best moves, each a button that plays it, with its
    chance for the side to move (or, proven, a win, a loss or a draw for
    it) and the line it leads to."""
    if not board.engine_on:
        items: list[Child] = [node("p", {"class": "small"}, Msg("explore.engine_off"))]
    elif state.is_over():
        items = [node("p", {"class": "small"}, Msg("explore.game_over"))]
    elif not lines:
        items = [node("p", {"class": "small", "aria-busy": "true"}, Msg("explore.thinking"))]
    else:
        mover = state.turn
        items = [_line_item(rank, line, mover) for rank, line in enumerate(lines, 1)]
    return node("ol", {"class": "engine-lines", "data-testid": "engine-lines",
                       "data-thinking": "true" if board.engine_on and not state.is_over() else "false"}, *items)


def _line_item(rank: int, line: dict[str, Any], mover: int) -> Node:
    chance = line["chance"] if mover == 0 else 1 - line["chance"]
    proof = line.get("proof")
    if proof is None:
        value: Msg = Msg("explore.chance", {"percent": round(100 * chance)})
    elif proof == "draw":
        value = Msg("explore.proof_draw")
    else:  # proven: a win or a loss for the side that plays it
        value = Msg("explore.proof_win" if SEATS.index(proof) == mover else "explore.proof_loss")
    shown = list(line["line"][:LINE_SHOWN]) + (["…"] if len(line["line"]) > LINE_SHOWN else [])
    return node("li", {"class": "engine-line", "data-testid": "engine-line"},
                node("button", {"type": "button", "class": "line-play", "data-line-move": line["move"],
                                "aria-label": Msg("explore.play_line", {"move": line["move"], "value": value})},
                     node("span", {"class": "line-rank", "aria-hidden": "true"}, str(rank)),
                     node("span", {"class": "line-move"}, line["move"]),
                     node("span", {"class": "line-value", "data-proven": "false" if proof is None else "true"},
                          value)),
                node("span", {"class": "line-moves small"}, " ".join(shown)))


# -- the set-up editor ------------------------------------------------------------------
def setup_view(spec: GameSpec, board: Exploration, setup: SetupBoard, options: dict[str, Any],
               settings: dict[str, Any]) -> ExploreView:
    sketch = setup.sketch()
    drawn = spec.view(sketch, interactive=True, **options)
    turn = tuple((SEATS[seat], side(spec, seat, settings)) for seat in (0, 1)) if setup.chooses_turn else None
    boards = ((("", Msg("explore.any_board")),
               *((str(number), Msg("explore.board_number", {"board": number})) for number in range(1, 10))))
    return ExploreView(
        board=decorate(drawn, {}, {}, editable=True),
        status=Msg("explore.setting_up"),
        detail=Msg("explore.setup_help_notakto" if spec.game == "notakto" else "explore.setup_help"),
        moves=move_list(board),
        lines=node("ol", {"class": "engine-lines", "data-testid": "engine-lines", "data-thinking": "false"}),
        engine_on=board.engine_on, heat_on=board.heat_on, autoplay=False,
        enabled=dict.fromkeys(enabled(board, board.state(), []), False),
        setup=SetupView(turn, SEATS[setup.side_to_move()], boards if setup.chooses_board else None,
                        "" if setup.forced is None else str(setup.forced + 1), setup.error),
    )
