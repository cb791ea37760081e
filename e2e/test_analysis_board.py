"""The analysis board (#/<game>/explore) as a player uses it: opened from a
past game and branched twice, a Hex puzzle set up by hand whose known
winning move the engine puts first, the heat map on every empty cell,
AutoPlay playing on and stopping, the game and the statistics left as they
were in storage, and leaving while the engine thinks."""

from __future__ import annotations

import re

import pytest
from conftest import (
    AppServer,
    Watch,
    assert_clean,
    open_app,
    wait_ready,
    wait_worker_answered,
    watch_context,
    watch_worker_calls,
)
from playwright.sync_api import Browser, Page, expect

PHONE, DESKTOP = {"width": 360, "height": 640}, {"width": 1280, "height": 800}
# Hex 7 x 7 between two people: Blue joins row 1 to row 7 down column a.
BLUE_WINS = ["a1", "g1", "a2", "g2", "a3", "g3", "a4", "g4", "a5", "g5", "a6", "g6", "a7"]
# Benzene's regression puzzle 7x7-enderton-02 (tests/data/hex_puzzles.json):
# Green to move wins only by d6.
PUZZLE_BLUE, PUZZLE_GREEN, PUZZLE_WIN = ["e2", "d4", "c5", "e5"], ["c3", "d5", "b7"], "d6"
# Everything stored but the past games' records (which keep their analysis boards).
STORAGE = """() => JSON.stringify(Object.keys(localStorage).filter((key) => !key.includes('past/')).sort()
  .map((key) => [key, localStorage.getItem(key)]))"""
# The past games' records without what they keep of their analysis boards.
PAST = """() => JSON.stringify(Object.keys(localStorage).filter((key) => key.includes('past/')).sort()
  .map((key) => [key, JSON.parse(localStorage.getItem(key), (name, value) => name === 'explore' ? undefined : value)]))"""
LINE_THINKING_MS = 60_000


def board_cell(page: Page, move: str):
    return page.get_by_test_id("explore-board").get_by_test_id(f"cell-{move}")


def variations(page: Page) -> list[tuple[str, str]]:
    """The move list's moves: (data-path, the move's text), in order."""
    return [tuple(pair) for pair in page.get_by_test_id("variation").evaluate_all(
        "items => items.map((item) => [item.dataset.path, item.querySelector('.vt-move').textContent])")]


def open_explore(page: Page, server: AppServer, route: str) -> None:
    open_app(page, server, route)
    expect(page.get_by_test_id("explore-board").locator("[data-move]").first).to_be_visible()


