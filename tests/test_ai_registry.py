"""The AI package's registry: level names known without importing the
engines, and the engines themselves imported only when first needed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import ai

PY = Path(__file__).resolve().parent.parent / "py"


@pytest.mark.parametrize("game", sorted(ai.MODULES))
def test_level_names_are_each_engines_levels(game: str) -> None:
    module = ai.engine(game)
    assert ai.levels(game) == list(module.LEVELS) == list(module.Engine.level_settings)
    assert ai.ENGINES[game] is module and ai.DEFAULT_LEVEL[game] == module.LEVELS[-1]


@pytest.mark.parametrize("game", sorted(ai.MODULES))
def test_new_engine_is_a_fresh_player_of_the_game(game: str) -> None:
    from core import GAMES

    first, second = ai.new_engine(game), ai.new_engine(game)
    assert type(first) is ai.engine(game).Engine and first is not second
    state = GAMES[game]()
    level = ai.levels(game)[0]  # capped by playouts, so the seeded move is the same every time
    assert first.choose_move(state, level, seed=3) == ai.choose_move(state, level, seed=3)


def test_the_registry_knows_every_game_and_nothing_else() -> None:
    from core import GAMES

    assert set(ai.MODULES) == set(ai.LEVEL_NAMES) == set(ai.ENGINES) == set(GAMES)
    with pytest.raises(ValueError, match="chess"):
        ai.levels("chess")
    with pytest.raises(ValueError, match="chess"):
        ai.engine("chess")
    with pytest.raises(KeyError):
        ai.ENGINES["chess"]


def test_the_page_imports_no_engine_until_one_is_needed() -> None:
    """What the page's main thread imports at start-up (the app's modules
    but the browser binding) leaves every engine out; a hint brings in
    Notakto's, and only it."""
    code = (
        "import sys, app.games, app.session, app.stats, app.saves, app.views, app.storage, app.embed\n"
        # (ai.search, the engines' shared scaffold, builds nothing: not an engine)
        "engines = lambda: sorted(m for m in sys.modules if m.startswith('ai.') and m != 'ai.search')\n"
        "print(engines())\n"
        "from core import NotaktoState\n"
        "spec = app.games.SPECS['notakto']\n"
        "print(spec.safe_moves(NotaktoState(1)), engines())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=PY, capture_output=True, text=True, check=True).stdout
    before, after = out.splitlines()
    assert before == "[]"
    assert after.endswith("['ai.notakto']") and after.startswith("[")
