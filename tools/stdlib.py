"""The standard library the page and the AI worker load: the pinned Pyodide's,
cut down to the modules the app imports.

Pyodide's own ``python_stdlib.zip`` holds the whole library (614 files,
9.6 MB), each file deflated inside the archive, so that a host's HTTP
compression gains nothing on it: 2.5 MB on the wire, a third of a first
visit. The app imports a small part of it. So:

- ``python -m tools.stdlib`` (record) opens the app in headless Chromium
  with Pyodide's whole library, goes through every screen and every request
  of the AI worker (``sweep``), has both interpreters import every standard
  module that py/ names (``imported_by_app``), and writes what the page and
  the worker imported, of the library and built into the interpreter, to
  tools/stdlib.json. Run it when tests/tools/test_stdlib.py says a module is
  missing, or after updating Pyodide.
- ``build()`` (tools/build_site.py, at every `make runtime`) writes
  vendor/python-stdlib.zip: the listed modules taken from the pinned
  library, each as bytecode compiled by the pinned Pyodide
  (tools/python_zip.mjs, line numbers kept), stored rather than deflated so
  that the host's compression works on it. runtime.js hands it to Pyodide
  (``stdLibURL``) in the page and in the worker.

Nothing else of the library can be imported in the app: a module that is
not listed raises ImportError there. tests/tools/test_stdlib.py checks
that every standard module py/ imports is listed, and e2e/test_cut_library.py
runs the sweep against the cut library.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LIST = ROOT / "tools" / "stdlib.json"
#: The pinned Pyodide's whole library (tools/vendor.py copies it from npm).
FULL = ROOT / "vendor" / "pyodide" / "python_stdlib.zip"
#: The library the app loads (runtime.js's STDLIB).
CUT = ROOT / "vendor" / "python-stdlib.zip"
#: Where Pyodide puts the library in the interpreter (the bytecode names its
#: files there, as tracebacks show them).
LIBRARY_PATH = "/lib/python{major}{minor}.zip"
#: How the cut library's modules go in (tools/python_zip.mjs): as bytecode.
#: Measured on 2026-12-07 (134 modules): 0.93 MB gzipped as bytecode, 0.43 MB
#: as source without comments and docstrings; but from source the
#: interpreter compiles the modules it imports as it starts, and a first
#: visit's board came 1.8 times later on the local server (3.9 s, 2.1 s).
FORM = "bytecode"
#: py/'s files that do not run in the page or the worker (the GTP engine is
#: a program for the command line).
NOT_IN_THE_APP = ("gtp.py",)
#: Pyodide's own Python packages, which its library archive holds too.
PYODIDE_PACKAGES = ("pyodide", "_pyodide")


def pyodide_version() -> str:
    return str(json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text(encoding="utf-8"))["version"])


def app_sources() -> Iterator[Path]:
    """Every Python file of py/ the page or the worker may run."""
    for path in sorted((ROOT / "py").rglob("*.py")):
        if "__pycache__" not in path.parts and path.relative_to(ROOT / "py").as_posix() not in NOT_IN_THE_APP:
            yield path


def imported_names(source: str) -> set[str]:
    """The absolute module names a module's import statements name, at its
    top or in a function alike (not those under ``if TYPE_CHECKING:``, which
    never run); for ``from a import b`` also ``a.b`` where a is a package of
    this interpreter's library that has a module b."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names
                         if is_library_module(f"{node.module}.{alias.name}"))
    return names


def is_library_module(name: str) -> bool:
    """Whether ``name`` is a module of this interpreter's library (a module
    of a package of it: ``collections.abc``, not ``collections.deque``)."""
    parent = name.rpartition(".")[0]
    if name.split(".")[0] not in sys.stdlib_module_names or not parent:
        return name in sys.stdlib_module_names
    try:
        spec = importlib.util.find_spec(parent)
        return spec is not None and spec.submodule_search_locations is not None \
            and importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def imported_by_app() -> dict[str, set[str]]:
    """Standard module name -> the files of py/ that import it."""
    found: dict[str, set[str]] = {}
    for path in app_sources():
        for name in imported_names(path.read_text(encoding="utf-8")):
            if name.split(".")[0] in (*sys.stdlib_module_names, *PYODIDE_PACKAGES):
                found.setdefault(name, set()).add(path.relative_to(ROOT).as_posix())
    return found


