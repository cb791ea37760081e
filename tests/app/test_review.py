"""Stepping through a game on the screen model: the game being played
(looking back while the computer thinks or the clock runs) and a game that
is not (a past one, a link's), and playing on from a reviewed position."""

from __future__ import annotations

import random

from app.model.parts import ALL
from app.model.change import NOTHING
from app.model.review import LINK, LIVE
from app.model.screen_view import screen_view
from app.model.session import COMPUTER, TWO_PLAYER, GameSession, Mode
from app.model.words import Msg
from core.base import FIRST, SECOND
from registry import STATES

from test_screen import Clock, answer, make, two_player


def played(state, texts):
    for text in texts:
        state.play(text)
    return state


def test_stepping_back_shows_earlier_positions_read_only_and_back_to_the_game() -> None:
    screen = two_player("hex", size=7, swap=False)
    for text in ("d4", "c3", "e5", "b2", "f6"):
        screen.move(text)
    live = screen_view(screen).moves
    assert [entry.shown for entry in live] == [False] * 4 + [True] and not any(entry.current for entry in live)
    assert screen.step(-3).parts >= {"board", "moves", "review"}
    assert screen.reviewing and screen.shown_ply() == 2 and screen.shown_state().moves == screen.session.state.moves[:2]
    view = screen_view(screen)
    assert view.review.label == Msg("review.position", {"ply": 2, "total": 5}) and view.review.live.shown
    assert view.status == Msg("status.looking_back") and not view.resign.enabled
    assert [entry.current for entry in view.moves] == [False, True, False, False, False]
    assert [entry.shown for entry in view.moves] == [False, True, False, False, False]
    assert "aria-disabled" in str(view.board) and not screen.interactive()
    assert screen.move("a1") == NOTHING and len(screen.session.state.moves) == 5  # read-only
    assert screen.step_first().parts and screen.shown_ply() == 0
    assert screen_view(screen).review.label == Msg("review.start", {"total": 5})
    assert not screen_view(screen).review.prev.enabled and screen.step(-1) == NOTHING
    screen.step_to(4)
    assert screen.step(+1).parts == ALL - {"stats", "settings"}  # the last move is the live game again
    assert not screen.reviewing and screen.interactive() and not screen_view(screen).review.live.shown
    screen.step(-1)
    assert screen.back_to_live().parts and not screen.reviewing and screen.back_to_live() == NOTHING


def test_the_move_list_numbers_each_move_with_its_players_mark_and_the_swap() -> None:
    screen = two_player("hex", size=7, swap=True)
    for text in ("b2", "swap", "d4"):
        screen.move(text)
    entries = screen_view(screen).moves
    assert [(e.ply, e.number, e.text, e.swap) for e in entries] == [(1, "1.", "b2", False), (2, "2.", "swap", True),
                                                                 (3, "3.", "d4", False)]
    assert entries[0].mark == entries[2].mark != entries[1].mark and isinstance(entries[0].mark, Msg)
    uttt = two_player("uttt")
    uttt.move("e5")
    uttt.move("e4")
    assert [e.mark for e in screen_view(uttt).moves] == ["X", "O"]
    notakto = make("notakto", opponent=f"{COMPUTER}:perfect", starts="home", boards=1)
    notakto.move("1a1")
    answer(notakto)
    assert [e.mark for e in screen_view(notakto).moves] == [Msg("player.you"), Msg("player.computer")]


def test_the_computer_does_not_move_while_the_player_looks_back() -> None:
    screen = make("uttt", opponent=f"{COMPUTER}:master", starts="home")
    screen.move("e5")
    request = screen.computer_request()
    screen.step(-1)  # looking back while it thinks
    assert screen.computer_answer(request, "e4").parts == {"status"}
    assert len(screen.session.state.moves) == 1 and screen.reviewing  # held, not played
    assert screen.computer_request() is None
    change = screen.back_to_live()
    assert screen.session.state.move_texts() == ["e5", "e4"] and change.announce.key == "announce.move.computer"
    assert screen.interactive()


