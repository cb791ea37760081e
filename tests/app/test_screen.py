"""The game screen's model and what it shows, with no browser: every status
line and button state a player can reach, the settings waiting for the
next game, the clock, the computer's turn and the answers that come too
late to be used."""

from __future__ import annotations

import random

import pytest

from app.model.games import SPECS
from app.model.parts import ALL, Part
from app.model.change import NOTHING
from app.model.keep import settings_name
from app.model.play_view import stats_rows
from app.model.screen import GameScreen, open_screen
from app.model.screen_view import screen_view
from app.model.session import COMPUTER, TWO_PLAYER
from app.model.storage import MemoryBackend, Storage
from app.model.words import Msg


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def make(game: str, storage: Storage | None = None, clock: Clock | None = None, tab: str = "tab-a",
         **settings: object) -> GameScreen:
    storage = storage or Storage(MemoryBackend())
    if settings:
        storage.write(settings_name(game), settings)
    return open_screen(SPECS[game], storage, tab, clock or Clock(), lambda: "2026-12-01", random.Random(1))


def two_player(game: str, **settings: object) -> GameScreen:
    return make(game, opponent=TWO_PLAYER, **settings)


def answer(screen: GameScreen, move: str | None = None):
    """The engine's reply to the screen's request: ``move``, or the first
    legal move."""
    request = screen.computer_request()
    assert request is not None
    state = request.state
    return screen.computer_answer(request, move or state.move_to_text(state.legal_moves()[0]))


def play_to_end(screen: GameScreen, rng: random.Random) -> None:
    """Both seats move at random until the game ends (two people)."""
    while not screen.session.is_over():
        state = screen.session.state
        screen.move(state.move_to_text(rng.choice(state.legal_moves())))


# -- status and buttons ------------------------------------------------------------
def test_a_fresh_game_against_the_computer_is_the_players_turn() -> None:
    screen = make("uttt", opponent=f"{COMPUTER}:master", starts="home")
    view = screen_view(screen)
    assert view.status == Msg("status.turn_mark.you", {"player": Msg("player.numbered", {"number": 1}), "mark": "X"})
    assert view.detail == Msg("uttt.target.any")
    assert not view.undo.enabled and view.resign.enabled and view.new_game.enabled
    assert not view.swap.shown and view.result is None and view.clock is None and view.confirm is None
    assert screen.computer_request() is None


def test_the_computers_turn_says_it_thinks_and_locks_the_board() -> None:
    screen = make("uttt", opponent=f"{COMPUTER}:master", starts="home")
    change = screen.move("e5")
    assert change.parts >= {"board", "status", "moves"} and change.announce.key == "announce.move.you"
    request = screen.computer_request()
    assert request is not None and request.level == "master" and request.ticket.ply == 1
    view = screen_view(screen)
    assert view.status == Msg("status.computer_thinking")
    assert not view.undo.enabled and not screen.interactive()
    assert screen.move("a1") == NOTHING  # the board takes no move meanwhile
    assert screen.computer_request() is None  # one request at a time
    # The forced board: e5 sends the computer to the middle board.
    assert view.detail == Msg("uttt.target.one", {"board": 5, "span": "d4-f6"})


def test_the_computers_answer_is_played_and_undo_takes_both_moves_back() -> None:
    screen = make("uttt", opponent=f"{COMPUTER}:master", starts="home")
    screen.move("e5")
    change = answer(screen, "d4")
    assert change.announce.key == "announce.move.computer"
    assert screen.session.state.move_texts() == ["e5", "d4"]
    view = screen_view(screen)
    assert view.undo.enabled and view.status.key == "status.turn_mark.you"
    assert view.detail == Msg("uttt.target.one", {"board": 1, "span": "a1-c3"})
    screen.undo()
    assert screen.session.state.moves == [] and screen.session.assisted


