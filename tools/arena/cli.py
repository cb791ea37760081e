"""The arena's command line (``python -m tools.arena``): a match against
OpenSpiel's MCTSBot, or with ``--opponent-gtp`` against any GTP engine, and
its summary."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import ai
import tools.arena
from ai import connection
from ai.connection import solver
from core import GameError
from registry import GAMES
from tools.arena.gtp import DIALECTS, GtpOpponent, OpponentError, check_dialect, opening_cells
from tools.arena.match import GtpMatchConfig, GtpTally, MatchConfig, MatchTally, gtp_state, play_games
from tools.arena.openspiel import ADAPTERS, SpielPlayer, check_rules, make_adapter, pyspiel, sized
from tools.matches import mean

#: The columns of the Markdown row a match against OpenSpiel prints (for whoever gathers rows).
MARKDOWN_HEADER = (
    "| game | ours | s/move ours | OpenSpiel s/move | sims/decision | games | W-D-L | score | 95% CI |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


def gtp_main(options: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """The match against ``--opponent-gtp``."""
    dialect = DIALECTS[options.opponent_dialect]()
    if options.game not in dialect.games:
        parser.error(f"the {dialect.name} dialect has no {options.game}")
    if not sized(options.game) and options.size is not None:
        parser.error(f"--size applies to {' and '.join(game for game in ADAPTERS if sized(game))} only")
    size = 9 if not sized(options.game) else options.size or GAMES[options.game].setting("size").default
    try:
        state = gtp_state(options.game, size)
    except GameError as error:
        parser.error(str(error))
    try:
        openings = opening_cells(options.openings, state, options.seed)
    except GameError as error:
        parser.error(f"--openings: {error}")
    levels = ai.levels(options.game)
    if options.level is not None and options.level not in levels:
        parser.error(f"--level: one of {', '.join(levels)}")
    level = options.level or levels[-1]
    our_time = options.move_time * options.our_time_factor if options.move_time > 0 else None
    setup = tuple(command.strip() for command in options.opponent_setup.split(";") if command.strip())
    config = GtpMatchConfig(options.game, size, our_time, level, options.seed, options.gtp, options.opponent_gtp,
                            dialect.name, setup, tuple(openings), options.opponent_timeout, parts=options.parts)
    started = time.perf_counter()
    tally = GtpTally()
    stderr = open(options.opponent_stderr, "a") if options.opponent_stderr else subprocess.DEVNULL
    if options.opponent_check_games:
        checker = GtpOpponent(options.opponent_gtp, dialect, options.game, size, list(setup),
                              options.opponent_timeout, stderr)
        try:
            checked = check_dialect(checker, lambda: gtp_state(options.game, size),
                                    options.opponent_check_games, options.seed)
        except OpponentError as error:
            print(f"arena: the opponent failed the check: {error}", file=sys.stderr)
            return 1
        finally:
            checker.close()
        print(f"the opponent scores {checked} random games as our rules do", file=sys.stderr)
    colours = ADAPTERS[options.game].colours
    draws = options.game == "uttt"  # the only game with draws: shown where there are some

    def record(signs: bool) -> str:
        """+W =D -L (or W-D-L without signs); no draws for Hex and Y."""
        counts = [("+", tally.wins)] + ([("=", tally.draws)] if draws else []) + [("-", tally.losses)]
        return " ".join(f"{sign}{count}" for sign, count in counts) if signs else \
            "-".join(str(count) for _, count in counts)
    try:
        for result in play_games(config, options.games, options.jobs, stderr, options.opponent_stderr):
            mark = tally.count(result)
            if options.record:
                with options.record.open("a") as file:
                    file.write(json.dumps({"game": options.game, "size": size, "moves": result.moves,
                                           "ours": colours[result.our_colour], "result": mark}) + "\n")
            opening = "-" if result.opening is None else state.move_to_text(result.opening)
            note = (f"  forfeit: {result.forfeit}" if result.forfeit
                    else "  it stopped in a position our solver proves lost" if result.stopped_proven == solver.LOSS
                    else "  it stopped in a position our solver proves won" if result.stopped_proven == solver.WIN
                    else "  it resigned" if result.resigned
                    else f"  VOID: {result.void}" if result.void else "")
            if result.their_verdict is not None:
                note += f"  (it scores the game {result.their_verdict!r})"
            print(f"game {result.index + 1}/{options.games} (opening {opening}, we are {colours[result.our_colour]}): "
                  f"{mark}  {record(True)}  score {tally.score:.3f}  ({result.seconds:.1f} s, "
                  f"s/move ours {mean(result.our_seconds):.2f} theirs {mean(result.their_seconds):.2f}){note}",
                  file=sys.stderr)
    finally:
        if not isinstance(stderr, int):  # a file, not subprocess.DEVNULL
            stderr.close()
    elapsed = time.perf_counter() - started
    low, high = tally.interval()
    our_mean, their_mean = mean(tally.our_seconds), mean(tally.their_seconds)
    label = options.game if not sized(options.game) else f"{options.game} {size}"
    summary = {
        "game": options.game, "size": size if sized(options.game) else None, "level": level,
        "side": "gtp" if options.gtp else "in-process", "our_move_time": our_time, "opponent": options.opponent_gtp, "dialect": dialect.name,
        "setup": list(dialect.setup + setup), "openings": options.openings,
        "our_s_per_move": round(our_mean, 4), "their_s_per_move": round(their_mean, 4),
        "our_moves": len(tally.our_seconds), "their_moves": len(tally.their_seconds),
        "games": tally.games, "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
        "score": round(tally.score, 4), "ci_low": round(low, 4), "ci_high": round(high, 4),
        "forfeits": tally.forfeits, "resigns": tally.resigns, "void": tally.void,
        "disagreements": tally.disagreements, "stopped_proven": tally.stopped, "without": options.without,
        "with": options.with_parts,
        "seed": options.seed, "elapsed_s": round(elapsed, 1),
    }
    if options.json:
        print(json.dumps(summary))
        return 0
    budget = "own budget" if our_time is None else f"{our_time:g} s/move"
    print(f"{label} {level} ({summary['side']}, {budget}) vs {options.opponent_gtp!r} "
          f"[{dialect.name}; {'; '.join(summary['setup']) or 'no setup'}]: {record(True)} "
          f"in {tally.games} games, score {tally.score:.1%} (95% CI {low:.1%}-{high:.1%}); "
          f"s/move ours {our_mean:.2f}, theirs {their_mean:.2f}; forfeits {len(tally.forfeits)}, "
          f"resigns {tally.resigns}, void {len(tally.void)}, result disagreements {len(tally.disagreements)}; "
          f"{elapsed / 60:.1f} min")
    for line in tally.forfeits + tally.stopped + tally.void + tally.disagreements:
        print(f"  {line}")
    print(f"| {label} | {level} | {our_mean:.2f} | {their_mean:.2f} | {tally.games} | {record(False)} | "
          f"{tally.score:.1%} | {low:.1%}-{high:.1%} |")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.arena", description=tools.arena.__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="uttt", choices=list(ADAPTERS))
    parser.add_argument("--size", type=int, help="the board's side, for " + ", ".join(
        f"{game} (default {GAMES[game].setting('size').default})" for game in ADAPTERS if sized(game)))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--move-time", type=float, default=1.0,
                        help="OpenSpiel's seconds per move (with --opponent-gtp: ours; 0: our level's own budget)")
    parser.add_argument("--our-time-factor", type=float, default=1.0, help="our time = factor x move time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gtp", action="store_true", help="play our side through py/gtp.py")
    parser.add_argument("--check-games", type=int, default=200, help="random games for the rules check")
    parser.add_argument("--calibration-sims", type=int, default=SpielPlayer.CALIBRATION_SIMS,
                        help="OpenSpiel's simulations per timed search when measuring its speed")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, in worker processes")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    gtp = parser.add_argument_group("a GTP engine as the opponent (instead of OpenSpiel)")
    gtp.add_argument("--opponent-gtp", metavar="COMMAND", help='its command line, e.g. "mohex --use-logfile=0"')
    gtp.add_argument("--opponent-setup", default="", metavar="CMDS",
                     help="GTP commands, separated by ';', sent after boardsize and clear_board each game")
    gtp.add_argument("--opponent-dialect", default="ours", choices=list(DIALECTS),
                     help="its notation (default: ours, docs/gtp.md)")
    gtp.add_argument("--openings", default="random",
                     help="first stones of the game pairs: random (seeded order of every cell), all, none, "
                          "or cells in our notation, comma-separated")
    gtp.add_argument("--level", help="our level (default the strongest); with --move-time 0 its own budget")
    parser.add_argument("--without", default="", metavar="PARTS",
                        help="hex, y: parts of our engine's knowledge switched off, comma-separated, for "
                             "ablation matches (see ai.connection.KNOWN_PARTS)")
    parser.add_argument("--with", dest="with_parts", default="", metavar="PARTS",
                        help="hex, y: parts of our engine's knowledge that are off by default switched on")
    gtp.add_argument("--opponent-timeout", type=float, default=120.0, help="seconds to wait for any answer")
    gtp.add_argument("--opponent-stderr", metavar="FILE", help="append the opponent's standard error here")
    gtp.add_argument("--record", metavar="FILE", type=Path,
                     help="append each game here, one JSON line: its moves, our colour and the winner")
    gtp.add_argument("--opponent-check-games", type=int, default=10,
                     help="random games told to the opponent first, its verdicts compared with ours (0: none)")
    options = parser.parse_args(argv)
    try:
        options.parts = (connection.choose_parts(options.without, options.with_parts)
                         if options.without or options.with_parts else None)
    except ValueError as error:
        parser.error(f"--without/--with: {error}")
    if options.opponent_gtp:
        return gtp_main(options, parser)
    if not sized(options.game) and options.size is not None:
        parser.error(f"--size applies to {' and '.join(game for game in ADAPTERS if sized(game))} only")
    try:
        adapter = make_adapter(options.game, options.size)
    except GameError as error:
        parser.error(str(error))
    if pyspiel is None:
        print("arena: OpenSpiel is missing: pip install -r requirements-bench.txt", file=sys.stderr)
        return 2
    started = time.perf_counter()
    positions = check_rules(adapter, options.check_games, options.seed)
    print(f"rules agree with OpenSpiel: {options.check_games} random games, {positions} positions", file=sys.stderr)

    our_time = options.move_time * options.our_time_factor
    calibrated = SpielPlayer(adapter, options.move_time, options.seed, calibration_sims=options.calibration_sims)
    plies = tuple(k * (adapter.max_plies // 4) for k in range(4))
    rates = ", ".join(f"{calibrated.rate(ply):.0f}" for ply in plies)
    print(f"OpenSpiel MCTSBot: {rates} simulations/s at plies {', '.join(map(str, plies))}", file=sys.stderr)
    size = adapter.size if sized(options.game) else None
    config = MatchConfig(options.game, size, options.move_time, our_time, options.seed, options.gtp,
                         calibrated.rates, parts=options.parts)
    tally = MatchTally()
    for result in play_games(config, options.games, options.jobs):
        mark = tally.count(result)
        print(f"game {result.index + 1}/{options.games} (we are {adapter.colours[result.our_colour]}): {mark}  "
              f"+{tally.wins} ={tally.draws} -{tally.losses}  score {tally.score:.3f}  ({result.seconds:.1f} s)",
              file=sys.stderr)
    elapsed = time.perf_counter() - started
    low, high = tally.interval()
    our_mean, their_mean = mean(tally.our_seconds), mean(tally.their_seconds)
    sims = mean(tally.simulations)
    level = ai.levels(options.game)[-1]
    side = "gtp" if options.gtp else "in-process"
    if options.json:
        print(json.dumps({
            "game": options.game, "size": size, "level": level, "side": side,
            "move_time": options.move_time, "our_move_time": our_time,
            "our_s_per_move": round(our_mean, 4), "their_s_per_move": round(their_mean, 4),
            "sims_per_decision": round(sims), "games": tally.games,
            "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
            "score": round(tally.score, 4), "ci_low": round(low, 4), "ci_high": round(high, 4),
            "rules_check_games": options.check_games, "rules_check_positions": positions,
            "s_per_game": round(mean(tally.game_seconds), 2),
            "jobs": options.jobs, "seed": options.seed, "elapsed_s": round(elapsed, 1),
        }))
        return 0
    print(f"{adapter.label} {level} ({side}, {our_time:g} s/move) vs OpenSpiel MCTSBot ({options.move_time:g} s/move, "
          f"~{sims:.0f} sims/decision): +{tally.wins} ={tally.draws} -{tally.losses} in {tally.games} games, "
          f"score {tally.score:.1%} (95% CI {low:.1%}-{high:.1%}); s/move ours {our_mean:.2f}, "
          f"theirs {their_mean:.2f}; {elapsed / 60:.1f} min")
    print(f"| {adapter.label} | {level} ({side}) | {our_mean:.2f} | {their_mean:.2f} | {sims:.0f} | {tally.games} | "
          f"{tally.wins}-{tally.draws}-{tally.losses} | {tally.score:.1%} | {low:.1%}-{high:.1%} |")
    return 0
