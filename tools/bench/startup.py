"""Start-up against the bare-Pyodide floor, and the bytes a cold visit costs."""

from __future__ import annotations

import functools
import gzip
import statistics
import urllib.parse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tools.bench import ROOT
from tools.bench.browser import PARTS, Sent, Visit, part_of
from tools.bench.places import TEMPERATURES, Bench
from tools.bench.settings import (
    TARGET_BYTES_RATIO,
    TARGET_COMPUTER_RATIO,
    TARGET_FLOOR_RATIO,
    TARGET_PAINT_S,
    TARGET_PHONE_BOARD_RATIO,
    TARGET_PHONE_COMPUTER_RATIO,
    TARGET_REFERENCE_RATIO,
)
from tools.bench.stats import Ratio, Stat
from tools.bench.table import Row, at_most, format_bytes, format_percent, verdict

STARTUP_TITLE = "Start-up, headless Chromium, local server: ms from navigation, median (p10–p90)"
BYTES_TITLE = "Bytes sent by the server on a cold first visit (the app until the computer is ready and has moved)"


def startup(bench: Bench) -> list[Row]:
    """Start-up against the bare-Pyodide floor, and the bytes of a cold visit."""
    visits = bench.startup_visits()
    bench.facts["startup_visits"] = visits
    rows = []
    for temperature, label in TEMPERATURES.items():
        if not visits["app", temperature]:
            continue
        app, floor = visits["app", temperature], visits["floor", temperature]
        paint = Stat.of([v.paint_s for v in app])
        floor_paint = Stat.of([v.paint_s for v in floor])
        ratio = Ratio.of([a.ready_s / f.ready_s for a, f in zip(app, floor)])
        rows += [
            Row(STARTUP_TITLE, {"visit": label, "milestone": "the shell's first contentful paint", "app": paint,
                                "bare Pyodide (floor)": floor_paint, "app ÷ floor": None,
                                "target": f"p90 < {TARGET_PAINT_S * 1000:.0f} ms: {verdict(paint.p90 < TARGET_PAINT_S)}"}),
            Row(STARTUP_TITLE, {"visit": label, "milestone": "the first board accepts a move (floor: Pyodide ready)",
                                "app": Stat.of([v.ready_s for v in app]),
                                "bare Pyodide (floor)": Stat.of([v.ready_s for v in floor]), "app ÷ floor": ratio,
                                "target": f"≤ {TARGET_FLOOR_RATIO:.2f}×: {verdict(at_most(ratio.median, TARGET_FLOOR_RATIO))}"}),
            Row(STARTUP_TITLE, {"visit": label, "milestone": "its longest main-thread task before then",
                                "app": Stat.of([v.longest_task_s for v in app]),
                                "bare Pyodide (floor)": Stat.of([v.longest_task_s for v in floor])}),
        ]
        pairs = [(a.computer_s, f.ready_s) for a, f in zip(app, floor) if a.computer_s is not None]
        if pairs:
            ratio = Ratio.of([computer / ready for computer, ready in pairs])
            rows.append(Row(STARTUP_TITLE, {
                "visit": label, "milestone": "the computer is ready (floor: Pyodide ready)",
                "app": Stat.of([computer for computer, _ in pairs]),
                "bare Pyodide (floor)": Stat.of([ready for _, ready in pairs]), "app ÷ floor": ratio,
                "target": f"≤ {TARGET_COMPUTER_RATIO:.1f}×: {verdict(at_most(ratio.median, TARGET_COMPUTER_RATIO))}"}))
        reference = visits.get(("pyscript", temperature), [])
        if reference:
            rows.append(Row(STARTUP_TITLE, {
                "visit": label, "milestone": "reference, not the app: PyScript started with runtime.js alone ready",
                "app": Stat.of([v.ready_s for v in reference]),
                "bare Pyodide (floor)": Stat.of([v.ready_s for v in floor]),
                "app ÷ floor": Ratio.of([r.ready_s / f.ready_s for r, f in zip(reference, floor)])}))
            against = Ratio.of([a.ready_s / r.ready_s for a, r in zip(app, reference)])
            rows.append(Row(STARTUP_TITLE, {
                "visit": label, "milestone": "the first board against the reference (app ÷ reference)",
                "app ÷ floor": against,
                "target": f"≤ {TARGET_REFERENCE_RATIO:.2f}×: {verdict(at_most(against.median, TARGET_REFERENCE_RATIO))}"}))
    return rows + bytes_rows(bench, visits)


@functools.cache
def gzip_size(path: str) -> int | None:
    """The file's size gzipped at level 6 (what a host that compresses would
    send, about), or None when it is not a file here."""
    parts = Path(urllib.parse.unquote(path).lstrip("/")).parts
    if ".." in parts:
        return None
    file = ROOT.joinpath(*parts)
    if file.is_dir():
        file = file / "index.html"
    if not file.is_file():
        return None
    return len(gzip.compress(file.read_bytes(), compresslevel=6, mtime=0))


def tally_sent(sent: Sequence[Sent]) -> dict[str, Any]:
    """Requests, distinct files, bytes sent and their gzip estimate (files
    sent with a body, each counted every time it was sent)."""
    bodies = [s for s in sent if s.status == 200]
    return {
        "requests": len(sent),
        "not modified": sum(1 for s in sent if s.status == 304),
        "files": len({s.path for s in bodies}),
        "bytes": sum(s.bytes for s in sent),
        "gzip": sum((gzip_size(s.path) or s.body_bytes) + s.header_bytes for s in bodies),
    }