def play_two_player_game(page: Page, server: AppServer, moves: list[str]) -> None:
    open_app(page, server, "#/hex?size=7&vs=two_player&swap=0&starts=home")
    for index, move in enumerate(moves, start=1):
        page.get_by_test_id("board").get_by_test_id(f"cell-{move}").click()
        expect(page.get_by_test_id("move-text")).to_have_count(index)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_branching_twice_from_a_past_game_shows_both_variations_kept_with_it_and_changes_nothing_else(
        page: Page, server: AppServer, viewport: dict) -> None:
    page.set_viewport_size(viewport)
    play_two_player_game(page, server, BLUE_WINS)
    page.locator("#archive-panel summary").click()
    page.get_by_test_id("archive-item").first.locator(".past-open").click()
    page.get_by_test_id("review-first").click()
    for _ in range(4):
        page.get_by_test_id("review-next").click()
    stored, past = page.evaluate(STORAGE), page.evaluate(PAST)
    page.get_by_test_id("explore-open").click()
    expect(page).to_have_url(re.compile(re.escape(f"{server.url}#/hex/explore?x=1.") + r"[\w-]+~[0-9a-z]{6}$"))
    # The past game is the main line, the board at its fourth move.
    expect(page.get_by_test_id("variation")).to_have_count(len(BLUE_WINS))
    expect(page.locator("[data-testid=variation][aria-current]")).to_have_attribute("data-path", "0.0.0.0")
    board_cell(page, "d4").click()  # instead of a3: a variation
    board_cell(page, "c5").click()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    board_cell(page, "b2").click()  # instead of g1: a second one
    expect(page.get_by_test_id("variation")).to_have_count(len(BLUE_WINS) + 3)
    found = variations(page)
    assert ("0.0.0.0.1", "d4") in found and ("0.0.0.0.1.0", "c5") in found and ("0.1", "b2") in found
    branches = page.locator(".vt-branches")
    expect(branches).to_have_count(2)
    expect(branches.nth(0).get_by_test_id("variation")).to_have_text(["2.b2"])
    expect(branches.nth(1).get_by_test_id("variation")).to_have_text(["5.d4", "6.c5"])
    # A click on a move of the list shows its position; ↓ goes to the next move tried there.
    page.locator("[data-path='0.0.0.0.1.0']").click()
    expect(board_cell(page, "c5")).to_have_class("hx green last")
    page.locator("[data-path='0.1']").click()
    page.get_by_test_id("explore-board").focus()
    page.keyboard.press("ArrowUp")
    expect(page.locator("[data-testid=variation][aria-current]")).to_have_attribute("data-path", "0.0")
    # Promoting b2 makes it the main line's second move; deleting it takes its line.
    page.locator("[data-path='0.1']").click()
    page.get_by_test_id("explore-main").click()
    expect(page.locator("[data-testid=variation][aria-current]")).to_have_attribute("data-path", "0.0")
    page.get_by_test_id("explore-delete").click()
    expect(page.get_by_test_id("variation")).to_have_count(len(BLUE_WINS) + 2)
    kept = variations(page)
    page.get_by_test_id("explore-back").click()
    expect(page.get_by_test_id("game-screen")).to_be_visible()
    assert page.evaluate(STORAGE) == stored  # the live game, the statistics, the settings
    assert page.evaluate(PAST) == past  # the past game itself
    # After a reload, the past game's analysis board comes back with its variations.
    page.reload()
    wait_ready(page)
    page.locator("#archive-panel summary").click()
    page.get_by_test_id("archive-item").first.locator(".past-open").click()
    page.get_by_test_id("explore-open").click()
    expect(page.get_by_test_id("variation")).to_have_count(len(kept))
    assert variations(page) == kept


def test_a_hex_puzzle_set_up_by_hand_has_the_known_winning_move_as_the_engine_s_first_line(
        page: Page, server: AppServer) -> None:
    open_app(page, server, "#/hex?size=7")
    page.get_by_test_id("explore-open").click()
    page.get_by_test_id("setup-open").click()
    page.get_by_test_id("setup-clear").click()
    for move in PUZZLE_BLUE:
        board_cell(page, move).click()
    for move in PUZZLE_GREEN:
        board_cell(page, move).click()
        board_cell(page, move).click()
    page.get_by_test_id("setup-turn").select_option("first")
    page.get_by_test_id("setup-done").click()
    # Blue to move with four stones against three: the counts say it cannot be.
    expect(page.get_by_test_id("setup-error")).to_be_visible()
    expect(page.get_by_test_id("setup-error")).not_to_contain_text("setup.")
    page.get_by_test_id("setup-turn").select_option("second")
    page.get_by_test_id("setup-done").click()
    expect(page.get_by_test_id("explore-setup")).to_be_hidden()
    expect(page.get_by_test_id("explore-status")).to_have_text("Player 2 (Green) to move")
    page.get_by_test_id("engine-toggle").check()
    first = page.get_by_test_id("engine-line").first
    expect(first.locator(".line-move")).to_have_text(PUZZLE_WIN, timeout=LINE_THINKING_MS)
    expect(board_cell(page, PUZZLE_WIN)).to_have_attribute("data-candidate", "1")
    # Playing the line's move plays it on the board.
    first.locator("button").click()
    expect(board_cell(page, PUZZLE_WIN)).to_have_class("hx green last")


