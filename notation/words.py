"""The words of the notation: closed vocabularies matched case-insensitively, by exact
word or by a unique prefix of at least three letters.

Every vocabulary keeps one dict, `lookup`, from each exact word and each unique prefix
of up to `PREFIX_TABLE` letters to the canonical word, so resolving a token is one
`str.lower` and one dict lookup. Longer prefixes (of long player names) are found by
bisection in the sorted words, so memory stays linear in the words' length. The slow
path (errors, "did you mean") runs only on bad input.
"""

from __future__ import annotations

import difflib
import unicodedata
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from engine.errors import AmbiguousError, NotationError, article

MIN_PREFIX = 3
"""Shortest prefix accepted for a word (an exact word of any length is accepted)."""

PREFIX_TABLE = 24
"""Unique prefixes up to this many letters are in `Vocabulary.lookup`; longer ones are
looked up by bisection."""

_LISTED = 8
"""Vocabularies this small are spelled out in full in messages."""

_QUOTED = 40
"""Longest token shown in a message (longer ones are cut, with '...')."""

_INVISIBLE = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"))


def _shown(ch: str) -> str:
    """A character as shown in a message: invisible ones (controls, format characters
    such as U+200D, separators other than the space) as a `\\u200d` escape."""
    if ch == " " or unicodedata.category(ch) not in _INVISIBLE:
        return ch
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str) -> str:
    """`text` with every invisible character escaped, so that 'ke\\u200dep' is visibly
    not 'keep'."""
    if text.isprintable():
        return text
    return "".join(map(_shown, text))


def quote(token: str) -> str:
    """A token as shown in a message: in single quotes, invisible characters escaped
    (see `visible`), cut short with '...' if longer than 40 characters."""
    if len(token) <= _QUOTED and token.isprintable():
        return f"'{token}'"
    pieces = [_shown(ch) for ch in token[: _QUOTED + 1]]
    if len(token) <= _QUOTED and sum(map(len, pieces)) <= _QUOTED:
        return f"'{''.join(pieces)}'"
    out: list[str] = []
    size = 0
    for piece in pieces:
        if size + len(piece) > _QUOTED - 3:
            break
        out.append(piece)
        size += len(piece)
    return f"'{''.join(out)}...'"


def alternatives(words: Sequence[str], conjunction: str = "or") -> str:
    """`'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`; lists longer than 7 end in "or N others"."""
    quoted = [quote(w) for w in words]
    if len(quoted) > _LISTED:
        return f"{', '.join(quoted[:5])} {conjunction} {len(quoted) - 5} others"
    if len(quoted) == 1:
        return quoted[0]
    return f"{', '.join(quoted[:-1])} {conjunction} {quoted[-1]}"


class Vocabulary:
    """A closed set of lowercase words of one kind (a game's commands, pieces, ...).

    A token resolves (`get`, `resolve`) to the word it spells exactly, else to the
    only word it is a prefix of, if it has `MIN_PREFIX` or more letters. An exact word
    always wins over a longer word it is a prefix of. Words in `whole` are taken only
    when written in full: no prefix resolves to them. `aliases` are other spellings
    of words (`{"theatre": "theater"}`): read as the word, never written; a prefix of
    an alias counts as a prefix of its word.

    `lookup` maps each exact word and each unique prefix of up to `PREFIX_TABLE`
    letters to its word (the hot path); `get` also finds longer prefixes.
    """

    __slots__ = ("kind", "words", "expected", "wanted", "whole", "lookup", "_sorted",
                 "_whole")

    def __init__(
        self,
        kind: str,
        words: Iterable[str],
        *,
        expected: tuple[str, ...] | None = None,
        wanted: str | None = None,
        whole: Iterable[str] = (),
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        self.kind = kind
        self.words: tuple[str, ...] = tuple(words)
        self.expected: tuple[str, ...] = expected if expected is not None else (kind,)
        if wanted is None:
            wanted = article(kind)
            if 1 < len(self.words) <= _LISTED:
                wanted += f" ({', '.join(self.words[:-1])} or {self.words[-1]})"
        self.wanted: str = wanted
        self.whole: frozenset[str] = frozenset(whole)
        if not self.whole <= set(self.words):
            stray = sorted(self.whole - set(self.words))
            raise ValueError(f"whole words that are not words of the vocabulary: {stray}")
        self._sorted: list[str] = sorted({w for w in self.words if w not in self.whole})
        self._whole: list[str] = sorted(self.whole)
        forms = {w: w for w in self.words}  # each spelling -> its word
        for alias, word in (aliases or {}).items():
            if word not in forms or word in self.whole:
                raise ValueError(f"alias {alias!r} of {word!r}, not a word to abbreviate")
            forms.setdefault(alias, word)
        self.lookup: dict[str, str] = dict(forms)
        unique: dict[str, str | None] = {}  # prefix -> its only word, or None if several
        for form, word in sorted(forms.items()):
            for n in range(MIN_PREFIX, min(len(form), PREFIX_TABLE) + 1):
                prefix = form[:n]
                unique[prefix] = None if unique.get(prefix, word) != word else word
        for prefix, only in unique.items():
            # a prefix that also starts a whole word stands for no word
            if only is not None and only not in self.whole:
                self.lookup.setdefault(prefix, only)

    def __repr__(self) -> str:
        return f"Vocabulary({self.kind!r}, {len(self.words)} words)"

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    def get(self, low: str) -> str | None:
        """The word the lowercase token `low` spells or is the unique prefix of, or None."""
        word = self.lookup.get(low)
        if word is None and len(low) > PREFIX_TABLE:
            starts = _starting(self._sorted, low)
            if len(starts) == 1 and not _starting(self._whole, low):
                return starts[0]
        return word

    def resolve(self, token: str, column: int = 1) -> str:
        """The canonical word `token` stands for.

        Raises:
            AmbiguousError: `token` is a prefix of several words.
            NotationError: `token` is no word of this vocabulary, too short a prefix,
                or a prefix of a word that must be written in full.
        """
        word = self.get(token.lower())
        if word is None:
            raise self.error(token, column)
        return word

    def error(self, token: str, column: int) -> NotationError:
        """The error for a token that `get` does not resolve, placed at `column`."""
        low = token.lower()
        shown = quote(token)
        if len(low) >= MIN_PREFIX:
            ambiguous = tuple(sorted({*_starting(self._sorted, low),
                                      *_starting(self._whole, low)}))
            if len(ambiguous) > 1:
                return AmbiguousError(
                    f"ambiguous {self.kind} {shown}; did you mean {alternatives(ambiguous)}?",
                    column=column,
                    expected=self.expected,
                    candidates=ambiguous,
                )
            full = _starting(self._whole, low)
            if full:
                return NotationError(
                    f"{self.kind} {shown} is too short: write {alternatives(full)} in full",
                    column=column,
                    expected=self.expected,
                    candidates=full,
                )
        else:
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


def _starting(words: list[str], prefix: str) -> tuple[str, ...]:
    """The words of the sorted list `words` that start with `prefix`."""
    i = bisect_left(words, prefix)
    end = i
    while end < len(words) and words[end].startswith(prefix):
        end += 1
    return tuple(words[i:end])


ROUND_WORDS = Vocabulary("round marker", ("round",))
"""The word of a `round N` line, in every game's logs."""

UNDO_VERBS = ("undo", "agree", "refuse")
"""The commands of an undo by consent (`engine.undo`), in every game: each game's
`verbs` holds them, taken only written in full."""

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