def bytes_rows(bench: Bench, visits: dict[tuple[str, str], list[Visit]]) -> list[Row]:
    """From the first round; the other rounds' cold visits are compared with it."""
    cold = visits["app", "cold"][0]
    total = tally_sent(cold.sent)
    others = {tally_sent(v.sent)["bytes"] for v in visits["app", "cold"]}
    if len(others) > 1:
        bench.notes.append(f"The cold app visits of the {len(visits['app', 'cold'])} rounds did not send the same: "
                           f"{format_bytes(min(others))} to {format_bytes(max(others))} (the table shows the first).")
    rows = []
    for part in PARTS:
        counted = tally_sent([s for s in cold.sent if part_of(s.path) == part])
        rows.append(Row(BYTES_TITLE, {
            "what": f"app, cold: {part}", "requests": counted["requests"], "of them 304": counted["not modified"],
            "files": counted["files"],
            "sent": format_bytes(counted["bytes"]), "share": format_percent(counted["bytes"] / max(1, total["bytes"])),
            "if gzipped (estimate)": format_bytes(counted["gzip"])}))
    rows.append(Row(BYTES_TITLE, {"what": "app, cold: **all**", "requests": total["requests"],
                                  "of them 304": total["not modified"], "files": total["files"],
                                  "sent": format_bytes(total["bytes"]), "share": format_percent(1),
                                  "if gzipped (estimate)": format_bytes(total["gzip"])}))
    for kind, temperature in (("floor", "cold"), ("app", "warm"), ("floor", "warm")):
        counted = tally_sent(visits[kind, temperature][0].sent)
        name = "bare Pyodide (floor)" if kind == "floor" else "app"
        rows.append(Row(BYTES_TITLE, {"what": f"{name}, {temperature}", "requests": counted["requests"],
                                      "of them 304": counted["not modified"], "files": counted["files"],
                                      "sent": format_bytes(counted["bytes"]),
                                      "if gzipped (estimate)": format_bytes(counted["gzip"])}))
    ratio = total["gzip"] / max(1, tally_sent(visits["floor", "cold"][0].sent)["gzip"])
    rows.append(Row(BYTES_TITLE, {
        "what": "app ÷ bare Pyodide, cold, gzipped",
        "if gzipped (estimate)": f"{ratio:.2f}× (≤ {TARGET_BYTES_RATIO:.2f}×: {verdict(at_most(ratio, TARGET_BYTES_RATIO))})"}))
    return rows


PHONE_TITLE = ("Start-up on an emulated phone's connection (20 Mbit/s down, 80 ms round trip; files sent gzipped, as "
               "GitHub Pages sends them), cold visits, headless Chromium: ms from navigation, median (p10–p90)")


def phone(bench: Bench) -> list[Row]:
    """Cold visits of the app and of bare Pyodide over the emulated phone's
    connection, at full speed and with the processor slowed down."""
    visits = bench.phone_visits()
    bench.facts["phone"] = True
    rows = []
    for slowdown in sorted({slowdown for _, slowdown in visits}):
        app, floor = visits["app", slowdown], visits["floor", slowdown]
        label = "processor as it is" if slowdown == 1 else f"processor {slowdown:g}x slower"
        board = Ratio.of([a.ready_s / f.ready_s for a, f in zip(app, floor)])
        computer = Ratio.of([a.computer_s / f.ready_s for a, f in zip(app, floor) if a.computer_s is not None])
        sent = Ratio.of([sum(s.bytes for s in a.sent) / sum(s.bytes for s in f.sent) for a, f in zip(app, floor)])
        floor_ready = Stat.of([v.ready_s for v in floor])
        rows += [
            Row(PHONE_TITLE, {"processor": label, "milestone": "the first board accepts a move (floor: Pyodide ready)",
                              "rounds": len(app), "app": Stat.of([v.ready_s for v in app]),
                              "bare Pyodide (floor)": floor_ready, "app ÷ floor": board,
                              "target": f"≤ {TARGET_PHONE_BOARD_RATIO:.1f}×: "
                                        f"{verdict(at_most(board.median, TARGET_PHONE_BOARD_RATIO))}"}),
            Row(PHONE_TITLE, {"processor": label, "milestone": "the computer is ready (floor: Pyodide ready)",
                              "rounds": len(app),
                              "app": Stat.of([v.computer_s for v in app if v.computer_s is not None]),
                              "bare Pyodide (floor)": floor_ready, "app ÷ floor": computer,
                              "target": f"≤ {TARGET_PHONE_COMPUTER_RATIO:.1f}×: "
                                        f"{verdict(at_most(computer.median, TARGET_PHONE_COMPUTER_RATIO))}"}),
            Row(PHONE_TITLE, {"processor": label, "milestone": "bytes sent (gzipped, headers too)", "rounds": len(app),
                              "app": format_bytes(statistics.median(sum(s.bytes for s in v.sent) for v in app)),
                              "bare Pyodide (floor)": format_bytes(
                                  statistics.median(sum(s.bytes for s in v.sent) for v in floor)),
                              "app ÷ floor": sent}),
        ]
    return rows