@pytest.mark.parametrize("game, route, empty", [("hex", "#/hex/explore", 121), ("uttt", "#/uttt/explore", 81),
                                                ("y", "#/y/explore", 91), ("notakto", "#/notakto/explore", 27)])
def test_the_heat_map_marks_every_empty_cell(page: Page, server: AppServer, game: str, route: str,
                                             empty: int) -> None:
    open_explore(page, server, route)
    cells = page.get_by_test_id("explore-board").locator("[data-move]:not([data-move=swap])")
    expect(cells).to_have_count(empty)
    page.get_by_test_id("heatmap-toggle").check()
    expect(page.get_by_test_id("engine-toggle")).to_be_checked()
    expect(page.get_by_test_id("explore-board").locator("[data-heat]")).to_have_count(empty, timeout=LINE_THINKING_MS)
    heats = page.get_by_test_id("explore-board").locator("[data-heat]").evaluate_all(
        "cells => cells.map((cell) => Number(cell.dataset.heat))")
    assert all(0 <= heat <= 100 for heat in heats)
    page.get_by_test_id("heatmap-toggle").uncheck()
    expect(page.get_by_test_id("explore-board").locator("[data-heat]")).to_have_count(0)


def test_autoplay_plays_on_for_both_sides_and_stops(page: Page, server: AppServer) -> None:
    open_app(page, server, "#/hex?size=7")
    page.get_by_test_id("explore-open").click()
    autoplay = page.get_by_test_id("autoplay")
    autoplay.click()
    expect(autoplay).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("variation")).to_have_count(3, timeout=LINE_THINKING_MS)
    autoplay.click()
    expect(autoplay).to_have_attribute("aria-pressed", "false")
    wait_worker_answered(page)
    played = page.get_by_test_id("variation").count()
    page.wait_for_timeout(2500)  # stopped: no move is played however long the engine is left on
    expect(page.get_by_test_id("variation")).to_have_count(played)
    # On again, it plays to the end of the game and stops there by itself.
    autoplay.click()
    expect(autoplay).to_have_attribute("aria-pressed", "false", timeout=120_000)
    expect(page.get_by_test_id("explore-status")).to_contain_text("wins")


def test_leaving_while_the_engine_thinks_draws_nothing_for_another_position(page: Page, server: AppServer) -> None:
    open_explore(page, server, "#/hex/explore")
    watch_worker_calls(page)
    page.get_by_test_id("engine-toggle").check()
    page.wait_for_function("window.workerCalls.includes('explore')")
    board_cell(page, "f6").click()  # a move while it thinks about the empty board
    expect(page.get_by_test_id("engine-line").first).to_be_visible(timeout=LINE_THINKING_MS)
    moves = page.get_by_test_id("engine-line").locator(".line-move").all_inner_texts()
    assert "f6" not in moves  # lines for the position on screen, where f6 is taken
    page.get_by_test_id("explore-back").click()  # leave while it thinks on
    expect(page.get_by_test_id("game-screen")).to_be_visible()
    wait_worker_answered(page)
    expect(page.get_by_test_id("explore-board").locator("[data-move]")).to_have_count(0)
    expect(page.get_by_test_id("error")).to_be_hidden()
    asked = len(page.evaluate("window.workerRequests.filter((r) => r.name === 'explore')"))
    page.wait_for_timeout(1500)
    assert len(page.evaluate("window.workerRequests.filter((r) => r.name === 'explore')")) == asked
    # Back: the board as it was left, f6 played, the engine on.
    page.go_back()
    expect(board_cell(page, "f6")).to_have_class("hx blue last")
    page.wait_for_function(f"window.workerRequests.filter((r) => r.name === 'explore').length > {asked}")
    last = page.evaluate("window.workerRequests.filter((r) => r.name === 'explore').at(-1).request.game")
    assert last["moves"] == ["f6"]


