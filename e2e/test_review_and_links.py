"""The move list and review as a player reads them: the current move always
in view in the list (during play, while stepping, after the game), the
review's words fitting the game on screen (a finished game, a past game, a
shared one, a visitor's), and a shared link that stays in the address
until the player plays on, across reloads, Back and Forward and the guide."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import AppServer, Watch, assert_clean, open_app, wait_ready, watch_context

THINK_MS = 30_000
PHONE, DESKTOP = {"width": 360, "height": 640}, {"width": 1280, "height": 800}
# Hex 11 x 11 between two people, 50 moves and no winner: Blue stays in
# rows 1 to 3, Green in columns a to e of rows 7 to 11.
BLUE = [f"{column}{row}" for row in (1, 2, 3) for column in "abcdefghijk"][:25]
GREEN = [f"{column}{row}" for row in (7, 8, 9, 10, 11) for column in "abcde"]
FIFTY = [move for pair in zip(BLUE, GREEN) for move in pair]
# Hex 7 x 7: Blue joins row 1 to row 7 down column a.
BLUE_WINS = ["a1", "g1", "a2", "g2", "a3", "g3", "a4", "g4", "a5", "g5", "a6", "g6", "a7"]

# Where an entry of the move list lies against the list's visible box
# (inside its border, at its scroll position), and where the board is.
PLACES = """(ply) => {
  const list = document.querySelector('[data-testid=move-list]');
  const entry = document.querySelector(`[data-testid=move-${ply}]`);
  const box = list.getBoundingClientRect(), own = entry.getBoundingClientRect();
  const top = box.top + list.clientTop;
  const board = document.querySelector('[data-testid=board]').getBoundingClientRect();
  return {inside: own.top >= top - 0.5 && own.bottom <= top + list.clientHeight + 0.5,
          entry: [own.top - top, own.bottom - top], visible: list.clientHeight, scrollTop: list.scrollTop,
          board: [board.x, board.y, board.width, board.height], pageY: window.scrollY};
}"""


def places(page: Page, ply: int) -> dict:
    return page.evaluate(PLACES, ply)


def assert_in_view(page: Page, ply: int, when: str) -> dict:
    found = places(page, ply)
    assert found["inside"], f"{when}: move {ply} at {found['entry']} of the list's {found['visible']} px"
    return found


def play(page: Page, cells: list[str], check: bool = False) -> None:
    before = page.get_by_test_id("move-text").count()
    for index, cell in enumerate(cells, start=1):
        page.get_by_test_id(f"cell-{cell}").click()
        expect(page.get_by_test_id("move-text")).to_have_count(before + index)
        if check:
            assert_in_view(page, before + index, f"after move {before + index}")


def open_two_players(page: Page, server: AppServer, size: int, viewport: dict | None = None) -> None:
    if viewport is not None:
        page.set_viewport_size(viewport)
    open_app(page, server, f"#/hex?size={size}&vs=two_player&swap=0&starts=home")
    expect(page.get_by_test_id("hex-board")).to_be_visible()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_move_list_keeps_the_current_move_in_view(page: Page, server: AppServer, viewport: dict) -> None:
    open_two_players(page, server, 11, viewport)
    play(page, FIFTY, check=True)
    assert places(page, 50)["scrollTop"] > 0
    # Stepping back with the keys: the list scrolls, the board and the page stay.
    page.get_by_test_id("board").focus()
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("review-label")).to_have_text("Move 49 of 50")
    still = assert_in_view(page, 49, "stepped back to move 49")
    for ply in range(48, 19, -1):
        page.keyboard.press("ArrowLeft")
        expect(page.get_by_test_id("review-label")).to_have_text(f"Move {ply} of 50")
        found = assert_in_view(page, ply, f"stepped back to move {ply}")
        assert (found["board"], found["pageY"]) == (still["board"], still["pageY"]), f"the board moved at move {ply}"
    page.keyboard.press("Home")
    expect(page.get_by_test_id("review-label")).to_have_text(re.compile("^Start of the game"))
    assert_in_view(page, 1, "at the start")
    page.keyboard.press("End")
    expect(page.get_by_test_id("review-label")).to_be_hidden()
    assert_in_view(page, 50, "back at the end")
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("move-text")).to_have_count(50)
    assert_in_view(page, 50, "after a reload")
    # The game ends: its last move in view, and each step back through it.
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("result-text")).to_be_visible()
    assert_in_view(page, 50, "after the game ended")
    for ply in range(49, 25, -1):
        page.get_by_test_id("review-prev").click()
        expect(page.get_by_test_id("review-label")).to_have_text(f"Move {ply} of 50")
        assert_in_view(page, ply, f"after the game, at move {ply}")


# The review's words in each language: looking back at a finished game and
# the button back to its end, a past game's and a shared game's way back to
# the player's own game, finished or unfinished, and the visitor's, who has none.
WORDS = {
    "en": {"looking_back_over": "Looking back at the finished game", "live_over": "Back to the end of the game",
           "past": "A past game, to look through", "close_over": "Back to your finished game",
           "link": "A shared game, to look through or play on", "close": "Back to your game",
           "close_new": "Start your own game"},
    "de": {"looking_back_over": "Rückblick auf die beendete Partie", "live_over": "Zurück zum Ende der Partie",
           "past": "Eine frühere Partie zum Nachspielen", "close_over": "Zurück zu deiner beendeten Partie",
           "link": "Eine geteilte Partie zum Nachspielen oder Weiterspielen", "close": "Zurück zu deiner Partie",
           "close_new": "Eine eigene Partie beginnen"},
    "pt": {"looking_back_over": "Revendo a partida terminada", "live_over": "Voltar ao fim da partida",
           "past": "Uma partida anterior, para rever", "close_over": "Voltar à sua partida terminada",
           "link": "Uma partida compartilhada, para rever ou continuar", "close": "Voltar à sua partida",
           "close_new": "Começar sua própria partida"},
    "id": {"looking_back_over": "Melihat kembali permainan yang sudah selesai",
           "live_over": "Kembali ke akhir permainan", "past": "Permainan lalu, untuk ditelusuri",
           "close_over": "Kembali ke permainanmu yang sudah selesai",
           "link": "Permainan yang dibagikan, untuk ditelusuri atau dilanjutkan", "close": "Kembali ke permainanmu",
           "close_new": "Mulai permainanmu sendiri"},
}


def share_link(page: Page) -> str:
    page.get_by_test_id("share-open").click()
    link = page.get_by_test_id("share-link").input_value()
    page.get_by_test_id("share-close").click()
    return link


def expect_review_words(page: Page, status: str, back: str) -> None:
    expect(page.get_by_test_id("status")).to_have_text(status)
    expect(page.get_by_test_id("review-live")).to_be_visible()
    expect(page.get_by_test_id("review-live")).to_have_text(back)


@pytest.mark.parametrize("code", list(WORDS))
def test_the_reviews_words_fit_the_game_on_screen(page: Page, server: AppServer, browser: Browser, code: str) -> None:
    words = WORDS[code]
    open_two_players(page, server, 7)
    page.get_by_test_id("lang-select").select_option(code)
    play(page, BLUE_WINS[:3])
    link = share_link(page)
    play(page, BLUE_WINS[3:])
    expect(page.get_by_test_id("result")).to_be_visible()
    # A finished game: nothing waits, and the way back is to its end.
    page.get_by_test_id("review-prev").click()
    expect_review_words(page, words["looking_back_over"], words["live_over"])
    page.get_by_test_id("review-live").click()
    expect(page.get_by_test_id("review-label")).to_be_hidden()
    expect(page.get_by_test_id("result")).to_be_visible()
    # The same game among the past games, the player's own game finished.
    page.locator("#archive-panel summary").click()
    page.get_by_test_id("archive-item").first.locator(".past-open").click()
    expect_review_words(page, words["past"], words["close_over"])
    # A shared game over an unfinished game of one's own.
    page.get_by_test_id("review-live").click()
    page.get_by_test_id("new-game").click()
    play(page, ["d4"])
    page.goto(link)
    expect_review_words(page, words["link"], words["close"])
    # A visitor, who has no game of their own.
    fresh = browser.new_context(viewport=DESKTOP, locale="en-US", service_workers="block")
    watch = Watch()
    watch_context(fresh, watch)
    try:
        visitor = fresh.new_page()
        visitor.goto(link.replace("#/", f"?lang={code}#/"))
        wait_ready(visitor)
        expect_review_words(visitor, words["link"], words["close_new"])
        assert_clean(watch)
    finally:
        fresh.close()


def test_a_shared_link_stays_in_the_address_until_the_visitor_plays_on(
        page: Page, server: AppServer, browser: Browser) -> None:
    open_two_players(page, server, 7)
    play(page, ["d4", "c5", "e3"])
    link = share_link(page)
    fragment = link[link.index("#"):]
    fresh = browser.new_context(viewport=DESKTOP, locale="en-US", service_workers="block")
    watch = Watch()
    watch_context(fresh, watch)
    try:
        visitor = fresh.new_page()
        visitor.goto(server.url + "#/hex")
        wait_ready(visitor)
        expect(visitor.get_by_test_id("setting-size")).to_have_value("11")
        visitor.evaluate("hash => { location.hash = hash; }", fragment)

        def expect_shared(label: str = "Move 3 of 3") -> None:
            expect(visitor.get_by_test_id("status")).to_have_text("A shared game, to look through or play on")
            expect(visitor.get_by_test_id("move-text")).to_have_text(["d4", "c5", "e3"])
            assert visitor.evaluate("location.hash") == fragment
            # The settings panel shows the shared game's, which the player cannot change.
            expect(visitor.get_by_test_id("setting-size")).to_have_value("7")
            expect(visitor.get_by_test_id("setting-size")).to_be_disabled()
            expect(visitor.get_by_test_id("setting-opponent")).to_have_value("two_player")
            expect(visitor.get_by_test_id("review-label")).to_have_text(label)

        expect_shared()
        visitor.reload()
        wait_ready(visitor)
        expect_shared()
        visitor.get_by_test_id("review-prev").click()
        expect_shared("Move 2 of 3")
        # The guide and back: the shared game as it was left.
        visitor.get_by_test_id("guide-open").click()
        expect(visitor.get_by_test_id("guide-page")).to_be_visible()
        visitor.get_by_test_id("guide-back").click()
        expect_shared("Move 2 of 3")
        visitor.go_back()
        expect(visitor.get_by_test_id("guide-page")).to_be_visible()
        visitor.go_back()
        expect_shared("Move 2 of 3")
        # Back to the plain address: the visitor's own (empty) game; Forward: the shared game again.
        visitor.go_back()
        expect(visitor.get_by_test_id("status")).to_have_text(re.compile("^Your turn"))
        expect(visitor.get_by_test_id("move-text")).to_have_count(0)
        expect(visitor.get_by_test_id("setting-size")).to_have_value("11")
        expect(visitor.get_by_test_id("setting-size")).to_be_enabled()
        visitor.go_forward()
        expect_shared()
        visitor.reload()
        wait_ready(visitor)
        expect_shared()
        # Playing on makes it the visitor's game: the address is the game's own,
        # the settings are the game's, and a reload keeps it.
        visitor.get_by_test_id("review-prev").click()
        visitor.get_by_test_id("continue-two").click()
        expect(visitor.get_by_test_id("status")).to_have_text("Player 1 to move (Blue)")
        assert visitor.evaluate("location.hash") == "#/hex"
        expect(visitor.get_by_test_id("setting-size")).to_have_value("7")
        expect(visitor.get_by_test_id("setting-size")).to_be_enabled()
        visitor.reload()
        wait_ready(visitor)
        assert visitor.evaluate("location.hash") == "#/hex"
        expect(visitor.get_by_test_id("move-text")).to_have_text(["d4", "c5"])
        expect(visitor.get_by_test_id("cell-g7")).to_be_visible()
        expect(visitor.get_by_test_id("cell-h8")).to_have_count(0)
        expect(visitor.get_by_test_id("setting-size")).to_have_value("7")
        visitor.get_by_test_id("cell-a1").click()
        expect(visitor.get_by_test_id("move-text")).to_have_text(["d4", "c5", "a1"])
        assert_clean(watch)
    finally:
        fresh.close()


def test_leaving_a_shared_game_for_ones_own_takes_the_link_out_of_the_address(page: Page, server: AppServer) -> None:
    open_two_players(page, server, 7)
    play(page, ["d4", "c5"])
    link = share_link(page)
    play(page, ["a1"])
    page.goto(link)
    expect(page.get_by_test_id("status")).to_have_text(re.compile("^A shared game"))
    assert "?g=" in page.evaluate("location.hash")
    page.get_by_test_id("review-live").click()
    expect(page.get_by_test_id("move-text")).to_have_text(["d4", "c5", "a1"])
    assert page.evaluate("location.hash") == "#/hex"
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move (Green)")
    expect(page.get_by_test_id("move-text")).to_have_text(["d4", "c5", "a1"])
