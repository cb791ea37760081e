"""Ultimate Tic-Tac-Toe end to end: a game against the computer to its end,
a two-player win by three boards in a line with a free choice on the way,
the move clock running out, resignation, alternating first move, reload."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import AppServer, open_app, wait_ready

THINK_MS = 30_000
# A two-player game in which X wins small boards 2, 5 and 8 (the middle
# column of the big board); with move 13 X sends O to a decided board.
X_WINS_MIDDLE_COLUMN = "e6 e8 e5 e4 e1 e3 d7 b1 f1 h1 d1 b3 e7 b7 d6 b8 f4 g2 c4 h2 f7".split()


def open_uttt(page: Page, server: AppServer) -> Page:
    open_app(page, server, "#/uttt")
    expect(page.get_by_test_id("cell-e5")).to_be_visible()
    return page


def wait_my_turn(page: Page) -> None:
    page.wait_for_function(
        "!document.querySelector('[data-testid=result]').hidden"
        " || document.querySelector('.cell[aria-disabled=\"false\"]') !== null",
        timeout=THINK_MS,
    )


def test_a_full_game_against_the_computer(page: Page, server: AppServer) -> None:
    open_uttt(page, server)
    page.get_by_test_id("setting-opponent").select_option("computer:beginner")
    page.get_by_test_id("setting-starts").select_option("home")
    for _ in range(60):
        wait_my_turn(page)
        if page.get_by_test_id("result").is_visible():
            break
        page.locator('.cell[aria-disabled="false"]').first.click()
    else:
        raise AssertionError("the game did not end")
    expect(page.get_by_test_id("result-text")).to_have_text(re.compile(r"You won!|You lost\.|It's a draw\."))
    expect(page.get_by_test_id("result-reason")).to_have_text(
        re.compile("three small boards in a line|nobody has three in a line"))
    expect(page.get_by_test_id("stat-games")).to_have_text("1")
    expect(page.get_by_test_id("stat-rating")).not_to_have_text("—")
    assert page.locator('.cell[aria-disabled="false"]').count() == 0


def test_two_players_three_boards_in_a_line_and_a_free_choice(page: Page, server: AppServer) -> None:
    open_uttt(page, server)
    page.get_by_test_id("setting-opponent").select_option("two_player")
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move (X)")
    expect(page.get_by_test_id("status-detail")).to_have_text("Play in any open small board.")
    for index, cell in enumerate(X_WINS_MIDDLE_COLUMN):
        if index == 1:
            # e6 sent O to small board 8: only its cells take a move.
            expect(page.get_by_test_id("status-detail")).to_have_text("Play in small board 8 (d7-f9).")
            expect(page.get_by_test_id("small-8")).to_have_attribute("data-state", "target")
            expect(page.get_by_test_id("cell-a1")).to_have_attribute("aria-disabled", "true")
            page.get_by_test_id("cell-a1").click(force=True)
            expect(page.locator(".cell.x, .cell.o")).to_have_count(1)
        if index == 13:
            # e7 sent O to small board 2, which X has won: a free choice.
            expect(page.get_by_test_id("small-2")).to_have_attribute("data-state", "won_x")
            expect(page.get_by_test_id("status")).to_have_text("Player 2 to move (O)")
            expect(page.get_by_test_id("status-detail")).to_have_text("Play in any open small board.")
            assert page.locator(".ut-small.target").count() > 1
        page.get_by_test_id(f"cell-{cell}").click()
    expect(page.get_by_test_id("result-text")).to_have_text("Player 1 (X) wins!")
    expect(page.get_by_test_id("result-reason")).to_have_text("Player 1 won three small boards in a line.")
    for board in (2, 5, 8):
        expect(page.get_by_test_id(f"small-{board}")).to_have_class(re.compile(r"\bwinning\b"))
        expect(page.get_by_test_id(f"small-{board}")).to_have_attribute("aria-label", re.compile("won by X"))
    expect(page.get_by_test_id("stat-games")).to_have_text("1")


def test_the_move_clock_runs_out_and_the_computer_moves_for_the_player(page: Page, server: AppServer) -> None:
    open_uttt(page, server)
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.get_by_test_id("setting-time").select_option("30")
    expect(page.get_by_test_id("clock")).to_have_text("0:30")
    page.get_by_test_id("cell-e5").click()
    expect(page.get_by_test_id("clock")).to_have_text(re.compile(r"0:(30|29)"))
    page.evaluate("appAdvanceClock(25000)")
    expect(page.get_by_test_id("clock")).to_have_text(re.compile(r"0:0[45]"))
    expect(page.get_by_test_id("clock")).to_have_class(re.compile(r"\blow\b"))
    page.evaluate("appAdvanceClock(6000)")
    # Player 2's time ran out: the computer plays in small board 5 for them.
    expect(page.locator(".cell.o")).to_have_count(1, timeout=THINK_MS)
    expect(page.get_by_test_id("live")).to_have_text(re.compile(r"Player 2's time ran out: the computer played [d-f][4-6] in small board 5 instead\."))
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move (X)")
    played = page.locator(".cell.o").get_attribute("data-move")
    assert played is not None and played[0] in "def" and played[1] in "456"
    expect(page.get_by_test_id("clock")).to_have_text(re.compile(r"0:(30|29)"))
    # Said on screen too, until Player 2 moves again.
    expect(page.get_by_test_id("status-note")).to_have_text(f"Time ran out for Player 2: the computer played {played} instead.")
    page.locator('[data-move][aria-disabled="false"]').first.click()
    expect(page.get_by_test_id("status-note")).to_be_visible()  # Player 1 moved: still there for Player 2
    page.locator('[data-move][aria-disabled="false"]').first.click()
    expect(page.get_by_test_id("status-note")).to_be_hidden()


def test_reload_restores_the_position_and_the_running_clock(page: Page, server: AppServer) -> None:
    open_uttt(page, server)
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.get_by_test_id("setting-time").select_option("60")
    for cell in ("e5", "e4", "d2"):
        page.get_by_test_id(f"cell-{cell}").click()
    # Three seconds of Player 2's minute gone, as the player sees them go.
    expect(page.get_by_test_id("clock")).to_have_text(re.compile(r"^0:5[0-7]$"), timeout=10_000)
    page.reload()
    wait_ready(page)
    expect(page.locator(".cell.x")).to_have_count(2)
    expect(page.locator(".cell.o")).to_have_count(1)
    expect(page.get_by_test_id("cell-d2")).to_have_class(re.compile(r"\blast\b"))
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move (O)")
    expect(page.get_by_test_id("status-detail")).to_have_text("Play in small board 4 (a4-c6).")
    # The clock kept running while the page was away: it did not restart.
    seconds = int(page.get_by_test_id("clock").inner_text().split(":")[1])
    assert seconds <= 57


def test_resign_and_the_first_move_alternates(page: Page, server: AppServer) -> None:
    open_uttt(page, server)
    expect(page.get_by_test_id("status")).to_have_text("Your turn (X)")
    page.get_by_test_id("cell-a1").click()
    wait_my_turn(page)
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("result-text")).to_have_text("You lost.")
    expect(page.get_by_test_id("result-reason")).to_have_text("You resigned.")
    expect(page.get_by_test_id("stat-games")).to_have_text("1")
    page.get_by_test_id("new-game").click()
    # The other seat plays X now: the computer opens, you answer with O.
    expect(page.locator(".cell.x")).to_have_count(1, timeout=THINK_MS)
    expect(page.get_by_test_id("status")).to_have_text("Your turn (O)")