def test_a_held_answer_for_another_position_is_dropped() -> None:
    screen = make("uttt", opponent=f"{COMPUTER}:master", starts="home")
    screen.move("e5")
    request = screen.computer_request()
    screen.step(-1)
    screen.computer_answer(request, "e4")
    screen.start_new()  # a new game meanwhile: the answer belongs to the old one
    assert screen.back_to_live() == NOTHING and screen.takeover.held is None


def test_the_clock_keeps_running_while_looking_back_and_the_timeout_waits() -> None:
    clock = Clock()
    screen = make("hex", clock=clock, opponent=TWO_PLAYER, time=30, size=7)
    screen.move("d4")
    screen.step(-1)
    clock.now += 31
    assert screen.tick().parts >= {"clock"} and screen.session.time_ran_out()
    assert screen.computer_request() is None  # not while looking back
    screen.back_to_live()
    assert screen.computer_request() is not None  # then the computer plays for the player


def test_a_reviewed_game_opens_at_its_end_and_the_game_being_played_is_untouched() -> None:
    screen = two_player("y", size=7)
    screen.move("a1")
    state = played(STATES["y"].from_settings({"size": 7}), ["c5", "b4", "a3"])
    change = screen.open_review(GameSession(state, Mode(TWO_PLAYER, "", FIRST)), LINK)
    assert change.parts >= {"board", "moves", "review", "confirm"}
    view = screen_view(screen)
    assert view.status == Msg("status.review.link") and view.review.origin == LINK
    assert view.review.ply == view.review.total == 3 and view.review.continue_here.shown and view.review.live.shown
    assert [e.text for e in view.moves] == ["c5", "b4", "a3"] and view.result is None
    screen.step(-2)
    assert screen.shown_state().move_texts() == ["c5"]
    assert screen.session.state.move_texts() == ["a1"]  # the player's own game
    screen.back_to_live()
    assert screen.origin == LIVE and screen.shown.state.move_texts() == ["a1"]


def test_continue_from_here_against_the_computer_asks_before_ending_a_game() -> None:
    screen = make("hex", opponent=f"{COMPUTER}:casual", starts="home", size=7, swap=False)
    screen.move("a1")
    answer(screen)
    state = played(STATES["hex"].from_settings({"size": 9, "swap": False}), ["e5", "d6", "c7"])
    screen.open_review(GameSession(state, Mode(TWO_PLAYER, "", FIRST)), LINK)
    screen.step(-1)
    change = screen.continue_here(COMPUTER)
    assert change.parts == {"confirm"} and screen.confirm.question == Msg("confirm.continue_loss")
    change = screen.answer(True)  # the unfinished game is resigned (it counts), then the link's goes on
    assert change.announce == Msg("announce.continued") and not screen.reviewing
    session = screen.session
    assert session.state.move_texts() == ["e5", "d6"] and session.state.settings()["size"] == 9
    assert session.mode == Mode(COMPUTER, "casual", FIRST) and session.assisted
    assert screen.interactive()  # black to move: the player
    screen.move("e6")
    assert screen.computer_request() is not None
    assert screen.play.store.slot.load()["game"]["state"]["moves"] == ["e5", "d6", "e6"]


def test_continue_as_two_players_with_nothing_to_lose_needs_no_question() -> None:
    screen = two_player("uttt")
    state = played(STATES["uttt"].from_settings({}), ["e5", "e4", "e2"])
    screen.open_review(GameSession(state, Mode(TWO_PLAYER, "", FIRST)), LINK)
    screen.continue_here(TWO_PLAYER)
    assert screen.session.mode == Mode(TWO_PLAYER, "", SECOND) and screen.session.state.move_texts() == ["e5", "e4", "e2"]
    assert screen.confirm is None and screen.interactive()


def test_no_continuing_from_a_finished_position() -> None:
    screen = two_player("notakto", boards=1)
    state = STATES["notakto"].from_settings({"boards": 1})
    rng = random.Random(2)
    while not state.is_over():
        state.push(rng.choice(state.legal_moves()))
    screen.open_review(GameSession(state, Mode(TWO_PLAYER, "", FIRST)), LINK)
    assert not screen_view(screen).review.continue_here.shown and screen.continue_here(TWO_PLAYER) == NOTHING
    assert screen_view(screen).result is not None  # its result, at its end
    screen.step(-1)
    assert screen_view(screen).result is None and screen_view(screen).review.continue_here.shown
    screen.step_last()  # the end again: its result again
    assert screen.reviewing and screen_view(screen).result is not None


