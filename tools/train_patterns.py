"""Fit the Hex and Y move priors of ``ai.connection.patterns`` to games of strong play.

    python tools/train_patterns.py --game hex --games games.jsonl --out priors.json [--min-count 20]
    python tools/train_patterns.py --game hex --selfplay "CMD ARGS" --setup "CMD; CMD" --size 11 \
        --count 40 --games games.jsonl [--seed 1] [--opening-stones 2]

The second form makes the games: a GTP engine (its command line) plays
itself, ``--count`` new games on a ``--size`` board without the swap rule,
each opened with ``--opening-stones`` random stones (seeded; one by
default) so that the games differ; the setup commands go to the engine
after ``boardsize``. The games are appended to ``--games``, one a line,
as the first form reads them, except a game that repeats one already
there; a game ends when the rules say so, or when the engine resigns or
stops. (Any engine that speaks GTP with the notation of docs/gtp.md will
do; for the committed priors it was MoHex 2.0, see docs/priors.md.)

``--games``: one game a line, JSON ``{"game": "hex", "size": 11, "moves":
["f6", "e7", ...]}`` in the notation of docs/gtp.md (the swap, if any,
spelled ``swap``; the games may be of any size), each game read once
(a repeat of an earlier line is left out). Every position with at
least one stone is a *competition*: every empty cell is a candidate, with
two features (its pattern, and how it lies to the last move), and the move
played is the winner. Patterns met fewer than ``--min-count`` times as a
candidate share one feature, the "rare" one, which is also the weight of
any pattern the priors have never seen.

The model is Coulom's generalised Bradley-Terry one ("Computing Elo
ratings of move patterns in the game of Go", 2007): a candidate's strength
is the product of its features' gammas, and it wins its competition with
probability strength / (sum of all candidates' strengths). The gammas are
fitted by minorization-maximization (``fit``), one feature group at a
time, with a prior of one virtual win and one virtual loss against a
gamma-1 opponent per feature (so an unseen win cannot drive a gamma to
infinity). Output: JSON ``{"game", "positions", "patterns": {number:
gamma}, "rare": gamma, "last": [near, bridge, far]}`` with the log
likelihood per move before and after, printed on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's root: tools.arena

from ai.connection import patterns
from core.hex import ConnectionState
from registry import STATES
from tools.arena.gtp import DIALECTS, GtpProcess, OpponentError

#: The longest a self-playing engine may think about one move (seconds).
MOVE_TIMEOUT = 600.0

#: A competition: the candidates as (feature per group, how many
#: candidates have exactly those features), and the winner's features.
Competition = tuple[list[tuple[tuple[int, ...], int]], tuple[int, ...]]


def fit(competitions: Sequence[Competition], groups: int, iterations: int = 30) -> list[dict[int, float]]:
    """The gammas of every feature (``[group][feature]``) by MM."""
    gammas: list[dict[int, float]] = [{} for _ in range(groups)]
    wins: list[Counter[int]] = [Counter() for _ in range(groups)]
    for candidates, winner in competitions:
        for g in range(groups):
            wins[g][winner[g]] += 1
        for features, _ in candidates:
            for g in range(groups):
                gammas[g].setdefault(features[g], 1.0)

    for _ in range(iterations):
        for g in range(groups):
            table = gammas[g]
            denominators: defaultdict[int, float] = defaultdict(float)
            for candidates, _ in competitions:
                strengths = [strength_of(features, gammas) for features, _ in candidates]
                total = sum(value * count for value, (_, count) in zip(strengths, candidates))
                for value, (features, count) in zip(strengths, candidates):
                    feature = features[g]
                    denominators[feature] += value / table[feature] * count / total
            for feature, gamma in table.items():
                table[feature] = (wins[g][feature] + 1.0) / (denominators[feature] + 2.0 / (gamma + 1.0))
            # Scale-free: keep the group's geometric mean at 1.
            mean = math.exp(sum(math.log(v) for v in table.values()) / len(table))
            for feature in table:
                table[feature] /= mean
    return gammas


def strength_of(features: tuple[int, ...], gammas: Sequence[dict[int, float]]) -> float:
    """A candidate's strength under ``gammas`` (a feature they lack: 1)."""
    value = 1.0
    for g, table in enumerate(gammas):
        value *= table.get(features[g], 1.0)
    return value


