"""What the play and settings part of a game's screen shows (play.py):
the buttons, the next game's menus, the switches that apply at once, who
played a move, and the statistics panel. Plain data for the renderer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .games import GameSpec, played_settings, split_opponent
from .keep import SOUND_SETTING
from .review import LIVE
from .screen import GameScreen
from .session import COMPUTER, TWO_PLAYER, GameSession, player_name, takeover_seats, who
from .stats import load_stats, stats_view
from .words import Msg


@dataclass(frozen=True)
class Button:
    """A command button: whether it can be pressed and whether it is there at all."""

    enabled: bool = True
    shown: bool = True


@dataclass(frozen=True)
class SelectView:
    """A setting of the settings form: a labelled menu (most apply to the
    next game; a display setting, the board's orientation, at once)."""

    name: str
    label: Msg
    options: tuple[tuple[str, Msg], ...]  # (value as text, its short name)
    selected: str
    #: a line under the menu about the chosen value (the level: what it
    #: does, its measured rating), or None
    note: Msg | None = None
    #: False for the settings of a game on screen that is not the one being played
    enabled: bool = True


@dataclass(frozen=True)
class ToggleView:
    """An option that applies at once: a labelled check box."""

    name: str  # "hints", "coordinates", "takeover-<seat>"
    label: Msg
    checked: bool


@dataclass(frozen=True)
class StatView:
    """One figure of the statistics panel."""

    name: str
    kind: str  # "number", "percent", "duration", "days" or "none" (no value yet)
    value: Any


def mover_mark(spec: GameSpec, session: GameSession, seat: int, settings: dict[str, Any]) -> str | Msg:
    """Who played a move, as the players see it: the mark or the colour
    (as the settings draw it), else the player's name (Notakto: both play X)."""
    if spec.seat_mark is not None:
        return spec.seat_mark(seat, settings)
    mode = session.mode
    if mode.opponent == COMPUTER:
        return Msg(f"player.{who(mode, seat)}")
    return player_name(mode, seat)


def option_label(spec: GameSpec, name: str, value: Any, opponent: str) -> Msg:
    """A setting's value in words; ``starts`` names the players as the
    chosen ``opponent`` does."""
    if name == "starts" and value in ("home", "away"):
        return Msg(f"starts.{value}.{'two_player' if opponent == TWO_PLAYER else 'computer'}")
    if name == "size":
        return Msg(f"size.{spec.game}", {"size": value})
    if name == "opponent":
        kind, level = split_opponent(value)
        if kind == TWO_PLAYER:
            return Msg("opponent.two_player")
        # Short, to fit a phone's menu: "Master · 1720"; the note says more.
        return Msg("level.rated", {"level": Msg(f"level.{spec.game}.{level}.name"),
                                   "rating": str(spec.rating(level))})
    choice = next(c for c in spec.choices if c.name == name)
    return Msg(f"{choice.value_labels}.{str(value).lower()}")


#: Options whose short name in the menu needs a sentence under it: the
#: catalog key of the name, then ``_help`` (the menus stay short enough
#: for a 360 px phone in every language).
OPTION_HELP = frozenset({"starts.alternate", "orientation.auto"})


def option_note(spec: GameSpec, name: str, value: Any) -> Msg | None:
    """The line under a menu about its chosen value: for a computer level,
    what it does and its measured rating; for an option whose short name
    needs it, its sentence."""
    if name == "opponent":
        kind, level = split_opponent(value)
        if kind == TWO_PLAYER:
            return None
        return Msg("level.note", {"about": Msg(f"level.{spec.game}.{level}.about"), "rating": str(spec.rating(level))})
    label = option_label(spec, name, value, "")
    return Msg(f"{label.key}_help") if label.key in OPTION_HELP else None


def settings(screen: GameScreen) -> tuple[SelectView, ...]:
    """The menus of the settings form. Those of the next game: the game
    being played's (with the changes chosen for the next one); for another
    game on screen (a past one, a link's, an import's), the settings it was
    played with as far as it says them (its rules' and its opponent), not
    to be changed. A display menu (the board's orientation) is the
    player's own, whatever game is on screen."""
    live = screen.play.next_settings()
    played = played_settings(screen.shown) if screen.origin != LIVE else live
    menus = []
    for choice in screen.spec.choices:
        chosen = played if choice.applies == "next" else live
        if not choice.is_menu or chosen.get(choice.name) not in choice.values:
            continue
        value, opponent = chosen[choice.name], split_opponent(chosen["opponent"])[0]
        menus.append(SelectView(
            choice.name, Msg(choice.label),
            tuple((str(option), option_label(screen.spec, choice.name, option, opponent)) for option in choice.values),
            str(value), option_note(screen.spec, choice.name, value),
            choice.applies != "next" or screen.origin == LIVE))
    return tuple(menus)


def toggles(screen: GameScreen) -> tuple[ToggleView, ...]:
    """The switches that apply at once: the display settings, the sound
    (the app's), then "the computer plays for …" for each seat a player
    may hand over."""
    found = [ToggleView(choice.name, Msg(choice.label), bool(screen.settings[choice.name]))
             for choice in screen.spec.choices if not choice.is_menu]
    found.append(ToggleView(SOUND_SETTING, Msg("settings.sound"), screen.play.sound))
    mode = screen.session.mode
    for seat in takeover_seats(mode):
        label = Msg(f"takeover.{who(mode, seat)}", {"player": player_name(mode, seat)})
        found.append(ToggleView(f"takeover-{seat}", label, screen.session.takeover[seat]))
    return tuple(found)


def stats_rows(screen: GameScreen) -> tuple[StatView, ...]:
    """The statistics panel: each figure with how to show it."""
    view = stats_view(load_stats(screen.play.store.storage, screen.game), screen.play.today())
    kinds = (("games", "number", "games"), ("wins", "number", "wins"), ("win_rate", "percent", "win_rate"),
             ("fastest_win", "duration", "fastest_win_ms"), ("fewest_moves", "number", "fewest_moves"),
             ("best_score", "number", "best_score"), ("current_streak", "days", "current_streak"),
             ("best_streak", "days", "best_streak"), ("rating", "number", "rating"))
    return tuple(StatView(name, "none" if view[key] is None else kind, view[key]) for name, kind, key in kinds)
