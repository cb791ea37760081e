"""What the board alone does not say, as a player sees it: the computer's
swap said and marked, and at the end of a game on a small phone who won
and why, inside the screen, in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import AppServer, open_app, open_as_harness, wait_ready

THINK_MS = 30_000
CATALOGS = {code: json.loads((Path(__file__).resolve().parent.parent / "i18n" / f"{code}.json").read_text())
            for code in ("en", "de", "pt", "id")}
BLUE_WINS = ["a1", "g1", "a2", "g2", "a3", "g3", "a4", "g4", "a5", "g5", "a6", "g6", "a7"]


def test_the_computers_swap_is_said_and_marked_on_the_board(page: Page, server: AppServer) -> None:
    open_app(page, server, "#/hex?size=7&swap=1&vs=master&starts=home")
    expect(page.get_by_test_id("swap-help")).to_be_hidden()
    page.get_by_test_id("cell-c5").click()
    note = page.get_by_test_id("status-note")
    expect(note).to_have_text("The computer swapped: your opening stone at c5 is now its stone, mirrored to e3.",
                              timeout=THINK_MS)
    expect(page.get_by_test_id("live")).to_have_text("The computer swapped: your opening stone is now its stone.")
    expect(page.get_by_test_id("cell-e3")).to_have_class(re.compile(r"\bgreen\b.*\blast\b|\blast\b.*\bgreen\b"))
    expect(page.get_by_test_id("cell-c5")).to_have_class(re.compile(r"\bswapped-from\b"))
    expect(page.get_by_test_id("status")).to_have_text("Your turn (Blue)")
    page.get_by_test_id("cell-d4").click()
    expect(note).to_be_hidden()
    expect(page.get_by_test_id("cell-c5")).not_to_have_class(re.compile(r"\bswapped-from\b"))


def test_the_swap_offer_explains_itself(page: Page, server: AppServer) -> None:
    open_app(page, server, "#/y?size=9&swap=1&vs=two_player&starts=home")
    page.get_by_test_id("cell-c5").click()
    expect(page.get_by_test_id("swap")).to_be_visible()
    expect(page.get_by_test_id("swap-help")).to_have_text(CATALOGS["en"]["swap.offer.y"])
    page.get_by_test_id("swap").click()
    expect(page.get_by_test_id("swap-help")).to_be_hidden()
    expect(page.get_by_test_id("status-note")).to_have_text("Player 2 swapped: the opening stone at c5 is now theirs.")


@pytest.mark.parametrize("code", ["en", "de", "pt", "id"])
def test_a_finished_game_on_a_small_phone_says_who_won_and_why_on_screen(browser: Browser, server: AppServer,
                                                                         code: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 640}, locale=code, service_workers="block",
                                  has_touch=True, is_mobile=True)
    open_as_harness(context)
    try:
        page = context.new_page()
        open_app(page, server, f"?lang={code}#/hex?size=7&swap=0&vs=two_player&starts=home")
        for cell in BLUE_WINS:
            page.get_by_test_id(f"cell-{cell}").click()
        catalog = CATALOGS[code]
        player = catalog["player.numbered"].replace("{number}", "1")
        status, detail = page.get_by_test_id("status"), page.get_by_test_id("status-detail")
        blue = catalog["mark.blue"]
        expect(status).to_have_text(catalog["result.player_wins_mark"].replace("{player}", player).replace("{mark}", blue))
        expect(detail).to_have_text(catalog["reason.connection_hex.player"].replace("{player}", player))
        page.reload()
        wait_ready(page)
        page.evaluate("window.scrollTo(0, 0)")
        for line in (status, detail):
            box = line.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 640, (code, box)
    finally:
        context.close()


def test_a_game_the_computer_played_for_you_adds_no_win(page: Page, server: AppServer) -> None:
    open_app(page, server, "#/notakto?boards=1&vs=beginner&starts=home")
    page.get_by_test_id("toggle-takeover-0").check()  # "Let the computer play for me", to the end
    expect(page.get_by_test_id("result")).to_be_visible(timeout=THINK_MS)
    expect(page.get_by_test_id("stat-games")).to_have_text("1")
    expect(page.get_by_test_id("stat-wins")).to_have_text("0")
    expect(page.get_by_test_id("stat-rating")).to_have_text("—")
    expect(page.get_by_test_id("stat-current_streak")).to_have_text("1 day")


@pytest.mark.parametrize(("route", "cell", "name", "default"), [
    ("#/notakto?boards=2", "cell-2b3", "b3", False), ("#/uttt", "cell-e5", "e5", False),
    ("#/hex?size=7", None, "a", True), ("#/y?size=9", None, "a", True)])
def test_every_board_shows_coordinates_with_one_remembered_setting(page: Page, server: AppServer, route: str,
                                                                   cell: str | None, name: str, default: bool) -> None:
    open_app(page, server, route)
    toggle = page.get_by_test_id("toggle-coordinates")
    labels = page.locator(".coord-in, .coord")
    if default:  # Hex and Y: on, as PlayHex shows them
        expect(toggle).to_be_checked()
        expect(labels.first).to_be_visible()
        toggle.uncheck()
        expect(labels).to_have_count(0)
    else:
        expect(toggle).not_to_be_checked()
        expect(labels).to_have_count(0)
        toggle.check()
        expect(page.get_by_test_id(cell).locator(".coord-in")).to_have_text(name)
    page.reload()
    wait_ready(page)
    expect(toggle).to_be_checked() if not default else expect(toggle).not_to_be_checked()



# Two people with "Take turns" (the first move alternates), two games in a
# row: each game's first moves (the second game uses both).
TWO_GAMES = [
    ("hex", "#/hex?size=7&swap=0&vs=two_player&starts=alternate", ["d4", "c3"]),
    ("y", "#/y?size=9&swap=0&vs=two_player&starts=alternate", ["c5", "e7"]),
    ("uttt", "#/uttt?vs=two_player&starts=alternate", ["e5", "d4"]),
    ("notakto", "#/notakto?boards=3&vs=two_player&starts=alternate", ["1a1", "2b2"]),
]
TO_MOVE = re.compile(r"^(?P<player>Player \d) to move(?: \((?P<mark>[^)]+)\))?$")


@pytest.mark.parametrize(("route", "moves"), [game[1:] for game in TWO_GAMES], ids=[game[0] for game in TWO_GAMES])
def test_between_two_players_the_result_names_the_winner_as_the_board_and_the_status_do(
        page: Page, server: AppServer, route: str, moves: list[str]) -> None:
    """Player 1 wins both games, once moving first and once second: each
    result names them with the colour or mark the status gave them while
    they were to move (Notakto has none: both play X)."""
    open_app(page, server, route)
    status = page.get_by_test_id("status")
    headlines = []
    for cells in (moves[:1], moves):
        named = ""
        for index, cell in enumerate(cells, start=1):
            named = status.inner_text()  # how the status names the player about to move
            page.get_by_test_id(f"cell-{cell}").click()
            expect(page.get_by_test_id("move-text")).to_have_count(index)
        winner = TO_MOVE.match(named)
        assert winner is not None and winner["player"] == "Player 1", named
        # The other player, to move now, resigns.
        page.get_by_test_id("resign").click()
        page.get_by_test_id("confirm-yes").click()
        expect(status).to_have_text(re.compile(r"wins!$"))
        headline = status.inner_text()
        assert headline.endswith("wins!") and winner["player"] in headline, (named, headline)
        if winner["mark"]:
            assert f"({winner['mark']})" in headline, (named, headline)
        headlines.append(headline)
        page.get_by_test_id("new-game").click()
        expect(page.get_by_test_id("move-text")).to_have_count(0)
    # Told apart whenever the board tells them apart.
    assert (headlines[0] != headlines[1]) == (TO_MOVE.match(status.inner_text())["mark"] is not None), headlines
