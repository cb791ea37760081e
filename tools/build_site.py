"""The site: what a static host serves, and what the service worker keeps.

`generate()` writes these files into the git-ignored vendor/ (it runs at the
end of tools/vendor.py, so on every `make serve`, `make test` and
`make site`):

- vendor/games.js: the shell's game list, from py/registry.py (see
  ``game_list``); shell/cards.js imports it and draws the cards of the picker,
  shell/figures.js draws the guide's boards from the geometry it carries.
- vendor/shell/: the shell (shell/*.js) bundled by esbuild (``bundle_shell``):
  boot.js, the page's shell in one module with everything it imports but
  runtime.js and vendor/games.js, and figures.js, the guide's diagrams, which
  the first guide imports. One request instead of a module's each.
- vendor/python.zip, python-page.zip, python-worker.zip: the app's Python
  (``ARCHIVES``), each module as bytecode compiled by the pinned Pyodide in
  Node (tools/python_zip.mjs), rebuilt only when a file of py/ changed
  (``build_archive``). The page fetches the first two while its interpreter
  starts (runtime.js), the AI worker the first and the last, and each
  imports from them.
- vendor/python-stdlib.zip: the standard library cut to what the app
  imports (tools/stdlib.py).
- vendor/python.js: ``ARCHIVE_KEY``, the archives' identity (the digest of
  what they are built from, also their zip comment): runtime.js keeps a
  snapshot of a started interpreter only for the archives it was made with;
  ``ARCHIVES``, which archives the page and the worker load; ``LOCK``,
  Pyodide's lock file without its packages (``no_packages_lock``).
- vendor/precache.js: ``self.PRECACHE = {version, files}``, the files sw.js
  precaches (the page, the shell, the stylesheet, the catalogs, the icons,
  the manifests, pyscript.toml, the Python archive, the vendored Pyodide and
  PyScript) and a version computed from their
  content and sw.js's. A change to any of them changes this script, which the
  browser's update check of sw.js compares byte for byte: the new version is
  precached under a new cache name.
- vendor/manifest-<lang>.webmanifest: the web app manifest in each catalog's
  language (shell/boot.js links the current language's).

`python3 tools/build_site.py [folder]` (`make site`) copies exactly the files a
static host needs into the folder (default _site/): the precached files,
sw.js and vendor/precache.js. Every URL in them is relative, so the folder
works at a domain's root and under any sub-path.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT))  # run as a script: the repository's root, for the tools package

import registry  # noqa: E402 - py/registry.py: the games
from app.model.games import SPECS  # noqa: E402 - the games' card functions (py/app/views/)
from tools import stdlib  # noqa: E402 - the cut standard library

VENDOR = ROOT / "vendor"
PRECACHE = VENDOR / "precache.js"
#: The app's Python in three archives, each interpreter loading two
#: (``LOADS``): what both import (the rules, the registry, the engines'
#: code, the self-check), the page's screens, and the AI worker's own (its
#: entry points and the engines' data, which the page never reads).
ARCHIVES = {"common": VENDOR / "python.zip", "page": VENDOR / "python-page.zip", "worker": VENDOR / "python-worker.zip"}
LOADS = {"page": ("common", "page"), "worker": ("common", "worker")}
ARCHIVE = ARCHIVES["common"]
ARCHIVE_KEY = VENDOR / "python.js"
#: Where runtime.js writes the archive in the interpreter's file system (the
#: bytecode names its files there) and puts it on the module path.
ARCHIVE_HOME = "/home/pyodide/"
#: How the archive's modules go in (tools/python_zip.mjs): as bytecode, the
#: docstrings of modules and functions left out (0.36 MB gzipped on
#: 2026-12-07, with its 0.08 MB of data; 0.20 MB as lean source, which the
#: interpreter would compile on every first visit: 0.26 s in Node here).
ARCHIVE_FORM = "bytecode"
GAME_LIST = VENDOR / "games.js"
SITE = ROOT / "_site"

# The app's own files at fixed places; the rest is found from the folders.
APP_FILES = ("index.html", "runtime.js", "worker.js", "css/app.css", "icon.svg", "pyscript.toml", "py/main.py")
#: The shell's sources, and its bundle: the entry and the chunk the bundler
#: writes (shell/boot.js, and the guide's diagrams it imports on demand).
SHELL = ROOT / "shell"
SHELL_BUNDLE = VENDOR / "shell"
SHELL_FILES = ("boot.js", "figures.js")
RUNTIME_FOLDERS = ("vendor/pyodide", "vendor/pyscript")
#: Pyodide's files the app never fetches (vendored for the bench's bare-Pyodide
#: floor): its whole standard library (the app's is cut: tools/stdlib.py) and
#: its lock file (runtime.js passes one without packages, ``no_packages_lock``).
UNUSED = (stdlib.FULL, VENDOR / "pyodide" / "pyodide-lock.json")
# Colours of the installed app's window and splash screen: the page's light
# background (css/app.css --bg), as its light theme-color says.
BACKGROUND = "#f6f4ef"


def languages() -> list[str]:
    return sorted(path.stem for path in (ROOT / "i18n").glob("*.json"))


def manifest_path(lang: str) -> str:
    return f"vendor/manifest-{lang}.webmanifest"


def manifest(lang: str) -> dict[str, object]:
    """The web app manifest in one language. Its URLs are relative to the
    manifest itself (in vendor/), so the app's root is "../"."""
    catalog = json.loads((ROOT / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return {
        "name": catalog["app.name"],
        "short_name": catalog["app.short_name"],
        "description": catalog["app.tagline"],
        "lang": lang,
        "dir": "ltr",
        "start_url": "../",
        "scope": "../",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": BACKGROUND,
        "icons": [
            {"src": "../icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": "../icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": "../icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            {"src": "../icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
        ],
    }


def game_list() -> list[dict[str, Any]]:
    """The shell's game list, in the registry's order: each game's name, its
    variants in the list (with and without the swap rule, for a game that
    has it: ``#/hex/swap``, ``#/hex/no-swap``), its card's drawing
    (``art``, see ``card_art``), and the English text of its card (catalog
    keys ``games.<game>.name``/``.desc``, ``variant.<game>.swap``/``.no_swap``),
    shown until the catalogs are in."""
    english = json.loads((ROOT / "i18n" / "en.json").read_text(encoding="utf-8"))
    games = []
    for game in registry.GAMES.values():
        variants = ["swap", "no-swap"] if game.swap else []
        keys = [f"games.{game.name}.name", f"games.{game.name}.desc",
                *(f"variant.{game.name}.{variant.replace('-', '_')}" for variant in variants)]
        games.append({"game": game.name, "variants": variants, "art": card_art(game),
                      "text": {key: english[key] for key in keys}})
    return games


def card_art(game: registry.Game) -> dict[str, Any]:
    """What shell/cards.js needs to draw the game's card: which of its board
    drawings (``drawing``), the board's default size (``size``: Notakto's
    number of boards, the side of the others), for every size the rules
    accept the length of a stored preview's ``cells`` and ``boards`` at it
    (``shapes``, from the game's card function, so that a damaged or foreign
    preview is not drawn), and the hexagonal cells' geometry (``cells``, the
    registry's ``Cells``; shell/figures.js draws from it too), or null."""
    sizes: list[Any] = [game.board_size]
    if isinstance(game.board_size, str):
        sizes = list(game.setting(game.board_size).accepted)
    shapes = {}
    for size in sizes:
        state = game.new_state({} if isinstance(game.board_size, int) else {game.board_size: size})
        card = SPECS[game.name].card(state)
        shapes[str(card.size)] = {"cells": len(card.cells), "boards": len(card.boards)}
    size = game.board_size if isinstance(game.board_size, int) else game.defaults()[game.board_size]
    # As JSON has it (lists, not tuples), so that it compares with games.js.
    cells = json.loads(json.dumps(dataclasses.asdict(game.cells))) if game.cells else None
    return {"drawing": game.card_art, "size": size, "shapes": shapes, "cells": cells}


def python_files() -> list[str]:
    """What goes into the archive, as paths from py/: every module and data
    file of py/ but the GTP engine (a program for the command line)."""
    found = [path for pattern in ("*.py", "*.json") for path in (ROOT / "py").rglob(pattern)]
    return sorted(path.relative_to(ROOT / "py").as_posix() for path in found
                  if path.name != "gtp.py" and "__pycache__" not in path.parts)


def archive_digest(files: list[str]) -> str:
    """A digest of what the archive is built from: the files, the builder,
    the pinned Pyodide (whose version makes the bytecode) and the cut
    standard library (a snapshot holds the interpreter's view of both)."""
    digest = hashlib.sha256()
    pyodide = json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text(encoding="utf-8"))["version"]
    digest.update(f"pyodide {pyodide}\0{stdlib.comment()}\0{ARCHIVE_FORM}\0".encode())
    for name, path in [("tools/python_zip.mjs", ROOT / "tools" / "python_zip.mjs"),
                       *((f"{name} in {archive_of(name)}", ROOT / "py" / name) for name in files)]:
        digest.update(name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def no_packages_lock() -> dict[str, Any]:
    """The pinned Pyodide's lock file with no packages: runtime.js hands it to
    Pyodide (``lockFileContents``), which then fetches no lock file (27 kB
    gzipped; the app installs no package)."""
    lock = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    return {"info": lock["info"], "packages": {}}


def archive_of(name: str) -> str:
    """Which archive (``ARCHIVES``) a file of py/ goes in."""
    if name.startswith("app/") or name == "main.py":
        return "page"
    if name in ("worker.py", "bench_worker.py") or (name.startswith("ai/") and name.endswith(".json")):
        return "worker"
    return "common"


def archive_files() -> dict[str, list[str]]:
    """Each archive's files, as paths from py/."""
    found: dict[str, list[str]] = {name: [] for name in ARCHIVES}
    for name in python_files():
        found[archive_of(name)].append(name)
    return found


def build_archive() -> bool:
    """Build the archives (``ARCHIVES``) with tools/python_zip.mjs unless
    they are up to date (bytecode only, without the docstrings of modules
    and functions), and write their key into vendor/python.js; whether they
    were built."""
    files = python_files()
    comment = f"abstract-games python {archive_digest(files)}"
    loads = {kind: [ARCHIVES[name].name for name in names] for kind, names in LOADS.items()}
    write_if_changed(ARCHIVE_KEY, "// Generated by tools/build_site.py (git-ignored): the identity of the Python archives,\n"
                     "// which of them the page and the AI worker load, and Pyodide's lock file without its\n"
                     "// packages (the app loads none).\n"
                     f"export const ARCHIVE_KEY = {json.dumps(comment)};\n"
                     f"export const ARCHIVES = {json.dumps(loads)};\n"
                     f"export const LOCK = {json.dumps(json.dumps(no_packages_lock()))};\n")
    if all(stdlib.built_comment(path) == comment for path in ARCHIVES.values()):
        return False
    stdlib.compile_archives([
        {"out": str(ARCHIVES[name]), "comment": comment, "prefix": ARCHIVE_HOME + ARCHIVES[name].name,
         "form": ARCHIVE_FORM, "docstrings": False,
         "files": {path: (ROOT / "py" / path).read_text(encoding="utf-8") for path in paths}}
        for name, paths in archive_files().items()])
    if any(stdlib.built_comment(path) != comment for path in ARCHIVES.values()):
        sys.exit("site: the Python archives were not written")
    return True


def bundle_shell() -> bool:
    """Bundle shell/boot.js and the modules it imports into vendor/shell/
    (``SHELL_FILES``) with the pinned esbuild: not minified (its comments
    dropped, each module's code under a line naming its file), runtime.js
    and vendor/games.js left to be imported as they are. Whether a file
    changed."""
    esbuild = ROOT / "node_modules" / ".bin" / "esbuild"
    if not esbuild.is_file():
        sys.exit("site: esbuild is not installed; run `npm ci` (make runtime does)")
    # Written beside vendor/shell/, so that the paths of the imports left out (which
    # esbuild writes relative to its output folder) hold there too.
    with tempfile.TemporaryDirectory(dir=VENDOR) as out:
        done = subprocess.run(
            [str(esbuild), str(SHELL / "boot.js"), "--bundle", "--format=esm", "--splitting", "--chunk-names=[name]",
             f"--outdir={out}", f"--external:{ROOT / 'runtime.js'}", f"--external:{GAME_LIST}",
             "--log-level=warning"], capture_output=True, text=True, check=False)
        written = sorted(path.name for path in Path(out).iterdir())
        if done.returncode != 0 or written != sorted(SHELL_FILES):
            sys.exit(f"site: the shell could not be bundled ({written}):\n{done.stderr.strip()}")
        changed = [write_if_changed(SHELL_BUNDLE / name, (Path(out) / name).read_text(encoding="utf-8"))
                   for name in SHELL_FILES]
    for stale in set(SHELL_BUNDLE.iterdir()) - {SHELL_BUNDLE / name for name in SHELL_FILES}:
        stale.unlink()
    return any(changed)


def precache_files() -> list[str]:
    """Every file the page and the AI worker fetch, as paths from the root
    (the page itself is also cached under its folder URL, see sw.js)."""
    files = [*APP_FILES, *(path.relative_to(ROOT).as_posix() for path in (GAME_LIST, ARCHIVE_KEY))]
    files += [(SHELL_BUNDLE / name).relative_to(ROOT).as_posix() for name in SHELL_FILES]
    files += sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "icons").glob("*.png"))
    files += [f"i18n/{lang}.json" for lang in languages()]
    files += [manifest_path(lang) for lang in languages()]
    files += [path.relative_to(ROOT).as_posix() for path in (*ARCHIVES.values(), stdlib.CUT)]
    for folder in RUNTIME_FOLDERS:
        files += sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / folder).iterdir()
                        if path.is_file() and path not in UNUSED)
    assert len(set(files)) == len(files), "a file is listed twice"
    return files


