"""Offline, installable, any static host and sub-path, embeddable, and safe
with hostile input, end to end.

The site is what `make site` builds (tools/build_site.py), served under a
sub-path by a local static server. Service workers are allowed here (the
default context of the harness blocks them).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Frame, FrameLocator, Page, Playwright, expect

from conftest import (LAUNCH_ARGS, READY_TIMEOUT_MS, ROOT, AppServer, QuietHandler, Watch, assert_clean, chromium_path,
                      eventually, open_app, wait_ready, watch_context)

sys.path.insert(0, str(ROOT / "tools"))
import build_site  # noqa: E402

SUB_PATH = "some/sub/path/"
EMBEDDING_DOC = (ROOT / "docs" / "embedding.md").read_text(encoding="utf-8")
CATALOG_DE = json.loads((ROOT / "i18n" / "de.json").read_text(encoding="utf-8"))
# Where docs/embedding.md's example host page expects the app.
EXAMPLE_APP = "https://example.github.io/abstract-games/"
DARK_BACKGROUND, LIGHT_BACKGROUND = "rgb(28, 29, 33)", "rgb(246, 244, 239)"  # css/app.css --bg
MESSAGE_KEYS = {
    "ready": {"source", "type", "game"},
    "resize": {"source", "type", "height"},
    "gameover": {"source", "type", "game", "winner", "reason", "result"},
}


class NoStoreHandler(QuietHandler):
    """Nothing goes into the browser's HTTP cache: offline, only what the
    service worker cached can be served."""

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A static host's folder with the built site under SUB_PATH (a test
    may change it)."""
    root = tmp_path / "host"
    build_site.build(root / SUB_PATH)
    return root


def persistent_context(playwright: Playwright, profile: Path, watch: Watch) -> BrowserContext:
    """A browser on a profile kept on disk, service workers allowed. The AI
    worker must start (the app would think on the page instead, with a
    warning): that warning fails the test here."""
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=chromium_path(), args=LAUNCH_ARGS, headless=True,
        viewport={"width": 1100, "height": 900}, locale="en-US", service_workers="allow")
    watch_context(context, watch)
    context.on("console", lambda message: "worker did not start" in message.text and watch.errors.append(message.text))
    return context


