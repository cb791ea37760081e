"""The analysis board's tree of variations: the moves played from a
position, each node's first child the line it goes on with (its main line),
the others its variations.

The tree knows no rules: moves are text in the game's notation, as the
records write them, and ``check`` replays a tree through the rules'
checked path (``state.play``) before anything read from outside is shown.
A place in the tree is a ``Path``: the index of the child taken at each
step from the root (``()`` is the root, the position the exploration
starts from). Every change returns the path to show next, so that a caller
keeps its cursor on the node it meant.

Its text (``to_text``, ``from_text``; docs/formats.md) is the move list of
the text records with variations as PGN writes them: a variation in
parentheses right after the move it replaces, nested as deep as the tree.
``a1 b2 (c3 d4 (e5)) f6`` is a1, then b2 or c3; after c3, d4 or e5; after
b2, f6.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from core import GameError, GameState

Path = tuple[int, ...]

#: A move's text: what the games' notations use (``e5``, ``2b2``, ``swap``).
_MOVE = re.compile(r"[0-9a-z-]+")
_TOKEN = re.compile(r"\s*(?:(\()|(\))|([^\s()]+))")


class VariationError(GameError):
    """A tree's text or path that does not fit: unbalanced parentheses, a
    move that is not legal where the tree plays it, a path to no node.
    ``at``: for text, the index of the character where it goes wrong."""

    def __init__(self, message: str, at: int | None = None) -> None:
        super().__init__(message)
        self.at = at


@dataclass(eq=False)
class Node:
    """One move of the tree and what was tried after it (compared by
    identity: trees compare with ``Tree.__eq__``)."""

    move: str
    children: list[Node] = field(default_factory=list)


class Tree:
    """Variations from one position (the root, which has no move)."""

    def __init__(self, children: list[Node] | None = None) -> None:
        self.root = Node("", list(children or []))

    def __eq__(self, other: object) -> bool:
        """The same moves in the same places (compared without recursion:
        a line can be thousands of moves long)."""
        if not isinstance(other, Tree):
            return NotImplemented
        pairs = [(self.root, other.root)]
        while pairs:
            mine, theirs = pairs.pop()
            if mine.move != theirs.move or len(mine.children) != len(theirs.children):
                return False
            pairs.extend(zip(mine.children, theirs.children))
        return True

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Tree({to_text(self)!r})"

    # -- reading ---------------------------------------------------------------
    def node(self, path: Path) -> Node:
        node = self.root
        for depth, index in enumerate(path):
            if not 0 <= index < len(node.children):
                raise VariationError(f"no node at {format_path(path)} (it ends after {format_path(path[:depth])})")
            node = node.children[index]
        return node

    def moves(self, path: Path) -> list[str]:
        """The moves from the root to the node at ``path``."""
        node, moves = self.root, []
        for index in path:
            node = self._child(node, index, path)
            moves.append(node.move)
        return moves

    def path_of(self, moves: list[str]) -> Path:
        """The path the moves ``moves`` take from the root (VariationError
        if the tree does not have them)."""
        node, path = self.root, Path()
        for move in moves:
            index = _index_of(node, move)
            if index is None:
                raise VariationError(f"{' '.join(moves)!r} is not a line of the tree")
            node, path = node.children[index], (*path, index)
        return path

    @staticmethod
    def _child(node: Node, index: int, path: Path) -> Node:
        if not 0 <= index < len(node.children):
            raise VariationError(f"no node at {format_path(path)}")
        return node.children[index]

    def main_line(self, path: Path = ()) -> Path:
        """The path of the last node of the line that goes on from ``path``
        (first children to the end: End)."""
        node, line = self.node(path), list(path)
        while node.children:
            node = node.children[0]
            line.append(0)
        return tuple(line)

    def is_main_line(self, path: Path) -> bool:
        """Whether the node is on the tree's main line (first children only)."""
        return all(index == 0 for index in path)

    def size(self) -> int:
        """How many moves the tree holds."""
        return sum(1 for _ in self.walk()) - 1

    def walk(self) -> Iterator[tuple[Path, Node]]:
        """Every node with its path, the root first, depth first, main lines
        before their variations (the order the move list shows them in)."""
        stack: list[tuple[Path, Node]] = [((), self.root)]
        while stack:
            path, node = stack.pop()
            yield path, node
            stack.extend(((*path, index), child) for index, child in reversed(list(enumerate(node.children))))

    # -- moving the cursor -------------------------------------------------------
    def forward(self, path: Path) -> Path:
        """→: the next move of the line (the first child); the same path at
        a line's end."""
        return (*path, 0) if self.node(path).children else path

    @staticmethod
    def back(path: Path) -> Path:
        """←: the move before (the root stays)."""
        return path[:-1]

    def sibling(self, path: Path, step: int) -> Path:
        """↓ (step 1) and ↑ (-1): the next or previous of the moves tried at
        this point, the main line's move first; the same path where there
        is none (or at the root)."""
        if not path:
            return path
        parent = self.node(path[:-1])
        index = path[-1] + step
        return (*path[:-1], index) if 0 <= index < len(parent.children) else path

    # -- changing the tree -------------------------------------------------------
    def play(self, path: Path, move: str) -> Path:
        """The node after ``move`` from the one at ``path``: the child that
        has it if that was tried already, else a new one, the main line if
        it is the first, a variation if not."""
        if not _MOVE.fullmatch(move):
            raise VariationError(f"{move!r} is not a move's text")
        node = self.node(path)
        index = _index_of(node, move)
        if index is not None:
            return (*path, index)
        node.children.append(Node(move))
        return (*path, len(node.children) - 1)

    def promote(self, path: Path) -> Path:
        """The variation the node is in, one step nearer the main line: at
        the nearest point above it where it is not the first move tried, it
        changes places with the one before it. Returns the node's new path
        (the same on the main line)."""
        for depth in range(len(path) - 1, -1, -1):
            index = path[depth]
            if index > 0:
                siblings = self.node(path[:depth]).children
                siblings[index - 1], siblings[index] = siblings[index], siblings[index - 1]
                return (*path[:depth], index - 1, *path[depth + 1:])
        return path

    def make_main_line(self, path: Path) -> Path:
        """The node's line the main line of the whole tree: every point on
        the way to it tries it first. Returns its new path (all zeros)."""
        node = self.root
        for index in path:
            chosen = self._child(node, index, path)
            node.children.remove(chosen)
            node.children.insert(0, chosen)
            node = chosen
        return (0,) * len(path)

    def delete(self, path: Path) -> Path:
        """The node and everything after it out of the tree. Returns the
        path of the node before it (where the cursor goes)."""
        if not path:
            raise VariationError("the starting position cannot be deleted")
        parent = self.node(path[:-1])
        self._child(parent, path[-1], path)
        del parent.children[path[-1]]
        return path[:-1]

    def after_delete(self, cursor: Path, deleted: Path) -> Path:
        """Where a cursor at ``cursor`` is once the node at ``deleted`` went:
        the deleted node's parent if the cursor was in what went; the same
        node, one index lower past it, if it came after it among its
        siblings; else unchanged."""
        depth = len(deleted) - 1
        if cursor[:len(deleted)] == deleted:
            return deleted[:-1]
        if len(cursor) > depth and cursor[:depth] == deleted[:depth] and cursor[depth] > deleted[depth]:
            return (*cursor[:depth], cursor[depth] - 1, *cursor[depth + 1:])
        return cursor


