"""A phone in the hand: nothing cut or wrapped at 360 px in any language,
no control past the page's margin, the controls within reach under a tall board, cells a finger can hit, and a
start-up that looks like one (issue "Clear to every player", items 5-7)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from conftest import AppServer, eventually, open_app, open_as_harness, wait_ready

CODES = ("en", "de", "pt", "id")
CATALOGS = {code: json.loads((Path(__file__).resolve().parent.parent / "i18n" / f"{code}.json").read_text())
            for code in CODES}
PHONE = {"width": 360, "height": 640}

# Every control a player reads on the screen, and whether its text is cut or
# runs onto a second line. A menu shows its chosen option's text, which the
# box cuts without telling the page: that text is measured with the menu's
# font against the room inside the box (less its arrow).
MEASURE = """() => {
  const visible = (el) => el.offsetParent !== null && getComputedStyle(el).visibility !== "hidden";
  const lines = (el) => {  // the lines its words take (its text, not its icons)
    const tops = new Set();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (!text.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.bottom / 4));
    }
    return tops.size;
  };
  const canvas = document.createElement("canvas").getContext("2d");
  const problems = [];
  const name = (el) => el.dataset.testid || el.id || el.textContent.trim().slice(0, 30);
  for (const el of document.querySelectorAll(
      "header a, header select, .game-head a, .game-head h1, button, select, .toggle, summary, .review-label, "
      + ".card-variants a")) {
    if (!visible(el)) continue;
    if (el.tagName === "SELECT") {
      const style = getComputedStyle(el);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = el.options[el.selectedIndex]?.text ?? "";
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      if (canvas.measureText(text).width > room) problems.push(`cut menu ${name(el)}: ${text}`);
      continue;
    }
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`cut ${name(el)}: ${el.textContent.trim()}`);
    if (lines(el) > 1) problems.push(`wrapped ${name(el)}: ${el.textContent.trim()}`);
  }
  if (document.documentElement.scrollWidth > innerWidth) problems.push(`page wider than the screen`);
  // Every control in the page's margins: none reaches the screen's edge.
  const main = document.querySelector("main"), style = getComputedStyle(main), frame = main.getBoundingClientRect();
  const left = frame.left + parseFloat(style.paddingLeft), right = frame.right - parseFloat(style.paddingRight);
  for (const el of main.querySelectorAll("button, select, .toggle, .card-variants a")) {
    if (!visible(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.left < left - 0.5 || box.right > right + 0.5) {
      problems.push(`past the margin ${name(el)}: ${Math.round(box.left)}-${Math.round(box.right)} of ${left}-${right}`);
    }
  }
  return problems;
}"""


def phone(browser: Browser, code: str = "en", touch: bool = True) -> BrowserContext:
    context = browser.new_context(viewport=PHONE, locale=code, service_workers="block", has_touch=touch,
                                  is_mobile=touch)
    open_as_harness(context)
    return context


@pytest.fixture
def touch_page(browser: Browser) -> Iterator[Page]:
    context = phone(browser)
    yield context.new_page()
    context.close()


def tops(page: Page, *testids: str) -> set[int]:
    return {round(page.get_by_test_id(testid).bounding_box()["y"]) for testid in testids}


@pytest.mark.parametrize("code", CODES)
def test_nothing_is_cut_or_wrapped_on_a_360_px_phone(browser: Browser, server: AppServer, code: str) -> None:
    context = phone(browser, code)
    try:
        page = context.new_page()
        for route in ("#/", "#/notakto", "#/uttt?time=30", "#/hex?size=11", "#/y?size=13"):
            open_app(page, server, f"?lang={code}{route}")
            problems = page.evaluate(MEASURE)
            assert problems == [], (code, route, problems)
            header = page.locator("header.site-header").bounding_box()
            assert header["height"] < 64, (code, route, header)  # one row: the name beside the language menu
            if route != "#/":
                assert len(tops(page, "new-game", "undo", "resign")) == 1, (code, route)
                assert page.get_by_test_id("embed-open").bounding_box()["y"] > \
                    page.get_by_test_id("board").bounding_box()["y"], "Embed is a tool below the board"
        # The menus name their options shortly; the sentence is under the menu.
        open_app(page, server, f"?lang={code}#/uttt")
        expect(page.get_by_test_id("setting-starts")).to_have_value("alternate")
        expect(page.get_by_test_id("setting-starts-note")).to_have_text(CATALOGS[code]["starts.alternate_help"])
    finally:
        context.close()


def test_nothing_is_cut_in_the_desktop_sidebar_either(browser: Browser, server: AppServer) -> None:
    for code in ("de", "id"):  # the longest menu texts
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=code, service_workers="block")
        open_as_harness(context)
        try:
            page = context.new_page()
            for route in ("#/notakto", "#/hex?size=11", "#/y?vs=two_player"):
                open_app(page, server, f"?lang={code}{route}")
                assert page.evaluate(MEASURE) == [], (code, route)
        finally:
            context.close()


def test_undo_resign_and_new_game_stay_within_reach_under_a_tall_board(touch_page: Page, server: AppServer) -> None:
    open_app(touch_page, server, "#/hex?size=11&vs=two_player")
    # The upright 11×11 board fits the screen with the buttons under it...
    board = touch_page.locator("[data-testid=board] svg").bounding_box()
    for testid in ("new-game", "undo", "resign"):
        box = touch_page.get_by_test_id(testid).bounding_box()
        assert box["y"] >= board["y"] + board["height"] and box["y"] + box["height"] <= PHONE["height"], (testid, box)
    # ...and where a board does not fit (the phone turned sideways), they
    # stay at the foot of the screen while it scrolls.
    touch_page.set_viewport_size({"width": 640, "height": 360})
    open_app(touch_page, server, "#/hex?size=11&vs=two_player")
    board = touch_page.locator("[data-testid=board] svg").bounding_box()
    assert board["y"] + board["height"] > 360
    for testid in ("new-game", "undo", "resign"):
        expect(touch_page.get_by_test_id(testid)).to_be_in_viewport()


def test_small_cells_take_two_taps_and_the_setting_turns_that_off(touch_page: Page, server: AppServer) -> None:
    page = touch_page
    open_app(page, server, "#/hex?size=11&vs=two_player")
    moves = page.get_by_test_id("move-list").locator(".move")
    cell = page.get_by_test_id("cell-e5")
    assert cell.bounding_box()["width"] < 32
    cell.tap()
    expect(cell).to_have_attribute("data-pending", "true")
    expect(page.get_by_test_id("tap-confirm")).to_have_text("e5 is marked: tap it again to play it.")
    expect(page.get_by_test_id("tap-confirm")).to_be_in_viewport()
    expect(moves).to_have_count(0)
    # A tap elsewhere moves the mark; a second tap on it plays.
    page.get_by_test_id("cell-f5").tap()
    expect(cell).not_to_have_attribute("data-pending", "true")
    page.get_by_test_id("cell-f5").tap()
    expect(moves).to_have_count(1)
    expect(page.get_by_test_id("cell-f5")).to_have_class(re.compile(r"\bblue\b"))
    expect(page.get_by_test_id("tap-confirm")).to_be_hidden()
    # Off: one tap plays; and it stays off after a reload.
    toggle = page.get_by_test_id("toggle-confirm")
    expect(toggle).to_be_checked()
    toggle.tap()
    expect(toggle).not_to_be_checked()
    page.get_by_test_id("cell-c3").tap()
    expect(moves).to_have_count(2)
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("toggle-confirm")).not_to_be_checked()


def test_the_board_zooms_and_pans_in_its_frame(touch_page: Page, server: AppServer) -> None:
    page = touch_page
    open_app(page, server, "#/y?size=13&vs=two_player")
    board = page.get_by_test_id("board")
    before = page.get_by_test_id("cell-g7").bounding_box()["width"]
    expect(page.get_by_test_id("zoom-out")).to_be_disabled()
    page.get_by_test_id("zoom-in").tap()
    page.get_by_test_id("zoom-in").tap()
    expect(page.get_by_test_id("zoom-in")).to_be_disabled()
    after = page.get_by_test_id("cell-g7").bounding_box()["width"]
    assert after > 1.8 * before, (before, after)
    frame = board.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert frame[0] > 1.8 * frame[1], frame  # the board pans in its frame...
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # ...and the page stays
    # Cells big enough now: one tap plays.
    page.get_by_test_id("cell-g7").tap()
    expect(page.get_by_test_id("move-list").locator(".move")).to_have_count(1)
    page.get_by_test_id("zoom-out").tap()
    page.get_by_test_id("zoom-out").tap()
    assert board.evaluate("el => el.scrollWidth <= el.clientWidth + 1")


def test_a_mouse_or_large_cells_play_at_once(browser: Browser, server: AppServer) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    open_as_harness(context)
    try:
        page = open_app(context.new_page(), server, "#/hex?size=19&vs=two_player")
        expect(page.get_by_test_id("toggle-confirm")).to_be_hidden()
        expect(page.get_by_test_id("zoom-in")).to_be_hidden()
        page.get_by_test_id("cell-j10").click()
        expect(page.get_by_test_id("move-list").locator(".move")).to_have_count(1)
    finally:
        context.close()
    context = phone(browser)
    try:
        page = open_app(context.new_page(), server, "#/notakto?boards=1&vs=two_player")
        assert page.get_by_test_id("cell-1b2").bounding_box()["width"] > 32
        expect(page.get_by_test_id("toggle-confirm")).to_be_hidden()
        page.get_by_test_id("cell-1b2").tap()
        expect(page.get_by_test_id("move-list").locator(".move")).to_have_count(1)
    finally:
        context.close()


def test_start_up_reads_as_loading_and_a_tap_on_a_game_is_kept(browser: Browser, server: AppServer) -> None:
    """The interpreter held back (its WebAssembly answered only once the
    checks are done): the page says it is loading in words without jargon,
    a game tapped meanwhile shows a board-sized "getting ready" box, and
    opens once it can."""
    context = phone(browser, "de")
    held: list[Route] = []
    try:
        page = context.new_page()
        page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
        page.goto(server.url + "#/")
        page.evaluate("window.scrollTo(0, 300)")
        page.get_by_test_id("pick-uttt").tap()
        assert page.evaluate("document.body.dataset.ready") is None, "tapped before the engine was ready"
        expect(page.get_by_test_id("game-title")).to_be_in_viewport()  # the game opens at its top
        loading = page.get_by_test_id("loading")
        expect(loading).to_be_visible()
        for code in CODES:
            for key in ("loading.runtime", "loading.starting", "loading.games", "loading.board"):
                assert "python" not in CATALOGS[code][key].lower(), (code, key)
        wait = page.locator(".board-wait")
        expect(wait).to_be_visible()
        expect(wait).to_have_text(CATALOGS["de"]["loading.board"])
        assert wait.bounding_box()["height"] > 200
        expect(page.get_by_test_id("new-game")).to_be_disabled()
        eventually(page, lambda: held)  # the interpreter's WebAssembly is asked for, and held
        assert page.evaluate("document.body.dataset.ready") is None
        for route in held:
            route.continue_()
        wait_ready(page)
        expect(page.get_by_test_id("game-title")).to_have_text(CATALOGS["de"]["games.uttt.name"])
        expect(page.locator("[data-testid=board] [data-move]")).to_have_count(81)
        expect(loading).to_be_hidden()
    finally:
        context.close()
