"""Games in and out of the app: share links, export text, import.

Everything read from outside is replayed move by move through the checked
path (``state.play``); any problem raises ``TransferError`` with a stable
``kind`` (one of ``KINDS``) and a catalog message ``transfer.<kind>`` that
says what is wrong and where. Nothing here touches the browser.

Share link payload (``#/<game>?g=<payload>``), only ``0-9a-z.-~``::

    payload  = body "~" check
    body     = "1" "." settings "." moves [ "." result ]
    settings = [ value *( "-" value ) ]   ; the registry's settings, in order:
                                          ; an int in decimal, a switch 1 / 0
    moves    = *move                      ; the game's notation, lower case, not separated
    result   = "r0" / "r1"                ; that seat (first / second) resigned
    check    = 6 base-36 digits           ; CRC32 of "<game>:<body>", low 31 bits

A cut anywhere loses the ``~`` or digits of ``check`` (``truncated``); an
edit, or a payload moved to another game's route, fails the check
(``damaged``). ``hex``: ``1.11-1.f6swape7~0a1b2c``.

Export text for Notakto, Ultimate Tic-Tac-Toe and Y (Hex reads it too)::

    [abstract-games 1] game=y size=13 swap=on
    moves: e5 swap c3
    resigned: first

The header names the game and every setting (a switch is ``on``/``off``);
``moves:`` lists the moves in ``docs/gtp.md`` notation; the ``resigned:``
line (``first``/``second``) only when a player resigned. Import forgives
blank lines, CRLF, extra spaces and the case of moves, nothing else.

Hex exports SGF as HexGui writes it: ``(;FF[4]GM[11]SZ[11]...;B[f6];W[e7])``.
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
import zlib
from dataclasses import dataclass
from typing import Any, Iterator

from core.base import GameError, GameState, IllegalMoveError
from core.hex import LETTERS, HexState
from registry import GAMES, Setting

from .words import Msg

KINDS = ("empty", "too_long", "format", "version", "unknown_game", "bad_settings", "setup",
         "notation", "illegal_move", "after_end", "truncated", "damaged")
MAX_CHARS = 100_000
VERSION = "1"
SHARE_PARAM = "g"  # the route's parameter that holds a shared game
CHECK_DIGITS = 6
HEADER = "abstract-games"
APPLICATION = "abstract-games:1"
SEATS = ("first", "second")
SWITCH = {"on": True, "off": False}
SGF_SWAPS = ("swap", "swap-pieces", "swap-sides")
_BODY_RE = re.compile(r"[0-9a-z.-]*")
_HEADER_RE = re.compile(r"\[\s*abstract-games\s+(\d+)\s*\](.*)", re.IGNORECASE)
_LINK_RE = re.compile(r"#/(\w+)\?g=([0-9A-Za-z._~-]*)")
_CELL_RE = re.compile(r"([a-s])([0-9]{1,2})")


class TransferError(ValueError):
    """Text or a link that does not give a game; ``message`` tells the player."""

    def __init__(self, kind: str, detail: str = "", **params: Any) -> None:
        assert kind in KINDS, kind
        super().__init__(f"{kind}: {detail or params}")
        self.kind = kind
        self.message = Msg(f"transfer.{kind}", params)


@dataclass(frozen=True)
class Transferred:
    """A game read back: its name, the replayed state, who resigned (a seat)."""

    game: str
    state: GameState
    resigned: int | None


# -- settings and replay, shared by every format ------------------------------------

def _entry_settings(game: str) -> tuple[Setting, ...]:
    if game not in GAMES:
        raise TransferError("unknown_game", name=game)
    return GAMES[game].settings


def _new_state(game: str, values: dict[str, str], switches: dict[str, bool]) -> GameState:
    """A new game from setting texts (every setting named exactly once)."""
    settings = _entry_settings(game)
    names = [setting.name for setting in settings]
    for name in values:
        if name not in names:
            raise TransferError("bad_settings", setting=name)
    chosen: dict[str, Any] = {}
    for setting in settings:
        if setting.name not in values:
            raise TransferError("bad_settings", setting=setting.name)
        text = values[setting.name].strip().lower()
        value: Any = switches.get(text) if isinstance(setting.default, bool) else (
            int(text) if text.isascii() and text.isdigit() else None)
        if value is None or value not in setting.accepted:
            raise TransferError("bad_settings", setting=f"{setting.name}={values[setting.name]}")
        chosen[setting.name] = value
    return GAMES[game].state.from_settings(chosen)


def _play(state: GameState, text: str, shown: str = "") -> None:
    """Play move ``text`` checked; errors name the move's number and its
    text as the input has it (``shown``, if that differs)."""
    params = {"move": len(state.moves) + 1, "text": shown or text}
    try:
        state.play(text)
    except IllegalMoveError as error:
        raise TransferError("after_end" if state.is_over() else "illegal_move", error.why, **params) from None
    except GameError as error:
        raise TransferError("notation", str(error), **params) from None


def _resign(state: GameState, seat: int | None, text: str) -> int | None:
    if seat is not None and state.is_over():
        raise TransferError("after_end", "a resignation after the end", move=len(state.moves) + 1, text=text)
    return seat


def _check_resigned(state: GameState, resigned: int | None) -> None:
    if resigned not in (None, 0, 1) or (resigned is not None and state.is_over()):
        raise ValueError(f"cannot record resigned={resigned!r} for this game")


# -- share links ---------------------------------------------------------------------

def _checksum(game: str, body: str) -> str:
    number = zlib.crc32(f"{game}:{body}".encode()) & 0x7FFFFFFF
    digits = ""
    for _ in range(CHECK_DIGITS):
        number, digit = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
    return digits


def share_payload(state: GameState, resigned: int | None = None) -> str:
    """The game as a link payload (grammar in the module doc)."""
    _check_resigned(state, resigned)
    values = [str(int(state.settings()[setting.name])) for setting in _entry_settings(state.game)]
    fields = [VERSION, "-".join(values), "".join(state.move_texts())]
    if resigned is not None:
        fields.append(f"r{resigned}")
    body = ".".join(fields)
    return f"{body}~{_checksum(state.game, body)}"


def share_fragment(game: str, payload: str) -> str:
    """The app's hash route that opens the shared game."""
    return f"#/{game}?{SHARE_PARAM}={payload}"


