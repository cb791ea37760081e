"""The report: its header (date, machine, commit) and the notes on how each
figure was measured, from the template tools/bench/report.md."""

from __future__ import annotations

import datetime
import functools
import json
import os
import platform
import re
import string
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.model.explore import FIRST_SLICE, SLICE
from core.notakto import NotaktoState
from tools.bench import ROOT, analysis_board
from tools.bench.browser import APP_PATH, CACHE_CONTROL, FLOOR_PATH, PYSCRIPT_FLOOR_PATH
from tools.bench.page import REPLIES
from tools.bench.places import Bench
from tools.bench.positions import outcome_of
from tools.bench.settings import PHONE_NETWORK, PHONE_SLOWDOWN, TARGET_S, TARGET_SPEED
from tools.bench.startup import tally_sent
from tools.bench.strength import ARENA
from tools.bench.table import Row, format_bytes, format_ms, format_report


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_revision() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "no git"
    return f"commit {head}{' + local changes' if dirty else ''}"


def pyodide_version() -> str:
    try:
        return json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return "?"


def header(bench: Bench, started: datetime.datetime, load: float) -> str:
    s, facts = bench.settings, bench.facts
    pyodide = f"Pyodide {pyodide_version()} (Python {facts['pyodide_python']})" if "pyodide_python" in facts \
        else "Pyodide not used"
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30 if hasattr(os, "sysconf") else 0
    return (f"**Bench {started:%Y-%m-%d %H:%M} UTC** · {cpu_model()}, {os.cpu_count()} cores, {memory:.0f} GiB, "
            f"load {load:.2f} · CPython {platform.python_version()} · {pyodide}"
            f" · Chromium {facts.get('chromium', 'not used')} (headless) · {git_revision()}"
            f" · {s.name}: {s.samples} samples per engine case, {s.startup_rounds} start-up rounds, seed {bench.seed}")


TEMPLATE = Path(__file__).with_name("report.md")


@functools.cache
def template() -> tuple[str, dict[str, str]]:
    """The template's page and its notes by name (each note's lines joined)."""
    text = TEMPLATE.read_text(encoding="utf-8")
    page, *rest = re.split(r"^<!-- note ([\w-]+) -->\n", text, flags=re.M)
    page = page[page.index("-->") + len("-->"):].lstrip("\n")  # the template's own comment is not the report's
    notes = {name: " ".join(body.rstrip("\n").split("\n")) for name, body in zip(rest[::2], rest[1::2])}
    return page, notes


def note(name: str, **values: Any) -> str:
    return string.Template(template()[1][name]).substitute({key: str(value) for key, value in values.items()})