def _index_of(node: Node, move: str) -> int | None:
    """The index of the child of ``node`` that plays ``move``, if any."""
    return next((index for index, child in enumerate(node.children) if child.move == move), None)


def format_path(path: Path) -> str:
    """A path as the page names it (``data-path``): indices joined by ``.``,
    the root the empty string."""
    return ".".join(str(index) for index in path)


def parse_path(text: str) -> Path:
    """``format_path``'s text back to a path; VariationError if it is none."""
    if text == "":
        return ()
    parts = text.split(".")
    if not all(part.isdigit() and (part == "0" or not part.startswith("0")) for part in parts):
        raise VariationError(f"{text!r} is not a path in the tree")
    return tuple(int(part) for part in parts)


# -- text ---------------------------------------------------------------------------
def to_text(tree: Tree) -> str:
    """The tree as text: each line's moves in order, and after the move that
    goes on a line, the other moves tried there, each in parentheses with
    what follows it."""
    out: list[str] = []
    # Each entry: a node whose first child's line is written next, or a
    # string to write as it comes.
    stack: list[Node | str] = [tree.root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node = item
        while node.children:
            main, *others = node.children
            out.append(main.move)
            if others:
                # The main move's line goes on after the variations: write
                # them (each "(" move ... ")") first, its continuation next.
                stack.append(main)
                for other in reversed(others):
                    stack.extend((")", other))
                    stack.append("(" + other.move)
                break
            node = main
    return _join(out)


def _join(tokens: list[str]) -> str:
    text = " ".join(tokens)
    return text.replace("( ", "(").replace(" )", ")")


def from_text(text: str) -> Tree:
    """``to_text``'s text back to a tree (moves lower-cased; whitespace,
    line breaks and the case of moves forgiven). VariationError for text
    that is not such a tree."""
    tree = Tree()
    # For each open parenthesis: the node the variation starts from, and
    # the node to go on from once it closes.
    open_at: list[tuple[Node, Node]] = []
    before = tree.root  # the node the last move was played from
    current = tree.root
    position = 0
    for match in _TOKEN.finditer(text):
        if match.start() != position:
            break
        position = match.end()
        opening, closing, move = match.groups()
        if opening:
            if current is tree.root:
                raise VariationError("a variation must follow a move it replaces", match.start(1))
            open_at.append((before, current))
            current = before
        elif closing:
            if not open_at:
                raise VariationError("a ')' closes no variation", match.start(2))
            if current is open_at[-1][0]:
                raise VariationError("an empty variation '()'", match.start(2))
            before, current = open_at.pop()
        else:
            word = move.lower()
            if not _MOVE.fullmatch(word):
                raise VariationError(f"{move!r} is not a move's text", match.start(3))
            if any(child.move == word for child in current.children):
                raise VariationError(f"{word!r} is tried twice at the same point", match.start(3))
            child = Node(word)
            current.children.append(child)
            before, current = current, child
    if text[position:].strip():
        raise VariationError(f"unreadable text at {text[position:position + 12]!r}", position)
    if open_at:
        raise VariationError("a variation is not closed: ')' missing", len(text))
    return tree


# -- rules ----------------------------------------------------------------------------
def check(tree: Tree, start: GameState) -> None:
    """Every move of the tree legal where it is played from ``start``
    (which is left as it was): VariationError naming the first that is not,
    with its line."""
    stack: list[tuple[GameState, Node, list[str]]] = [(start, tree.root, [])]
    while stack:
        state, node, line = stack.pop()
        for child in node.children:
            after = state.copy()
            try:
                after.play(child.move)
            except GameError as error:
                raise VariationError(f"after {' '.join(line) or 'the start'}: {error}") from error
            stack.append((after, child, [*line, child.move]))


def state_at(tree: Tree, start: GameState, path: Path) -> GameState:
    """The position at ``path``: ``start`` (not changed) with the moves to
    it played."""
    state = start.copy()
    for move in tree.moves(path):
        state.play(move)
    return state
