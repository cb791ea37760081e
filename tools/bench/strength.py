"""Strength: Notakto's strongest level against random play and the weaker
levels, here; the searching games' against OpenSpiel's MCTSBot, through the
arena (``python -m tools.arena``)."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
from typing import Any

import ai
import registry
from core import GameState
from registry import STATES as GAMES
from tools.bench import ROOT, BenchError, progress
from tools.bench.engines import SEARCHES, board_of, game_label
from tools.bench.places import Bench
from tools.bench.settings import Settings
from tools.bench.table import Row, format_percent, verdict
from tools.matches import Tally, first_seat

STRENGTH_TITLE = "Strength: arena matches of the strongest level, colours alternating (CPython)"
OPENSPIEL_TITLE = ("Strength against a plain UCT search in C++ (OpenSpiel's MCTSBot, random playouts), colours "
                   "alternating (ours under CPython)")

RANDOM = "random"  # a player that picks uniformly among the legal moves


def arena_move(state: GameState, player: str, rng: random.Random) -> int:
    """``player``'s move: a level of the game's AI, or ``RANDOM``."""
    if player == RANDOM:
        return rng.choice(state.legal_moves())
    return ai.choose_move(state, player, seed=rng.getrandbits(31))


def play_match(game: str, settings: dict[str, Any], ours: str, theirs: str, games: int, seed: int) -> Tally:
    """``games`` games of ``ours`` against ``theirs``, who alternate the first
    move (ours first in game 0); each game is seeded on its own."""
    tally = Tally()
    for index in range(games):
        seat = first_seat(index)
        rng = random.Random(f"arena|{game}|{json.dumps(settings, sort_keys=True)}|{ours}|{theirs}|{seed}|{index}")
        state = GAMES[game].from_settings(settings)
        while not state.is_over():
            state.push(arena_move(state, ours if state.turn == seat else theirs, rng))
        outcome = state.outcome()
        assert outcome is not None
        tally.add(seat, outcome.winner)
    return tally


#: Arena pairings played here, in CPython: (game label, game, settings, our
#: strongest level, its opponents): Notakto, which has no OpenSpiel match,
#: on its default and its largest board, against random play and each
#: weaker level.
_NOTAKTO = registry.GAMES["notakto"]
ARENA: list[tuple[str, str, dict[str, Any], str, tuple[str, ...]]] = [
    (game_label("notakto", board), "notakto", board, _NOTAKTO.levels.strongest, (RANDOM, *_NOTAKTO.levels.names[:-1]))
    for board in (board_of("notakto"), board_of("notakto", max(_NOTAKTO.setting("boards").values)))
]


def strength_row(game: str, ours: str, opponent: str, tally: Tally) -> Row:
    low, high = tally.interval()
    first, second = Tally.score_of(tally.first), Tally.score_of(tally.second)
    return Row(STRENGTH_TITLE, {
        "game": game, "ours": ours, "opponent": opponent, "games": tally.games,
        "W-D-L": f"{tally.wins}-{tally.draws}-{tally.losses}", "score": format_percent(tally.score),
        "95% CI": f"{format_percent(low)}–{format_percent(high)}",
        "score moving first · second": " · ".join("—" if x is None else format_percent(x) for x in (first, second)),
    })


def strength(bench: Bench) -> list[Row]:
    rows = []
    games = bench.settings.arena_games
    for label, game, settings, ours, opponents in ARENA:
        for opponent in opponents:
            progress(f"arena: {label}, {ours} vs {opponent}, {games} games")
            rows.append(strength_row(label, ours, opponent, play_match(game, settings, ours, opponent, games, bench.seed)))
    bench.facts["strength"] = games
    return rows


#: Matches against OpenSpiel's MCTSBot (``python -m tools.arena``, in a subprocess):
#: (label, game, size or None) for each searching game (the arena
#: translates its moves), each at equal time and at half time. Boards of
#: side 11 (Hex's default; Y's is 13), as in docs/strength.md.
OPENSPIEL_SIZE = 11
OPENSPIEL: list[tuple[str, str, int | None]] = [
    (game_label(game, board_of(game, OPENSPIEL_SIZE)), game, board_of(game, OPENSPIEL_SIZE).get("size"))
    for _, game, _ in SEARCHES
]
TARGET_EQUAL_TIME = 0.6  # the strongest level's score against OpenSpiel at equal time
TARGET_HALF_TIME = 0.5  # and with half OpenSpiel's time
#: A game's own time factors and targets, where they are not those two
#: (full mode; quick mode plays ``openspiel_factors`` and judges nothing):
#: Ultimate Tic-Tac-Toe at equal time and a quarter of it (issue 17).
OPENSPIEL_TARGETS: dict[str, tuple[tuple[float, float], ...]] = {"uttt": ((1.0, 0.75), (0.25, 0.6))}


def openspiel_plan(game: str, settings: Settings) -> tuple[tuple[float, float | None], ...]:
    """The matches of one game against OpenSpiel: (our time factor, the
    score it should reach or None). Full mode plays the game's own factors;
    quick mode plays ``settings.openspiel_factors`` (and judges nothing)."""
    own = OPENSPIEL_TARGETS.get(game, ((1.0, TARGET_EQUAL_TIME), (0.5, TARGET_HALF_TIME)))
    if settings.name != "quick":
        return own
    return tuple((factor, dict(own).get(factor)) for factor in settings.openspiel_factors)


def run_arena(game: str, size: int | None, games: int, move_time: float, factor: float, check_games: int,
              seed: int, calibration_sims: int = 2000) -> dict[str, Any]:
    """One match of the arena (our strongest level, CPython, against
    OpenSpiel's MCTSBot), its JSON summary."""
    command = [sys.executable, "-m", "tools.arena", "--game", game, "--games", str(games),
               "--move-time", str(move_time), "--our-time-factor", str(factor), "--check-games", str(check_games),
               "--seed", str(seed), "--jobs", str(min(2, os.cpu_count() or 1)), "--json",
               "--calibration-sims", str(calibration_sims)]
    if size is not None:
        command += ["--size", str(size)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"python -m tools.arena --game {game} failed ({done.returncode}): {done.stderr.strip()[-800:]}")
    return json.loads(done.stdout)


def openspiel_strength(bench: Bench) -> list[Row]:
    """The strongest level of each searching game against a plain UCT search
    in C++ (OpenSpiel's MCTSBot), at equal and at half time per move."""
    s = bench.settings
    if importlib.util.find_spec("pyspiel") is None:
        bench.notes.append("**OpenSpiel is not installed** (`pip install -r requirements-bench.txt`; `make bench` "
                           "does it): no matches against it were played.")
        return []
    rows = []
    for label, game, size in OPENSPIEL:
        for factor, target in openspiel_plan(game, s):
            progress(f"arena: {label} against OpenSpiel MCTSBot, our time ×{factor:g}, {s.openspiel_games} games")
            bench.settle()
            found = run_arena(game, size, s.openspiel_games, s.openspiel_move_s, factor, s.openspiel_check_games,
                              bench.seed, 2000 if s.name == "full" else 300)
            bench.facts.setdefault("openspiel", []).append(found)
            score = found["score"]
            rows.append(Row(OPENSPIEL_TITLE, {
                "game": label, "ours": f"{found['level']} ({factor:g}× time)",
                "opponent": f"OpenSpiel MCTSBot, {s.openspiel_move_s:g} s/move (~{found['sims_per_decision']:,.0f} "
                            "simulations)",
                "games": found["games"], "W-D-L": f"{found['wins']}-{found['draws']}-{found['losses']}",
                "score": format_percent(score),
                "95% CI": f"{format_percent(found['ci_low'])}–{format_percent(found['ci_high'])}",
                "s/move ours · theirs": f"{found['our_s_per_move']:.2f} · {found['their_s_per_move']:.2f}",
                "target": "—" if target is None else "not judged in quick mode" if s.name == "quick" else (
                    f"≥ {target:.0%}: {verdict(score >= target)}"
                    + (" (CI above)" if found["ci_low"] >= target else " (CI spans it)" if found["ci_high"] >= target
                       else " (CI below)")),
            }))
    return rows
