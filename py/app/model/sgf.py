"""Hex games as SGF, as HexGui writes them (export and import; transfer.py
chooses the format).

Written as HexGui writes them: ``(;FF[4]GM[11]SZ[11]...;B[f6];W[e7])``.
HexGui and Benzene use our coordinates (column letter, row number from the
top, rows shifted right, black joining row 1 with the last row), so cells
are written as they are. The swap differs: their ``swap-pieces`` (and the
older ``swap-sides``) leaves the black stone in place and the same player,
now white, moves again, where our ``swap`` mirrors the stone and recolours
it. Both are the same game seen in a mirror with the colours exchanged, so
after a swap every cell is written mirrored (column c, row r -> column r,
row c) under the other colour letter: ``B[c2];W[swap-pieces];W[e7]`` is
ours ``c2 swap g5``. On import the colour of the first move after the swap
tells the convention (``B`` there: the stone-moving one, cells as written).
``RU[swap]`` records the swap rule (on too when a swap was played); the
result is ``RE[B+]``/``RE[W+]``, or ``RE[W+Resign]`` for a resignation, in
the file's colours. Without ``SZ`` the SGF default 11 applies.
"""

from __future__ import annotations

import re
from typing import cast

from core import GameError
from core.base import FIRST, SECOND
from core.hex import LETTERS, HexState
from registry import GAMES
from setups import Placement, SetupError, build

from .replay import SWITCH, TransferError, Transferred, new_state, play_checked, resign_checked
from .variations import Node, Tree

APPLICATION = "abstract-games:1"
SGF_SWAPS = ("swap", "swap-pieces", "swap-sides")
_CELL_RE = re.compile(r"([a-s])([0-9]{1,2})")


def mirror(text: str) -> str:
    """A Hex cell mirrored across the long diagonal (other text unchanged)."""
    match = _CELL_RE.fullmatch(text)
    if match is None or not 1 <= int(match[2]) <= len(LETTERS):
        return text
    return f"{LETTERS[int(match[2]) - 1]}{LETTERS.index(match[1]) + 1}"


def sgf_text(state: HexState, resigned: int | None) -> str:
    swapped = int(state.swapped)  # after the swap, cells mirrored and colours exchanged
    root = f"(;FF[4]GM[11]SZ[{state.size}]AP[{APPLICATION}]" + ("RU[swap]" if state.swap_rule else "")
    outcome = state.outcome()
    if resigned is not None:
        root += f"RE[{'BW'[(1 - resigned) ^ swapped]}+Resign]"
    elif outcome is not None:
        root += f"RE[{'BW'[cast(int, outcome.winner) ^ swapped]}+]"  # Hex has no draw
    lines, line = [root], ""
    for index, move in enumerate(state.move_texts()):
        after_swap = swapped if index >= 2 else 0
        value = "swap-pieces" if move == "swap" else (mirror(move) if after_swap else move)
        node = f";{'BW'[(index & 1) ^ after_swap]}[{value}]"
        if line and len(line) + len(node) > 72:
            lines.append(line)
            line = ""
        line += node
    lines.append(line + ")")
    return "\n".join(lines) + "\n"


