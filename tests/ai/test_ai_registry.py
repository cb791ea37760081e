"""The AI package's registry: level names known without importing the
engines, and the engines themselves imported only when first needed."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import ai
from core import GameState
import registry
from counted_clock import counted_clock  # noqa: F401  (autouse: the engines' seconds on the counted clock)

PY = Path(__file__).resolve().parents[2] / "py"


def near_the_end(state: GameState, rng: random.Random) -> GameState:
    """Random moves that end nothing, until few are left (or every move
    would end the game)."""
    while len(state.legal_moves()) > 3:
        moves = state.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            state.play(move)
            if not state.is_over():
                break
            state.pop()
        else:
            break
    return state


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_each_engine_plays_exactly_the_registrys_levels(game: str) -> None:
    entry = registry.GAMES[game]
    module = ai.engine(game)
    assert module.__name__ == f"ai.{entry.engine}"
    assert list(module.LEVELS) == list(entry.levels.names) == ai.levels(game) == list(module.Engine.level_settings)
    # The parameter tables stay in the engines (Hex's and Y's come with
    # their LEVELS from the search they share).
    if hasattr(module, "LEVEL_SETTINGS"):
        assert list(module.LEVEL_SETTINGS) == list(entry.levels.names)
    assert ai.ENGINES[game] is module and ai.DEFAULT_LEVEL[game] == module.LEVELS[-1] == entry.levels.strongest
    # Every level plays (near the end, so that even the strongest answers
    # at once), and a name that is no level is refused.
    state = near_the_end(entry.new_state(), random.Random(5))
    for level in entry.levels.names:
        assert ai.choose_move(state, level, seed=1, move_time=0.05) in state.legal_moves(), level
    with pytest.raises(ValueError, match="grandmaster"):
        ai.choose_move(state, "grandmaster")


@pytest.mark.parametrize("game", sorted(ai.MODULES))
def test_new_engine_is_a_fresh_player_of_the_game(game: str) -> None:
    first, second = ai.new_engine(game), ai.new_engine(game)
    assert type(first) is ai.engine(game).Engine and first is not second
    state = registry.STATES[game]()
    level = ai.levels(game)[0]  # capped by playouts, so the seeded move is the same every time
    assert first.choose_move(state, level, seed=3) == ai.choose_move(state, level, seed=3)


def test_the_registry_knows_every_game_and_nothing_else() -> None:
    assert list(ai.MODULES) == list(ai.LEVEL_NAMES) == list(ai.ENGINES) == list(registry.GAMES)
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
        "import sys, app.model.games, app.model.session, app.model.stats, app.model.saves, app.views, app.model.storage, app.model.embed\n"
        # (ai.search, the engines' shared scaffold, builds nothing: not an engine)
        "engines = lambda: sorted(m for m in sys.modules if m.startswith('ai.') and m != 'ai.search')\n"
        "print(engines())\n"
        "from core import NotaktoState\n"
        "spec = app.model.games.SPECS['notakto']\n"
        "print(spec.safe_moves(NotaktoState(1)), engines())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=PY, capture_output=True, text=True, check=True).stdout
    before, after = out.splitlines()
    assert before == "[]"
    assert after.endswith("['ai.notakto']") and after.startswith("[")