def test_a_late_answer_for_another_position_or_game_is_dropped() -> None:
    screen = make("notakto", opponent=f"{COMPUTER}:perfect", starts="home")
    screen.move("1a1")
    request = screen.computer_request()
    screen.start_new()  # the player left for a new game while the computer thought
    assert screen.computer_answer(request, "1b2") == NOTHING
    assert screen.session.state.moves == []
    # A request for this position whose game then changed under it (another
    # tab's game taken over) is dropped too.
    screen.move("1a1")
    request = screen.computer_request()
    screen.session.state.pop()
    screen.session.play("2b2")
    assert screen.computer_answer(request, "1b2").parts == ALL
    assert screen.session.state.move_texts() == ["2b2"]
    assert not screen.thinking


def test_the_computer_moves_first_when_it_starts() -> None:
    screen = make("hex", opponent=f"{COMPUTER}:beginner", starts="away", swap=False)
    assert screen.session.mode.home_seat == 1
    assert screen.computer_request() is not None
    assert screen_view(screen).status == Msg("status.computer_thinking")


def test_a_swap_is_offered_to_the_second_player_only_after_the_first_stone() -> None:
    screen = two_player("hex", swap=True, size=9)
    assert not screen_view(screen).swap.shown
    screen.move("c3")
    view = screen_view(screen)
    assert view.swap.shown and view.status.key == "status.turn_mark.player"
    screen.swap()
    assert screen.session.state.move_texts() == ["c3", "swap"]
    assert not screen_view(screen).swap.shown
    without = two_player("y", swap=False)
    without.move("c3")
    assert not screen_view(without).swap.shown


def test_two_players_see_numbered_players_and_may_take_a_move_back() -> None:
    screen = two_player("notakto", boards=1)
    assert not screen_view(screen).undo.enabled
    screen.move("1a1")
    view = screen_view(screen)
    assert view.status == Msg("status.turn.player", {"player": Msg("player.numbered", {"number": 2}), "mark": ""})
    assert view.undo.enabled
    assert screen.undo().announce == Msg("announce.undo") and screen.session.state.moves == []
    assert not screen_view(screen).engine_hint.assisted
    screen.move("1a1")
    view = screen_view(screen)
    assert [t.name for t in view.toggles] == ["hints", "coordinates", "confirm", "eval", "sound", "takeover-0", "takeover-1"]


@pytest.mark.parametrize("game, reason", [("notakto", "reason.last_board_closed.player"),
                                          ("uttt", None), ("hex", "reason.connection_hex.player"),
                                          ("y", "reason.connection_y.player")])
def test_game_over_by_the_rules_shows_the_result_and_records_it(game: str, reason: str | None) -> None:
    screen = two_player(game, **({"boards": 1} if game == "notakto" else {}))
    play_to_end(screen, random.Random(3))
    view = screen_view(screen)
    # The status says who won, the line under it why (both at the top).
    assert view.status == view.result.headline and view.detail == view.result.reason and view.status.key.startswith("result.")
    assert not view.undo.enabled and not view.resign.enabled and view.new_game.enabled
    assert not screen.interactive() and screen.computer_request() is None
    outcome = screen.session.outcome()
    if reason is not None:
        assert view.result.reason.key == reason
        assert view.result.winner == outcome.winner
    else:
        assert view.result.reason.key in ("reason.three_boards_in_line.player", "reason.all_boards_decided")
    rows = {row.name: row for row in stats_rows(screen)}
    assert rows["games"].value == 1 and rows["games"].kind == "number"
    # The finished game stays, across a reload too, and is counted once.
    again = open_screen(SPECS[game], screen.play.store.storage, "tab-b", Clock(), lambda: "2026-12-01", random.Random(1))
    assert again.session.game_id == screen.session.game_id and again.session.is_over()
    assert screen_view(again).result == view.result and again.computer_request() is None
    assert {row.name: row for row in stats_rows(again)}["games"].value == 1
    assert again.new_game().parts == ALL and not again.session.state.moves


def test_a_drawn_uttt_game_says_draw() -> None:
    for seed in range(200):
        screen = two_player("uttt")
        play_to_end(screen, random.Random(seed))
        if screen.session.outcome().winner is None:
            break
    else:
        pytest.fail("no random game ended in a draw")
    view = screen_view(screen)
    assert view.result.headline == Msg("result.draw") and view.result.winner is None
    assert view.result.reason == Msg("reason.all_boards_decided")


