"""The words of the notation: closed vocabularies matched case-insensitively, by exact
word or by a unique prefix of at least three letters.

Every vocabulary precomputes one dict from each accepted spelling (the words and all
their unique prefixes) to the canonical word, so resolving a token is one `str.lower`
and one dict lookup. The slow path (errors, "did you mean") runs only on bad input.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from functools import lru_cache

from engine.errors import AmbiguousError, NotationError
from engine.ruleset import DECKS, FREEDOMS, LANDSCAPES, OBJECTS, RULES

MIN_PREFIX = 3
"""Shortest prefix accepted for a word (an exact word of any length is accepted)."""

_LISTED = 7
"""Vocabularies this small are spelled out in full in messages."""


def quote(token: str) -> str:
    """A token as shown in a message: in single quotes, cut short if very long."""
    if len(token) > 40:
        token = token[:37] + "..."
    return f"'{token}'"


def alternatives(words: Sequence[str], conjunction: str = "or") -> str:
    """`'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`; lists longer than 7 end in "or N others"."""
    quoted = [quote(w) for w in words]
    if len(quoted) > _LISTED:
        return f"{', '.join(quoted[:5])} {conjunction} {len(quoted) - 5} others"
    if len(quoted) == 1:
        return quoted[0]
    return f"{', '.join(quoted[:-1])} {conjunction} {quoted[-1]}"


def article(noun: str) -> str:
    """The noun with "a" or "an" in front."""
    return f"an {noun}" if noun[:1] in ("a", "e", "i", "o", "u") else f"a {noun}"


class Vocabulary:
    """A closed set of lowercase words of one kind (buildings, professions, ...).

    `lookup` maps every accepted spelling (lowercase) to its canonical word: each word
    itself, and each prefix of `MIN_PREFIX` or more letters that only one word starts
    with. An exact word always wins over a longer word it is a prefix of. The words in
    `whole` are accepted only written in full: no prefix stands for them.
    """

    __slots__ = ("kind", "words", "expected", "wanted", "lookup", "whole", "_ambiguous")

    def __init__(
        self,
        kind: str,
        words: Iterable[str],
        *,
        expected: tuple[str, ...] | None = None,
        wanted: str | None = None,
        whole: Iterable[str] = (),
    ) -> None:
        self.kind = kind
        self.words: tuple[str, ...] = tuple(words)
        self.whole: frozenset[str] = frozenset(whole)
        self.expected: tuple[str, ...] = expected if expected is not None else (kind,)
        if wanted is None:
            wanted = article(kind)
            if 1 < len(self.words) <= _LISTED:
                wanted += f" ({', '.join(self.words[:-1])} or {self.words[-1]})"
        self.wanted: str = wanted
        starting: dict[str, list[str]] = {}
        for word in self.words:
            for n in range(MIN_PREFIX, len(word) + 1):
                starting.setdefault(word[:n], []).append(word)
        self.lookup: dict[str, str] = {
            p: ws[0] for p, ws in starting.items() if len(ws) == 1 and ws[0] not in self.whole
        }
        self.lookup.update((w, w) for w in self.words)
        self._ambiguous: dict[str, tuple[str, ...]] = {
            p: tuple(sorted(ws))
            for p, ws in starting.items()
            if len(ws) > 1 and p not in self.lookup
        }

    def __repr__(self) -> str:
        return f"Vocabulary({self.kind!r}, {len(self.words)} words)"

    def __contains__(self, word: object) -> bool:
        return word in self.lookup

    def resolve(self, token: str, column: int = 1) -> str:
        """The canonical word `token` stands for.

        Raises:
            AmbiguousError: `token` is a prefix of several words.
            NotationError: `token` is no word of this vocabulary or too short a prefix.
        """
        word = self.lookup.get(token.lower())
        if word is None:
            raise self.error(token, column)
        return word

    def error(self, token: str, column: int) -> NotationError:
        """The error for a token that `lookup` does not resolve, placed at `column`."""
        low = token.lower()
        shown = quote(token)
        ambiguous = self._ambiguous.get(low)
        if ambiguous:
            return AmbiguousError(
                f"ambiguous {self.kind} {shown}; did you mean {alternatives(ambiguous)}?",
                column=column,
                expected=self.expected,
                candidates=ambiguous,
            )
        if len(low) >= MIN_PREFIX:
            for word in self.words:
                if word in self.whole and word.startswith(low):
                    return NotationError(
                        f"{self.kind} {shown}: write {quote(word)} in full",
                        column=column,
                        expected=self.expected,
                        candidates=(word,),
                    )
        if len(low) < MIN_PREFIX:
            starts = tuple(w for w in self.words if w.startswith(low))
            if starts:
                return NotationError(
                    f"{self.kind} {shown} is too short (write at least {MIN_PREFIX} letters);"
                    f" did you mean {alternatives(starts)}?",
                    column=column,
                    expected=self.expected,
                    candidates=starts,
                )
        close = tuple(difflib.get_close_matches(low, self.words, n=3, cutoff=0.6))
        message = f"unknown {self.kind} {shown}"
        if close:
            message += f"; did you mean {alternatives(close)}?"
        elif len(self.words) <= _LISTED:
            message += f"; expected {alternatives(self.words)}"
        return NotationError(
            message, column=column, expected=self.expected, candidates=close
        )


VERBS = Vocabulary(
    "command",
    (
        "keep", "open", "bid", "pass", "take", "place", "choose", "build", "work",
        "profession", "bonus", "freedom", "recruit", "sell", "done", "undo", "agree",
        "refuse",
    ),
    whole=("done", "pass", "undo", "agree", "refuse", "bonus", "profession"),
)
"""The commands. Those that end a turn, give something up, answer an undo or pay for
a draw are taken only written in full, so that a word such as "Don" or "Bon" in a
greeting is never played."""
PROFESSIONS = Vocabulary("profession", RULES.professions)
BUILDINGS = Vocabulary("building", RULES.buildings)
LANDSCAPE_WORDS = Vocabulary("landscape", LANDSCAPES)
OBJECT_WORDS = Vocabulary("object", OBJECTS)
FREEDOM_WORDS = Vocabulary("freedom", FREEDOMS)
BONUS_CARDS = Vocabulary("bonus card", RULES.bonus)
PRESTIGE_CARDS = Vocabulary("prestige card", RULES.prestige)
CARDS = Vocabulary(
    "card",
    (*RULES.professions, *RULES.bonus, *RULES.prestige),
    expected=("profession", "bonus card", "prestige card"),
    wanted="a profession, bonus card or prestige card",
)
DECK_WORDS = Vocabulary("deck", DECKS)
CHANCE_WORDS = Vocabulary("chance event", ("deal", "draw"))
ROUND_WORDS = Vocabulary("round marker", ("round",))

DECK_CARDS: dict[str, Vocabulary] = {
    "profession": PROFESSIONS,
    "prestige": PRESTIGE_CARDS,
    "bonus": BONUS_CARDS,
}
"""The cards each deck holds, by deck name."""

_COLUMNS = "abcdefghijklmnopqrstuvwxyz"[: RULES.width]
CELL_ORDER: dict[str, int] = {
    f"{c}{r}": i * RULES.height + r - 1
    for i, c in enumerate(_COLUMNS)
    for r in range(1, RULES.height + 1)
}
"""Every cell name of the principality grid, with its rank in canonical order
(column, then row), the order of `engine.commands.canonical_cells`."""

FIRST_CELL = f"{_COLUMNS[0]}1"
LAST_CELL = f"{_COLUMNS[-1]}{RULES.height}"

PLAYER_NAME_FORBIDDEN = frozenset(':#*[]",\\')
"""Characters a player name may not contain (besides whitespace)."""


def bad_player_name_char(name: str) -> int:
    """Index of the first character that may not be in a player name, or -1."""
    for i, ch in enumerate(name):
        if ch in PLAYER_NAME_FORBIDDEN or ch.isspace():
            return i
    return -1


@lru_cache(maxsize=256)
def _player_vocabulary(names: tuple[str, ...]) -> Vocabulary:
    return Vocabulary("player", dict.fromkeys(n.lower() for n in names))


def player_vocabulary(players: Sequence[str]) -> Vocabulary | None:
    """The vocabulary of the seated players' names (lowercased), cached; None when
    `players` is empty (then any name token is accepted)."""
    if not players:
        return None
    return _player_vocabulary(tuple(players))
