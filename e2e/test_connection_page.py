"""Hex and Y end to end: each of the four variants from the game list,
played to a finish against the computer and between two people; the swap
in both games (surviving a reload), the winning chain."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from conftest import AppServer, open_app, wait_ready

THINK_MS = 30_000


def pick_variant(page: Page, server: AppServer, game: str, variant: str) -> Page:
    open_app(page, server)
    page.get_by_test_id(f"pick-{game}-{variant}").click()
    expect(page.get_by_test_id("game-title")).to_have_text("Hex" if game == "hex" else "Y")
    expect(page).to_have_url(re.compile(rf"#/{game}$"))  # the variant link became the game's route
    expect(page.get_by_test_id("setting-swap")).to_have_value("True" if variant == "swap" else "False")
    expect(page.get_by_test_id(f"{game}-board")).to_be_visible()
    return page


def stone(page: Page, cell: str, colour: str) -> None:
    expect(page.get_by_test_id(f"cell-{cell}")).to_have_class(re.compile(rf"\b{colour}\b"))


@pytest.mark.parametrize(("game", "variant", "size"), [("hex", "swap", "7"), ("hex", "no-swap", "7"),
                                                      ("y", "swap", "9"), ("y", "no-swap", "9")])
def test_a_variant_against_the_computer_to_the_end(page: Page, server: AppServer, game: str, variant: str, size: str) -> None:
    pick_variant(page, server, game, variant)
    page.get_by_test_id("setting-opponent").select_option("computer:beginner")
    page.get_by_test_id("setting-size").select_option(size)
    page.get_by_test_id("setting-starts").select_option("home")
    expect(page.get_by_test_id("status")).to_have_text("Your turn (Blue)")
    for _ in range(60):
        page.wait_for_function(
            "!document.querySelector('[data-testid=result]').hidden"
            " || document.querySelector('.hx[aria-disabled=\"false\"]') !== null",
            timeout=THINK_MS,
        )
        if page.get_by_test_id("result").is_visible():
            break
        page.locator('.hx[aria-disabled="false"]').first.click()
    else:
        raise AssertionError("the game did not end")
    expect(page.get_by_test_id("result-text")).to_have_text(re.compile(r"^(You won!|You lost\.)$"))
    assert page.locator(".hx.chain").count() >= int(size) // 2
    winner = "blue" if page.get_by_test_id("result-text").inner_text() == "You won!" else "green"
    assert page.locator(".hx.chain").count() == page.locator(f".hx.chain.{winner}").count()
    expect(page.get_by_test_id("stat-games")).to_have_text("1")


def swap_offer(page: Page, variant: str, index: int) -> None:
    """The swap button after Blue's stone number ``index`` (from 0): only
    after the very first stone, and only with the swap rule (declined here)."""
    if variant == "swap" and index == 0:
        expect(page.get_by_test_id("swap")).to_be_visible()
    else:
        expect(page.get_by_test_id("swap")).to_be_hidden()


@pytest.mark.parametrize("variant", ["no-swap", "swap"])
def test_two_player_hex_won_by_a_chain_that_is_shown(page: Page, server: AppServer, variant: str) -> None:
    pick_variant(page, server, "hex", variant)
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.get_by_test_id("setting-size").select_option("7")
    blue = [f"a{row}" for row in range(1, 8)]
    green = [f"g{row}" for row in range(1, 7)]
    for index, cell in enumerate(blue):
        page.get_by_test_id(f"cell-{cell}").click()
        if index < len(green):
            swap_offer(page, variant, index)
            page.get_by_test_id(f"cell-{green[index]}").click()
    expect(page.get_by_test_id("result-text")).to_have_text("Player 1 (Blue) wins!")
    expect(page.get_by_test_id("result-reason")).to_have_text("Player 1 joined both of their edges with one chain.")
    for cell in blue:
        expect(page.get_by_test_id(f"cell-{cell}")).to_have_class(re.compile(r"\bchain\b"))
        expect(page.get_by_test_id(f"cell-{cell}")).to_have_attribute("aria-label", re.compile("winning chain"))
    assert page.locator(".hx.chain").count() == 7


@pytest.mark.parametrize("variant", ["swap", "no-swap"])
def test_two_player_y_won_by_touching_three_edges(page: Page, server: AppServer, variant: str) -> None:
    pick_variant(page, server, "y", variant)
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.get_by_test_id("setting-size").select_option("9")
    # Blue runs down the left edge from the apex (left and right edges)
    # to the bottom-left corner (bottom edge); green fills the bottom row.
    blue = [f"a{row}" for row in range(1, 10)]
    green = [f"{letter}9" for letter in "ihgfedcb"]
    for index, cell in enumerate(blue):
        page.get_by_test_id(f"cell-{cell}").click()
        if index < len(green):
            swap_offer(page, variant, index)
            page.get_by_test_id(f"cell-{green[index]}").click()
    expect(page.get_by_test_id("result-text")).to_have_text("Player 1 (Blue) wins!")
    expect(page.get_by_test_id("result-reason")).to_have_text("Player 1's chain touches all three edges.")
    for cell in ("a1", "a9"):
        expect(page.get_by_test_id(f"cell-{cell}")).to_have_class(re.compile(r"\bchain\b"))


def reply_to_the_swap_and_reload(page: Page, first: str, swapped: str, reply: str) -> None:
    """After Blue's ``first`` stone was swapped (now Green's, at ``swapped``):
    the swap is listed as a move, Blue replies at ``reply``, and a reload
    brings back both stones and the turn."""
    expect(page.get_by_test_id("move-text")).to_have_text([first, "swap"])
    page.get_by_test_id(f"cell-{reply}").click()
    page.reload()
    wait_ready(page)
    stone(page, swapped, "green")
    stone(page, reply, "blue")
    expect(page.locator(".hx.blue, .hx.green")).to_have_count(2)
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move (Green)")


def test_the_hex_swap_mirrors_the_stone_and_survives_a_reload(page: Page, server: AppServer) -> None:
    pick_variant(page, server, "hex", "swap")
    page.get_by_test_id("setting-opponent").select_option("two_player")
    expect(page.get_by_test_id("swap")).to_be_hidden()  # no stone yet
    page.get_by_test_id("cell-b3").click()
    expect(page.get_by_test_id("swap")).to_be_visible()
    page.get_by_test_id("swap").click()
    # Column b, row 3 becomes column c, row 2, and green.
    stone(page, "c2", "green")
    expect(page.get_by_test_id("cell-b3")).to_have_attribute("aria-label", "b3, empty")
    expect(page.get_by_test_id("cell-c2")).to_have_class(re.compile(r"\blast\b"))
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move (Blue)")
    expect(page.get_by_test_id("swap")).to_be_hidden()
    reply_to_the_swap_and_reload(page, "b3", "c2", "f6")


def test_the_y_swap_only_changes_the_colour_and_survives_a_reload(page: Page, server: AppServer) -> None:
    pick_variant(page, server, "y", "swap")
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.get_by_test_id("cell-c5").click()
    stone(page, "c5", "blue")
    page.get_by_test_id("swap").click()
    stone(page, "c5", "green")
    expect(page.locator(".hx.blue, .hx.green")).to_have_count(1)
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move (Blue)")
    reply_to_the_swap_and_reload(page, "c5", "c5", "e7")


def test_keyboard_moves_along_rows_and_diagonals(page: Page, server: AppServer) -> None:
    pick_variant(page, server, "hex", "no-swap")
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.get_by_test_id("setting-size").select_option("7")
    page.get_by_test_id("cell-a1").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    expect(page.get_by_test_id("cell-b2")).to_be_focused()
    page.keyboard.press("Enter")
    stone(page, "b2", "blue")
    expect(page.get_by_test_id("live")).to_have_text("Player 1 played b2.")
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    stone(page, "c2", "green")


def test_on_a_phone_held_upright_the_hex_board_stands_upright(page: Page, server: AppServer) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    pick_variant(page, server, "hex", "no-swap")
    page.get_by_test_id("setting-opponent").select_option("two_player")
    expect(page.get_by_test_id("hex-board")).to_have_class(re.compile(r"\btall\b"))

    def box(cell: str) -> dict[str, float]:
        found = page.get_by_test_id(f"cell-{cell}").bounding_box()
        assert found is not None
        return found

    # Upright: a1 at the top corner, k11 at the bottom, k1 left, a11 right;
    # blue still owns the top-left and bottom-right edges.
    assert box("a1")["y"] < box("f6")["y"] < box("k11")["y"]
    assert box("k1")["x"] < box("f6")["x"] < box("a11")["x"]
    expect(page.get_by_test_id("edge-top-left")).to_have_class(re.compile(r"\bblue\b"))
    expect(page.get_by_test_id("edge-bottom-right")).to_have_class(re.compile(r"\bblue\b"))
    expect(page.get_by_test_id("edge-top-right")).to_have_class(re.compile(r"\bgreen\b"))
    # Drawn wide, an 11 x 11 cell would be about 23 px across at this width;
    # and the whole board fits on the screen.
    assert box("f6")["width"] >= 28
    board = page.get_by_test_id("hex-board").bounding_box()
    assert board is not None and board["y"] + board["height"] <= 844
    # The arrow keys step the way they point: right moves right (a1 -> a2),
    # down moves down (a2 -> b2).
    page.get_by_test_id("cell-a1").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("cell-a2")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.get_by_test_id("cell-b2")).to_be_focused()
    page.keyboard.press("Enter")
    stone(page, "b2", "blue")
    # Turned sideways: the wide drawing, the game as it was.
    page.set_viewport_size({"width": 844, "height": 390})
    expect(page.get_by_test_id("hex-board")).not_to_have_class(re.compile(r"\btall\b"))
    stone(page, "b2", "blue")
    assert box("a1")["x"] < box("f6")["x"] < box("k11")["x"]
    assert box("k1")["y"] < box("f6")["y"] < box("a11")["y"]


def test_two_players_take_back_a_misclick_and_the_game_still_counts(page: Page, server: AppServer) -> None:
    """On one device: Green taps the wrong cell, Undo takes back that stone
    alone (Blue's stays), Green plays the move meant, and the game goes on
    to its end and counts as played, with no word of help."""
    open_app(page, server, "#/hex?size=7&swap=0&vs=two_player&starts=home")
    status, undo = page.get_by_test_id("status"), page.get_by_test_id("undo")
    expect(undo).to_be_disabled()  # nothing to take back yet
    page.get_by_test_id("cell-a1").click()
    page.get_by_test_id("cell-d4").click()  # Green meant g1
    expect(status).to_have_text("Player 1 to move (Blue)")
    expect(undo).to_be_enabled()
    undo.click()
    expect(page.get_by_test_id("cell-d4")).to_have_attribute("aria-label", "d4, empty")
    stone(page, "a1", "blue")
    expect(status).to_have_text("Player 2 to move (Green)")
    expect(page.get_by_test_id("live")).to_have_text("Move taken back.")
    expect(page.get_by_test_id("move-text")).to_have_text(["a1"])
    page.get_by_test_id("cell-g1").click()
    stone(page, "g1", "green")
    expect(status).to_have_text("Player 1 to move (Blue)")
    for blue, green in zip([f"a{row}" for row in range(2, 7)], [f"g{row}" for row in range(2, 7)]):
        page.get_by_test_id(f"cell-{blue}").click()
        page.get_by_test_id(f"cell-{green}").click()
    page.get_by_test_id("cell-a7").click()
    expect(status).to_have_text(re.compile(r"^Player 1 .*wins!$"))
    expect(undo).to_be_disabled()  # a finished game is recorded as it ended
    expect(page.get_by_test_id("assisted-note")).to_be_hidden()
    expect(page.get_by_test_id("stat-games")).to_have_text("1")
    expect(page.get_by_test_id("stat-current_streak")).to_have_text("1 day")
