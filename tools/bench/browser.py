"""The bench's server and headless Chromium: the checkout served as GitHub
Pages serves it, every byte counted; fresh browser profiles; the app's page
opened as the harness, and the scripts the bench runs in pages."""

from __future__ import annotations

import base64
import functools
import gzip
import http.server
import io
import json
import tempfile
import threading
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools import harness  # the server, Chromium and the page watch, shared with the end-to-end tests
from tools.bench import ROOT, BenchError
from tools.bench.settings import CALL_TIMEOUT_MS, READY_TIMEOUT_MS

APP_PATH = "#/notakto"  # a board on screen as soon as Python is ready
FLOOR_PATH = "tools/bench/floor.html"
#: A reference on cold visits, not a target: PyScript started with the app's
#: runtime and nothing else, what any page built as the app is pays first.
PYSCRIPT_FLOOR_PATH = "tools/bench/pyscript-floor.html"
#: What GitHub Pages sends with every file: fresh for ten minutes, then
#: revalidated (Last-Modified / If-Modified-Since, which http.server answers
#: with 304). A second visit within ten minutes asks the server nothing.
CACHE_CONTROL = "max-age=600"
#: Chromium flags on top of the end-to-end tests' own (tools/harness.py).
EXTRA_ARGS = ["--enable-precise-memory-info"]
VIEWPORT = {"width": 1100, "height": 900}

#: Runs in every page of the bench before the page's own scripts: notes when
#: the page marks itself ready (body[data-ready="true"], which the app sets
#: when Python is ready and the board is drawn, and the floor when Pyodide
#: is) and every long task (>= 50 ms) of the main thread.
INIT_JS = """(() => {
  const bench = (window.__bench = { ready: null, longTasks: [] });
  new MutationObserver(() => {
    if (bench.ready === null && document.body && document.body.dataset.ready === "true") bench.ready = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (error) {}
})();"""

VISIT_JS = """() => {
  const entry = (name) => performance.getEntriesByName(name)[0];
  const resources = performance.getEntriesByType("resource");
  const navigation = performance.getEntriesByType("navigation")[0];
  return {
    paint: entry("first-contentful-paint")?.startTime ?? null,
    ready: window.__bench.ready,
    computer: entry("computer-ready")?.startTime ?? null,
    pageBytes: [navigation, ...resources].reduce((sum, e) => sum + e.transferSize, 0),
    resources: resources.length + 1,
    fromCache: [navigation, ...resources].filter((e) => e.transferSize === 0 && e.decodedBodySize > 0).length,
    longestTask: Math.max(0, ...window.__bench.longTasks.filter(([at]) => at < window.__bench.ready).map(([, ms]) => ms)),
  };
}"""

#: If the page registered a service worker, wait (60 s at most) until it is
#: active with nothing installing or waiting: its precache downloads then
#: belong to this visit, and the next visit is served as a returning player's.
SERVICE_WORKER_JS = """async () => {
  if (!("serviceWorker" in navigator)) return null;
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  let registration;
  for (let i = 0; i < 5 && !registration; i++) {
    registration = await navigator.serviceWorker.getRegistration();
    if (!registration) await pause(100);
  }
  if (!registration) return null;
  const deadline = performance.now() + 60000;
  const settled = () => !registration.installing && !registration.waiting && registration.active
    && registration.active.state === "activated";
  while (!settled() && performance.now() < deadline) {
    await pause(100);
  }
  return settled() ? "activated" : `not activated after 60 s (${registration.active && registration.active.state})`;
}"""

MY_TURN_JS = ("!document.querySelector('[data-testid=result]').hidden"
              " || document.querySelector('.cell[aria-disabled=\"false\"]') !== null")

