"""Hints, the evaluation bar and a game's analysis, as a player uses them
in real Chromium, with the engines thinking in the page's worker: a hint in
each game that has one, the one winning move of a Hex position found, the
bar moving after a decisive move, a finished game analysed with its bad
move marked (a whole round dot on the graph), and an analysis left midway
and resumed."""

from __future__ import annotations

import json
import sys

import pytest
from playwright.sync_api import Page, expect

from conftest import ROOT, AppServer, open_app, wait_ready, wait_worker_answered

sys.path.insert(0, str(ROOT / "py"))
from app.model.transfer import share_payload  # noqa: E402
from registry import STATES  # noqa: E402

POSITIONS = json.loads((ROOT / "tests" / "data" / "hint_positions.json").read_text())
HINT_MS = 20_000  # the hint's 2 s budget, with the worker's start and a busy machine
ANALYSIS_MS = 240_000
# Hex 7 x 7 between two people: Blue walks straight across down column d,
# Green plays along the edge, far from the fight (as tests/app/test_analysis.py).
FINISHED = ["d4", "a1", "d3", "a2", "d5", "a3", "d2", "a4", "d6", "a5", "d1", "a6", "d7"]


# How far a drawn mark reaches from its centre, up, down, left and right
# (half pixels), as the page finds it under a pointer.
DOT_REACH = """(mark) => {
  const box = mark.getBoundingClientRect(), x = box.x + box.width / 2, y = box.y + box.height / 2;
  const reach = (dx, dy) => {
    let far = 0;
    while (far < 20 && document.elementsFromPoint(x + dx * (far + 0.5), y + dy * (far + 0.5)).includes(mark)) far += 0.5;
    return far;
  };
  return [reach(0, -1), reach(0, 1), reach(-1, 0), reach(1, 0)];
}"""


def link_to(game: str, settings: dict, moves: list[str]) -> str:
    """The share link's route for a position (its moves from the start)."""
    state = STATES[game].from_settings(settings)
    for text in moves:
        state.play(text)
    return f"#/{game}?g={share_payload(state, None)}"


def continue_as_two_players(page: Page, server: AppServer, game: str, settings: dict, moves: list[str]) -> None:
    """Open the position from a link and play on from it as two players."""
    open_app(page, server, link_to(game, settings, moves))
    expect(page.get_by_test_id("move-text")).to_have_count(len(moves))
    page.get_by_test_id("continue-two").click()
    if page.get_by_test_id("confirm").is_visible():
        page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("review-label")).to_be_hidden()


@pytest.mark.parametrize("game, route", [
    ("uttt", "#/uttt?vs=beginner&starts=home"),
    ("hex", "#/hex?size=7&vs=beginner&swap=0&starts=home"),
    ("y", "#/y?size=9&vs=beginner&swap=0&starts=home"),
])
def test_a_hint_marks_a_legal_empty_cell_and_the_game_then_counts_as_assisted(page: Page, server: AppServer,
                                                                              game: str, route: str) -> None:
    open_app(page, server, route)
    hint = page.get_by_test_id("hint")
    expect(hint).to_be_enabled()
    expect(page.get_by_test_id("assisted-note")).to_be_hidden()
    hint.click()
    expect(page.get_by_test_id("hint-line")).to_be_visible()
    marked = page.locator("[data-hint=true]")
    expect(marked).to_have_count(1, timeout=HINT_MS)
    move = marked.get_attribute("data-move")
    # Legal and empty: the board lets the player play it, and the line names it.
    expect(marked).to_have_attribute("aria-disabled", "false")
    assert page.locator(f'[data-move="{move}"].x, [data-move="{move}"].o, [data-move="{move}"].blue, '
                        f'[data-move="{move}"].green').count() == 0
    expect(page.get_by_test_id("hint-line")).to_contain_text(move)
    expect(marked).to_have_attribute("aria-label", f"{move}, empty, the engine's move")
    expect(page.get_by_test_id("assisted-note")).to_be_visible()
    marked.click()  # played like any move; the mark goes with the position
    expect(page.get_by_test_id("move-1")).to_contain_text(move)
    expect(page.locator("[data-hint=true]")).to_have_count(0)
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("assisted-note")).to_be_visible()  # saved with the game


def test_in_a_hex_position_with_one_winning_move_the_hint_shows_that_move(page: Page, server: AppServer) -> None:
    position = POSITIONS["hex7_one_winner"]
    continue_as_two_players(page, server, "hex", {"size": 7, "swap": False}, position["moves"])
    page.get_by_test_id("hint").click()
    marked = page.locator("[data-hint=true]")
    expect(marked).to_have_count(1, timeout=HINT_MS)
    expect(marked).to_have_attribute("data-move", position["winning"])
    expect(page.get_by_test_id("hint-line")).to_contain_text(position["winning"])