def test_resigning_asks_first_then_loses_and_records_a_loss() -> None:
    screen = make("y", opponent=f"{COMPUTER}:casual", starts="home", swap=False)
    screen.move("e5")
    change = screen.resign()
    assert change.parts == {"confirm"} and screen_view(screen).confirm == (Msg("confirm.resign"), Msg("action.resign"))
    assert screen.answer(False).parts == {"confirm"} and not screen.session.is_over()
    screen.resign()
    change = screen.answer(True)
    assert change.finished and screen.session.resigned == screen.session.mode.home_seat
    view = screen_view(screen)
    assert view.result.headline == Msg("result.loss") and view.result.reason.key == "reason.resignation.you"
    assert {row.name: row.value for row in stats_rows(screen)}["wins"] == 0


def test_a_new_game_in_the_middle_asks_and_counts_as_a_loss_against_the_computer() -> None:
    screen = make("notakto", opponent=f"{COMPUTER}:perfect", starts="home")
    assert screen.new_game().parts == ALL  # nothing played yet: at once
    screen.move("1a1")
    answer(screen)
    screen.new_game()
    assert screen.confirm.question == Msg("confirm.abandon_loss")
    change = screen.answer(True)
    assert change.finished and change.announce == Msg("announce.new_game")
    # The change names the game that ended (for the embedding page's
    # "gameover" message), not the new one now on screen.
    ended = change.finished
    assert ended is not screen.session and ended.state.moves and ended.resigned == 0
    assert ended.outcome() is not None and ended.outcome().winner == 1
    assert screen.session.state.moves == [] and screen.session.mode.home_seat == 0  # "who starts": home
    rows = {row.name: row.value for row in stats_rows(screen)}
    assert rows["games"] == 1 and rows["wins"] == 0
    friend = two_player("notakto")
    friend.move("1a1")
    friend.new_game()
    assert friend.confirm.question == Msg("confirm.abandon")


def test_who_starts_alternates_between_games() -> None:
    screen = make("notakto", opponent=f"{COMPUTER}:perfect", starts="alternate")
    first = screen.session.mode.home_seat
    screen.move("1a1")
    screen.resign()
    screen.answer(True)
    screen.start_new()
    assert screen.session.mode.home_seat == 1 - first


@pytest.mark.parametrize("game", list(SPECS))
def test_the_opponent_menu_names_each_level_with_its_measured_rating_and_explains_the_chosen_one(game: str) -> None:
    spec = SPECS[game]
    screen = make(game, opponent=f"{COMPUTER}:{spec.levels[-1]}")
    menu = next(s for s in screen_view(screen).settings if s.name == "opponent")
    labels = dict(menu.options)
    for level in spec.levels:
        rating = str(spec.rating(level))
        assert labels[f"{COMPUTER}:{level}"] == Msg("level.rated", {"level": Msg(f"level.{game}.{level}.name"),
                                                                    "rating": rating})
    assert labels[TWO_PLAYER] == Msg("opponent.two_player")
    strongest = spec.levels[-1]
    assert menu.note == Msg("level.note", {"about": Msg(f"level.{game}.{strongest}.about"),
                                           "rating": str(spec.rating(strongest))})
    # Another choice, another note; two players need none.
    screen.choose("opponent", f"{COMPUTER}:{spec.levels[0]}")
    menu = next(s for s in screen_view(screen).settings if s.name == "opponent")
    assert menu.note is not None and menu.note.params["about"] == Msg(f"level.{game}.{spec.levels[0]}.about")
    screen.choose("opponent", TWO_PLAYER)
    menu = next(s for s in screen_view(screen).settings if s.name == "opponent")
    assert menu.note is None
    # Among the other menus, only "Take turns" and Hex's "To fit the screen"
    # have a sentence under them.
    notes = {s.name: s.note for s in screen_view(screen).settings if s.name != "opponent"}
    assert notes.pop("starts") == Msg("starts.alternate_help")
    assert notes.pop("orientation", None) == (Msg("orientation.auto_help") if game == "hex" else None)
    assert all(note is None for note in notes.values())


