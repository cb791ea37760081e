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

import re
import sys
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from harness import (LAUNCH_ARGS, AppServer, QuietHandler, Watch, chromium_path, open_as_harness,  # noqa: E402, F401
                     watch_context)

RESULTS = ROOT / "test-results"
READY_TIMEOUT_MS = 60_000

pytestmark = pytest.mark.e2e


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


@pytest.fixture
def app(page: Page, server: AppServer) -> Page:
    return open_app(page, server)
