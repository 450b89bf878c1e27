"""Card decks whose order is only partly known, and fair draws from a seed.

A deck is a tuple of *segments*, top first. Each segment is a set of cards whose
order nobody knows: the shuffled deck at the start is one segment, and the cards a
player puts back under the deck form one more segment at the bottom (ruling R13:
the player picks their order and nobody records it).

The same model serves both kinds of log. A recorded log states each draw, and
`draw_error` checks that the named cards could really be on top. A seeded game
derives each draw from the seed and the draw's position in the game (`sample`),
picking uniformly among the cards that could be on top: exactly a fair shuffle,
without a running generator, so any single draw can be recomputed on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from struct import Struct
from typing import Any

Deck = tuple[frozenset[str], ...]


def new_deck(cards: Iterable[str]) -> Deck:
    """A freshly shuffled deck: one segment of unknown order."""
    s = frozenset(cards)
    return (s,) if s else ()


def deck_size(deck: Deck) -> int:
    """Number of cards in the deck."""
    return sum(map(len, deck))


def draw_error(deck: Deck, cards: tuple[str, ...], n: int) -> str | None:
    """Why `cards` cannot be the top `n` cards of the deck, or None if they can."""
    want = min(n, deck_size(deck))
    if len(cards) != want:
        return f"{want} cards are drawn here, not {len(cards)}"
    rest = set(cards)
    if len(rest) != len(cards):
        return "the same card is named twice"
    for seg in deck:
        if not rest:
            break
        if len(seg) <= len(rest):
            if not seg <= rest:
                # Every card of this segment lies above the next one.
                bad = sorted(rest - seg)
                return f"'{bad[0]}' cannot be drawn yet: cards above it must come first"
            rest -= seg
        else:
            if not rest <= seg:
                bad = sorted(rest - seg)
                return f"'{bad[0]}' cannot be among the cards on top of the deck"
            break
    return None


def remove_drawn(deck: Deck, cards: Iterable[str]) -> Deck:
    """The deck after `cards` (a valid draw) have been taken off the top."""
    rest = set(cards)
    out: list[frozenset[str]] = []
    for i, seg in enumerate(deck):
        if not rest:  # the segments below the cards drawn stay as they are
            return (*out, *deck[i:])
        left = seg - rest
        rest -= seg
        if left:
            out.append(left)
    return tuple(out)


def put_under(deck: Deck, cards: Iterable[str]) -> Deck:
    """The deck with `cards` put under it as one group."""
    s = frozenset(cards)
    return (*deck, s) if s else deck


_sha256: Callable[[bytes], Any] | None = None
"""`hashlib.sha256`, imported at the first seeded draw (`_hash`): a recorded log's replay
never loads hashlib."""


def _hash() -> Callable[[bytes], Any]:
    global _sha256
    if _sha256 is None:
        from hashlib import sha256

        _sha256 = sha256
    return _sha256


def _stream(key: bytes) -> Iterator[int]:
    """32-bit unsigned integers, big-endian, from the blocks sha256(key + counter)."""
    sha256 = _hash()
    counter = 0
    while True:
        yield from _words(sha256(key + counter.to_bytes(8, "big")).digest())
        counter += 1


_words = Struct(">8I").unpack
"""The eight 32-bit big-endian words of a 32-byte block."""


def _below(stream: Iterator[int], n: int) -> int:
    """Uniform integer in [0, n) by rejection sampling."""
    limit = (1 << 32) - (1 << 32) % n
    while True:
        v = next(stream)
        if v < limit:
            return v % n


def draw_key(seed: str, position: int, purpose: str) -> bytes:
    """The key of one random draw: the seed, the event position and what is drawn."""
    sha256 = _sha256 if _sha256 is not None else _hash()
    key: bytes = sha256(f"pbem-draw|{seed}|{position}|{purpose}".encode()).digest()
    return key


def sample(deck: Deck, n: int, key: bytes) -> tuple[str, ...]:
    """The top `n` cards of the deck as a fair shuffle keyed by `key` decides."""
    stream = _stream(key)
    out: list[str] = []
    for seg in deck:
        need = n - len(out)
        if need <= 0:
            break
        cards = sorted(seg)
        # Partial Fisher-Yates: the first `need` positions of a uniform shuffle.
        for i in range(min(need, len(cards))):
            j = i + _below(stream, len(cards) - i)
            cards[i], cards[j] = cards[j], cards[i]
            out.append(cards[i])
    return tuple(out)