def test_a_setting_changed_during_a_game_waits_for_the_next_one() -> None:
    storage = Storage(MemoryBackend())
    screen = make("notakto", storage, opponent=f"{COMPUTER}:perfect", starts="home")
    screen.move("1a1")
    answer(screen)
    change = screen.change_setting("boards", 1)
    assert change.parts == {"settings"}
    view = screen_view(screen)
    assert view.settings_note == Msg("settings.next_game") and len(screen.session.state.boards) == 3
    assert next(s for s in view.settings if s.name == "boards").selected == "1"
    # The pending setting survives leaving the screen (a new model from storage).
    again = make("notakto", storage)
    assert again.play.pending == {"boards": 1} and screen_view(again).settings_note == Msg("settings.next_game")
    again.resign()
    again.answer(True)
    again.start_new()
    assert len(again.session.state.boards) == 1 and screen_view(again).settings_note is None
    # Choosing the current value again drops the pending change.
    again.move("1a1")
    answer(again)
    again.change_setting("boards", 2)
    again.change_setting("boards", 1)
    assert not again.play.pending


def test_a_setting_changed_before_anyone_moved_restarts_the_game_at_once() -> None:
    screen = make("hex", opponent=f"{COMPUTER}:master", starts="home")
    game_id = screen.session.game_id
    assert screen.change_setting("size", 7).parts == ALL
    assert screen.session.state.size == 7 and screen.session.game_id != game_id and not screen.play.pending
    assert screen.change_setting("size", 8) == NOTHING  # not an offered value


def test_a_links_settings_apply_as_a_players() -> None:
    screen = make("hex", opponent=f"{COMPUTER}:master", starts="home")
    screen.apply_link_settings({"size": 9, "swap": False})
    assert screen.session.state.size == 9 and not screen.session.state.swap_rule


def test_the_clock_counts_down_and_the_computer_moves_for_a_player_out_of_time() -> None:
    clock = Clock()
    screen = make("uttt", clock=clock, opponent=TWO_PLAYER, time=30)
    view = screen_view(screen)
    assert view.clock.text == "0:30" and not view.clock.low
    clock.now += 21.5
    assert screen.tick().parts == {"clock"}
    assert screen_view(screen).clock.text == "0:09" and screen_view(screen).clock.low
    clock.now += 9
    assert screen.tick().parts >= {"status", "clock"}
    request = screen.computer_request()
    assert request is not None and screen.session.assisted
    assert screen_view(screen).status == Msg("status.computer_plays_for.player",
                                             {"player": Msg("player.numbered", {"number": 1})})
    change = screen.computer_answer(request, "e5")
    assert change.announce.key == "announce.timeout.player"
    assert screen_view(screen).clock.text == "0:30"  # the next player's full time
    untimed = two_player("uttt")
    assert untimed.tick() == NOTHING and screen_view(untimed).clock is None


def test_the_computer_plays_for_a_seat_handed_over_and_gives_it_back() -> None:
    screen = two_player("notakto", boards=2)
    screen.takeover.hand_over(0, True)
    view = screen_view(screen)
    assert next(t for t in view.toggles if t.name == "takeover-0").checked
    assert view.status == Msg("status.computer_plays_for.player", {"player": Msg("player.numbered", {"number": 1})})
    request = screen.computer_request()
    assert request.level == SPECS["notakto"].levels[-1]
    screen.takeover.hand_over(0, False)
    assert screen.computer_answer(request, "1a1").parts == ALL  # handed back meanwhile: dropped
    assert screen.session.state.moves == []
    # Against the computer only the player's own seat can be handed over.
    against = make("notakto", opponent=f"{COMPUTER}:perfect", starts="home")
    assert [t.name for t in screen_view(against).toggles] == ["hints", "coordinates", "confirm", "eval", "sound", "takeover-0"]
    assert against.takeover.hand_over(1, True) == NOTHING


def test_hints_mark_safe_moves_and_make_the_game_assisted() -> None:
    screen = make("notakto", opponent=f"{COMPUTER}:perfect", starts="home", boards=1)
    assert screen_view(screen).hint is None
    screen.play.set_display("hints", True)
    view = screen_view(screen)
    assert screen.session.assisted and view.hint == Msg("hint.some", {"count": 1})  # only the centre is safe
    assert next(t for t in view.toggles if t.name == "hints").checked
    assert screen.play.set_display("boards", True) == NOTHING  # not a display setting


