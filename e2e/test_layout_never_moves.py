"""The board and the play buttons hold still (issue "What a player trips
over", items 2 to 5): a Hex game against the computer on a 360 x 640 phone
and a 1280 x 800 desktop, in English and in German's longer words, with
the computer's swap, a Resign and a New game question opened and
cancelled, a hint, the end, and a second game where the player is offered
the swap. After every step the board's and New game's, Undo's and
Resign's boxes are where they were; what each step shows (the swap's
note, the question, the hint's reason, the result, the offer) is on the
first screen, above the bar that sticks to a phone's foot."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from conftest import ROOT, AppServer, open_app, open_as_harness
from layout_watch import LayoutWatch, layout_boxes

THINK_MS = 30_000
HINT_MS = 20_000
CATALOGS = {code: json.loads((ROOT / "i18n" / f"{code}.json").read_text()) for code in ("en", "de", "pt", "id")}
PLAYED_IN = ("en", "de")
SCREENS = {"phone": {"width": 360, "height": 640}, "desktop": {"width": 1280, "height": 800}}
HELD_STILL = ("board", "new-game", "undo", "resign")


def screen_context(browser: Browser, screen: str, code: str) -> BrowserContext:
    """A touch phone or a desktop with a mouse, in a language."""
    phone = screen == "phone"
    context = browser.new_context(viewport=SCREENS[screen], locale=code, service_workers="block",
                                  has_touch=phone, is_mobile=phone)
    open_as_harness(context)
    return context


@pytest.fixture(params=[(screen, code) for screen in SCREENS for code in PLAYED_IN], ids=lambda p: "-".join(p))
def player(request: pytest.FixtureRequest, browser: Browser) -> Iterator[tuple[Page, str, bool]]:
    """A page on a touch phone or a desktop with a mouse, in a language."""
    screen, code = request.param
    context = screen_context(browser, screen, code)
    yield context.new_page(), code, screen == "phone"
    context.close()


def play(page: Page, cell: str, phone: bool) -> None:
    """A move as the player makes it: a click, or on a phone's small cells a
    tap that marks the cell and a second that plays it."""
    target = page.get_by_test_id(f"cell-{cell}")
    if not phone:
        target.click()
        return
    target.tap()
    if page.get_by_test_id("tap-confirm").is_visible():
        target.tap()


def on_first_screen(page: Page, testid: str) -> None:
    """The element is seen without scrolling: inside the screen, and above
    the play bar (which on a phone sticks to the screen's foot over what
    lies under it)."""
    boxes = layout_boxes(page, (testid, "play-bar"))
    box, bar = boxes[testid], boxes["play-bar"]
    assert box is not None and bar is not None, boxes
    height = page.viewport_size["height"]
    assert box[1] >= 0 and box[1] + box[3] <= min(height, bar[1]), (testid, box, "bar", bar, "screen", height)


def test_a_hex_game_moves_neither_the_board_nor_the_buttons(player: tuple[Page, str, bool], server: AppServer) -> None:
    page, code, phone = player
    words = CATALOGS[code]
    open_app(page, server, f"?lang={code}#/hex?size=11&vs=beginner&swap=1&starts=home")
    page.get_by_test_id("toggle-eval").check()
    expect(page.get_by_test_id("eval-bar")).to_be_visible()
    if phone:  # the zoom buttons over the board's empty corner, not over the bar
        zoom, bar = (layout_boxes(page, ("zoom-in", "eval-bar"))[name] for name in ("zoom-in", "eval-bar"))
        assert zoom is not None and bar is not None and zoom[1] >= bar[1] + bar[3], (zoom, bar)
    watch = LayoutWatch(page, HELD_STILL)

    play(page, "f6", phone)  # the centre: the computer takes it over
    expect(page.get_by_test_id("move-text")).to_have_text(["f6", "swap"], timeout=THINK_MS)
    note = page.get_by_test_id("status-note")
    expect(note).to_have_text(words["note.swap.computer"].replace("{to}", "f6"))
    watch.check("the computer swapped")
    on_first_screen(page, "status-note")

    for ask, question, cancel in (("resign", "confirm.resign", "Cancel"), ("new-game", "confirm.abandon_loss", "Escape")):
        page.get_by_test_id(ask).click()
        expect(page.locator("#confirm-text")).to_have_text(words[question])
        expect(page.get_by_test_id("confirm-no")).to_be_in_viewport()
        watch.check(f"{ask} asks")
        if cancel == "Escape":
            page.keyboard.press("Escape")
        else:
            page.get_by_test_id("confirm-no").click()
        expect(page.get_by_test_id("confirm")).to_be_hidden()
        watch.check(f"{ask} cancelled ({cancel})")

    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-line")).to_contain_text(words["hint.engine"].split("{")[0], timeout=HINT_MS)
    watch.check("a hint")
    on_first_screen(page, "hint-line")

    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-yes").click()
    headline = words["result.loss"]
    expect(page.get_by_test_id("result-text")).to_have_text(headline)
    watch.check("resigned")
    on_first_screen(page, "result")
    assert page.locator("#game .play-area").inner_text().count(headline) == 1, "the result said once"

    page.get_by_test_id("setting-starts").select_option("away")
    page.get_by_test_id("new-game").click()
    swap = page.get_by_test_id("swap")
    expect(swap).to_be_visible(timeout=THINK_MS)
    expect(page.get_by_test_id("status-detail")).to_have_text(words["swap.prompt"])
    watch.check("the swap offered")
    on_first_screen(page, "swap")
    swap.click()
    expect(page.get_by_test_id("move-text").nth(1)).to_have_text("swap")
    expect(note).to_contain_text(words["note.swap.you"].split(":")[0])
    watch.check("the player swapped")


# The status panel's line under the status, in every way a game in play
# fills it: (catalog key, whether the Swap button stands beside it), at
# their longest coordinates and names. A hint beside Swap is a hint to swap.
PANEL_LINES = (
    [(key, False) for key in ("tap.confirm", "hint.thinking", "hint.failed", "hint.engine")]
    + [(key, False) for key in CATALOGS["en"] if key.startswith(("note.", "reason.", "uttt.target."))]
    + [("swap.prompt", True), ("hint.engine", True)]
)
STATUSES = [key for key in CATALOGS["en"] if key.startswith(("status.turn", "result.")) or key == "status.computer_thinking"]

FITS = """([status, line, swap]) => {
  const panel = document.querySelector("[data-testid=status-panel]");
  const row = document.querySelector(".status-row"), room = document.querySelector(".status-line");
  const [height, rowHeight] = [panel, row].map((element) => element.getBoundingClientRect().height);
  const said = document.getElementById("status-detail"), button = document.getElementById("swap");
  document.getElementById("status").textContent = status;
  said.textContent = line;
  said.hidden = false;
  button.hidden = !swap;
  button.textContent = swap || "";
  return {panel: panel.getBoundingClientRect().height - height, row: row.getBoundingClientRect().height - rowHeight,
          line: room.scrollHeight - room.clientHeight};
}"""


def forms(words: dict, key: str) -> list[str]:
    """A catalog entry's texts (each plural form of one that has them)."""
    value = words[key]
    return list(value.values()) if isinstance(value, dict) else [value]


