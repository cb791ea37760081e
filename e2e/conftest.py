"""End-to-end harness: the real app served from this checkout, driven in
headless Chromium by Playwright.

Every test fails on a request to any origin but the local server, on a
console error (a test that provokes one on purpose lists it in
``page.expected_errors``) and on a Content-Security-Policy violation in any
frame (the app's policy is in index.html). Screenshots of failures go to
test-results/.

The default ``context`` blocks service workers: otherwise every fresh
context would precache the 14 MB runtime a second time. The offline tests
(e2e/test_offline_embed.py) open contexts that allow them.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "test-results"
READY_TIMEOUT_MS = 60_000

pytestmark = pytest.mark.e2e


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json",
                      ".webmanifest": "application/manifest+json"}

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        pass


class AppServer:
    """A static server for a folder, on a free loopback port, in a thread."""

    def __init__(self, root: Path, handler_class: type[QuietHandler] = QuietHandler) -> None:
        handler = functools.partial(handler_class, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def server() -> Iterator[AppServer]:
    if not (ROOT / "vendor" / "pyodide" / "pyodide.asm.wasm").exists():
        pytest.fail("the runtime is not vendored: run `make test` (or `python3 tools/vendor.py`)")
    app_server = AppServer(ROOT)
    yield app_server
    app_server.stop()


def chromium_path() -> str | None:
    """Debian's Chromium where installed, else Playwright's own browser."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Belt and braces: any host but the local server fails to resolve.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as runner:
        yield runner


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS, headless=True)
    yield launched
    launched.close()


LOCAL = re.compile(r"^(http://127\.0\.0\.1:\d+/|blob:http://127\.0\.0\.1:\d+/|data:)")


class Watch:
    """What a page did that a test must not allow."""

    def __init__(self) -> None:
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.expected_errors: list[str] = []

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.errors if not any(re.search(p, e) for p in self.expected_errors)]


# In every frame, before its own scripts: a CSP violation becomes a console
# error, which fails the test. (A worker's violations reach the console too.)
REPORT_CSP_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "(inline)"} at ${event.sourceFile}:${event.lineNumber}`);
});"""


def watch_context(context: BrowserContext, watch: Watch) -> None:
    def on_request(request: object) -> None:
        url = request.url  # type: ignore[attr-defined]
        if not LOCAL.match(url):
            watch.foreign.append(url)

    def on_console(message: object) -> None:
        if message.type == "error":  # type: ignore[attr-defined]
            watch.errors.append(message.text)  # type: ignore[attr-defined]

    context.on("request", on_request)
    context.on("console", on_console)
    context.on("weberror", lambda error: watch.errors.append(f"page error: {error.error}"))
    context.add_init_script(REPORT_CSP_VIOLATIONS)


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
