"""The arena's GTP opponent (tools/arena/, --opponent-gtp): real games
against our own py/gtp.py, paired openings, the dialects' notation, and the
referee: an opponent's unreadable, illegal or missing answer loses it the
game (or voids it), reported. The scripted opponent in tests/data is the
opponent only; our rules engine is what is checked."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest
from tools.arena.cli import main
from tools.arena.gtp import (
    Dialect,
    GtpOpponent,
    MohexDialect,
    MoratDialect,
    OpponentError,
    check_dialect,
    opening_cells,
)
from tools.arena.match import GtpMatchConfig, GtpTally, play_games, proven_value

from ai.connection import solver
from core import FIRST, SECOND, HexState, UtttState, YState
from core.y import cell_index

ROOT = Path(__file__).resolve().parents[2]
SCRIPTED = f"{sys.executable} {ROOT / 'tests' / 'data' / 'scripted_gtp.py'}"


def config(command: str, game: str = "hex", size: int = 5, openings=(None,), setup=(), dialect="ours",
           timeout: float = 60.0):
    return GtpMatchConfig(game, size, None, "beginner", 1, False, command, dialect, tuple(setup),
                                tuple(openings), timeout)


def ours_as_opponent(game: str = "hex", size: int = 5) -> str:
    return f"{sys.executable} {ROOT / 'py' / 'gtp.py'} --game {game} --size {size} --level beginner --seed 3"


def test_games_against_our_gtp_engine_finish_and_count() -> None:
    openings = (HexState(5).parse_move("c3"),)
    results = list(play_games(config(ours_as_opponent(), openings=openings), 2))
    assert [r.our_colour for r in results] == [FIRST, SECOND]
    assert all(r.opening == openings[0] for r in results)
    tally = GtpTally()
    for result in results:
        assert result.void is None and result.forfeit is None and not result.resigned
        assert result.winner in (FIRST, SECOND)
        assert result.their_verdict is None  # its final_score agreed with our referee
        assert result.our_seconds and result.their_seconds
        tally.count(result)
    assert tally.games == 2 and tally.wins + tally.losses == 2
    assert not tally.forfeits and not tally.void and not tally.disagreements


def test_the_command_line_reports_the_match_as_json(tmp_path) -> None:
    out = io.StringIO()
    record = tmp_path / "games.jsonl"
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["--game", "y", "--size", "5", "--games", "2", "--move-time", "0", "--level", "beginner",
                           "--opponent-gtp", ours_as_opponent("y"), "--openings", "c5", "--json",
                           "--record", str(record)]) == 0
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert [game["ours"] for game in games] == ["black", "white"]
    for game in games:  # each recorded game replays to its end, with the result the tally counted
        state = YState(5, swap=False)
        for text in game["moves"]:
            state.play(text)
        assert game["moves"][0] == "c5" and state.is_over()
        assert game["result"] == ("W" if state.outcome().winner == ("black", "white").index(game["ours"]) else "L")
    summary = json.loads(out.getvalue())
    assert summary["games"] == 2 and summary["wins"] + summary["losses"] == 2
    assert 0 <= summary["ci_low"] <= summary["score"] <= summary["ci_high"] <= 1
    assert summary["our_moves"] > 0 and summary["their_moves"] > 0
    assert summary["forfeits"] == [] and summary["void"] == [] and summary["disagreements"] == []


def test_pairs_share_their_opening_and_swap_colours() -> None:
    cells = opening_cells("random", HexState(5, swap=False), seed=4)
    assert sorted(cells) == list(range(25))
    match = config(SCRIPTED, openings=cells)
    assert [match.opening(i) for i in range(6)] == [cells[0], cells[0], cells[1], cells[1], cells[2], cells[2]]
    assert [match.our_colour(i) for i in range(4)] == [FIRST, SECOND, FIRST, SECOND]
    assert opening_cells("a1,e5", HexState(5, swap=False), 1) == [0, 24]


@pytest.mark.parametrize("answer, reason", [("zz9", "cannot be read"), ("f1", "cannot be read"),
                                             ("a1", "not legal here"), ("swap", "not legal here")])
def test_an_illegal_or_unreadable_move_loses_the_game_for_the_opponent(answer: str, reason: str) -> None:
    # Game 0: we are black, the pair's opening a1 is our stone, so the opponent (white) moves next.
    results = list(play_games(config(f"{SCRIPTED} {answer}", openings=(0,)), 1))
    (result,) = results
    assert result.our_colour == FIRST and result.winner == FIRST
    assert result.forfeit is not None and reason in result.forfeit and answer in result.forfeit
    tally = GtpTally()
    assert tally.count(result) == "W"
    assert tally.forfeits == [f"game 1: {result.forfeit}"]


def test_a_resignation_loses_and_is_counted() -> None:
    (result,) = play_games(config(f"{SCRIPTED} resign"), 1)
    assert result.resigned and result.forfeit is None and result.winner == result.our_colour


def test_a_legal_scripted_game_is_refereed_by_our_rules() -> None:
    # The script plays down column a and along row 5, whatever we do: legal until it names a
    # taken cell (a forfeit) or the game ends on the board.
    moves = "a2 a3 a4 a5 b5 c5"
    (first, second) = play_games(config(f"{SCRIPTED} {moves}"), 2)
    for result in (first, second):
        assert result.void is None
        assert result.winner in (FIRST, SECOND)
        if result.forfeit is None:
            # A game that ended on the board: the script's final_score (always W+) is checked.
            assert (result.their_verdict is None) == (result.winner == SECOND)


def test_a_refused_move_of_ours_voids_the_game() -> None:
    (result,) = play_games(config(f"{SCRIPTED} --refuse-play", openings=(0,)), 1)
    assert result.void is not None and "refused" in result.void and result.winner is None
    tally = GtpTally()
    assert tally.count(result) == "void" and tally.games == 0 and len(tally.void) == 1


def test_an_opponent_that_stops_in_a_proven_position_has_resigned_or_won_else_the_game_is_void() -> None:
    # On 5 x 5 the centre stone wins for black (our solver proves it at once). Game 0: it is
    # ours, and the opponent stops when asked for its move: lost for it, so a resignation.
    centre = HexState(5).parse_move("c3")
    (first,) = play_games(config(f"{SCRIPTED} --stop", openings=(centre,)), 1)
    assert first.our_colour == FIRST and first.winner == FIRST and first.void is None
    assert first.resigned and first.stopped_proven == solver.LOSS
    # Game 1 (we are white): the stone is the opponent's, our beginner answers (whatever it
    # plays, the centre stone still wins), the opponent stops in a position that is still won
    # for it, proven: our loss.
    (second,) = list(play_games(config(f"{SCRIPTED} --stop", openings=(centre,)), 2))[1:]
    assert second.our_colour == SECOND and len(second.moves) == 2 and second.moves[0] == "c3"
    assert second.winner == FIRST and second.stopped_proven == solver.WIN and not second.resigned
    tally = GtpTally()
    assert tally.count(first) == "W" and tally.count(second) == "L" and len(tally.stopped) == 2
    # Where nothing is proven in time the game is void: Y (no solver), or no time at all.
    assert proven_value(YState(5), 5.0) is None
    assert proven_value(HexState(11), 0.0) is None
    (void,) = play_games(config(f"{SCRIPTED} --stop", game="y", openings=(None,)), 1)
    assert void.winner is None and "stopped on 'genmove" in void.void


def test_a_failed_genmove_is_decided_by_a_proof_where_there_is_one_else_it_forfeits() -> None:
    centre = HexState(5).parse_move("c3")
    (lost,) = play_games(config(f"{SCRIPTED} --fail", openings=(centre,)), 1)
    assert lost.winner == FIRST == lost.our_colour and lost.resigned and lost.forfeit is None
    assert lost.stopped_proven == solver.LOSS
    (second,) = list(play_games(config(f"{SCRIPTED} --fail", openings=(centre,)), 2))[1:]
    assert second.winner == FIRST != second.our_colour and second.stopped_proven == solver.WIN
    (y_game,) = play_games(config(f"{SCRIPTED} --fail", game="y"), 1)  # nothing to prove it with
    assert y_game.winner == y_game.our_colour and "genmove failed" in y_game.forfeit


def test_a_silent_opponent_times_out_and_the_game_is_void() -> None:
    (result,) = play_games(config(f"{SCRIPTED} --silent", timeout=1.0), 1)
    assert result.void is not None and "no answer" in result.void


def test_morat_names_the_first_player_w_and_counts_y_rows_from_the_long_edge() -> None:
    dialect = MoratDialect()
    assert dialect.colour(FIRST) == "w" and dialect.colour(SECOND) == "b"
    y = YState(5, swap=False)
    assert dialect.to_text(y, cell_index(0, 0)) == "a5"  # our apex
    assert dialect.to_text(y, cell_index(4, 0)) == "a1" and dialect.to_text(y, cell_index(4, 4)) == "e1"
    for cell in range(y.cell_count):
        assert dialect.from_text(y, dialect.to_text(y, cell)) == cell
    with pytest.raises(ValueError):
        dialect.from_text(y, "b5")  # x + y >= size: off Morat's board
    hex_state = HexState(5, swap=False)
    assert all(dialect.to_text(hex_state, cell) == hex_state.move_to_text(cell) for cell in range(25))
    assert dialect.winner("white") == FIRST and dialect.winner("black") == SECOND and dialect.winner("none") is None


def test_mohex_is_hex_only_and_switches_swap_off() -> None:
    dialect = MohexDialect()
    assert dialect.games == ("hex",) and "param_game allow_swap 0" in dialect.setup
    assert dialect.winner("B+") == FIRST and dialect.winner("W+") == SECOND
    with pytest.raises(ValueError):
        GtpOpponent(SCRIPTED, dialect, "y", 5, [])


def test_the_dialect_check_passes_for_our_engine_and_catches_a_wrong_verdict() -> None:
    ours = GtpOpponent(ours_as_opponent("y"), Dialect(), "y", 5, [])
    try:
        assert check_dialect(ours, lambda: YState(5, swap=False), 5, seed=2) == 5
    finally:
        ours.close()
    # The script always scores W+: a random game black wins shows the difference.
    liar = GtpOpponent(SCRIPTED, Dialect(), "hex", 5, [])
    try:
        with pytest.raises(OpponentError, match="it scores"):
            check_dialect(liar, lambda: HexState(5, swap=False), 20, seed=2)
    finally:
        liar.close()
    # Morat's colour words sent to our engine: black's first stone goes as "w", which it refuses.
    wrong = GtpOpponent(ours_as_opponent("hex"), MoratDialect(), "hex", 5, [])
    try:
        with pytest.raises(OpponentError, match="refused"):
            check_dialect(wrong, lambda: HexState(5, swap=False), 1, seed=2)
    finally:
        wrong.close()


def test_ultimate_tic_tac_toe_against_a_gtp_engine_in_two_worker_processes(tmp_path) -> None:
    # Our own engine as the opponent, as when the master plays a past commit's
    # py/gtp.py: Ultimate Tic-Tac-Toe speaks our dialect, with draws ("0").
    assert Dialect().winner("0") is None and MoratDialect.games == ("hex", "y")
    opponent = f"{sys.executable} {ROOT / 'py' / 'gtp.py'} --game uttt --level beginner --seed 5"
    out = io.StringIO()
    record = tmp_path / "games.jsonl"
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["--game", "uttt", "--games", "4", "--move-time", "0", "--level", "casual", "--jobs", "2",
                           "--opponent-gtp", opponent, "--opponent-check-games", "3", "--json",
                           "--record", str(record)]) == 0
    summary = json.loads(out.getvalue())
    assert summary["games"] == 4 == summary["wins"] + summary["draws"] + summary["losses"] and summary["size"] is None
    assert summary["void"] == [] and summary["forfeits"] == [] and summary["disagreements"] == []
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert [game["ours"] for game in games] == ["X", "O", "X", "O"]  # in game order, colours alternating
    assert games[0]["moves"][0] == games[1]["moves"][0]  # a pair shares its first move
    marks = {"W": 0, "D": 0, "L": 0}
    for game in games:
        state = UtttState()
        for text in game["moves"]:
            state.play(text)
        winner = state.outcome().winner
        ours = ("X", "O").index(game["ours"])
        assert game["result"] == ("D" if winner is None else "W" if winner == ours else "L")
        marks[game["result"]] += 1
    assert (marks["W"], marks["D"], marks["L"]) == (summary["wins"], summary["draws"], summary["losses"])