def said(words: dict, key: str, swap: bool) -> list[str]:
    """Every text of ``key`` as the panel shows it: placeholders at their
    longest, a hint with each of its reasons (beside Swap: the swap's)."""
    player = words["player.numbered"].replace("{number}", "2")
    fills = {"player": player, "mark": words["mark.green"], "from": "k10", "to": "j11", "cell": "k10", "board": "8",
             "span": "d7-f9", "percent": "100", "count": "99", "move": words["hint.swap"] if swap else "k10"}
    whys = ["why.swap"] if swap else [why for why in words if why.startswith("why.")]
    texts = [text.replace("{why}", reason) for text in forms(words, key)
             for reason in ([reason for why in whys for reason in forms(words, why)] if "{why}" in text else [""])]
    for name, value in fills.items():
        texts = [text.replace("{" + name + "}", value) for text in texts]
    assert not any("{" in text for text in texts), texts
    return texts


@pytest.mark.parametrize("code", CATALOGS)
def test_what_the_status_panel_says_in_play_fits_it_on_a_phone(browser: Browser, server: AppServer, code: str) -> None:
    """Every status of a game in play and every line under it, in the
    panel's room on a 360 px phone: nothing wraps or scrolls inside it, and
    the panel keeps its height whatever it says. (A status of another
    moment, looking back or the computer playing for a player, may take two
    lines: the panel keeps its height then too, the line under it scrolls.)"""
    context = browser.new_context(viewport=SCREENS["phone"], locale=code, service_workers="block")
    open_as_harness(context)
    try:
        page = open_app(context.new_page(), server, f"?lang={code}#/hex?size=11&vs=two_player")
        words = CATALOGS[code]
        cases = [(status, "", None) for key in STATUSES for status in said(words, key, False)]
        cases += [("", line, words["action.swap"] if swap else None)
                  for key, swap in PANEL_LINES for line in said(words, key, swap)]
        overflows = []
        for status, line, swap in cases:
            grew = page.evaluate(FITS, [status, line, swap])
            assert grew["panel"] == 0, (status, line, grew)
            if grew["row"] > 0 or grew["line"] > 1:
                overflows.append(f"{status or line} (beside Swap: {bool(swap)})")
        assert overflows == [], "\n".join(overflows)
    finally:
        context.close()


