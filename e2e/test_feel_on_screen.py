"""Feel, in the page: the last move appears with a short animation (only
that one, not again on a redraw, and none under reduced motion); the sounds
of a move, the computer's reply and the end of a game, off until the
player turns them on, remembered; red and blue stones for Hex and Y.

The sounds are checked through the harness's log (``window.appSounds``,
shell/sounds.js: every sound the page played, by name), so no audio device is
needed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from conftest import AppServer, open_app, wait_ready

THINK_MS = 30_000


def animation(page: Page, selector: str) -> str:
    return page.locator(selector).evaluate("element => getComputedStyle(element).animationName")


def stone_count(page: Page) -> int:
    return page.locator(".hx-board .stone").count()


def test_the_last_stone_and_mark_appear_animated_and_a_redraw_does_not_replay_it(page: Page, server: AppServer) -> None:
    open_app(page, server, "#/hex?size=7&vs=two_player&swap=0&starts=home")
    page.get_by_test_id("cell-d4").click()
    expect(page.get_by_test_id("cell-d4")).to_have_class(re.compile(r"\blast\b"))
    assert animation(page, "[data-testid=cell-d4] .stone") == "placed"
    page.get_by_test_id("cell-c5").click()
    expect(page.get_by_test_id("cell-c5")).to_have_class(re.compile(r"\blast\b"))
    assert animation(page, "[data-testid=cell-c5] .stone") == "placed"
    assert animation(page, "[data-testid=cell-d4] .stone") == "none"  # only the last move
    # A redraw (the coordinates off and on) keeps the stone's element, so its
    # animation does not start again.
    page.locator("[data-testid=cell-c5] .stone").evaluate("element => { element.dataset.seen = 'yes'; }")
    page.get_by_test_id("toggle-coordinates").uncheck()
    expect(page.locator(".hx-board .coord")).to_have_count(0)
    page.get_by_test_id("toggle-coordinates").check()
    expect(page.locator(".hx-board .coord").first).to_be_visible()
    assert page.locator("[data-testid=cell-c5] .stone").get_attribute("data-seen") == "yes"
    # Stepping back through the game: the stone shown last is the animated one.
    page.get_by_test_id("review-prev").click()
    expect(page.get_by_test_id("cell-d4")).to_have_class(re.compile(r"\blast\b"))
    assert animation(page, "[data-testid=cell-d4] .stone") == "placed"

    page.emulate_media(reduced_motion="reduce")
    assert animation(page, "[data-testid=cell-d4] .stone") == "none"


def test_no_animation_when_the_player_asks_for_reduced_motion(page: Page, server: AppServer) -> None:
    page.emulate_media(reduced_motion="reduce")
    open_app(page, server, "#/notakto?boards=1&vs=two_player")
    page.get_by_test_id("cell-1b2").click()
    expect(page.get_by_test_id("cell-1b2")).to_have_class(re.compile(r"\blast\b"))
    assert animation(page, "[data-testid=cell-1b2] .mark") == "none"
    page.emulate_media(reduced_motion="no-preference")
    assert animation(page, "[data-testid=cell-1b2] .mark") == "placed"


def sounds(page: Page) -> list[str]:
    return page.evaluate("() => [...window.appSounds]")


# What the page asks of Web Audio: every tone started and every gain it
# ramps to (a tone is made, and quietly), recorded before the page's scripts.
AUDIO_SPY = """
window.audioSpy = { tones: 0, gains: [] };
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) { window.audioSpy.tones += 1; return start.apply(this, args); };
const ramp = AudioParam.prototype.exponentialRampToValueAtTime;
AudioParam.prototype.exponentialRampToValueAtTime = function (value, time) {
  window.audioSpy.gains.push(value);
  return ramp.call(this, value, time);
};
"""


def test_sounds_are_off_until_turned_on_then_a_move_the_reply_and_the_end_each_sound(page: Page,
                                                                                      server: AppServer) -> None:
    page.add_init_script(AUDIO_SPY)
    open_app(page, server, "#/hex?size=7&vs=beginner&swap=0&starts=home")
    toggle = page.get_by_test_id("toggle-sound")
    expect(toggle).not_to_be_checked()
    page.get_by_test_id("cell-d4").click()
    page.wait_for_function("document.querySelectorAll('.hx-board .stone').length === 2", timeout=THINK_MS)
    assert sounds(page) == [] and page.evaluate("() => window.audioSpy.tones") == 0  # off by default

    expect(page.get_by_test_id("status")).to_have_text("Your turn (Blue)")
    toggle.check()
    page.locator(".hx[aria-disabled=false]").first.click()
    page.wait_for_function("document.querySelectorAll('.hx-board .stone').length === 4", timeout=THINK_MS)
    expect(page.get_by_test_id("status")).to_have_text("Your turn (Blue)")
    assert sounds(page) == ["move", "computer"]
    spy = page.evaluate("() => window.audioSpy")
    assert spy["tones"] == 2 and 0 < max(spy["gains"]) <= 0.1  # one quiet tone each
    # Redraws and steps through the game make no sound.
    page.get_by_test_id("toggle-coordinates").uncheck()
    page.get_by_test_id("review-first").click()
    page.get_by_test_id("review-live").click()
    assert sounds(page) == ["move", "computer"] and page.evaluate("() => window.audioSpy.tones") == 2

    page.reload()  # remembered; the game restored without a sound
    wait_ready(page)
    expect(toggle).to_be_checked()
    assert stone_count(page) == 4 and sounds(page) == []
    page.get_by_test_id("resign").click()
    page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("result-text")).to_have_text("You lost.")
    assert sounds(page) == ["loss"]

    page.goto(server.url + "#/notakto?boards=1&vs=two_player")  # the same switch in every game
    expect(page.get_by_test_id("notakto-boards")).to_be_visible()
    expect(page.get_by_test_id("toggle-sound")).to_be_checked()
    page.evaluate("() => { window.appSounds.length = 0; }")  # the same page: the log goes on
    for cell in ("1a1", "1b1", "1c1"):
        page.get_by_test_id(f"cell-{cell}").click()
    expect(page.get_by_test_id("result")).to_be_visible()
    assert sounds(page) == ["move", "move", "move", "end"]


def fill(page: Page, cell: str) -> str:
    return page.locator(f"[data-testid=cell-{cell}] .stone").evaluate("element => getComputedStyle(element).fill")


@pytest.mark.parametrize(("game", "size", "first", "second"), [("hex", 7, "d4", "c5"), ("y", 9, "e5", "c3")])
def test_red_and_blue_stones_with_the_players_named_so(page: Page, server: AppServer, game: str, size: int,
                                                        first: str, second: str) -> None:
    open_app(page, server, f"#/{game}?size={size}&vs=two_player&swap=0&starts=home")
    page.get_by_test_id(f"cell-{first}").click()
    page.get_by_test_id(f"cell-{second}").click()
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move (Blue)")
    expect(page.locator(".move-mark")).to_have_text(["Blue", "Green"])
    blue, green = fill(page, first), fill(page, second)

    toggle = page.get_by_test_id("toggle-red_blue")
    expect(toggle).not_to_be_checked()  # the seed's blue and green by default
    toggle.check()
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move (Red)")
    expect(page.locator(".move-mark")).to_have_text(["Red", "Blue"])
    expect(page.get_by_test_id(f"cell-{first}")).to_have_class(re.compile(r"\bred\b"))
    red, second_blue = fill(page, first), fill(page, second)
    assert len({blue, green, red, second_blue}) == 4, (blue, green, red, second_blue)
    assert "red stone" in page.get_by_test_id(f"cell-{first}").get_attribute("aria-label")
    if game == "hex":
        expect(page.get_by_test_id("edge-top-left")).to_have_class(re.compile(r"\bred\b"))

    page.reload()
    wait_ready(page)
    expect(toggle).to_be_checked()
    expect(page.get_by_test_id("status")).to_have_text("Player 1 to move (Red)")
    page.locator("#lang").select_option("de")
    expect(page.get_by_test_id("status")).to_have_text("Spieler 1 ist dran (Rot)")
    expect(page.locator(".move-mark")).to_have_text(["Rot", "Blau"])