def _move_tokens(state: GameState, moves: str) -> Iterator[str]:
    """Split unseparated notation: at each point the longest prefix (at most
    four characters) the game reads as a move."""
    start = 0
    while start < len(moves):
        for end in range(min(len(moves), start + 4), start, -1):
            try:
                state.parse_move(moves[start:end])
            except GameError:
                continue
            break
        else:
            raise TransferError("notation", move=len(state.moves) + 1, text=moves[start:start + 4])
        yield moves[start:end]
        start = end


def read_share(game: str, payload: str) -> Transferred:
    """The game of a link payload; TransferError if it is cut, edited or wrong."""
    settings = _entry_settings(game)
    text = _limited(payload).strip()
    body, tilde, check = text.rpartition("~")
    if not tilde or len(check) < CHECK_DIGITS:
        raise TransferError("truncated")
    if check != _checksum(game, body):
        raise TransferError("damaged")
    fields = body.split(".")
    if fields[0] != VERSION:
        raise TransferError("version") if fields[0].isdigit() else TransferError("format", line=1, column=1)
    if not _BODY_RE.fullmatch(body) or len(fields) not in (3, 4):
        raise TransferError("format", line=1, column=len(".".join(fields[:3])) + 1)
    values = fields[1].split("-") if fields[1] else []
    if len(values) != len(settings):
        raise TransferError("bad_settings", setting=fields[1])
    state = _new_state(game, {s.name: v for s, v in zip(settings, values)}, {"1": True, "0": False})
    for move in _move_tokens(state, fields[2]):
        _play(state, move)
    resigned = None
    if len(fields) == 4:
        if fields[3] not in ("r0", "r1"):
            raise TransferError("format", line=1, column=len(body) - len(fields[3]) + 1)
        resigned = _resign(state, int(fields[3][1]), fields[3])
    return Transferred(game, state, resigned)


# -- export --------------------------------------------------------------------------

def export_text(state: GameState, resigned: int | None = None) -> str:
    """The game as text: SGF for Hex, the line format for the others."""
    _check_resigned(state, resigned)
    if isinstance(state, HexState):
        return _sgf_text(state, resigned)
    values = state.settings()
    header = f"[{HEADER} {VERSION}] game={state.game}" + "".join(
        f" {s.name}={_value_text(values[s.name])}" for s in _entry_settings(state.game))
    lines = [header, "moves:" + "".join(f" {move}" for move in state.move_texts())]
    if resigned is not None:
        lines.append(f"resigned: {SEATS[resigned]}")
    return "\n".join(lines) + "\n"