def read_list() -> dict[str, Any]:
    """tools/stdlib.json: {"pyodide": version, "python": version, "modules":
    names of the library's modules, "builtin": names built into the
    interpreter}."""
    return json.loads(LIST.read_text(encoding="utf-8"))


def missing_from(listed: dict[str, Any], wanted: Iterable[str]) -> list[str]:
    """Of the module names ``wanted``, those neither listed nor built in."""
    known = set(listed["modules"]) | set(listed["builtin"])
    return sorted(set(wanted) - known)


# -- the archive ------------------------------------------------------------------------------------

def members(full: zipfile.ZipFile, modules: Iterable[str]) -> dict[str, str]:
    """Module name -> its file in the library (``a/b.py`` or
    ``a/b/__init__.py``); a name the library lacks is an error."""
    names = set(full.namelist())
    found, lacking = {}, []
    for module in modules:
        path = module.replace(".", "/")
        for candidate in (f"{path}.py", f"{path}/__init__.py"):
            if candidate in names:
                found[module] = candidate
                break
        else:
            lacking.append(module)
    if lacking:
        raise SystemExit(f"stdlib: {LIST.relative_to(ROOT)} names modules the pinned Pyodide's library lacks: "
                         f"{', '.join(lacking)}; run `python -m tools.stdlib` again")
    return found


def digest() -> str:
    """What the cut library is built from: the pinned Pyodide, the list and
    the builders."""
    sha = hashlib.sha256(f"pyodide {pyodide_version()}\0".encode())
    for path in (LIST, ROOT / "tools" / "python_zip.mjs", Path(__file__)):
        sha.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return sha.hexdigest()


def comment() -> str:
    return f"abstract-games stdlib {digest()}"


def built_comment(path: Path) -> str | None:
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.comment.decode()
    except (OSError, zipfile.BadZipFile):
        return None


def archive_job() -> dict[str, Any]:
    """The cut library, as tools/python_zip.mjs builds it: the listed
    modules' sources from the pinned library, without the docstrings of
    modules and functions but in Pyodide's own packages (which hand theirs
    to the JavaScript objects they describe)."""
    listed = read_list()
    if listed["pyodide"] != pyodide_version():
        raise SystemExit(f"stdlib: {LIST.relative_to(ROOT)} was recorded with Pyodide {listed['pyodide']}, "
                         f"not the pinned {pyodide_version()}: run `python -m tools.stdlib` again")
    version = listed["python"].split(".")
    prefix = LIBRARY_PATH.format(major=version[0], minor=version[1])
    with zipfile.ZipFile(FULL) as full:
        files = {path: full.read(path).decode("utf-8") for path in members(full, listed["modules"]).values()}
    return {"out": str(CUT), "comment": comment(), "prefix": prefix, "files": files, "form": FORM,
            "docstrings": False, "keep_docstrings": [f"{package}/" for package in PYODIDE_PACKAGES]}


def build() -> bool:
    """Write vendor/python-stdlib.zip unless it is up to date (its comment
    is the digest of what it is built from); whether it was written."""
    if built_comment(CUT) == comment():
        return False
    compile_archives([archive_job()])
    if built_comment(CUT) != comment():
        raise SystemExit("stdlib: vendor/python-stdlib.zip was not written")
    return True