def log_likelihood(competitions: Sequence[Competition], gammas: Sequence[dict[int, float]]) -> float:
    """The mean log probability of the moves played, under ``gammas``."""
    total = 0.0
    for candidates, winner in competitions:
        total += math.log(strength_of(winner, gammas)
                          / sum(strength_of(f, gammas) * n for f, n in candidates))
    return total / max(1, len(competitions))


def top_share(competitions: Sequence[Competition], gammas: Sequence[dict[int, float]]) -> float:
    """How often the move played is the strongest candidate (a tie with k
    others counts 1 / (k + 1))."""
    score = 0.0
    for candidates, winner in competitions:
        best = strength_of(winner, gammas)
        strengths = [(strength_of(f, gammas), n) for f, n in candidates]
        if not any(value > best for value, _ in strengths):
            score += 1.0 / sum(n for value, n in strengths if value == best)
    return score / max(1, len(competitions))


RARE = -1  # the shared feature of the rare patterns


def competitions_of(game: str, records: Iterable[dict]) -> list[list[tuple[tuple[int, int], bool]]]:
    """Per position of every game: each empty cell's (pattern, last
    relation) and whether it was the move played."""
    out = []
    for record in records:
        if record.get("game", game) != game:
            continue
        state = STATES[game].from_settings({"size": record["size"], "swap": "swap" in record["moves"]})
        assert isinstance(state, ConnectionState)  # Hex or Y
        table = patterns.tables(game, record["size"])
        last = None
        for text in record["moves"]:
            move = state.parse_move(text)
            if text != "swap" and last is not None:
                owners = state.owners()
                mover = state.turn
                position = []
                for cell in range(table.cells):
                    if owners[cell] < 0:
                        position.append(((table.pattern(owners, cell, mover), table.last_relation(cell, last)),
                                         cell == move))
                out.append(position)
            state.push(move)
            if text != "swap":
                last = move
    return out


def compress(positions: Sequence[Sequence[tuple[tuple[int, int], bool]]], keep: set[int]) -> list[Competition]:
    """The positions as competitions, rare patterns merged into ``RARE``."""
    out: list[Competition] = []
    for position in positions:
        counts: Counter[tuple[int, ...]] = Counter()
        winner: tuple[int, ...] = ()
        for (pattern, last), played in position:
            features = (pattern if pattern in keep else RARE, last)
            counts[features] += 1
            if played:
                winner = features
        if winner:
            out.append((list(counts.items()), winner))
    return out


def read_games(path: Path) -> list[dict]:
    """The games of a file (see the module doc), each once: a game that
    repeats one before it, move for move, is left out (an engine that plays
    itself without randomness repeats its games from the same opening)."""
    games, seen = [], set()
    for line in path.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            key = (record.get("game"), record.get("size"), tuple(record["moves"]))
            if key not in seen:
                seen.add(key)
                games.append(record)
    return games