def method_notes(bench: Bench, elapsed: float) -> list[str]:
    """The notes on how the figures of this run were measured."""
    s, facts = bench.settings, bench.facts
    notes = []
    visits = facts.get("startup_visits")
    if visits:
        warm = visits["app", "warm"]
        cold = visits["app", "cold"][0]
        worker_bytes = tally_sent(cold.sent)["bytes"] - cold.page_bytes
        notes += [
            note("startup", startup_rounds=s.startup_rounds, app_path=APP_PATH, floor_path=FLOOR_PATH,
                 pyscript_floor_path=PYSCRIPT_FLOOR_PATH,
                 startup_quick="" if s.warm_computer else note("startup-quick")),
            note("caching", cache_control=CACHE_CONTROL, warm_from_cache=warm[0].from_cache,
                 warm_resources=warm[0].resources, warm_bytes=format_bytes(tally_sent(warm[0].sent)["bytes"]),
                 warm_requests=len(warm[0].sent),
                 caching_service_worker=note("caching-service-worker") if facts.get("service_worker") else ""),
            note("bytes", page_bytes=format_bytes(cold.page_bytes), worker_bytes=format_bytes(max(0, worker_bytes))),
        ]
    if "phone" in facts:
        notes.append(note("phone", phone_rounds=s.phone_rounds, phone_slow_rounds=s.phone_slow_rounds,
                          phone_slowdown=f"{PHONE_SLOWDOWN:g}", app_path=APP_PATH,
                          phone_network=f"{PHONE_NETWORK['downloadThroughput'] * 8 / 1e6:g} Mbit/s down, "
                                        f"{PHONE_NETWORK['uploadThroughput'] * 8 / 1e6:g} Mbit/s up, "
                                        f"{PHONE_NETWORK['latency']} ms added to every round trip"))
    if "first_replies" in facts:
        notes.append(note("first-replies", rounds=facts["first_replies"], replies=REPLIES))
    if "long_games" in facts:
        games, plies = facts["long_games"]
        notes.append(note("responsiveness", long_games=games, long_plies=plies))
    if "memory_after_games" in facts or "memory_at_end" in facts:  # the memory table was printed
        notes.append(note("memory"))
    if bench._moves:
        batches = sorted({t.batch for t in bench._moves.values()})
        resolution = ", ".join(f"{name} {facts[key] * 1e6:.3g} µs" for name, key in (
            ("CPython", "cpython_timer_s"), ("worker", "worker_timer_s"), ("page", "page_timer_s")) if key in facts)
        notes += [
            note("throughput", playout_batch_ms=f"{s.playout_batch_s * 1000:g}", target_speed=f"{TARGET_SPEED:g}"),
            note("positions"),
            note("same-function"),
            note("batches", smallest_batch=batches[0], largest_batch=batches[-1], batch_ms=f"{s.batch_s * 1000:g}",
                 resolution=resolution),
            note("round-trip", target_ms=f"{TARGET_S * 1000:g}"),
            note("order", passes=f"{s.passes} pass{'es' if s.passes > 1 else ''}",
                 warmups=f"{s.warmup} warm-up batch{'es' if s.warmup > 1 else ''}", repeats=s.repeats,
                 samples=s.samples),
        ]
    warm_ups = [(label, facts[key]) for label, key in (("worker", "warm_appBench"),
                                                       ("page", "warm_appBenchRoundTrip")) if key in facts]
    if warm_ups:
        parts = [f"{label} {seconds:.1f} s ({format_ms(first)} → {format_ms(last)} ms"
                 f"{'' if settled else ', NOT settled'})" for label, (seconds, first, last, settled) in warm_ups]
        notes.append(note("warm-up", warm_ups="; ".join(parts)))
    if "explore_lines" in facts:
        notes.append(note("explore-lines", rounds=facts["explore_lines"], plies=", ".join(map(str, analysis_board.PLIES)),
                          first_slice=f"{FIRST_SLICE:g}", slice=f"{SLICE:g}", count=analysis_board.COUNT,
                          reset_s=f"{analysis_board.RESET_S:g}"))
    if "explore_responsiveness" in facts:
        clicks, _, autoplay_s = facts["explore_responsiveness"]
        notes.append(note("explore-responsiveness", pause_ms=analysis_board.PAUSE_MS, clicks=clicks,
                          keys=" ".join(key.replace("Arrow", "") for key in analysis_board.KEYS),
                          autoplay_s=f"{autoplay_s:g}"))
    if "strength" in facts:
        solved = "; ".join(f"on {boards} boards the {'first' if outcome_of(NotaktoState(boards)) == 'won' else 'second'}"
                           " player wins"
                           for boards in sorted({settings["boards"] for _, game, settings, _, _ in ARENA
                                                 if game == "notakto"}))
        notes.append(note("strength", solved=solved, arena_games=s.arena_games))
    if "puzzles" in facts:
        count, made = facts["puzzles"]
        notes.append(note("puzzles", puzzles=count, published=count - made, made_here=made,
                          puzzle_s=f"{s.puzzle_s:g}"))
    if "openspiel" in facts:
        first_match: dict[str, dict[str, Any]] = {}  # each game's first match, with its rules check
        for match in facts["openspiel"]:
            first_match.setdefault(match["game"], match)
        checked = "; ".join(f"{game}: {m['rules_check_games']} games, {m['rules_check_positions']:,} positions"
                            for game, m in first_match.items())
        notes.append(note("openspiel", openspiel_move_s=f"{s.openspiel_move_s:g}", openspiel_games=s.openspiel_games,
                          checked=checked, openspiel_quick=note("openspiel-quick") if s.name == "quick" else ""))
    if bench._starts:
        busy = [b for b in bench._starts if b >= Bench.QUIET]
        phases = (note("quiet-busy", busy=len(busy), phases_count=len(bench._starts), busiest=f"{max(busy):.0%}")
                  if busy else note("quiet-calm", phases_count=len(bench._starts)))
        notes.append(note("quiet", quiet=f"{Bench.QUIET:.0%}", quiet_wait_s=f"{s.quiet_wait_s:g}",
                          waited=f"{bench._waited_s:.0f}", phases=phases))
    notes.append(note("took", elapsed=f"{elapsed:.0f}"))
    return notes + bench.notes


def page(header: str, rows: Sequence[Row], notes: Sequence[str]) -> str:
    """The whole report: the template's page with the header, the tables
    (``format_report``) and the notes, one item each."""
    text = string.Template(template()[0]).substitute(
        header=header, tables=format_report("", rows).strip("\n"), notes="\n".join(f"- {n}" for n in notes))
    return text.rstrip("\n") + "\n"
