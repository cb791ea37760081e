"""What the app makes of each game's entry in py/registry.py: the settings
a player can choose (with defaults and validation), the computer's levels
and their ratings, the board view and the hint. Pure, so it is unit-tested.

Settings are stored per game; every stored value is validated here and a
bad one falls back to its default. Besides the rules' own settings (the
registry's), every game has an opponent and "who starts", and the ones
whose entry says so a time per move and hints; coordinates for every board.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ai
import registry
from core import GameState

from .. import views
from .session import COMPUTER, STARTS, TIME_LIMITS, TWO_PLAYER, GameSession


@dataclass(frozen=True)
class Choice:
    """One setting: its name, the values offered (in order), its default,
    the catalog key of its label and the catalog's name for its values
    (``<value_labels>.<value>``, or for a size the message
    ``<value_labels>`` with the size filled in; see ``registry.Setting``)."""

    name: str
    values: tuple[Any, ...]
    default: Any
    label: str
    value_labels: str
    # Changing it starts the next game with it; "now" settings (hints)
    # apply at once.
    applies: str = "next"

    @property
    def is_menu(self) -> bool:
        """Whether the settings form offers it as a menu: every setting of
        the next game, and a display setting of more than on and off (the
        board's orientation); the other display settings are check boxes
        beside the board."""
        return self.applies == "next" or self.values != (False, True)


@dataclass(frozen=True)
class GameSpec:
    """What the app needs to know of a game: its choices, rules, views and engine hooks."""

    game: str
    choices: tuple[Choice, ...]
    level_ratings: dict[str, int]
    make_state: Callable[[dict[str, Any]], GameState]
    view: Callable[..., views.Node]
    # A move in words for screen readers ("board 2, b2").
    describe: Callable[[GameState, int], views.Msg]
    # What the game list's card draws of a position (saves.board_preview).
    card: Callable[[GameState], views.Card]
    safe_moves: Callable[[GameState], list[int]] | None = None
    # The mark a seat plays ("X", blue), for games where the seats differ,
    # with the settings (the colours' names follow the red/blue setting).
    seat_mark: Callable[[int, dict[str, Any]], str | views.Msg] | None = None
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
    def entry(self) -> registry.Game:
        """The game's registry entry, which this spec is made from."""
        return registry.GAMES[self.game]

    @property
    def levels(self) -> list[str]:
        return list(self.entry.levels.names)

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

    def mark(self, seat: int, settings: dict[str, Any]) -> str | views.Msg | None:
        """The mark or colour ``seat`` plays as the board shows it, or None
        where both play the same (Notakto's X)."""
        return None if self.seat_mark is None else self.seat_mark(seat, settings)


def opponent_values(game: str) -> tuple[str, ...]:
    """The opponent menu: each computer level, then two people."""
    return tuple(opponent_value(COMPUTER, level) for level in registry.GAMES[game].levels.names) + (TWO_PLAYER,)


def opponent_value(opponent: str, level: str) -> str:
    """(COMPUTER, "perfect") -> ``computer:perfect``; (TWO_PLAYER, "") -> ``two_player``."""
    return TWO_PLAYER if opponent == TWO_PLAYER else f"{opponent}:{level}"


def played_settings(session: GameSession) -> dict[str, Any]:
    """The settings a game was played with that it says itself: its rules'
    and who played it (a link's or an import's: two people)."""
    return {**session.state.settings(), "opponent": opponent_value(session.mode.opponent, session.mode.level)}


#: The orientation setting of a board that can stand upright: as the screen
#: suits it, always upright, always slanted.
ORIENTATIONS = ("auto", "upright", "slanted")


def split_opponent(value: str) -> tuple[str, str]:
    """``computer:perfect`` -> (COMPUTER, "perfect"); ``two_player`` -> (TWO_PLAYER, "")."""
    kind, _, level = value.partition(":")
    return kind, level


def _view_function(entry: registry.Game, name: str) -> Callable[..., Any]:
    """The function of app.views the entry names (checked when the app starts)."""
    function = getattr(views, name, None)
    if not callable(function):
        raise LookupError(f"the registry names app.views.{name} for {entry.name}, and there is none")
    return function


def _choices(entry: registry.Game) -> tuple[Choice, ...]:
    """The settings form, in its order: the opponent, the rules' settings,
    who starts, the time per move; then the toggles that apply at once."""
    game = entry.name
    choices = [Choice("opponent", opponent_values(game), f"{COMPUTER}:{entry.levels.default}", "settings.opponent",
                      f"opponent.{game}")]
    choices += [Choice(setting.name, setting.values, setting.default, setting.label, setting.value_labels)
                for setting in entry.settings]
    # The seeds' house rule "alternate first move": on by default.
    choices.append(Choice("starts", STARTS, "alternate", "settings.starts", "starts"))
    if entry.timed:
        choices.append(Choice("time", TIME_LIMITS, 0, "settings.time", "time_limit"))
    if entry.hints:
        choices.append(Choice("hints", (False, True), False, "settings.hints", "hints", applies="now"))
    # Every board shows coordinates unless the player turns them off: every
    # game's move list names its cells by them ("f8", "2c1").
    choices.append(Choice("coordinates", (False, True), True, "settings.coordinates", "coordinates", applies="now"))
    # On a touch screen with small cells: tap once to mark, again to play (app/page/touch.py).
    choices.append(Choice("confirm", (False, True), True, "settings.confirm", "confirm", applies="now"))
    # The engine's winning chance beside the board (app/model/analysis.py; off by
    # default: it makes a game assisted, as hints do).
    choices.append(Choice("eval", (False, True), False, "settings.eval", "eval", applies="now"))
    # The Hex rhombus upright or slanted; by default upright on a narrow
    # portrait screen only (screen_view.board_tree).
    if entry.upright:
        choices.append(Choice("orientation", ORIENTATIONS, "auto", "settings.orientation", "orientation", applies="now"))
    # Red and blue stones instead of the seed's blue and green (off by default).
    if entry.red_blue_names:
        choices.append(Choice("red_blue", (False, True), False, "settings.red_blue", "red_blue", applies="now"))
    return tuple(choices)


def _seat_mark(entry: registry.Game) -> Callable[[int, dict[str, Any]], str | views.Msg] | None:
    """The mark a seat plays: a symbol ("X") or the catalog's name (blue;
    red or blue when the settings say ``red_blue``)."""
    marks, names, red_blue = entry.marks, entry.mark_names, entry.red_blue_names
    if names:
        return lambda seat, settings: views.Msg((red_blue if red_blue and settings.get("red_blue") else names)[seat])
    if marks:
        return lambda seat, settings: marks[seat]
    return None


def spec_of(entry: registry.Game) -> GameSpec:
    """The app's view of one registry entry."""
    game = entry.name
    return GameSpec(
        game=game,
        choices=_choices(entry),
        level_ratings=dict(zip(entry.levels.names, entry.levels.ratings)),
        make_state=entry.new_state,
        view=_view_function(entry, entry.view),
        describe=_view_function(entry, entry.describe),
        card=_view_function(entry, entry.card),
        # The engine is imported on the first hint, not at start-up (py/ai/__init__.py).
        safe_moves=(lambda state: ai.engine(game).safe_moves(state)) if entry.hints else None,
        seat_mark=_seat_mark(entry),
        detail=_view_function(entry, entry.detail) if entry.detail else None,
        view_settings=("coordinates", "red_blue") if entry.red_blue_names else ("coordinates",),
        stands_upright=entry.upright,
        reason_names=dict(entry.reason_names),
    )


SPECS: dict[str, GameSpec] = {game: spec_of(entry) for game, entry in registry.GAMES.items()}
