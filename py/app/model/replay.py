"""What every format of games in and out shares (transfer.py, sgf.py,
records.py): the error a player is shown, the game read back, the limit
on what is read, the links' check, and the checked replay of settings and
moves. Nothing here touches the browser."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from core.base import GameError, GameState, IllegalMoveError
from registry import GAMES, Setting

from .words import Msg

KINDS = ("empty", "too_long", "format", "version", "unknown_game", "bad_settings", "setup",
         "notation", "illegal_move", "after_end", "truncated", "damaged",
         # the analysis board's records (records.py, hex_import.py)
         "analysis_only", "illegal_variation", "remote_game")
SWITCH = {"on": True, "off": False}
#: The most characters any record or link is read from.
MAX_CHARS = 100_000
#: A link's check: this many base-36 digits.
CHECK_DIGITS = 6


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


def limited(text: str) -> str:
    """``text`` if there is something to read and not too much of it."""
    if not isinstance(text, str) or not text.strip():
        raise TransferError("empty")
    if len(text) > MAX_CHARS:
        raise TransferError("too_long", limit=MAX_CHARS)
    return text


def checksum(game: str, body: str) -> str:
    """A link's check of ``body`` on ``game``'s route: CRC32 of
    ``"<game>:<body>"``, its low 31 bits in ``CHECK_DIGITS`` base-36 digits."""
    number = zlib.crc32(f"{game}:{body}".encode()) & 0x7FFFFFFF
    digits = ""
    for _ in range(CHECK_DIGITS):
        number, digit = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
    return digits


def checked_body(game: str, payload: str) -> str:
    """What a link payload (``body "~" check``) carries, once its check
    holds: ``truncated`` if it was cut (the check or part of it lost),
    ``damaged`` if it was edited or moved to another game's route."""
    body, tilde, check = limited(payload).strip().rpartition("~")
    if not tilde or len(check) < CHECK_DIGITS:
        raise TransferError("truncated")
    if check != checksum(game, body):
        raise TransferError("damaged")
    return body


def entry_settings(game: str) -> tuple[Setting, ...]:
    if game not in GAMES:
        raise TransferError("unknown_game", name=game)
    return GAMES[game].settings


def new_state(game: str, values: dict[str, str], switches: dict[str, bool]) -> GameState:
    """A new game from setting texts (every setting named exactly once)."""
    settings = entry_settings(game)
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


def play_checked(state: GameState, text: str, shown: str = "", number: int | None = None) -> None:
    """Play move ``text`` checked; errors name the move's number (its place
    in the game, or ``number``) and its text as the input has it (``shown``,
    if that differs)."""
    params = {"move": number or len(state.moves) + 1, "text": shown or text}
    try:
        state.play(text)
    except IllegalMoveError as error:
        raise TransferError("after_end" if state.is_over() else "illegal_move", error.why, **params) from None
    except GameError as error:
        raise TransferError("notation", str(error), **params) from None


def resign_checked(state: GameState, seat: int | None, text: str) -> int | None:
    if seat is not None and state.is_over():
        raise TransferError("after_end", "a resignation after the end", move=len(state.moves) + 1, text=text)
    return seat


def check_resigned(state: GameState, resigned: int | None) -> None:
    if resigned not in (None, 0, 1) or (resigned is not None and state.is_over()):
        raise ValueError(f"cannot record resigned={resigned!r} for this game")
