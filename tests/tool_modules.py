"""The scripts of ``tools/`` (``tools/<name>.py``, run as files) as modules,
for their tests: loaded from their files and registered under their bare
names, as dataclasses and worker processes look a module up by name. (The
bench and the arena are packages, imported as ``tools.bench`` and
``tools.arena``.)"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def load_tool(name: str) -> ModuleType:
    """``tools/<name>.py``, loaded once per test session."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
