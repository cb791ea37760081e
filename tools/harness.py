"""What the end-to-end tests (e2e/conftest.py) and the bench (tools/bench/)
share to open the app: the static server for this checkout, headless
Chromium's path and flags, the watch on what a page asks and logs, and the
flag that opens the page as the harness (with its test and bench hooks).

Standard library only, so the bench's unit tests import it without
Playwright.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from pathlib import Path
from typing import Any


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """http.server's handler with the types the app needs and no log lines."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json",
                      ".webmanifest": "application/manifest+json"}

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        pass


class AppServer:
    """A static server for a folder, on a free loopback port, in a thread."""

    def __init__(self, root: Path, handler_class: type[http.server.SimpleHTTPRequestHandler] = QuietHandler) -> None:
        handler = functools.partial(handler_class, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def chromium_path() -> str | None:
    """Debian's Chromium where installed, else None: Playwright's own browser."""
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

#: Run in every page before its own scripts (``open_as_harness``): the page
#: then installs its test and bench hooks and starts the harness's worker
#: (py/app/page/harness.py). Only the harness sets it; a player's page has none.
HARNESS_FLAG_JS = "window.appHarness = true;"


def open_as_harness(context: Any) -> None:
    """Open every page of the Playwright ``context`` as the harness."""
    context.add_init_script(HARNESS_FLAG_JS)


LOCAL = re.compile(r"^(http://127\.0\.0\.1:\d+/|blob:http://127\.0\.0\.1:\d+/|data:)")


class Watch:
    """What a page did that a test (or the bench) must not allow."""

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


def watch_context(context: Any, watch: Watch) -> None:
    """Note in ``watch`` every request of the Playwright ``context`` to
    another origin, every console error and page error, and every CSP
    violation."""

    def on_request(request: Any) -> None:
        if not LOCAL.match(request.url):
            watch.foreign.append(request.url)

    def on_console(message: Any) -> None:
        if message.type == "error":
            watch.errors.append(message.text)

    context.on("request", on_request)
    context.on("console", on_console)
    context.on("weberror", lambda error: watch.errors.append(f"page error: {error.error}"))
    context.add_init_script(REPORT_CSP_VIOLATIONS)
