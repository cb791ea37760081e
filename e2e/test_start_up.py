"""Start-up as a returning player gets it (runtime.js): the first visit's AI
worker starts from the page's interpreter and keeps a snapshot of its own,
later visits restore it in the page and in the worker, also offline and
after an update; a snapshot that is damaged or from another version is never
used, and is made again; the computer's first reply after the page loads is
as quick as the later ones (the worker warms up for the board on screen).

The site is what `make site` builds, served with no HTTP caching, so that
offline only the service worker's cache and the snapshot can serve it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, Playwright, expect

from conftest import (AppServer, Watch, assert_clean, eventually, open_app, wait_ready, wait_worker_answered,
                      watch_worker_calls)
# The offline tests' site (the `site` fixture), server and browser profile.
from test_offline_embed import (SUB_PATH, NoStoreHandler, our_caches, persistent_context, site,  # noqa: F401
                                wait_offline_ready)

NOTE = "abstract-games/python-snapshot:"
SNAPSHOTS = "abstract-games-snapshots"


def marks(page: Page) -> set[str]:
    return set(page.evaluate("performance.getEntriesByType('mark').map(m => m.name)"))


def snapshot_note(page: Page) -> str | None:
    """The snapshot the page knows is stored (its key), if any."""
    return page.evaluate(f"""Object.keys(localStorage).filter(k => k.startsWith({NOTE!r}))
        .map(k => localStorage.getItem(k))[0] ?? null""")


def computer_ready(page: Page) -> None:
    page.wait_for_function("performance.getEntriesByName('computer-ready').length > 0", timeout=60_000)


def plays_against_the_computer(page: Page) -> None:
    """A move of the player's lands and the computer answers it."""
    expect(page.get_by_test_id("status")).to_have_text("Your turn", timeout=30_000)
    moves = page.get_by_test_id("move-list").locator("li")
    played = moves.count()
    page.locator('.cell[aria-disabled="false"]').first.click()
    expect(moves).to_have_count(played + 2, timeout=30_000)


def first_visit(page: Page, url: str) -> str:
    """Open the app, let the service worker take over and the worker keep
    its snapshot; the snapshot's key."""
    page.goto(url)
    wait_ready(page)
    computer_ready(page)
    # The worker restored the page's interpreter instead of starting its own.
    assert "computer-from-page" in marks(page)
    assert "python-restored" not in marks(page) and "computer-restored" not in marks(page)
    wait_offline_ready(page)
    eventually(page, lambda: snapshot_note(page) is not None)
    key = snapshot_note(page)
    assert key and re.fullmatch(r"pyodide [\d.]+, format \d+, abstract-games python [0-9a-f]{64}", key), key
    return key


def restored_visit(page: Page) -> None:
    page.reload()
    wait_ready(page)
    computer_ready(page)
    assert {"python-restored", "computer-restored"} <= marks(page) and "computer-from-page" not in marks(page)


def new_game(page: Page) -> None:
    page.get_by_test_id("new-game").click()
    confirm = page.get_by_test_id("confirm-yes")
    if confirm.is_visible():
        confirm.click()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(0)


def test_later_visits_restore_the_kept_interpreter_also_offline(playwright: Playwright, site: Path, tmp_path: Path,
                                                                watch: Watch) -> None:
    server = AppServer(site, NoStoreHandler)
    context = persistent_context(playwright, tmp_path / "profile", watch)
    page = context.pages[0]
    first_visit(page, server.url + SUB_PATH + "?boards=1#/notakto")
    restored_visit(page)
    new_game(page)
    plays_against_the_computer(page)
    server.stop()  # offline from here on
    restored_visit(page)
    new_game(page)
    plays_against_the_computer(page)
    context.close()
    assert_clean(watch)