def wait_offline_ready(page: Page) -> None:
    """Until a service worker is active (its precache complete) and serves
    this page."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    if not page.evaluate("navigator.serviceWorker.controller !== null"):
        page.reload()
        wait_ready(page)
    assert page.evaluate("navigator.serviceWorker.controller !== null")


def play_to_the_end(page: Page | FrameLocator, limit: int = 40) -> None:
    """Click the first playable cell until the result shows."""
    result = page.get_by_test_id("result")
    playable = page.locator('[data-move][aria-disabled="false"]')
    either = page.locator('[data-testid="result"]:not([hidden]), [data-move][aria-disabled="false"]')
    for _ in range(limit):
        expect(either.first).to_be_visible(timeout=30_000)
        if result.is_visible():
            return
        playable.first.click()
    raise AssertionError("the game did not end")


def our_caches(page: Page) -> list[str]:
    return page.evaluate("caches.keys().then(names => names.filter(n => n.startsWith('abstract-games:')))")


def test_after_one_visit_the_app_loads_and_plays_offline_even_after_a_browser_restart(
        playwright: Playwright, site: Path, tmp_path: Path, watch: Watch) -> None:
    server = AppServer(site, NoStoreHandler)
    url = server.url + SUB_PATH + "?game=notakto&boards=1&vs=beginner&starts=home"
    profile = tmp_path / "profile"
    context = persistent_context(playwright, profile, watch)
    page = context.pages[0]
    page.goto(url)
    wait_ready(page)
    wait_offline_ready(page)
    server.stop()
    # The server is gone: the page, the runtime and the worker come from the cache.
    page.reload()
    wait_ready(page)
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    expect(page.get_by_test_id("game-title")).to_have_text("Notakto")
    expect(page.locator(".nk-board")).to_have_count(1)
    play_to_the_end(page)
    expect(page.get_by_test_id("stat-games")).to_have_text("1")
    # A share link of the finished game: under the sub-path, and it opens
    # offline too, the game in review.
    moves = page.get_by_test_id("move-text").all_inner_texts()
    page.get_by_test_id("share-open").click()
    link = page.get_by_test_id("share-link").input_value()
    assert link.startswith(server.url + SUB_PATH + "#/notakto?g="), link
    page.get_by_test_id("share-close").click()
    page.get_by_test_id("new-game").click()
    page.goto("about:blank")
    page.goto(link)
    wait_ready(page)
    expect(page.get_by_test_id("status")).to_have_text(re.compile("^A shared game"))
    expect(page.get_by_test_id("move-text")).to_have_text(moves)
    context.close()
    # A browser restarted with the same profile, still without a server.
    context = persistent_context(playwright, profile, watch)
    page = context.pages[0]
    page.goto(url)
    wait_ready(page)
    expect(page.get_by_test_id("stat-games")).to_have_text("1")
    play_to_the_end(page)
    expect(page.get_by_test_id("stat-games")).to_have_text("2")
    context.close()
    assert_clean(watch)


def test_the_site_works_under_a_sub_path_installs_and_updates(playwright: Playwright, site: Path, tmp_path: Path,
                                                               watch: Watch) -> None:
    server = AppServer(site, NoStoreHandler)
    base = server.url + SUB_PATH
    # A profile on disk: Chromium never offers to install from an incognito one.
    context = persistent_context(playwright, tmp_path / "profile", watch)
    # Record that storage persistence is asked for.
    context.add_init_script("""(() => {
      const persist = navigator.storage.persist.bind(navigator.storage);
      navigator.storage.persist = () => { window.__persistAsked = true; return persist(); };
    })()""")
    page = context.pages[0]
    page.goto(base + "?lang=de#/uttt")
    wait_ready(page)
    expect(page.get_by_test_id("game-title")).to_have_text("Ultimate Tic-Tac-Toe")
    page.get_by_test_id("cell-e5").click()
    expect(page.locator(".cell.x")).to_have_count(1)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    assert page.evaluate("window.__persistAsked") is True
    wait_offline_ready(page)
    # Everything came from the sub-path.
    resources = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert resources and all(name.startswith(base) for name in resources), resources
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)") == base
    # Installable, with the manifest of the page's language.
    assert page.locator("link[rel=manifest]").get_attribute("href") == "./vendor/manifest-de.webmanifest"
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert manifest["url"] == base + "vendor/manifest-de.webmanifest"
    parsed = json.loads(manifest["data"])
    assert parsed["name"] == CATALOG_DE["app.name"] and parsed["short_name"] == CATALOG_DE["app.short_name"]
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    # A new version: it installs in the background, takes over on the next
    # load with a notice, and the old cache is gone.
    (first_cache,) = our_caches(page)
    precache = site / SUB_PATH / "vendor" / "precache.js"
    precache.write_text(precache.read_text().replace('"version": "', '"version": "next-'))
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("notice-updated")).to_have_count(0)
    eventually(page, lambda: [":next-" in name for name in our_caches(page)] == [True])
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("notice-updated")).to_be_visible()
    expect(page.get_by_test_id("notice-updated")).to_contain_text(CATALOG_DE["notice.updated"])
    (cache,) = our_caches(page)
    assert cache != first_cache and ":next-" in cache
    # The game in progress survived the update.
    expect(page.locator(".cell.x")).to_have_count(1)
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("notice-updated")).to_have_count(0)
    context.close()
    server.stop()
    assert_clean(watch)


def example_host_page(app_url: str) -> str:
    """docs/embedding.md's example host page, pointed at ``app_url``."""
    match = re.search(r"```html\n(<!doctype html>.*?)```", EMBEDDING_DOC, re.S)
    assert match, "docs/embedding.md has no example host page"
    page = match.group(1)
    assert EXAMPLE_APP in page
    origin = re.match(r"^https?://[^/]+", app_url).group(0)
    return page.replace(EXAMPLE_APP, app_url).replace(EXAMPLE_APP.rstrip("/").rsplit("/", 1)[0], origin)


def app_frame(page: Page) -> Frame:
    (frame,) = page.main_frame.child_frames
    return frame


def messages(page: Page, kind: str) -> list[dict]:
    return [m["data"] for m in page.evaluate("window.__messages") if isinstance(m["data"], dict) and m["data"].get("type") == kind]