class _Sgf:
    """A reader of one SGF game tree's main line (the first variation at
    every branch): a list of nodes, each a list of (property, values, line)."""

    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def fail(self) -> TransferError:
        line = self.text.count("\n", 0, self.pos) + 1
        return TransferError("format", line=line, column=self.pos - self.text.rfind("\n", 0, self.pos))

    def peek(self) -> str:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.text[self.pos:self.pos + 1]

    def take(self, char: str) -> None:
        if self.peek() != char:
            raise self.fail()
        self.pos += 1

    def tree(self, depth: int = 0) -> list[list[tuple[str, list[str], int]]]:
        if depth > 200:
            raise self.fail()
        self.take("(")
        if self.peek() != ";":
            raise self.fail()
        nodes = []
        while self.peek() == ";":
            self.pos += 1
            nodes.append(self.node())
        variations = []
        while self.peek() == "(":
            variations.append(self.tree(depth + 1))
        self.take(")")
        return nodes + (variations[0] if variations else [])

    def node(self) -> list[tuple[str, list[str], int]]:
        props = []
        while _is_letter(self.peek()):
            start = self.pos
            while _is_letter(self.text[self.pos:self.pos + 1]):
                self.pos += 1
            ident = self.text[start:self.pos]  # FF[3] "AddBlack" is AB; a lower-case "b" is B
            name = "".join(char for char in ident if char.isupper()) or ident.upper()
            line = self.text.count("\n", 0, start) + 1
            if self.peek() != "[":
                raise self.fail()
            values = []
            while self.peek() == "[":
                values.append(self.value())
            props.append((name, values, line))
        return props

    def value(self) -> str:
        self.pos += 1
        chars = []
        while self.pos < len(self.text) and self.text[self.pos] != "]":
            if self.text[self.pos] == "\\":
                self.pos += 1
            chars.append(self.text[self.pos:self.pos + 1])
            self.pos += 1
        if self.pos >= len(self.text):
            raise self.fail()
        self.pos += 1
        return "".join(chars)


def _is_letter(char: str) -> bool:
    return char.isascii() and char.isalpha()


def read_sgf(text: str) -> Transferred:
    reader = _Sgf(text)
    nodes = reader.tree()
    if reader.peek() not in ("", "("):
        raise reader.fail()
    for name, _, line in (prop for node in nodes for prop in node):
        if name in ("AB", "AW", "AE"):
            raise TransferError("setup", line=line)
    root = {name: values[0].strip() for name, values, _ in nodes[0]}
    if root.get("GM", "11") != "11":
        raise TransferError("unknown_game", name=f"GM[{root['GM']}]")
    moves = [(name, value.strip().lower()) for node in nodes for name, values, _ in node
             for value in values if name in ("B", "W")]
    state = _sgf_state(root, any(value in SGF_SWAPS for _, value in moves))
    exchanged: int | None = None  # after a swap: 1 if the colour letters name the other seats
    resigned = None
    for colour, value in moves:
        shown = f"{colour}[{value}]"
        if resigned is not None:
            raise TransferError("after_end", move=len(state.moves) + 1, text=shown)
        if value == "resign":
            resigned = resign_checked(state, "BW".index(colour) ^ _exchange(state, exchanged), shown)
            continue
        exchanged = _play(state, colour, value, exchanged)
    result = re.fullmatch(r"([BW])\+?R(?:esign)?", root.get("RE", ""), re.IGNORECASE)
    if result and resigned is None and not state.is_over():
        loser = "WB".index(result[1].upper())  # the other colour's index
        resigned = loser ^ _exchange(state, exchanged)
    return Transferred("hex", state, resigned)


def _play(state: HexState, colour: str, value: str, exchanged: int | None) -> int | None:
    """The SGF move ``colour[value]`` played on ``state``, checked: in turn
    for its colour, a swap in either convention, after a swap the cells
    mirrored when the colours are exchanged. Returns ``exchanged``, known
    once the first move after a swap tells the convention."""
    shown = f"{colour}[{value}]"
    if state.swapped and exchanged is None:
        exchanged = int(colour == "W")
    if colour != "BW"[state.turn ^ (exchanged or 0)]:
        raise TransferError("illegal_move", "out of turn", move=len(state.moves) + 1, text=shown)
    cell = _go_point(value)
    play_checked(state, "swap" if value in SGF_SWAPS else mirror(cell) if exchanged else cell, shown)
    return exchanged


def _exchange(state: HexState, exchanged: int | None) -> int:
    """Whether the colours are exchanged; after a swap with no move yet,
    HexGui's convention (they are)."""
    return exchanged if exchanged is not None else int(state.swapped)


