"""The app's words as data: a ``Msg`` is a catalog key and its parameters,
turned into text by the page in the player's language (i18n/*.json). The
models and views say everything through these, so they know no language."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Msg:
    """A catalog message: translated by the browser layer."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:  # params is a dict; identity by content
        return hash((self.key, tuple(sorted(self.params.items()))))
