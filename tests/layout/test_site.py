"""The site as a static host gets it (tools/build_site.py): the service
worker's precache list, the manifests and icons, the policy in the page,
the theme's colours, and what the docs promise about them."""

from __future__ import annotations

import json
import re
import struct
import sys
from pathlib import Path

import pytest

from app.model.embed import url_choices
from app.model.games import SPECS

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import build_site  # noqa: E402

VENDORED = (ROOT / "vendor" / "pyodide" / "pyodide.asm.wasm").exists()
needs_runtime = pytest.mark.skipif(not VENDORED, reason="the runtime is not vendored (make runtime)")
INDEX = (ROOT / "index.html").read_text(encoding="utf-8")
SECURITY_DOC = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
EMBEDDING_DOC = (ROOT / "docs" / "embedding.md").read_text(encoding="utf-8")


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return struct.unpack(">II", data[16:24])


@needs_runtime
def test_the_precache_holds_everything_the_page_and_the_worker_load() -> None:
    files = build_site.precache_files()
    expected = {"index.html", "runtime.js", "worker.js", "css/app.css", "icon.svg",
                "pyscript.toml", "py/main.py", "vendor/python.zip", "vendor/python-page.zip",
                "vendor/python-worker.zip", "vendor/python.js",
                "vendor/shell/boot.js", "vendor/shell/figures.js"}
    expected |= {f"i18n/{path.name}" for path in (ROOT / "i18n").glob("*.json")}
    # Every vendored file but the list itself and the two of Pyodide's the app
    # never fetches (its whole standard library and its lock file: the bench's
    # bare-Pyodide floor loads them).
    unused = {"vendor/precache.js", "vendor/pyodide/python_stdlib.zip", "vendor/pyodide/pyodide-lock.json"}
    expected |= {path.relative_to(ROOT).as_posix() for path in (ROOT / "vendor").rglob("*")
                 if path.is_file()} - unused
    expected |= {f"icons/{path.name}" for path in (ROOT / "icons").glob("*.png")}
    assert set(files) == expected
    assert all((ROOT / name).is_file() for name in files)
    # Every file the page links to is in it.
    for url in re.findall(r'(?:src|href|config)="\./([^"#]+)"', INDEX):
        assert url in files or url.startswith("vendor/manifest-"), url


@needs_runtime
def test_the_precache_script_and_its_version() -> None:
    build_site.generate()
    script = (ROOT / "vendor" / "precache.js").read_text(encoding="utf-8")
    listed = json.loads(script.split("self.PRECACHE = ", 1)[1].rstrip().rstrip(";"))
    files = build_site.precache_files()
    assert listed["files"] == ["./", *(f"./{name}" for name in files)]
    assert listed["version"] == build_site.version(files) and re.fullmatch(r"[0-9a-f]{16}", listed["version"])
    assert build_site.version(files[:-1]) != listed["version"]
    assert 'importScripts("./vendor/precache.js")' in (ROOT / "sw.js").read_text(encoding="utf-8")


@needs_runtime
def test_the_shells_game_list_is_generated_from_the_registry() -> None:
    """vendor/games.js, which the shell imports to draw the picker: every game
    of py/registry.py in its order, the swap rule's variants for a game that
    has it, the card's drawing at the board's default size (with the
    geometry it is drawn from, tests/core/test_registry.py) and its English
    text."""
    import registry

    build_site.generate()
    script = (ROOT / "vendor" / "games.js").read_text(encoding="utf-8")
    listed = json.loads(script.split("export const GAMES = ", 1)[1].rstrip().rstrip(";"))
    assert listed == build_site.game_list()
    assert [entry["game"] for entry in listed] == list(registry.GAMES)
    english = json.loads((ROOT / "i18n" / "en.json").read_text(encoding="utf-8"))
    for entry in listed:
        game = registry.GAMES[entry["game"]]
        assert entry["variants"] == (["swap", "no-swap"] if game.swap else [])
        assert all(english[key] == text for key, text in entry["text"].items())
        assert {f"games.{game.name}.name", f"games.{game.name}.desc"} <= set(entry["text"])
        size = game.board_size if isinstance(game.board_size, int) else game.defaults()[game.board_size]
        assert entry["art"] == build_site.card_art(game)
        assert (entry["art"]["drawing"], entry["art"]["size"]) == (game.card_art, size)
    assert "vendor/games.js" in build_site.precache_files() and "vendor/games.js" in build_site.site_files()
    for name in ("cards.js", "routes.js"):
        shell = (ROOT / "shell" / name).read_text(encoding="utf-8")
        assert 'import { GAMES as GAME_LIST } from "../vendor/games.js";' in shell, name
    # The page lists no game of its own: the cards come from the list.
    assert "pick-" not in INDEX and 'id="card-template"' in INDEX


