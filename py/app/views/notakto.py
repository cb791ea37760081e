"""Notakto's boards as data (tree.py): the boards side by side, each cell a
button, closed boards said in words, each board as wide as its grid
whatever its caption says (css/app.css), so that no board moves in a
game."""

from __future__ import annotations

from core.base import FIRST
from core.notakto import NotaktoState
from core.uttt import DRAWN

from ..model.words import Msg
from .tree import CARD_MARKS, HINTED, Card, Node, node

CELL_NAMES = [f"{'abc'[cell % 3]}{cell // 3 + 1}" for cell in range(9)]


def coordinate(name: str) -> Node:
    """A cell's name drawn in its corner (the coordinates setting): the move
    list names a cell by board and name ("2c1"), and the board's caption
    says its number; screen readers have the name from the cell's label."""
    return node("span", {"class": "coord-in", "aria-hidden": "true"}, name)


#: A safe move's mark, a round dot in the middle of its cell (the hint's words say "a dot").
SAFE_DOT = node("span", {"class": "safe-dot", "aria-hidden": "true"})


def notakto_move(state: NotaktoState, move: int) -> Msg:
    """"board 2, b2": the board by number, the cell by its name."""
    return Msg("move.notakto", {"board": move // 9 + 1, "cell": CELL_NAMES[move % 9]})


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
                # Last: the dot comes and goes without touching the mark (dom.patch).
                *((SAFE_DOT,) if is_safe else ()),
            ))
        board_attrs = {
            "class": "nk-board closed" if closed else "nk-board",
            "role": "group",
            "data-testid": f"board-{index + 1}",
            "data-closed": "true" if closed else "false",
            "aria-label": Msg("board.closed_label" if closed else "board.label", {"board": index + 1}),
        }
        # Two lines, the second empty until the board closes: the caption's
        # height never changes (screen readers have the board's label).
        caption = node(
            "span", {"class": "nk-caption", "aria-hidden": "true"},
            node("span", {"class": "nk-name"}, Msg("board.label", {"board": index + 1})),
            node("span", {"class": "nk-state"}, *((Msg("board.closed"),) if closed else ())),
        )
        boards.append(node("div", board_attrs, caption, node("div", {"class": "nk-grid"}, *cells)))
    return node("div", {"class": f"nk-boards nk-count-{len(state.boards)}", "data-testid": "notakto-boards"}, *boards)


def notakto_card(state: NotaktoState) -> Card:
    """Every X is the first player's mark; a closed board "-"."""
    size = state.board_count
    cells = "".join(CARD_MARKS[FIRST] if mask >> cell & 1 else CARD_MARKS[None] for mask in state.boards for cell in range(9))
    boards = "".join(CARD_MARKS[DRAWN] if state.is_closed(board) else CARD_MARKS[None] for board in range(size))
    return Card(size, cells, boards, state.moves[-1] if state.moves else -1)