def _sgf_state(root: dict[str, str], swap_played: bool) -> HexState:
    """A new Hex game from the root's SZ (square, or the default 11) and
    RU (or a swap move) for the swap rule."""
    size = root.get("SZ", "11")
    width, _, height = size.partition(":")
    swap = swap_played or "swap" in root.get("RU", "").lower()
    try:
        if height and height != width:
            raise TransferError("bad_settings")
        return cast(HexState, new_state("hex", {"size": width, "swap": "on" if swap else "off"}, SWITCH))
    except TransferError as error:
        raise TransferError("bad_settings", setting=f"SZ[{size}]") from error


def _go_point(value: str) -> str:
    """HexGui also reads Go-style points, two letters column-row: ``cb`` is ``c2``."""
    if len(value) == 2 and value.isalpha() and value[1] in LETTERS:
        return f"{value[0]}{LETTERS.index(value[1]) + 1}"
    return value


# -- the analysis board: variations and set-up stones ------------------------------------
class _TreeNode:
    """One SGF node of a whole game tree: its properties and the nodes that
    follow it (the first the main line)."""

    __slots__ = ("props", "children")

    def __init__(self, props: list[tuple[str, list[str], int]]) -> None:
        self.props = props
        self.children: list[_TreeNode] = []


def _read_tree(reader: _Sgf) -> _TreeNode:
    """The whole first game tree of ``reader``'s text, variations too
    (``_Sgf.tree`` reads the main line only). Nesting deeper than 200
    variations is refused as the main-line reader refuses it."""
    root: _TreeNode | None = None
    # the node each "(" not yet closed hangs from
    stack: list[_TreeNode | None] = []
    last: _TreeNode | None = None
    while True:
        char = reader.peek()
        if char == "(":
            if len(stack) > 200:
                raise reader.fail()
            reader.pos += 1
            stack.append(last)
            if reader.peek() != ";":
                raise reader.fail()
        elif char == ";":
            if not stack:
                raise reader.fail()
            reader.pos += 1
            node = _TreeNode(reader.node())
            if last is None:
                if root is not None:
                    raise reader.fail()
                root = node
            else:
                last.children.append(node)
            last = node
        elif char == ")":
            if not stack:
                raise reader.fail()
            reader.pos += 1
            last = stack.pop()
            if not stack:
                break
        else:
            raise reader.fail()
    assert root is not None
    return root


def read_sgf_tree(text: str) -> tuple[HexState, Tree, bool]:
    """A Hex record for the analysis board: the position it starts from
    (the empty board, or the root's set-up stones ``AB``/``AW`` with ``PL``
    the side to move), the tree of every variation in it, and whether the
    start is a set-up. The swap is read as ``read_sgf`` reads it, along
    each line on its own. TransferError names what is wrong."""
    reader = _Sgf(text)
    root = _read_tree(reader)
    if reader.peek() not in ("", "("):
        raise reader.fail()
    props = {name: (values, line) for name, values, line in root.props}
    if props.get("GM", (["11"], 0))[0][0].strip() != "11":
        raise TransferError("unknown_game", name=f"GM[{props['GM'][0][0]}]")
    setup_stones: dict[str, list[str]] = {"AB": [], "AW": []}
    for name, (values, line) in props.items():
        if name == "AE":
            raise TransferError("setup", line=line)
        if name in setup_stones:
            setup_stones[name] = [_go_point(value.strip().lower()) for value in values]
    setup = bool(setup_stones["AB"] or setup_stones["AW"])
    plain = {name: values[0].strip() for name, (values, _) in props.items() if values}
    if setup:
        plain.pop("RU", None)  # no swap from a set-up position
    state = _sgf_state(plain, swap_played=False) if setup else _sgf_state(plain, _has_swap(root))
    if setup:
        state = _set_up(state, setup_stones, plain.get("PL", ""), props)
    tree = Tree()
    # Each entry: an SGF node, the tree path and position before it, and
    # whether that line's colours are exchanged after its swap (None: not yet known).
    work: list[tuple[_TreeNode, tuple[int, ...], HexState, int | None]] = [(root, (), state, None)]
    while work:
        node, path, position, exchanged = work.pop()
        for name, _values, line in node.props:
            if node is not root and name in ("AB", "AW", "AE"):
                raise TransferError("setup", line=line)
        moves = [(name, value.strip().lower()) for name, values, _ in node.props for value in values
                 if name in ("B", "W")]
        for colour, value in moves:
            if value == "resign":
                continue
            position = position.copy()
            exchanged = _play(position, colour, value, exchanged)
            path = tree.play(path, position.move_to_text(position.moves[-1]))
        work.extend((child, path, position, exchanged) for child in reversed(node.children))
    return state, tree, setup