@needs_runtime
def test_make_site_copies_exactly_the_site(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "sub" / "path"
    build_site.build(out)
    built = {path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file()}
    assert built == {*build_site.site_files(), ".nojekyll"}
    assert {"sw.js", "vendor/precache.js", "index.html", "vendor/pyodide/pyodide.asm.wasm"} <= built
    with pytest.raises(SystemExit):
        build_site.build(ROOT)


@pytest.mark.parametrize("lang", build_site.languages())
def test_each_language_has_an_installable_manifest(lang: str) -> None:
    catalog = json.loads((ROOT / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    manifest = build_site.manifest(lang)
    assert manifest["name"] == catalog["app.name"] and manifest["lang"] == lang
    assert 0 < len(str(manifest["short_name"])) <= 12
    assert manifest["start_url"] == manifest["scope"] == "../" and manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        path = (ROOT / "vendor" / icon["src"]).resolve()
        assert path.is_file(), icon
        if icon["type"] == "image/png":
            width, height = png_size(path)
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add((width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes


def test_the_maskable_icon_is_full_bleed_and_the_others_have_round_corners() -> None:
    import zlib

    def pixels(path: Path) -> tuple[int, bytes]:
        data = path.read_bytes()
        width, _ = png_size(path)
        idat = b"".join(data[i + 8:i + 8 + struct.unpack(">I", data[i:i + 4])[0]]
                        for i in [m.start() - 4 for m in re.finditer(b"IDAT", data)])
        return width, zlib.decompress(idat)

    for name, corner_alpha in (("icon-512.png", 0), ("icon-maskable-512.png", 255)):
        width, raw = pixels(ROOT / "icons" / name)
        stride = 1 + 4 * width
        assert raw[0] == 0 and raw[1 + 3] == corner_alpha, name  # the top-left pixel
        middle = (width // 2) * stride + 1 + 4 * (width // 2)
        assert raw[middle + 3] == 255, name


def test_the_page_has_a_strict_content_security_policy() -> None:
    match = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', INDEX)
    assert match, "index.html has no CSP"
    policy = {part.split()[0]: part.split()[1:] for part in match.group(1).split("; ")}
    assert policy["default-src"] == ["'none'"]
    assert policy["script-src"] == ["'self'", "'unsafe-eval'"]
    assert policy["worker-src"] == ["'self'"]  # the AI worker and the service worker; no blob: workers
    for directive in ("connect-src", "img-src", "style-src", "manifest-src"):
        assert policy[directive] == ["'self'"], directive
    assert policy["base-uri"] == policy["form-action"] == ["'none'"]
    assert "'unsafe-inline'" not in match.group(1)
    # docs/security.md shows the same policy.
    assert " ".join(match.group(1).split()) in " ".join(SECURITY_DOC.split())


def _declarations(block: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+):\s*([^;]+);", block))


def test_the_forced_dark_theme_has_the_systems_dark_colours() -> None:
    css = (ROOT / "css" / "app.css").read_text(encoding="utf-8")
    system = re.search(r'@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme="light"\]\) \{(.*?)\}', css, re.S)
    forced = re.search(r':root\[data-theme="dark"\] \{(.*?)\}', css, re.S)
    light = re.search(r":root \{(.*?)\}", css, re.S)
    assert system and forced and light
    assert _declarations(system.group(1)) == _declarations(forced.group(1))
    assert set(_declarations(system.group(1))) <= set(_declarations(light.group(1)))


def test_the_docs_document_every_url_parameter_and_message() -> None:
    names = {"game", "lang", "theme", "embed"} | {name for spec in SPECS.values() for name in url_choices(spec)}
    for name in names:
        assert f"| `{name}` |" in EMBEDDING_DOC, name
    for message in ("ready", "resize", "gameover"):
        assert f"| `{message}` |" in EMBEDDING_DOC, message
    shell = (ROOT / "shell" / "embed.js").read_text(encoding="utf-8")
    assert 'export const SHELL_PARAMS = ["game", "lang", "theme", "embed"];' in shell


def test_the_pages_workflow_builds_with_make_site() -> None:
    workflow = (ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    assert "run: make site" in workflow and "path: _site" in workflow
    for action in ("actions/configure-pages@", "actions/upload-pages-artifact@", "actions/deploy-pages@"):
        assert action in workflow, action
    assert "_site/" in (ROOT / ".gitignore").read_text().split()


def test_the_python_archive_holds_every_module_and_data_file_of_py_but_gtp() -> None:
    py = ROOT / "py"
    expected = {path.relative_to(py).as_posix() for pattern in ("*.py", "*.json") for path in py.rglob(pattern)
                if "__pycache__" not in path.parts} - {"gtp.py"}
    assert set(build_site.python_files()) == expected
    assert {"main.py", "worker.py", "registry.py", "level_ratings.json", "ai/connection/hex_priors.json"} <= expected


@needs_runtime
def test_the_python_archives_hold_each_module_as_unchecked_bytecode_and_name_their_sources() -> None:
    """vendor/python*.zip (tools/python_zip.mjs, run by the pinned Pyodide):
    every file of py/ but the GTP program in exactly one archive, the
    page's screens in the page's, the worker's entry points and the
    engines' data in the worker's, the rest in the one both load; each
    module as bytecode alone, marked by PEP 552 as hash-based and never
    checked (so the interpreter neither compiles it nor looks for its
    source), the data files as they are in py/, nothing deflated (the host
    compresses), and as their comment the digest of what they were built
    from, which vendor/python.js exports for runtime.js with the archives
    each interpreter loads."""
    import zipfile

    build_site.generate()
    files = build_site.python_files()
    held: dict[str, str] = {}
    magics = set()
    comments = set()
    for kind, path in build_site.ARCHIVES.items():
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                assert info.compress_type == zipfile.ZIP_STORED, info.filename
                name = info.filename[:-1] if info.filename.endswith(".pyc") else info.filename
                assert name not in held, name
                held[name] = kind
                if info.filename.endswith(".pyc"):
                    header = archive.read(info)[:16]
                    magics.add(header[:4])
                    assert header[2:4] == b"\r\n" and int.from_bytes(header[4:8], "little") == 0b01, name
                else:
                    assert archive.read(info) == (ROOT / "py" / name).read_bytes(), name
            comments.add(archive.comment.decode())
    assert sorted(held) == files and "gtp.py" not in held
    assert len(magics) == 1  # one interpreter compiled them all
    assert {name for name, kind in held.items() if kind == "page"} >= {"main.py", "app/page/app.py", "app/model/screen.py"}
    assert {name for name, kind in held.items() if kind == "worker"} == {
        "worker.py", "bench_worker.py", *(name for name in files if name.startswith("ai/") and name.endswith(".json"))}
    assert {"core/base.py", "registry.py", "level_ratings.json", "ai/search.py"} <= {
        name for name, kind in held.items() if kind == "common"}
    (comment,) = comments
    assert comment == f"abstract-games python {build_site.archive_digest(files)}"
    key = (ROOT / "vendor" / "python.js").read_text(encoding="utf-8")
    assert f"export const ARCHIVE_KEY = {json.dumps(comment)};" in key
    assert 'export const ARCHIVES = {"page": ["python.zip", "python-page.zip"], ' \
        '"worker": ["python.zip", "python-worker.zip"]};' in key
    assert f"export const LOCK = {json.dumps(json.dumps(build_site.no_packages_lock()))};" in key
    # The bytecode names its files where runtime.js puts the archives.
    runtime = (ROOT / "runtime.js").read_text(encoding="utf-8")
    assert f'const ARCHIVE_HOME = "{build_site.ARCHIVE_HOME}";' in runtime
    # Up to date: another generate() leaves them alone (no Node, the same bytes).
    before = [path.stat().st_mtime_ns for path in build_site.ARCHIVES.values()]
    assert build_site.build_archive() is False
    assert [path.stat().st_mtime_ns for path in build_site.ARCHIVES.values()] == before


@needs_runtime
def test_the_archive_key_changes_with_any_byte_it_is_built_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    for part in ("py", "tools/python_zip.mjs", "node_modules/pyodide/package.json"):
        source, target = ROOT / part, tmp_path / part
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copyfile)(source, target)
    monkeypatch.setattr(build_site, "ROOT", tmp_path)
    files = build_site.python_files()
    key = build_site.archive_digest(files)
    assert key == build_site.archive_digest(files)
    for part in ("py/core/base.py", "py/ai/connection/hex_priors.json", "tools/python_zip.mjs"):
        path = tmp_path / part
        original = path.read_bytes()
        path.write_bytes(original + b" ")
        assert build_site.archive_digest(files) != key, part
        path.write_bytes(original)
    assert build_site.archive_digest(files) == key


def test_the_pyscript_chunks_left_out_are_for_what_the_configuration_never_asks() -> None:
    """tools/vendor.py leaves out PyScript's zip reader and package graph:
    PyScript loads them only for [files] archives and [packages], which
    pyscript.toml never has; nor does the vendored PyScript keep them."""
    import tomllib

    import vendor

    config = tomllib.loads((ROOT / "pyscript.toml").read_text(encoding="utf-8"))
    assert not {"files", "packages", "fetch", "js_modules"} & set(config)
    assert vendor.PYSCRIPT_SKIP.match("zip-T1gzVEcZ.js") and vendor.PYSCRIPT_SKIP.match("pyodide_graph-CX6fRcVL.js")
    assert not [path.name for path in (ROOT / "vendor" / "pyscript").glob("*.js")
                if path.name.startswith(("zip-", "pyodide_graph-"))]
