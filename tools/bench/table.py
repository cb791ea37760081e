"""The bench's figures as Markdown: cells, rows, tables, the report's body."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tools.bench.stats import Ratio, Stat


def format_ms(seconds: float) -> str:
    """Milliseconds with about three significant digits."""
    ms = seconds * 1000
    for limit, decimals in ((100, 0), (10, 1), (1, 2), (0.1, 3)):
        if ms >= limit:
            return f"{ms:.{decimals}f}"
    return f"{ms:.4f}"


def format_rate(value: float) -> str:
    """A count per second with three significant digits and thousands separators."""
    if value <= 0:
        return "0"
    exponent = math.floor(math.log10(value))
    if exponent >= 2:
        return f"{round(value, 2 - exponent):,.0f}"
    return f"{value:.{2 - exponent}f}"


def format_bytes(count: float) -> str:
    """Decimal units (1 MB = 1,000,000 bytes), as browsers' tools show them."""
    if count >= 1e6:
        return f"{count / 1e6:.2f} MB"
    if count >= 1e3:
        return f"{count / 1e3:.1f} kB"
    return f"{count:.0f} B"


def format_percent(fraction: float) -> str:
    return f"{fraction * 100:.1f}%"


def format_ratio(value: float) -> str:
    return f"{value:.2f}×"


FORMATS: dict[str, Callable[[float], str]] = {"ms": format_ms, "/s": format_rate, "B": format_bytes}


def format_cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, Stat):
        show = FORMATS[value.unit]
        return f"{show(value.median)} ({show(value.p10)}–{show(value.p90)})"
    if isinstance(value, Ratio):
        if value.p10 is None or value.p90 is None:
            return format_ratio(value.median)
        return f"{format_ratio(value.median)} ({value.p10:.2f}–{value.p90:.2f})"
    return str(value)


def verdict(met: bool) -> str:
    return "yes" if met else "**NO**"


def at_most(ratio: float, target: float) -> bool:
    """Whether a ratio meets an upper target at the precision it is shown (2 decimals)."""
    return round(ratio, 2) <= target


def at_least(ratio: float, target: float) -> bool:
    return round(ratio, 2) >= target


@dataclass
class Row:
    """One line of one table: ``cells`` maps column names to values (Stat,
    Ratio, or anything printable); the first column names the row. A table's
    columns are those of its rows, in the order first met; a missing cell
    prints as —."""

    table: str
    cells: dict[str, Any]


def format_table(title: str, rows: Sequence[Row]) -> str:
    columns: list[str] = []
    for row in rows:
        columns += [name for name in row.cells if name not in columns]
    body = [[format_cell(row.cells.get(name)) for name in columns] for row in rows]
    numeric = [
        index > 0 and all(isinstance(row.cells.get(name), (Stat, Ratio, int, float)) or row.cells.get(name) is None
                          for row in rows)
        for index, name in enumerate(columns)
    ]
    widths = [max(len(name), 3, *(len(line[i]) for line in body)) for i, name in enumerate(columns)]

    def line(cells: Iterable[str]) -> str:
        padded = [cell.rjust(w) if right else cell.ljust(w) for cell, w, right in zip(cells, widths, numeric)]
        return "| " + " | ".join(padded) + " |"

    rule = ["-" * (w - 1) + ":" if right else "-" * w for w, right in zip(widths, numeric)]
    return "\n".join([f"### {title}", "", line(columns), line(rule), *(line(cells) for cells in body)])


def format_report(header: str, rows: Sequence[Row], notes: Sequence[str] = ()) -> str:
    """The header line, one table per title (in the order first met), notes."""
    titles: list[str] = []
    for row in rows:
        if row.table not in titles:
            titles.append(row.table)
    parts = [header]
    parts += [format_table(title, [row for row in rows if row.table == title]) for title in titles]
    if notes:
        parts.append("\n".join(f"- {note}" for note in notes))
    return "\n\n".join(parts) + "\n"
