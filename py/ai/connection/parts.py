"""The parts of the connection engine's knowledge that can be switched
off, for ablation matches: their names, the default, and a choice of them."""

from __future__ import annotations

#: The parts of the engine's knowledge that can be switched off, for the
#: ablation matches (``python -m tools.arena --without``, ``py/gtp.py --without``):
#: "priors", the pattern priors as progressive bias; "inferior", the
#: fill-in of dead and captured cells (``ai.connection.inferior``) at every node the
#: analysis reaches, which drops them from its moves and fills them for
#: the search and the playouts below it; "root_vc", on positions too
#: big for the exact solver, its H-search at the root (a win by virtual
#: connection, else only the opponent's must-play region is searched);
#: "tree_vc", the same H-search at the tree's most visited nodes;
#: "tree_solver", the exact solver on the root's most visited moves in
#: small positions (``TREE_SOLVE_AT``); "templates", the edge templates
#: H-search adds (``ai.connection.bitboard.TEMPLATES``), wherever it runs;
#: "selection", master's own way of picking moves (``MASTER_SELECTION``;
#: off, master picks as the levels below do); "dominated", master's
#: dropping of the dominated cells at the analysed nodes: off unless
#: switched on (``python -m tools.arena --with``): sound, but it scored 8 of 40
#: against MoHex where the same engine without it scored 21 of 60 on the
#: same openings (issue 16).
KNOWN_PARTS = ("priors", "inferior", "root_vc", "tree_vc", "tree_solver", "templates", "selection", "dominated")
#: The parts that are on unless an engine is told otherwise (all but
#: "dominated", but in those matches). An engine's parts are its own
#: (``Engine(parts=...)``, ``ai.new_engine(game, parts)``), handed to each
#: search it makes: nothing here changes while the engines run.
DEFAULT_PARTS: frozenset[str] = frozenset(KNOWN_PARTS) - {"dominated"}


def part_names(names: str) -> list[str]:
    """The comma-separated part names of ``names`` (ValueError for a name
    not in ``KNOWN_PARTS``)."""
    found = [part.strip() for part in names.split(",") if part.strip()]
    for name in found:
        if name not in KNOWN_PARTS:
            raise ValueError(f"unknown part {name!r} (parts: {', '.join(KNOWN_PARTS)})")
    return found


def choose_parts(without: str = "", with_: str = "", base: frozenset[str] = DEFAULT_PARTS) -> frozenset[str]:
    """``base`` less the comma-separated parts in ``without``, plus those in
    ``with_`` (the ``--without`` and ``--with`` of GTP and the arena);
    ValueError for a name not in ``KNOWN_PARTS``."""
    return (base - set(part_names(without))) | set(part_names(with_))