def test_a_finished_game_joins_the_past_games_which_open_for_review_and_delete() -> None:
    from app.model.review import PAST
    from app.model.review_view import past_games

    clock = Clock()
    screen = make("hex", clock=clock, opponent=TWO_PLAYER, size=7, swap=False)
    first = ["a1", "g1", "a2", "g2", "a3", "g3", "a4", "g4", "a5", "g5", "a6", "g6", "a7"]
    for text in first:
        screen.move(text)
    change = screen.start_new()
    assert "archive" not in change.parts  # the list is drawn only when it changes
    clock.now += 60
    for text in ("d4", "c3"):
        screen.move(text)
    change = screen.resign()
    change = screen.answer(True)
    assert change.finished and "archive" in change.parts
    rows = past_games(screen).rows
    assert len(rows) == 2 and rows[0].plies == 2 and rows[1].plies == 13
    # Player 1 won both, as Blue and then (taking turns) as Green: each row says which.
    player_1 = Msg("player.numbered", {"number": 1})
    assert rows[1].result == Msg("past.player_won_mark", {"player": player_1, "mark": Msg("mark.blue")})
    assert rows[0].result == Msg("past.player_won_mark", {"player": player_1, "mark": Msg("mark.green")})
    assert rows[1].variant == Msg("past.variant", {"first": Msg("size.hex", {"size": 7}), "second": Msg("swap.false")})
    assert screen.open_past(rows[1].id).parts >= {"board", "moves", "review"}
    assert screen.origin == PAST and screen.shown.state.move_texts() == first
    assert past_games(screen).rows[1].open and screen_view(screen).review.past_id == rows[1].id and screen_view(screen).result.winner == FIRST
    screen.step(-1)
    assert screen.shown_state().move_texts() == first[:-1]
    assert "archive" in screen.delete_past(rows[1].id).parts
    assert not screen.reviewing and [row.id for row in past_games(screen).rows] == [rows[0].id]
    assert screen.delete_all_past().parts == {"confirm"}
    screen.answer(True)
    assert past_games(screen).rows == () and screen.open_past(rows[0].id).parts == {"archive"}


def test_the_past_games_list_shows_a_page_at_a_time() -> None:
    from app.model.review import PAST_PAGE
    from app.model.review_view import past_games

    clock = Clock()
    screen = make("notakto", clock=clock, opponent=TWO_PLAYER, boards=1)
    rng = random.Random(5)
    for _ in range(PAST_PAGE + 3):
        while not screen.session.is_over():
            state = screen.session.state
            screen.move(state.move_to_text(rng.choice(state.legal_moves())))
        clock.now += 1
        screen.start_new()
    view = past_games(screen)
    assert len(view.rows) == PAST_PAGE and view.more == 3
    assert [row.ended_ms for row in view.rows] == sorted((row.ended_ms for row in view.rows), reverse=True)
    assert screen.review.list_more_past().parts == {"archive"}
    assert len(past_games(screen).rows) == PAST_PAGE + 3 and past_games(screen).more == 0


def test_the_shown_game_goes_out_as_a_link_and_as_text_and_comes_back_the_same() -> None:
    from app.model import transfer
    from app.model.review import IMPORT

    screen = two_player("y", size=9, swap=True)
    for text in ("c5", "swap", "e5"):
        screen.move(text)
    screen.resign()
    screen.answer(True)  # the player to move, the second, resigns
    payload, text = screen.review.share_payload(), screen.review.export_text()
    friend = two_player("y")
    shared = transfer.read_share("y", payload)
    assert friend.open_transferred(shared, LINK).parts >= {"board", "moves"}
    assert friend.shown.state.move_texts() == ["c5", "swap", "e5"] and friend.shown.resigned == SECOND
    view = screen_view(friend)
    assert view.result.reason.key == "reason.resignation.player" and view.result.winner == FIRST
    assert friend.review.share_payload() == payload and friend.review.export_text() == text
    assert friend.open_transferred(transfer.import_text(text), IMPORT).parts and friend.origin == IMPORT
    assert friend.review.export_text() == text
    assert friend.open_transferred(transfer.import_text(text), LINK) and two_player("hex").open_transferred(shared, LINK) == NOTHING
    assert friend.session.state.moves == []  # the friend's own game, untouched


