"""The local patterns of Hex and Y cells (``ai.connection.patterns``) and the fitting of
their move priors (``tools/train_patterns.py``)."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest

from ai.connection import patterns
from ai.connection.patterns import EMPTY, LAST_BRIDGE, LAST_FAR, LAST_NEAR, MINE, MY_EDGE, THEIR_EDGE, THEIRS, Priors
from core.y import cell_index, row_col
from registry import STATES
from tool_modules import load_tool
from counted_clock import counted_clock  # noqa: F401  (autouse: the engines' seconds on the counted clock)

train = load_tool("train_patterns")


def random_owners(cells: int, rng: random.Random, fill: float = 0.4) -> list[int]:
    return [rng.choice((0, 1)) if rng.random() < fill else -1 for _ in range(cells)]


def test_the_twelve_places_are_the_ring_then_the_bridge_cells():
    table = patterns.tables("hex", 5)
    centre = 2 * 5 + 2  # c3
    places = table.places[centre]
    ring = set(STATES["hex"].from_settings({"size": 5, "swap": False}).board_layout.neighbours[centre])
    assert set(places[:6]) == ring
    for k in range(6):  # bridge cell k is next to neighbours k and k+1, and not to the centre
        bridge = places[6 + k]
        around = set(table.near[bridge])
        assert places[k] in around and places[(k + 1) % 6] in around and centre not in around


def test_off_the_board_the_edges_belong_to_their_owner_from_the_movers_side():
    table = patterns.tables("hex", 5)
    empty = [-1] * 25
    top_left = table.states(empty, 0, 0)  # a1 for black: beyond the top row is black's edge
    assert top_left[0] == MY_EDGE and top_left[5] == THEIR_EDGE  # above / left of a1
    # For white the board is read transposed: the same corner shows white's edges as "mine" in black's places.
    assert table.states(empty, 0, 1)[0] == MY_EDGE and table.states(empty, 0, 1)[5] == THEIR_EDGE
    assert set(patterns.tables("y", 4).states([-1] * 10, 0, 0)) == {EMPTY, MY_EDGE}


@pytest.mark.parametrize("size", [5, 7, 11])
def test_hex_patterns_are_the_same_under_the_half_turn(size):
    table = patterns.tables("hex", size)
    rng = random.Random(size)
    cells = size * size
    for _ in range(20):
        owners = random_owners(cells, rng)
        turned = owners[::-1]  # cell i -> cells - 1 - i
        for cell in range(cells):
            for mover in (0, 1):
                assert table.pattern(owners, cell, mover) == table.pattern(turned, cells - 1 - cell, mover)


@pytest.mark.parametrize("size", [5, 9])
def test_a_white_hex_mover_sees_what_black_sees_on_the_transposed_board_with_colours_swapped(size):
    table = patterns.tables("hex", size)
    rng = random.Random(size)

    def transpose(cell: int) -> int:
        row, col = divmod(cell, size)
        return col * size + row

    for _ in range(20):
        owners = random_owners(size * size, rng)
        mirrored = [-1] * (size * size)
        for cell, owner in enumerate(owners):
            mirrored[transpose(cell)] = owner if owner < 0 else 1 - owner
        for cell in range(size * size):
            assert table.states(owners, cell, 1) == table.states(mirrored, transpose(cell), 0)


@pytest.mark.parametrize("size", [5, 8])
def test_y_patterns_are_the_same_under_the_triangles_turns_and_mirror(size):
    table = patterns.tables("y", size)
    coords = row_col(size)
    cells = len(coords)

    def turn(cell: int) -> int:  # barycentric (col, row - col, size - 1 - row) rotated
        row, col = coords[cell]
        return cell_index(size - 1 - col, row - col)

    def mirror(cell: int) -> int:
        row, col = coords[cell]
        return cell_index(row, row - col)

    rng = random.Random(size)
    for mapping in (turn, mirror):
        assert sorted(mapping(c) for c in range(cells)) == list(range(cells))
        for _ in range(15):
            owners = random_owners(cells, rng)
            moved = [-1] * cells
            for cell, owner in enumerate(owners):
                moved[mapping(cell)] = owner
            for cell in range(cells):
                assert table.pattern(owners, cell, 0) == table.pattern(moved, mapping(cell), 0)


def test_patterns_tell_shapes_apart():
    table = patterns.tables("hex", 7)
    centre = 3 * 7 + 3
    empty = [-1] * 49
    seen = set()
    for place in list(table.places[centre]):
        for owner in (0, 1):
            board = empty.copy()
            board[place] = owner
            seen.add(table.pattern(board, centre, 0))
    # A stone of either colour in any of the twelve places: 24 boards, but
    # the half turn pairs them (and nothing else does).
    assert len(seen) == 12
    assert table.pattern(empty, centre, 0) not in seen


def test_last_relation_and_number_round_trip():
    table = patterns.tables("hex", 7)
    d4 = 3 * 7 + 3
    assert table.last_relation(3 * 7 + 4, d4) == LAST_NEAR
    assert table.last_relation(2 * 7 + 5, d4) == LAST_BRIDGE  # a bridge away (up-right)
    assert table.last_relation(0, d4) == LAST_FAR and table.last_relation(0, None) == LAST_FAR
    states = [EMPTY, MINE, THEIRS, MY_EDGE, THEIR_EDGE, EMPTY, MINE, THEIRS, MY_EDGE, THEIR_EDGE, EMPTY, MINE]
    assert patterns.states_of(patterns.number(states)) == states


@pytest.mark.slow
def test_mm_recovers_the_gammas_that_made_the_choices():
    rng = random.Random(7)
    truth = [{f: math.exp(rng.gauss(0, 1.2)) for f in range(12)}, {f: [4.0, 2.0, 0.5][f] for f in range(3)}]
    competitions = []
    for _ in range(3000):
        candidates = [(rng.randrange(12), rng.randrange(3)) for _ in range(15)]
        strengths = [truth[0][a] * truth[1][b] for a, b in candidates]
        winner = rng.choices(candidates, strengths)[0]
        counts: dict[tuple[int, int], int] = {}
        for c in candidates:
            counts[c] = counts.get(c, 0) + 1
        competitions.append((list(counts.items()), winner))
    gammas = train.fit(competitions, 2, iterations=40)
    for group in (0, 1):
        features = sorted(truth[group])
        true_logs = [math.log(truth[group][f]) for f in features]
        fitted_logs = [math.log(gammas[group][f]) for f in features]
        shift = sum(t - g for t, g in zip(true_logs, fitted_logs)) / len(features)
        assert max(abs(t - g - shift) for t, g in zip(true_logs, fitted_logs)) < 0.35, group
    assert train.log_likelihood(competitions, gammas) > train.log_likelihood(competitions, [{}, {}])
    flat = train.top_share(competitions, [{}, {}])  # every candidate ties: one in 15 on average
    assert abs(flat - sum(1 / sum(n for _, n in c) for c, _ in competitions) / len(competitions)) < 1e-9
    assert train.top_share(competitions, gammas) > 2 * flat


def test_the_trainer_learns_a_players_habit_from_its_games(tmp_path):
    # A made-up player that answers next to the last stone four times in
    # five: the fitted weights must say so, and priors loaded from the
    # trainer's file must prefer such a move.
    rng = random.Random(3)
    lines = []
    for _ in range(12):
        state = STATES["hex"].from_settings({"size": 7, "swap": False})
        table = patterns.tables("hex", 7)
        last = None
        while not state.is_over():
            empty = [c for c, owner in enumerate(state.owners()) if owner < 0]
            near = [c for c in empty if last is not None and c in table.near[last]]
            move = rng.choice(near) if near and rng.random() < 0.8 else rng.choice(empty)
            state.push(move)
            last = move
        lines.append(json.dumps({"game": "hex", "size": 7, "moves": [state.move_to_text(m) for m in state.moves]}))
    games = tmp_path / "games.jsonl"
    games.write_text("\n".join(lines) + "\n")
    out = tmp_path / "priors.json"
    assert train.main(["--game", "hex", "--games", str(games), "--out", str(out), "--min-count", "5"]) == 0
    data = json.loads(out.read_text())
    near, bridge, far = data["last"]
    assert near > 10 * far and data["positions"] > 200
    priors = Priors.from_dict(data)
    owners = [-1] * 49
    owners[24] = 1  # white's d4, just played
    table = patterns.tables("hex", 7)
    chances = priors.probabilities(table, owners, 0, 24, [25, 0])
    assert chances[0] > chances[1] and abs(sum(chances) - 1) < 1e-9


def test_selfplay_records_whole_refereed_games_of_a_gtp_engine(tmp_path):
    # Our own GTP engine plays itself (any GTP engine would do).
    gtp = Path(__file__).resolve().parents[2] / "py" / "gtp.py"
    out = tmp_path / "games.jsonl"
    command = f"{sys.executable} {gtp} --game hex --size 5 --level beginner --seed 3"
    assert train.main(["--game", "hex", "--selfplay", command, "--size", "5", "--count", "2", "--seed", "4",
                       "--games", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2 and records[0]["moves"] != records[1]["moves"]  # the random first stones differ
    for record in records:
        state = STATES["hex"].from_settings({"size": 5, "swap": False})
        for text in record["moves"]:
            state.play(text)
        assert state.is_over()


def test_selfplay_writes_no_game_twice_and_the_fit_reads_each_game_once(tmp_path):
    # A seeded engine plays the same game again from the same first stone:
    # a second run with the same seed repeats its first games, which are
    # not written again.
    gtp = Path(__file__).resolve().parents[2] / "py" / "gtp.py"
    out = tmp_path / "games.jsonl"
    command = f"{sys.executable} {gtp} --game hex --size 5 --level beginner --seed 3"
    run = ["--game", "hex", "--selfplay", command, "--size", "5", "--count", "2", "--seed", "4", "--games", str(out)]
    assert train.main(run) == 0
    first = out.read_text().splitlines()
    assert train.main(run) == 0
    lines = out.read_text().splitlines()
    assert lines[:2] == first and len(lines) == len(set(lines)) <= 4
    # Two opening stones, one a side: still whole games, refereed.
    assert train.main([*run, "--opening-stones", "2"]) == 0
    for record in map(json.loads, out.read_text().splitlines()):
        state = STATES["hex"].from_settings({"size": 5, "swap": False})
        for text in record["moves"]:
            state.play(text)
        assert state.is_over()
    # A file with a game written twice is read with it once.
    twice = tmp_path / "twice.jsonl"
    twice.write_text(lines[0] + "\n" + lines[1] + "\n" + lines[0] + "\n")
    assert [record["moves"] for record in train.read_games(twice)] == [json.loads(line)["moves"] for line in lines[:2]]


def canonical_priors(game: str, size: int, rng: random.Random, count: int = 400) -> Priors:
    """Made-up weights for patterns that occur on random boards of ``game``,
    keyed by their canonical numbers as the trainer writes them."""
    table = patterns.tables(game, size)
    weights = {}
    while len(weights) < count:
        owners = random_owners(table.cells, rng)
        cell = rng.choice([c for c in range(table.cells) if owners[c] < 0] or [0])
        weights[table.pattern(owners, cell, rng.randrange(2))] = math.exp(rng.gauss(0, 1.5))
    return Priors(weights, [3.0, 1.5, 0.5], rare=0.7)


@pytest.mark.parametrize("game, size", [("hex", 5), ("hex", 11), ("y", 7), ("y", 11)])
def test_board_priors_read_the_search_board_as_the_patterns_do(game, size):
    rng = random.Random(size)
    priors = canonical_priors(game, size, rng)
    table = patterns.tables(game, size)
    fast = patterns.BoardPriors(priors, table)
    known = 0
    for _ in range(60):
        owners = random_owners(table.cells, rng)
        board = [owner + 1 for owner in owners] + [3, 3, 3]  # the search board: 0 empty, 1/2 stones, edges after
        cells = [c for c in range(table.cells) if owners[c] < 0]
        for mover in (0, 1):
            last = rng.choice([None] + list(range(table.cells)))
            expected = priors.strengths(table, owners, mover, last, cells)
            assert fast.strengths(board, mover, last, cells) == pytest.approx(expected)
            known += sum(1 for value in expected if value not in (0.7 * g for g in priors.last))
    assert known > 0  # some patterns had their own weight, not only the rare one
    probabilities = fast.probabilities(board, 0, None, cells)
    assert sum(probabilities) == pytest.approx(1.0)


def test_the_committed_hex_priors_load_and_favour_the_moves_strong_players_make():
    found = patterns.board_priors("hex", 11)
    assert found is not None and found is patterns.board_priors("hex", 11)  # read once
    state = STATES["hex"].from_settings({"size": 11, "swap": False})
    for text in ("f6", "e7", "g5", "f7"):  # a middle game's first moves
        state.push(state.parse_move(text))
    board = [owner + 1 for owner in state.owners()]
    cells = [c for c in range(121) if board[c] == 0]
    p = dict(zip(cells, found.probabilities(board, state.turn, state.last_move, cells)))
    # A far corner is among the least likely moves, a reply next to the last move among the likeliest.
    ranked = sorted(cells, key=p.get, reverse=True)
    assert ranked.index(state.parse_move("a1")) > len(cells) // 2
    assert min(ranked.index(c) for c in patterns.tables("hex", 11).near[state.last_move] if c in p) < 10


def test_the_committed_y_priors_are_y_patterns_and_favour_the_middle_over_a_corner():
    found = patterns.board_priors("y", 11)
    assert found is not None and found.table.game == "y"
    data = json.loads((Path(patterns.__file__).with_name("y_priors.json")).read_text())
    table = patterns.tables("y", 11)
    for number in list(data["patterns"])[:200]:  # stored in canonical form under Y's twelve symmetries
        assert patterns.canonical(patterns.states_of(int(number)), table.symmetries) == int(number)
    state = STATES["y"].from_settings({"size": 11, "swap": False})
    board = [0] * table.cells
    p = dict(zip(range(table.cells), found.probabilities(board, 0, None, list(range(table.cells)))))
    assert p[cell_index(7, 3)] > 3 * p[cell_index(0, 0)]  # the first move: the middle, not the apex
    assert state.cell_count == table.cells
