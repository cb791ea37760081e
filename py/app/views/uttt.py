"""Ultimate Tic-Tac-Toe's board as data (tree.py): nine small boards in a
big one, the boards where the side to move may play marked."""

from __future__ import annotations

from core.base import FIRST, SECOND
from core.uttt import BOARD_CELLS, CELL_BOARD, COLUMNS, DRAWN, UtttState, board_span, cell_text as uttt_cell_text

from ..model.words import Msg
from .tree import CARD_MARKS, HINTED, Card, Child, Node, node

SMALL_BOARD_STATE = {None: "uttt.board.open", FIRST: "uttt.board.won_x", SECOND: "uttt.board.won_o", DRAWN: "uttt.board.drawn"}
MARK = {FIRST: ("x", "X", "cell.x"), SECOND: ("o", "O", "cell.o")}


def uttt_board(state: UtttState, *, interactive: bool, safe_moves: frozenset[int] = frozenset(),
               coordinates: bool = False, hint_move: int | None = None) -> Node:
    """Nine small boards in a 3x3 big board. The small boards where the side
    to move may play are marked (outline, a tint and their names say
    "play here"); a decided small board shows its big X or O, or says
    drawn; the winning line of boards is marked at the end. ``coordinates``:
    the column letters and row numbers beside the big board."""
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
        if coordinates:
            children.extend(edge_labels(board))
        if result in (FIRST, SECOND):
            children.append(node("span", {"class": "ut-owner", "aria-hidden": "true"}, MARK[result][1]))
        elif result == DRAWN:
            children.append(node("span", {"class": "ut-owner drawn", "aria-hidden": "true"}, "="))
        smalls.append(node("div", {
            "class": " ".join(classes), "role": "group", "aria-label": label,
            "data-testid": f"small-{board + 1}", "data-state": state_key.rsplit(".", 1)[1],
        }, *children))
    return node("div", {"class": "ut-big coords" if coordinates else "ut-big", "data-testid": "uttt-board"}, *smalls)


def edge_labels(board: int) -> list[Node]:
    """The coordinates beside the big board, as chess boards have them: the
    column letters over the top row of small boards, the row numbers (1 at
    the top) left of the first column. Each small board on an edge holds
    its three, laid out as its own cells (css/app.css), so each label
    stands over its column or beside its row."""
    labels = []
    if board < 3:
        letters = COLUMNS[3 * board:3 * board + 3]
        labels.append(node("span", {"class": "ut-cols", "aria-hidden": "true"},
                           *(node("span", {}, letter) for letter in letters)))
    if board % 3 == 0:
        first = board + 1  # boards 0, 3, 6 start rows 1, 4, 7
        labels.append(node("span", {"class": "ut-rows", "aria-hidden": "true"},
                           *(node("span", {}, str(row)) for row in range(first, first + 3))))
    return labels


def uttt_move(state: UtttState, move: int) -> Msg:
    """"e5 (small board 5)"."""
    return Msg("move.uttt", {"cell": uttt_cell_text(move), "board": CELL_BOARD[move] + 1})


def uttt_target(state: UtttState) -> Msg:
    """Where the side to move may play: the forced small board, or any."""
    board = state.forced_board
    if board is None:
        return Msg("uttt.target.any")
    return Msg("uttt.target.one", {"board": board + 1, "span": board_span(board)})


def uttt_card(state: UtttState) -> Card:
    cells = "".join(CARD_MARKS[state.cell_owner(cell)] for cell in range(81))
    boards = "".join(CARD_MARKS.get(result, CARD_MARKS[None]) for result in state.small_board_results())
    return Card(9, cells, boards, state.moves[-1] if state.moves else -1)
