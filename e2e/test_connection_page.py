"""Hex and Y end to end: each of the four variants from the game list,
played to a finish against the computer and between two people; the swap
in both games (surviving a reload), the winning chain."""

from __future__ import annotations

import itertools
import math
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


# Each arrow key's direction on screen.
ARROWS = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
# Every cell's centre on screen, from its bounding box.
CELL_CENTRES = """() => Object.fromEntries([...document.querySelectorAll('#board [data-move]')].map((cell) => {
  const box = cell.getBoundingClientRect();
  return [cell.dataset.move, [box.x + box.width / 2, box.y + box.height / 2]];
}))"""
FOCUSED = "() => document.activeElement.dataset.move ?? null"


def degrees_off(key: str, start: tuple[float, float], end: tuple[float, float]) -> float:
    """How far the way from one centre to another turns from the key's direction."""
    (kx, ky), dx, dy = ARROWS[key], end[0] - start[0], end[1] - start[1]
    return math.degrees(math.acos(max(-1.0, min(1.0, (dx * kx + dy * ky) / math.hypot(dx, dy)))))


def board_cells(page: Page) -> tuple[dict[str, tuple[float, float]], float]:
    """The cells' centres and the distance between neighbours' centres."""
    centres = {move: (x, y) for move, (x, y) in page.evaluate(CELL_CENTRES).items()}
    spacing = min(math.dist(a, b) for a, b in itertools.combinations(centres.values(), 2))
    return centres, spacing


def press_from(page: Page, cell: str, key: str) -> str:
    page.get_by_test_id(f"cell-{cell}").focus()
    page.keyboard.press(key)
    return page.evaluate(FOCUSED)