def _has_swap(node: _TreeNode) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if any(name in ("B", "W") and value.strip().lower() in SGF_SWAPS
               for name, values, _ in current.props for value in values):
            return True
        stack.extend(current.children)
    return False


def _set_up(state: HexState, stones: dict[str, list[str]], player: str,
            props: dict[str, tuple[list[str], int]]) -> HexState:
    """The root's set-up stones as a position (``setup.build``): the side
    to move is ``PL``'s, else black's when the counts are equal, white's
    when black has one more."""
    cells: dict[int, int] = {}
    for name, seat in (("AB", FIRST), ("AW", SECOND)):
        for text in stones[name]:
            try:
                cells[state.parse_move(text)] = seat
            except GameError as error:
                raise TransferError("notation", str(error), move=0, text=f"{name}[{text}]") from None
    if player.upper() in ("B", "W"):
        turn = FIRST if player.upper() == "B" else SECOND
    else:
        turn = FIRST if len(stones["AB"]) <= len(stones["AW"]) else SECOND
    try:
        return cast(HexState, build(Placement("hex", state.settings(), cells, turn)))
    except SetupError as error:
        raise TransferError("setup", str(error), line=props.get("AB", props.get("AW", ([], 1)))[1]) from None


def sgf_tree_text(start: HexState, tree: Tree, setup: bool) -> str:
    """The analysis board as SGF, as HexGui reads it: the root with the
    board (and, from a set-up position, its stones as ``AB``/``AW`` and the
    side to move as ``PL``), the starting position's own moves otherwise,
    then every variation nested (``(;...)`` for each move but the first
    tried at a point)."""
    root = f"(;FF[4]GM[11]SZ[{start.size}]AP[{APPLICATION}]"
    prefix: list[str] = []
    if setup:
        black, white = start.stones(FIRST), start.stones(SECOND)
        root += "".join(f"{name}" + "".join(f"[{start.cell_text(cell)}]" for cell in cells)
                        for name, cells in (("AB", black), ("AW", white)) if cells)
        root += f"PL[{'BW'[start.turn]}]"
        base = start.copy()
        offset = len(start.moves)
    else:
        root += "RU[swap]" if start.swap_rule else ""
        replay = cast(HexState, GAMES["hex"].new_state(start.settings()))
        for text in start.move_texts():
            prefix.append(_sgf_move(replay, text, 0))
            replay.play(text)
        base = replay
        offset = 0
    out = [root + "".join(prefix)]

    def write(node: Node, state: HexState) -> None:
        """``node``'s moves after it: a line goes on inline; where more than
        one move was tried, each (the main line's first) in a variation."""
        while len(node.children) == 1:
            node = node.children[0]
            out.append(_sgf_move(state, node.move, offset))
            state = state.copy()
            state.play(node.move)
        for child in node.children:
            after = state.copy()
            out.append("(" + _sgf_move(after, child.move, offset))
            after.play(child.move)
            write(child, after)
            out.append(")")

    write(tree.root, base)
    return "".join(out) + ")\n"


def _sgf_move(state: HexState, text: str, offset: int) -> str:
    """``text`` played in ``state`` as an SGF node in HexGui's colours:
    after a swap, cells mirrored and the colour letters exchanged."""
    index = len(state.moves) - offset
    swapped = int(state.swapped) if index >= 2 and not offset else 0
    value = "swap-pieces" if text == "swap" else (mirror(text) if swapped else text)
    return f";{'BW'[state.turn ^ swapped]}[{value}]"