# Every game at its default size and its largest, the evaluation bar on and
# off: a desktop player sees the whole board and the play bar under it
# without scrolling.
FIRST_SCREENS = ["#/notakto?boards=3", "#/notakto?boards=6", "#/uttt", "#/hex?size=11", "#/hex?size=19",
                 "#/y?size=13", "#/y?size=19"]


@pytest.mark.parametrize("route", FIRST_SCREENS)
def test_a_desktop_shows_the_board_and_the_play_bar_on_the_first_screen(browser: Browser, server: AppServer,
                                                                         route: str) -> None:
    context = screen_context(browser, "desktop", "en")
    page = open_app(context.new_page(), server, route)
    try:
        for evaluation in (False, True):
            page.get_by_test_id("toggle-eval").set_checked(evaluation)
            expect(page.get_by_test_id("eval-bar")).to_be_visible(visible=evaluation)
            for testid, box in layout_boxes(page, HELD_STILL).items():
                assert box is not None and box[1] >= 0 and box[1] + box[3] <= SCREENS["desktop"]["height"], (
                    evaluation, testid, box)
    finally:
        context.close()


# Two people step back and forth through a game and on to its end: a game
# with the engine's hint (Hex) and one without (Notakto).
STEPPED = {"hex": ("#/hex?size=7&swap=0&vs=two_player&starts=home", ["d4", "c3", "e2"],
                   ["a1", "g1", "a2", "g2", "a3", "g3", "a4", "g4", "a5", "g5", "a6", "g6", "a7"]),
           "notakto": ("#/notakto?boards=1&vs=two_player&starts=home", ["1a1", "1c3", "1c1"], ["1a1", "1b1", "1c1"])}


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("game", STEPPED)
def test_stepping_back_moves_nothing_under_the_pointer(browser: Browser, server: AppServer, game: str,
                                                       screen: str) -> None:
    """While looking back, "Back to the game" takes the hint's place under
    the steps, so the move list (whose entries are clicked to step) stays
    where it was, as the board and the buttons do: looking back during the
    game and after it."""
    route, opening, ending = STEPPED[game]
    phone = screen == "phone"
    context = screen_context(browser, screen, "de")
    page = open_app(context.new_page(), server, f"?lang=de{route}")
    still = (*HELD_STILL, "review-prev", "move-list")

    def places() -> dict[str, tuple[float, float]]:
        boxes = layout_boxes(page, still)
        assert all(box is not None for box in boxes.values()), boxes
        return {testid: (box[0], box[1]) for testid, box in boxes.items() if box is not None}

    try:
        for cell in opening:
            play(page, cell, phone)
        expect(page.get_by_test_id("move-text")).to_have_count(len(opening))
        first = places()
        seen = {}
        page.get_by_test_id("move-1").click()
        expect(page.get_by_test_id("review-live")).to_be_visible()
        seen["the first move clicked in the list"] = places()
        page.get_by_test_id("review-next").click()
        seen["a step forward"] = places()
        page.get_by_test_id("review-live").click()
        expect(page.get_by_test_id("review-live")).to_be_hidden()
        seen["back to the game"] = places()
        page.get_by_test_id("new-game").click()
        page.get_by_test_id("confirm-yes").click()
        for cell in ending:
            play(page, cell, phone)
        expect(page.get_by_test_id("result")).to_be_visible()
        seen["the game over"] = places()
        page.get_by_test_id("review-prev").click()
        expect(page.get_by_test_id("review-live")).to_be_visible()
        seen["looking back over the game"] = places()
        moved = {step: {testid: (first[testid], at) for testid, at in now.items() if at != first[testid]}
                 for step, now in seen.items()}
        assert not any(moved.values()), moved
    finally:
        context.close()
