"""Vocabularies: prefix resolution against a brute-force reference, words taken only in
full, memory linear in the words' length, and invisible characters in messages."""

from __future__ import annotations

import difflib
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import AmbiguousError, NotationError
from notation import parse_log
from notation.princes import VERBS, parse_command
from notation.words import (
    MIN_PREFIX,
    PREFIX_TABLE,
    Vocabulary,
    alternatives,
    article,
    player_vocabulary,
    quote,
    visible,
)


def reference(words: tuple[str, ...], token: str) -> tuple[str, str | tuple[str, ...]]:
    """What a token means, by brute force over every word: ("word", w), ("ambiguous",
    candidates), ("short", candidates) or ("unknown", close matches)."""
    low = token.lower()
    if low in words:
        return "word", low
    starts = tuple(sorted({w for w in words if w.startswith(low)}))
    if len(low) >= MIN_PREFIX and len(starts) == 1:
        return "word", starts[0]
    if len(low) >= MIN_PREFIX and starts:
        return "ambiguous", starts
    if starts:
        return "short", tuple(w for w in words if w.startswith(low))
    return "unknown", tuple(difflib.get_close_matches(low, words, n=3, cutoff=0.6))


def meaning(vocab: Vocabulary, token: str) -> tuple[str, str | tuple[str, ...]]:
    word = vocab.get(token.lower())
    if word is not None:
        assert vocab.resolve(token) == word
        return "word", word
    error = vocab.error(token, 5)
    assert error.column == 5
    with pytest.raises(NotationError) as raised:
        vocab.resolve(token, 5)
    assert raised.value.message == error.message
    if isinstance(error, AmbiguousError):
        assert error.message.startswith(f"ambiguous {vocab.kind} {quote(token)}; did you mean")
        return "ambiguous", error.candidates
    if "too short" in error.message:
        return "short", error.candidates
    assert error.message.startswith(f"unknown {vocab.kind} {quote(token)}")
    return "unknown", error.candidates


# Few letters, so that words share long prefixes; long enough to pass PREFIX_TABLE.
word_text = st.text(alphabet="abc-", min_size=1, max_size=PREFIX_TABLE + 8)


@settings(max_examples=300, deadline=None)
@given(st.lists(word_text, min_size=1, max_size=8, unique=True), st.data())
def test_resolution_matches_brute_force(words: list[str], data: st.DataObject) -> None:
    vocab = Vocabulary("thing", words)
    word = data.draw(st.sampled_from(words))
    cut = data.draw(st.integers(0, len(word)))
    token = data.draw(st.sampled_from([word[:cut], word[:cut].upper(), word[:cut] + "a",
                                       data.draw(word_text)]))
    assert meaning(vocab, token) == reference(tuple(words), token)


def test_long_prefixes_resolve_beyond_the_table() -> None:
    long, longer = "x" * 100 + "anna", "x" * 100 + "bas"
    vocab = Vocabulary("player", [long, longer])
    assert vocab.get("x" * 100 + "a") == long
    assert vocab.get("x" * 100 + "b") == longer
    assert ("x" * 100 + "b") in vocab
    with pytest.raises(AmbiguousError) as raised:
        vocab.resolve("x" * 60)
    assert raised.value.candidates == (long, longer)
    assert raised.value.message == (f"ambiguous player 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...';"
                                    f" did you mean {alternatives([long, longer])}?")


def test_an_exact_word_wins_over_a_longer_one() -> None:
    vocab = Vocabulary("player", ["anna", "annabel"])
    assert vocab.resolve("ANNA") == "anna"
    assert vocab.resolve("annab") == "annabel"
    with pytest.raises(AmbiguousError):
        vocab.resolve("ann")


