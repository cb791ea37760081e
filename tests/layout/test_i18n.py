"""The catalogs: complete in every language, the same placeholders, CLDR
plural forms, and no user-visible text outside them."""

from __future__ import annotations

import ast
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from app.model.games import SPECS, opponent_values, split_opponent

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "de", "pt", "id")
# CLDR plural categories for integers, per language.
PLURALS = {"en": {"one", "other"}, "de": {"one", "other"}, "pt": {"one", "many", "other"}, "id": {"other"}}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def load(code: str) -> dict:
    return json.loads((ROOT / "i18n" / f"{code}.json").read_text(encoding="utf-8"))


def placeholders(value: object) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(placeholders(form) for form in value.values()))
    return set(PLACEHOLDER.findall(str(value)))


ENGLISH = load("en")


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_catalog_has_exactly_the_english_keys_and_placeholders(code: str) -> None:
    catalog = load(code)
    assert list(catalog) == list(ENGLISH)
    for key, english in ENGLISH.items():
        value = catalog[key]
        assert type(value) is type(english), key
        assert placeholders(value) == placeholders(english), key
        if isinstance(value, str):
            assert value.strip(), key
        else:
            assert set(value) == PLURALS[code], f"{code} {key}: {sorted(value)}"
            for form in value.values():
                assert placeholders(form) == placeholders(english), key


@pytest.mark.parametrize("code", LANGUAGES)
def test_guide_prose_keeps_its_structure(code: str) -> None:
    catalog = load(code)
    for key, english in ENGLISH.items():
        if key.startswith("guide.") and isinstance(english, str):
            assert english.count("\n- ") == catalog[key].count("\n- "), key
            assert english.count("\n\n") == catalog[key].count("\n\n"), key


