"""One word for one thing: the glossary (tests/data/glossary.json) against
the catalogs. Each concept names its term in every language and the words
that must not stand in for it, in the catalog keys of the games it belongs
to; a failure lists every offending key with its text. Besides, a concept
may say what kind of thing it is (``kind``: two kinds never share a word,
as a German cell and a small board once both were a "Feld"), which keys
must say its term in every language (``said_in``), and where a definition
said once is quoted (``definition``)."""

from __future__ import annotations

import json
import re
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "de", "pt", "id")
GLOSSARY = json.loads((ROOT / "tests" / "data" / "glossary.json").read_text(encoding="utf-8"))
CATALOGS = {code: json.loads((ROOT / "i18n" / f"{code}.json").read_text(encoding="utf-8")) for code in LANGUAGES}
# Keys that match no game's patterns are shown by every game (or by none).
SHARED = "shared"
SCOPES = (*GLOSSARY["scopes"], SHARED)
PLACEHOLDER = re.compile(r"\{\w+\}")
# What a concept may say besides its terms (the module's docstring).
OPTIONAL = {"kind", "said_in", "definition"}


def compile_(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def scope_of(key: str) -> str:
    """The one scope a catalog key belongs to (the glossary test below checks there is one)."""
    names = [name for name, globs in GLOSSARY["scopes"].items() if any(fnmatchcase(key, glob) for glob in globs)]
    return names[0] if names else SHARED


def texts(value: object) -> list[str]:
    """A catalog value's strings (every plural form), placeholders blanked."""
    forms = list(value.values()) if isinstance(value, dict) else [value]
    return [PLACEHOLDER.sub(" ", str(form)) for form in forms]


def avoid_rules(entry: dict, concept_scopes: list[str]) -> list[tuple[re.Pattern[str], set[str], dict[str, str]]]:
    """(pattern, scopes it is banned in, keys exempt from it) for one language's entry."""
    rules = []
    for item in entry["avoid"]:
        if isinstance(item, str):
            item = {"pattern": item}
        rules.append((compile_(item["pattern"]), set(concept_scopes) | set(item.get("also_in", [])), item.get("except", {})))
    return rules


def offences_in(text: str, entry: dict, rules: list) -> list[str]:
    """The words in text that one entry rules out (its allowed phrases first blanked)."""
    for allowed in entry.get("allow", []):
        text = compile_(allowed).sub(lambda match: " " * len(match.group()), text)
    return [match.group() for pattern, _, _ in rules for match in pattern.finditer(text)]


def test_every_key_pattern_names_keys_and_no_key_is_in_two_scopes() -> None:
    keys = list(CATALOGS["en"])
    for name, globs in GLOSSARY["scopes"].items():
        for glob in globs:
            assert any(fnmatchcase(key, glob) for key in keys), f"{name}: {glob} matches no catalog key"
    twice = {key: names for key in keys
             if len(names := [name for name, globs in GLOSSARY["scopes"].items()
                              if any(fnmatchcase(key, glob) for glob in globs)]) > 1}
    assert twice == {}


def test_every_concept_has_its_terms_in_all_four_languages() -> None:
    for name, concept in GLOSSARY["concepts"].items():
        assert concept["what"].strip(), name
        assert concept["scopes"] and set(concept["scopes"]) <= set(SCOPES), name
        assert set(concept) - {"what", "scopes", *OPTIONAL} == set(LANGUAGES), name
        assert all(key in CATALOGS["en"] for key in concept.get("said_in", [])), name
        for code in LANGUAGES:
            entry = concept[code]
            assert entry["term"].strip(), (name, code)
            # The term as the glossary writes it is what its pattern finds, and no rule of its own bans it.
            assert compile_(entry["use"]).search(entry["term"]), (name, code, entry["term"])
            rules = avoid_rules(entry, concept["scopes"])
            assert offences_in(entry["term"], entry, rules) == [], (name, code, entry["term"])
            for pattern, scopes, exempt in rules:
                assert scopes <= set(SCOPES), (name, code, pattern.pattern)
                assert all(scope_of(key) in scopes for key in exempt), (name, code, sorted(exempt))


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_rules_catch_the_words_they_are_meant_to_catch(code: str) -> None:
    """Each entry's examples: sentences its rules must flag and sentences they must let pass,
    so that a pattern (an inflection, a compound) cannot silently miss."""
    for name, concept in GLOSSARY["concepts"].items():
        entry = concept[code]
        rules = avoid_rules(entry, concept["scopes"])
        for sentence in entry.get("flags", []):
            assert offences_in(sentence, entry, rules), (name, sentence)
        for sentence in entry.get("passes", []):
            assert offences_in(sentence, entry, rules) == [], (name, sentence)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_catalog_uses_each_term_of_the_glossary(code: str) -> None:
    catalog = CATALOGS[code]
    unused = []
    for name, concept in GLOSSARY["concepts"].items():
        entry = concept[code]
        pattern = compile_(entry["use"])
        if not any(pattern.search(text) for key, value in catalog.items()
                   if scope_of(key) in concept["scopes"] for text in texts(value)):
            unused.append(f"{name}: {entry['term']!r}")
    assert unused == [], "terms no catalog string in their scope uses:\n" + "\n".join(unused)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_catalog_never_uses_a_word_the_glossary_rules_out(code: str) -> None:
    catalog = CATALOGS[code]
    offending = []
    for name, concept in GLOSSARY["concepts"].items():
        entry = concept[code]
        for rule in avoid_rules(entry, concept["scopes"]):
            _, scopes, exempt = rule
            for key, value in catalog.items():
                if scope_of(key) not in scopes or key in exempt:
                    continue
                for text in texts(value):
                    if found := offences_in(text, entry, [rule]):
                        offending.append(f"{name} (say {entry['term']!r}): {key}: {found} in {text!r}")
    assert offending == [], f"{len(offending)} offences in {code}.json:\n" + "\n".join(offending)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_word_names_one_kind_of_thing_in_every_game(code: str) -> None:
    """A cell's word is never a board's, in any game: a player who knows
    one game reads the others with the same words."""
    kinds = {name: concept for name, concept in GLOSSARY["concepts"].items() if "kind" in concept}
    clashes = [f"{name} ({concept['kind']}) {concept[code]['term']!r} is found in "
               f"{other} ({kinds[other]['kind']}) {kinds[other][code]['term']!r}"
               for name, concept in kinds.items() for other in kinds
               if kinds[other]["kind"] != concept["kind"]
               and compile_(concept[code]["use"]).search(kinds[other][code]["term"])]
    assert clashes == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_keys_that_must_say_a_term_say_it(code: str) -> None:
    """Where a thing must be named (the kinds of help in the definition of
    a game with help, a draw in the statistics' rating), every language
    names it, by its term."""
    catalog = CATALOGS[code]
    missing = [f"{name}: {key} does not say {concept[code]['term']!r}: {catalog[key]!r}"
               for name, concept in GLOSSARY["concepts"].items() for key in concept.get("said_in", [])
               if not any(compile_(concept[code]["use"]).search(text) for text in texts(catalog[key]))]
    assert missing == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_definition_said_once_is_quoted_wherever_it_is_given(code: str) -> None:
    """The screen's words and the guide's take a definition from one string
    (as the note under the board and the statistics page take what counts
    as help): they cannot drift apart."""
    catalog = CATALOGS[code]
    for name, concept in GLOSSARY["concepts"].items():
        if "definition" not in concept:
            continue
        definition = concept["definition"]
        assert PLACEHOLDER.search(catalog[definition["key"]]) is None, name  # quoted whole
        for key in definition["quoted_in"]:
            assert "{" + definition["placeholder"] + "}" in catalog[key], (name, key)
