"""End-to-end harness: the real app served from this checkout, driven in
headless Chromium by Playwright.

Every test fails on a request to any origin but the local server, on a
console error (a test that provokes one on purpose lists it in
``page.expected_errors``) and on a Content-Security-Policy violation in any
frame (the app's policy is in index.html). Screenshots of failures go to
test-results/.

The default ``context`` blocks service workers: otherwise every fresh
context would precache the 14 MB runtime a second time. The offline tests
(e2e/test_offline_embed.py) open contexts that allow them. The default
``context`` also opens its pages as the harness (``window.appHarness``, tools/harness.py): they
have the test hooks (appAdvanceClock, appSelfCheck, appWorkerSelfCheck);
a context a test opens itself gets a player's page, without them.

The server, Chromium's flags and the page watch live in tools/harness.py,
which the bench shares.
"""

from __future__ import annotations

import json
import re
import struct
import sys
import time
import zlib
from pathlib import Path
from typing import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from harness import (LAUNCH_ARGS, AppServer, QuietHandler, Watch, chromium_path, open_as_harness,  # noqa: E402, F401
                     watch_context)

RESULTS = ROOT / "test-results"
READY_TIMEOUT_MS = 60_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of this folder carries the e2e marker (a conftest's own
    ``pytestmark`` marks nothing), so ``-m "not e2e"`` leaves them out."""
    here = Path(__file__).resolve().parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def server() -> Iterator[AppServer]:
    if not (ROOT / "vendor" / "pyodide" / "pyodide.asm.wasm").exists():
        pytest.fail("the runtime is not vendored: run `make test` (or `python3 tools/vendor.py`)")
    # The page imports py/ from vendor/python.zip: rebuilt here if a file
    # changed since `make runtime`, so the tests never run stale Python.
    import build_site

    build_site.generate()
    app_server = AppServer(ROOT)
    yield app_server
    app_server.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as runner:
        yield runner


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS, headless=True)
    yield launched
    launched.close()


def assert_clean(watch: Watch) -> None:
    """What every test must leave clean: no other origin asked, no console error."""
    assert not watch.foreign, f"requests to another origin: {watch.foreign}"
    assert not watch.unexpected_errors(), f"console errors: {watch.unexpected_errors()}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[object]:
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def watch() -> Watch:
    return Watch()


@pytest.fixture
def context(browser: Browser, watch: Watch, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US", service_workers="block")
    watch_context(ctx, watch)
    open_as_harness(ctx)  # the tests' hooks (appAdvanceClock, appSelfCheck, ...)
    yield ctx
    failed = getattr(request.node, "report_call", None)
    if failed is not None and failed.failed:
        RESULTS.mkdir(exist_ok=True)
        for index, open_page in enumerate(ctx.pages):
            name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)
            try:
                open_page.screenshot(path=str(RESULTS / f"{name}-{index}.png"), full_page=True)
            except Exception:  # noqa: BLE001 - a screenshot is best effort
                pass
    ctx.close()
    if failed is not None and failed.passed:
        assert_clean(watch)


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


def open_app(page: Page, server: AppServer, path: str = "") -> Page:
    """Open the app and wait until Python is ready."""
    page.goto(server.url + path)
    wait_ready(page)
    return page


def wait_ready(page: Page) -> None:
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)


def eventually(page: Page, condition: Callable[[], object], timeout_s: float = 30) -> None:
    """Until ``condition()`` holds, checked from here every 100 ms: for
    what only this process sees (a held request's route, a cache listed
    through the page), where the page has nothing to wait on."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for a condition")
        page.wait_for_timeout(100)


# The pause before the page asks the worker for the computer's move
# (COMPUTER_PAUSE_S in py/app).
COMPUTER_PAUSE_MS = 350
# One tick of the move clock (TICK_MS in py/app).
TICK_MS = 250


def wait_page_timer(page: Page, ms: int) -> None:
    """Until a page timer of ``ms``, set now, has fired: after every timer of
    no longer delay already set (a page's timers of one delay fire in the
    order they were set). For what the page does on a timer and shows
    nothing of: the pause before the computer thinks, the clock's tick."""
    page.evaluate("ms => new Promise((resolve) => setTimeout(resolve, ms))", ms)

