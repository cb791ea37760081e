"""The arena against OpenSpiel (tools/arena/): the move mappings, the rules
cross-check (and that it catches a wrong mapping), the opponent's moves and
a tiny match. Needs OpenSpiel (requirements-bench.txt); skipped without it."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from tools.arena.cli import main  # noqa: E402
from tools.arena.match import Match, MatchConfig  # noqa: E402
from tools.arena.openspiel import HexAdapter, SpielPlayer, YAdapter, check_rules, make_adapter  # noqa: E402

from core import FIRST, SECOND, HexState, YState  # noqa: E402
from core.y import cell_index, row_col  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


# -- mappings -----------------------------------------------------------------------------
@pytest.mark.parametrize("size", [5, 11])
def test_hex_cells_are_openspiel_actions(size: int) -> None:
    adapter = make_adapter("hex", size)
    spiel = adapter.load().new_initial_state()
    assert adapter.legal(spiel) == set(range(size * size))
    for cell in range(size * size):
        assert adapter.cell_to_action(cell) == cell == adapter.action_to_cell(cell)


def test_hex_first_player_joins_top_and_bottom_in_both_engines() -> None:
    adapter = make_adapter("hex", 5)
    ours, theirs = adapter.new_state(), adapter.load().new_initial_state()
    # FIRST fills column a (rows 1-5), SECOND row 2 from column b on.
    for first, second in zip([0, 5, 10, 15, 20], [6, 7, 8, 9]):
        for move in (first, second):
            ours.play(move)
            adapter.apply(theirs, move)
    ours.play(20)
    adapter.apply(theirs, 20)
    assert ours.outcome().winner == FIRST == adapter.winner(theirs)


@pytest.mark.parametrize("size", [5, 11])
def test_y_mapping_is_a_bijection_onto_openspiel_cells(size: int) -> None:
    adapter = make_adapter("y", size)
    spiel = adapter.load().new_initial_state()
    cells = size * (size + 1) // 2
    actions = [adapter.cell_to_action(cell) for cell in range(cells)]
    assert sorted(actions) == sorted(spiel.legal_actions())
    assert [adapter.action_to_cell(action) for action in actions] == list(range(cells))
    # The apex is OpenSpiel's last row; our bottom row is its first.
    assert adapter.cell_to_action(0) == (size - 1) * size
    assert adapter.cell_to_action(cell_index(size - 1, 0)) == 0
    assert adapter.cell_to_action(cell_index(size - 1, size - 1)) == size - 1


@pytest.mark.parametrize("game", ["hex", "y"])
def test_no_swap_in_the_arena(game: str) -> None:
    adapter = make_adapter(game, 7)
    ours, theirs = adapter.new_state(), adapter.load().new_initial_state()
    ours.play(10)
    adapter.apply(theirs, 10)
    assert not ours.can_swap()
    assert len(theirs.legal_actions()) == adapter.cells - 1
    assert adapter.legal(theirs) == set(ours.legal_moves())


# -- the rules cross-check ----------------------------------------------------------------
@pytest.mark.parametrize(("game", "size"), [("uttt", None), ("hex", 5), ("hex", 11), ("y", 5), ("y", 11)])
def test_rules_agree_on_random_games(game: str, size: int | None) -> None:
    games = 6
    positions = check_rules(make_adapter(game, size), games, seed=3)
    assert positions > games * 10


def test_the_rules_check_catches_a_transposed_hex_board() -> None:
    class Transposed(HexAdapter):
        def cell_to_action(self, cell: int) -> int:
            row, col = divmod(cell, self.size)
            return col * self.size + row

        action_to_cell = cell_to_action

    with pytest.raises(AssertionError):
        check_rules(Transposed(7), 10, seed=1)


def test_the_rules_check_catches_a_shifted_y_mapping() -> None:
    class Shifted(YAdapter):  # the brief's formula with the rows counted from the apex
        def cell_to_action(self, cell: int) -> int:
            row, col = row_col(self.size)[cell]
            return col + row * self.size

        def action_to_cell(self, action: int) -> int:
            row, col = divmod(action, self.size)
            return cell_index(row, col)

    with pytest.raises(AssertionError):
        check_rules(Shifted(7), 10, seed=1)


# -- the opponent and a match -------------------------------------------------------------
@pytest.mark.parametrize(("game", "size"), [("uttt", None), ("hex", 5), ("y", 5)])
def test_the_opponent_plays_legal_moves(game: str, size: int | None) -> None:
    adapter = make_adapter(game, size)
    player = SpielPlayer(adapter, 0.001, seed=1, rates={0: 10_000.0})
    ours, theirs = adapter.new_state(), player.game.new_initial_state()
    while not ours.is_over():
        move, seconds = player.choose(theirs, len(ours.moves), game_seed=5)
        assert move in ours.legal_moves() and seconds >= 0
        ours.play(move)
        adapter.apply(theirs, move)
    assert adapter.winner(theirs) == ours.outcome().winner
    if game == "uttt":  # a free choice (the first move, at least) takes two decisions
        assert len(player.simulations) > len(ours.moves)
    else:
        assert len(player.simulations) == len(ours.moves)


def test_a_match_game_is_played_to_the_end_with_alternating_colours() -> None:
    config = MatchConfig("hex", 5, 0.005, 0.01, seed=2, gtp=False, rates={0: 10_000.0})
    match = Match(config)
    results = [match.play(index) for index in range(2)]
    assert [result.our_colour for result in results] == [FIRST, SECOND]
    for result in results:
        assert result.winner in (FIRST, SECOND)
        assert result.our_seconds and result.their_seconds and result.simulations


@pytest.mark.parametrize("jobs", [1, 2])
def test_json_summary(jobs: int) -> None:
    args = ["--game", "y", "--size", "5", "--games", "2", "--move-time", "0.005", "--check-games", "3",
            "--json", "--jobs", str(jobs)]
    if jobs == 1:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            assert main(args) == 0
        stdout = out.getvalue()
    else:  # as the bench calls it: a subprocess, its workers processes of their own
        run = subprocess.run([sys.executable, "-m", "tools.arena", *args], cwd=ROOT,
                             capture_output=True, text=True, timeout=300, check=True)
        stdout = run.stdout
    summary = json.loads(stdout)
    assert summary["game"] == "y" and summary["size"] == 5 and summary["level"] == "master"
    assert summary["games"] == 2 == summary["wins"] + summary["draws"] + summary["losses"]
    assert summary["draws"] == 0
    assert 0 <= summary["ci_low"] <= summary["score"] <= summary["ci_high"] <= 1
    assert summary["rules_check_games"] == 3 and summary["rules_check_positions"] > 3
    assert summary["sims_per_decision"] >= 50 and summary["jobs"] == jobs


def test_states_are_ours() -> None:
    assert isinstance(make_adapter("hex").new_state(), HexState)
    y = make_adapter("y").new_state()
    # The size players meet unless --size says otherwise (py/registry.py).
    assert isinstance(y, YState) and y.size == 13 and not y.swap_rule
    assert make_adapter("y", 11).new_state().size == 11
    with pytest.raises(ValueError, match="no board size"):
        make_adapter("uttt", 9)
