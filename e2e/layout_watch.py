"""Whether a page holds still while it is played: the boxes of chosen
elements (the board, the buttons under a player's pointer), measured after
every step of a scripted game and compared with the first measurement.

A box is measured in page coordinates with the page scrolled to its top
(and scrolled back at once), so that a scroll, the player's or Playwright's
before a click, is not taken for the layout moving, and a bar that sticks
to the screen's foot is measured where the player first sees it. Shared by
the tests that hold a layout to that (e2e/test_layout_never_moves.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playwright.sync_api import Page

Box = tuple[float, float, float, float]  # x, y, width, height in CSS pixels, rounded to whole pixels

BOXES = """(testids) => {
  const [left, top] = [scrollX, scrollY];
  scrollTo(0, 0);
  const boxes = testids.map((testid) => {
    const element = document.querySelector(`[data-testid="${testid}"]`);
    if (!element || !element.getClientRects().length) return null;
    const box = element.getBoundingClientRect();
    return [box.x + scrollX, box.y + scrollY, box.width, box.height].map(Math.round);
  });
  scrollTo(left, top);
  return boxes;
}"""


def layout_boxes(page: Page, testids: tuple[str, ...]) -> dict[str, Box | None]:
    """Each element's box (None where it is not laid out), as the page lays
    it out when scrolled to its top."""
    return {testid: None if box is None else tuple(box) for testid, box in zip(testids, page.evaluate(BOXES, list(testids)))}


@dataclass
class LayoutWatch:
    """The boxes of ``testids`` when the watch starts; ``check(step)`` after
    each step fails naming every element that moved or changed size since,
    and the step that moved it."""

    page: Page
    testids: tuple[str, ...]
    first: dict[str, Box | None] = field(init=False)
    steps: list[str] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.first = layout_boxes(self.page, self.testids)
        missing = [testid for testid, box in self.first.items() if box is None]
        assert not missing, f"not on the page when the watch started: {missing}"

    def check(self, step: str) -> None:
        self.steps.append(step)
        now = layout_boxes(self.page, self.testids)
        moved = {testid: f"{self.first[testid]} -> {box}" for testid, box in now.items() if box != self.first[testid]}
        assert not moved, f"after {' / '.join(self.steps)}: moved {moved}"
