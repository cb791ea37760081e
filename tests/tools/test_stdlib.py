"""The cut standard library (tools/stdlib.py): every standard module the
app's Python imports is in it, its list was recorded with the pinned
Pyodide, and the archive holds exactly the listed modules, as bytecode."""

from __future__ import annotations

import zipfile

from tools import build_site, stdlib


def test_every_standard_module_the_app_imports_is_in_the_cut_library() -> None:
    imported = stdlib.imported_by_app()
    missing = stdlib.missing_from(stdlib.read_list(), imported)
    assert not missing, ("not in tools/stdlib.json (run `python -m tools.stdlib` to record the list again): "
                         + "; ".join(f"{name} (imported by {', '.join(sorted(imported[name]))})" for name in missing))


def test_the_list_was_recorded_with_the_pinned_pyodide() -> None:
    listed = stdlib.read_list()
    assert listed["pyodide"] == stdlib.pyodide_version()
    assert listed["modules"] == sorted(set(listed["modules"])) and listed["builtin"] == sorted(set(listed["builtin"]))


def test_the_scan_sees_imports_in_functions_and_not_those_only_for_type_checking() -> None:
    source = '''
from __future__ import annotations
import json, os.path
from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING
from . import sibling
if TYPE_CHECKING:
    import decimal
def later():
    import fractions
    from email import message
'''
    assert stdlib.imported_names(source) == {
        "__future__", "json", "os.path", "collections.abc", "importlib", "typing", "fractions", "email",
        "email.message"}


def test_a_module_neither_listed_nor_built_in_is_missing() -> None:
    listed = {"modules": ["json", "json.decoder"], "builtin": ["sys", "math"]}
    assert stdlib.missing_from(listed, ["json", "sys", "fractions", "json.decoder", "decimal"]) == [
        "decimal", "fractions"]


def test_the_archive_holds_the_listed_modules_as_bytecode_and_nothing_else() -> None:
    build_site.generate()
    listed = stdlib.read_list()
    with zipfile.ZipFile(stdlib.FULL) as full:
        wanted = {path + "c" for path in stdlib.members(full, listed["modules"]).values()}
    with zipfile.ZipFile(stdlib.CUT) as cut:
        assert set(cut.namelist()) == wanted
        assert {info.compress_type for info in cut.infolist()} == {zipfile.ZIP_STORED}
        assert cut.comment.decode() == stdlib.comment()
        assert all(cut.read(name)[4:8] == b"\x01\0\0\0" for name in cut.namelist())  # PEP 552: unchecked hash
    assert stdlib.FULL.relative_to(stdlib.ROOT).as_posix() not in build_site.precache_files()
    assert stdlib.CUT.relative_to(stdlib.ROOT).as_posix() in build_site.precache_files()