#: The longest the main thread stayed busy, beyond a 10 ms interval timer's
#: period: catches blocks shorter than the 50 ms that make a long task.
PROBE_START_JS = """() => {
  const probe = (window.__probe = { last: performance.now(), worst: 0 });
  probe.id = setInterval(() => {
    const now = performance.now();
    probe.worst = Math.max(probe.worst, now - probe.last - 10);
    probe.last = now;
  }, 10);
  return performance.now();
}"""
PROBE_STOP_JS = "() => { clearInterval(window.__probe.id); return [performance.now(), window.__probe.worst]; }"


#: The trace event of each task a Chromium thread runs (category "toplevel"),
#: with its wall time (``dur``) and the thread's own CPU time in it (``tdur``).
TASK_EVENT = "ThreadControllerImpl::RunTask"
TRACE_TIMEOUT_S = 60.0


class TaskTrace:
    """Every task of the page's main thread from now until ``stop``
    (DevTools tracing, through the page's DevTools session ``cdp``), with
    its wall time and its CPU time: a task whose wall time is long but
    its CPU time short was kept waiting by something else on the machine,
    not by its own work."""

    def __init__(self, cdp: Any) -> None:
        self.cdp = cdp
        self.done: dict[str, Any] = {}
        cdp.on("Tracing.tracingComplete", lambda event: self.done.update(event))
        config = {"includedCategories": ["toplevel"], "recordMode": "recordAsMuchAsPossible"}
        cdp.send("Tracing.start", {"traceConfig": config, "transferMode": "ReturnAsStream"})

    def stop(self, page: Any) -> list[tuple[float, float]]:
        """(wall ms, CPU ms) of each task of the renderer's main thread
        (the busiest one, should the trace hold several)."""
        self.cdp.send("Tracing.end")
        waited = 0.0
        while not self.done:  # Playwright delivers the event while the page is waited on
            if waited > TRACE_TIMEOUT_S:
                raise BenchError(f"the trace did not end in {TRACE_TIMEOUT_S:g} s")
            page.wait_for_timeout(50)
            waited += 0.05
        handle = self.done["stream"]
        chunks = []
        while True:
            read = self.cdp.send("IO.read", {"handle": handle, "size": 1 << 20})
            chunks.append(base64.b64decode(read["data"]) if read.get("base64Encoded") else read["data"].encode())
            if read.get("eof"):
                break
        self.cdp.send("IO.close", {"handle": handle})
        trace = json.loads(b"".join(chunks))
        events = trace["traceEvents"] if isinstance(trace, dict) else trace
        mains = {(e["pid"], e["tid"]) for e in events
                 if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
        tasks: dict[tuple[int, int], list[tuple[float, float]]] = {}
        for e in events:
            if e.get("name") == TASK_EVENT and e.get("ph") == "X" and (e["pid"], e["tid"]) in mains:
                tasks.setdefault((e["pid"], e["tid"]), []).append((e["dur"] / 1000, e.get("tdur", e["dur"]) / 1000))
        if not tasks:
            raise BenchError(f"the trace has no {TASK_EVENT} event of a renderer's main thread")
        return max(tasks.values(), key=len)


@dataclass(frozen=True)
class Sent:
    """One response of the server: what it sent for which path."""

    path: str
    status: int
    header_bytes: int
    body_bytes: int

    @property
    def bytes(self) -> int:
        return self.header_bytes + self.body_bytes


def part_of(path: str) -> str:
    """Which part of the app a served path belongs to (the rest of vendor/
    is made from our sources: the Python archive, the game list, the
    manifests, the precache list)."""
    if path.startswith("/vendor/pyodide/"):
        return "runtime: Pyodide"
    if path.startswith("/vendor/pyscript/"):
        return "runtime: PyScript"
    return "ours"


PARTS = ("runtime: Pyodide", "runtime: PyScript", "ours")


def compressible(content_type: str) -> bool:
    """What the bench's server gzips when it sends as GitHub Pages does:
    everything but the PNG icons (text, and WebAssembly, which Pages
    compressed when we looked, 2026-12)."""
    return content_type == "image/svg+xml" or not content_type.startswith("image/")


@functools.cache
def gzipped(path: str, _modified_ns: int) -> bytes:
    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


class BenchServer(harness.AppServer):
    """This checkout, served on a free loopback port as the end-to-end tests
    serve it (their server and handler: http.server's, which sends
    Last-Modified and answers If-Modified-Since with 304), plus GitHub
    Pages' Cache-Control, and a log of every response's size (status line
    and headers, body)."""

    def __init__(self, root: Path, base: type[http.server.SimpleHTTPRequestHandler] = harness.QuietHandler) -> None:
        self.lock = threading.Lock()
        self.log: list[Sent] = []
        #: Whether to send files gzipped (level 6) to a client that takes
        #: it, as GitHub Pages does (``compressible``): the emulated
        #: phone's visits (``Bench.phone_visits``), whose bandwidth counts.
        self.compress = False
        server = self

        class Handler(base):  # type: ignore[misc, valid-type]
            def send_head(self) -> Any:
                path = Path(self.translate_path(self.path))
                if not (server.compress and "gzip" in self.headers.get("Accept-Encoding", "")
                        and path.is_file() and compressible(self.guess_type(str(path)))):
                    return super().send_head()
                modified = self.date_time_string(int(path.stat().st_mtime))
                if self.headers.get("If-Modified-Since") == modified:
                    self.send_response(304)
                    self.end_headers()
                    return None
                body = gzipped(str(path), path.stat().st_mtime_ns)
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(str(path)))
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Last-Modified", modified)
                self.end_headers()
                return io.BytesIO(body)

            def send_response(self, code: int, message: str | None = None) -> None:
                self.bench_status, self.bench_length = code, 0
                super().send_response(code, message)

            def send_header(self, keyword: str, value: str) -> None:
                if keyword.lower() == "content-length":
                    self.bench_length = int(value)
                super().send_header(keyword, value)

            def end_headers(self) -> None:
                if self.bench_status in (200, 304):
                    super().send_header("Cache-Control", CACHE_CONTROL)
                head = sum(map(len, getattr(self, "_headers_buffer", []))) + 2
                body = self.bench_length if self.command != "HEAD" and self.bench_status != 304 else 0
                with server.lock:
                    server.log.append(Sent(urllib.parse.urlsplit(self.path).path, self.bench_status, head, body))
                super().end_headers()

        super().__init__(root, Handler)

    def take(self) -> list[Sent]:
        """What was sent since the last call."""
        with self.lock:
            log, self.log = self.log, []
        return log


