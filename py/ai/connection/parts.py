"""The parts of the connection engine's knowledge that can be switched
off, for ablation matches."""

from __future__ import annotations

from . import solver

#: ablation matches (``tools/arena.py --without``, ``py/gtp.py --without``):
#: "priors", the pattern priors as progressive bias; "inferior", the
#: fill-in of dead and captured cells (``ai.inferior``) at every node the
#: analysis reaches, which drops them from its moves and fills them for
#: the search and the playouts below it; "root_vc", on positions too
#: big for the exact solver, its H-search at the root (a win by virtual
#: connection, else only the opponent's must-play region is searched);
#: "tree_vc", the same H-search at the tree's most visited nodes;
#: "tree_solver", the exact solver on the root's most visited moves in
#: small positions (``TREE_SOLVE_AT``); "templates", the edge templates
#: H-search adds (``ai.solver.TEMPLATES``), wherever it runs;
#: "selection", master's own way of picking moves (``MASTER_SELECTION``;
#: off, master picks as the levels below do); "dominated", master's
#: dropping of the dominated cells at the analysed nodes: off unless
#: switched on (``tools/arena.py --with``): sound, but it scored 8 of 40
#: against MoHex where the same engine without it scored 21 of 60 on the
#: same openings (README, issue 16).
KNOWN_PARTS = ("priors", "inferior", "root_vc", "tree_vc", "tree_solver", "templates", "selection", "dominated")
#: The parts that are on (all but "dominated", but in those matches).
PARTS = set(KNOWN_PARTS) - {"dominated"}


def _part_names(names: str) -> list[str]:
    """The comma-separated part names of ``names`` (ValueError for a name
    not in ``KNOWN_PARTS``)."""
    found = [part.strip() for part in names.split(",") if part.strip()]
    for name in found:
        if name not in KNOWN_PARTS:
            raise ValueError(f"unknown part {name!r} (parts: {', '.join(KNOWN_PARTS)})")
    return found


def switch_off(names: str) -> None:
    """Turn off the comma-separated parts in ``names`` for this process."""
    PARTS.difference_update(_part_names(names))
    _tell_solver()


def switch_on(names: str) -> None:
    """Turn on the comma-separated parts in ``names`` for this process."""
    PARTS.update(_part_names(names))
    _tell_solver()


def _tell_solver() -> None:
    """The solver's own switch follows ``PARTS`` (its tables, built with
    or without the templates, are dropped when it changes)."""
    wanted = "templates" in PARTS
    if solver.USE_TEMPLATES != wanted:
        solver.USE_TEMPLATES = wanted
        solver.clear()