def version(files: list[str]) -> str:
    """A digest of the listed files' paths and content, and of sw.js."""
    digest = hashlib.sha256()
    for name in [*files, "sw.js"]:
        digest.update(name.encode() + b"\0" + hashlib.sha256((ROOT / name).read_bytes()).digest())
    return digest.hexdigest()[:16]


def write_if_changed(path: Path, text: str) -> bool:
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def generated_paths() -> list[Path]:
    """The files ``generate`` writes."""
    return [*(ROOT / manifest_path(lang) for lang in languages()), GAME_LIST, PRECACHE, *ARCHIVES.values(), ARCHIVE_KEY,
            stdlib.CUT,
            *(SHELL_BUNDLE / name for name in SHELL_FILES)]


def generate() -> None:
    """Write the game list, the shell's bundle, the manifests, the Python
    archive and vendor/precache.js (needs the runtime in vendor/)."""
    stdlib.build()
    build_archive()
    games = ",\n".join(f"  {json.dumps(game, ensure_ascii=False)}" for game in game_list())
    write_if_changed(GAME_LIST, "// Generated by tools/build_site.py from py/registry.py (git-ignored): the shell's game list.\n"
                     f"export const GAMES = [\n{games}\n];\n")
    bundle_shell()
    for lang in languages():
        write_if_changed(ROOT / manifest_path(lang), json.dumps(manifest(lang), ensure_ascii=False, indent=2) + "\n")
    files = precache_files()
    missing = [name for name in files if not (ROOT / name).is_file()]
    if missing:
        sys.exit(f"site: files to precache are missing: {', '.join(missing)}")
    # "./" is the page as a visitor asks for it (the folder's URL).
    listed = ["./", *(f"./{name}" for name in files)]
    script = ("// Generated by tools/build_site.py (git-ignored): what sw.js precaches, and its version.\n"
              f"self.PRECACHE = {json.dumps({'version': version(files), 'files': listed}, indent=1)};\n")
    write_if_changed(PRECACHE, script)


def site_files() -> list[str]:
    """What a static host serves: the precached files, the service worker
    and its list."""
    return [*precache_files(), "sw.js", PRECACHE.relative_to(ROOT).as_posix()]


def build(out: Path) -> int:
    """Copy the site into ``out`` (emptied first); return its size in bytes."""
    if out == ROOT or ROOT.is_relative_to(out):
        sys.exit(f"site: refusing to replace {out}, which holds the sources")
    generate()
    if out.exists():
        shutil.rmtree(out)
    size = 0
    for name in site_files():
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, target)
        size += target.stat().st_size
    # GitHub Pages: serve the folder as it is (no Jekyll processing).
    (out / ".nojekyll").write_text("")
    return size


def main() -> None:
    out = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else SITE
    size = build(out)
    print(f"site: {len(site_files())} files, {size / 1e6:.1f} MB in {out}")


if __name__ == "__main__":
    main()
