"""The registry (py/registry.py): every entry complete and consistent with
the rules it names, the engine, the views and every catalog. (The engines'
levels are checked in tests/ai/test_ai_registry.py, the shell's game list in
tests/layout/test_site.py.)"""

from __future__ import annotations

import inspect
import json
import math
import random
import re
from pathlib import Path

import pytest

import ai
import registry
from app import views
from app.model.games import SPECS
from app.model.saves import board_preview
from core import SaveError
from tool_modules import load_tool

build_site = load_tool("build_site")

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted((ROOT / "i18n").glob("*.json"))}
GAMES = sorted(registry.GAMES)


def test_the_games_and_their_order() -> None:
    """The registry's order is the game list's (vendor/games.js follows it,
    tests/layout/test_site.py); an unknown name is refused naming the games."""
    names = [game.name for game in registry._GAMES]
    assert list(registry.GAMES) == names and len(set(names)) == len(names) >= 1
    assert all(registry.STATES[name] is game.state for name, game in registry.GAMES.items())
    assert all(registry.game(name) is registry.GAMES[name] for name in names)
    with pytest.raises(ValueError, match=f"chess.*{', '.join(names)}"):
        registry.game("chess")


@pytest.mark.parametrize("name", GAMES)
def test_every_entry_is_complete(name: str) -> None:
    game = registry.GAMES[name]
    assert game.name == game.state.game == name
    assert game.engine and game.view and game.describe
    levels = game.levels
    assert len(set(levels.names)) == len(levels.names) == len(levels.ratings) >= 2
    assert list(levels.ratings) == sorted(set(levels.ratings)), "stronger levels are rated higher"
    assert levels.default in levels.names and levels.strongest == levels.names[-1]
    assert levels.rating(levels.strongest) == levels.ratings[-1] and levels.rating("grandmaster") is None
    # The settings are exactly the rules' own, each offering its default.
    assert [setting.name for setting in game.settings] == list(game.state.from_settings({}).settings())
    for setting in game.settings:
        assert setting.default in setting.values and len(set(setting.values)) == len(setting.values)
        assert all(type(value) is type(setting.default) for value in setting.values), setting.name
        assert set(setting.values) <= set(setting.accepted), setting.name
    assert game.swap == game.has_setting("swap")
    assert game.board_size in [setting.name for setting in game.settings] or (
        isinstance(game.board_size, int) and game.board_size > 0)
    assert len(game.marks) in (0, 2) and len(game.mark_names) in (0, 2) and not (game.marks and game.mark_names)
    # The card's drawing is one the shell has (shell/cards.js draws the boards);
    # the one of hexagonal cells draws them from the entry's ``cells``.
    boot = (ROOT / "shell" / "cards.js").read_text(encoding="utf-8")
    drawings = re.search(r"const BOARD_DRAWINGS = \{([^}]*)\}", boot)
    assert drawings and game.card_art in re.findall(r"(\w+):", drawings.group(1))
    assert (game.card_art == "cells") == (game.cells is not None)
    # The ladder has a number of games for each pairing: the random mover
    # against the weakest level, then each level against the next.
    assert len(game.ladder.plan) == len(levels.names) and all(games > 0 for games in game.ladder.plan)
    assert 0 < game.ladder.speed <= 1


def test_the_ratings_file_measures_registered_games() -> None:
    """A game of level_ratings.json has its measured ratings; one the file
    lacks (a new game, until the ladder has measured it) provisional ones;
    the file names no other game."""
    measured = set(registry._MEASURED)
    assert measured <= set(registry.GAMES)
    assert {name for name, game in registry.GAMES.items() if not game.levels.provisional} == measured
    for name in measured:
        ratings = registry._MEASURED[name]["ratings"]
        assert registry.GAMES[name].levels.ratings == tuple(ratings[level] for level in registry.GAMES[name].levels.names)


def test_a_game_the_ratings_file_lacks_starts_on_provisional_ratings() -> None:
    levels = registry.measured_levels("a-new-game", ("easy", "hard", "harder"), "easy")
    assert levels.provisional and levels.default == "easy"
    assert list(levels.ratings) == sorted(set(levels.ratings)) and levels.ratings[0] > 500  # above the random mover
    with pytest.raises(ValueError, match="ladder.py --game hex --write"):
        registry.measured_levels("hex", ("beginner", "grandmaster"), "beginner")


@pytest.mark.parametrize("name", [name for name, game in registry.GAMES.items() if game.cells])
def test_the_cells_are_the_rules_cells(name: str) -> None:
    """The hexagonal cells' geometry (the app's board and the shell's
    drawings use it): one centre for each cell of the rules, in their order,
    none twice, neighbours of the rules sqrt(3) apart, and the corners' cells
    the rules' corners."""
    game = registry.GAMES[name]
    cells = game.cells
    assert cells is not None and len(cells.edges) == len(cells.corners) in (3, 4)
    for size in (5, game.defaults()["size"]):
        state = game.new_state({"size": size})
        centres = cells.centres(size)
        assert len(centres) == state.cell_count == sum(len(row) for row in cells.rows(size))
        assert len({(round(x, 6), round(y, 6)) for x, y in centres}) == len(centres)
        for cell in range(state.cell_count):
            for other in state.neighbours(cell):
                (x, y), (u, v) = centres[cell], centres[other]
                assert math.isclose(math.hypot(x - u, y - v), math.sqrt(3)), (cell, other)


