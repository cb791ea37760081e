"""The line format of records (docs/formats.md), for the games that have no
SGF (Hex reads it too): a header naming the game and every setting, an
optional ``setup:`` line, the ``moves:`` line and, when a player resigned,
a ``resigned:`` line::

    [abstract-games 1] game=uttt
    setup: e5 d4 c3
    moves: f6 (a1 b2) g7
    resigned: first

``setup:`` lists a set-up position's moves (``setup.build``): a position,
not a history. ``moves:`` lists the moves in the game's notation, with
variations in parentheses as variations.py writes them. transfer.py reads
and writes games in it (their main line), records.py explorations. Reading
forgives blank lines, CRLF, extra spaces and the case of moves and labels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from core.base import GameState

from .replay import SWITCH, TransferError, entry_settings, new_state
from .variations import Tree, VariationError, from_text

HEADER = "abstract-games"
VERSION = "1"
SEATS = ("first", "second")
_HEADER_RE = re.compile(r"\[\s*abstract-games\s+(\d+)\s*\](.*)", re.IGNORECASE)


@dataclass(frozen=True)
class Field:
    """A labelled line: its number in the text, what follows the label, and
    the column (from 1) where that starts."""

    line: int
    text: str
    column: int


@dataclass(frozen=True)
class LineRecord:
    """A record's lines as read, before any move is played: a new game with
    the header's settings, the ``setup:`` line if any, the ``moves:`` line,
    and the seat that resigned with its line as written."""

    game: str
    state: GameState
    setup: Field | None
    moves: Field
    resigned: tuple[int, str] | None


def looks_like(text: str) -> bool:
    """Whether ``text`` (leading whitespace removed) is in this format."""
    return text.startswith("[")


def read_lines(text: str) -> LineRecord:
    """The lines of a record; TransferError naming the line (and column)
    of what does not fit the format, or the setting the rules refuse."""
    lines = [(number, raw) for number, raw in enumerate(text.splitlines(), 1) if raw.strip()]
    number, header = lines[0][0], lines[0][1].strip()
    game, state = _header(number, header)
    fields = [_field(number, raw) for number, raw in lines[1:]]
    setup = fields.pop(0)[1] if fields and fields[0][0] == "setup" else None
    if not fields or fields[0][0] != "moves":
        after = setup.line if setup else number
        raise TransferError("format", line=fields[0][1].line if fields else after + 1, column=1)
    moves = fields.pop(0)[1]
    resigned = None
    for label, seat in fields:
        if label != "resigned" or seat.text.lower() not in SEATS or resigned is not None:
            raise TransferError("format", line=seat.line, column=1)
        resigned = (SEATS.index(seat.text.lower()), dict(lines)[seat.line].strip())
    return LineRecord(game, state, setup, moves, resigned)


def _header(number: int, header: str) -> tuple[str, GameState]:
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
    return game, new_state(game, values, SWITCH)


def _field(number: int, raw: str) -> tuple[str, Field]:
    """Line ``number``'s label (lower case; ``""`` for none) and what follows it."""
    label, colon, rest = raw.partition(":")
    name = label.strip().lower() if colon and re.fullmatch(r"\s*[A-Za-z]+\s*", label) else ""
    start = len(label) + 1 + len(rest) - len(rest.lstrip())
    return name, Field(number, rest.strip(), start + 1)


def read_tree(field: Field) -> Tree:
    """The moves of a ``setup:`` or ``moves:`` line as a tree (its text, not
    yet checked against the rules); ``format`` names where it goes wrong."""
    try:
        return from_text(field.text)
    except VariationError as error:
        raise TransferError("format", str(error), line=field.line, column=field.column + (error.at or 0)) from None


def main_line(field: Field) -> list[str]:
    """The moves of a ``moves:`` line's main line, as written (a line with
    no parentheses is split as it is, so that any text is the rules' to refuse)."""
    if "(" not in field.text and ")" not in field.text:
        return field.text.split()
    tree = read_tree(field)
    return tree.moves(tree.main_line())


def record_text(state: GameState, moves: str, setup: list[str] | None = None,
                resigned: int | None = None) -> str:
    """The record of a game of ``state``'s settings: the header, the
    ``setup:`` line (if ``setup`` is given), ``moves`` (a tree's text or a
    plain list), and who resigned."""
    values = state.settings()
    header = f"[{HEADER} {VERSION}] game={state.game}" + "".join(
        f" {s.name}={_value_text(values[s.name])}" for s in entry_settings(state.game))
    lines = [header]
    if setup is not None:
        lines.append(_labelled("setup", " ".join(setup)))
    lines.append(_labelled("moves", moves))
    if resigned is not None:
        lines.append(f"resigned: {SEATS[resigned]}")
    return "\n".join(lines) + "\n"


def _labelled(label: str, text: str) -> str:
    return f"{label}:" + (f" {text}" if text else "")


def _value_text(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)
