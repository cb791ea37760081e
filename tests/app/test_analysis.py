"""Hints, the evaluation bar and a game's analysis on the screen model, with
the worker's own ``analyse`` answering (the real engines, under CPython),
and the judgement thresholds on hand-made values."""

from __future__ import annotations

import json

import pytest

from app.model.analysis import BLUNDER, MISTAKE, GameAnalysis, Verdict, judge
from app.model.change import NOTHING
from app.model.insight import ANALYSE, EVALUATE, HINT
from app.model.review import PAST
from app.model.screen_view import screen_view
from app.model.session import COMPUTER
from app.model.storage import MemoryBackend, Storage
from app.model.words import Msg

import worker
from test_screen import make, two_player
from counted_clock import counted_clock  # noqa: F401  (autouse: the engines' seconds on the counted clock)


def reply_to(task, seconds: float | None = None, iterations: int | None = None) -> dict:
    """The worker's answer to ``task``, as the page would get it (a short
    budget: these tests check what the screen does with an answer; the
    counted clock, and a cap on playouts where one is given, make it the
    same answer on any machine)."""
    request = {"game": task.state.to_dict(), "seconds": seconds or min(task.seconds, 0.2), "seed": task.seed}
    if iterations is not None:
        request["iterations"] = iterations
    if task.played is not None:
        request["played"] = task.played
    return json.loads(worker.analyse(json.dumps(request)))


def run_tasks(screen, limit: int = 200, seconds: float | None = None, iterations: int | None = None) -> list[str]:
    """Answer every task the screen asks for, in order; the kinds asked."""
    kinds = []
    for _ in range(limit):
        task = screen.insight.engine_task()
        if task is None:
            return kinds
        kinds.append(task.kind)
        screen.insight.engine_reply(task, reply_to(task, seconds, iterations))
    raise AssertionError("the screen kept asking")


def verdict(chance: float, proof: str | None = None, move: str = "a1") -> Verdict:
    return Verdict(move, "search" if proof is None else "proven", chance, proof)


# -- the judgements ---------------------------------------------------------------
def test_the_judgement_thresholds_on_a_hand_made_sequence_of_values() -> None:
    # The first player's chance after each position; the movers alternate.
    chances = [0.55, 0.52, 0.60, 0.44, 0.47, 0.12, 0.90, 0.88]
    analysis = GameAnalysis(tuple(f"m{i}" for i in range(1, 8)), 0.5, [verdict(c) for c in chances])
    movers = [0, 1, 0, 1, 0, 1, 0]
    # move 3 (first player): 0.60 -> 0.44 loses 16 points: a mistake;
    # move 5 (first player): 0.47 -> 0.12 loses 35: a blunder;
    # move 6 (second player): 0.88 -> 0.10 for them... 0.12 -> 0.90 is a loss of 78 for the second: a blunder;
    # move 2 (second player) gains; move 4 (second) loses 3; move 7 loses 2.
    assert analysis.judgements(movers) == {3: "mistake", 5: "blunder", 6: "blunder"}
    assert judge(verdict(0.50), verdict(0.50 - MISTAKE), 0) == "mistake"
    assert judge(verdict(0.50), verdict(0.50 - MISTAKE + 0.01), 0) is None
    assert judge(verdict(0.60), verdict(0.60 - BLUNDER), 0) == "blunder"
    assert judge(verdict(0.40), verdict(0.40 + BLUNDER), 1) == "blunder"  # the second player's chance fell
    # A proven result counts in full: 100 (or 0, or 50 for a draw), whatever
    # the search's mean said, so a proven win given up is judged on that.
    assert judge(verdict(0.99, "first"), verdict(0.99), 0) is None
    assert judge(verdict(0.70, "first"), verdict(0.71), 0) is None  # 100 -> 71 unproven: the win may be intact
    assert judge(verdict(0.70, "first"), verdict(0.45), 0) == "blunder"  # 100 -> 45: it is not
    assert judge(verdict(0.70, "first"), verdict(0.99, "draw"), 0) == "blunder"  # 100 -> 50
    assert judge(verdict(0.5, "draw"), verdict(0.2, "second"), 0) == "blunder"  # 50 -> 0
    assert judge(verdict(0.3, "second"), verdict(0.9, "first"), 1) == "blunder"


