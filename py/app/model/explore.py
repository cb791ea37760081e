"""The analysis board's model: a starting position, the tree of moves
tried from it (``variations.Tree``), the node on screen, and the engine
thinking beside it.

Pure, like the screen's other parts: the page draws it and forwards the
player's events. Nothing here touches the game being played, the
statistics or the past game it was opened from: it holds its own copy of
the starting position, and its tree is its own.

The engine is asked about the position on screen only, one slice at a
time (``request``: at most ``SLICE`` seconds, the worker's ``explore``);
asking again about the same position thinks on in the same tree, up to
``THINK_LIMIT`` seconds in all (infinite analysis, as long as the board is
left on that position). Each request carries the key of its position
(``position_key``); ``answer`` keeps a reply only if its key is the
position on screen, so a move played or a step taken meanwhile drops it.
With AutoPlay on, each answer plays the engine's best move, for whichever
side is to move, once it has thought ``AUTOPLAY_THINK`` seconds on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core import GameError, GameState

from .records import ExploreRecord, read_explore
from .replay import TransferError
from .variations import Path, Tree, VariationError, check, from_text, state_at, to_text

#: The longest the engine thinks at a time (the worker's ``EXPLORE_SLICE``
#: is the most it accepts).
SLICE = 1.0
#: How long it thinks on a new position before the first answer: the
#: first lines show soon, and later slices refine them.
FIRST_SLICE = 0.25
#: How long, in all, it thinks on one position while the board stays there.
THINK_LIMIT = 120.0
#: How long AutoPlay lets it think before it plays its best move.
AUTOPLAY_THINK = 1.0
#: The keys that move through the tree.
KEYS = ("left", "right", "up", "down", "home", "end")


@dataclass(frozen=True)
class Request:
    """What to ask the engine: the position (its key, to check the answer
    against) and the seconds to think."""

    key: tuple[Any, ...]
    state: GameState
    seconds: float


@dataclass
class Thinking:
    """The engine's latest answer about the position on screen, and the
    seconds it has thought on it so far."""

    key: tuple[Any, ...]
    reply: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


class Exploration:
    """One analysis board. ``start`` is the position the tree starts from
    (copied: the caller's is never touched); ``setup`` says its moves are a
    set-up position's (``setup.build``), not a game's history; ``tree`` a
    tree read from a record or a link (checked against ``start``)."""

    def __init__(self, start: GameState, tree: Tree | None = None, setup: bool = False) -> None:
        self.start = start.copy()
        self.tree = tree if tree is not None else Tree()
        check(self.tree, self.start)
        self.setup = setup
        self.cursor: Path = ()
        self.engine_on = False
        self.heat_on = False
        self.autoplay = False
        self.thinking: Thinking | None = None
        #: The past game's id this board is kept with (``archive``), or None.
        self.home: str | None = None

    @classmethod
    def of_game(cls, game: GameState, ply: int, kept: Any = None, home: str | None = None) -> Exploration:
        """An analysis board of ``game`` (not touched): its moves the main
        line from the empty board, the position after ``ply`` of them on
        screen. ``kept``: the board kept with the game before (an
        exploration link's payload), its variations back, unless it is
        damaged or not of this game; ``home``: the past game's id it is
        kept with from now on."""
        moves = game.move_texts()
        board = None
        if isinstance(kept, str):
            try:
                board = cls.of_record(read_explore(game.game, kept))
            except (GameError, TransferError):
                board = None
        if board is None or board.start.moves or not _holds(board.tree, moves):
            tree, path = Tree(), Path()
            for move in moves:
                path = tree.play(path, move)
            board = cls(game.sketch({}), tree)
        board.go(board.tree.path_of(moves[:ply]))
        board.home = home
        return board

    # -- what is on screen ---------------------------------------------------------------
    @property
    def game(self) -> str:
        return self.start.game

    def state(self) -> GameState:
        """The position on screen (a new copy each time)."""
        return state_at(self.tree, self.start, self.cursor)

    def position_key(self) -> tuple[Any, ...]:
        """The position on screen as an engine request names it: the game,
        its settings, every move from the game's start."""
        state = self.state()
        return state.game, tuple(sorted(state.settings().items())), tuple(state.moves)

    def moves(self) -> list[str]:
        """The moves from the tree's start to the node on screen."""
        return self.tree.moves(self.cursor)

    def lines(self) -> list[dict[str, Any]]:
        """The engine's candidate moves for the position on screen (none
        until it has answered about this one)."""
        thinking = self.thinking
        return list(thinking.reply.get("lines", [])) if thinking and thinking.key == self.position_key() else []

    def heat(self) -> dict[str, int | None]:
        """Each legal move's heat (0-100), when the heat map is on and the
        engine has answered about the position on screen."""
        thinking = self.thinking
        if not self.heat_on or thinking is None or thinking.key != self.position_key():
            return {}
        return dict(thinking.reply.get("heat", {}))

    # -- the player's commands ---------------------------------------------------------------
    def play(self, text: str) -> None:
        """The move ``text`` from the position on screen: along the tree if
        it was tried there already, a new variation if not. GameError for
        a move the rules refuse (nothing changes)."""
        state = self.state()
        move = state.parse_move(text)
        if not state.is_legal(move):
            state.play(move)  # raises the rules' reason
        self.cursor = self.tree.play(self.cursor, state.move_to_text(move))

    def key(self, name: str) -> None:
        """← → ↑ ↓ Home End: back, on along the line, the previous or next
        move tried at this point, the start, the end of the line."""
        if name not in KEYS:
            raise ValueError(f"no key {name!r}")
        tree, cursor = self.tree, self.cursor
        self.cursor = {
            "left": lambda: tree.back(cursor),
            "right": lambda: tree.forward(cursor),
            "up": lambda: tree.sibling(cursor, -1),
            "down": lambda: tree.sibling(cursor, 1),
            "home": lambda: (),
            "end": lambda: tree.main_line(cursor),
        }[name]()

    def go(self, path: Path) -> None:
        """The node at ``path`` (a click in the move list)."""
        self.tree.node(path)  # VariationError if there is none
        self.cursor = path

    def promote(self, path: Path | None = None) -> None:
        """The variation of the node at ``path`` (the one on screen if
        none) one place nearer the main line; the cursor stays on its node."""
        moves = self.moves()
        self.tree.promote(self.cursor if path is None else path)
        self.cursor = self.tree.path_of(moves)  # reordering moves nodes, never their moves

    def make_main_line(self, path: Path | None = None) -> None:
        """The line of the node at ``path`` (the one on screen if none) the
        main line of the whole tree; the cursor stays on its node."""
        moves = self.moves()
        self.tree.make_main_line(self.cursor if path is None else path)
        self.cursor = self.tree.path_of(moves)  # reordering moves nodes, never their moves

    def delete(self, path: Path | None = None) -> None:
        """The node at ``path`` (the one on screen if none) and all after
        it out of the tree; the cursor goes to the move before it if it was
        there."""
        target = self.cursor if path is None else path
        self.tree.delete(target)
        self.cursor = self.tree.after_delete(self.cursor, target)

    def toggle_engine(self) -> None:
        self.engine_on = not self.engine_on
        if not self.engine_on:
            self.autoplay = False

    def toggle_heat(self) -> None:
        self.heat_on = not self.heat_on
        if self.heat_on:
            self.engine_on = True

    def toggle_autoplay(self) -> None:
        self.autoplay = not self.autoplay
        if self.autoplay:
            self.engine_on = True

    def play_best(self) -> bool:
        """The engine's best move in the position on screen, if it has
        answered about it; whether a move was played."""
        lines = self.lines()
        if not lines:
            return False
        self.play(lines[0]["move"])
        return True

    # -- the engine -------------------------------------------------------------------------
    def request(self) -> Request | None:
        """What to ask the engine next, or None: it is off, the game on
        screen is over, or it has thought ``THINK_LIMIT`` on this position
        (or solved it: every line it gives is proven). With AutoPlay on, a
        position it has thought enough on gets its best move first."""
        if not self.engine_on:
            return None
        if self.autoplay and self._thought() >= AUTOPLAY_THINK - 1e-9:
            self.play_best()
        state = self.state()
        if state.is_over():
            self.autoplay = False
            return None
        thought = self._thought()
        if thought >= THINK_LIMIT:
            return None
        seconds = min(SLICE if thought else FIRST_SLICE, THINK_LIMIT - thought)
        if self.autoplay:
            seconds = min(seconds, max(0.1, AUTOPLAY_THINK - thought))
        return Request(self.position_key(), state, seconds)

    def _thought(self) -> float:
        """How long the engine has thought on the position on screen."""
        thinking = self.thinking
        return thinking.seconds if thinking is not None and thinking.key == self.position_key() else 0.0

    def answer(self, request: Request, reply: dict[str, Any]) -> bool:
        """The engine's reply to ``request``: kept if its position is still
        the one on screen (and no error), else dropped. With AutoPlay on and
        enough thought, its best move is played. Whether it was kept."""
        if request.key != self.position_key() or "error" in reply:
            return False
        thought = self._thought() + request.seconds
        lines = reply.get("lines", [])
        if lines and all(line.get("proof") is not None for line in lines):
            thought = max(thought, THINK_LIMIT)  # its best moves proven: no more to ask
        self.thinking = Thinking(request.key, reply, thought)
        if self.autoplay and thought >= AUTOPLAY_THINK - 1e-9:
            self.play_best()
        return True

    # -- records ------------------------------------------------------------------------------
    @classmethod
    def of_record(cls, record: ExploreRecord) -> Exploration:
        """The analysis board of a record read back (``records.ExploreRecord``),
        at its node on screen."""
        board = cls(record.start, record.tree, record.setup)
        board.go(record.cursor)
        return board

    def to_text(self) -> str:
        """The tree as text (``variations.to_text``)."""
        return to_text(self.tree)

    @classmethod
    def from_text(cls, start: GameState, text: str, setup: bool = False) -> Exploration:
        """An analysis board from a tree's text, checked against ``start``
        (VariationError, a GameError, naming what is wrong)."""
        return cls(start, from_text(text), setup)


def _holds(tree: Tree, moves: list[str]) -> bool:
    """Whether the tree has the line ``moves`` from its start."""
    try:
        tree.path_of(moves)
    except VariationError:
        return False
    return True
