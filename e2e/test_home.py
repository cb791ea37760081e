"""The game list: cards of equal height that fit every width, a drawing of
each game's board, the unfinished game's position with a "continue" mark
(read by the shell from the preview the Python side keeps, py/app/model/saves.py),
and the variants as choices inside their card."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from conftest import AppServer, eventually, open_app, wait_ready

GAMES = ("notakto", "uttt", "hex", "y")

# Each card's box, the boxes of its variant choices and its drawing's shapes.
CARD_BOXES = """() => [...document.querySelectorAll('#cards > li')].map((item) => {
  const box = (element) => { const r = element.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    card: box(item),
    variants: [...item.querySelectorAll('.card-variants a')].map(box),
    art: box(item.querySelector('.card-art')),
    shapes: item.querySelectorAll('.card-art path, .card-art circle, .card-art rect').length,
  };
})"""


@pytest.mark.parametrize(("width", "height", "columns"), [(360, 640, 1), (1280, 800, 4)])
def test_the_cards_line_up_with_equal_heights_and_fit_the_screen(page: Page, server: AppServer, width: int,
                                                                 height: int, columns: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, server)
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    cards = page.evaluate(CARD_BOXES)
    assert len(cards) == len(GAMES)
    rows: dict[int, list[dict]] = {}
    for card in cards:
        rows.setdefault(round(card["card"][1]), []).append(card)
    assert {len(row) for row in rows.values()} == {columns}
    for row in rows.values():
        heights = [card["card"][3] - card["card"][1] for card in row]
        assert max(heights) - min(heights) < 1, heights
    for game, card in zip(GAMES, cards):
        left, top, right, bottom = card["card"]
        assert 0 <= left and right <= width, game
        # The drawing: a board with its cells, inside the card, not a speck.
        art_left, art_top, art_right, art_bottom = card["art"]
        assert card["shapes"] >= 2 and art_right - art_left > 60 and art_bottom - art_top > 40, game
        assert left <= art_left and art_right <= right and top <= art_top and art_bottom <= bottom, game
        # Hex and Y: the two variants are choices inside the card's box.
        assert len(card["variants"]) == (2 if game in ("hex", "y") else 0), game
        for v_left, v_top, v_right, v_bottom in card["variants"]:
            assert left <= v_left and v_right <= right and top <= v_top and v_bottom <= bottom, game
        expect(page.get_by_test_id(f"card-continue-{game}")).to_be_hidden()
    if columns == 4:  # a desktop's screen is not left half empty
        assert max(card["card"][3] for card in cards) > height * 0.6


def hex_stones(page: Page, kind: str = "") -> Locator:
    """The stones drawn on the Hex card (``kind``: "blue", "green" or any)."""
    return page.get_by_test_id("card-art-hex").locator(f".ca-stone{'.' + kind if kind else ''}")


def go_home(page: Page) -> None:
    """Back to the game list, and wait until it is on screen: until then the
    cards still hold what they showed when the list was last left (a hidden
    list makes every badge "hidden" at once)."""
    page.get_by_test_id("back-link").click()
    expect(page.locator("body")).to_have_attribute("data-route", "picker")


def test_an_unfinished_hex_game_is_shown_on_its_card_until_it_ends_or_starts_over(page: Page,
                                                                                    server: AppServer) -> None:
    open_app(page, server)
    expect(hex_stones(page)).to_have_count(0)
    page.get_by_test_id("pick-hex").click()
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.get_by_test_id("cell-e5").click()
    expect(page.get_by_test_id("cell-e5")).to_have_class(re.compile(r"\bblue\b"))
    go_home(page)
    badge = page.get_by_test_id("card-continue-hex")
    expect(badge).to_have_text("Continue")
    expect(page.get_by_test_id("pick-hex")).to_contain_text("Your unfinished game, 1 move played.")
    expect(hex_stones(page, "blue")).to_have_count(1)
    for game in ("notakto", "uttt", "y"):
        expect(page.get_by_test_id(f"card-continue-{game}")).to_be_hidden()
    # The shell draws it from storage before Python has started: after a
    # reload, and in another language.
    release: list = []
    page.route("**/vendor/pyodide/pyodide.asm.wasm", lambda route: release.append(route))
    page.reload()
    expect(badge).to_have_text("Continue")
    expect(hex_stones(page)).to_have_count(1)
    page.get_by_test_id("lang-select").select_option("de")
    expect(badge).to_have_text("Weiterspielen")
    expect(page.get_by_test_id("pick-hex")).to_contain_text("Deine unvollendete Partie, 1 Zug gespielt.")
    assert page.evaluate("document.body.dataset.ready") is None
    page.get_by_test_id("lang-select").select_option("en")
    eventually(page, lambda: release)  # the interpreter's WebAssembly was asked for, and held
    release[0].continue_()
    wait_ready(page)
    # Starting over: the new game has no move, the card its plain board.
    page.get_by_test_id("pick-hex").click()
    page.get_by_test_id("cell-f6").click()
    page.get_by_test_id("new-game").click()
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("move-list")).to_be_empty()
    go_home(page)
    expect(badge).to_be_hidden()
    expect(hex_stones(page)).to_have_count(0)
    # A finished game (resigned) stays in its slot but is no unfinished game.
    page.get_by_test_id("pick-hex").click()
    page.get_by_test_id("cell-c3").click()
    page.get_by_test_id("cell-d4").click()
    go_home(page)
    expect(page.get_by_test_id("pick-hex")).to_contain_text("Your unfinished game, 2 moves played.")
    expect(hex_stones(page, "green")).to_have_count(1)
    page.get_by_test_id("pick-hex").click()
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("result")).to_be_visible()
    go_home(page)
    expect(badge).to_be_hidden()
    expect(hex_stones(page)).to_have_count(0)


def test_against_the_computer_the_card_says_whose_move_it_is(page: Page, server: AppServer) -> None:
    open_app(page, server)
    page.get_by_test_id("pick-notakto").click()
    page.get_by_test_id("setting-opponent").select_option("computer:beginner")
    page.get_by_test_id("setting-starts").select_option("home")
    page.get_by_test_id("cell-1a1").click()
    # The computer answers; then it is the player's move.
    expect(page.locator("[data-testid=move-list] li")).to_have_count(2, timeout=30_000)
    go_home(page)
    expect(page.get_by_test_id("card-continue-notakto")).to_have_text("Your move")
    assert page.get_by_test_id("card-art-notakto").locator(".ca-x").count() >= 1


def test_a_damaged_preview_leaves_the_plain_board(page: Page, server: AppServer) -> None:
    page.add_init_script("""
      localStorage.setItem('abstract-games/preview/hex', '{"schema":1,"data":{"size":11,"cells":"0<svg>","boards":""}}');
      localStorage.setItem('abstract-games/preview/y', 'not json');
      localStorage.setItem('abstract-games/preview/uttt', '{"schema":1,"data":{"size":9,"cells":"' + '0'.repeat(80) + '","boards":".........","last":0,"moves":1,"to_move":"you"}}');
    """)
    open_app(page, server)
    for game in ("hex", "y", "uttt"):
        expect(page.get_by_test_id(f"card-continue-{game}")).to_be_hidden()
        assert page.get_by_test_id(f"card-art-{game}").locator(".ca-stone, .ca-x, .ca-o").count() == 0
    assert page.locator("#cards svg").count() == len(GAMES) and page.locator("#cards svg svg").count() == 0


def test_a_variant_choice_opens_the_variant_and_the_card_opens_the_game(page: Page, server: AppServer) -> None:
    open_app(page, server)
    page.get_by_test_id("pick-y-no-swap").click()
    expect(page.get_by_test_id("game-title")).to_have_text("Y")
    expect(page.get_by_test_id("setting-swap")).to_have_value("False")
    go_home(page)
    page.get_by_test_id("pick-hex-swap").click()
    expect(page.get_by_test_id("setting-swap")).to_have_value("True")
    go_home(page)
    # The keyboard reaches the card's main link and opens the game with Enter.
    page.get_by_test_id("pick-uttt").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("game-title")).to_have_text("Ultimate Tic-Tac-Toe")