def test_a_shared_link_with_variations_opens_the_same_tree_in_a_fresh_profile(
        page: Page, server: AppServer, browser: Browser) -> None:
    play_two_player_game(page, server, BLUE_WINS[:6])
    page.get_by_test_id("explore-open").click()
    page.get_by_test_id("explore-prev").click()
    page.get_by_test_id("explore-prev").click()
    board_cell(page, "d4").click()
    board_cell(page, "e3").click()
    page.get_by_test_id("explore-home").click()
    board_cell(page, "g7").click()
    tree = variations(page)
    assert len(tree) == 9
    page.get_by_test_id("explore-share").click()
    expect(page.get_by_test_id("share-dialog")).to_be_visible()
    link = page.get_by_test_id("share-link").input_value()
    assert link == page.url and "#/hex/explore?x=" in link
    # A fresh profile: nothing stored, the whole tree from the link, at the same move.
    watch = Watch()
    fresh = browser.new_context(viewport={"width": 360, "height": 640}, locale="de-DE", service_workers="block")
    watch_context(fresh, watch)
    other = fresh.new_page()
    other.goto(link)
    wait_ready(other)
    expect(other.get_by_test_id("variation")).to_have_count(len(tree))
    assert variations(other) == tree
    expect(other.locator("[data-testid=variation][aria-current]")).to_have_attribute("data-path", "1")
    expect(other.get_by_test_id("explore-status")).to_have_text("Spieler 2 (Grün) ist am Zug")
    # Reloading keeps it; a damaged link says so and opens no other tree.
    other.reload()
    wait_ready(other)
    expect(other.get_by_test_id("variation")).to_have_count(len(tree))
    other.goto(link[:-3] + "zzz")
    expect(other.get_by_test_id("notice-link")).to_be_visible()
    fresh.close()
    assert_clean(watch)


@pytest.mark.parametrize("text, moves", [
    ("1. e5 2. swap-pieces 3. d4", ["e5", "swap", "d4"]),
    ("https://hexworld.org/board/#11c1,f6e7d8", ["f6", "e7", "d8"]),
])
def test_importing_a_plain_hex_move_list_or_a_hexworld_link_opens_it_on_the_analysis_board(
        page: Page, server: AppServer, text: str, moves: list[str]) -> None:
    open_explore(page, server, "#/hex/explore")
    page.get_by_test_id("explore-import").click()
    page.get_by_test_id("import-text").fill("not a record")
    page.get_by_test_id("import-submit").click()
    expect(page.get_by_test_id("import-error")).to_be_visible()
    page.get_by_test_id("import-text").fill(text)
    page.get_by_test_id("import-submit").click()
    expect(page.get_by_test_id("import-dialog")).to_be_hidden()
    expect(page.get_by_test_id("variation")).to_have_count(len(moves))
    assert [move for _, move in variations(page)] == moves
    # Exported with its variations and imported again: the same tree.
    board_cell(page, "a1").click()
    page.get_by_test_id("explore-home").click()
    board_cell(page, "b2").click()
    tree = variations(page)
    page.get_by_test_id("explore-export").click()
    record = page.get_by_test_id("export-text").input_value()
    assert record.startswith("(;FF[4]")
    page.get_by_test_id("export-close").click()
    page.get_by_test_id("explore-import").click()
    page.get_by_test_id("import-text").fill(record)
    page.get_by_test_id("import-submit").click()
    expect(page.get_by_test_id("import-dialog")).to_be_hidden()
    assert variations(page) == tree


def test_the_swap_is_played_on_the_analysis_board_by_its_button_while_it_is_allowed(page: Page, server: AppServer) -> None:
    open_explore(page, server, "#/hex/explore")
    swap = page.get_by_test_id("explore-swap")
    expect(swap).to_be_hidden()
    board_cell(page, "c3").click()
    expect(swap).to_be_visible()
    swap.click()
    assert [move for _, move in variations(page)] == ["c3", "swap"]
    expect(swap).to_be_hidden()
    expect(page.get_by_test_id("explore-status")).to_have_text("Player 1 (Blue) to move")
