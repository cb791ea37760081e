"""The platform, end to end: the shell, routes, languages, storage recovery,
origin isolation, the engine self-check in Pyodide and a responsive page
while the computer thinks."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from conftest import ROOT, AppServer, eventually, open_app, wait_ready

sys.path.insert(0, str(ROOT / "py"))

CATALOGS = {code: json.loads((ROOT / "i18n" / f"{code}.json").read_text(encoding="utf-8")) for code in ("en", "de", "pt", "id")}


def test_shell_paints_before_python_is_ready(page: Page, server: AppServer) -> None:
    # Hold the runtime back: the shell must already be usable without it.
    release: list = []
    page.route("**/vendor/pyodide/pyodide.asm.wasm", lambda route: release.append(route))
    page.goto(server.url)
    expect(page.get_by_test_id("picker")).to_be_visible()
    expect(page.get_by_test_id("pick-notakto")).to_contain_text("Notakto")
    for game in ("uttt", "hex", "y"):
        expect(page.get_by_test_id(f"pick-{game}")).to_be_visible()
    expect(page.get_by_test_id("loading")).to_be_visible()
    expect(page.get_by_test_id("loading")).to_contain_text("Downloading the game engine")
    eventually(page, lambda: release)  # the interpreter's WebAssembly is asked for, and held
    assert page.evaluate("document.body.dataset.ready") is None
    # Routes and the guide work before Python: they are the shell's.
    page.get_by_test_id("pick-notakto").click()
    expect(page.get_by_test_id("game-title")).to_have_text("Notakto")
    expect(page.get_by_test_id("board")).to_contain_text("Getting the board ready")
    page.get_by_test_id("guide-open").click()
    expect(page.get_by_test_id("guide")).to_contain_text("closes the last live board loses")
    expect(page.get_by_test_id("guide").locator("figure svg")).to_have_count(2)
    page.get_by_test_id("guide-back").click()
    expect(page.get_by_test_id("board")).to_contain_text("Getting the board ready")
    release[0].continue_()
    wait_ready(page)
    expect(page.get_by_test_id("loading")).to_be_hidden()
    expect(page.get_by_test_id("cell-1a1")).to_be_visible()


def test_picker_routes_and_back_button(app: Page) -> None:
    expect(app.get_by_test_id("picker")).to_be_visible()
    app.get_by_test_id("pick-notakto").click()
    expect(app).to_have_url(re.compile(r"#/notakto$"))
    expect(app.get_by_test_id("game-screen")).to_be_visible()
    expect(app.get_by_test_id("picker")).to_be_hidden()
    expect(app.get_by_test_id("cell-2b2")).to_be_visible()
    assert "Notakto" in app.title()
    app.go_back()
    expect(app.get_by_test_id("picker")).to_be_visible()
    expect(app.get_by_test_id("game-screen")).to_be_hidden()
    app.go_forward()
    expect(app.get_by_test_id("game-title")).to_have_text("Notakto")
    # Every game of the list has its board.
    for game, board in (("uttt", "uttt-board"), ("hex", "hex-board"), ("y", "y-board")):
        app.get_by_test_id("back-link").click()
        app.get_by_test_id(f"pick-{game}").click()
        expect(app).to_have_url(re.compile(rf"#/{game}$"))
        expect(app.get_by_test_id(board)).to_be_visible()
        expect(app.get_by_test_id("new-game")).to_be_enabled()


def test_route_is_bookmarkable_and_unknown_routes_fall_back(page: Page, server: AppServer, watch) -> None:
    open_app(page, server, "#/notakto")
    expect(page.get_by_test_id("game-title")).to_have_text("Notakto")
    expect(page.get_by_test_id("cell-1a1")).to_be_visible()
    page.goto(server.url + "#/nonsense")
    expect(page.get_by_test_id("picker")).to_be_visible()


@pytest.mark.parametrize("code", ["de", "pt", "id", "en"])
def test_language_switch_is_instant_and_survives_reload(app: Page, code: str) -> None:
    catalog = CATALOGS[code]
    app.get_by_test_id("pick-notakto").click()
    expect(app.get_by_test_id("cell-1a1")).to_be_visible()
    before = app.evaluate("performance.getEntriesByType('navigation').length")
    app.get_by_test_id("lang-select").select_option(code)
    expect(app.locator("html")).to_have_attribute("lang", code)
    expect(app.get_by_test_id("back-link")).to_have_text(catalog["nav.all_games"])
    expect(app.locator("#settings-panel summary")).to_have_text(catalog["settings.title"])
    expect(app.get_by_test_id("status")).to_have_text(catalog["status.turn.you"])
    expect(app.get_by_test_id("stats")).to_contain_text(catalog["stats.games"])
    assert app.evaluate("performance.getEntriesByType('navigation').length") == before  # no reload
    app.reload()
    wait_ready(app)
    expect(app.locator("html")).to_have_attribute("lang", code)
    expect(app.get_by_test_id("back-link")).to_have_text(catalog["nav.all_games"])
    app.get_by_test_id("back-link").click()
    expect(app.get_by_test_id("pick-notakto")).to_contain_text(catalog["games.notakto.desc"])


def test_language_from_url_then_browser(browser, server: AppServer, watch) -> None:
    from conftest import watch_context

    context = browser.new_context(locale="pt-BR", service_workers="block")
    watch_context(context, watch)
    page = context.new_page()
    open_app(page, server)
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    expect(page.locator("#picker-title")).to_have_text(CATALOGS["pt"]["picker.title"])
    page.goto(server.url + "?lang=id")
    wait_ready(page)
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("#picker-title")).to_have_text(CATALOGS["id"]["picker.title"])
    # A bad parameter is ignored (with a console warning), never an error.
    page.goto(server.url + "?lang=%3Cb%3Exx")
    wait_ready(page)
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    context.close()


def test_plural_forms_follow_the_language(app: Page) -> None:
    app.get_by_test_id("pick-notakto").click()
    expect(app.get_by_test_id("stat-current_streak")).to_have_text("0 days")
    app.get_by_test_id("lang-select").select_option("pt")
    # Portuguese "one" covers 0 and 1.
    expect(app.get_by_test_id("stat-current_streak")).to_have_text("0 dia")
    app.get_by_test_id("lang-select").select_option("id")
    expect(app.get_by_test_id("stat-current_streak")).to_have_text("0 hari")


def test_corrupted_save_is_set_aside_with_a_notice(page: Page, server: AppServer) -> None:
    page.goto(server.url)
    wait_ready(page)
    good_stats = page.evaluate("localStorage.getItem('abstract-games/stats/notakto')")
    other = json.dumps({"schema": 1, "data": {"keep": "me"}})
    damaged = '{"schema":1,"data":{"tab":"x","rev":3,"saved_at":1,"game":{"version":1,"moves":['
    page.evaluate(
        """([damaged, other]) => {
            localStorage.setItem('abstract-games/save/notakto', damaged);
            localStorage.setItem('abstract-games/save/uttt', other);
        }""",
        [damaged, other],
    )
    page.reload()
    wait_ready(page)
    page.get_by_test_id("pick-notakto").click()
    expect(page.get_by_test_id("notice-storage-corrupt")).to_be_visible()
    expect(page.get_by_test_id("cell-1a1")).to_be_visible()
    stored = page.evaluate("Object.fromEntries(Object.entries(localStorage))")
    backups = [key for key in stored if key.startswith("abstract-games/backup/save/notakto/")]
    assert len(backups) == 1
    assert stored[backups[0]].endswith('"moves":[')
    assert stored["abstract-games/save/uttt"] == other
    assert stored.get("abstract-games/stats/notakto") == good_stats
    # The player is told once: the next visit is quiet.
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("cell-1a1")).to_be_visible()
    expect(page.get_by_test_id("notice-storage-corrupt")).to_have_count(0)


def test_a_save_with_an_illegal_move_is_set_aside(page: Page, server: AppServer) -> None:
    page.goto(server.url)
    wait_ready(page)
    game = {"version": 1, "id": "abc", "state": {"version": 1, "game": "notakto", "settings": {"boards": 3}, "moves": ["1a1", "1a1"]},
            "mode": {"opponent": "computer", "level": "casual", "home_seat": 0}, "takeover": [False, False],
            "started_ms": None, "ended_ms": None, "assisted": False, "resigned": None}
    slot = json.dumps({"schema": 1, "data": {"tab": "other", "rev": 2, "saved_at": 5, "game": game}})
    page.evaluate("slot => localStorage.setItem('abstract-games/save/notakto', slot)", slot)
    page.goto(server.url + "#/notakto")
    wait_ready(page)
    expect(page.get_by_test_id("notice-storage-corrupt")).to_be_visible()
    expect(page.locator(".cell.x")).to_have_count(0)
    backups = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('abstract-games/backup/save/notakto/'))")
    assert len(backups) == 1


def test_no_request_leaves_the_local_origin(app: Page, server: AppServer, watch) -> None:
    app.get_by_test_id("pick-notakto").click()
    app.get_by_test_id("cell-1b2").click()
    expect(app.locator(".cell.x")).to_have_count(2, timeout=30_000)
    resources = app.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert resources, "the page loaded nothing?"
    assert all(name.startswith(server.url) for name in resources), resources
    assert watch.foreign == []


def test_engine_self_check_in_pyodide_matches_cpython(app: Page) -> None:
    import selfcheck

    expected = selfcheck.run()
    in_page = json.loads(app.evaluate("appSelfCheck()"))
    assert "emscripten" in in_page.pop("python")
    expected.pop("python")
    assert in_page == expected


LONGTASKS = """
window.__longTasks = [];
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) window.__longTasks.push({start: entry.startTime, duration: entry.duration});
}).observe({type: 'longtask'});
"""


def test_no_long_task_while_the_computer_thinks(page: Page, server: AppServer) -> None:
    page.add_init_script(LONGTASKS)
    open_app(page, server, "#/notakto")
    page.get_by_test_id("setting-opponent").select_option("computer:perfect")
    page.get_by_test_id("setting-boards").select_option("6")
    # Let the worker finish starting: its start-up is not thinking time.
    page.get_by_test_id("cell-1b2").click()
    expect(page.locator(".cell.x")).to_have_count(2, timeout=30_000)
    start = page.evaluate("performance.now()")
    for _ in range(6):
        if page.get_by_test_id("result").is_visible():
            break
        count = page.locator(".cell.x").count()
        page.locator('.cell[aria-disabled="false"]').first.click()
        page.wait_for_function(
            f"document.querySelectorAll('.cell.x').length > {count + 1} || !document.querySelector('[data-testid=result]').hidden",
            timeout=30_000,
        )
    # A heavy computation in the worker (the engines' self-check): the page
    # must keep painting frames and never block.
    page.evaluate("document.body.dataset.selfcheck = 'pending'")
    page.evaluate(
        """async () => {
            let frames = 0;
            const tick = () => { frames += 1; if (document.body.dataset.selfcheck === 'pending') requestAnimationFrame(tick); };
            requestAnimationFrame(tick);
            const answer = JSON.parse(await appWorkerSelfCheck());
            document.body.dataset.selfcheck = 'done';
            window.__frames = frames;
            window.__workerPython = answer.python;
        }"""
    )
    assert "emscripten" in page.evaluate("window.__workerPython")
    tasks = [t for t in page.evaluate("window.__longTasks") if t["start"] >= start]
    assert tasks == [], f"main-thread tasks over 50 ms while the computer thought: {tasks}"
    assert page.evaluate("window.__frames") > 5


def harness_hooks() -> list[str]:
    """The functions py/app/page/harness.py puts on window for the tests and the bench."""
    text = (ROOT / "py" / "app" / "page" / "harness.py").read_text(encoding="utf-8")
    return sorted(set(re.findall(r"^\s*js\.window\.(\w+) = ", text, re.M)))


MISSING_JS = "names => names.filter(name => typeof window[name] !== 'function')"
WORKER_MODULE_JS = "window.appShell.engine.module"


def test_a_players_page_has_no_test_hooks_and_still_plays(app: Page, browser, server: AppServer, watch) -> None:
    from conftest import watch_context

    hooks = harness_hooks()
    assert {"appAdvanceClock", "appSelfCheck", "appWorkerSelfCheck", "appBench", "appMemory"} <= set(hooks)
    # The harness's page (the default context sets window.appHarness) has them all...
    assert app.evaluate(MISSING_JS, hooks) == []
    assert app.evaluate(WORKER_MODULE_JS) == "bench_worker"
    # ...a player's page has none of them.
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US", service_workers="block")
    watch_context(context, watch)
    # The worker must start (else the page thinks instead, with a warning): that fails the test.
    context.on("console", lambda message: "worker did not start" in message.text and watch.errors.append(message.text))
    page = context.new_page()
    open_app(page, server, "#/notakto")
    assert page.evaluate(MISSING_JS, hooks) == hooks
    assert page.evaluate("Object.keys(window).filter(name => /^app(?!Shell$)[A-Z]/.test(name))") == []
    # It still plays: the player's move, then the computer's reply, from the product's worker.
    assert page.evaluate(WORKER_MODULE_JS) == "worker"
    expect(page.get_by_test_id("setting-opponent")).to_have_value(re.compile(r"^computer:"))
    expect(page.get_by_test_id("status")).to_have_text("Your turn", timeout=30_000)
    marks = page.locator(".cell.x").count()
    page.locator('.cell[aria-disabled="false"]').first.click()
    expect(page.locator(".cell.x")).to_have_count(marks + 2, timeout=30_000)
    expect(page.get_by_test_id("status")).to_have_text("Your turn")
    context.close()