class _Texts(HTMLParser):
    """Visible text and translatable attributes of the static page."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[dict[str, str | None]] = []
        self.problems: list[str] = []
        self.keys: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        values["__tag"] = tag
        if tag not in ("meta", "link", "input", "br", "img"):
            self.stack.append(values)
        for attribute in ("aria-label", "title", "alt", "placeholder"):
            if values.get(attribute) and "data-i18n-attr" not in values:
                self.problems.append(f"{tag}[{attribute}] is not from the catalog")
        if values.get("data-i18n-attr"):
            for pair in (values["data-i18n-attr"] or "").split(";"):
                attribute, key = pair.split(":")
                self.keys.append(key)
                if values.get(attribute) != ENGLISH.get(key):
                    self.problems.append(f"{attribute} of {key} differs from the catalog")

    def handle_endtag(self, tag: str) -> None:
        if self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        text = data.strip()
        if not text or not self.stack:
            return
        owner = self.stack[-1]
        if owner["__tag"] in ("script", "style"):
            return
        if owner["__tag"] == "option" and owner.get("lang"):
            return  # a language's own name is the same in every language
        key = owner.get("data-i18n")
        if key is None:
            self.problems.append(f"text {text!r} is not from the catalog")
        else:
            self.keys.append(key)
            if ENGLISH.get(key) != text:
                self.problems.append(f"text of {key} differs from the catalog")


def test_the_static_page_shows_only_catalog_text() -> None:
    parser = _Texts()
    parser.feed((ROOT / "index.html").read_text(encoding="utf-8"))
    assert parser.problems == []
    assert len(parser.keys) > 20


def _literal_message_keys() -> set[str]:
    keys = set()
    for path in (ROOT / "py" / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Msg" and node.args:
                if isinstance(node.args[0], ast.Constant):
                    keys.add(node.args[0].value)
    return keys


def test_every_literal_message_key_is_in_the_catalog() -> None:
    keys = _literal_message_keys()
    assert len(keys) > 20
    assert sorted(keys - set(ENGLISH)) == []


def test_every_generated_message_key_is_in_the_catalog() -> None:
    needed = set()
    for game, spec in SPECS.items():
        needed |= {f"games.{game}.name", f"games.{game}.desc", f"guide.{game}.rules"}
        state = spec.make_state(spec.defaults())
        needed.add(spec.describe(state, state.legal_moves()[0]).key)
        if spec.seat_mark is not None:
            marks = [spec.seat_mark(seat, {"red_blue": red_blue}) for seat in (0, 1) for red_blue in (False, True)]
            needed |= {mark.key for mark in marks if not isinstance(mark, str)}
        for reason in spec.reason_names.values():
            needed |= {f"reason.{reason}.{who}" for who in ("you", "computer", "player")}
        for value in opponent_values(game):
            kind, level = split_opponent(value)
            if level:
                needed.add(f"level.{game}.{level}")
        for choice in spec.choices:
            needed.add(choice.label)
            if choice.name == "boards":
                needed |= {f"boards.{value}" for value in choice.values}
            if choice.name == "starts":
                needed.add("starts.alternate")
                needed |= {f"starts.{v}.{o}" for v in ("home", "away") for o in ("computer", "two_player")}
            if choice.name == "time":
                needed |= {f"time_limit.{value}" for value in choice.values}
            if choice.name == "size":
                needed.add(f"size.{game}")
            if choice.name == "swap":
                needed |= {"swap.true", "swap.false"}
    for prefix in ("status.turn", "status.turn_mark", "status.computer_plays_for", "announce.move", "announce.timeout", "takeover"):
        needed |= {f"{prefix}.{who}" for who in ("you", "computer", "player")}
    for reason in ("last_board_closed", "resignation", "three_boards_in_line"):
        needed |= {f"reason.{reason}.{who}" for who in ("you", "computer", "player")}
    needed.add("reason.all_boards_decided")
    for kind in ("corrupt", "future", "quota", "unavailable"):
        needed.add(f"notice.{kind}")
    assert sorted(needed - set(ENGLISH)) == []


def test_shell_keys_used_by_the_shell_exist() -> None:
    source = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "shell").glob("*.js"))
    assert "t(\"guide.faq\")" in source and "t(\"time.seconds\"" in source  # the shell's modules were read
    keys = set(re.findall(r'\bt\("([\w.]+)"', source))
    keys |= {f"loading.{stage}" for stage in ("runtime", "starting", "games", "ready")}
    keys |= {"error.load", "error.runtime"}
    assert sorted(keys - set(ENGLISH)) == []


def test_every_diagram_of_the_guide_has_its_caption() -> None:
    # shell/figures.js: FIGURES = {game: [[section, name, picture], ...]};
    # shell/guide.js captions each with guide.<game>.fig_<name> and puts it
    # after the text of its section.
    figures: dict[str, list[tuple[str, str]]] = {}
    game = None
    for line in (ROOT / "shell" / "figures.js").read_text(encoding="utf-8").split("export const FIGURES", 1)[1].splitlines():
        if match := re.match(r"  (\w+): \[$", line):
            game = match.group(1)
        elif match := re.match(r'    \["(\w+)", "(\w+)", ', line):
            figures.setdefault(game, []).append(match.groups())
    assert set(figures) == set(SPECS)
    assert all(len(drawn) >= 1 for drawn in figures.values())
    for game, drawn in figures.items():
        for section, name in drawn:
            assert f"guide.{game}.{section}" in ENGLISH, (game, section)
            assert f"guide.{game}.fig_{name}" in ENGLISH, (game, name)
    captions = {key for key in ENGLISH if re.fullmatch(r"guide\.\w+\.fig_\w+", key)}
    assert captions == {f"guide.{game}.fig_{name}" for game, drawn in figures.items() for _, name in drawn}


# Values that may read the same as English: names, marks and symbols.
SAME_IN_EVERY_LANGUAGE = {
    "games.notakto.name", "games.uttt.name", "games.hex.name", "games.y.name", "cell.x", "cell.o",
    "stats.none", "notice.dismiss", "stats.rating", "time.minutes_seconds", "cell.label", "app.name",
    "player.computer", "share.link",
    # Portuguese calls the level "Casual" too, as in its full name
    *(f"level.{game}.casual.name" for game in ("notakto", "uttt", "hex", "y")),
}


def _words(value: object) -> str:
    text = " ".join(value.values()) if isinstance(value, dict) else str(value)
    return re.sub(PLACEHOLDER, "", text)


@pytest.mark.parametrize("code", ["de", "pt", "id"])
def test_every_catalog_is_translated(code: str) -> None:
    catalog = load(code)
    untranslated = [key for key, english in ENGLISH.items()
                    if catalog[key] == english and key not in SAME_IN_EVERY_LANGUAGE and re.search(r"[A-Za-z]{2}", _words(english))]
    assert untranslated == []
