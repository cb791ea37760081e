"""The shape of the project: layout, the core's purity, the runtime config
and the page's own-origin rule."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = ROOT / "py"
PURE_PACKAGES = ("core", "ai")
BROWSER_ONLY = {"js", "pyodide", "pyscript", "app", "main", "worker", "bench_worker"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_layout_of_the_design() -> None:
    for name in ("index.html", "pyscript.toml", "py", "css", "i18n", "tests", "e2e", "README.md", "Makefile",
                 "package.json", "package-lock.json", "requirements-test.txt", ".ci/run"):
        assert (ROOT / name).exists(), name
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "vendor/" in ignored and "node_modules/" in ignored and "test-results/" in ignored


def test_the_core_and_ai_import_only_the_standard_library_and_each_other() -> None:
    allowed = set(sys.stdlib_module_names) | {"core", "ai", "registry"}
    checked = 0
    for package in PURE_PACKAGES:
        for path in (PY / package).rglob("*.py"):
            modules = imported_modules(path)
            assert not modules & BROWSER_ONLY, f"{path} imports the browser layer: {modules & BROWSER_ONLY}"
            assert modules <= allowed, f"{path} imports outside the stdlib: {modules - allowed}"
            checked += 1
    assert checked >= 4
    # core knows nothing of the AI or the registry (which names core's classes).
    for path in (PY / "core").rglob("*.py"):
        assert not imported_modules(path) & {"ai", "registry"}, path
    # The registry is pure data over the rules: the standard library and core.
    assert imported_modules(PY / "registry.py") <= set(sys.stdlib_module_names) | {"core"}


#: The browser layer's pure folders: every module in them runs under CPython
#: (the unit tests), so none may reach js or pyodide, even through another.
PURE_APP_FOLDERS = ("model", "views")
DOM_ONLY = {"js", "pyodide", "pyscript", "pyodide_js"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PY).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, by its full name: relative imports
    resolved, ``from package import name`` counted as the submodule when
    there is one. Imports under ``if TYPE_CHECKING`` count too."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def module_graph() -> dict[str, set[str]]:
    """py/'s modules and which of them each imports (outside modules left out)."""
    paths = {module_name(path): path for path in PY.rglob("*.py")}
    return {name: {other for other in imports_of(path) if other in paths and other != name}
            for name, path in paths.items()}


def test_the_pure_browser_folders_never_reach_js() -> None:
    """Every module under app/model and app/views, and everything it
    imports in turn, stays off the DOM: a test tells pure from DOM code by
    its folder."""
    graph = module_graph()
    paths = {module_name(path): path for path in PY.rglob("*.py")}
    pure = [name for name in graph if name.split(".")[:2] in (["app", folder] for folder in PURE_APP_FOLDERS)]
    assert len(pure) >= 12, pure
    for start in pure:
        seen, todo = {start}, [start]
        while todo:
            name = todo.pop()
            outside = {other.split(".")[0] for other in imports_of(paths[name])}
            assert not outside & DOM_ONLY, f"{start} reaches the DOM through {name}"
            assert not name.startswith("app.page"), f"{start} imports the page through {name}"
            for other in graph[name] - seen:
                seen.add(other)
                todo.append(other)


def test_the_renderer_takes_view_models_only() -> None:
    """The page's drawing modules read the view models (``*_view``), the
    parts and the words of app/model, never a model itself."""
    modules = set(module_graph())
    drawing = [PY / "app" / "page" / name for name in ("render.py", "review_panel.py", "insight_panel.py")]
    for path in drawing:
        models = {name for name in imports_of(path) & modules if name.startswith("app.model.")}
        assert models, path
        for name in models:
            assert name.endswith("_view") or name in ("app.model.parts", "app.model.words"), f"{path.name} imports {name}"


def test_no_import_cycles_among_our_modules() -> None:
    """No module of py/ imports itself through others (a depth-first walk
    of the import graph; a package importing its own submodules is no
    cycle, a submodule importing its package's __init__ would be)."""
    graph = module_graph()
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph[name]):
            if name.startswith(other + "."):
                continue  # a submodule's import of its package runs only the package's __init__
            if state.get(other) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path[path.index(other):] + [name, other]))
            if other not in state:
                visit(other, path + [name])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])