def test_whole_words_are_taken_only_in_full() -> None:
    vocab = Vocabulary("command", ["done", "dock", "pass", "passage", "keep"],
                       whole=("done", "pass"))
    assert vocab.resolve("Done") == "done"
    assert vocab.resolve("PASS") == "pass"
    # no prefix resolves to a whole word, and a prefix that also starts one is ambiguous
    with pytest.raises(AmbiguousError) as shared:
        vocab.resolve("pas")
    assert shared.value.candidates == ("pass", "passage")
    assert vocab.resolve("passa") == "passage"
    assert vocab.resolve("doc") == "dock"
    assert vocab.resolve("kee") == "keep"
    with pytest.raises(NotationError) as raised:
        vocab.resolve("don", 7)
    error = raised.value
    assert error.message == "command 'don' is too short: write 'done' in full"
    assert (error.column, error.candidates) == (7, ("done",))
    assert not isinstance(error, AmbiguousError)
    assert "don" not in vocab and "done" in vocab
    with pytest.raises(NotationError, match="too short \\(write at least 3 letters\\)"):
        vocab.resolve("do")


def test_whole_words_must_be_words() -> None:
    with pytest.raises(ValueError, match="'stop'"):
        Vocabulary("command", ["done"], whole=("stop",))


def test_aliases_read_as_their_word() -> None:
    vocab = Vocabulary("building", ["theater", "tower", "thermae"],
                       aliases={"theatre": "theater"})
    assert vocab.words == ("theater", "tower", "thermae")  # never written
    for token in ("theatre", "THEATRE", "theatr", "theat", "thea", "theater"):
        assert vocab.resolve(token) == "theater", token
    with pytest.raises(AmbiguousError) as raised:
        vocab.resolve("the")  # theater/theatre and thermae
    assert raised.value.candidates == ("theater", "thermae")
    with pytest.raises(ValueError, match="'theatre'"):
        Vocabulary("building", ["tower"], aliases={"theatre": "theater"})
    assert parse_command("build Theatre a5 b5 c5 d5 e5").building == "theater"


def _peak(make: object, size: int) -> int:
    name = "n" * size
    tracemalloc.start()
    try:
        assert callable(make)
        make(name)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("make", [
    lambda name: Vocabulary("player", [name, "bas", name + "x"]),
    lambda name: player_vocabulary([name + "-a", "bas", name + "-b"]),
], ids=["vocabulary", "player_vocabulary"])
def test_memory_is_linear_in_the_names_length(make: object) -> None:
    small, large = _peak(make, 40_000), _peak(make, 400_000)
    assert 5 < large / small < 15  # quadratic memory would make this about 100


def test_invisible_characters_are_escaped() -> None:
    assert visible("ke\u200dep") == "ke\\u200dep"
    assert quote("ke\u200dep") == "'ke\\u200dep'"
    assert quote("a\tb\x00c\u00a0d e\u2028\U000e0001") == \
        "'a\\x09b\\x00c\\xa0d e\\u2028\\U000e0001'"
    assert quote("keep") == "'keep'" and quote("café") == "'café'"
    long = "\u200b" * 50
    shown = quote(long)
    assert shown == "'" + "\\u200b" * 6 + "...'"
    assert len(shown) <= 42
    assert quote("a" * 41) == "'" + "a" * 37 + "...'"
    assert quote("a" * 40) == "'" + "a" * 40 + "'"


def test_messages_show_invisible_characters() -> None:
    with pytest.raises(NotationError) as raised:
        parse_command("ke\u200dep jurist")
    assert raised.value.message.startswith("unknown command 'ke\\u200dep'")
    with pytest.raises(NotationError) as raised:
        parse_log('[Players "anna, bas, chris"]\nanna: keep jurist\u2060\n')
    assert "'jurist\\u2060'" in raised.value.message
    assert "\u2060" not in raised.value.message


def test_verbs_keep_their_three_letter_prefixes_apart() -> None:
    for verb in VERBS.words:
        if verb not in VERBS.whole:
            assert VERBS.resolve(verb[:3].upper()) == verb


def test_article_follows_the_sound_not_the_letter() -> None:
    assert [article(w) for w in ("opera", "alchemist", "university", "user", "tower")] == [
        "an opera", "an alchemist", "a university", "a user", "a tower"]
