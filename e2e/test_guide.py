"""The guide as a player reads it: a page of its own for each game, as wide
as the page and never wider than a phone, with diagrams of the ideas it
explains captioned in the page's language; the statistics explained once,
on a page each guide and the statistics panel link to; and the game on its
screen exactly as it was after a look at the guide."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from conftest import ROOT, AppServer, open_app

LANGUAGES = ("en", "de", "pt", "id")
CATALOGS = {code: json.loads((ROOT / "i18n" / f"{code}.json").read_text(encoding="utf-8")) for code in LANGUAGES}
# The diagrams of each game's guide, by name (caption: guide.<game>.fig_<name>).
FIGURES = {"notakto": ["closed", "poisoned"], "uttt": ["sent", "free"], "hex": ["bridge", "template", "block"], "y": ["corner"]}
STATISTICS_FIRST_LINE = {code: catalog["guide.scoring_common"].split("\n")[0] for code, catalog in CATALOGS.items()}


def without_python(page: Page) -> list:
    """Hold the runtime back: the guide is the shell's, and on a busy machine
    Python's start would only keep the page's thread from answering."""
    held: list = []
    page.route("**/vendor/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    return held


def open_guide(page: Page, game: str) -> None:
    page.evaluate("hash => { location.hash = hash; }", f"#/{game}")
    expect(page.get_by_test_id("game-title")).to_have_text(CATALOGS["en"][f"games.{game}.name"])
    page.get_by_test_id("guide-open").click()
    expect(page).to_have_url(re.compile(rf"#/{game}/guide$"))


def expect_figures(page: Page, game: str, code: str) -> None:
    figures = page.get_by_test_id("guide").locator("figure")
    expect(figures).to_have_count(len(FIGURES[game]))
    for index, name in enumerate(FIGURES[game]):
        caption = CATALOGS[code][f"guide.{game}.fig_{name}"]
        figure = figures.nth(index)
        expect(figure.locator("figcaption")).to_have_text(caption)
        picture = figure.locator("svg")
        expect(picture).to_have_attribute("role", "img")
        expect(picture).to_have_accessible_name(caption)
        expect(picture).to_be_visible()
        # A picture that can be seen: drawn, and not a speck.
        assert picture.locator("polygon, rect, circle, path").count() >= 5
        box = picture.bounding_box()
        assert box is not None and box["width"] >= 100 and box["height"] >= 60, (game, name, box)


def test_each_guide_is_a_full_width_page_with_its_diagrams_in_the_page_language(page: Page, server: AppServer) -> None:
    without_python(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server.url)
    for game in FIGURES:
        open_guide(page, game)
        guide_page = page.get_by_test_id("guide-page")
        expect(guide_page).to_be_visible()
        expect(page.get_by_test_id("game-screen")).to_be_hidden()
        expect(page.get_by_test_id("guide-title")).to_have_text(f"How to play {CATALOGS['en'][f'games.{game}.name']}")
        expect(page.get_by_test_id("guide-title")).to_be_focused()
        box = guide_page.bounding_box()
        assert box is not None and box["width"] > 600, box
        # No longer a sidebar beside the board: the page is as long as its text.
        assert page.evaluate("document.documentElement.scrollHeight") < 2600
        # A readable measure: lines of the guide's text stay under ~75 characters.
        text_width = page.get_by_test_id("guide").locator("p").first.bounding_box()["width"]
        assert 450 < text_width < 760, text_width
        expect(page.get_by_test_id("guide")).to_contain_text(CATALOGS["en"][f"guide.{game}.rules"].split("\n")[0])
        expect_figures(page, game, "en")
        # The statistics are explained elsewhere, once.
        expect(page.get_by_test_id("guide")).not_to_contain_text(STATISTICS_FIRST_LINE["en"])
        page.get_by_test_id("guide-back").click()
        expect(page).to_have_url(re.compile(rf"#/{game}$"))
        expect(page.get_by_test_id("game-screen")).to_be_visible()
        expect(page.get_by_test_id("guide-page")).to_be_hidden()
    # In German, captions and titles follow the language.
    page.get_by_test_id("lang-select").select_option("de")
    for game in ("uttt", "hex"):
        open_guide(page, game)
        expect(page.get_by_test_id("guide-title")).to_have_text(f"So wird {CATALOGS['de'][f'games.{game}.name']} gespielt")
        expect_figures(page, game, "de")
    expect(page.get_by_test_id("guide-back")).to_have_text("Zurück zur Partie")


def test_the_statistics_are_explained_once_and_reached_from_every_guide_and_the_panel(page: Page, server: AppServer) -> None:
    without_python(page)
    page.goto(server.url)
    for game in FIGURES:
        open_guide(page, game)
        page.get_by_test_id("guide-stats-link").click()
        expect(page).to_have_url(re.compile(rf"#/{game}/statistics$"))
        expect(page.get_by_test_id("guide-title")).to_have_text("What the statistics mean")
        expect(page.get_by_text(STATISTICS_FIRST_LINE["en"])).to_have_count(1)
        expect(page.get_by_test_id("guide").locator("li")).to_have_count(CATALOGS["en"]["guide.scoring_common"].count("\n- "))
        # From there, back to this game's guide.
        page.get_by_test_id("stats-guide-link").click()
        expect(page).to_have_url(re.compile(rf"#/{game}/guide$"))
    # The statistics panel beside the board links to the same page.
    page.evaluate("location.hash = '#/hex'")
    page.get_by_test_id("stats-help").click()
    expect(page).to_have_url(re.compile(r"#/hex/statistics$"))
    expect(page.get_by_test_id("guide")).to_contain_text(STATISTICS_FIRST_LINE["en"])
    page.get_by_test_id("lang-select").select_option("de")
    expect(page.get_by_test_id("guide-title")).to_have_text("Was die Statistiken bedeuten")
    expect(page.get_by_text(STATISTICS_FIRST_LINE["de"])).to_have_count(1)


def test_on_a_phone_the_guide_fits_the_screen(page: Page, server: AppServer) -> None:
    without_python(page)
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(server.url)
    for game in FIGURES:
        open_guide(page, game)
        expect(page.get_by_test_id("guide").locator("figure svg")).to_have_count(len(FIGURES[game]))
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        for picture in page.get_by_test_id("guide").locator("figure svg").all():
            box = picture.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, (game, box)
        page.get_by_test_id("guide-back").click()


def test_the_game_in_progress_is_untouched_by_a_look_at_the_guide(page: Page, server: AppServer) -> None:
    open_app(page, server, "?vs=two_player#/notakto")
    page.get_by_test_id("cell-1a1").click()
    page.get_by_test_id("cell-2b2").click()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(2)
    # By keyboard: the link, the guide (its title focused), back by the link before it.
    page.get_by_test_id("guide-open").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("guide-page")).to_be_visible()
    expect(page.get_by_test_id("guide-title")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(page.get_by_test_id("guide-back")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("game-screen")).to_be_visible()
    expect(page.get_by_test_id("guide-open")).to_be_focused()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(2)
    expect(page.get_by_test_id("cell-1a1")).to_have_class(re.compile(r"\bx\b"))
    expect(page.get_by_test_id("cell-2b2")).to_have_class(re.compile(r"\bx\b"))
    # The game goes on where it was; the browser's Back leaves the guide too.
    page.get_by_test_id("cell-3c3").click()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(3)
    page.get_by_test_id("guide-open").click()
    page.get_by_test_id("guide-stats-link").click()
    page.go_back()
    page.go_back()
    expect(page).to_have_url(re.compile(r"#/notakto$"))
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(3)
    for cell in ("cell-1a1", "cell-2b2", "cell-3c3"):
        expect(page.get_by_test_id(cell)).to_have_class(re.compile(r"\bx\b"))
    # Nor is a look back at an earlier position (kept only on the open screen).
    page.get_by_test_id("review-prev").click()
    expect(page.get_by_test_id("review-label")).to_have_text("Move 2 of 3")
    page.get_by_test_id("guide-open").click()
    expect(page.get_by_test_id("guide-page")).to_be_visible()
    page.get_by_test_id("guide-back").click()
    expect(page.get_by_test_id("review-label")).to_have_text("Move 2 of 3")
    expect(page.get_by_test_id("error")).to_be_hidden()


def test_an_embedded_game_links_to_its_guide_and_back(page: Page, server: AppServer) -> None:
    without_python(page)
    page.goto(server.url + "?embed=1#/hex")
    expect(page.get_by_test_id("back-link")).to_be_hidden()
    page.get_by_test_id("guide-open").click()
    expect(page.get_by_test_id("guide-page")).to_be_visible()
    expect(page.get_by_test_id("guide").locator("figure svg")).to_have_count(3)
    page.get_by_test_id("guide-back").click()
    expect(page.get_by_test_id("game-screen")).to_be_visible()


def in_parentheses(text: str) -> str:
    """What the first parentheses of ``text`` hold (parentheses inside them included)."""
    start, depth = text.index("("), 0
    for end in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        if depth == 0:
            return text[start + 1:end]
    raise AssertionError(f"unbalanced parentheses in {text!r}")


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_game_with_help_is_defined_in_the_same_words_on_the_screen_and_on_the_statistics_page(
        page: Page, server: AppServer, code: str) -> None:
    """The note under the board lists what counts as help; the statistics
    page lists the same, says Undo (as the button names it) is there between
    two players too, and how a draw counts in the rating."""
    open_app(page, server, f"?lang={code}#/hex?size=7&vs=beginner&swap=0&starts=home")
    note = page.get_by_test_id("assisted-note")
    expect(note).to_be_hidden()
    page.get_by_test_id("toggle-eval").check()
    expect(note).to_be_visible()
    listed = in_parentheses(note.inner_text())
    undo = page.get_by_test_id("undo").inner_text()
    page.get_by_test_id("stats-help").click()
    expect(page).to_have_url(re.compile(r"#/hex/statistics$"))
    guide = page.get_by_test_id("guide")
    expect(guide).to_contain_text(STATISTICS_FIRST_LINE[code])
    text = guide.inner_text()
    assert listed in text, (listed, text)
    assert in_parentheses(text[text.index(listed) - 1:]) == listed
    assert undo in text, (undo, text)
    rating = guide.locator("li").filter(has_text=CATALOGS[code]["stats.rating"]).inner_text()
    assert "½" in rating, rating  # a draw counts half, beside a win's 1 and a loss's 0


# The words one language must not use for Ultimate Tic-Tac-Toe's boards: those
# that name a cell in Notakto, Hex and Y.
CELL_WORDS = {"de": re.compile(r"\w*feld\w*", re.IGNORECASE), "pt": re.compile(r"\bquadrados?\b", re.IGNORECASE),
              "id": re.compile(r"\bkotak\b", re.IGNORECASE)}
SMALL_BOARD = {"de": re.compile(r"\bkleine[nmrs]? Brett\w*", re.IGNORECASE),
               "pt": re.compile(r"\btabuleiros? pequenos?\b", re.IGNORECASE),
               "id": re.compile(r"\bpapan kecil\b", re.IGNORECASE)}


@pytest.mark.parametrize("code", ["de", "pt", "id"])
def test_ultimate_tic_tac_toes_small_boards_have_one_name_that_is_never_a_cells(page: Page, server: AppServer,
                                                                                code: str) -> None:
    open_app(page, server, f"?lang={code}#/uttt?vs=two_player&starts=home")
    page.get_by_test_id("cell-e5").click()  # sends the next player to the middle small board
    detail = page.get_by_test_id("status-detail")
    expect(detail).to_have_text(re.compile(r"5"))
    words = [detail.inner_text(), page.get_by_test_id("live").inner_text(),
             *[page.get_by_test_id(f"small-{board}").get_attribute("aria-label") for board in range(1, 10)]]
    page.get_by_test_id("guide-open").click()
    expect(page.get_by_test_id("guide-page")).to_be_visible()
    words.append(page.get_by_test_id("guide").inner_text())
    for text in words:
        assert CELL_WORDS[code].search(text) is None, text
    assert all(SMALL_BOARD[code].search(text) for text in words[:1] + words[2:]), words
