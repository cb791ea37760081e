"""Moving between screens as a player does: leaving a game while the
computer thinks, typing another game's address, Back and Forward, links
with settings in them, a running move clock left behind. Nothing from a
game that was left may reach the next screen."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import TICK_MS, AppServer, open_app, wait_computer_answered, wait_page_timer, watch_worker_calls

THINK_MS = 30_000


def wait_one_tick(page: Page) -> None:
    """Until every tick of a move clock that was due has come (a clock left
    behind that ticks on shows nothing, so no event on the page marks that
    moment)."""
    wait_page_timer(page, TICK_MS)


def expect_no_error(page: Page) -> None:
    expect(page.get_by_test_id("error")).to_be_hidden()


def test_leaving_uttt_while_the_computer_thinks_keeps_its_reply_off_the_hex_screen(page: Page, server: AppServer) -> None:
    open_app(page, server, "?vs=master#/uttt")
    watch_worker_calls(page)
    page.get_by_test_id("setting-starts").select_option("home")
    page.get_by_test_id("cell-e5").click()
    expect(page.locator(".cell.o")).to_have_count(1, timeout=THINK_MS)  # the opening book's reply, at once
    page.locator('.cell[aria-disabled="false"]').first.click()
    expect(page.get_by_test_id("status")).to_have_text("The computer is thinking…")
    # Out of the book the master thinks for 2 s: the screen is left once
    # the worker has the question, so its reply comes after.
    page.wait_for_function("window.workerCalls.filter((name) => name === 'choose_move').length === 2")
    page.get_by_test_id("back-link").click()
    page.get_by_test_id("pick-hex").click()
    expect(page.get_by_test_id("hex-board")).to_be_visible()
    wait_computer_answered(page)  # the UTTT reply has come and gone
    expect(page.get_by_test_id("game-title")).to_have_text("Hex")
    expect(page.get_by_test_id("uttt-board")).to_have_count(0)
    expect(page.get_by_test_id("hex-board")).to_be_visible()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(0)
    expect(page.get_by_test_id("status")).not_to_have_text(re.compile(r"\(X\)|\(O\)"))
    expect_no_error(page)
    # Back in UTTT, the game resumes: the computer thinks again and answers.
    page.get_by_test_id("back-link").click()
    page.get_by_test_id("pick-uttt").click()
    expect(page.locator(".cell.o")).to_have_count(2, timeout=THINK_MS)
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(4)
    expect(page.get_by_test_id("status")).to_have_text("Your turn (X)")


def test_leaving_notakto_while_the_computer_thinks_keeps_its_reply_off_the_uttt_screen(page: Page, server: AppServer) -> None:
    open_app(page, server, "?vs=perfect#/notakto")
    page.get_by_test_id("setting-starts").select_option("home")
    page.get_by_test_id("cell-1a1").click()
    page.get_by_test_id("back-link").click()
    page.get_by_test_id("pick-uttt").click()
    expect(page.get_by_test_id("uttt-board")).to_be_visible()
    wait_computer_answered(page)  # the Notakto reply, if it was asked for, has come and gone
    expect(page.get_by_test_id("notakto-boards")).to_have_count(0)
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(0)
    expect(page.get_by_test_id("setting-boards")).to_have_count(0)
    expect_no_error(page)


def test_typing_another_games_address_mid_game_shows_only_that_game(page: Page, server: AppServer) -> None:
    open_app(page, server, "#/notakto")
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.get_by_test_id("cell-1a1").click()  # the focus is on a Notakto cell
    page.evaluate("location.hash = '#/uttt'")
    expect(page.get_by_test_id("uttt-board")).to_be_visible()
    expect_no_error(page)
    expect(page.get_by_test_id("game-title")).to_have_text("Ultimate Tic-Tac-Toe")
    expect(page.get_by_test_id("notakto-boards")).to_have_count(0)
    expect(page.get_by_test_id("setting-boards")).to_have_count(0)
    expect(page.get_by_test_id("toggle-hints")).to_have_count(0)
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(0)
    expect(page.get_by_test_id("setting-time")).to_be_visible()
    # And back: the Notakto game is as it was left.
    page.go_back()
    expect(page.get_by_test_id("notakto-boards")).to_be_visible()
    expect(page.get_by_test_id("cell-1a1")).to_have_class(re.compile(r"\bx\b"))
    expect(page.get_by_test_id("setting-time")).to_have_count(0)
    expect_no_error(page)


def test_back_then_forward_while_the_computer_thinks(page: Page, server: AppServer) -> None:
    open_app(page, server)
    page.get_by_test_id("pick-uttt").click()
    page.get_by_test_id("setting-opponent").select_option("computer:master")
    page.get_by_test_id("setting-starts").select_option("home")
    page.get_by_test_id("cell-e5").click()
    expect(page.get_by_test_id("status")).to_have_text("The computer is thinking…")
    page.go_back()
    expect(page.get_by_test_id("picker")).to_be_visible()
    page.go_forward()
    expect(page.get_by_test_id("uttt-board")).to_be_visible()
    # One game: the computer answers once, and the board takes the next move.
    expect(page.locator(".cell.o")).to_have_count(1, timeout=THINK_MS)
    wait_computer_answered(page)  # a second, stale reply would have landed
    expect(page.locator(".cell.o")).to_have_count(1)
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(2)
    page.locator('.cell[aria-disabled="false"]').first.click()
    expect(page.locator(".cell.x")).to_have_count(2)
    expect(page.locator(".cell.o")).to_have_count(2, timeout=THINK_MS)
    expect_no_error(page)


def test_a_link_with_settings_in_the_hash(page: Page, server: AppServer) -> None:
    warnings: list[str] = []
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    open_app(page, server, "#/hex?size=9&vs=two_player&colour=red")
    expect(page.get_by_test_id("hex-board")).to_be_visible()
    expect(page.get_by_test_id("cell-i9")).to_be_visible()
    expect(page.get_by_test_id("cell-j1")).to_have_count(0)
    expect(page.get_by_test_id("setting-size")).to_have_value("9")
    expect(page.get_by_test_id("setting-opponent")).to_have_value("two_player")
    assert page.evaluate("location.hash") == "#/hex"
    assert any("'colour'" in warning for warning in warnings), warnings
    # From within the app: a link to another game with its settings.
    page.evaluate("location.hash = '#/y/no-swap?size=9'")
    expect(page.get_by_test_id("y-board")).to_be_visible()
    expect(page.get_by_test_id("setting-size")).to_have_value("9")
    expect(page.get_by_test_id("setting-swap")).to_have_value("False")
    assert page.evaluate("location.hash") == "#/y"


def test_a_running_clock_left_behind_does_not_fire_and_is_right_on_return(page: Page, server: AppServer) -> None:
    open_app(page, server, "?vs=two_player&time=30#/uttt")
    expect(page.get_by_test_id("clock")).to_have_text("0:30")
    page.get_by_test_id("cell-e5").click()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(1)
    moved_at_ms = page.evaluate("Date.now()")
    page.get_by_test_id("back-link").click()
    page.get_by_test_id("pick-notakto").click()
    expect(page.get_by_test_id("notakto-boards")).to_be_visible()
    page.evaluate("appAdvanceClock(10000)")
    wait_one_tick(page)
    expect(page.get_by_test_id("clock")).to_be_hidden()
    expect(page.get_by_test_id("live")).not_to_have_text(re.compile("time ran out"))
    page.go_back()
    page.go_back()
    expect(page.get_by_test_id("uttt-board")).to_be_visible()
    # The clock is wall time: the 10 s skipped while away and the real
    # seconds the navigation took are gone, and nothing moved meanwhile.
    clock = page.get_by_test_id("clock").inner_text()
    expected = 30 - 10 - (page.evaluate("Date.now()") - moved_at_ms) / 1000
    minutes, seconds = (int(part) for part in clock.split(":"))
    assert abs(60 * minutes + seconds - expected) <= 2, (clock, expected)
    expect(page.locator(".cell.o")).to_have_count(0)
    # Away past the limit: back on the screen, the computer moves for the player.
    page.get_by_test_id("back-link").click()
    page.evaluate("appAdvanceClock(30000)")
    wait_one_tick(page)
    expect(page.locator(".cell.o")).to_have_count(0)
    page.go_back()
    expect(page.locator(".cell.o")).to_have_count(1, timeout=THINK_MS)
    expect(page.get_by_test_id("live")).to_have_text(re.compile("Player 2's time ran out"))
    expect(page.get_by_test_id("clock")).to_have_text(re.compile(r"^0:(30|29)$"))


# Every event listener on the page's elements, window and document, as
# DevTools counts them (its command-line API's getEventListeners).
COUNT_LISTENERS = """[window, document, ...document.querySelectorAll('*')].reduce(
  (total, target) => total + Object.values(getEventListeners(target)).reduce((n, list) => n + list.length, 0), 0)"""

RENDER_200_TIMES = """async () => {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  for (let i = 0; i < 100; i += 1) document.querySelector('[data-testid=toggle-coordinates]').click();
  for (let i = 0; i < 50; i += 1) {
    location.hash = '#/y';
    await settle();
    location.hash = '#/hex';
    await settle();
  }
}"""


def test_two_hundred_renders_leave_listeners_and_proxies_flat(page: Page, server: AppServer) -> None:
    open_app(page, server, "#/hex")
    devtools = page.context.new_cdp_session(page)

    def live() -> tuple[int, int]:
        listeners = devtools.send("Runtime.evaluate", {"expression": COUNT_LISTENERS, "includeCommandLineAPI": True,
                                                       "returnByValue": True})["result"]["value"]
        return listeners, page.evaluate("appLiveProxies()")

    page.evaluate(RENDER_200_TIMES.replace("100", "2").replace("50", "1"))  # every kind of render once
    expect(page.get_by_test_id("hex-board")).to_be_visible()
    before = live()
    page.evaluate(RENDER_200_TIMES)
    expect(page.get_by_test_id("hex-board")).to_be_visible()
    expect(page.get_by_test_id("toggle-coordinates")).to_be_visible()
    after = live()
    assert after == before, f"listeners and proxies before {before}, after 200 renders {after}"
    expect(page.get_by_test_id("error")).to_be_hidden()