class Browser:
    """Headless Chromium, launched as the end-to-end tests launch it, and the
    bench's server. Every page runs in a profile of its own: a fresh user
    data folder (so an empty HTTP cache on disk, as a player's browser has
    it: Playwright's ordinary contexts keep an in-memory cache that refuses
    Pyodide's 9.6 MB WebAssembly file). The bench never routes requests
    (routing would turn the cache off)."""

    def __init__(self) -> None:
        if not (ROOT / "vendor" / "pyodide" / "pyodide.asm.wasm").exists():
            raise BenchError("the runtime is not vendored: run `make bench` (or `python3 tools/vendor.py`)")
        from playwright.sync_api import sync_playwright

        self.runner: Any = None
        self.watches: list[Any] = []
        self.profiles: dict[int, tuple[Any, tempfile.TemporaryDirectory[str]]] = {}
        self.version = "?"
        self.server = BenchServer(ROOT)
        try:
            self.runner = sync_playwright().start()
        except BaseException:
            self.close()
            raise

    def profile(self, as_harness: bool) -> Any:
        """A browser context on a new, empty profile (close it with
        ``close_profile``); ``as_harness``: its pages have the bench hooks
        (and the harness's worker), else they are a player's."""
        folder = tempfile.TemporaryDirectory(prefix="bench-profile-")
        context = self.runner.chromium.launch_persistent_context(
            folder.name, executable_path=harness.chromium_path(), args=harness.LAUNCH_ARGS + EXTRA_ARGS,
            headless=True, viewport=VIEWPORT, locale="en-US")
        self.profiles[id(context)] = (context, folder)
        watch = harness.Watch()
        harness.watch_context(context, watch)
        self.watches.append(watch)
        context.add_init_script(INIT_JS)
        if as_harness:
            harness.open_as_harness(context)
        if self.version == "?" and context.pages:
            product = context.new_cdp_session(context.pages[0]).send("Browser.getVersion")["product"]
            self.version = product.split("/")[-1]
        return context

    def close_profile(self, context: Any) -> None:
        context, folder = self.profiles.pop(id(context))
        try:
            context.close()
        finally:
            folder.cleanup()

    def check_clean(self) -> None:
        foreign = [url for watch in self.watches for url in watch.foreign]
        errors = [error for watch in self.watches for error in watch.errors]
        if foreign:
            raise BenchError(f"a page asked another origin: {foreign}")
        if errors:
            raise BenchError(f"console errors in a page: {errors}")

    def close(self) -> None:
        try:
            for context in [context for context, _ in self.profiles.values()]:
                self.close_profile(context)
            if self.runner is not None:
                self.runner.stop()
        finally:
            self.server.stop()


