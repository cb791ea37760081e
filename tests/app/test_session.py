"""A game as the player lives it: seats, undo, resignation, the record for
the statistics, saves, and the board view and settings of Notakto."""

from __future__ import annotations

import json

import pytest

from app.model.games import SPECS, split_opponent
from app.model.session import COMPUTER, TWO_PLAYER, GameSession, Mode, next_home_seat
from app.model.words import Msg
from app.views.notakto import notakto_board
from core import SaveError
from core.notakto import NotaktoState


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


LEVELS = SPECS["notakto"].levels


def session(boards: int = 3, opponent: str = COMPUTER, home_seat: int = 0, clock: Clock | None = None) -> GameSession:
    return GameSession(NotaktoState(boards), Mode(opponent, "perfect" if opponent == COMPUTER else "", home_seat),
                       clock=clock or Clock())


def test_seats_against_the_computer_and_takeover() -> None:
    game = session(home_seat=1)
    assert game.is_computer_seat(0) and not game.is_computer_seat(1)
    assert game.computer_to_move()
    game.play("1a1")
    assert not game.computer_to_move()
    game.set_takeover(1, True)
    assert game.computer_to_move() and game.human_seats() == []
    game.set_takeover(1, False)
    assert game.human_seats() == [1]


def test_undo_takes_back_the_computer_reply_with_the_human_move() -> None:
    game = session()
    game.play("1b2")
    game.play("2b2")  # the computer's reply
    assert game.can_undo()
    assert game.undo() == 2
    assert game.state.moves == [] and game.assisted


def test_between_two_players_undo_takes_back_the_last_move_and_is_no_help() -> None:
    two = session(opponent=TWO_PLAYER)
    assert not two.can_undo()  # nothing to take back
    two.play("1a1")
    two.play("2b2")  # Player 2's misclick
    assert two.can_undo() and two.undo() == 1
    assert two.state.move_texts() == ["1a1"] and two.state.turn == 1 and not two.assisted
    two.play("3c3")
    assert two.undo() == 1 and two.undo() == 1 and two.state.moves == [] and not two.can_undo()
    record_of = session(opponent=TWO_PLAYER)
    record_of.play("1a1")
    record_of.undo()
    record_of.play("1b2")
    record_of.resign()
    record = record_of.record("2024-01-01", None)
    assert record is not None and record.result == "two_player" and not record.assisted
    # A seat handed to the computer: its move goes with the human's before it.
    handed = session(opponent=TWO_PLAYER)
    handed.set_takeover(1, True)
    handed.play("1a1")
    handed.play("2b2")  # the computer, for Player 2
    assert handed.undo() == 2 and handed.state.moves == []


def test_undo_when_the_computer_moved_first_keeps_its_move() -> None:
    game = session(home_seat=1)
    game.play("1b2")  # computer
    game.play("2b2")  # human
    game.play("3b2")  # computer
    assert game.undo() == 2
    assert game.state.move_texts() == ["1b2"]
    assert not game.can_undo()


def test_resign_ends_the_game_and_records_a_loss() -> None:
    clock = Clock()
    game = session(clock=clock)
    game.play("1a1")
    clock.now += 12
    game.resign()
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 1 and outcome.reason == "resignation"
    record = game.record("2026-11-29", 1800)
    assert record is not None
    assert (record.result, record.resigned, record.moves, record.duration_ms) == ("loss", True, 1, 12_000)
    with pytest.raises(ValueError):
        game.play("2a1")


def test_two_player_resignation_is_by_the_player_to_move() -> None:
    game = session(opponent=TWO_PLAYER)
    game.play("1a1")
    game.resign()
    assert game.outcome().winner == 0
    assert game.record("2026-11-29", None).result == "two_player"


def test_records_of_wins_losses_and_assistance() -> None:
    clock = Clock()
    game = session(boards=1, clock=clock)
    for move in ("1a1", "1b2", "1c3"):  # the home player closes the only board
        game.play(move)
        clock.now += 1
    assert game.outcome().winner == 1
    record = game.record("2026-11-29", 1800)
    assert record.result == "loss" and record.moves == 2 and record.duration_ms == 2000 and not record.assisted
    won = session(boards=1)
    won.set_takeover(0, True)
    for move in ("1a1", "1a2", "1b1", "1c1"):
        won.play(move)
    # The computer played for the player: it counts, but sets no record.
    assert won.record("2026-11-29", 1800).assisted
    assert session().record("2026-11-29", 1800) is None  # never began


def test_save_round_trip_and_damaged_saves() -> None:
    clock = Clock()
    game = session(boards=4, home_seat=1, clock=clock)
    for move in ("1a1", "2b2", "4c3"):
        game.play(move)
    game.mark_assisted()
    data = json.loads(json.dumps(game.to_dict()))
    back = GameSession.from_dict(data, LEVELS, clock=clock)
    assert back.to_dict() == game.to_dict()
    assert back.state == game.state
    for damage in (
        lambda d: d.update(version=99),
        lambda d: d["state"]["moves"].append("1a1"),  # occupied
        lambda d: d["state"].update(game="chess"),
        lambda d: d["mode"].update(level="grandmaster"),
        lambda d: d["mode"].update(home_seat=True),
        lambda d: d.update(takeover=[1, 0]),
        lambda d: d.update(started_ms=-5),
        lambda d: d.update(id=""),
        lambda d: d.update(resigned=2),
    ):
        broken = json.loads(json.dumps(data))
        damage(broken)
        with pytest.raises(SaveError):
            GameSession.from_dict(broken, LEVELS)


