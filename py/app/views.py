"""Board views: (state, options) -> a tree of what to draw.

A node is ``(tag, attrs, children)``; a child is a node or plain text. An
attribute value may be a ``Msg`` (catalog key and parameters) that the
browser layer translates, so views know no language and are tested without
a browser. Events go out through ``data-move`` (the move in notation).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

from core.base import FIRST, SECOND
from core.notakto import NotaktoState
from core.uttt import BOARD_CELLS, CELL_BOARD, DRAWN, UtttState
from core.uttt import cell_text as uttt_cell_text


@dataclass(frozen=True)
class Msg:
    """A catalog message: translated by the browser layer."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:  # params is a dict; identity by content
        return hash((self.key, tuple(sorted(self.params.items()))))


Node = tuple  # (tag, attrs, children)
Child = Union[Node, str]


def node(tag: str, attrs: dict[str, Any] | None = None, *children: Child) -> Node:
    return (tag, attrs or {}, list(children))


CELL_NAMES = [f"{'abc'[cell % 3]}{cell // 3 + 1}" for cell in range(9)]


def notakto_move(state: NotaktoState, move: int) -> Msg:
    """"board 2, b2": the board by number, the cell by its name."""
    return Msg("move.notakto", {"board": move // 9 + 1, "cell": CELL_NAMES[move % 9]})


def notakto_board(
    state: NotaktoState,
    *,
    interactive: bool,
    safe_moves: frozenset[int] = frozenset(),
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
            if move == last:
                label_key = "cell.label_last"
            elif is_safe:
                label_key = "cell.label_safe"
            cells.append(node(
                "button",
                {
                    "type": "button",
                    "class": " ".join(classes),
                    "data-move": state.move_to_text(move),
                    "data-x": index * 3 + cell % 3,
                    "data-y": cell // 3,
                    "data-testid": f"cell-{state.move_to_text(move)}",
                    "aria-disabled": "false" if playable else "true",
                    "aria-label": Msg(label_key, {"cell": CELL_NAMES[cell], "content": Msg(content)}),
                },
                node("span", {"class": "mark", "aria-hidden": "true"}, "X" if filled else ""),
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


def uttt_board(state: UtttState, *, interactive: bool, safe_moves: frozenset[int] = frozenset()) -> Node:
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
            cells.append(node(
                "button",
                {
                    "type": "button",
                    "class": " ".join(classes),
                    "data-move": text,
                    "data-x": cell % 9,
                    "data-y": cell // 9,
                    "data-testid": f"cell-{text}",
                    "aria-disabled": "false" if playable else "true",
                    "aria-label": Msg("cell.label_last" if cell == last else "cell.label", {"cell": text, "content": Msg(content)}),
                },
                node("span", {"class": "mark", "aria-hidden": "true"}, mark),
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