def test_the_way_back_says_where_it_goes() -> None:
    """A finished game looked back at waits for nothing; from another game
    the way back is to the player's own, finished, unfinished or not yet
    begun (a visitor who opened a link)."""
    from app.model import transfer

    link = transfer.read_share("hex", transfer.share_payload(played(STATES["hex"].from_settings({"size": 7, "swap": False}),
                                                                    ["d4", "c5"])))
    screen = two_player("hex", size=7, swap=False)
    screen.open_transferred(link, LINK)
    assert screen_view(screen).review.live_words == Msg("review.close_new")
    screen.back_to_live()
    screen.move("a1")
    screen.open_transferred(link, LINK)
    assert screen_view(screen).review.live_words == Msg("review.close")
    screen.back_to_live()
    for text in ("g1", "a2", "g2", "a3", "g3", "a4", "g4", "a5", "g5", "a6", "g6", "a7"):
        screen.move(text)
    screen.step(-1)
    view = screen_view(screen)
    assert view.status == Msg("status.looking_back_over") and view.review.live_words == Msg("review.live_over")
    screen.open_transferred(link, LINK)
    assert screen_view(screen).review.live_words == Msg("review.close_over")


def test_a_shared_game_shows_its_settings_and_its_address_until_played_on() -> None:
    from app.model import transfer

    payload = transfer.share_payload(played(STATES["hex"].from_settings({"size": 7, "swap": True}), ["d4", "c5"]))
    link = transfer.read_share("hex", payload)
    screen = make("hex", opponent=f"{COMPUTER}:casual", size=11, swap=False)
    assert screen.open_transferred(link, LINK).parts >= {"settings"}
    view = screen_view(screen)
    menus = {menu.name: menu for menu in view.settings}
    assert (menus["size"].selected, menus["swap"].selected, menus["opponent"].selected) == ("7", "True", "two_player")
    # The game's own settings, not to be changed; the board's orientation
    # stays the player's to change.
    assert [name for name, menu in menus.items() if menu.enabled] == ["orientation"] and "starts" not in menus
    assert view.settings_note == Msg("settings.shown_game")
    assert view.review.address == f"#/hex?g={payload}" and screen.review.shows_link(link)
    assert not screen.review.shows_link(transfer.read_share("hex", transfer.share_payload(
        played(STATES["hex"].from_settings({"size": 7, "swap": True}), ["d4"]))))
    screen.step(-1)
    screen.continue_here(TWO_PLAYER)
    view = screen_view(screen)
    menus = {menu.name: menu for menu in view.settings}
    assert view.review.address == "#/hex" and not screen.review.shows_link(link)
    assert (menus["size"].selected, menus["swap"].selected, menus["opponent"].selected) == ("7", "True", "two_player")
    assert all(menu.enabled for menu in view.settings) and view.settings_note is None
    screen.start_new()  # the next game is played with them too
    assert screen.session.state.settings() == {"size": 7, "swap": True} and screen.session.mode.opponent == TWO_PLAYER


def test_leaving_a_past_game_draws_the_settings_of_ones_own() -> None:
    screen = two_player("hex", size=7, swap=False)
    for text in ("a1", "g1", "a2", "g2", "a3", "g3", "a4", "g4", "a5", "g5", "a6", "g6", "a7"):
        screen.move(text)
    screen.start_new()
    screen.open_past(screen.review.past_games()[0].id)
    assert [menu.name for menu in screen_view(screen).settings if menu.enabled] == ["orientation"]
    assert "settings" in screen.back_to_live().parts
    assert all(menu.enabled for menu in screen_view(screen).settings)