def test_who_starts_alternates_or_is_fixed() -> None:
    assert next_home_seat("alternate", None) == 0
    assert next_home_seat("alternate", 0) == 1
    assert next_home_seat("alternate", 1) == 0
    assert next_home_seat("home", 1) == 0
    assert next_home_seat("away", 0) == 1


def test_settings_are_validated_one_by_one() -> None:
    spec = SPECS["notakto"]
    assert spec.defaults() == {"opponent": "computer:casual", "boards": 3, "starts": "alternate", "hints": False,
                               "coordinates": True, "confirm": True, "eval": False}
    assert spec.validate({"boards": 9, "starts": "away", "hints": "yes", "opponent": "computer:perfect",
                          "confirm": False}) == {
        "opponent": "computer:perfect", "boards": 3, "starts": "away", "hints": False, "coordinates": True,
        "confirm": False, "eval": False}
    assert all(spec.defaults()["coordinates"] is True for spec in SPECS.values())
    assert spec.validate({"boards": True}) == spec.defaults()  # a bool is not a board count
    assert spec.validate("garbage") == spec.defaults()
    assert split_opponent("computer:strong") == (COMPUTER, "strong")
    assert split_opponent(TWO_PLAYER) == (TWO_PLAYER, "")
    assert list(spec.level_ratings) == spec.levels


def _cells(tree):
    tag, attrs, children = tree
    if attrs.get("data-move"):
        yield attrs
    for child in children:
        if isinstance(child, tuple):
            yield from _cells(child)


def test_notakto_view_names_cells_and_marks_state_without_colour() -> None:
    state = NotaktoState(2)
    state.replay(["2a1", "2b1", "1b2", "2c1"])  # board 2 closed by its top row
    tree = notakto_board(state, interactive=True, safe_moves=frozenset({state.parse_move("1a1")}))
    cells = {attrs["data-move"]: attrs for attrs in _cells(tree)}
    assert len(cells) == 18
    assert cells["1b2"]["aria-label"] == Msg("cell.label", {"cell": "b2", "content": Msg("cell.x")})
    assert cells["2c1"]["aria-label"] == Msg("cell.label_last", {"cell": "c1", "content": Msg("cell.x")})
    assert "last" in cells["2c1"]["class"] and "line" in cells["2c1"]["class"]
    assert cells["1a1"]["aria-label"].key == "cell.label_safe" and "safe" in cells["1a1"]["class"]
    assert cells["2b2"]["aria-disabled"] == "true"  # on a closed board
    assert cells["1a2"]["aria-disabled"] == "false"
    boards = [child for child in tree[2]]
    assert boards[1][1]["data-closed"] == "true"
    assert boards[1][1]["aria-label"] == Msg("board.closed_label", {"board": 2})
    frozen = notakto_board(state, interactive=False)
    assert all(attrs["aria-disabled"] == "true" for attrs in _cells(frozen))
    # Keyboard grid: boards side by side, three columns each.
    assert (cells["2a1"]["data-x"], cells["2a1"]["data-y"]) == (3, 0)


def test_untouched_until_a_human_moves() -> None:
    game = session(home_seat=1)
    assert game.untouched()
    game.play("1b2")  # the computer's first move
    assert game.untouched()
    game.play("2b2")
    assert not game.untouched()
    two = session(opponent=TWO_PLAYER)
    two.play("1a1")
    assert not two.untouched()


def test_moves_are_described_for_screen_readers() -> None:
    state = NotaktoState(3)
    assert SPECS["notakto"].describe(state, state.parse_move("2b3")) == Msg("move.notakto", {"board": 2, "cell": "b3"})


def test_the_move_clock_runs_on_wall_time_and_survives_a_save() -> None:
    clock = Clock()
    game = GameSession(NotaktoState(3), Mode(TWO_PLAYER, "", 0), clock=clock, time_limit_s=30)
    assert game.time_left_ms() == 30_000
    clock.now += 12.5
    assert game.time_left_ms() == 17_500 and not game.time_ran_out()
    game.play("1a1")
    assert game.time_left_ms() == 30_000  # a new turn, a new 30 s
    clock.now += 10
    saved = json.loads(json.dumps(game.to_dict()))
    clock.now += 25  # the tab was closed for a while
    back = GameSession.from_dict(saved, LEVELS, clock=clock)
    assert back.time_left_ms() == -5_000 and back.time_ran_out()
    untimed = session()
    assert untimed.time_left_ms() is None and not untimed.time_ran_out()
    computer_turn = GameSession(NotaktoState(3), Mode(COMPUTER, "perfect", 1), clock=clock, time_limit_s=60)
    assert computer_turn.time_left_ms() is None  # the computer's own moves are not timed
    broken = dict(saved, time_limit_s=45)
    with pytest.raises(SaveError):
        GameSession.from_dict(broken, LEVELS)