@pytest.mark.parametrize("name", GAMES)
def test_the_card_draws_any_position_of_the_game(name: str) -> None:
    """The card's preview (the function the entry names) has the length the
    shell expects at every size the rules accept (vendor/games.js's shapes:
    shell/cards.js draws no other), one mark per cell."""
    game = registry.GAMES[name]
    shapes = build_site.card_art(game)["shapes"]
    rng = random.Random(name)
    for size, shape in shapes.items():
        settings = {} if isinstance(game.board_size, int) else {game.board_size: int(size)}
        state = game.new_state(settings)
        for _ in range(5):
            state.push(rng.choice(state.legal_moves()))
        preview = board_preview(state, "you")
        assert preview["size"] == int(size) and len(preview["cells"]) == shape["cells"]
        assert len(preview["boards"]) == shape["boards"] and preview["moves"] == 5
        assert set(preview["cells"]) <= set("01.") and set(preview["boards"]) <= set("01.-")
        assert 0 <= preview["last"] < shape["cells"] and preview["cells"][preview["last"]] != "."


def random_game(state, rng: random.Random):  # type: ignore[no-untyped-def]
    """Plays ``state`` to its end through the checked path, by notation."""
    while not state.is_over():
        move = rng.choice(state.legal_moves())
        state.play(state.move_to_text(move))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_the_state_class_plays_every_offered_setting(name: str) -> None:
    game = registry.GAMES[name]
    rng = random.Random(name)
    chosen = [game.defaults()] + [{**game.defaults(), setting.name: value}
                                  for setting in game.settings for value in setting.values]
    for settings in chosen:
        state = game.new_state({**settings, "opponent": "two_player"})  # not a rules setting: left out
        assert state.settings() == settings
        random_game(state, rng)
        assert state.outcome() is not None
        again = game.state.from_dict(json.loads(json.dumps(state.to_dict())))
        assert again.outcome() == state.outcome() and again.move_texts() == state.move_texts()


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_accept_the_registrys_range_and_no_more(name: str) -> None:
    game = registry.GAMES[name]
    for setting in game.settings:
        accepted = setting.accepted
        for value in (accepted[0], accepted[-1]):
            assert game.new_state({setting.name: value}).settings()[setting.name] == value
        if isinstance(setting.default, int) and not isinstance(setting.default, bool):
            for value in (min(accepted) - 1, max(accepted) + 1):
                with pytest.raises(SaveError):
                    game.new_state({setting.name: value})


@pytest.mark.parametrize("name", GAMES)
def test_the_capabilities_are_what_the_engine_and_the_view_can_do(name: str) -> None:
    game = registry.GAMES[name]
    assert game.hints == hasattr(ai.engine(name), "safe_moves")
    view = getattr(views, game.view)
    options = inspect.signature(view).parameters
    assert "coordinates" in options
    assert not game.upright or "tall" in options
    # The swap rule: a setting of the rules, and then a move for the second
    # player ("swap" in every game's notation, shared/spec/gtp.md).
    if game.swap:
        for on in (True, False):
            state = game.new_state({"swap": on})
            state.play(state.legal_moves()[0])
            assert (state.parse_move("swap") in state.legal_moves()) == on


@pytest.mark.parametrize("name", GAMES)
def test_the_views_it_names_draw_the_game(name: str) -> None:
    """Named views are resolved by app.model.games; each draws the start with a
    button for every legal move, and says a move in words."""
    game, spec = registry.GAMES[name], SPECS[name]
    assert spec.view is getattr(views, game.view) and spec.describe is getattr(views, game.describe)
    assert spec.detail is (getattr(views, game.detail) if game.detail else None)
    state = spec.make_state(spec.defaults())
    tree = spec.view(state, interactive=True, **{option: spec.defaults()[option] for option in spec.view_settings})

    def moves(node):  # type: ignore[no-untyped-def]
        if not isinstance(node, tuple):  # text, or a message
            return
        _, attrs, children = node
        if "data-move" in attrs and attrs.get("aria-disabled") == "false":
            yield attrs["data-move"]
        for child in children:
            yield from moves(child)

    assert sorted(moves(tree)) == sorted(state.move_to_text(move) for move in state.legal_moves())
    assert isinstance(spec.describe(state, state.legal_moves()[0]), views.Msg)


@pytest.mark.parametrize("code", sorted(CATALOGS))
@pytest.mark.parametrize("name", GAMES)
def test_every_catalog_names_the_game_its_levels_and_settings(name: str, code: str) -> None:
    catalog, game, spec = CATALOGS[code], registry.GAMES[name], SPECS[name]
    needed = {f"games.{name}.name", f"games.{name}.desc", f"guide.{name}.rules"}
    if game.swap:
        needed |= {f"variant.{name}.swap", f"variant.{name}.no_swap"}
    needed |= {f"level.{name}.{level}{part}" for level in game.levels.names for part in ("", ".name", ".about")}
    needed |= {choice.label for choice in spec.choices}
    needed |= set(game.mark_names) | set(game.red_blue_names)
    needed |= {f"reason.{reason}.{who}" for reason in game.reason_names.values() for who in ("you", "computer", "player")}
    for setting in game.settings:
        for value in setting.values:
            key, params = setting.value_label(value)
            needed.add(key)
            if key in catalog:
                assert all(f"{{{param}}}" in catalog[key] for param in params), key
    assert sorted(needed - set(catalog)) == []


def test_the_tools_tables_of_games_name_only_registered_games() -> None:
    """GTP's text drawings and the arena's OpenSpiel adapters are per game
    (a game without a drawing falls back to its position text)."""
    import sys

    import gtp

    sys.path.insert(0, str(ROOT))
    from tools.arena import openspiel as arena

    assert set(gtp.DRAWINGS) <= set(registry.GAMES)
    assert set(arena.ADAPTERS) <= set(registry.GAMES)
    assert all(adapter.name == game for game, adapter in arena.ADAPTERS.items())