def call_page(page: Any, function: str, *args: str) -> dict[str, Any]:
    """Await ``function(...args)`` in the page, which answers JSON text
    (evaluate has no timeout of its own: a hung worker must fail the run,
    not stall it)."""
    script = f"""args => Promise.race([
        Promise.resolve({function}(...args)),
        new Promise((_, reject) => setTimeout(() => reject(new Error("{function} timed out")), {CALL_TIMEOUT_MS})),
    ])"""
    reply = json.loads(page.evaluate(script, list(args)))
    if "error" in reply:
        raise BenchError(f"{function} in the page: {reply['error']}")
    return reply


class AppPage:
    """The real app at #/notakto in a context of its own, opened as the
    harness (the bench hooks, py/app/page/harness.py), with the worker started:
    for the responsiveness, memory and engine figures."""

    TIMER_RESOLUTION_JS = """() => {
        let best = Infinity;
        for (let i = 0; i < 20; i++) {
            const start = performance.now();
            let now = start;
            while (now === start) now = performance.now();
            best = Math.min(best, now - start);
        }
        return best / 1000;
    }"""

    def __init__(self, browser: Browser) -> None:
        self.context = browser.profile(as_harness=True)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.page.goto(browser.server.url + APP_PATH)
        self.page.wait_for_function("document.body.dataset.ready === 'true'", timeout=READY_TIMEOUT_MS)
        self.cdp = self.context.new_cdp_session(self.page)
        self.timer_resolution_s = float(self.page.evaluate(self.TIMER_RESOLUTION_JS))

    def call(self, hook: str, request: dict[str, Any]) -> dict[str, Any]:
        return call_page(self.page, hook, json.dumps(request))

    def worker(self, function: str, request: dict[str, Any]) -> dict[str, Any]:
        """A ``bench_*`` function of the AI worker, through the page."""
        return call_page(self.page, "appBenchWorker", function, json.dumps(request))

    def memory(self) -> dict[str, Any]:
        """The page's JS heap after a full garbage collection, and both
        interpreters' WebAssembly memory (once the worker is ready)."""
        wasm = call_page(self.page, "appMemory")
        self.cdp.send("HeapProfiler.collectGarbage")
        heap = self.page.evaluate("performance.memory.usedJSHeapSize")
        return {"page_js": int(heap), "main_wasm": wasm["main_wasm_bytes"], "worker_wasm": wasm["worker_wasm_bytes"]}


@dataclass
class Visit:
    """One page load: ms from navigation start, and what it transferred."""

    paint_s: float
    ready_s: float
    computer_s: float | None
    sent: list[Sent]
    page_bytes: int  # the page's own Resource Timing transferSize, summed (its worker's requests are not in it)
    resources: int
    from_cache: int
    longest_task_s: float  # the longest main-thread task that started before the page was ready
