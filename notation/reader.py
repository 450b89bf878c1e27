"""A cursor over the whitespace-separated tokens of one segment of a line.

Tokens come from `str.split()`, so the hot path never computes positions: a token's
column is found again only when an error is raised. Columns are 1-based positions in
the whole line, whatever segment of it the reader covers.
"""

from __future__ import annotations

from engine.errors import NotationError

from .limits import MAX_DIGITS
from .words import Vocabulary, quote

END_OF_LINE = "end of line"


class Reader:
    """Tokens of `text[start:stop]`, read left to right.

    `said` holds the canonical spelling of what has been read so far (it may start with
    a prefix such as `anna:`); messages quote it as the context of an error. `stop_name`
    is what a reader that runs out of tokens has met: the end of the line, or a
    separator such as `':'` at index `stop`.
    """

    __slots__ = ("text", "start", "stop", "toks", "n", "i", "said", "stop_name")

    def __init__(
        self,
        text: str,
        start: int,
        stop: int,
        said: list[str],
        stop_name: str = END_OF_LINE,
    ) -> None:
        self.text = text
        self.start = start
        self.stop = stop
        self.toks = text[start:stop].split()
        self.n = len(self.toks)
        self.i = 0
        self.said = said
        self.stop_name = stop_name

    # -- positions and errors (slow path) -------------------------------------------

    def column(self, index: int) -> int:
        """1-based column of token `index`; one past the segment's end if there is none."""
        if index >= self.n:
            if self.stop_name == END_OF_LINE:
                return len(self.text[: self.stop].rstrip()) + 1
            return self.stop + 1
        pos = self.start
        text = self.text
        for tok in self.toks[:index]:
            pos = text.find(tok, pos) + len(tok)
        return text.find(self.toks[index], pos) + 1

    def found(self, index: int | None = None) -> str:
        """What stands at token `index` (default: the current one), for messages."""
        index = self.i if index is None else index
        return quote(self.toks[index]) if index < self.n else self.stop_name

    def context(self) -> str:
        """` after '<what was read>'`, or nothing at the start."""
        return f" after {quote(' '.join(self.said))}" if self.said else ""

    def fail(
        self,
        message: str,
        *,
        index: int | None = None,
        expected: tuple[str, ...] = (),
        candidates: tuple[str, ...] = (),
    ) -> NotationError:
        """A NotationError placed at token `index` (default: the current one)."""
        index = self.i if index is None else index
        return NotationError(
            message,
            column=self.column(index),
            expected=expected,
            candidates=candidates,
        )

    def unexpected(self, wanted: str, expected: tuple[str, ...]) -> NotationError:
        """`expected <wanted> after '<context>', found <token or end>` at the current token."""
        return self.fail(
            f"expected {wanted}{self.context()}, found {self.found()}", expected=expected
        )

    # -- reading (hot path) ---------------------------------------------------------

    @property
    def at_end(self) -> bool:
        return self.i >= self.n

    def peek(self) -> str:
        """The current token (the caller checks `at_end` first)."""
        return self.toks[self.i]

    def word(self, vocab: Vocabulary) -> str:
        """Read one word of `vocab`.

        Raises:
            NotationError: no token left, or a token that is not a word of `vocab`.
        """
        i = self.i
        if i >= self.n:
            raise self.unexpected(vocab.wanted, vocab.expected)
        tok = self.toks[i]
        word = vocab.lookup.get(tok.lower())
        if word is None:
            word = vocab.get(tok.lower())
            if word is None:
                raise vocab.error(tok, self.column(i))
        self.said.append(word)
        self.i = i + 1
        return word

    def words(self, vocab: Vocabulary) -> tuple[str, ...]:
        """Read one or more words of `vocab`, up to the end of the segment.

        Raises:
            NotationError: no word, or a token that is not a word of `vocab`.
        """
        got = [self.word(vocab)]
        while self.i < self.n:
            got.append(self.word(vocab))
        return tuple(got)

    def keyword(self, word: str) -> None:
        """Read the fixed word `word` (case-insensitive; a prefix of 3+ letters is fine).

        Raises:
            NotationError: anything else stands here.
        """
        i = self.i
        if i < self.n:
            low = self.toks[i].lower()
            if low == word or (len(low) >= 3 and word.startswith(low)):
                self.said.append(word)
                self.i = i + 1
                return
        raise self.unexpected(quote(word), (quote(word),))

    def player(self, players: Vocabulary | None) -> str:
        """Read a player name: one of `players`, or any token (lowercased) if None.

        Raises:
            NotationError: no token left, or (with a player list) an unknown name.
        """
        if players is not None:
            return self.word(players)
        i = self.i
        if i >= self.n:
            raise self.unexpected("a player", ("player",))
        name = self.toks[i].lower()
        self.said.append(name)
        self.i = i + 1
        return name

    def number(self) -> int:
        """Read a plain non-negative integer.

        Raises:
            NotationError: no token left, not digits only, or too long.
        """
        i = self.i
        if i >= self.n:
            raise self.unexpected("a number like '3'", ("number",))
        tok = self.toks[i]
        if not (tok.isdigit() and tok.isascii()):
            raise self.unexpected("a number like '3'", ("number",))
        if len(tok) > MAX_DIGITS:
            raise self.unexpected(f"a number of at most {MAX_DIGITS} digits", ("number",))
        value = int(tok)
        self.said.append(str(value))
        self.i = i + 1
        return value

    def end(self, wanted: str = END_OF_LINE) -> None:
        """Check that no token is left.

        Raises:
            NotationError: at the first extra token.
        """
        if self.i < self.n:
            raise self.unexpected(wanted, (wanted,))
