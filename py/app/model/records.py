"""The analysis board's records: an exploration (its starting position,
the tree of moves tried from it, whether the start is a set-up position,
the node on screen) as a link and as text, and read back from any record
of a game the app can read (docs/formats.md). Whatever is read is replayed
through the rules' checked path; problems raise ``TransferError``
(replay.py) naming what and where. Nothing here touches the browser.

Exploration link payload (``#/<game>/explore?x=<payload>``), only
``A-Za-z0-9-_.~``::

    payload = "1" "." data "~" check
    data    = the fields below, bit after bit, 6 bits a character in
              base64url's alphabet (A-Z a-z 0-9 - _), zero bits filling the last
    check   = 6 base-36 digits: CRC32 of "<game>:" and all before "~", low 31 bits

    settings  each of the registry's settings in order: its index among the
              values the rules accept, in as many bits as the last index needs
    setup     1 bit: the start is a set-up position (its moves setup.build's)
    start     the starting position's moves as tokens, then END
    tree      the tree's text (variations.to_text) as tokens, then END
    cursor    the node on screen: its place in ``Tree.walk`` (the start 0),
              in as many bits as the tree's size needs

A token is W bits: a move's int in the rules (0 .. M-1, where M counts the
game's moves: every cell, and the swap), ``(`` M, ``)`` M+1, END M+2; W is
the bit length of M+2 (7 on an 11 × 11 Hex board). A cut loses the check
(``truncated``), an edit or another game's route fails it (``damaged``).

Text: Hex's is SGF with variations (sgf.py); the other games' is the line
format (line_format.py) with a ``setup:`` line for a set-up position and
the tree in the ``moves:`` line. From a position reached by play, the
moves to it begin the record's main line, as the game's own record has
them: read back, the exploration starts at the game's start.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from core.base import GameError, GameState
from core.hex import HexState
from registry import GAMES

from .hex_import import read_hex
from .line_format import looks_like, read_lines, read_tree, record_text
from .replay import TransferError, checked_body, checksum, entry_settings, limited, play_checked
from .sgf import read_sgf_tree, sgf_tree_text
from .transfer import read_share, share_link
from .variations import Node, Path, Tree, VariationError, from_text, to_text

EXPLORE_PARAM = "x"  # the explore route's parameter that holds a shared exploration
EXPLORE_VERSION = "1"
_ALPHABET = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"
_VALUES = {char: value for value, char in enumerate(_ALPHABET)}
_TOKEN = re.compile(r"[()]|[^\s()]+")
_EXPLORE_LINK = re.compile(r"#/(\w+)/explore\?x=([0-9A-Za-z._~-]*)")


@dataclass(frozen=True)
class ExploreRecord:
    """An exploration read back: the game, the position the tree starts
    from, the tree (checked, in the game's notation), whether the start is
    a set-up position, and the node on screen."""

    game: str
    start: GameState
    tree: Tree
    setup: bool
    cursor: Path = ()


# -- the link ----------------------------------------------------------------------------
def explore_payload(start: GameState, tree: Tree, setup: bool, cursor: Path = ()) -> str:
    """The exploration as a link payload (grammar in the module doc)."""
    tree.node(cursor)  # VariationError for a cursor on no node
    bits = _Bits()
    values = start.settings()
    for setting in entry_settings(start.game):
        bits.put(list(setting.accepted).index(values[setting.name]), _width(len(setting.accepted) - 1))
    bits.put(int(setup), 1)
    moves = _move_count(start)
    width = _width(moves + 2)
    for move in start.moves:
        bits.put(move, width)
    bits.put(moves + 2, width)
    for token in _TOKEN.findall(to_text(tree)):
        bits.put({"(": moves, ")": moves + 1}[token] if token in "()" else start.parse_move(token), width)
    bits.put(moves + 2, width)
    nodes = [path for path, _ in tree.walk()]
    bits.put(nodes.index(cursor), _width(len(nodes) - 1))
    body = f"{EXPLORE_VERSION}.{bits.text()}"
    return f"{body}~{checksum(start.game, body)}"


def explore_fragment(game: str, payload: str) -> str:
    """The app's hash route that opens the shared exploration."""
    return f"#/{game}/explore?{EXPLORE_PARAM}={payload}"


def read_explore(game: str, payload: str) -> ExploreRecord:
    """The exploration of a link payload; TransferError if it is cut,
    edited, or does not fit the rules."""
    settings = entry_settings(game)
    body = checked_body(game, payload)
    version, dot, data = body.partition(".")
    if version != EXPLORE_VERSION:
        raise TransferError("version") if version.isdigit() and dot else TransferError("format", line=1, column=1)
    bits = _Bits(data, len(version) + 2)
    values = {}
    for setting in settings:
        index = bits.take(_width(len(setting.accepted) - 1))
        if index >= len(setting.accepted):
            raise TransferError("bad_settings", setting=setting.name)
        values[setting.name] = setting.accepted[index]
    start = GAMES[game].state.from_settings(values)
    setup = bool(bits.take(1))
    for text in _tokens(bits, start, moves_only=True):
        play_checked(start, text)
    tree = _replayed(start, _tree_field(bits, start), setup)
    nodes = [path for path, _ in tree.walk()]
    index = bits.take(_width(len(nodes) - 1))
    if index >= len(nodes):
        raise bits.fail()
    bits.end()
    return ExploreRecord(game, start, tree, setup, nodes[index])


def explore_link(text: str) -> tuple[str, str] | None:
    """The game and payload of an exploration link, if ``text`` (stripped)
    is one, whole or as its fragment."""
    link = _EXPLORE_LINK.search(text)
    return (link[1], link[2]) if link and len(text.split()) == 1 else None


def _tokens(bits: _Bits, state: GameState, moves_only: bool = False) -> list[str]:
    """The tokens up to the next END: moves in ``state``'s notation, and
    (unless ``moves_only``) parentheses."""
    moves = _move_count(state)
    width = _width(moves + 2)
    tokens = []
    while (token := bits.take(width)) != moves + 2:
        if token < moves:
            tokens.append(state.move_to_text(token))
        elif token <= moves + 1 and not moves_only:
            tokens.append("()"[token - moves])
        else:
            raise bits.fail()
    return tokens


def _tree_field(bits: _Bits, state: GameState) -> Tree:
    """The tree's tokens as a tree (not yet checked against the rules);
    ``format`` where the field starts if they are none."""
    field = bits.position
    tokens = _tokens(bits, state)
    try:
        return from_text(" ".join(tokens))
    except VariationError:
        bits.field = field
        raise bits.fail() from None


def _move_count(state: GameState) -> int:
    """How many move ints the game has (every cell, and the swap): the
    first int that names no move."""
    count = 0
    while True:
        try:
            state.move_to_text(count)
        except GameError:
            return count
        count += 1


def _width(largest: int) -> int:
    """The bits a field needs for values up to ``largest``."""
    return largest.bit_length()


class _Bits:
    """A payload's fields as bits: written one after the other, or read
    back in the same order from its data (found at ``column`` of the payload)."""

    def __init__(self, data: str = "", column: int = 1) -> None:
        self.column = column
        self.parts: list[str] = []
        for index, char in enumerate(data):
            if char not in _VALUES:
                raise TransferError("format", line=1, column=column + index)
            self.parts.append(f"{_VALUES[char]:06b}")
        self.bits = "".join(self.parts)
        self.position = 0
        self.field = 0  # where the field read last starts

    def put(self, value: int, width: int) -> None:
        assert 0 <= value < 1 << width or value == width == 0, (value, width)
        if width:
            self.parts.append(f"{value:0{width}b}")

    def text(self) -> str:
        bits = "".join(self.parts)
        bits += "0" * (-len(bits) % 6)
        return "".join(_ALPHABET[int(bits[start:start + 6], 2)] for start in range(0, len(bits), 6))

    def take(self, width: int) -> int:
        self.field = self.position
        if self.position + width > len(self.bits):
            raise self.fail()
        value = int(self.bits[self.position:self.position + width] or "0", 2)
        self.position += width
        return value

    def fail(self) -> TransferError:
        """``format`` at the character where the field read last starts."""
        return TransferError("format", line=1, column=self.column + self.field // 6)

    def end(self) -> None:
        """Only the last character's filling is left."""
        self.field = self.position
        rest = self.bits[self.position:]
        if len(rest) >= 6 or "1" in rest:
            raise self.fail()


# -- text --------------------------------------------------------------------------------
def exploration_text(start: GameState, tree: Tree, setup: bool) -> str:
    """The exploration as text: SGF for Hex (sgf_tree_text), the line format
    for the others. From a position reached by play, its moves begin the
    ``moves:`` line; from a set-up position, they are the ``setup:`` line."""
    if isinstance(start, HexState):
        return sgf_tree_text(start, tree, setup)
    if setup:
        return record_text(start, to_text(tree), setup=start.move_texts())
    moves = " ".join(part for part in (" ".join(start.move_texts()), to_text(tree)) if part)
    return record_text(GAMES[start.game].new_state(start.settings()), moves)


def read_exploration(text: str, size: int | None = None) -> ExploreRecord:
    """An exploration from pasted or loaded text: Hex SGF, the line format
    (with or without variations and a ``setup:`` line), an exploration
    link, a game's share link (its moves the main line from the empty
    board), or for Hex a HexWorld or Hexplorer link or a plain move list
    (on a board of ``size``, if given; hex_import.py). A record without a
    cursor opens at the end of its main line."""
    clean = limited(text).lstrip("\ufeff \t\r\n").rstrip()
    if clean.startswith("("):
        start, tree, setup = read_sgf_tree(clean)
        return ExploreRecord("hex", start, tree, setup, tree.main_line())
    if looks_like(clean):
        return _read_lines(clean)
    link = explore_link(clean)
    if link:
        return read_explore(*link)
    link = share_link(clean)
    if link:
        shared = read_share(*link)
        return _line_record(GAMES[shared.game].new_state(shared.state.settings()), shared.state.move_texts())
    hex_line = read_hex(clean, size)
    return _line_record(hex_line.start, hex_line.moves, hex_line.cursor)


def _read_lines(text: str) -> ExploreRecord:
    """An exploration in the line format (a ``resigned:`` line is read and
    left: an exploration has no result)."""
    record = read_lines(text)
    start = record.state
    if record.setup is not None:
        for move in record.setup.text.split():
            play_checked(start, move)
    setup = record.setup is not None
    tree = _replayed(start, read_tree(record.moves), setup)
    return ExploreRecord(record.game, start, tree, setup, tree.main_line())


def _line_record(start: GameState, moves: list[str], cursor: int | None = None) -> ExploreRecord:
    """The exploration of one line of ``moves`` from ``start`` (checked),
    the cursor after ``cursor`` of them (None: all)."""
    line = Tree()
    path: Path = ()
    for move in moves:
        path = line.play(path, move)
    tree = _replayed(start, line, False)
    count = len(moves) if cursor is None else cursor
    return ExploreRecord(start.game, start, tree, False, (0,) * count)


# -- the rules ---------------------------------------------------------------------------
def _replayed(start: GameState, tree: Tree, setup: bool) -> Tree:
    """``tree`` replayed through the rules from ``start`` (not changed): the
    same tree in the game's own notation (``swap-pieces`` is ``swap``). The
    first move the rules refuse raises TransferError: on the main line as
    a game's record names it (``illegal_move``, ``after_end``,
    ``notation``), in a variation ``illegal_variation`` with its line. Moves
    are numbered from the game's start, or from the tree's after a set-up."""
    first = 1 if setup else len(start.moves) + 1
    out = Tree()
    # Each entry: a node to play, the position before it (its own), the
    # path in ``out`` it hangs from, and whether it is on the main line.
    work: list[tuple[Node, GameState, Path, bool]] = [
        (child, start.copy(), (), index == 0) for index, child in reversed(list(enumerate(tree.root.children)))]
    while work:
        node, state, parent, main = work.pop()
        number = first + len(parent)
        try:
            play_checked(state, node.move, number=number)
        except TransferError as error:
            if main:
                raise
            line = " ".join([*out.moves(parent), node.move])
            raise TransferError("illegal_variation", str(error), move=number, text=node.move, line=line) from None
        path = out.play(parent, state.move_to_text(state.moves[-1]))
        children = node.children
        # The first child plays on this position; the others on copies made now, before it does.
        work.extend((child, state.copy(), path, False) for child in reversed(children[1:]))
        if children:
            work.append((children[0], state, path, main))
    return out