def test_a_page_on_another_origin_embeds_the_app_with_parameters(context: BrowserContext, site: Path, tmp_path: Path,
                                                                 watch: Watch) -> None:
    app_server = AppServer(site)
    host_dir = tmp_path / "host-site"
    host_dir.mkdir()
    (host_dir / "index.html").write_text(example_host_page(app_server.url + SUB_PATH), encoding="utf-8")
    (host_dir / "favicon.ico").write_bytes(b"")  # what the browser asks a host for
    host_server = AppServer(host_dir)
    assert host_server.url != app_server.url
    context.add_init_script("""if (window === window.top) {
      window.__messages = [];
      addEventListener("message", (event) => window.__messages.push({ origin: event.origin, data: event.data }));
    }""")
    page = context.new_page()
    page.goto(host_server.url)
    frame = page.frame_locator("iframe")
    expect(frame.locator("body")).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT_MS)
    app_origin = app_server.url.rstrip("/")
    received = page.evaluate("window.__messages")
    assert {m["origin"] for m in received} == {app_origin}
    ready = messages(page, "ready")
    assert ready == [{"source": "abstract-games", "type": "ready", "game": "notakto"}]
    # The compact layout, in German, dark, one board, two players.
    inner = app_frame(page)
    assert inner.evaluate("[document.documentElement.lang, document.documentElement.dataset.theme, "
                          "document.documentElement.dataset.embed]") == ["de", "dark", "1"]
    assert inner.evaluate("getComputedStyle(document.body).backgroundColor") == DARK_BACKGROUND
    expect(frame.locator(".site-header")).to_be_hidden()
    expect(frame.get_by_test_id("back-link")).to_be_hidden()
    expect(frame.get_by_test_id("embed-open")).to_be_hidden()
    expect(frame.locator("#settings-panel")).not_to_have_attribute("open", "")
    expect(frame.locator(".nk-board")).to_have_count(1)
    expect(frame.get_by_test_id("status")).to_have_text(CATALOG_DE["status.turn.player"].replace("{player}", "Spieler 1"))
    # The frame follows the content's height (the example page's script).
    resizes = messages(page, "resize")
    assert resizes and all(isinstance(m["height"], int) and m["height"] > 0 for m in resizes)
    eventually(page, lambda: page.locator("iframe").evaluate("f => f.getBoundingClientRect().height")
               == messages(page, "resize")[-1]["height"])
    before = messages(page, "resize")[-1]["height"]
    frame.locator("#settings-panel summary").click()
    eventually(page, lambda: messages(page, "resize")[-1]["height"] > before)
    expect(frame.get_by_test_id("setting-opponent")).to_have_value("two_player")
    # Messages from the host, even the private token Pyodide's own listener
    # waits for, are ignored.
    page.evaluate("""() => {
      const target = document.querySelector("iframe").contentWindow;
      for (const message of ["_si", {type: "gameover"}, "<img src=x onerror=alert(1)>", null, 42]) target.postMessage(message, "*");
    }""")
    play_to_the_end(frame)
    # A share link from inside the frame opens the whole app, not the embed.
    frame.get_by_test_id("share-open").click()
    link = frame.get_by_test_id("share-link").input_value()
    assert link.startswith(app_server.url + SUB_PATH + "#/notakto?g=") and "embed" not in link, link
    frame.get_by_test_id("share-close").click()
    eventually(page, lambda: messages(page, "gameover"))
    (gameover,) = messages(page, "gameover")
    assert set(gameover) == MESSAGE_KEYS["gameover"]
    assert gameover["game"] == "notakto" and gameover["result"] == "two_player"
    assert gameover["reason"] == "last_board_closed" and gameover["winner"] in ("first", "second")
    expect(page.locator("#result")).to_have_text("Game over: two_player")
    for message in page.evaluate("window.__messages"):
        assert message["data"]["source"] == "abstract-games"
        assert set(message["data"]) == MESSAGE_KEYS[message["data"]["type"]]
    expect(frame.get_by_test_id("error")).to_be_hidden()
    # The page goes before its servers: the AI worker may still be loading
    # its files (a two-player game needs it only later), and a fetch cut off
    # by a stopped server is a console error, not the app's.
    page.close()
    app_server.stop()
    host_server.stop()


