"""Each part of the game screen's model on its own (app/model: play,
clock, takeover, review, insight) and what the coordinator owes them: the
screen is opened from storage by ``open_screen`` and its constructor reads
nothing."""

from __future__ import annotations

import random

from app.model.change import NOTHING, Ticket
from app.model.clock import MoveClock
from app.model.clock_view import clock_view
from app.model.games import SPECS
from app.model.insight import HINT, Insight, position_key
from app.model.keep import ScreenStore, settings_name
from app.model.parts import ALL, Part
from app.model.play import Play
from app.model.review import LINK, LIVE, Review
from app.model.screen import GameScreen, open_screen
from app.model.session import COMPUTER, TWO_PLAYER
from app.model.storage import MemoryBackend, Storage
from app.model.takeover import Takeover
from app.model.transfer import import_text


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class CountingStorage(Storage):
    """A storage that counts its reads."""

    reads = 0

    def read(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.reads += 1
        return super().read(*args, **kwargs)


def play_part(game: str, clock: Clock | None = None, **settings: object) -> Play:
    storage = Storage(MemoryBackend())
    storage.write(settings_name(game), settings)
    store = ScreenStore(storage, game, "tab-a")
    clock = clock or Clock()
    play = Play(SPECS[game], store, store.load(SPECS[game], clock), clock, lambda: "2026-12-01")
    play.opened(restored=False)
    return play


def test_the_screen_is_read_from_storage_by_open_screen_and_its_constructor_reads_nothing() -> None:
    storage = CountingStorage(MemoryBackend())
    storage.write(settings_name("hex"), {"size": 9, "opponent": TWO_PLAYER})
    store = ScreenStore(storage, "hex", "tab-a")
    saved = store.load(SPECS["hex"], Clock())
    assert storage.reads and saved.settings["size"] == 9 and saved.session is None
    before = storage.reads
    screen = GameScreen(SPECS["hex"], store, saved, Clock(), lambda: "2026-12-01", random.Random(1))
    assert storage.reads == before and screen.session.state.size == 9
    # open_screen reads, builds and saves the new game at once.
    opened = open_screen(SPECS["hex"], storage, "tab-b", Clock(), lambda: "2026-12-01")
    assert opened.play.store.slot.load() is not None


def test_play_alone_moves_keeps_a_setting_for_the_next_game_and_undoes() -> None:
    play = play_part("hex", opponent=TWO_PLAYER, size=9, swap=False)
    change = play.move("e5")
    assert change.parts >= {Part.BOARD, Part.MOVES} and play.session.state.move_texts() == ["e5"]
    assert play.move("e5") == NOTHING  # taken: an illegal move changes nothing
    assert play.change_settings({"size": 11}).parts == {Part.SETTINGS} and play.pending == {"size": 11}
    assert play.undo().parts == ALL and play.session.state.moves == [] and not play.session.assisted  # no help
    play.move("e5")
    assert play.start_new().parts == ALL and play.session.state.size == 11 and not play.pending
    against = play_part("uttt", opponent=f"{COMPUTER}:master", starts="home")
    against.move("e5")
    against.computer_move("d4")
    assert against.undo().parts == ALL and against.session.state.moves == [] and against.session.assisted


def test_the_clock_alone_counts_down_and_notes_a_time_out_until_the_player_moves() -> None:
    clock = Clock()
    play = play_part("hex", clock, opponent=TWO_PLAYER, size=9, swap=False, time=30)
    move_clock = MoveClock()
    assert move_clock.tick(play.session, thinking=False).parts == {Part.CLOCK}
    assert clock_view(play.session).text == "0:30"
    clock.now += 31
    assert Part.STATUS in move_clock.tick(play.session, thinking=False).parts
    play.session.play("e5")
    move_clock.ran_out(play.session, 0)
    assert move_clock.timeout_note(play.session) == (0, play.session.state.moves[0])
    play.session.play("d4")
    play.session.play("c3")  # the player who ran out moved again: no longer news
    assert move_clock.timeout_note(play.session) is None


def test_the_computer_alone_asks_once_and_not_again_where_it_failed() -> None:
    play = play_part("hex", opponent=f"{COMPUTER}:beginner", starts="away", swap=False, size=9)
    takeover = Takeover(play, random.Random(1))
    assert takeover.request(reviewing=True) is None  # never while the player looks back
    request = takeover.request(reviewing=False)
    assert request is not None and takeover.thinking and takeover.request(reviewing=False) is None
    assert takeover.failed_on(request).parts and not takeover.thinking
    assert takeover.request(reviewing=False) is None  # not asked again in that position
    assert takeover.hand_over(0, True) == NOTHING  # the computer's own seat is not handed over
    assert takeover.hand_over(1, True).parts == ALL and play.session.takeover == [False, True]


def test_review_alone_steps_through_a_game_and_opens_a_link_s() -> None:
    play = play_part("hex", opponent=TWO_PLAYER, size=9, swap=False)
    for move in ("e5", "d4", "c3"):
        play.move(move)
    review = Review(play)
    assert review.target(3) is None and review.target(9) is None  # already at the live end
    assert review.target(1) == 1 and review.show(1).parts >= {Part.BOARD, Part.REVIEW}
    assert review.reviewing and review.shown_state().move_texts() == ["e5"] and review.origin == LIVE
    assert review.is_live_end(review.target(3))
    review.leave()
    linked = review.transferred(import_text("[abstract-games 1] game=hex size=9 swap=off\nmoves: a1 b2\n"))
    assert linked is not None and review.open(linked, LINK).parts >= {Part.CONFIRM}
    assert review.shown is linked and review.origin == LINK and play.session is not linked
    other = import_text("[abstract-games 1] game=y size=9 swap=off\nmoves: a1\n")
    assert review.transferred(other) is None  # another game's text opens nothing here


def test_insight_alone_asks_the_hint_once_and_keeps_its_verdict() -> None:
    play = play_part("hex", opponent=TWO_PLAYER, size=9, swap=False)
    review = Review(play)
    insight = Insight(play, review, 1.0, random.Random(1), interactive=lambda: True, thinking=lambda: False)
    assert insight.has_hint and insight.ask_hint().parts == {Part.HINT} and play.session.assisted
    assert insight.ask_hint() == NOTHING  # asked already for this position
    task = insight.engine_task()
    assert task is not None and task.kind == HINT and task.ticket == Ticket(play.session.game_id, ())
    assert insight.engine_task() is None  # one task at a time
    reply = {"move": "e5", "chance": 0.6, "proof": None, "reason": "search", "plies": None}
    assert Part.HINT in insight.engine_reply(task, reply).parts
    assert insight.live_hint() is not None and insight.live_hint().move == "e5"
    assert position_key(play.session.state) not in insight.evaluations  # the hint's search is not the bar's