def test_pyscript_config_takes_our_runtime_and_copies_no_files() -> None:
    """PyScript gets the interpreter runtime.js started (our vendored
    Pyodide, with the app's Python archive on its path): it loads no
    packages and copies no files of its own."""
    config = tomllib.loads((ROOT / "pyscript.toml").read_text())
    assert config["interpreter"] == "./runtime.js"
    assert "!error" in config["plugins"]
    assert not config.get("packages"), "the app loads no Pyodide packages"
    assert not config.get("files"), "the app's Python comes in one archive (runtime.js)"
    runtime = (ROOT / "runtime.js").read_text(encoding="utf-8")
    assert 'from "./vendor/pyodide/pyodide.mjs"' in runtime
    assert "export function loadPyodide(" in runtime and "export { version }" in runtime


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.urls: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("src", "href", "config"):
            if values.get(name):
                self.urls.append(values[name] or "")
        self._in_script = tag == "script" and "src" not in values

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


def test_the_page_has_no_inline_script_and_only_relative_urls() -> None:
    parser = _Scripts()
    parser.feed((ROOT / "index.html").read_text(encoding="utf-8"))
    assert parser.inline == []
    for url in parser.urls:
        assert url.startswith(("./", "#")), url
    shell = sorted((ROOT / "shell").glob("*.js"))
    assert len(shell) >= 9, shell
    for path in (ROOT / "runtime.js", ROOT / "worker.js", *shell, ROOT / "sw.js",
                 ROOT / "css" / "app.css", ROOT / "pyscript.toml"):
        assert not re.search(r"https?://", path.read_text(encoding="utf-8")), path


class _ModuleScripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts.append(dict(attrs))


def test_the_interpreter_starts_before_the_shell_and_pyscript() -> None:
    """runtime.js is the page's first script and runs as soon as it is in
    (async): the interpreter starts without waiting for the shell, PyScript
    or the end of the page."""
    parser = _ModuleScripts()
    parser.feed((ROOT / "index.html").read_text(encoding="utf-8"))
    modules = [script for script in parser.scripts if script.get("type") == "module"]
    assert [script.get("src") for script in modules] == ["./runtime.js", "./vendor/shell/boot.js",
                                                         "./vendor/pyscript/core.js"]
    assert "async" in modules[0] and not any("async" in script for script in modules[1:])


def test_gtp_is_the_only_entry_outside_the_page() -> None:
    # py/gtp.py runs from a shell; everything else is importable in Pyodide.
    assert (PY / "gtp.py").exists()
    assert "js" not in imported_modules(PY / "gtp.py")