def test_coordinates_are_a_display_setting_of_the_connection_games() -> None:
    screen = make("y")
    screen.play.set_display("coordinates", True)
    assert any(child[0] == "text" for child in screen_view(screen).board[2])


def test_the_hex_board_stands_as_the_player_chose_at_once_and_remembered() -> None:
    """The orientation is a menu of the settings form that applies at once:
    the game goes on, and a reopened screen draws the board the same way."""
    storage = Storage(MemoryBackend())
    screen = make("hex", storage, opponent=TWO_PLAYER)
    screen.move("c3")

    def upright(portrait: bool) -> bool:
        return "tall" in screen_view(screen, portrait=portrait).board[1]["class"].split()

    menu = next(s for s in screen_view(screen).settings if s.name == "orientation")
    assert [value for value, _ in menu.options] == ["auto", "upright", "slanted"] and menu.selected == "auto"
    assert menu.note == Msg("orientation.auto_help")
    assert "orientation" not in [t.name for t in screen_view(screen).toggles]
    assert (upright(portrait=True), upright(portrait=False)) == (True, False)
    change = screen.choose("orientation", "upright")
    assert {Part.BOARD, Part.SETTINGS} <= change.parts and screen.session.state.move_texts() == ["c3"]
    assert screen_view(screen).settings_note is None
    menu = next(s for s in screen_view(screen).settings if s.name == "orientation")
    assert menu.selected == "upright" and menu.note is None
    assert (upright(portrait=True), upright(portrait=False)) == (True, True)
    screen.choose("orientation", "slanted")
    assert (upright(portrait=True), upright(portrait=False)) == (False, False)
    assert screen.choose("orientation", "sideways") == NOTHING
    screen = make("hex", storage)
    assert screen.settings["orientation"] == "slanted" and not upright(portrait=True)
    assert screen.session.state.move_texts() == ["c3"]
    assert "orientation" not in [c.name for c in SPECS["y"].choices]


def test_a_damaged_save_is_set_aside_and_a_fresh_game_opens() -> None:
    storage = Storage(MemoryBackend())
    first = make("uttt", storage, opponent=TWO_PLAYER)
    first.move("e5")
    payload = storage.read("save/uttt", lambda data: True, None)
    payload["game"]["state"]["moves"] = ["e5", "e5"]  # illegal
    storage.write("save/uttt", payload)
    again = make("uttt", storage)
    assert again.session.state.moves == [] and storage.backups()


def test_a_game_saved_by_another_tab_raises_a_conflict_and_can_be_taken_over() -> None:
    storage = Storage(MemoryBackend())
    mine = make("uttt", storage, tab="tab-a", opponent=TWO_PLAYER)
    theirs = make("uttt", storage, tab="tab-b")
    theirs.move("a1")
    assert mine.other_tab_changed("save").conflict
    assert mine.move("e5").conflict  # saving would overwrite theirs: not written
    mine.take_over()
    assert mine.session.state.move_texts() == ["a1"]


def test_the_forms_events_arrive_as_text_and_names() -> None:
    screen = two_player("notakto", boards=3)
    assert screen.choose("boards", "2").parts == ALL and len(screen.session.state.boards) == 2
    assert screen.choose("boards", "9") == NOTHING and screen.choose("colour", "red") == NOTHING
    assert screen.choose("hints", "True") == NOTHING  # a switch, not a menu
    assert screen.toggle("takeover-1", True).parts == ALL and screen.session.takeover == [False, True]
    assert screen.toggle("takeover-7", True) == NOTHING
    assert screen.toggle("hints", True).parts >= {"board", "toggles"} and screen.settings["hints"]


def test_a_menu_names_its_options_shortly_and_explains_the_chosen_one_under_it() -> None:
    screen = make("uttt")
    starts = next(s for s in screen_view(screen).settings if s.name == "starts")
    assert dict(starts.options)["alternate"] == Msg("starts.alternate")
    assert starts.selected == "alternate" and starts.note == Msg("starts.alternate_help")
    screen.choose("starts", "home")
    starts = next(s for s in screen_view(screen).settings if s.name == "starts")
    assert starts.selected == "home" and starts.note is None