def assert_arrows_follow_the_screen(page: Page) -> None:
    """From the corners, the middle of each side and the middle of the
    board, each arrow key moves the focus to a neighbour (never further,
    never backwards): the one whose centre lies nearest the key's direction
    on screen, within 30 degrees of it; with none there, the focus stays.
    Right, Right, ... keeps to its row on screen and as many Lefts come
    back; the same for Down and Up."""
    centres, spacing = board_cells(page)
    xs, ys = zip(*centres.values())
    middle = (sum(xs) / len(xs), sum(ys) / len(ys))
    compass = [(math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(0, 360, 45)]
    starts = {max(centres, key=lambda m: centres[m][0] * dx + centres[m][1] * dy) for dx, dy in compass}
    centre_cell = min(centres, key=lambda m: math.dist(centres[m], middle))
    starts.add(centre_cell)
    for start in sorted(starts):
        neighbours = {m for m, c in centres.items() if m != start and math.dist(c, centres[start]) < 1.2 * spacing}
        for key in ARROWS:
            reached = press_from(page, start, key)
            off = {m: degrees_off(key, centres[start], centres[m]) for m in neighbours}
            if min(off.values()) > 31:
                assert reached == start, (start, key, reached)
                continue
            assert reached in neighbours, (start, key, reached)
            assert off[reached] <= min(off.values()) + 1, (start, key, reached, off)
    for forth, back, along in (("ArrowRight", "ArrowLeft", 0), ("ArrowDown", "ArrowUp", 1)):
        page.get_by_test_id(f"cell-{centre_cell}").focus()
        path = [centre_cell]
        for _ in range(4):
            page.keyboard.press(forth)
            path.append(page.evaluate(FOCUSED))
        across = 1 - along
        assert all(centres[b][along] > centres[a][along] for a, b in itertools.pairwise(path)), (forth, path)
        assert all(abs(centres[m][across] - centres[centre_cell][across]) < 0.6 * spacing for m in path), (forth, path)
        for _ in range(4):
            page.keyboard.press(back)
        assert page.evaluate(FOCUSED) == centre_cell, (back, path)


@pytest.mark.parametrize("game", ["hex", "y"])
@pytest.mark.parametrize(("width", "height"), [(360, 640), (1280, 800)])
def test_the_arrow_keys_move_to_the_neighbour_in_their_direction_on_screen(
        page: Page, server: AppServer, game: str, width: int, height: int) -> None:
    """Hex upright on the phone and slanted on the desktop, and Y; then
    Enter and Space play the focused cell."""
    page.set_viewport_size({"width": width, "height": height})
    pick_variant(page, server, game, "no-swap")
    page.get_by_test_id("setting-opponent").select_option("two_player")
    tall = page.get_by_test_id(f"{game}-board").get_attribute("class") or ""
    assert ("tall" in tall.split()) == (game == "hex" and width == 360)
    assert_arrows_follow_the_screen(page)
    # The case: from a1, Right, Right, Down on the slanted board ends
    # below a cell level with a1, not on c2.
    if game == "hex" and width == 1280:
        centres, spacing = board_cells(page)
        page.get_by_test_id("cell-a1").focus()
        for key in ("ArrowRight", "ArrowRight"):
            page.keyboard.press(key)
        level = page.evaluate(FOCUSED)
        assert abs(centres[level][1] - centres["a1"][1]) < 0.1 * spacing and centres[level][0] > centres["a1"][0]
        page.keyboard.press("ArrowDown")
        below = page.evaluate(FOCUSED)
        assert below != "c2" and abs(centres[below][0] - centres[level][0]) < 0.1 * spacing
        assert centres[below][1] > centres[level][1]
    first, second = sorted(board_cells(page)[0])[:2]
    page.get_by_test_id(f"cell-{first}").focus()
    page.keyboard.press("Enter")
    stone(page, first, "blue")
    expect(page.get_by_test_id("live")).to_have_text(f"Player 1 played {first}.")
    page.get_by_test_id(f"cell-{second}").focus()
    page.keyboard.press(" ")
    stone(page, second, "green")


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
    page.get_by_test_id("cell-b2").click()
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


# The orientation menu as each language says it: its label, then its options.
ORIENTATION_WORDS = {
    "en": ("Board orientation", ["To fit the screen", "Upright", "Slanted"]),
    "de": ("Ausrichtung des Bretts", ["Passend zum Bildschirm", "Aufrecht", "Schräg"]),
    "pt": ("Orientação do tabuleiro", ["Conforme a tela", "Em pé", "Inclinado"]),
    "id": ("Arah papan", ["Menyesuaikan layar", "Tegak", "Miring"]),
}


def test_a_desktop_player_stands_the_hex_board_upright_and_it_stays_so(page: Page, server: AppServer) -> None:
    """The settings panel's orientation menu turns the board at once (the
    game goes on), the arrow keys follow the board as drawn, and the choice
    is remembered across a reload; a phone can have the board slanted."""
    page.set_viewport_size({"width": 1280, "height": 800})
    pick_variant(page, server, "hex", "no-swap")
    page.get_by_test_id("setting-opponent").select_option("two_player")
    board = page.get_by_test_id("hex-board")

    def box(cell: str) -> dict[str, float]:
        found = page.get_by_test_id(f"cell-{cell}").bounding_box()
        assert found is not None
        return found

    page.get_by_test_id("cell-f6").click()
    stone(page, "f6", "blue")
    menu = page.get_by_test_id("setting-orientation")
    expect(menu).to_have_value("auto")
    expect(page.get_by_test_id("setting-orientation-note")).to_have_text(
        "Upright on a phone held upright, slanted on a wider screen.")
    assert page.get_by_test_id("settings").bounding_box() is not None
    expect(page.get_by_test_id("settings").get_by_test_id("setting-orientation")).to_be_visible()
    # Slanted: a1 at the left corner, k11 at the right.
    assert box("a1")["x"] < box("f6")["x"] < box("k11")["x"]
    menu.select_option("upright")
    expect(board).to_have_class(re.compile(r"\btall\b"))
    # Upright: a1 at the top corner, k11 at the bottom; the game goes on and
    # the whole board is on the screen.
    assert box("a1")["y"] < box("f6")["y"] < box("k11")["y"]
    assert box("k1")["x"] < box("f6")["x"] < box("a11")["x"]
    stone(page, "f6", "blue")
    expect(page.get_by_test_id("status")).to_have_text("Player 2 to move (Green)")
    expect(page.get_by_test_id("settings-note")).to_have_count(0)
    expect(page.get_by_test_id("setting-orientation-note")).to_have_count(0)  # it spoke of "To fit the screen"
    whole = board.bounding_box()
    assert whole is not None and whole["y"] >= 0 and whole["y"] + whole["height"] <= 800
    assert_arrows_follow_the_screen(page)
    page.reload()
    wait_ready(page)
    expect(board).to_have_class(re.compile(r"\btall\b"))
    expect(menu).to_have_value("upright")
    stone(page, "f6", "blue")
    # Words in every language.
    for lang, (label, options) in ORIENTATION_WORDS.items():
        page.get_by_test_id("lang-select").select_option(lang)
        expect(page.locator('label[for="setting-orientation"]')).to_have_text(label)
        expect(menu.locator("option")).to_have_text(options)
    page.get_by_test_id("lang-select").select_option("en")
    # A phone: upright as chosen, slanted if the player wants it so (here
    # with the keyboard, the menu keeping the focus).
    page.set_viewport_size({"width": 360, "height": 640})
    expect(board).to_have_class(re.compile(r"\btall\b"))
    menu.focus()
    page.keyboard.press("ArrowDown")
    expect(menu).to_have_value("slanted")
    expect(board).not_to_have_class(re.compile(r"\btall\b"))
    expect(menu).to_be_focused()
    assert box("a1")["x"] < box("f6")["x"] < box("k11")["x"]
    menu.select_option("auto")
    expect(board).to_have_class(re.compile(r"\btall\b"))
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(board).not_to_have_class(re.compile(r"\btall\b"))
