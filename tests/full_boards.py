"""Random full boards of a connection game (Hex, Y) for their rules tests,
which judge each board independently of the core and compare."""

from __future__ import annotations

from typing import Callable

from hypothesis import strategies as st

from core.hex import ConnectionState


def full_boards(sizes: list[int], cells: Callable[[int], int]) -> st.SearchStrategy[tuple[int, list[int]]]:
    """(size, every cell of that board in a random order); black takes the
    cells at the even places of the order."""
    return st.sampled_from(sizes).flatmap(lambda size: st.permutations(range(cells(size))).map(
        lambda order: (size, order)))


def first_to_connect(state: ConnectionState, order: list[int]) -> int:
    """Push the cells of ``order`` until the game ends and return the
    winner: the player whose stone ended it, who connected first (on a
    full board nobody else ever does). Taking that stone back goes on."""
    for move in order:
        state.push(move)
        if state.is_over():
            break
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "connection"
    assert outcome.winner == (len(state.moves) - 1) % 2
    state.pop()
    assert state.outcome() is None
    return outcome.winner