# The page's calls of the AI worker, by name, in the order it made them
# (window.workerCalls), and each with its request and whether it was answered
# (window.workerRequests): the shell's engine.call, wrapped.
WATCH_WORKER_CALLS = """() => {
  const engine = window.appShell.engine;
  const call = engine.call;
  window.workerCalls = [];
  window.workerRequests = [];
  engine.call = (name, request) => {
    const noted = { name, request: request === null ? null : JSON.parse(request), answered: false };
    window.workerCalls.push(name);
    window.workerRequests.push(noted);
    return call(name, request).then((reply) => {
      noted.answered = true;
      return reply;
    });
  };
}"""


def watch_worker_calls(page: Page) -> None:
    """From now on, note each call the page makes of the AI worker in
    ``window.workerCalls`` (a test waits for one with wait_for_function) and
    in ``window.workerRequests`` ({name, request, answered})."""
    page.evaluate(WATCH_WORKER_CALLS)


def wait_worker_answered(page: Page) -> None:
    """Until the AI worker has answered every call the page made so far, and
    the page has handled each answer (drawn it, or dropped it as stale).

    The worker answers its calls in order, and the page's Python resumes on
    the answers in the order they arrive; so one more call through the
    page's Python comes back after all of them. It is the harness's
    appBenchWorker with the cheapest bench function: for the pages of the
    ``page`` fixture, opened as the harness."""
    reply = json.loads(page.evaluate("appBenchWorker('bench_memory', '{}')"))
    assert "error" not in reply, reply


def wait_computer_answered(page: Page) -> None:
    """Until every move the computer had to think about so far was asked of
    the worker and answered (or dropped during the pause before asking, the
    screen being left), and the page has handled each answer.

    The pause is time by design, and one that ends on a screen left behind
    shows nothing: a page timer as long as the pause (wait_page_timer),
    then wait_worker_answered."""
    wait_page_timer(page, COMPUTER_PAUSE_MS)
    wait_worker_answered(page)


@pytest.fixture
def app(page: Page, server: AppServer) -> Page:
    return open_app(page, server)


# -- where things are, and what colour the screen shows -------------------------------

PAGE_BOXES = """selector => [...document.querySelectorAll(selector)].map((element) => {
  const box = element.getBoundingClientRect();
  return [box.x + scrollX, box.y + scrollY, box.width, box.height].map(Math.round);
})"""


def page_boxes(page: Page, selector: str) -> list[list[int]]:
    """The bounding box (x, y, width, height) of every element ``selector``
    matches, from the page's top left and rounded to whole CSS pixels: for
    tests that something stays where it is while the game goes on."""
    return page.evaluate(PAGE_BOXES, selector)


def screen_pixels(page: Page, clip: dict[str, float]) -> Callable[[int, int], tuple[int, int, int]]:
    """The colour the screen shows, as a function of (x, y) in CSS pixels
    from ``clip``'s top left: a screenshot of that part of the page (device
    scale 1), decoded here (8-bit RGB or RGBA PNG, as Chromium writes it)."""
    png = page.screenshot(clip=clip, animations="disabled", caret="hide")
    width, height, depth, colour_type = struct.unpack(">IIBB", png[16:26])
    assert depth == 8 and colour_type in (2, 6), (depth, colour_type)
    channels = 3 if colour_type == 2 else 4
    data, at = b"", 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        if kind == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    raw, stride, rows = zlib.decompress(data), width * channels, []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):  # the five PNG filters, undone
            left = row[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                row[i] = (row[i] + left) & 255
            elif kind == 2:
                row[i] = (row[i] + up) & 255
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))
                row[i] = (row[i] + near[2]) & 255
        rows.append(bytes(row))
        previous = row

    def colour(x: int, y: int) -> tuple[int, int, int]:
        at = x * channels
        return rows[y][at], rows[y][at + 1], rows[y][at + 2]

    return colour
