"""URL parameters for the games' settings, the Embed dialog's iframe code
and the "gameover" message (py/app/model/embed.py)."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.model.embed import (embed_url, gameover_message, iframe_code, params_from_settings, query_params,
                       settings_from_params, url_choices)
from app.model.games import SPECS
from app.model.session import COMPUTER, TWO_PLAYER, Mode
from core import FIRST, SECOND, Outcome

SHELL = ("game", "lang", "theme", "embed")


def test_query_params_keep_the_first_of_repeated_names_and_decode() -> None:
    assert query_params("?boards=2&boards=5&vs=two_player&x=%3Cb%3E&flag") == {
        "boards": "2", "vs": "two_player", "x": "<b>", "flag": ""}
    assert query_params("") == {}


def test_every_setting_that_applies_to_the_next_game_has_a_parameter() -> None:
    for game, spec in SPECS.items():
        names = url_choices(spec)
        assert "vs" in names and "opponent" not in names, game
        assert not set(names) & set(SHELL), game  # the shell's names are its own
        for choice in spec.choices:
            assert (choice.applies == "next") == (choice in names.values()), (game, choice.name)


def test_parameters_set_the_settings_of_the_game() -> None:
    spec = SPECS["notakto"]
    settings, warnings = settings_from_params(spec, {"game": "notakto", "lang": "de", "boards": "1", "vs": "perfect",
                                                     "starts": "home"}, SHELL)
    assert settings == {"boards": 1, "opponent": f"{COMPUTER}:perfect", "starts": "home"}
    assert warnings == []
    settings, _ = settings_from_params(SPECS["hex"], {"size": "9", "swap": "0", "time": "30", "vs": "two_player"})
    assert settings == {"size": 9, "swap": False, "time": 30, "opponent": TWO_PLAYER}
    assert settings_from_params(SPECS["y"], {"swap": "true"})[0] == {"swap": True}


@pytest.mark.parametrize("params", [
    {"boards": "7"}, {"boards": "0"}, {"boards": "2.0"}, {"boards": "-1"}, {"boards": "²"}, {"boards": ""},
    {"vs": "master"}, {"vs": "computer:perfect"}, {"vs": "<img src=x onerror=alert(1)>"},
    {"starts": "first"}, {"hints": "1"}, {"size": "11"}, {"time": "30"}, {"<b>": "1"},
])
def test_a_bad_or_foreign_parameter_is_ignored_with_a_warning(params: dict[str, str]) -> None:
    settings, warnings = settings_from_params(SPECS["notakto"], params, SHELL)
    (name,) = params
    assert settings == {}
    assert len(warnings) == 1 and name in warnings[0]


def test_bad_values_of_the_connection_games_are_ignored() -> None:
    for params in ({"size": "8"}, {"size": "20"}, {"swap": "maybe"}, {"time": "45"}, {"boards": "3"}):
        settings, warnings = settings_from_params(SPECS["hex"], params)
        assert settings == {} and len(warnings) == 1, params


@given(st.data())
def test_settings_survive_the_trip_through_the_url(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(sorted(SPECS)))
    spec = SPECS[game]
    settings = {choice.name: data.draw(st.sampled_from(choice.values)) for choice in spec.choices}
    url = embed_url("https://example.org/sub/", game, params_from_settings(spec, settings), "pt")
    params = query_params(urlsplit(url).query)
    assert params["embed"] == "1" and params["game"] == game and params["lang"] == "pt"
    parsed, warnings = settings_from_params(spec, params, SHELL)
    assert warnings == []
    assert parsed == {choice.name: settings[choice.name] for choice in spec.choices if choice.applies == "next"}


def test_the_embed_url_and_iframe_code() -> None:
    spec = SPECS["notakto"]
    params = params_from_settings(spec, {**spec.defaults(), "boards": 2})
    url = embed_url("https://example.org/games/", "notakto", params, "en")
    assert url == "https://example.org/games/?embed=1&game=notakto&vs=casual&boards=2&starts=alternate&lang=en"
    code = iframe_code(url, 'Notakto · "Abstract" <Games>')
    assert code.startswith('<iframe src="https://example.org/games/?embed=1&amp;game=notakto&amp;')
    assert 'title="Notakto · &quot;Abstract&quot; &lt;Games&gt;"' in code
    src = html.unescape(re.search(r'src="([^"]*)"', code).group(1))
    assert src == url and dict(parse_qsl(urlsplit(src).query))["boards"] == "2"


@pytest.mark.parametrize(("outcome", "mode", "winner", "result"), [
    (Outcome(FIRST, "connection"), Mode(COMPUTER, "master", 0), "first", "win"),
    (Outcome(FIRST, "connection"), Mode(COMPUTER, "master", 1), "first", "loss"),
    (Outcome(SECOND, "resignation"), Mode(COMPUTER, "casual", 1), "second", "win"),
    (Outcome(None, "all_boards_decided"), Mode(COMPUTER, "casual", 0), None, "draw"),
    (Outcome(SECOND, "last_board_closed"), Mode(TWO_PLAYER, "", 0), "second", "two_player"),
    (Outcome(None, "all_boards_decided"), Mode(TWO_PLAYER, "", 1), None, "two_player"),
])
def test_the_gameover_message(outcome: Outcome, mode: Mode, winner: str | None, result: str) -> None:
    assert gameover_message("uttt", outcome, mode) == {
        "type": "gameover", "game": "uttt", "winner": winner, "reason": outcome.reason, "result": result}
