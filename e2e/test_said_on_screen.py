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
        # The result, in the status's place.
        status, detail = page.get_by_test_id("result-text"), page.get_by_test_id("result-reason")
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


@pytest.mark.parametrize(("route", "cell", "name"), [
    ("#/notakto?boards=2", "cell-2b3", "b3"), ("#/uttt", None, "e"), ("#/hex?size=7", None, "a"), ("#/y?size=9", None, "a")])
def test_every_board_shows_coordinates_with_one_remembered_setting(page: Page, server: AppServer, route: str,
                                                                   cell: str | None, name: str) -> None:
    """On by default everywhere: every game's move list names cells by them
    ("f8", "2c1"), as PlayHex shows them on its boards."""
    open_app(page, server, route)
    toggle = page.get_by_test_id("toggle-coordinates")
    labels = page.locator(".coord-in, .coord, .ut-cols > span, .ut-rows > span")
    expect(toggle).to_be_checked()
    if cell:
        expect(page.get_by_test_id(cell).locator(".coord-in")).to_have_text(name)
    else:
        expect(labels.filter(has_text=re.compile(f"^{name}$")).first).to_be_visible()
    toggle.uncheck()
    expect(labels).to_have_count(0)
    page.reload()
    wait_ready(page)
    expect(toggle).not_to_be_checked()
    expect(labels).to_have_count(0)


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
        result = page.get_by_test_id("result-text")  # in the status's place
        expect(result).to_have_text(re.compile(r"wins!$"))
        expect(status).not_to_be_visible()
        headline = result.inner_text()
        assert headline.endswith("wins!") and winner["player"] in headline, (named, headline)
        if winner["mark"]:
            assert f"({winner['mark']})" in headline, (named, headline)
        headlines.append(headline)
        page.get_by_test_id("new-game").click()
        expect(page.get_by_test_id("move-text")).to_have_count(0)
    # Told apart whenever the board tells them apart.
    assert (headlines[0] != headlines[1]) == (TO_MOVE.match(status.inner_text())["mark"] is not None), headlines


# Each coordinate as a player reads it: where its centre is against the
# cells it names. Hex and Y: the line through the centres of the cells of
# its column (a letter) or row (a number) passes through it, outside the
# board; the columns (and the rows) are parallel, so a column of one cell
# takes their direction. Ultimate Tic-Tac-Toe: over its column, beside its
# row, outside the big board. Notakto: inside the cell it names, in line
# with the names of its row and its column.
COORDINATES_OUT_OF_LINE = r"""() => {
  const problems = [];
  const centre = (el) => { const b = el.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; };
  const named = (part, value) => [...document.querySelectorAll("[data-testid=board] [data-move]")]
    .filter((cell) => cell.dataset.move.replace(/^\d(?=[a-c])/, "").match(/^([a-s])(\d+)$/)[part] === value);
  const svg = document.querySelector(".hx-board");
  if (svg) {
    const width = document.querySelector("[data-move]").getBoundingClientRect().width;
    const texts = [...svg.querySelectorAll("text.coord")];
    const lines = texts.map((text) => {
      const cells = named(/\d/.test(text.textContent) ? 2 : 1, text.textContent).map(centre);
      return {text, cells};
    });
    const direction = (kind) => {
      const longest = lines.filter((l) => /\d/.test(l.text.textContent) === kind)
        .reduce((a, b) => (b.cells.length > a.cells.length ? b : a));
      const [first, last] = [longest.cells[0], longest.cells[longest.cells.length - 1]];
      const length = Math.hypot(last[0] - first[0], last[1] - first[1]);
      return [(last[0] - first[0]) / length, (last[1] - first[1]) / length];
    };
    const along = {true: direction(true), false: direction(false)};
    for (const {text, cells} of lines) {
      const [dx, dy] = along[/\d/.test(text.textContent)];
      const [x, y] = centre(text), [cx, cy] = cells[0];
      const off = Math.abs((x - cx) * dy - (y - cy) * dx);
      const nearest = Math.min(...cells.map(([px, py]) => Math.hypot(x - px, y - py)));
      if (off > 0.15 * width) problems.push(`${text.textContent} ${off.toFixed(1)} px off its line`);
      if (nearest < 1.2 * width) problems.push(`${text.textContent} on the board`);
    }
    if (texts.length === 0) problems.push("no coordinates");
  }
  const big = document.querySelector(".ut-big");
  if (big) {
    const frame = big.getBoundingClientRect();
    const spans = [...big.querySelectorAll(".ut-cols > span, .ut-rows > span")];
    for (const span of spans) {
      const number = /\d/.test(span.textContent), [x, y] = centre(span);
      const cells = named(number ? 2 : 1, span.textContent).map(centre);
      const off = Math.max(...cells.map(([cx, cy]) => Math.abs(number ? cy - y : cx - x)));
      if (off > 1) problems.push(`${span.textContent} ${off.toFixed(1)} px off its ${number ? "row" : "column"}`);
      if (number ? x > frame.left : y > frame.top) problems.push(`${span.textContent} on the board`);
    }
    if (spans.length !== 18) problems.push(`${spans.length} coordinates`);
  }
  const names = [...document.querySelectorAll(".nk-board .coord-in")];
  for (const name of names) {
    const cell = name.closest("[data-move]").getBoundingClientRect(), box = name.getBoundingClientRect();
    if (box.left < cell.left || box.right > cell.right || box.top < cell.top || box.bottom > cell.bottom) {
      problems.push(`${name.textContent} outside its cell`);
    }
    const board = name.closest(".nk-board");
    for (const other of board.querySelectorAll(".coord-in")) {
      const [a, b] = [name.getBoundingClientRect(), other.getBoundingClientRect()];
      if (other.textContent[0] === name.textContent[0] && Math.abs(a.left - b.left) > 1) problems.push(`${name.textContent} out of its column`);
      if (other.textContent[1] === name.textContent[1] && Math.abs(a.top - b.top) > 1) problems.push(`${name.textContent} out of its row`);
    }
  }
  return problems;
}"""

BOARD_SIZES = [("notakto", "boards", ["1", "2", "3", "6"]), ("uttt", None, [None]),
               ("hex", "size", ["7", "9", "11", "13", "14", "15", "19"]), ("y", "size", ["9", "11", "13", "15", "17", "19"])]


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, {"width": 1280, "height": 800}])
def test_coordinates_line_up_with_the_rows_and_columns_they_name(page: Page, server: AppServer, viewport: dict) -> None:
    """Every game and board size, on a phone (Hex upright) and a desktop."""
    page.set_viewport_size(viewport)
    for game, setting, sizes in BOARD_SIZES:
        open_app(page, server, f"#/{game}?vs=two_player")
        for size in sizes:
            if setting:
                page.get_by_test_id(f"setting-{setting}").select_option(size)
            expect(page.get_by_test_id("toggle-coordinates")).to_be_checked()
            if game == "notakto":
                expect(page.locator(".nk-board")).to_have_count(int(size))
            elif setting:
                expect(page.get_by_test_id(f"{game}-board")).to_have_attribute(
                    "aria-label", re.compile(rf"\b{size}\b"))
            assert page.evaluate(COORDINATES_OUT_OF_LINE) == [], (game, size, viewport)
