"""After the move, as a player does it: a finished game stays across a
reload, stepping back with the buttons and the keys, a share link opened
in a fresh browser profile and played on against the computer, export and
import, damaged input that changes nothing, and the past games list."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, Page, expect

from conftest import AppServer, Watch, assert_clean, open_app, wait_ready, watch_context

THINK_MS = 30_000
# Hex 7 x 7 between two people: Blue joins row 1 to row 7 down column a.
BLUE_WINS = ["a1", "g1", "a2", "g2", "a3", "g3", "a4", "g4", "a5", "g5", "a6", "g6", "a7"]


def open_hex_two_players(page: Page, server: AppServer, size: int = 7) -> None:
    open_app(page, server, f"#/hex?size={size}&vs=two_player&swap=0&starts=home")
    expect(page.get_by_test_id("hex-board")).to_be_visible()


def play(page: Page, cells: list[str]) -> None:
    before = page.get_by_test_id("move-text").count()
    for index, cell in enumerate(cells, start=1):
        page.get_by_test_id(f"cell-{cell}").click()
        expect(page.get_by_test_id("move-text")).to_have_count(before + index)


def stones(page: Page) -> int:
    return page.locator(".hx.blue, .hx.green").count()


def storage_snapshot(page: Page) -> dict[str, str]:
    return json.loads(page.evaluate("JSON.stringify(Object.fromEntries(Object.entries(localStorage)))"))


def test_a_finished_game_stays_after_a_reload_and_steps_back_with_buttons_and_keys(page: Page, server: AppServer) -> None:
    open_hex_two_players(page, server)
    play(page, BLUE_WINS)
    expect(page.get_by_test_id("result-text")).to_have_text("Player 1 (Blue) wins!")
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("result-text")).to_have_text("Player 1 (Blue) wins!")
    expect(page.get_by_test_id("move-text")).to_have_text(BLUE_WINS)
    assert stones(page) == 13
    expect(page.get_by_test_id("move-1")).to_contain_text("1.")
    expect(page.get_by_test_id("move-2")).to_contain_text("Green")
    # Three steps back with the buttons: the last three stones go.
    for _ in range(3):
        page.get_by_test_id("review-prev").click()
    expect(page.get_by_test_id("review-label")).to_have_text("Move 10 of 13")
    assert stones(page) == 10
    for cell in ("a6", "g6", "a7"):
        expect(page.get_by_test_id(f"cell-{cell}")).not_to_have_class(re.compile(r"\b(blue|green)\b"))
    expect(page.get_by_test_id("move-10")).to_have_attribute("aria-current", "step")
    page.get_by_test_id("review-next").click()
    expect(page.get_by_test_id("review-label")).to_have_text("Move 11 of 13")
    page.get_by_test_id("review-last").click()
    expect(page.get_by_test_id("review-label")).to_be_hidden()
    assert stones(page) == 13
    # The same with the keyboard, the board area focused.
    page.get_by_test_id("board").focus()
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("review-label")).to_have_text("Move 10 of 13")
    assert stones(page) == 10
    page.keyboard.press("Home")
    expect(page.get_by_test_id("review-label")).to_have_text(re.compile("^Start of the game"))
    assert stones(page) == 0
    page.keyboard.press("End")
    assert stones(page) == 13
    # A move in the list shows the position after it.
    page.get_by_test_id("move-3").click()
    expect(page.get_by_test_id("review-label")).to_have_text("Move 3 of 13")
    assert stones(page) == 3
    page.get_by_test_id("review-live").click()
    expect(page.get_by_test_id("result-text")).to_have_text("Player 1 (Blue) wins!")
    # Until a new game: then a fresh board.
    page.get_by_test_id("new-game").click()
    expect(page.get_by_test_id("move-text")).to_have_count(0)


def test_looking_back_while_playing_locks_the_board_until_back_in_the_game(page: Page, server: AppServer) -> None:
    open_hex_two_players(page, server, size=7)
    play(page, ["d4", "c3", "e5"])
    page.get_by_test_id("move-1").click()
    expect(page.get_by_test_id("status")).to_have_text(re.compile("^Looking back"))
    expect(page.get_by_test_id("cell-a1")).to_have_attribute("aria-disabled", "true")
    page.get_by_test_id("cell-a1").click(force=True)
    expect(page.get_by_test_id("move-text")).to_have_count(3)
    page.get_by_test_id("review-live").click()
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move (Green)")
    page.get_by_test_id("cell-a1").click()
    expect(page.get_by_test_id("move-text")).to_have_count(4)


def test_a_share_link_opens_in_a_fresh_profile_and_plays_on_against_the_computer(
        page: Page, server: AppServer, browser: Browser) -> None:
    open_hex_two_players(page, server, size=7)
    moves = ["d4", "c5", "e3"]
    play(page, moves)
    page.get_by_test_id("share-open").click()
    link = page.get_by_test_id("share-link").input_value()
    assert link.startswith(server.url) and "#/hex?g=" in link and len(link) < len(server.url) + 60
    page.get_by_test_id("share-close").click()

    fresh = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US", service_workers="block")
    watch = Watch()
    watch_context(fresh, watch)
    try:
        friend = fresh.new_page()
        friend.goto(link)
        wait_ready(friend)
        expect(friend.get_by_test_id("status")).to_have_text(re.compile("^A shared game"))
        expect(friend.get_by_test_id("move-text")).to_have_text(moves)
        expect(friend).to_have_url(link)  # the address keeps the shared game while it is on screen
        for cell, colour in (("d4", "blue"), ("c5", "green"), ("e3", "blue")):
            expect(friend.get_by_test_id(f"cell-{cell}")).to_have_class(re.compile(rf"\b{colour}\b"))
        assert friend.locator(".hx.blue, .hx.green").count() == 3
        friend.get_by_test_id("continue-computer").click()
        expect(friend.get_by_test_id("status")).to_have_text("Your turn (Green)")
        expect(friend).to_have_url(re.compile(r"#/hex$"))  # the game is the friend's now
        friend.get_by_test_id("cell-a1").click()
        expect(friend.get_by_test_id("move-text")).to_have_count(5, timeout=THINK_MS)
        expect(friend.get_by_test_id("status")).to_have_text("Your turn (Green)")
        friend.reload()
        wait_ready(friend)
        expect(friend.get_by_test_id("move-text")).to_have_count(5)
        assert_clean(watch)
    finally:
        fresh.close()


def test_export_gives_hexgui_sgf_and_import_opens_it_for_review(page: Page, server: AppServer) -> None:
    open_hex_two_players(page, server, size=7)
    play(page, ["d4", "c5"])
    page.get_by_test_id("export-open").click()
    text = page.get_by_test_id("export-text").input_value()
    assert text.startswith("(;") and "GM[11]" in text and "SZ[7]" in text and ";B[d4]" in text
    expect(page.get_by_test_id("export-download")).to_have_attribute("download", "hex-7x7.sgf")
    page.get_by_test_id("export-close").click()
    play(page, ["a1"])
    page.get_by_test_id("import-open").click()
    page.get_by_test_id("import-text").fill(text)
    page.get_by_test_id("import-submit").click()
    expect(page.get_by_test_id("status")).to_have_text(re.compile("^An imported game"))
    expect(page.get_by_test_id("move-text")).to_have_text(["d4", "c5"])
    page.get_by_test_id("review-live").click()
    expect(page.get_by_test_id("move-text")).to_have_text(["d4", "c5", "a1"])  # the player's own game
    # The same text as a file.
    page.get_by_test_id("import-open").click()
    page.get_by_test_id("import-file").set_input_files(
        files=[{"name": "game.sgf", "mimeType": "application/x-go-sgf", "buffer": text.encode()}])
    expect(page.get_by_test_id("status")).to_have_text(re.compile("^An imported game"))
    expect(page.get_by_test_id("move-text")).to_have_text(["d4", "c5"])


def test_garbage_import_and_a_truncated_link_say_so_and_change_nothing(page: Page, server: AppServer) -> None:
    open_app(page, server, "#/hex?size=7&vs=two_player&swap=0&starts=home")
    play(page, BLUE_WINS[:2])
    page.get_by_test_id("share-open").click()
    link = page.get_by_test_id("share-link").input_value()
    page.get_by_test_id("share-close").click()
    play(page, ["b4"])
    before = storage_snapshot(page)

    page.get_by_test_id("import-open").click()
    page.get_by_test_id("import-text").fill("this is not a game {}")
    page.get_by_test_id("import-submit").click()
    expect(page.get_by_test_id("import-error")).to_be_visible()
    expect(page.get_by_test_id("import-error")).not_to_be_empty()
    page.get_by_test_id("import-close").click()
    expect(page.get_by_test_id("move-text")).to_have_text(["a1", "g1", "b4"])

    page.goto(link[:-3])
    expect(page.get_by_test_id("notice-link")).to_be_visible()
    expect(page.get_by_test_id("move-text")).to_have_text(["a1", "g1", "b4"])
    page.goto(server.url + "#/chess?g=abc")
    expect(page.get_by_test_id("notice-link")).to_be_visible()
    expect(page.get_by_test_id("picker")).to_be_visible()
    assert storage_snapshot(page) == before
    expect(page.get_by_test_id("error")).to_be_hidden()


def test_past_games_after_two_games_review_one_delete_one(page: Page, server: AppServer) -> None:
    open_hex_two_players(page, server)
    page.locator("#archive-panel summary").click()
    expect(page.get_by_test_id("archive-empty")).to_be_visible()
    play(page, BLUE_WINS)
    page.get_by_test_id("new-game").click()
    green_wins = ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1", "e2", "f1", "f2", "a3", "g2"]
    play(page, green_wins)
    expect(page.get_by_test_id("result-text")).to_have_text("Player 2 (Green) wins!")
    items = page.get_by_test_id("archive-item")
    expect(items).to_have_count(2)
    expect(items.first).to_contain_text("Player 2 (Green) won")  # newest first
    expect(items.nth(1)).to_contain_text("13 moves")
    items.nth(1).locator(".past-open").click()
    expect(page.get_by_test_id("status")).to_have_text(re.compile("^A past game"))
    expect(page.get_by_test_id("move-text")).to_have_text(BLUE_WINS)
    expect(page.get_by_test_id("result-text")).to_have_text("Player 1 (Blue) wins!")
    page.get_by_test_id("review-prev").click()
    assert stones(page) == 12
    items.nth(1).get_by_test_id("archive-delete").click()
    expect(items).to_have_count(1)
    expect(page.get_by_test_id("move-text")).to_have_text(green_wins)  # back to the game on screen
    expect(page.get_by_test_id("stat-games")).to_have_text("2")  # the statistics keep both
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("archive-item")).to_have_count(1)


def test_importing_another_games_text_opens_that_game_for_review(page: Page, server: AppServer) -> None:
    open_hex_two_players(page, server)
    play(page, ["d4"])
    page.get_by_test_id("import-open").click()
    page.get_by_test_id("import-text").fill("[abstract-games 1] game=y size=9 swap=on\nmoves: c5 swap e5\n")
    page.get_by_test_id("import-submit").click()
    expect(page.get_by_test_id("game-title")).to_have_text("Y")
    expect(page.get_by_test_id("status")).to_have_text(re.compile("^An imported game"))
    expect(page.get_by_test_id("move-text")).to_have_text(["c5", "swap", "e5"])
    page.get_by_test_id("back-link").click()
    page.get_by_test_id("pick-hex").click()
    expect(page.get_by_test_id("move-text")).to_have_text(["d4"])  # the Hex game is as it was
