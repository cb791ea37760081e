"""Play our strongest level of UTTT, Hex or Y against OpenSpiel's MCTSBot,
or against any GTP engine (Hex, Y, and UTTT in our dialect).

    python -m tools.arena --game uttt --games 40 --move-time 1.0 [--our-time-factor 0.5] [--gtp]
    python -m tools.arena --game hex --size 11 --games 40 --move-time 1.0 [--jobs 2] [--json]
    python -m tools.arena --game y --size 11 --games 40 --move-time 1.0
    python -m tools.arena --game hex --size 11 --games 20 --move-time 2 \
        --opponent-gtp "/path/to/mohex --use-logfile=0" --opponent-dialect mohex \
        --opponent-setup "param_mohex max_games 100; param_mohex num_threads 1"
    python -m tools.arena --game uttt --games 100 --move-time 0.25 --jobs 2 \
        --opponent-gtp "python3 /tmp/then/py/gtp.py --game uttt --move-time 0.25"

Our side runs in this process (an ``ai.new_engine`` per game at the game's
strongest level, tree reuse included) or, with ``--gtp``, as the GTP engine
``py/gtp.py`` in a subprocess (one per game). Colours alternate, games are
seeded, and with ``--jobs N`` they are played in N worker processes, each
game on its own, the results merged in game order. Output: progress on
stderr, then a one-line summary and a Markdown table row on stdout, or with
``--json`` the summary as one JSON object on stdout.

The summary gives the games, wins and losses, the score with its 95%
Wilson interval, the mean wall seconds per move of both sides, and the
forfeits, resignations, void games and disagreements.

The package: ``openspiel`` (the two engines' views of a game, the rules
check, OpenSpiel's MCTSBot as the opponent), ``gtp`` (any GTP engine as the
opponent: dialects, the process, the referee's checks), ``players`` (our
side), ``match`` (one match loop for both opponents, its games in worker
processes) and ``cli`` (the command line and its summaries).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))  # the app's modules: ai, core, registry