def test_the_evaluation_bar_moves_toward_the_side_that_made_a_decisive_move(page: Page, server: AppServer) -> None:
    position = POSITIONS["y9_decisive"]
    continue_as_two_players(page, server, "y", {"size": position["size"], "swap": position["swap"]},
                            position["moves"])
    page.get_by_test_id("toggle-eval").check()
    bar = page.get_by_test_id("eval-bar")
    expect(bar).to_have_attribute("aria-busy", "false", timeout=HINT_MS)
    # An estimate here (see the position's note: unproven at one and a half times the
    # playouts the worker gets), unless a much faster machine proves it: then the win
    # it shows must be the mover's, and stay so.
    proven_before = bar.get_attribute("data-proven") == "true"
    before = int(bar.get_attribute("aria-valuenow"))
    mover = len(position["moves"]) % 2  # 0: the first player (Blue) makes the decisive move
    assert mover == (0 if position["mover"] == "first" else 1)
    page.get_by_test_id(f"cell-{position['move']}").click()
    expect(page.get_by_test_id("move-text")).to_have_count(len(position["moves"]) + 1)
    expect(bar).to_have_attribute("aria-busy", "false", timeout=HINT_MS)
    after = int(bar.get_attribute("aria-valuenow"))
    mover_before, mover_after = (before, after) if mover == 0 else (100 - before, 100 - after)
    # Toward the mover: to a proven win, or at the least higher (on a machine
    # so slow that the search after the move falls short of the proof).
    if proven_before:
        assert mover_before == mover_after == 100, (before, after)
    else:
        assert mover_before < mover_after, (before, after)
    if bar.get_attribute("data-proven") == "true":
        assert mover_after == 100, (before, after)
    expect(bar).to_contain_text("Blue" if mover == 0 else "Green")


def test_analysing_a_finished_game_shows_progress_the_graph_and_marks_the_bad_move(page: Page,
                                                                                  server: AppServer) -> None:
    game = POSITIONS["hex7_20_blunder"]
    open_app(page, server, link_to("hex", {"size": 7, "swap": False}, game["moves"]))
    expect(page.get_by_test_id("move-text")).to_have_count(len(game["moves"]))
    # The longest budget: the blunder's two positions are then proven (won
    # before it, lost after it) even on a slow, busy machine.
    page.get_by_test_id("analysis-budget").select_option("2.0")
    page.get_by_test_id("analyse").click()
    expect(page.get_by_test_id("analysis-progress")).to_be_visible()
    expect(page.get_by_test_id("analysis-cancel")).to_be_visible()
    expect(page.get_by_test_id("analysis-graph")).to_be_visible(timeout=ANALYSIS_MS)
    expect(page.get_by_test_id("analysis-progress")).to_be_hidden(timeout=ANALYSIS_MS)
    expect(page.get_by_test_id("analyse")).to_be_disabled()
    ply = game["blunder_ply"] + 1  # the move's number in the list
    bad = page.get_by_test_id(f"move-{ply}")
    expect(bad).to_have_attribute("data-judgement", "blunder")
    expect(bad).to_contain_text(game["blunder"])
    expect(page.get_by_test_id("analysis-summary")).to_contain_text("blunder")
    # Each move's mark on the graph, a whole round dot: its reach from its
    # centre, as the page hit-tests what it drew, the same up, down, left and
    # right, even for the blunder's dots at 100 % and at 0 %.
    page.get_by_test_id("analysis-graph").evaluate("graph => graph.scrollIntoView({block: 'center'})")
    dots = page.locator(".graph-mark")
    assert dots.count() >= 1
    for index in range(dots.count()):
        reach = dots.nth(index).evaluate(DOT_REACH)
        assert min(reach) >= 2.5 and max(reach) - min(reach) <= 1, reach
    # The engine's better move is one click away: the position before, marked.
    page.get_by_test_id(f"better-{ply}").click()
    expect(page.get_by_test_id("review-label")).to_have_text(f"Move {ply - 1} of {len(game['moves'])}")
    expect(page.locator("[data-hint=true]")).to_have_count(1)
    expect(page.get_by_test_id("hint-line")).to_contain_text("Better here")


