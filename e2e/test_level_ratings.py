"""The computer levels as the settings show them: a short name with the
level's measured rating in the menu, uncut on a small phone, and under it a
line that says what the chosen level does, in the page's language."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from conftest import AppServer, open_app
from registry import GAMES

CATALOGS = {code: json.loads((Path(__file__).resolve().parent.parent / "i18n" / f"{code}.json").read_text())
            for code in ("en", "de")}


def option_texts(page: Page) -> list[str]:
    return page.get_by_test_id("setting-opponent").locator("option").all_inner_texts()


def widest_option_fits(page: Page) -> bool:
    """Whether every option's text, in the menu's own font, fits inside the
    closed menu (its width less the padding and the arrow)."""
    return page.get_by_test_id("setting-opponent").evaluate("""select => {
        const style = getComputedStyle(select);
        const context = document.createElement("canvas").getContext("2d");
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
        const levels = [...select.options].filter(option => option.value.startsWith("computer:"));
        return levels.every(option => context.measureText(option.text).width <= room);
    }""")


def test_each_level_is_named_with_its_measured_rating_and_the_chosen_one_explained(page: Page,
                                                                                  server: AppServer) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    open_app(page, server, "?vs=master#/uttt")
    levels = GAMES["uttt"].levels
    en = CATALOGS["en"]
    assert option_texts(page) == [f"{en[f'level.uttt.{name}.name']} · {rating}"
                                  for name, rating in zip(levels.names, levels.ratings)] + [en["opponent.two_player"]]
    assert option_texts(page)[-2] == f"Master · {levels.rating('master')}"
    note = page.get_by_test_id("setting-opponent-note")
    expect(note).to_have_text(f"{en['level.uttt.master.about']} Rating {levels.rating('master')}, "
                              "measured in games between the levels.")
    expect(page.get_by_test_id("setting-opponent")).to_have_attribute("aria-describedby", "setting-opponent-note")
    assert widest_option_fits(page)
    # Another level: the line follows it; two players: no line.
    page.get_by_test_id("setting-opponent").select_option("computer:beginner")
    expect(note).to_contain_text(en["level.uttt.beginner.about"])
    expect(note).to_contain_text(f"Rating {levels.rating('beginner')},")
    page.get_by_test_id("setting-opponent").select_option("two_player")
    expect(note).to_have_count(0)


def test_in_german_the_longest_level_name_fits_a_phone_too(page: Page, server: AppServer) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    open_app(page, server, "?lang=de&vs=casual#/hex")
    levels = GAMES["hex"].levels
    de = CATALOGS["de"]
    assert option_texts(page)[1] == f"Gelegenheitsspieler · {levels.rating('casual')}"
    assert widest_option_fits(page)
    expect(page.get_by_test_id("setting-opponent-note")).to_have_text(
        f"{de['level.hex.casual.about']} Wertungszahl {levels.rating('casual')}, gemessen in Partien zwischen den Stufen.")
