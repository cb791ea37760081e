"""Ultimate Tic-Tac-Toe end to end: a game against the computer to its end,
a two-player win by three boards in a line with a free choice on the way,
the move clock running out, resignation, alternating first move, reload;
the keyboard's focus ring whole round every cell."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from conftest import AppServer, open_app, screen_pixels, wait_ready

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


def ring_missing(page: Page, cell: str) -> list[str]:
    """Where the focused cell's ring does not show: each side probed at a
    quarter, the half and three quarters of its length, across a band of
    6 px either side of the cell's edge, for the ring's colour."""
    box = page.get_by_test_id(f"cell-{cell}").bounding_box()
    ring = tuple(map(int, re.findall(r"\d+", page.get_by_test_id(f"cell-{cell}").evaluate(
        "e => getComputedStyle(e).outlineColor"))[:3]))
    margin = 8
    clip = {"x": box["x"] - margin, "y": box["y"] - margin, "width": box["width"] + 2 * margin,
            "height": box["height"] + 2 * margin}
    colour = screen_pixels(page, clip)
    width, height = round(box["width"]), round(box["height"])

    def close(x: int, y: int) -> bool:
        return sum(abs(a - b) for a, b in zip(colour(x, y), ring)) < 60

    missing = []
    for fraction in (0.25, 0.5, 0.75):
        along_x, along_y = margin + round(width * fraction), margin + round(height * fraction)
        sides = {"top": [(along_x, margin + d) for d in range(-6, 7)],
                 "bottom": [(along_x, margin + height + d) for d in range(-6, 7)],
                 "left": [(margin + d, along_y) for d in range(-6, 7)],
                 "right": [(margin + width + d, along_y) for d in range(-6, 7)]}
        missing += [f"{side} at {fraction}" for side, probes in sides.items() if not any(close(*at) for at in probes)]
    return missing


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, {"width": 1280, "height": 800}])
def test_the_focus_ring_shows_on_all_four_sides_of_a_cell(page: Page, server: AppServer, viewport: dict,
                                                         scheme: str) -> None:
    """Every small board is open to the first move (each outlined): the ring
    round a cell on a small board's edge, in its middle, and in the big
    board's corner, moved there with the arrow keys."""
    page.set_viewport_size(viewport)
    page.emulate_media(color_scheme=scheme)
    open_app(page, server, "#/uttt?vs=two_player")
    page.get_by_test_id("cell-a1").focus()
    at = (0, 0)
    for cell in ("c3", "e5", "i9", "d6"):
        target = (ord(cell[0]) - ord("a"), int(cell[1]) - 1)
        for _ in range(target[0] - at[0]):
            page.keyboard.press("ArrowRight")
        for _ in range(at[0] - target[0]):
            page.keyboard.press("ArrowLeft")
        for _ in range(target[1] - at[1]):
            page.keyboard.press("ArrowDown")
        for _ in range(at[1] - target[1]):
            page.keyboard.press("ArrowUp")
        at = target
        expect(page.get_by_test_id(f"cell-{cell}")).to_be_focused()
        # Probed until it shows (a loaded machine may take a frame or two to
        # draw what the focus changed), for at most 5 s.
        missing = ring_missing(page, cell)
        deadline = time.monotonic() + 5
        while missing and time.monotonic() < deadline:
            page.wait_for_timeout(100)
            missing = ring_missing(page, cell)
        assert missing == [], (cell, viewport, scheme)
