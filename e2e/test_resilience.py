"""What must never break a player's page: a Python exception, full or
blocked storage, two tabs at once; and the page on phones, in the dark,
with reduced motion, with enough contrast."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from conftest import AppServer, open_app

THINK_MS = 30_000


def open_notakto(page: Page, server: AppServer) -> Page:
    open_app(page, server, "#/notakto")
    expect(page.get_by_test_id("cell-1a1")).to_be_visible()
    return page


BREAK_MOVE_LIST = """
const append = Element.prototype.append;
Element.prototype.append = function (...nodes) {
  if (window.__breakMoveList && this.id === 'move-list') {
    window.__breakMoveList = false;
    throw new Error('injected failure');
  }
  return append.apply(this, nodes);
};
"""


def test_a_python_exception_shows_a_friendly_panel_and_the_page_recovers(page: Page, server: AppServer, watch) -> None:
    watch.expected_errors.append("injected failure")
    page.add_init_script(BREAK_MOVE_LIST)
    open_notakto(page, server)
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.evaluate("window.__breakMoveList = true")
    page.get_by_test_id("cell-1a1").click()
    expect(page.get_by_test_id("error")).to_be_visible()
    expect(page.get_by_test_id("error-text")).to_have_text(re.compile("saved games and statistics are safe"))
    expect(page.locator(".py-error")).to_have_count(0)
    assert not any("Traceback" in text for text in page.locator("body").all_inner_texts())
    assert any("injected failure" in error for error in watch.errors)  # details went to the console
    page.get_by_test_id("error-continue").click()
    expect(page.get_by_test_id("error")).to_be_hidden()
    page.get_by_test_id("cell-2b2").click()
    expect(page.locator(".cell.x")).to_have_count(2)
    expect(page.get_by_test_id("move-list")).to_have_text(re.compile("1a1.*2b2", re.S))


QUOTA = """
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (String(key).startsWith('abstract-games/')) throw new DOMException('full', 'QuotaExceededError');
  return setItem.call(this, key, value);
};
"""

BLOCKED = """
Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('blocked', 'SecurityError'); } });
"""


@pytest.mark.parametrize(("script", "notice"), [(QUOTA, "quota"), (BLOCKED, "unavailable")])
def test_full_or_blocked_storage_degrades_to_memory_with_a_notice(page: Page, server: AppServer, script: str, notice: str) -> None:
    page.add_init_script(script)
    open_notakto(page, server)
    expect(page.get_by_test_id(f"notice-storage-{notice}")).to_be_visible()
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.get_by_test_id("setting-boards").select_option("1")
    for cell in ("1a1", "1b1", "1c1"):
        page.get_by_test_id(f"cell-{cell}").click()
    expect(page.get_by_test_id("result-text")).to_have_text("Player 2 wins!")
    expect(page.get_by_test_id("stat-games")).to_have_text("1")  # kept in memory


def two_tabs(context: BrowserContext, server: AppServer) -> tuple[Page, Page]:
    first = open_notakto(context.new_page(), server)
    first.get_by_test_id("setting-opponent").select_option("two_player")
    first.get_by_test_id("setting-boards").select_option("1")
    second = open_notakto(context.new_page(), server)
    expect(second.locator(".nk-board")).to_have_count(1)
    return first, second


def test_two_tabs_never_overwrite_each_others_game_silently(context: BrowserContext, server: AppServer) -> None:
    first, second = two_tabs(context, server)
    first.get_by_test_id("cell-1a1").click()
    # The other tab hears of it at once and lets the player choose.
    expect(second.get_by_test_id("notice-conflict-notakto")).to_be_visible()
    second.get_by_test_id("cell-1c3").click()
    stored = first.evaluate("localStorage.getItem('abstract-games/save/notakto')")
    assert '"1a1"' in stored and '"1c3"' not in stored
    second.get_by_test_id("notice-conflict-notakto").get_by_role("button", name="Load that game").click()
    expect(second.get_by_test_id("cell-1a1")).to_have_class(re.compile(r"\bx\b"))
    expect(second.locator(".cell.x")).to_have_count(1)
    second.get_by_test_id("cell-1b2").click()
    expect(first.get_by_test_id("notice-conflict-notakto")).to_be_visible()
    first.get_by_test_id("notice-conflict-notakto").get_by_role("button", name="Keep this one").click()
    stored = first.evaluate("JSON.parse(localStorage.getItem('abstract-games/save/notakto')).data.game.state.moves")
    assert stored == ["1a1"]


def test_a_game_finished_in_one_tab_counts_once_in_both(context: BrowserContext, server: AppServer) -> None:
    first, second = two_tabs(context, server)
    for cell in ("1a1", "1b1"):
        first.get_by_test_id(f"cell-{cell}").click()
    second.get_by_test_id("notice-conflict-notakto").get_by_role("button", name="Load that game").click()
    expect(second.locator(".cell.x")).to_have_count(2)
    first.get_by_test_id("cell-1c1").click()
    expect(first.get_by_test_id("result-text")).to_have_text("Player 2 wins!")
    expect(first.get_by_test_id("stat-games")).to_have_text("1")
    expect(second.get_by_test_id("stat-games")).to_have_text("1")  # without a reload
    # The same game finished again in the other tab is not counted twice.
    second.get_by_test_id("cell-1c1").click()
    expect(second.get_by_test_id("result-text")).to_have_text("Player 2 wins!")
    expect(second.get_by_test_id("stat-games")).to_have_text("1")
    expect(first.get_by_test_id("stat-games")).to_have_text("1")


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth")


def test_a_360px_phone_needs_no_sideways_scrolling(browser, server: AppServer, watch) -> None:
    from conftest import watch_context

    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  service_workers="block")
    watch_context(context, watch)
    page = context.new_page()
    open_app(page, server)
    assert no_horizontal_scroll(page)
    page.get_by_test_id("pick-notakto").tap()
    page.get_by_test_id("setting-boards").select_option("6")
    expect(page.locator(".nk-board")).to_have_count(6)
    assert no_horizontal_scroll(page)
    box = page.get_by_test_id("cell-1a1").bounding_box()
    assert box is not None and box["width"] >= 28 and box["height"] >= 28  # a finger fits
    page.get_by_test_id("cell-6c3").tap()
    expect(page.get_by_test_id("cell-6c3")).to_have_class(re.compile(r"\bx\b"))
    context.close()


def rgb(text: str) -> tuple[float, ...]:
    return tuple(float(v) for v in re.findall(r"[\d.]+", text)[:3])


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    def luminance(colour: tuple[float, ...]) -> float:
        channels = [c / 255 for c in colour]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_themes_follow_the_system_with_enough_contrast(page: Page, server: AppServer, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    open_notakto(page, server)
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.get_by_test_id("toggle-hints").check()
    safe = rgb(page.locator(".cell.safe .safe-dot").first.evaluate("e => getComputedStyle(e).backgroundColor"))
    page.get_by_test_id("cell-1a1").click()
    background = rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))
    assert (sum(background) / 3 < 80) == (scheme == "dark")
    cell = page.get_by_test_id("cell-2b2")
    cell_bg = rgb(cell.evaluate("e => getComputedStyle(e).backgroundColor"))
    mark = rgb(page.locator("[data-testid=cell-1a1] .mark").evaluate("e => getComputedStyle(e).color"))
    last = rgb(page.get_by_test_id("cell-1a1").evaluate("e => getComputedStyle(e).boxShadow"))
    grid_line = rgb(page.locator(".nk-grid").first.evaluate("e => getComputedStyle(e).backgroundColor"))
    for name, colour in (("mark", mark), ("last move", last), ("grid", grid_line), ("safe move", safe)):
        assert contrast(colour, cell_bg) >= 3, f"{name} contrast {contrast(colour, cell_bg):.2f} in {scheme}"
    text = rgb(page.evaluate("getComputedStyle(document.body).color"))
    assert contrast(text, background) >= 4.5


def test_reduced_motion_turns_transitions_off(page: Page, server: AppServer) -> None:
    page.emulate_media(reduced_motion="reduce")
    open_notakto(page, server)
    duration = page.evaluate("getComputedStyle(document.getElementById('loading-fill')).transitionDuration")
    assert duration == "0s"


# What the loading line counts as the runtime's files (shell/loading.js, runtimeFiles).
RUNTIME_FILES = {"pyodide.mjs", "pyodide.asm.mjs", "python-stdlib.zip", "pyodide.asm.wasm"}

# Every text the loading line shows, from the page's start.
LOADING_TEXTS = """
window.__loadingTexts = [];
new MutationObserver(() => {
  const text = document.getElementById('loading-text');
  const fill = document.getElementById('loading-fill');
  if (!text) return;
  const seen = window.__loadingTexts, last = seen[seen.length - 1];
  const now = [text.textContent, parseFloat(fill.style.width || '0')];
  if (!last || last[0] !== now[0] || last[1] !== now[1]) seen.push(now);
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""


def test_the_loading_line_never_shows_a_key_nor_goes_back_when_its_texts_come_late(page: Page, server: AppServer) -> None:
    """The runtime's files can be in before the catalog (a slow catalog
    here): the line waits for the text and its bar only moves forward."""
    finished: set[str] = set()

    def late(route):
        # The catalog comes once the runtime's files are all in.
        while not finished >= RUNTIME_FILES:
            page.wait_for_event("requestfinished", timeout=60_000)
        route.continue_()

    page.on("requestfinished", lambda request: finished.add(request.url.rsplit("/", 1)[-1]))
    page.add_init_script(LOADING_TEXTS)
    page.route("**/i18n/en.json", late)
    page.goto(server.url + "#/notakto")
    expect(page.get_by_test_id("cell-1a1")).to_be_visible(timeout=60_000)
    seen = page.evaluate("window.__loadingTexts")
    texts = [text for text, _ in seen]
    assert "Starting the game engine…" in texts, seen
    assert not [text for text in texts if text.startswith("loading.")], seen
    fills = [fill for _, fill in seen]
    assert fills == sorted(fills), seen


@pytest.mark.parametrize("missing", ["vendor/pyodide/pyodide.asm.wasm", "vendor/python.zip", "i18n/en.json"])
def test_a_runtime_that_cannot_load_says_so_and_reload_recovers(page: Page, server: AppServer, watch, missing: str) -> None:
    watch.expected_errors.append(".")  # the failed request is logged on purpose
    page.route(f"**/{missing}", lambda route: route.abort())
    page.goto(server.url + "#/notakto")
    expect(page.get_by_test_id("error")).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("error-text")).to_have_text(re.compile("could not start"))
    expect(page.get_by_test_id("error-continue")).to_be_hidden()
    if not missing.startswith("i18n/"):  # without its texts the shell shows only this English panel
        expect(page.get_by_test_id("game-title")).to_have_text("Notakto")  # the shell still works
    page.unroute(f"**/{missing}")
    page.get_by_test_id("error-reload").click()
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=60_000)
    expect(page.get_by_test_id("cell-1a1")).to_be_visible()
    expect(page.get_by_test_id("error")).to_be_hidden()
