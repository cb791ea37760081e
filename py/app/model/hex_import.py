"""Hex games from elsewhere, for the analysis board (records.py checks and
opens them): a plain list of moves, and the links of HexWorld's board and
PlayHex's Hexplorer, which write a game the same way (docs/formats.md).

Both sites draw the board as we do (column letter, row number from the
top, the first player joining the top and bottom rows), and their swap is
ours: the stone is mirrored and changes colour, so every cell is read as
written. Neither says whether the swap rule is on; it is (both boards
offer the swap at move 2).

HexWorld's fragment (``https://hexworld.org/board/#<fragment>``, and the
same after ``https://playhex.org/hexplorer#``)::

    fragment = size [ "x" size ] flags [ "," moves [ "," moves ] ]
    flags    = *( letter / digit )      ; rotation, colours, numbering: display only
    moves    = *( cell / ":s" / ":S" / ":p" / ":r" colour / ":f" colour )
    cell     = letters digits           ; "d10"
    colour   = "b" / "w"

``:s`` is the swap; ``:S`` (swap-sides) only relabels the colours on
screen and ``:rb :rw :fb :fw`` (a resignation, a loss on time) end the game
without a move, so they are passed over; a pass (``:p``) is no move of our
rules. The comma between two lists of moves is the cursor: the first
list's moves are played, the second's follow on the same line.

A plain list: moves separated by spaces, commas, semicolons or line breaks
(or not at all: ``a1b2c3``), each optionally numbered (``1. a1 2. b2``,
``1) a1``); ``swap``, ``swap-pieces`` and ``swap-sides`` are the swap. Its
board is the smallest size offered (``registry``) of at least 11 that
holds every cell, unless a size is given.

A PlayHex game page (``https://playhex.org/games/<id>``) keeps its moves
on the server: ``remote_game``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast
from urllib.parse import unquote

from core.hex import HexState
from registry import GAMES

from .replay import SWITCH, TransferError, new_state

#: The smallest board a plain list is read on (the standard one).
PLAIN_LIST_SIZE = 11
_HEXWORLD_LINK = re.compile(r"(?:https?://)?(?:www\.)?(?:hexworld\.org/board|playhex\.org/hexplorer)[^#\s]*#(\S*)",
                            re.IGNORECASE)
_HEXWORLD_BARE = re.compile(r"#?(\d+(?:x\d+)?[a-z0-9]*,\S*)", re.IGNORECASE)
_HEXWORLD_FRAGMENT = re.compile(r"(\d+)(?:x(\d+))?[a-z0-9]*(?:,(.*))?", re.IGNORECASE | re.DOTALL)
_HEXWORLD_MOVE = re.compile(r"([A-Za-z]+\d+)|:([spS]|[rf][bw])")  # :s and :S differ
_PLAYHEX_GAME = re.compile(r"(?:https?://)?(?:www\.)?playhex\.org/games/[0-9a-z-]+/?", re.IGNORECASE)
_LIST_TOKEN = re.compile(r"([\s,;]+)|(\d+(?:\.+|\)))|((?:[a-z]+\d+)+|swap(?:-pieces|-sides)?)(?![a-z0-9-])",
                         re.IGNORECASE)
_CELL = re.compile(r"([a-z]+)(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class HexLine:
    """A Hex game read from elsewhere: the empty board it is played on, its
    moves in our notation (not yet checked), and how many of them the
    cursor stands after (None: all)."""

    start: HexState
    moves: list[str]
    cursor: int | None = None


def read_hex(text: str, size: int | None = None) -> HexLine:
    """A Hex game from a HexWorld or Hexplorer link (or HexWorld's fragment
    alone) or a plain move list (on a board of ``size``, if given).
    TransferError for anything else."""
    clean = text.strip()
    if _PLAYHEX_GAME.fullmatch(clean):
        raise TransferError("remote_game", site="PlayHex")
    link = _HEXWORLD_LINK.fullmatch(clean) or _HEXWORLD_BARE.fullmatch(clean)
    if link:
        return _hexworld(unquote(link[1]), clean.find(link[1]) + 1)
    return _plain_list(clean, size)


# -- HexWorld and Hexplorer ------------------------------------------------------------
def _hexworld(fragment: str, column: int) -> HexLine:
    """``fragment`` (found at ``column`` of the text) read as HexWorld writes it."""
    match = _HEXWORLD_FRAGMENT.fullmatch(fragment)
    if match is None:
        raise TransferError("format", line=1, column=column)
    if match[2] is not None and match[2] != match[1]:
        raise TransferError("bad_settings", setting=f"size={match[1]}x{match[2]}")
    start = _board(int(match[1]))
    lists = [] if match[3] is None else match[3].split(",")
    moves: list[str] = []
    cursor = None
    offset = column + (match.start(3) if lists else 0)
    for index, part in enumerate(lists):
        if index == 2:
            raise TransferError("format", line=1, column=offset - 1)  # a third list: at its comma
        if index == 1:
            cursor = len(moves)
        moves.extend(_hexworld_moves(part, offset, len(moves)))
        offset += len(part) + 1
    return HexLine(start, moves, cursor)


def _hexworld_moves(part: str, column: int, before: int) -> list[str]:
    """The moves of one of a fragment's lists (at ``column`` of the text,
    after ``before`` moves)."""
    moves: list[str] = []
    found, position = _scanned(_HEXWORLD_MOVE, part)
    for match in found:
        cell, special = match.groups()
        if cell:
            moves.append(cell.lower())
        elif special == "s":
            moves.append("swap")
        elif special == "p":
            raise TransferError("notation", "no pass in Hex", move=before + len(moves) + 1, text=":p")
    if position != len(part):
        raise TransferError("format", line=1, column=column + position)
    return moves


# -- plain lists ------------------------------------------------------------------------
def _plain_list(text: str, size: int | None) -> HexLine:
    moves: list[str] = []
    found, position = _scanned(_LIST_TOKEN, text)
    for match in found:
        written = match[3]
        if written and written.lower().startswith("swap"):
            moves.append("swap")
        elif written:
            moves.extend(cell[0].lower() for cell in _CELL.finditer(written))
    if position != len(text) or not moves:
        raise TransferError("format", line=text.count("\n", 0, position) + 1,
                            column=position - text.rfind("\n", 0, position))
    return HexLine(_board(size or _size_for(moves)), moves)


def _size_for(moves: list[str]) -> int:
    """The smallest size offered, of at least ``PLAIN_LIST_SIZE``, whose
    board holds every cell of ``moves``."""
    needed = PLAIN_LIST_SIZE
    for move in moves:
        match = _CELL.fullmatch(move)
        if match:
            needed = max(needed, _column_number(match[1]), int(match[2]))
    offered = [size for size in GAMES["hex"].setting("size").values if size >= needed]
    if not offered:
        raise TransferError("bad_settings", setting=f"size={needed}")
    return min(offered)


def _column_number(letters: str) -> int:
    """A column's number from 1: ``a`` 1, ``z`` 26, ``aa`` 27 (HexWorld's
    columns past the 26th, on boards our rules do not have)."""
    number = 0
    for letter in letters.lower():
        number = number * 26 + ord(letter) - ord("a") + 1
    return number


def _scanned(pattern: re.Pattern[str], text: str) -> tuple[list[re.Match[str]], int]:
    """The matches of ``pattern`` that follow one another from the start
    of ``text``, and where they stop (``len(text)``: they cover it)."""
    found = []
    position = 0
    for match in pattern.finditer(text):
        if match.start() != position:
            break
        found.append(match)
        position = match.end()
    return found, position


def _board(size: int) -> HexState:
    """An empty Hex board of ``size`` with the swap rule on."""
    return cast(HexState, new_state("hex", {"size": str(size), "swap": "on"}, SWITCH))