def test_a_move_is_judged_by_the_search_that_found_the_best_one_unless_the_next_position_is_proven() -> None:
    # The search before the move gave the first player 62 %, and 58 % after
    # the move played; the next search, from the other side, says 40 %.
    before = Verdict("d4", "search", 0.62, played=0.58)
    assert judge(before, verdict(0.40), 0) is None  # 4 points by the same search, not 22
    assert judge(Verdict("d4", "search", 0.62, played=0.30), verdict(0.55), 0) == "blunder"
    assert judge(Verdict("d4", "search", 0.62), verdict(0.40), 0) == "mistake"  # not looked at: the next value
    assert judge(before, verdict(0.0, "second"), 0) == "blunder"  # a proof outweighs any estimate
    with pytest.raises(ValueError):
        Verdict.from_reply({"move": "d4", "reason": "search", "chance": 0.5, "played_chance": 2})


def test_a_verdict_is_checked_and_a_proof_counts_in_full() -> None:
    good = Verdict.from_reply({"move": "d4", "reason": "search", "chance": 0.62, "proof": None, "plies": None})
    assert good.percent == 62 and good.chance_of(1) == pytest.approx(0.38)
    assert Verdict.from_reply({"move": "d4", "reason": "proven", "chance": 0.97, "proof": "first", "plies": 3}).percent == 100
    assert Verdict.from_reply({"move": "d4", "reason": "search", "chance": 0.999}).percent == 99  # not proven: never 100
    for bad in ({"move": "d4", "reason": "magic", "chance": 0.5}, {"move": "d4", "reason": "search", "chance": 1.5},
                {"move": "d4", "reason": "search", "chance": "0.5"}, {"move": None, "reason": "search", "chance": 0.5},
                {"move": "d4", "reason": "search", "chance": 0.5, "proof": "both"}, [], None,
                {"move": "d4", "reason": "search", "chance": float("nan")}):
        with pytest.raises(ValueError):
            Verdict.from_reply(bad)


def test_a_stored_analysis_is_read_back_and_a_damaged_one_is_started_afresh() -> None:
    moves = ("d4", "c3", "e5")
    analysis = GameAnalysis.empty(moves, 0.5)
    analysis.verdicts[0] = verdict(0.5)
    analysis.verdicts[2] = verdict(0.8, "first")
    again = GameAnalysis.from_dict(json.loads(json.dumps(analysis.to_dict())), moves)
    assert again is not None and again.verdicts == analysis.verdicts and again.next_ply() == 1 and again.done == 2
    assert GameAnalysis.from_dict(analysis.to_dict(), ("d4", "c3")) is None  # another game's
    for damage in ({**analysis.to_dict(), "budget": 7}, {**analysis.to_dict(), "verdicts": [None]},
                   {**analysis.to_dict(), "verdicts": [{"move": 1}] * 4}, "text", None):
        assert GameAnalysis.from_dict(damage, moves) is None


# -- the hint -------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["uttt", "hex", "y"])
def test_a_hint_marks_a_legal_empty_cell_says_why_and_makes_the_game_assisted(game: str) -> None:
    screen = make(game, opponent=f"{COMPUTER}:beginner", starts="home")
    assert screen_view(screen).engine_hint.button.enabled and not screen.session.assisted
    assert screen.insight.ask_hint().parts == {"hint"} and screen.session.assisted
    view = screen_view(screen)
    assert view.engine_hint.thinking and view.engine_hint.line == Msg("hint.thinking")
    assert not view.engine_hint.button.enabled and screen.insight.ask_hint() == NOTHING
    assert run_tasks(screen) == [HINT]
    hint = screen.insight.live_hint()
    assert hint is not None and screen.session.state.parse_move(hint.move) in screen.session.state.legal_moves()
    view = screen_view(screen)
    assert view.engine_hint.line.key == "hint.engine" and view.engine_hint.line.params["move"] == hint.move
    assert 'data-hint' in str(view.board) and str(view.board).count("data-hint") == 1
    screen.move(hint.move)  # played: the hint belongs to the position before
    assert screen.insight.live_hint() is None and "data-hint" not in str(screen_view(screen).board)


def test_a_hint_that_comes_after_the_player_moved_on_is_not_shown() -> None:
    screen = two_player("hex", size=7, swap=False)
    screen.insight.ask_hint()
    task = screen.insight.engine_task()
    screen.move("d4")  # the player did not wait
    assert "hint" in screen.insight.engine_reply(task, reply_to(task)).parts
    assert screen.insight.live_hint() is None and "data-hint" not in str(screen_view(screen).board)
    assert screen_view(screen).engine_hint.line is None


def test_notakto_has_no_hint_action_its_hint_is_the_safe_moves() -> None:
    screen = make("notakto", opponent=f"{COMPUTER}:perfect", starts="home")
    assert not screen_view(screen).engine_hint.button.shown and screen.insight.ask_hint() == NOTHING


