"""The levels' ratings (tools/ladder.py, py/level_ratings.json): the stored
ratings are the fit of the stored results, stronger levels are rated
higher, the registry uses exactly them, and the fit itself gives the Elo
differences a score means."""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path

import pytest
from tools import ladder

import registry
from registry import GAMES

ROOT = Path(__file__).resolve().parents[2]

DATA = json.loads(ladder.DATA_FILE.read_text(encoding="utf-8"))


# -- the stored figures ------------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_the_stored_ratings_are_the_fit_of_the_stored_results(game: str) -> None:
    entry = DATA["games"][game]
    ratings, intervals = ladder.game_ratings(game, ladder.pairings_of(entry))
    assert entry["ratings"] == ratings  # a hand-edited rating fails here
    assert entry["intervals_95"] == intervals
    assert DATA["anchor"] == ladder.ANCHOR and DATA["prior_games"] == ladder.PRIOR


@pytest.mark.parametrize("game", list(GAMES))
def test_the_ladder_is_complete_and_played_at_the_default_settings(game: str) -> None:
    entry = DATA["games"][game]
    players = ladder.ladder(game)
    assert [(p["lower"], p["higher"]) for p in entry["pairings"]] == list(zip(players, players[1:]))
    for p in entry["pairings"]:
        assert p["games"] == p["wins"] + p["draws"] + p["losses"] > 0
    assert entry["settings"] == GAMES[game].defaults()
    assert {"date", "commit", "machine", "clock", "seed"} <= set(entry["run"])


@pytest.mark.parametrize("game", list(GAMES))
def test_the_registry_uses_the_measured_ratings_and_they_increase_with_the_level(game: str) -> None:
    levels = GAMES[game].levels
    stored = DATA["games"][game]["ratings"]
    assert levels.ratings == tuple(stored[name] for name in levels.names)
    assert list(levels.ratings) == sorted(set(levels.ratings))
    assert levels.ratings[0] > ladder.ANCHOR, "the beginner beats a random mover"
    for level in levels.names:
        low, high = DATA["games"][game]["intervals_95"][level]
        assert low < stored[level] < high


@pytest.mark.parametrize("game", list(GAMES))
def test_each_level_is_rated_above_the_one_below_unless_the_games_did_not_separate_them(game: str) -> None:
    """A level that won its match is rated higher; and no level lost its
    match clearly (its score's 95 % interval all below a half), which would
    mean the levels are out of order. A match that did not separate two
    levels (docs/levels.md says which) passes here and shows as
    it was measured."""
    ratings = {ladder.BASELINE: ladder.ANCHOR, **DATA["games"][game]["ratings"]}
    for pairing in ladder.pairings_of(DATA["games"][game]):
        low, high = pairing.interval()
        assert high > 0.5, f"{game}: {pairing.higher} lost clearly to {pairing.lower}"
        if pairing.score > 0.5:
            assert ratings[pairing.higher] > ratings[pairing.lower], pairing


def test_no_rating_is_typed_into_the_registry() -> None:
    source = (ROOT / "py" / "registry.py").read_text(encoding="utf-8")
    assert "measured_levels(" in source and "Levels((" not in source


def test_a_ratings_file_without_a_level_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_MEASURED", {"uttt": {"ratings": {"beginner": 900}}})
    with pytest.raises(ValueError, match="no rating for uttt's casual"):
        registry.measured_levels("uttt", ("beginner", "casual"), "beginner")


# -- the fit -----------------------------------------------------------------------------------------
Pairing = ladder.Pairing


def test_equal_scores_give_equal_ratings() -> None:
    ratings, errors = ladder.fit([Pairing("random", "a", 10, 0, 10), Pairing("a", "b", 5, 10, 5)])
    assert ratings["random"] == ladder.ANCHOR and errors["random"] == 0
    assert ratings["a"] == pytest.approx(ladder.ANCHOR, abs=1e-6)
    assert ratings["b"] == pytest.approx(ladder.ANCHOR, abs=1e-6)
    assert errors["b"] > errors["a"] > 0  # uncertainty adds up along the ladder


def test_a_76_percent_score_is_about_200_points() -> None:
    ratings, _ = ladder.fit([Pairing("random", "a", 76, 0, 24)], prior=0)
    assert ratings["a"] - ladder.ANCHOR == pytest.approx(200, abs=1)
    # draws count half: 52 wins and 48 draws are the same 76 %
    ratings, _ = ladder.fit([Pairing("random", "a", 52, 48, 0)], prior=0)
    assert ratings["a"] - ladder.ANCHOR == pytest.approx(200, abs=1)
    # a loss of 76 % is 200 below
    ratings, _ = ladder.fit([Pairing("random", "a", 24, 0, 76)], prior=0)
    assert ratings["a"] - ladder.ANCHOR == pytest.approx(-200, abs=1)


def test_the_prior_keeps_a_clean_sweep_finite() -> None:
    ratings, errors = ladder.fit([Pairing("random", "a", 20, 0, 0)])
    assert ratings["a"] - ladder.ANCHOR == pytest.approx(400 * math.log10(41), abs=0.01)
    assert math.isfinite(errors["a"])


def test_the_fit_uses_every_pairing_not_just_a_chain() -> None:
    # b beats a 3:1, c beats b 3:1, and c beats a 9:1 directly: consistent
    # figures, so the fit puts b about 191 above a and c 191 above b.
    step = 400 * math.log10(3)
    ratings, _ = ladder.fit([Pairing("a", "b", 750, 0, 250), Pairing("b", "c", 750, 0, 250),
                             Pairing("a", "c", 900, 0, 100)], anchor="a", anchor_rating=0, prior=0)
    assert ratings["b"] == pytest.approx(step, abs=1) and ratings["c"] == pytest.approx(2 * step, abs=1)


def test_players_cut_off_from_the_anchor_are_refused() -> None:
    with pytest.raises(ValueError, match="connect"):
        ladder.fit([Pairing("random", "a", 5, 0, 5), Pairing("b", "c", 5, 0, 5)])


# -- the games ---------------------------------------------------------------------------------------
def test_time_caps_are_scaled_and_playout_caps_kept() -> None:
    import ai

    engine = ai.new_engine("uttt")
    scaled = ladder.scaled_levels(engine.level_settings, 0.5)
    for name, settings in engine.level_settings.items():
        assert scaled[name].seconds == settings.seconds / 2 and scaled[name].iterations == settings.iterations
    notakto = ai.new_engine("notakto").level_settings
    assert ladder.scaled_levels(notakto, 0.5) == notakto  # its levels have no time cap


def test_a_seeded_game_replays_and_colours_alternate() -> None:
    tasks = [ladder.Task("notakto", "random", "perfect", index, 3, 1.0, "wall") for index in range(4)]
    played = [ladder.play(task) for task in tasks]
    assert [ladder.play(task).result for task in tasks] == [p.result for p in played]
    assert [task.lower_first for task in tasks] == [True, False, True, False]
    # The perfect player, moving first on three boards, wins against anyone.
    assert all(p.result == 1.0 for p in played if not p.task.lower_first)


def test_the_tool_refits_a_stored_run_and_prints_its_table() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert ladder.main(["--from", str(ladder.DATA_FILE), "--game", "notakto"]) == 0
    text = out.getvalue()
    entry = DATA["games"]["notakto"]
    assert f"| perfect | {entry['ratings']['perfect']} |" in text
    first = entry["pairings"][0]
    assert f"| beginner vs random | {first['games']} | {first['wins']}-{first['draws']}-{first['losses']} |" in text
    assert "uttt" not in text
