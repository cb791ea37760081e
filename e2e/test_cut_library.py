"""The app on the cut standard library (vendor/python-stdlib.zip,
tools/stdlib.py): the sweep that records which modules the app imports,
every screen and every request of the AI worker, runs here against the cut
library without an import error or any other, and what the page and the
worker then hold of the library is what tools/stdlib.json lists."""

from __future__ import annotations

from playwright.sync_api import Page

from conftest import AppServer
from stdlib import imported, read_list, sweep


def test_every_screen_and_every_worker_request_runs_on_the_cut_library(page: Page, server: AppServer) -> None:
    found: list[dict[str, object]] = []
    sweep(page, server.url, lambda: found.append(imported(page)))
    listed = read_list()
    assert len(found) == 3
    for modules in found:
        assert modules["python"] == listed["python"]
        assert set(modules["modules"]) <= set(listed["modules"]), set(modules["modules"]) - set(listed["modules"])
    # The context's watch (conftest) fails the test on any console error.