# -- the evaluation bar ---------------------------------------------------------------
def test_the_evaluation_bar_follows_the_position_on_screen_and_makes_the_game_assisted() -> None:
    screen = two_player("hex", size=7, swap=False)
    assert not screen_view(screen).evaluation.shown and screen.insight.engine_task() is None
    screen.toggle("eval", True)
    assert screen.session.assisted
    assert screen_view(screen).evaluation.percent is None  # asked, not answered
    assert run_tasks(screen) == [EVALUATE]
    start = screen_view(screen).evaluation
    assert start.shown and 1 <= start.percent <= 99 and start.label.key == "eval.chance"
    screen.move("d4")
    assert run_tasks(screen) == [EVALUATE]
    screen.step(-1)  # back to the start: known already, nothing asked
    assert screen.insight.engine_task() is None and screen_view(screen).evaluation == start


def test_the_bar_reads_the_same_until_the_position_changes_whatever_else_the_engine_searches() -> None:
    """A hint's longer search of the position on screen, and an analysis of
    the game, leave the bar's value as it was: the bar changes with the
    position only."""
    screen = two_player("hex", size=7, swap=False)
    screen.toggle("eval", True)
    screen.move("d4")
    assert run_tasks(screen) == [EVALUATE]
    shown = screen_view(screen).evaluation
    screen.insight.ask_hint()
    task = screen.insight.engine_task()
    assert task.kind == HINT
    # Another value than the bar's, as a longer search may give.
    other = {"move": "c5", "chance": 1 - shown.percent / 100, "proof": None, "reason": "search", "plies": None}
    change = screen.insight.engine_reply(task, other)
    assert "eval" not in change.parts and screen_view(screen).evaluation == shown
    assert screen_view(screen).engine_hint.line.key == "hint.engine"
    for text in FINISHED[1:]:  # to the end, then the analysis, then back to the position
        screen.move(text)
    run_tasks(screen)
    screen.insight.analyse()
    while (task := screen.insight.engine_task()) is not None:
        screen.insight.engine_reply(task, other if task.ply == 1 else reply_to(task))
    assert screen.insight.shown_analysis().complete
    screen.step(1 - len(FINISHED))
    assert screen.shown_ply() == 1 and screen_view(screen).evaluation == shown


def test_the_evaluation_of_a_finished_game_is_its_result_without_asking() -> None:
    screen = finished_hex_game()
    screen.toggle("eval", True)
    view = screen_view(screen).evaluation
    assert view.percent == 100 and view.proven and view.label.key == "eval.won" and screen.insight.engine_task() is None


def test_notakto_evaluates_exactly_won_or_lost() -> None:
    screen = two_player("notakto", boards=1)
    screen.toggle("eval", True)
    run_tasks(screen)
    view = screen_view(screen).evaluation
    assert view.proven and view.percent == 100  # one board: the first player wins with the centre


# -- analysing a game -------------------------------------------------------------------
# Hex 7 x 7 between two people: Blue walks straight across down column d,
# Green plays along the edge, far from the fight.
FINISHED = ("d4", "a1", "d3", "a2", "d5", "a3", "d2", "a4", "d6", "a5", "d1", "a6", "d7")


def finished_hex_game(storage: Storage | None = None):
    screen = make("hex", storage, opponent="two_player", size=7, swap=False)
    for text in FINISHED:
        screen.move(text)
    assert screen.session.is_over()
    return screen


def test_analysing_a_finished_game_fills_every_position_draws_the_graph_and_keeps_it_with_the_past_game() -> None:
    storage = Storage(MemoryBackend())
    screen = finished_hex_game(storage)
    view = screen_view(screen).analysis
    assert view is not None and view.action == Msg("analysis.start") and view.graph is None
    assert screen.insight.analyse().parts == {"analysis"}
    worker.ANALYSTS.clear()  # a fresh analyst and capped playouts: the same marks on any machine
    kinds = run_tasks(screen, seconds=1.0, iterations=1500)
    assert kinds == [ANALYSE] * 13  # 14 positions, the last one is the result, not asked
    analysis = screen.insight.shown_analysis()
    assert analysis.complete and not analysis.running and analysis.verdicts[-1].reason == "over"
    view = screen_view(screen).analysis
    assert view.graph is not None and view.action == Msg("analysis.done") and not view.action_enabled
    assert view.progress is None and view.summary.key == "analysis.summary"
    # Green (the second player) played along the edge while Blue walked across: marked.
    marks = {entry.ply: entry.judgement for entry in screen_view(screen).moves if entry.judgement}
    assert any(ply % 2 == 0 for ply in marks), marks
    # Kept with the past game: reopened from the list, nothing is asked again.
    past = make("hex", storage, opponent="two_player", size=7, swap=False)
    past.open_past(screen.session.game_id)
    assert past.origin == PAST and past.insight.shown_analysis() is not None and past.insight.shown_analysis().complete
    assert past.insight.engine_task() is None


