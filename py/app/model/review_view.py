"""What the review part of a game's screen shows (review.py): the move
list, the review bar and the past games list. Plain data for the renderer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import transfer
from .archive import PastGame
from .games import GameSpec
from .play_view import Button, mover_mark, option_label
from .review import LINK, LIVE, PAST, PAST_PAGE
from .screen import GameScreen
from .session import TWO_PLAYER
from .words import Msg


@dataclass(frozen=True)
class MoveEntry:
    """One move of the list: a button that shows the position after it."""

    ply: int  # moves from the start, this one included
    number: str  # "1." (each stone, each mark is numbered: as Hex, Y and the tic-tac-toe games count)
    mark: str | Msg  # who played it: "X", black, "Player 1"
    text: str  # "f6", "swap"
    current: bool  # marked: the board shows the position after it, and it is not the live one
    shown: bool  # the board shows the position after it (the list keeps it in view)
    swap: bool
    judgement: str | None = None  # the analysis': "mistake", "blunder"
    better: str | None = None  # with a judgement: the engine's move instead


@dataclass(frozen=True)
class ReviewView:
    """The review bar: where in the shown game the board is, the steps, and
    the way back to the game being played (or on from a reviewed one)."""

    origin: str  # screen.LIVE, PAST, LINK, IMPORT
    ply: int
    total: int
    reviewing: bool  # another position than the live one is on screen
    label: Msg  # "Move 12 of 31"
    first: Button
    prev: Button
    next: Button
    last: Button
    live: Button  # back to the game being played
    live_words: Msg  # what that button says (back_words)
    continue_here: Button  # play on from here (a reviewed game)
    past_id: str | None  # the past game on screen (marked in the list)
    #: The page's address: a shared game's link while it is on screen (a
    #: reload shows it again, the address bar gives it), else the game's route.
    address: str


def move_entries(screen: GameScreen) -> tuple[MoveEntry, ...]:
    session = screen.shown
    state = session.state
    shown = screen.shown_ply()
    swap = getattr(state, "swap_move", None)
    movers = session.movers()
    analysis = screen.insight.shown_analysis()
    judged = analysis.judgements(movers) if analysis is not None else {}
    return tuple(
        MoveEntry(ply, f"{ply}.", mover_mark(screen.spec, session, seat, screen.settings), text,
                  ply == shown and screen.reviewing, ply == shown,
                  move == swap, judged.get(ply),
                  analysis.better_move(ply) if analysis is not None and ply in judged else None)
        for ply, (seat, move, text) in enumerate(zip(movers, state.moves, state.move_texts()), start=1)
    )


def review(screen: GameScreen) -> ReviewView:
    total = len(screen.shown.state.moves)
    ply = screen.shown_ply()
    origin = screen.origin
    label = Msg("review.position", {"ply": ply, "total": total}) if ply else Msg("review.start", {"total": total})
    continuing = origin != LIVE and not screen.shown_state().is_over()
    return ReviewView(
        origin=origin, ply=ply, total=total, reviewing=screen.reviewing, label=label,
        first=Button(enabled=ply > 0), prev=Button(enabled=ply > 0),
        next=Button(enabled=ply < total), last=Button(enabled=ply < total or (origin == LIVE and screen.reviewing)),
        live=Button(shown=screen.reviewing), live_words=back_words(screen), continue_here=Button(shown=continuing),
        past_id=screen.shown.game_id if origin == PAST else None,
        address=(transfer.share_fragment(screen.game, screen.review.share_payload()) if origin == LINK
                 else f"#/{screen.game}"),
    )


def back_words(screen: GameScreen) -> Msg:
    """The way back to the game being played, as it fits: to the game that
    waits, or to the end of a finished one looked back at; from another
    game (a past one, a link's, an import's) to the player's own game,
    finished or not, or for a player who has none yet (a visitor who
    opened a link) to a game of their own."""
    own = screen.session
    if screen.origin == LIVE:
        return Msg("review.live_over" if own.is_over() else "review.live")
    if own.is_over():
        return Msg("review.close_over")
    return Msg("review.close_new" if own.untouched() else "review.close")


@dataclass(frozen=True)
class PastGameView:
    """One entry of the past games: when, against whom, how it ended."""

    id: str
    ended_ms: int
    duration_ms: int
    result: Msg
    opponent: Msg
    variant: Msg | None  # the rules' settings in words ("9 × 9, swap"), None when there are none
    plies: int
    open: bool  # the one on screen


@dataclass(frozen=True)
class PastGamesView:
    """The past games list as shown: a page of rows and how many more there are."""

    rows: tuple[PastGameView, ...]  # the newest, as many as the list shows
    more: int  # how many older ones there are besides
    next_page: int  # how many of them "show more" reveals


def past_winner(spec: GameSpec, past: PastGame, settings: dict[str, Any]) -> Msg:
    """Who won a past game between two people: the player, with the colour
    or mark they played (as the result said it)."""
    assert past.winner is not None
    player = Msg("player.numbered", {"number": 1 if past.winner == past.home_seat else 2})
    mark = spec.mark(past.winner, settings)
    return Msg("past.player_won_mark", {"player": player, "mark": mark}) if mark else Msg("past.player_won", {"player": player})


def past_games(screen: GameScreen) -> PastGamesView:
    """The past games list, newest first, a page at a time."""
    spec = screen.spec
    shown = screen.shown.game_id if screen.origin == PAST else None
    every = screen.review.past_games()
    rows = []
    for past in every[:screen.review.past_listed]:
        if past.opponent == TWO_PLAYER:
            result_msg = Msg("result.draw") if past.winner is None else past_winner(spec, past, screen.settings)
            opponent = Msg("opponent.two_player")
        else:
            result_msg = Msg("past.draw" if past.winner is None else "past.won" if past.winner == past.home_seat else "past.lost")
            opponent = Msg(f"level.{spec.game}.{past.level}")
        words = [option_label(spec, name, value, past.opponent) for name, value in sorted(past.settings.items())
                 if any(c.name == name for c in spec.choices)]
        variant = None if not words else words[0] if len(words) == 1 else Msg("past.variant", {"first": words[0], "second": words[1]})
        rows.append(PastGameView(past.id, past.ended_ms, past.duration_ms, result_msg, opponent, variant, past.plies,
                                 past.id == shown))
    more = max(0, len(every) - screen.review.past_listed)
    return PastGamesView(tuple(rows), more, min(more, PAST_PAGE))
