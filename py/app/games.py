"""What the app knows about each game beyond its rules: the settings a
player can choose (with defaults and validation), the computer's levels and
their ratings, the board view and the hint. Pure, so it is unit-tested.

Settings are stored per game; every stored value is validated here and a
bad one falls back to its default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import ai
from core import GAMES, GameState
from core.notakto import NotaktoState
from core.hex import OFFERED_SIZES as HEX_SIZES
from core.uttt import UtttState, board_span
from core.y import OFFERED_SIZES as Y_SIZES

from . import views
from .session import COMPUTER, STARTS, TIME_LIMITS, TWO_PLAYER


@dataclass(frozen=True)
class Choice:
    """One setting: its name, the values offered (in order) and the
    catalog key prefix that names each value (``<prefix>.<value>``)."""

    name: str
    values: tuple[Any, ...]
    default: Any
    label: str
    value_labels: str
    # Changing it starts the next game with it; "now" settings (hints)
    # apply at once.
    applies: str = "next"


@dataclass(frozen=True)
class GameSpec:
    game: str
    choices: tuple[Choice, ...]
    level_ratings: dict[str, int]
    make_state: Callable[[dict[str, Any]], GameState]
    view: Callable[..., views.Node]
    # A move in words for screen readers ("board 2, b2").
    describe: Callable[[GameState, int], views.Msg]
    safe_moves: Callable[[GameState], list[int]] | None = None
    # The mark a seat plays ("X", blue), for games where the seats differ.
    seat_mark: Callable[[int], str | views.Msg] | None = None
    # A line under the status: where the side to move may play.
    detail: Callable[[GameState], views.Msg | None] | None = None
    # Settings passed to the view as keyword arguments (display only).
    view_settings: tuple[str, ...] = ()
    # Whether the view takes ``tall`` (the Hex rhombus drawn upright on a
    # narrow portrait screen, where it would be small drawn wide).
    stands_upright: bool = False
    # Outcome reasons under another catalog name (Hex and Y both end by
    # "connection", but say it differently).
    reason_names: dict[str, str] = field(default_factory=dict)

    @property
    def levels(self) -> list[str]:
        return ai.levels(self.game)

    def defaults(self) -> dict[str, Any]:
        return {choice.name: choice.default for choice in self.choices}

    def validate(self, stored: Any) -> dict[str, Any]:
        """Stored settings -> complete valid settings; unknown or bad values
        fall back to their defaults (a damaged value loses only itself)."""
        settings = self.defaults()
        if isinstance(stored, dict):
            for choice in self.choices:
                value = stored.get(choice.name)
                if value in choice.values and type(value) is type(choice.default):
                    settings[choice.name] = value
        return settings

    def rating(self, level: str) -> int | None:
        return self.level_ratings.get(level)


def opponent_values(game: str) -> tuple[str, ...]:
    """The opponent menu: each computer level, then two people."""
    return tuple(f"{COMPUTER}:{level}" for level in ai.levels(game)) + (TWO_PLAYER,)


def split_opponent(value: str) -> tuple[str, str]:
    """``computer:perfect`` -> (COMPUTER, "perfect"); ``two_player`` -> (TWO_PLAYER, "")."""
    kind, _, level = value.partition(":")
    return kind, level


def _notakto_spec() -> GameSpec:
    levels = ai.levels("notakto")
    return GameSpec(
        game="notakto",
        choices=(
            Choice("opponent", opponent_values("notakto"), f"{COMPUTER}:{levels[1]}", "settings.opponent", "opponent.notakto"),
            Choice("boards", tuple(range(1, 7)), 3, "settings.boards", "boards"),
            Choice("starts", STARTS, "alternate", "settings.starts", "starts"),
            Choice("hints", (False, True), False, "settings.hints", "hints", applies="now"),
        ),
        # Fixed Elo-style ratings the player's rating is measured against.
        level_ratings=dict(zip(levels, (800, 1100, 1400, 1800))),
        make_state=lambda settings: NotaktoState.from_settings({"boards": settings["boards"]}),
        view=views.notakto_board,
        describe=views.notakto_move,
        # The engine is imported on the first hint, not at start-up (ai/__init__.py).
        safe_moves=lambda state: ai.engine("notakto").safe_moves(state),
    )


def uttt_target(state: GameState) -> views.Msg:
    """Where the side to move may play: the forced small board, or any."""
    assert isinstance(state, UtttState)
    board = state.forced_board
    if board is None:
        return views.Msg("uttt.target.any")
    return views.Msg("uttt.target.one", {"board": board + 1, "span": board_span(board)})


def _uttt_spec() -> GameSpec:
    levels = ai.levels("uttt")
    return GameSpec(
        game="uttt",
        choices=(
            Choice("opponent", opponent_values("uttt"), f"{COMPUTER}:{levels[1]}", "settings.opponent", "opponent.uttt"),
            # The seeds' house rule "alternate first move": on by default.
            Choice("starts", STARTS, "alternate", "settings.starts", "starts"),
            Choice("time", TIME_LIMITS, 0, "settings.time", "time_limit"),
        ),
        level_ratings=dict(zip(levels, (800, 1100, 1400, 1700))),
        make_state=lambda settings: UtttState.from_settings({}),
        view=views.uttt_board,
        describe=views.uttt_move,
        seat_mark=lambda seat: "XO"[seat],
        detail=uttt_target,
    )


def _connection_spec(game: str, sizes: tuple[int, ...], default_size: int) -> GameSpec:
    levels = ai.levels(game)
    state_type = GAMES[game]
    return GameSpec(
        game=game,
        choices=(
            Choice("opponent", opponent_values(game), f"{COMPUTER}:{levels[1]}", "settings.opponent", f"opponent.{game}"),
            Choice("size", sizes, default_size, "settings.size", f"size.{game}"),
            Choice("swap", (True, False), True, "settings.swap", "swap"),
            Choice("starts", STARTS, "alternate", "settings.starts", "starts"),
            Choice("time", TIME_LIMITS, 0, "settings.time", "time_limit"),
            Choice("coordinates", (False, True), False, "settings.coordinates", "coordinates", applies="now"),
        ),
        level_ratings=dict(zip(levels, (800, 1100, 1400, 1700))),
        make_state=lambda settings: state_type.from_settings({"size": settings["size"], "swap": settings["swap"]}),
        view=views.connection_board,
        describe=views.connection_move,
        seat_mark=lambda seat: views.Msg(("mark.blue", "mark.green")[seat]),
        view_settings=("coordinates",),
        stands_upright=game == "hex",
        reason_names={"connection": f"connection_{game}"},
    )


SPECS: dict[str, GameSpec] = {
    "notakto": _notakto_spec(),
    "uttt": _uttt_spec(),
    "hex": _connection_spec("hex", HEX_SIZES, 11),
    "y": _connection_spec("y", Y_SIZES, 13),
}

assert set(SPECS) <= set(GAMES)