def test_an_analysis_stopped_midway_resumes_after_a_reload_and_never_fills_another_game() -> None:
    storage = Storage(MemoryBackend())
    screen = finished_hex_game(storage)
    screen.insight.analyse()
    for _ in range(3):
        task = screen.insight.engine_task()
        screen.insight.engine_reply(task, reply_to(task))
    late = screen.insight.engine_task()
    assert late.kind == ANALYSE and late.ply == 3
    assert screen.insight.cancel_analysis().parts == {"analysis"}
    screen.insight.engine_reply(late, reply_to(late))  # the answer in flight is still this game's: kept
    assert screen.insight.engine_task() is None  # stopped: nothing more is asked
    # "Reload": a new screen on the same storage, the finished game in its slot.
    again = make("hex", storage, opponent="two_player", size=7, swap=False)
    analysis = again.insight.shown_analysis()
    assert analysis is not None and analysis.done == 5 and not analysis.running
    view = screen_view(again).analysis
    assert view.action == Msg("analysis.resume") and view.progress == Msg("analysis.progress", {"done": 5, "count": 14})
    again.insight.analyse()
    first = again.insight.engine_task()
    assert first.ply == 4
    # The player starts a new game while that position is out: its answer
    # goes to the finished game's analysis, not to the new game.
    again.new_game()
    assert not again.insight.can_analyse() and again.insight.shown_analysis() is None
    again.insight.engine_reply(first, reply_to(first))
    assert again.insight.engine_task() is None
    past = make("hex", storage, opponent="two_player", size=7, swap=False)
    past.open_past(screen.session.game_id)
    assert past.insight.shown_analysis().done == 6


def test_the_better_move_of_a_marked_move_is_one_click_away() -> None:
    screen = finished_hex_game()
    screen.insight.analyse()
    run_tasks(screen)
    entries = [entry for entry in screen_view(screen).moves if entry.better]
    assert entries
    entry = entries[0]
    screen.show_better(entry.ply)
    assert screen.shown_ply() == entry.ply - 1 and screen.insight.marked_move() == entry.better
    view = screen_view(screen)
    assert view.engine_hint.line.key == "hint.better" and str(view.board).count("data-hint") == 1
    screen.step(+1)
    assert screen.insight.marked_move() is None


def test_the_worker_values_the_move_played_by_the_same_search() -> None:
    screen = finished_hex_game()
    state = screen.session.state.from_settings(screen.session.state.settings())
    for text in FINISHED[:5]:  # Green to move
        state.play(text)
    request = {"game": state.to_dict(), "seconds": 2, "iterations": 2000, "seed": 3, "played": "a3"}
    reply = json.loads(worker.analyse(json.dumps(request)))
    best = dict(request, played=reply["move"])
    again = json.loads(worker.analyse(json.dumps(best)))
    assert again["played_chance"] is not None and abs(again["played_chance"] - again["chance"]) < 0.15
    # Green's edge move a3 is far worse for Green than the engine's move.
    assert reply["played_chance"] is None or reply["played_chance"] > reply["chance"]
    assert "error" in json.loads(worker.analyse(json.dumps(dict(request, played="z99"))))


def test_the_unfinished_game_being_played_cannot_be_analysed() -> None:
    screen = two_player("hex", size=7, swap=False)
    screen.move("d4")
    assert screen_view(screen).analysis is None and screen.insight.analyse() == NOTHING


def test_a_reply_that_is_not_a_verdict_stops_the_analysis_and_says_so() -> None:
    screen = finished_hex_game()
    screen.insight.analyse()
    task = screen.insight.engine_task()
    screen.insight.engine_reply(task, {"error": "ValueError: nonsense"})
    view = screen_view(screen).analysis
    assert view.failed and not view.running and view.action == Msg("analysis.resume")
    assert screen.insight.engine_task() is None


def test_a_hint_to_swap_marks_the_swap_and_no_cell() -> None:
    screen = two_player("hex", size=7, swap=True)
    screen.move("d4")  # the centre: worth taking
    screen.insight.ask_hint()
    task = screen.insight.engine_task()
    screen.insight.engine_reply(task, reply_to(task, seconds=4, iterations=3000))
    view = screen_view(screen).engine_hint
    assert screen.insight.live_hint().move == "swap" and view.swap
    assert view.line.params["move"] == Msg("hint.swap") and view.line.params["why"] == Msg("why.swap")
    assert "data-hint" not in str(screen_view(screen).board)
