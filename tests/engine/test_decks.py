"""The deck model: a draw may take only cards that could be on top, and takes them off
the top segments, leaving the segments below as they were."""

from __future__ import annotations

from itertools import combinations

from engine import decks
from engine.decks import draw_error, new_deck, put_under, remove_drawn

DECK = put_under(put_under(new_deck("abcde"), "fg"), "hij")
"""Three segments: {a..e} on top, then {f, g}, then {h, i, j} at the bottom."""


def test_remove_drawn_takes_cards_off_the_top_segments() -> None:
    assert remove_drawn(DECK, ("a", "c")) == (frozenset("bde"), frozenset("fg"),
                                             frozenset("hij"))
    assert remove_drawn(DECK, tuple("abcdef")) == (frozenset("g"), frozenset("hij"))
    assert remove_drawn(DECK, tuple("abcdefg")) == (frozenset("hij"),)
    assert remove_drawn(DECK, tuple("abcdefghij")) == ()
    assert remove_drawn(DECK, ()) == DECK
    assert remove_drawn((), ()) == ()


def test_every_possible_draw_is_allowed_and_no_other() -> None:
    cards = "abcdefghij"
    for n in range(1, 11):
        for drawn in combinations(cards, n):
            # the top n cards: all of each segment above, some of the one they end in
            ok = all(c in drawn for c in cards[: {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 5,
                                                  7: 5, 8: 7, 9: 7, 10: 7}[n]])
            ok = ok and all(c in cards[: 5 if n <= 5 else 7 if n <= 7 else 10]
                            for c in drawn)
            assert (draw_error(DECK, drawn, n) is None) == ok, drawn


def test_draw_errors_say_why() -> None:
    assert draw_error(DECK, ("a", "b"), 3) == "3 cards are drawn here, not 2"
    assert draw_error(DECK, ("a", "a"), 2) == "the same card is named twice"
    assert draw_error(DECK, ("a", "f"), 2) == \
        "'f' cannot be among the cards on top of the deck"
    assert draw_error(DECK, tuple("abcdhf"), 6) == \
        "'f' cannot be drawn yet: cards above it must come first"
    assert draw_error(DECK, tuple("abcdeh"), 6) == \
        "'h' cannot be among the cards on top of the deck"
    assert draw_error(DECK, tuple("abcdfg"), 6) == \
        "'f' cannot be drawn yet: cards above it must come first"
    assert draw_error(DECK, tuple("abcdefgh"), 20) == "10 cards are drawn here, not 8"


def test_the_stream_is_the_big_endian_words_of_the_counted_sha256_blocks() -> None:
    from hashlib import sha256
    from itertools import islice

    for k in range(20):
        key = decks.draw_key(f"seed-{k}", k, "deal")
        want = [int.from_bytes(sha256(key + n.to_bytes(8, "big")).digest()[i : i + 4], "big")
                for n in range(3) for i in range(0, 32, 4)]
        assert list(islice(decks._stream(key), 24)) == want
