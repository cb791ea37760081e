"""Review: looking through a game move by move, the game being played or
another one (a past game of this browser, a shared link's, an imported
text's), and the past games list. A part of the screen's model (screen.py),
which returns to the game being played (and plays the computer's answer
that came meanwhile)."""

from __future__ import annotations

from dataclasses import dataclass

from core import GameState
from core.base import FIRST

from . import transfer
from .archive import PastGame
from .change import Change
from .parts import ARCHIVE, PLAY, Part
from .play import Play
from .session import TWO_PLAYER, GameSession, Mode

# Where a game under review comes from: the game being played, the past
# games of this browser, a shared link, pasted or loaded text.
LIVE, PAST, LINK, IMPORT = "live", "past", "link", "import"
# The past games listed at first, and how many more each "show more" adds.
PAST_PAGE = 20


@dataclass(frozen=True)
class Reviewed:
    """A game on screen for review that is not the one being played (a past
    game, a link's, an import's), with where it came from."""

    session: GameSession
    origin: str  # PAST, LINK or IMPORT


class Review:
    """The game and the position on screen."""

    def __init__(self, play: Play) -> None:
        self.play = play
        #: The game shown if not the one being played, and the position
        #: shown (moves from the start; None: the game's end, or the live
        #: position of the game being played).
        self.reviewed: Reviewed | None = None
        self.cursor: int | None = None
        #: How many past games the list shows (the newest first).
        self.past_listed = PAST_PAGE

    @property
    def reviewing(self) -> bool:
        """Another position than the live game's is on screen."""
        return self.reviewed is not None or self.cursor is not None

    @property
    def shown(self) -> GameSession:
        """The game on screen: the one reviewed, else the one being played."""
        return self.reviewed.session if self.reviewed is not None else self.play.session

    @property
    def origin(self) -> str:
        return LIVE if self.reviewed is None else self.reviewed.origin

    def archived_id(self) -> str | None:
        """The past game's id under which what belongs to the shown game is
        kept (its analysis, its analysis board): a finished live game is a
        past game too. None for a link's or an import's game."""
        if self.reviewed is None or self.reviewed.origin == PAST:
            return self.shown.game_id
        return None

    def shown_ply(self) -> int:
        """How many moves of the shown game the board shows."""
        total = len(self.shown.state.moves)
        return total if self.cursor is None else self.cursor

    def shown_state(self) -> GameState:
        """The position on screen (a replay up to the cursor)."""
        state = self.shown.state
        if self.cursor is None or self.cursor == len(state.moves):
            return state
        replay = state.from_settings(state.settings())
        for move in state.moves[:self.cursor]:
            replay.push(move)
        return replay

    def target(self, ply: int) -> int | None:
        """Where a step to ``ply`` goes (kept within the game), or None when
        it changes nothing."""
        total = len(self.shown.state.moves)
        ply = max(0, min(total, ply))
        if ply == self.shown_ply() and (self.reviewing or ply == total):
            return None
        return ply

    def is_live_end(self, ply: int) -> bool:
        """The end of the game being played: being back in it."""
        return ply == len(self.shown.state.moves) and self.reviewed is None

    def show(self, ply: int) -> Change:
        self.cursor = ply
        return Change(PLAY | {Part.TOGGLES})

    def open(self, session: GameSession, origin: str) -> Change:
        """Show a game at its last move (``origin``: PAST, LINK or IMPORT)."""
        self.reviewed = Reviewed(session, origin)
        self.cursor = None
        return Change(PLAY | {Part.TOGGLES, Part.CONFIRM, Part.SETTINGS})

    def leave(self) -> None:
        self.reviewed = None
        self.cursor = None

    def shows_past(self, game_id: str) -> bool:
        return self.reviewed is not None and self.reviewed.origin == PAST and self.reviewed.session.game_id == game_id

    # -- past games, links and imports -------------------------------------------
    def past_games(self) -> list[PastGame]:
        return self.play.store.archive.entries()

    def list_more_past(self) -> Change:
        self.past_listed += PAST_PAGE
        return Change(ARCHIVE)

    def past_game(self, game_id: str) -> GameSession | None:
        """A past game to review; a damaged one is set aside (the storage's
        notice says so)."""
        return self.play.store.archive.open(game_id, self.play.spec.levels, clock=self.play.clock)

    def transferred(self, game: transfer.Transferred) -> GameSession | None:
        """A game that came by link or as text, as two people's (no
        computer: ``session.mode`` says who played); None for another game's."""
        if game.game != self.play.game:
            return None
        return GameSession(game.state, Mode(TWO_PLAYER, "", FIRST), resigned=game.resigned, clock=self.play.clock)

    def shows_link(self, game: transfer.Transferred) -> bool:
        """The game of this link is on screen, opened by its link."""
        return (self.origin == LINK and game.game == self.play.game
                and transfer.share_payload(game.state, game.resigned) == self.share_payload())

    def share_payload(self) -> str:
        """The shown game as a link's payload (every move, its result)."""
        return transfer.share_payload(self.shown.state, self.shown.resigned)

    def export_text(self) -> str:
        return transfer.export_text(self.shown.state, self.shown.resigned)