def compile_archives(jobs: list[dict[str, Any]]) -> None:
    """Have tools/python_zip.mjs (the pinned Pyodide, in Node) build these archives."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit("site: Node is needed to compile the Python archives (tools/python_zip.mjs)")
    for job in jobs:
        Path(job["out"]).parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([node, str(ROOT / "tools" / "python_zip.mjs")], input=json.dumps({"archives": jobs}),
                          text=True, capture_output=True, check=False)
    if done.returncode != 0:  # Pyodide's error: its own minified code, then Python's traceback
        said = done.stderr[done.stderr.rfind("PythonError"):] if "PythonError" in done.stderr else done.stderr[-2000:]
        raise SystemExit(f"site: the Python archives could not be built:\n{said.strip()}")


# -- recording --------------------------------------------------------------------------------------

#: Each game against the computer's weakest level, the player first, on a
#: small board (the swap rule on where the game has it: the computer decides).
ROUTES = {
    "notakto": "#/notakto?boards=2&vs=beginner&starts=home",
    "uttt": "#/uttt?vs=beginner&starts=home",
    "hex": "#/hex?size=7&vs=beginner&swap=1&starts=home",
    "y": "#/y?size=9&vs=beginner&swap=1&starts=home",
}
LANGUAGES = ("de", "pt", "id", "en")
#: The harness worker's function that says what the worker imported.
WORKER_HOOK = "bench_stdlib"
READY_JS = "document.body.dataset.ready === 'true'"
FREE_CELL = '[data-testid^="cell-"][aria-disabled="false"]'
THINK_MS = 60_000


def wait_ready(page: Any) -> None:
    page.wait_for_function(READY_JS, timeout=120_000)


def new_game(page: Any) -> None:
    from playwright.sync_api import expect

    page.get_by_test_id("new-game").click()
    if page.get_by_test_id("confirm-yes").is_visible():
        page.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("move-text")).to_have_count(0)


def sweep(page: Any, url: str, visited: Any) -> None:
    """Go through the app as a player would, in a harness page (its hooks
    on, its worker py/bench_worker.py): every game against the computer (a
    move and the reply, a hint, the evaluation bar, share, export, resign,
    the game's analysis, review, import of the export and of garbage, the
    shared link opened, the guide and the statistics explained), two people
    with an undo, the past games, every language, the engines' self-check in
    both interpreters, a reload (restored from the snapshots) and the embed.
    ``visited()`` is called before each navigation that loads the page
    afresh, and at the end."""
    from playwright.sync_api import expect

    page.goto(url)
    wait_ready(page)
    for game, route in ROUTES.items():
        page.goto(url + route)
        wait_ready(page)
        moves = page.get_by_test_id("move-text")
        expect(page.locator(FREE_CELL).first).to_be_visible(timeout=THINK_MS)
        page.locator(FREE_CELL).first.click()
        expect(moves).to_have_count(2, timeout=THINK_MS)
        expect(page.locator(FREE_CELL).first).to_be_visible(timeout=THINK_MS)
        if game == "notakto":  # its hint: the safe moves shown
            page.get_by_test_id("toggle-hints").check()
            expect(page.get_by_test_id("hint-text")).not_to_be_empty(timeout=THINK_MS)
        else:
            page.get_by_test_id("hint").click()
            expect(page.get_by_test_id("hint-line")).to_be_visible(timeout=THINK_MS)
        page.get_by_test_id("toggle-eval").check()
        expect(page.get_by_test_id("eval-bar")).to_have_attribute("aria-busy", "false", timeout=THINK_MS)
        page.get_by_test_id("share-open").click()
        link = page.get_by_test_id("share-link").input_value()
        page.get_by_test_id("share-close").click()
        page.get_by_test_id("export-open").click()
        record = page.get_by_test_id("export-text").input_value()
        page.get_by_test_id("export-close").click()
        page.get_by_test_id("resign").click()
        page.get_by_test_id("confirm-yes").click()
        expect(page.get_by_test_id("result-text")).to_be_visible()
        budgets = page.get_by_test_id("analysis-budget").locator("option").evaluate_all("os => os.map(o => o.value)")
        page.get_by_test_id("analysis-budget").select_option(budgets[0])
        page.get_by_test_id("analyse").click()
        expect(page.get_by_test_id("analysis-summary")).to_be_visible(timeout=THINK_MS)
        page.get_by_test_id("review-first").click()
        page.get_by_test_id("review-next").click()
        page.get_by_test_id("import-open").click()
        page.get_by_test_id("import-text").fill(record)
        page.get_by_test_id("import-submit").click()
        expect(page.get_by_test_id("status")).to_contain_text("imported")
        page.get_by_test_id("import-open").click()
        page.get_by_test_id("import-text").fill("(;not a game [}")
        page.get_by_test_id("import-submit").click()
        expect(page.get_by_test_id("import-error")).to_be_visible()
        page.get_by_test_id("import-close").click()
        page.goto(link)
        expect(page.get_by_test_id("status")).to_contain_text("shared")
        for part in ("guide", "statistics"):
            page.goto(f"{url}#/{game}/{part}")
            expect(page.get_by_test_id("guide-page")).to_be_visible()
    page.goto(url + "#/hex?size=7&vs=two_player&swap=0")
    new_game(page)
    for _ in range(2):
        page.locator(FREE_CELL).first.click()
    expect(page.get_by_test_id("move-text")).to_have_count(2)
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("move-text")).to_have_count(1)
    page.locator("#archive-panel summary").click()
    page.get_by_test_id("archive-item").first.locator(".past-open").click()
    expect(page.get_by_test_id("status")).to_contain_text("past")
    for language in LANGUAGES:
        page.get_by_test_id("lang-select").select_option(language)
        page.wait_for_function(f"document.documentElement.lang === {language!r}")
    for check in ("appSelfCheck()", "appWorkerSelfCheck()"):
        if "error" in json.loads(page.evaluate(check)):
            raise SystemExit(f"stdlib: {check} failed")
    visited()
    page.reload()
    wait_ready(page)
    page.wait_for_function("performance.getEntriesByName('computer-restored').length > 0", timeout=120_000)
    page.goto(url + ROUTES["hex"])
    new_game(page)
    page.locator(FREE_CELL).first.click()
    expect(page.get_by_test_id("move-text")).to_have_count(2, timeout=THINK_MS)
    visited()
    page.goto(url + "?embed=1" + ROUTES["uttt"])
    wait_ready(page)
    new_game(page)
    page.locator(FREE_CELL).first.click()
    expect(page.get_by_test_id("move-text")).to_have_count(2, timeout=THINK_MS)
    visited()


def imported(page: Any, also: Iterable[str] = ()) -> dict[str, Any]:
    """What the page and its worker imported of the library, as the hooks
    say (py/selfcheck.py's ``imported_stdlib``), once each has imported the
    modules ``also`` names too: the union."""
    request = json.dumps({"import": sorted(also)})
    replies = [json.loads(page.evaluate("(request) => appStdlib(request)", request)),
               json.loads(page.evaluate("([name, request]) => appBenchWorker(name, request)", [WORKER_HOOK, request]))]
    for reply in replies:
        if "error" in reply:
            raise SystemExit(f"stdlib: {reply['error']}")
    return {"python": replies[0]["python"], "modules": sorted({m for r in replies for m in r["modules"]}),
            "builtin": sorted({m for r in replies for m in r["builtin"]})}


def record() -> dict[str, Any]:
    """Sweep the app with Pyodide's whole library (the server answers for
    the cut one with it) and return the list to write."""

    from playwright.sync_api import sync_playwright

    from tools import build_site, harness

    build_site.build_archive()  # the app as it is now (the rest is `make runtime`'s)

    class WholeLibrary(harness.QuietHandler):
        def translate_path(self, path: str) -> str:
            if path.split("?")[0].endswith("/" + CUT.relative_to(ROOT).as_posix()):
                return str(FULL)
            return super().translate_path(path)

    server = harness.AppServer(ROOT, WholeLibrary)
    wanted = set(imported_by_app())
    found: list[dict[str, Any]] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=harness.chromium_path(), args=harness.LAUNCH_ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US",
                                          service_workers="block")
            watch = harness.Watch()
            harness.watch_context(context, watch)
            harness.open_as_harness(context)
            page = context.new_page()
            try:
                sweep(page, server.url, lambda: found.append(imported(page, wanted)))
            except Exception:
                page.screenshot(path="stdlib-sweep-failed.png")
                print("stdlib: the sweep failed at", page.url, "(its screen: stdlib-sweep-failed.png)", file=sys.stderr)
                raise
            browser.close()
            if watch.errors or watch.foreign:
                raise SystemExit(f"stdlib: the sweep saw errors: {watch.errors + watch.foreign}")
    finally:
        server.stop()
    return {"pyodide": pyodide_version(), "python": found[0]["python"],
            "modules": sorted({m for f in found for m in f["modules"]}),
            "builtin": sorted({m for f in found for m in f["builtin"]})}


def main() -> None:
    listed = record()
    LIST.write_text(json.dumps(listed, indent=1) + "\n", encoding="utf-8")
    print(f"stdlib: {len(listed['modules'])} modules of the library in {LIST.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