def _value_text(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def export_filename(state: GameState) -> str:
    """A file name for the export: ``hex-11x11.sgf``, ``y-13.txt``..."""
    values = state.settings()
    if isinstance(state, HexState):
        return f"hex-{state.size}x{state.size}.sgf"
    sizes = [str(values[s.name]) for s in _entry_settings(state.game) if not isinstance(s.default, bool)]
    return "-".join([state.game, *sizes]) + ".txt"


def _mirror(text: str) -> str:
    """A Hex cell mirrored across the long diagonal (other text unchanged)."""
    match = _CELL_RE.fullmatch(text)
    if match is None or not 1 <= int(match[2]) <= len(LETTERS):
        return text
    return f"{LETTERS[int(match[2]) - 1]}{LETTERS.index(match[1]) + 1}"


def _sgf_text(state: HexState, resigned: int | None) -> str:
    swapped = int(state.swapped)  # after the swap, cells mirrored and colours exchanged
    root = f"(;FF[4]GM[11]SZ[{state.size}]AP[{APPLICATION}]" + ("RU[swap]" if state.swap_rule else "")
    outcome = state.outcome()
    if resigned is not None:
        root += f"RE[{'BW'[(1 - resigned) ^ swapped]}+Resign]"
    elif outcome is not None:
        root += f"RE[{'BW'[outcome.winner ^ swapped]}+]"
    lines, line = [root], ""
    for index, move in enumerate(state.move_texts()):
        after_swap = swapped if index >= 2 else 0
        value = "swap-pieces" if move == "swap" else (_mirror(move) if after_swap else move)
        node = f";{'BW'[(index & 1) ^ after_swap]}[{value}]"
        if line and len(line) + len(node) > 72:
            lines.append(line)
            line = ""
        line += node
    lines.append(line + ")")
    return "\n".join(lines) + "\n"


# -- import --------------------------------------------------------------------------

def _limited(text: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise TransferError("empty")
    if len(text) > MAX_CHARS:
        raise TransferError("too_long", limit=MAX_CHARS)
    return text


def import_text(text: str) -> Transferred:
    """A game from pasted or loaded text: SGF (it starts with ``(``), the
    line format (``[abstract-games 1] ...``) or a share link."""
    clean = _limited(text).lstrip("\ufeff \t\r\n")
    if clean.startswith("("):
        return _read_sgf(clean)
    if clean.startswith("["):
        return _read_lines(clean)
    link = _LINK_RE.search(clean)
    if link and len(clean.split()) == 1:
        return read_share(link[1], link[2])
    raise TransferError("format", line=1, column=1)


def _read_lines(text: str) -> Transferred:
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    number, header = lines[0]
    match = _HEADER_RE.fullmatch(header)
    if match is None:
        raise TransferError("format", line=number, column=1)
    if match[1] != VERSION:
        raise TransferError("version")
    values: dict[str, str] = {}
    for field in match[2].split():
        name, equals, value = field.partition("=")
        if not equals or not value or name.lower() in values:
            raise TransferError("format", line=number, column=header.find(field) + 1)
        values[name.lower()] = value
    if "game" not in values:
        raise TransferError("format", line=number, column=1)
    game = values.pop("game").lower()
    state = _new_state(game, values, SWITCH)
    if len(lines) < 2 or not lines[1][1].lower().startswith("moves:"):
        raise TransferError("format", line=lines[1][0] if len(lines) > 1 else number + 1, column=1)
    for move in lines[1][1][len("moves:"):].split():
        _play(state, move)
    resigned = None
    for number, line in lines[2:]:
        label, _, seat = (part.strip().lower() for part in line.partition(":"))
        if label != "resigned" or seat not in SEATS or resigned is not None:
            raise TransferError("format", line=number, column=1)
        resigned = _resign(state, SEATS.index(seat), line)
    return Transferred(game, state, resigned)


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


def _read_sgf(text: str) -> Transferred:
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
            resigned = _resign(state, "BW".index(colour) ^ _exchange(state, exchanged), shown)
            continue
        if state.swapped and exchanged is None:
            exchanged = int(colour == "W")
        if colour != "BW"[state.turn ^ (exchanged or 0)]:
            raise TransferError("illegal_move", "out of turn", move=len(state.moves) + 1, text=shown)
        cell = _go_point(value)
        _play(state, "swap" if value in SGF_SWAPS else _mirror(cell) if exchanged else cell, shown)
    result = re.fullmatch(r"([BW])\+?R(?:esign)?", root.get("RE", ""), re.IGNORECASE)
    if result and resigned is None and not state.is_over():
        loser = "WB".index(result[1].upper())  # the other colour's index
        resigned = loser ^ _exchange(state, exchanged)
    return Transferred("hex", state, resigned)


def _exchange(state: GameState, exchanged: int | None) -> int:
    """Whether the colours are exchanged; after a swap with no move yet,
    HexGui's convention (they are)."""
    return exchanged if exchanged is not None else int(state.swapped)


def _sgf_state(root: dict[str, str], swap_played: bool) -> GameState:
    """A new Hex game from the root's SZ (square, or the default 11) and
    RU (or a swap move) for the swap rule."""
    size = root.get("SZ", "11")
    width, _, height = size.partition(":")
    swap = swap_played or "swap" in root.get("RU", "").lower()
    try:
        if height and height != width:
            raise TransferError("bad_settings")
        return _new_state("hex", {"size": width, "swap": "on" if swap else "off"}, SWITCH)
    except TransferError as error:
        raise TransferError("bad_settings", setting=f"SZ[{size}]") from error


def _go_point(value: str) -> str:
    """HexGui also reads Go-style points, two letters column-row: ``cb`` is ``c2``."""
    if len(value) == 2 and value.isalpha() and value[1] in LETTERS:
        return f"{value[0]}{LETTERS.index(value[1]) + 1}"
    return value