def test_a_damaged_snapshot_is_dropped_and_made_again(playwright: Playwright, site: Path, tmp_path: Path,
                                                      watch: Watch) -> None:
    server = AppServer(site, NoStoreHandler)
    context = persistent_context(playwright, tmp_path / "profile", watch)
    page = context.pages[0]
    key = first_visit(page, server.url + SUB_PATH + "?boards=1#/notakto")
    # The stored bytes damaged, the key left as it was.
    page.evaluate(f"""async () => {{
        const cache = await caches.open({SNAPSHOTS!r});
        const [request] = await cache.keys();
        const response = await cache.match(request);
        const bytes = new Uint8Array(await response.arrayBuffer());
        bytes.fill(7, 0, 4096);
        await cache.put(request, new Response(bytes, {{ headers: response.headers }}));
    }}""")
    page.reload()
    wait_ready(page)
    computer_ready(page)
    # Both started afresh: the page, which found a snapshot noted, made none for the worker.
    assert not {"python-restored", "computer-restored", "computer-from-page"} & marks(page)
    new_game(page)
    plays_against_the_computer(page)
    # The worker kept a good one again, which the next visit restores.
    eventually(page, lambda: snapshot_note(page) == key)
    restored_visit(page)
    context.close()
    server.stop()
    assert_clean(watch)


def test_after_an_update_the_old_snapshot_is_not_used_and_a_new_one_serves_offline(
        playwright: Playwright, site: Path, tmp_path: Path, watch: Watch) -> None:
    server = AppServer(site, NoStoreHandler)
    context = persistent_context(playwright, tmp_path / "profile", watch)
    page = context.pages[0]
    old_key = first_visit(page, server.url + SUB_PATH + "?boards=1#/notakto")
    # A new version whose Python differs: another archive key, another
    # precache version (the service worker installs it in the background).
    app = site / SUB_PATH
    key_file = app / "vendor" / "python.js"
    key_file.write_text(re.sub(r"python ([0-9a-f]{64})", lambda m: "python " + m.group(1)[::-1], key_file.read_text()))
    precache = app / "vendor" / "precache.js"
    precache.write_text(precache.read_text().replace('"version": "', '"version": "next-'))
    page.reload()  # still the old version, which installs the new one
    wait_ready(page)
    eventually(page, lambda: [":next-" in name for name in our_caches(page)] == [True])  # the old version's gone
    page.reload()  # the new version: the old snapshot does not fit it
    wait_ready(page)
    computer_ready(page)
    assert "python-restored" not in marks(page) and "computer-restored" not in marks(page)
    assert "computer-from-page" in marks(page)
    eventually(page, lambda: snapshot_note(page) not in (None, old_key))
    server.stop()  # offline: the new version and its snapshot
    restored_visit(page)
    new_game(page)
    plays_against_the_computer(page)
    context.close()
    assert_clean(watch)


# The page's snapshot lost on its way to the worker (as if the page could
# not make one: runtime.js then sends none).
NO_PAGE_SNAPSHOT = """
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (message, transfer) {
  if (message && typeof message === "object" && "pageSnapshot" in message) return post.call(this, { pageSnapshot: null });
  return post.call(this, message, transfer);
};
"""


def test_without_the_pages_snapshot_the_first_visits_worker_starts_on_its_own(page: Page, server: AppServer) -> None:
    page.add_init_script(NO_PAGE_SNAPSHOT)
    open_app(page, server, "#/notakto")
    computer_ready(page)
    assert not {"computer-from-page", "computer-restored"} & marks(page)
    plays_against_the_computer(page)


