"""Players get no test hooks: the product's worker exports what the app
calls and nothing more, the harness's worker adds exactly what the tests and
the bench call, and only the harness's module (imported when the harness
opened the page) puts functions on ``window``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import bench_worker
import worker

ROOT = Path(__file__).resolve().parents[2]
PY = ROOT / "py"
HARNESS = PY / "app" / "page" / "harness.py"
BENCH_FUNCTION = re.compile(r"bench_[a-z_]+")


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def called_on_the_worker(path: Path) -> set[str]:
    """Names a page module reads off the AI worker (``<...>.worker.<name>``)."""
    names = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "worker":
            names.add(node.attr)
    return names


def bench_function_names(path: Path) -> set[str]:
    """The bench functions a module names: ``bench_worker.<name>`` and
    string constants such as ``"bench_search"`` (the hook appBenchWorker
    takes the name)."""
    names = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "bench_worker":
            names.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and BENCH_FUNCTION.fullmatch(node.value):
            names.add(node.value)
    return names


def window_assignments(path: Path) -> set[str]:
    """Names a module sets on ``js.window``."""
    names = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Attribute)
                        and target.value.attr == "window"):
                    names.add(target.attr)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
              and node.args and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "window"):
            names.add("setattr(window, ...)")
    return names


def product_modules() -> list[Path]:
    """Every module a player's page or worker runs."""
    return [path for path in PY.rglob("*.py") if path not in (HARNESS, PY / "bench_worker.py", PY / "gtp.py")]


def test_the_product_worker_exports_exactly_what_the_app_calls() -> None:
    calls = set().union(*(called_on_the_worker(path) for path in product_modules()))
    assert calls, "the app calls nothing on its worker?"
    assert set(worker.__export__) == calls
    assert all(callable(getattr(worker, name)) for name in worker.__export__)
    # Nor does it define the harness's functions without exporting them.
    assert not [name for name in vars(worker) if name == "self_check" or BENCH_FUNCTION.fullmatch(name)]


def test_the_harness_worker_exports_the_product_s_functions_and_what_the_harness_calls() -> None:
    exported = set(bench_worker.__export__)
    assert len(exported) == len(bench_worker.__export__)
    # The app's own functions, the very same objects: the harness's page plays as a player's does.
    assert set(worker.__export__) <= exported
    assert all(getattr(bench_worker, name) is getattr(worker, name) for name in worker.__export__)
    # The rest: what the page's hooks call in the worker (self_check, bench_moves,
    # bench_memory), the bench functions tools/bench/ asks for, and the one
    # tools/stdlib.py asks for as it records what the worker imports.
    harness_calls = called_on_the_worker(HARNESS) | bench_function_names(HARNESS)
    callers = [*sorted((ROOT / "tools" / "bench").glob("*.py")), ROOT / "tools" / "stdlib.py"]
    bench_calls = set().union(*(bench_function_names(path) for path in callers))
    assert {"self_check", "bench_moves"} <= harness_calls and bench_calls
    assert exported - set(worker.__export__) == harness_calls | bench_calls
    assert all(callable(getattr(bench_worker, name)) for name in exported)


def test_only_the_harness_puts_functions_on_window() -> None:
    hooks = window_assignments(HARNESS)
    assert {"appAdvanceClock", "appSelfCheck", "appWorkerSelfCheck", "appBench"} <= hooks
    for path in product_modules():
        assert not window_assignments(path), f"{path} sets {window_assignments(path)} on window"


def test_the_page_imports_the_harness_only_when_the_harness_asks() -> None:
    # No module imports it at import time: app.page.app.start does, and only when
    # the page was opened with window.appHarness (e2e/test_platform.py checks
    # that a page opened without it has none of the hooks).
    for path in product_modules():
        for node in tree(path).body:
            if isinstance(node, ast.ImportFrom):
                assert "harness" not in (node.module or "") and "harness" not in [a.name for a in node.names], path
            elif isinstance(node, ast.Import):
                assert not [a.name for a in node.names if "harness" in a.name or a.name == "bench_worker"], path
