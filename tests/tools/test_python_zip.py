"""tools/python_zip.mjs, the builder of the Python archives: in either form a
module imports from the archive in the pinned Pyodide, an error's traceback
names the line it is on in the source, and the docstrings go but a class's."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from tools import stdlib

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = '''"""The module's docstring."""
# a comment on a line of its own
import sys


class Kept:
    """A class keeps its docstring (a dataclass would make one otherwise)."""


def fails():
    """A function's docstring, with a character that UTF-8 writes in two bytes: é."""
    x = "# not a comment"  # a comment after code
    raise ValueError(x)


def only_a_docstring():
    """Nothing else in the body."""
'''
#: The sample's line that raises.
RAISES = SAMPLE.splitlines().index("    raise ValueError(x)") + 1
# Pyodide in Node: the archive on the path, the sample imported, its error's
# line, and what its docstrings became.
IMPORT = """
import { loadPyodide } from %(pyodide)s;
import { readFileSync } from "node:fs";
const pyodide = await loadPyodide();
pyodide.FS.writeFile("/home/pyodide/sample.zip", readFileSync(%(archive)s));
console.log(pyodide.runPython(`
import json, sys, traceback
sys.path.insert(0, "/home/pyodide/sample.zip")
import sample
try:
    sample.fails()
except ValueError as error:
    frame, message = traceback.extract_tb(error.__traceback__)[-1], str(error)
json.dumps({"line": frame.lineno, "file": frame.filename, "message": message, "module": sample.__doc__,
            "class": sample.Kept.__doc__, "function": sample.fails.__doc__, "empty": sample.only_a_docstring()})
`));
"""

needs_node = pytest.mark.skipif(shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide").is_dir(),
                                reason="Node and the pinned Pyodide (npm ci) are needed")


@needs_node
@pytest.mark.parametrize("form", ["bytecode", "source"])
def test_a_module_imports_from_the_archive_and_its_traceback_names_the_source_line(tmp_path: Path, form: str) -> None:
    out = tmp_path / "sample.zip"
    stdlib.compile_archives([{"out": str(out), "comment": "a test", "prefix": "/home/pyodide/sample.zip",
                              "files": {"sample.py": SAMPLE}, "form": form, "docstrings": False}])
    with zipfile.ZipFile(out) as archive:
        assert archive.namelist() == ["sample.pyc" if form == "bytecode" else "sample.py"]
        assert archive.comment == b"a test"
        if form == "source":
            lean = archive.read("sample.py").decode()
            assert lean.count("\n") == SAMPLE.count("\n") and "comment on a line" not in lean
            assert "# not a comment" in lean and "keeps its docstring" in lean
    script = IMPORT % {"pyodide": json.dumps(str(ROOT / "node_modules" / "pyodide" / "pyodide.mjs")),
                       "archive": json.dumps(str(out))}
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[done.stderr.rfind("Traceback"):][:3000]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["line"] == RAISES and seen["file"] == "/home/pyodide/sample.zip/sample.py"
    assert seen["message"] == "# not a comment"
    assert seen["class"] == "A class keeps its docstring (a dataclass would make one otherwise)."
    gone = None if form == "bytecode" else ""
    assert seen["module"] == gone and seen["function"] == gone and seen["empty"] is None