def test_the_page_imports_our_python_as_bytecode_from_its_archives(app: Page) -> None:
    """No module of ours is compiled in the browser: each comes from its
    .pyc in the page's archives (zipimport names the file it used), the
    screens from the page's own, the rules from the one it shares with the
    worker; the data files are read from the archives too, and the AI
    worker's own archive (its entry, the engines' data) is not on the
    page's path."""
    found = app.evaluate("""async () => {
        const python = await (await import("./runtime.js")).loadPyodide();
        return python.runPython(`
import json, sys
import app.page.app, core.base, registry
files = sorted({m.__file__ for name, m in sys.modules.items()
                if name.split(".")[0] in ("app", "core", "ai", "registry", "main")})
json.dumps({"files": files, "levels": len(registry.GAMES["hex"].levels.names),
            "path": [p for p in sys.path if p.endswith(".zip")]})`);
    }""")
    found = json.loads(found)
    assert len(found["files"]) >= 20
    assert all(path.endswith(".pyc") for path in found["files"]), found
    assert {path.split(".zip/")[0] + ".zip" for path in found["files"]} <= {
        "/home/pyodide/python.zip", "/home/pyodide/python-page.zip"}, found
    assert all(path.startswith("/home/pyodide/python-page.zip/app/") for path in found["files"] if "/app/" in path)
    assert "/home/pyodide/python-worker.zip" not in found["path"], found["path"]
    assert found["levels"] >= 4  # level_ratings.json, read from the archive


# The round trip of each of the page's calls of the AI worker, by name, in
# the order they were made (window.workerTimes): the shell's engine.call, wrapped.
def test_the_worker_warms_up_for_the_game_on_screen_while_the_player_looks_at_it(page: Page,
                                                                               server: AppServer) -> None:
    """The computer's first reply after the page loads would take longer than
    the later ones, as the browser compiles the interpreter's code the
    search runs (1.7 times on a first visit, 2.9 after a reload, measured by
    `make bench`'s first-reply table with the warm-up taken out). So the
    worker warms up for the board on screen while the player looks at it:
    each game and level once, before the player's first move, and not
    again for a board it has warmed up for. How long the replies take is
    the bench's to measure (docs/benchmarks.md), not a test's."""
    open_app(page, server, "#/hex/no-swap")
    computer_ready(page)
    wait_worker_answered(page)  # the page's warm-up for Hex, asked as the worker became ready
    watch_worker_calls(page)
    page.get_by_test_id("home-link").click()
    page.get_by_test_id("pick-y").click()
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")

    def prepared() -> list[dict[str, object]]:
        return [call["request"] for call in page.evaluate("window.workerRequests")
                if call["name"] == "prepare" and call["answered"]]

    eventually(page, lambda: len(prepared()) == 1)
    [request] = prepared()
    assert request["game"]["game"] == "y" and request["level"] == "casual"  # type: ignore[index]
    assert page.evaluate("window.workerCalls") == ["prepare"]  # before any move was asked
    page.locator('[data-testid^="cell-"][aria-disabled="false"]').first.click()
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(2, timeout=30_000)
    # Back to Hex, which the page asked the worker to warm up for as it
    # opened (before the calls were watched): no call; then another level.
    page.get_by_test_id("home-link").click()
    page.get_by_test_id("pick-hex").click()
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")
    page.get_by_test_id("setting-opponent").select_option("computer:strong")
    page.get_by_test_id("setting-starts").select_option("home")
    new_game(page)
    eventually(page, lambda: [(r["game"]["game"], r["level"]) for r in prepared()]  # type: ignore[index]
               == [("y", "casual"), ("hex", "strong")])
    assert page.evaluate("window.workerCalls") == ["prepare", "choose_move", "prepare"]  # the player to move


def test_without_its_worker_the_page_thinks_itself_with_the_engines_data(page: Page, server: AppServer,
                                                                         watch: Watch) -> None:
    """When the AI worker cannot start (its script does not load), the page
    thinks on its own thread: it loads the worker's archive for the
    engines' data, and Hex's computer answers a move."""
    watch.expected_errors.append(r"worker\.js|the AI worker failed|ERR_FAILED")
    page.route("**/worker.js", lambda route: route.abort())
    open_app(page, server, "#/hex?size=7&vs=beginner&swap=0&starts=home")
    page.get_by_test_id("cell-d4").click()
    expect(page.get_by_test_id("move-text")).to_have_count(2, timeout=30_000)
    on_path = page.evaluate("""async () => {
        const python = await (await import("./runtime.js")).loadPyodide();
        return python.runPython("import sys; [p for p in sys.path if p.endswith('.zip')]").toJs();
    }""")
    assert "/home/pyodide/python-worker.zip" in on_path
