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
blank lines, CRLF, extra spaces and the case of moves, nothing else; a
record with variations imports as its main line, one with a ``setup:``
line is refused (``analysis_only``: it opens on the analysis board,
records.py). line_format.py reads and writes these lines.

Hex's SGF is read and written by sgf.py; the errors and the checked
replay every format shares are in replay.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from core.base import GameError, GameState
from core.hex import HexState

from .line_format import looks_like, main_line, read_lines, record_text
from .replay import (
    MAX_CHARS,
    TransferError,
    Transferred,
    check_resigned,
    checked_body,
    checksum as _checksum,
    entry_settings,
    limited as _limited,
    new_state,
    play_checked,
    resign_checked,
)
from .sgf import read_sgf, sgf_text

__all__ = ["MAX_CHARS", "SHARE_PARAM", "TransferError", "Transferred", "export_filename", "export_text",
           "import_text", "read_share", "share_fragment", "share_payload"]

VERSION = "1"
SHARE_PARAM = "g"  # the route's parameter that holds a shared game
_BODY_RE = re.compile(r"[0-9a-z.-]*")
_LINK_RE = re.compile(r"#/(\w+)\?g=([0-9A-Za-z._~-]*)")


# -- share links ---------------------------------------------------------------------

def share_payload(state: GameState, resigned: int | None = None) -> str:
    """The game as a link payload (grammar in the module doc)."""
    check_resigned(state, resigned)
    values = [str(int(state.settings()[setting.name])) for setting in entry_settings(state.game)]
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
    settings = entry_settings(game)
    body = checked_body(game, payload)
    fields = body.split(".")
    if fields[0] != VERSION:
        raise TransferError("version") if fields[0].isdigit() else TransferError("format", line=1, column=1)
    if not _BODY_RE.fullmatch(body) or len(fields) not in (3, 4):
        raise TransferError("format", line=1, column=len(".".join(fields[:3])) + 1)
    values = fields[1].split("-") if fields[1] else []
    if len(values) != len(settings):
        raise TransferError("bad_settings", setting=fields[1])
    state = new_state(game, {s.name: v for s, v in zip(settings, values)}, {"1": True, "0": False})
    for move in _move_tokens(state, fields[2]):
        play_checked(state, move)
    resigned = None
    if len(fields) == 4:
        if fields[3] not in ("r0", "r1"):
            raise TransferError("format", line=1, column=len(body) - len(fields[3]) + 1)
        resigned = resign_checked(state, int(fields[3][1]), fields[3])
    return Transferred(game, state, resigned)


# -- export --------------------------------------------------------------------------

def export_text(state: GameState, resigned: int | None = None) -> str:
    """The game as text: SGF for Hex, the line format for the others."""
    check_resigned(state, resigned)
    if isinstance(state, HexState):
        return sgf_text(state, resigned)
    return record_text(state, " ".join(state.move_texts()), resigned=resigned)


def export_filename(state: GameState) -> str:
    """A file name for the export: ``hex-11x11.sgf``, ``y-13.txt``..."""
    values = state.settings()
    if isinstance(state, HexState):
        return f"hex-{state.size}x{state.size}.sgf"
    sizes = [str(values[s.name]) for s in entry_settings(state.game) if not isinstance(s.default, bool)]
    return "-".join([state.game, *sizes]) + ".txt"


# -- import --------------------------------------------------------------------------

def import_text(text: str) -> Transferred:
    """A game from pasted or loaded text: SGF (it starts with ``(``), the
    line format (``[abstract-games 1] ...``) or a share link."""
    clean = _limited(text).lstrip("\ufeff \t\r\n")
    if clean.startswith("("):
        return read_sgf(clean)
    if looks_like(clean):
        return _read_lines(clean)
    link = share_link(clean)
    if link:
        return read_share(*link)
    raise TransferError("format", line=1, column=1)


def share_link(text: str) -> tuple[str, str] | None:
    """The game and payload of a share link, if ``text`` (stripped) is one,
    whole or as its fragment."""
    link = _LINK_RE.search(text)
    return (link[1], link[2]) if link and len(text.split()) == 1 else None


def _read_lines(text: str) -> Transferred:
    """A game in the line format: its ``moves:`` line's main line (a record
    with variations reads as the game it explores). A set-up position is
    no game: ``analysis_only``."""
    record = read_lines(text)
    if record.setup is not None:
        raise TransferError("analysis_only", line=record.setup.line)
    state = record.state
    for move in main_line(record.moves):
        play_checked(state, move)
    resigned = None
    if record.resigned is not None:
        resigned = resign_checked(state, *record.resigned)
    return Transferred(record.game, state, resigned)