def selfplay(game: str, command: str, setup: str, size: int, count: int, seed: int, out: Path,
             dialect_name: str = "ours", opening_stones: int = 1) -> None:
    """``count`` new games of the engine against itself, appended to
    ``out`` (see the module doc), its colours and cells read and written in
    its dialect (``tools.arena.gtp.DIALECTS``). Our rules engine referees every move.
    Each game opens with ``opening_stones`` random stones, one a side in
    turn; a game that repeats one already in ``out`` is not written (MoHex
    2.0 at a fixed number of simulations often plays the same game again
    from the same first stone, whatever its seed), and after ``4 * count``
    games played the run stops with what it has."""
    rng = random.Random(seed)
    dialect = DIALECTS[dialect_name]()
    known = {tuple(record["moves"]) for record in read_games(out)} if out.exists() else set()
    written = played = 0
    engine = GtpProcess(command, MOVE_TIMEOUT)

    def ask(line: str) -> str:
        ok, answer = engine.send(line)
        if not ok:
            raise OpponentError(f"{line!r}: {answer}")
        return answer

    stopped = False  # whether the engine stopped during the last game
    try:
        while written < count and played < 4 * count:
            played += 1
            if stopped or engine.process.poll() is not None:
                engine.close()
                engine = GtpProcess(command, MOVE_TIMEOUT)
            stopped = False
            ask(f"boardsize {size}")
            ask("clear_board")
            for line in [*dialect.setup, *filter(None, (part.strip() for part in setup.split(";")))]:
                ask(line)
            state = STATES[game].from_settings({"size": size, "swap": False})
            for _ in range(opening_stones):
                stone = rng.choice(state.legal_moves())
                ask(f"play {dialect.colour(state.turn)} {dialect.to_text(state, stone)}")
                state.push(stone)
            while not state.is_over():
                try:
                    text = ask(f"genmove {dialect.colour(state.turn)}").lower()
                except OpponentError:  # MoHex 2.0 may stop once it sees its loss (it prints why on stderr)
                    stopped = True
                    break
                if text == "resign":
                    break
                state.push(dialect.from_text(state, text))
            moves = [state.move_to_text(m) for m in state.moves]
            if tuple(moves) in known:
                print(f"game {played}: {len(moves)} moves, a repeat: not written", file=sys.stderr, flush=True)
                continue
            known.add(tuple(moves))
            with out.open("a") as file:
                file.write(json.dumps({"game": game, "size": size, "moves": moves}) + "\n")
            written += 1
            print(f"game {played}: {len(moves)} moves, new game {written}/{count}", file=sys.stderr, flush=True)
    finally:
        engine.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["hex", "y"], required=True)
    parser.add_argument("--games", type=Path, required=True, help="JSON lines, one game each")
    parser.add_argument("--out", type=Path, help="the fitted priors (JSON)")
    parser.add_argument("--selfplay", help="make games instead: a GTP engine's command line")
    parser.add_argument("--setup", default="", help="GTP commands after boardsize, ';'-separated")
    parser.add_argument("--dialect", default="ours", choices=list(DIALECTS),
                        help="the self-playing engine's notation (see tools/arena/gtp.py)")
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--count", type=int, default=20, help="new games to make")
    parser.add_argument("--opening-stones", type=int, default=1,
                        help="random stones that open each self-play game, one a side in turn")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-count", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--holdout", type=float, default=0.0,
                        help="the share of the games (the last ones) kept out of the fit, to test it on")
    args = parser.parse_args(argv)
    if args.selfplay:
        selfplay(args.game, args.selfplay, args.setup, args.size, args.count, args.seed, args.games, args.dialect,
                 args.opening_stones)
        return 0
    if args.out is None:
        parser.error("--out is needed to fit")
    records = read_games(args.games)
    tested = int(len(records) * args.holdout)
    training, test = records[:len(records) - tested], records[len(records) - tested:]
    positions = competitions_of(args.game, training)
    seen: Counter[int] = Counter(features[0] for position in positions for features, _ in position)
    keep = {pattern for pattern, count in seen.items() if count >= args.min_count}
    competitions = compress(positions, keep)
    before = log_likelihood(competitions, [{}, {}])
    gammas = fit(competitions, 2, args.iterations)
    after = log_likelihood(competitions, gammas)
    print(f"{len(training)} games, {len(competitions)} positions, {len(keep)} patterns kept: "
          f"log likelihood per move {before:.3f} -> {after:.3f}, "
          f"the move played ranked first {top_share(competitions, gammas):.1%}", file=sys.stderr)
    if test:
        held = compress(competitions_of(args.game, test), keep)
        print(f"held out: {len(test)} games, {len(held)} positions: log likelihood per move "
              f"{log_likelihood(held, [{}, {}]):.3f} -> {log_likelihood(held, gammas):.3f}, "
              f"ranked first {top_share(held, gammas):.1%}", file=sys.stderr)
    out = {"game": args.game, "positions": len(competitions),
           "patterns": {str(p): round(g, 4) for p, g in sorted(gammas[0].items()) if p != RARE},
           "rare": round(gammas[0].get(RARE, 1.0), 4),
           "last": [round(gammas[1].get(i, 1.0), 4) for i in range(3)]}
    args.out.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
