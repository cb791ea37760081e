"""The app's URL parameters for a game's settings, the iframe code of the
"Embed" dialog, and the messages an embedding page receives. Pure, so it is
unit-tested; page/app.py reads the URL and posts the messages.

A game's settings come from parameters named as the settings are (``boards``,
``size``, ``swap``, ``time``, ``starts``) plus ``vs``, the opponent: a
computer level (``vs=perfect``) or ``vs=two_player``. Every value goes
through the same validation as a stored setting (``GameSpec.validate``): a
bad one is ignored with a warning, never trusted. The shell (shell/embed.js) reads
``game``, ``lang``, ``theme`` and ``embed``.
"""

from __future__ import annotations

import html
from typing import Any

from core import FIRST, Outcome

from .games import Choice, GameSpec, split_opponent
from .session import COMPUTER, TWO_PLAYER, Mode

OPPONENT_PARAM = "vs"
TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


def query_params(query: str) -> dict[str, str]:
    """``?a=1&b=2`` -> {"a": "1", "b": "2"}; the first of repeated names
    wins, as in the browser's URLSearchParams.get."""
    params: dict[str, str] = {}
    query = query.removeprefix("?")
    if not query:
        return params
    # Imported here: with ipaddress, which it needs, urllib.parse is the
    # dearest module of the page's start-up, and most visits have no query.
    from urllib.parse import parse_qsl

    for name, value in parse_qsl(query, keep_blank_values=True):
        params.setdefault(name, value)
    return params


def url_choices(spec: GameSpec) -> dict[str, Choice]:
    """The settings a URL can set, by parameter name: those that apply to
    the next game (display toggles such as hints are the player's)."""
    return {(OPPONENT_PARAM if choice.name == "opponent" else choice.name): choice
            for choice in spec.choices if choice.applies == "next"}


def parse_value(choice: Choice, text: str) -> Any:
    """A parameter's text as the setting's type (None if it is not one);
    the value itself is checked by the caller."""
    if choice.name == "opponent":
        return TWO_PLAYER if text == TWO_PLAYER else f"{COMPUTER}:{text}"
    if isinstance(choice.default, bool):
        lowered = text.lower()
        return True if lowered in TRUE_WORDS else False if lowered in FALSE_WORDS else None
    if isinstance(choice.default, int):
        return int(text) if text.isascii() and text.isdigit() else None
    return text


def value_text(choice: Choice, value: Any) -> str:
    """A setting's value as its parameter's text (parse_value's inverse)."""
    if choice.name == "opponent":
        kind, level = split_opponent(value)
        return TWO_PLAYER if kind == TWO_PLAYER else level
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def settings_from_params(spec: GameSpec, params: dict[str, str],
                         other_names: tuple[str, ...] = ()) -> tuple[dict[str, Any], list[str]]:
    """The settings the URL gives this game, and a warning for every
    parameter that is ignored (names in ``other_names`` are someone else's).
    A value is kept only if ``spec.validate`` keeps it."""
    choices = url_choices(spec)
    settings: dict[str, Any] = {}
    warnings: list[str] = []
    for name, text in params.items():
        if name in other_names:
            continue
        choice = choices.get(name)
        if choice is None:
            warnings.append(f"URL parameter {name!r} is not a setting of {spec.game} and was ignored")
            continue
        value = parse_value(choice, text)
        if value is None or spec.validate({choice.name: value})[choice.name] != value:
            warnings.append(f"URL parameter {name}={text!r} is not a valid value for {spec.game} and was ignored")
            continue
        settings[choice.name] = value
    return settings, warnings


def params_from_settings(spec: GameSpec, settings: dict[str, Any]) -> list[tuple[str, str]]:
    """The parameters that give these settings, in the spec's order."""
    return [(name, value_text(choice, settings[choice.name])) for name, choice in url_choices(spec).items()]


def embed_url(page_url: str, game: str, params: list[tuple[str, str]], lang: str) -> str:
    """The app's URL in the compact layout with these settings."""
    from urllib.parse import urlencode  # see query_params

    return f"{page_url}?{urlencode([('embed', '1'), ('game', game), *params, ('lang', lang)])}"


def iframe_code(url: str, title: str) -> str:
    """The HTML a site pastes to embed the app (shown as text, never run
    here). The height is a start: the app's "resize" messages give the
    content's (docs/embedding.md)."""
    return (f'<iframe src="{html.escape(url)}" title="{html.escape(title)}" '
            'style="width: 100%; height: 640px; border: 0" loading="lazy"></iframe>')


def gameover_message(game: str, outcome: Outcome, mode: Mode) -> dict[str, Any]:
    """The "gameover" message: who won by seat ("first" moved first), why
    (the rules' reason, e.g. "connection", "resignation"), and the result
    for the player at this device: "win", "loss" or "draw" against the
    computer, "two_player" when two people played."""
    if mode.opponent == TWO_PLAYER:
        result = "two_player"
    elif outcome.winner is None:
        result = "draw"
    else:
        result = "win" if outcome.winner == mode.home_seat else "loss"
    return {
        "type": "gameover",
        "game": game,
        "winner": None if outcome.winner is None else ("first" if outcome.winner == FIRST else "second"),
        "reason": outcome.reason,
        "result": result,
    }