def test_leaving_midway_and_coming_back_resumes_the_same_games_analysis(page: Page, server: AppServer) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_app(page, server, "#/hex?size=7&vs=two_player&swap=0&starts=home")
    for index, cell in enumerate(FINISHED, start=1):
        page.get_by_test_id(f"cell-{cell}").click()
        expect(page.get_by_test_id("move-text")).to_have_count(index)
    expect(page.get_by_test_id("result")).to_be_visible()
    page.get_by_test_id("analysis-budget").select_option("2.0")  # slow enough to leave in the middle
    page.get_by_test_id("analyse").click()
    progress = page.get_by_test_id("analysis-progress")
    page.wait_for_function("Number(document.querySelector('[data-testid=analysis-progress]').value) >= 3",
                           timeout=ANALYSIS_MS)
    page.get_by_test_id("back-link").click()
    expect(page.get_by_test_id("picker")).to_be_visible()
    wait_worker_answered(page)  # the position that was out at the worker has its answer, dropped
    # Another game's screen, with the engine's answers arriving for the one left.
    page.get_by_test_id("pick-uttt").click()
    expect(page.get_by_test_id("uttt-board")).to_be_visible()
    page.get_by_test_id("toggle-eval").check()
    expect(page.get_by_test_id("eval-bar")).to_have_attribute("aria-busy", "false", timeout=HINT_MS)
    expect(page.get_by_test_id("analysis")).to_be_hidden()
    page.go_back()
    page.go_back()
    expect(page.get_by_test_id("hex-board")).to_be_visible()
    expect(page.get_by_test_id("move-text")).to_have_text(FINISHED)
    done = int(progress.get_attribute("value"))
    assert 3 <= done < len(FINISHED) + 1
    expect(page.get_by_test_id("analyse")).to_have_text("Resume the analysis")
    page.get_by_test_id("analysis-budget").select_option("0.2")
    page.get_by_test_id("analyse").click()
    expect(page.get_by_test_id("analysis-progress")).to_be_hidden(timeout=ANALYSIS_MS)
    expect(page.get_by_test_id("analysis-graph")).to_be_visible()
    # Kept with the past game: the record holds this game's moves and a verdict per position.
    record = page.evaluate("""() => Object.entries(localStorage)
        .filter(([key]) => key.includes('past/hex/')).map(([, value]) => JSON.parse(value).data)[0]""")
    assert record["analysis"]["moves"] == FINISHED
    assert all(verdict is not None for verdict in record["analysis"]["verdicts"])
    # A new game is not analysed, and takes none of the old marks.
    page.get_by_test_id("new-game").click()
    expect(page.get_by_test_id("analysis")).to_be_hidden()
    expect(page.locator("[data-judgement]")).to_have_count(0)
    assert errors == []


def test_the_evaluation_bar_reads_the_same_until_the_position_changes(page: Page, server: AppServer) -> None:
    """With the bar on, a position's value stays put: while the player
    thinks, after a hint for the same position (a longer search of its
    own), and when they step back to it; the next move changes it."""
    # 11 x 11, four stones: far from proven, so a longer search says another value.
    open_app(page, server, "#/hex?size=11&vs=two_player&swap=0&starts=home")
    for index, cell in enumerate(["f6", "e7", "g5", "d8"], start=1):
        page.get_by_test_id(f"cell-{cell}").click()
        expect(page.get_by_test_id("move-text")).to_have_count(index)
    page.get_by_test_id("toggle-eval").check()
    bar = page.get_by_test_id("eval-bar")
    expect(bar).to_have_attribute("aria-busy", "false", timeout=HINT_MS)

    def reading() -> tuple[str, str | None]:
        return bar.inner_text(), bar.get_attribute("aria-valuenow")

    first = reading()
    page.wait_for_timeout(3000)
    assert reading() == first
    page.get_by_test_id("hint").click()
    expect(page.locator("[data-hint=true]")).to_have_count(1, timeout=HINT_MS)
    wait_worker_answered(page)
    assert reading() == first
    page.get_by_test_id("review-prev").click()
    expect(page.get_by_test_id("review-label")).to_have_text("Move 3 of 4")
    expect(bar).to_have_attribute("aria-busy", "false", timeout=HINT_MS)
    page.get_by_test_id("review-live").click()
    expect(page.get_by_test_id("review-label")).to_be_hidden()
    assert reading() == first
    page.get_by_test_id("cell-f7").click()
    expect(page.get_by_test_id("move-text")).to_have_count(5)
    expect(bar).to_have_attribute("aria-busy", "false", timeout=HINT_MS)
    assert bar.get_attribute("aria-valuenow") is not None
