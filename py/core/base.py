"""The one protocol every game's rules engine follows.

Moves are ints inside an engine; text notation exists only at the edges
(saves, GTP, the UI, tests). ``play`` is the checked entry point for anything
that comes from outside and raises a ``ValueError`` subclass naming both the
input and the position; ``push`` is the unchecked fast path for search.
Game end is data (``Outcome``), never text: the UI turns it into words.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

FIRST, SECOND = 0, 1
SAVE_VERSION = 1

S = TypeVar("S", bound="GameState")


class GameError(ValueError):
    """Base of every error the core raises on bad input."""


class IllegalMoveError(GameError):
    """A move that is not legal in the current position."""

    def __init__(self, move_text: str, position: str, why: str) -> None:
        super().__init__(f"illegal move {move_text!r} in {position}: {why}")
        self.move_text = move_text
        self.position = position
        self.why = why


class NotationError(GameError):
    """Text that does not name a move of this game."""

    def __init__(self, text: str, game: str, expected: str) -> None:
        super().__init__(f"{text!r} is not a {game} move (expected {expected})")
        self.text = text


class SaveError(GameError):
    """A saved game that is damaged, foreign or from a future version."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winner`` is FIRST, SECOND or None for a draw;
    ``reason`` is a stable identifier the UI translates."""

    winner: int | None
    reason: str


class GameState:
    """Common interface; each game module subclasses it.

    Subclasses implement: ``turn``, ``legal_moves``, ``push``, ``pop``,
    ``copy``, ``outcome``, ``move_to_text``, ``parse_move``, ``settings``,
    ``_why_illegal`` and ``from_settings``.
    """

    game: ClassVar[str] = ""
    moves: list[int]

    # -- to be provided by each game ---------------------------------------
    @property
    def turn(self) -> int:  # pragma: no cover - abstract
        """FIRST or SECOND: the side to move."""
        raise NotImplementedError

    def legal_moves(self) -> list[int]:  # pragma: no cover - abstract
        """Every legal move, sorted ascending; empty once the game is over."""
        raise NotImplementedError

    def push(self, move: int) -> None:  # pragma: no cover - abstract
        """Play ``move`` without any check (search's fast path)."""
        raise NotImplementedError

    def pop(self) -> int:  # pragma: no cover - abstract
        """Take back the last move and return it."""
        raise NotImplementedError

    def copy(self: S) -> S:  # pragma: no cover - abstract
        raise NotImplementedError

    def sketch(self: S, cells: dict[int, int], forced: int | None = None) -> S:  # pragma: no cover - abstract
        """This board emptied, with the stones or marks ``cells`` (cell:
        owner) on it, to draw a position being set up by hand: no game."""
        raise NotImplementedError

    def outcome(self) -> Outcome | None:  # pragma: no cover - abstract
        """The result once the game is over, else None."""
        raise NotImplementedError

    def move_to_text(self, move: int) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def parse_move(self, text: str) -> int:  # pragma: no cover - abstract
        """Text -> move; raises NotationError for text that names no move."""
        raise NotImplementedError

    def settings(self) -> dict[str, Any]:  # pragma: no cover - abstract
        """The settings that, with the move list, rebuild this game."""
        raise NotImplementedError

    @classmethod
    def from_settings(cls: type[S], settings: dict[str, Any]) -> S:  # pragma: no cover
        """A new game from ``settings`` (validated; SaveError if bad)."""
        raise NotImplementedError

    def _why_illegal(self, move: int) -> str | None:  # pragma: no cover - abstract
        """None when ``move`` is legal, else a short reason."""
        raise NotImplementedError

    def position_text(self) -> str:
        """A one-line description of the position for error messages."""
        return f"{self.game} after [{' '.join(self.move_texts())}]"

    # -- shared behaviour ----------------------------------------------------
    def is_over(self) -> bool:
        return self.outcome() is not None

    def play(self, move: int | str) -> int:
        """Checked play of a move (int or text). Raises IllegalMoveError or
        NotationError and leaves the state unchanged on failure."""
        if isinstance(move, str):
            text = move
            move = self.parse_move(move)
        else:
            text = self._safe_text(move)
        why = "the game is over" if self.is_over() else self._why_illegal(move)
        if why is not None:
            raise IllegalMoveError(text, self.position_text(), why)
        self.push(move)
        return move

    def _safe_text(self, move: int) -> str:
        try:
            return self.move_to_text(move)
        except Exception:  # noqa: BLE001 - any bad int is reported as itself
            return str(move)

    def is_legal(self, move: int) -> bool:
        return not self.is_over() and self._why_illegal(move) is None

    def move_texts(self) -> list[str]:
        """The move list in notation (replaying from the start)."""
        replay = self.from_settings(self.settings())
        texts = []
        for move in self.moves:
            texts.append(replay.move_to_text(move))
            replay.push(move)
        return texts

    def to_dict(self) -> dict[str, Any]:
        """A plain JSON-ready save: game, settings, moves, schema version."""
        return {
            "version": SAVE_VERSION,
            "game": self.game,
            "settings": self.settings(),
            "moves": self.move_texts(),
        }

    @classmethod
    def from_dict(cls: type[S], data: Any) -> S:
        """Rebuild from ``to_dict`` output, replaying every move through the
        checked path, so a damaged save raises SaveError instead of being
        trusted."""
        if not isinstance(data, dict):
            raise SaveError(f"a {cls.game} save must be an object, not {type(data).__name__}")
        version = data.get("version")
        if version != SAVE_VERSION:
            raise SaveError(f"unsupported save version {version!r}")
        if data.get("game") != cls.game:
            raise SaveError(f"save is for {data.get('game')!r}, not {cls.game!r}")
        moves = data.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise SaveError("save has no valid move list")
        settings = data.get("settings")
        if not isinstance(settings, dict):
            raise SaveError("save has no settings")
        state = cls.from_settings(settings)
        return state.replay(moves)

    def replay(self: S, texts: Iterable[str]) -> S:
        for index, text in enumerate(texts):
            try:
                self.play(text)
            except GameError as error:
                raise SaveError(f"move {index + 1} of the save: {error}") from error
        return self


def perft(state: GameState, depth: int) -> int:
    """Move sequences exactly ``depth`` plies long (as in chess, a game that
    ends sooner adds none). Move-count suites pin each move generator."""
    if depth == 0:
        return 1
    total = 0
    for move in state.legal_moves():
        state.push(move)
        total += perft(state, depth - 1)
        state.pop()
    return total
