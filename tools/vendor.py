"""Copy the pinned runtime (npm `pyodide` and `@pyscript/core`) into vendor/.

Only what the page loads is copied: no source maps, type files, demo pages
or PyScript chunks for features the app does not use (editor, terminal,
MicroPython, pygame). The app loads no Pyodide packages (the engines are
stdlib only), so no wheels are copied: micropip is not needed. Should one
ever be, its wheel must be vendored too and the lock's sha256 for it
replaced by that of PyPI's wheel (the npm lock names another build).

Idempotent: files already identical are left alone. At the end it writes the
web app manifests and the service worker's precache list (tools/build_site.py),
which depend on these files. Run from the repository root: `python3 tools/vendor.py`.
"""

from __future__ import annotations

import filecmp
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the repository's root, for the tools package

from tools import build_site  # noqa: E402  (the manifests and the precache list)

MODULES = ROOT / "node_modules"
VENDOR = ROOT / "vendor"

PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
# PyScript chunks the app never loads: the editor and terminal libraries,
# MicroPython, PyScript's own service worker, the zip reader (for [files]
# that are .zip or .whl archives) and the package graph (for [packages]):
# pyscript.toml has neither (tests/layout/test_site.py checks), and the
# service worker would precache 75 kB gzipped of them. (PyScript imports its
# small plugin entry chunks at start even when disabled, so those stay.)
PYSCRIPT_SKIP = re.compile(r"^(codemirror|index-|xterm|mpy|service-worker|storage|zip-|pyodide_graph-)")


def expected_versions() -> dict[str, str]:
    deps = json.loads((ROOT / "package.json").read_text())["dependencies"]
    return {"pyodide": deps["pyodide"], "@pyscript/core": deps["@pyscript/core"]}


def check_installed() -> None:
    for name, version in expected_versions().items():
        manifest = MODULES / name / "package.json"
        if not manifest.exists():
            sys.exit(f"vendor: {name} is not installed; run `npm ci` first")
        found = json.loads(manifest.read_text())["version"]
        if found != version:
            sys.exit(f"vendor: {name} {found} is installed but {version} is pinned; run `npm ci`")


def copy(src: Path, dst: Path) -> bool:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.exists() and filecmp.cmp(src, dst, shallow=False):
        return False
    shutil.copyfile(src, dst)
    return True


def pyscript_files() -> list[Path]:
    dist = MODULES / "@pyscript" / "core" / "dist"
    return sorted(
        path for path in dist.iterdir()
        if path.suffix == ".js" and not PYSCRIPT_SKIP.match(path.name)
    )


def static_imports_resolve(folder: Path) -> list[str]:
    """Names of files that kept modules import statically but are missing."""
    missing = []
    for module in folder.glob("*.js"):
        text = module.read_text(encoding="utf-8")
        for name in re.findall(r'(?:from|import)\s*"\./([^"]+)"', text):
            if not (folder / name).exists():
                missing.append(f"{module.name} -> {name}")
    return missing


def main() -> None:
    check_installed()
    changed = 0
    wanted: set[Path] = set()
    for name in PYODIDE_FILES:
        dst = VENDOR / "pyodide" / name
        wanted.add(dst)
        changed += copy(MODULES / "pyodide" / name, dst)
    for src in pyscript_files():
        dst = VENDOR / "pyscript" / src.name
        wanted.add(dst)
        changed += copy(src, dst)
    kept = wanted | set(build_site.generated_paths())
    stale = [path for path in VENDOR.rglob("*") if path.is_file() and path not in kept]
    for path in stale:
        path.unlink()
    missing = static_imports_resolve(VENDOR / "pyscript")
    if missing:
        sys.exit("vendor: PyScript chunks missing: " + ", ".join(missing))
    # The manifests and the service worker's precache list.
    build_site.generate()
    size = sum(path.stat().st_size for path in VENDOR.rglob("*") if path.is_file())
    print(f"vendor: {len(wanted)} files, {size / 1e6:.1f} MB ({changed} updated, {len(stale)} removed)")


if __name__ == "__main__":
    main()