class _Preloads(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "link" and values.get("rel") in ("preload", "modulepreload"):
            self.links.append(values)


def test_the_page_preloads_the_vendored_start_up_path() -> None:
    """index.html asks at once for what PyScript and Pyodide would ask for
    one after the other. Each file must be one the runtime really loads
    (else it is downloaded for nothing, and the browser warns), fetched as
    the runtime fetches it (``crossorigin`` for fetch(), or it is fetched
    twice)."""
    parser = _Preloads()
    parser.feed((ROOT / "index.html").read_text(encoding="utf-8"))
    hrefs = [link["href"] or "" for link in parser.links]
    for link in parser.links:
        if link["rel"] == "preload":
            assert link.get("as") == "fetch" and "crossorigin" in link, link
    assert "./pyscript.toml" in hrefs
    # What Pyodide fetches as it starts: the standard library (ours, cut to what
    # the app imports: tools/stdlib.py), never its whole one, nor its lock file
    # (runtime.js hands it one).
    assert "./vendor/python-stdlib.zip" in hrefs
    assert not {"./vendor/pyodide/python_stdlib.zip", "./vendor/pyodide/pyodide-lock.json"} & set(hrefs)
    # What runtime.js imports and fetches at once in the page: the interpreter's
    # loader, the archives' key, the page's archives (not the AI worker's own).
    assert {"./vendor/pyodide/pyodide.mjs", "./vendor/python.js", "./vendor/python.zip",
            "./vendor/python-page.zip"} <= set(hrefs)
    assert "./vendor/python-worker.zip" not in hrefs
    # PyScript's program of the page, which it fetches once the interpreter is up.
    (program,) = re.findall(r'<script type="py" src="([^"]+)"', (ROOT / "index.html").read_text(encoding="utf-8"))
    assert program == "./py/main.py" and program in hrefs
    # A preloaded WebAssembly response is compiled without V8's code cache,
    # and with pyodide.asm.mjs preloaded a failed interpreter load goes unseen.
    assert not [href for href in hrefs if href.endswith((".wasm", ".asm.mjs"))]
    vendor = ROOT / "vendor" / "pyscript"
    if not (vendor / "core.js").is_file():
        import pytest

        pytest.skip("the runtime is not vendored (make runtime)")
    assert all((ROOT / href).is_file() for href in hrefs), [href for href in hrefs if not (ROOT / href).is_file()]
    # PyScript's chunks: core.js's own, and what that one imports at start:
    # its TOML parser and the plugins pyscript.toml does not switch off
    # (but "error", whose entry it imports either way).
    chunks = {href.rsplit("/", 1)[1] for href in hrefs if href.startswith("./vendor/pyscript/")}
    (core,) = re.findall(r'from"\./(core-[\w-]+\.js)"', (vendor / "core.js").read_text())
    imported = set(re.findall(r'import\("\./([\w-]+\.js)"\)', (vendor / core).read_text()))
    assert core in chunks and chunks - {core} <= imported
    table = re.search(r"var \w+=\{codemirror:.*?\};", (vendor / core).read_text()).group(0)
    plugins = set(re.findall(r'[{,]"?([\w-]+)"?:\(\)=>', table))
    assert "py-terminal" in plugins and "donkey" in plugins
    off = {name.removeprefix("!") for name in tomllib.loads((ROOT / "pyscript.toml").read_text())["plugins"]}
    assert {"toml", "error"} | (plugins - off) == {chunk.rsplit("-", 1)[0] for chunk in chunks - {core}}


def test_the_shell_comes_as_one_bundle_of_its_modules() -> None:
    """The page loads the shell as one module, vendor/shell/boot.js, which
    tools/build_site.py bundles from shell/boot.js and every module it
    imports (a module a request would hold up PyScript's program, which
    waits for the shell); the guide's diagrams are a chunk of their own,
    imported when a guide first opens, and runtime.js and the game list are
    imported as they are."""
    bundle = ROOT / "vendor" / "shell"
    if not (bundle / "boot.js").is_file():
        import pytest

        pytest.skip("the shell is not bundled (make runtime)")
    text = (bundle / "boot.js").read_text(encoding="utf-8")
    sources = {path.name for path in (ROOT / "shell").glob("*.js")}
    bundled = set(re.findall(r"^// shell/([\w-]+\.js)$", text, re.MULTILINE))
    assert bundled == sources - {"figures.js"}, bundled
    static = set(re.findall(r'^import [^;]*? from "([^"]+)";', text, re.MULTILINE))
    assert static == {"../../runtime.js", "../games.js"}
    assert re.findall(r'import\("([^"]+)"\)', text) == ["./figures.js"]
    assert re.findall(r"^// shell/([\w-]+\.js)$", (bundle / "figures.js").read_text(encoding="utf-8"),
                      re.MULTILINE) == ["figures.js"]
    # Each static import the bundle kept is asked for at once: runtime.js is
    # the page's first script, the game list preloaded.
    assert '<link rel="modulepreload" href="./vendor/games.js">' in (ROOT / "index.html").read_text(encoding="utf-8")


def test_no_two_test_modules_share_a_name() -> None:
    """`make test` runs tests/ (one folder per layer) and e2e/ in one pytest
    session, where two modules of the same name (no packages) stop the
    collection."""
    names = [path.name for folder in ("tests", "e2e") for path in (ROOT / folder).rglob("test_*.py")]
    assert len(names) > 40
    assert sorted(name for name in set(names) if names.count(name) > 1) == []


def test_every_unit_test_lives_in_its_layer_s_folder() -> None:
    """The unit tests are grouped as the code is: the rules, the engines,
    the browser layer, the tools, and the page's static files."""
    tests = ROOT / "tests"
    assert not list(tests.glob("test_*.py"))
    folders = {path.parent.relative_to(tests).as_posix() for path in tests.rglob("test_*.py")}
    assert folders == {"core", "ai", "app", "tools", "layout"}


def test_e2e_s_conftest_is_the_only_one() -> None:
    """The end-to-end tests import their helpers from ``conftest``; a second
    conftest.py anywhere in the run would take that module name first and
    stop their collection in `make test`."""
    found = sorted(path.relative_to(ROOT).as_posix() for folder in ("tests", "e2e") for path in (ROOT / folder).rglob("conftest.py"))
    assert found == ["e2e/conftest.py"]
