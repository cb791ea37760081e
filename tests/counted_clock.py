"""The tests' clock for the engines: seconds budgets counted in clock reads.

Each test module whose engines think (those of tests/ai/, and
tests/app/test_analysis.py) imports ``counted_clock``, an
autouse fixture (a module of its own, not a conftest.py: e2e/'s test
modules import their helpers from a module named conftest, which a second
conftest.py would shadow).

Every search, the exact solver and the levels' time caps read
``time.perf_counter`` to know when their budget is spent. Here it is a
counter that moves ``CLOCK_STEP`` seconds each time it is read, so a
budget of seconds ends after a fixed number of reads (one every 16 UTTT
playouts, every 8 Hex or Y playouts, every 256 steps of the solver),
whatever the machine's speed or load: a test's result does not depend on
the machine. How fast the engines really are is the bench's to measure
(``make bench``: engine rates, move times per level, the solver, Notakto's
perfect play), not the unit tests'.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator

import pytest

#: Seconds the counted clock moves at each reading: about the time the
#: engines spend between two readings under CPython, so that a budget buys
#: about the search it buys on a developer's machine.
CLOCK_STEP = 0.001


def counted(step: float) -> Callable[[], float]:
    """A stand-in for ``time.perf_counter``: ``step`` seconds a reading."""
    readings = itertools.count(1)
    return lambda: 1000.0 + step * next(readings)


@pytest.fixture(autouse=True)
def counted_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], float]]:
    clock = counted(CLOCK_STEP)
    monkeypatch.setattr(time, "perf_counter", clock)
    yield clock