def test_the_embed_dialog_gives_the_iframe_code_for_the_current_game(context: BrowserContext, server: AppServer) -> None:
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url.rstrip("/"))
    page = open_app(context.new_page(), server, "#/hex")
    page.get_by_test_id("setting-size").select_option("9")
    page.get_by_test_id("setting-opponent").select_option("two_player")
    page.get_by_test_id("embed-open").click()
    expect(page.get_by_test_id("embed-dialog")).to_be_visible()
    code = page.get_by_test_id("embed-code").input_value()
    src = re.search(r'src="([^"]+)"', code).group(1).replace("&amp;", "&")
    assert src == f"{server.url}?embed=1&game=hex&vs=two_player&size=9&swap=1&starts=alternate&time=0&lang=en"
    assert 'title="Hex · Abstract Games"' in code
    page.get_by_test_id("embed-copy").click()
    expect(page.get_by_test_id("embed-status")).to_have_text("Copied to the clipboard.")
    assert page.evaluate("navigator.clipboard.readText()") == code
    page.get_by_test_id("embed-close").click()
    expect(page.get_by_test_id("embed-dialog")).to_be_hidden()
    # The code opens that game with those settings (and ?theme=light wins
    # over a dark system).
    page.emulate_media(color_scheme="dark")
    page.goto(src + "&theme=light")
    wait_ready(page)
    expect(page.get_by_test_id("game-title")).to_have_text("Hex")
    expect(page.get_by_test_id("setting-size")).to_have_value("9")
    expect(page.get_by_test_id("setting-opponent")).to_have_value("two_player")
    expect(page.locator(".site-header")).to_be_hidden()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == LIGHT_BACKGROUND


MARKUP = '<img src=x onerror="window.__pwned=1">'


def injected(page: Page) -> bool:
    return page.evaluate("window.__pwned === 1 || document.querySelector('img, [onerror], [onload], script:not([src]):not([type=py])') !== null")


def test_markup_in_parameters_and_stored_values_is_never_run(page: Page, server: AppServer, watch: Watch) -> None:
    from urllib.parse import quote

    warnings: list[str] = []
    page.on("console", lambda message: message.type == "warning" and warnings.append(message.text))
    hostile = quote(MARKUP)
    names = ("game", "lang", "theme", "embed", "boards", "vs", "size")
    page.goto(f"{server.url}?{'&'.join(f'{name}={hostile}' for name in names)}&{hostile}=1")
    wait_ready(page)
    expect(page.get_by_test_id("picker")).to_be_visible()
    # Each one ignored with a warning, the markup in it as text.
    for name in ("game", "lang", "theme", "embed"):
        assert any(name in warning and "<img" in warning for warning in warnings), name
    assert any("boards" in warning and "vs" in warning and "size" in warning for warning in warnings), warnings
    assert page.evaluate("document.documentElement.dataset.theme === undefined && document.documentElement.dataset.embed === undefined")
    assert not injected(page)
    # The same in a game's settings, and the Embed dialog shows only valid ones.
    page.goto(f"{server.url}?game=notakto&boards={hostile}&vs={hostile}&{hostile}=1")
    wait_ready(page)
    expect(page.locator(".nk-board")).to_have_count(3)
    page.get_by_test_id("embed-open").click()
    code = page.get_by_test_id("embed-code").input_value()
    assert "<img" not in code and "__pwned" not in code
    assert not injected(page)
    # Stored values: preferences, settings, a save and statistics.
    stored = {
        "abstract-games/prefs": {"schema": 1, "data": {"lang": MARKUP, "version": MARKUP}},
        "abstract-games/settings/notakto": {"schema": 1, "data": {"boards": MARKUP, "opponent": MARKUP, "starts": MARKUP}},
        "abstract-games/save/notakto": {"schema": 1, "data": {"tab": MARKUP, "rev": 1, "saved_at": 1, "game": {
            "version": 1, "id": MARKUP, "state": {"version": 1, "game": "notakto", "settings": {"boards": 3}, "moves": [MARKUP]},
            "mode": {"opponent": "computer", "level": MARKUP, "home_seat": 0}, "takeover": [False, False],
            "started_ms": None, "ended_ms": None, "assisted": False, "resigned": None}}},
        "abstract-games/stats/notakto": {"schema": 1, "data": {"games": MARKUP, "wins": MARKUP}},
    }
    page.evaluate("items => { for (const [key, value] of Object.entries(items)) localStorage.setItem(key, JSON.stringify(value)); }",
                  stored)
    page.goto(server.url + "#/notakto")
    wait_ready(page)
    expect(page.locator(".nk-board")).to_have_count(3)
    expect(page.locator(".cell.x")).to_have_count(0)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("game-screen")).not_to_contain_text("onerror")
    assert not injected(page)
    assert_clean(watch)
