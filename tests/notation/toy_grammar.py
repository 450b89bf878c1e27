"""A tiny game notation for tests of the seam: `say WORD`, `undo`, `agree`, `refuse`,
and chance lines `* roll N`. Commands are plain tuples."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from notation import UNDO_VERBS, Vocabulary, player_vocabulary
from notation.reader import Reader
from notation.registry import GRAMMARS

VERBS = Vocabulary("command", ("say", *UNDO_VERBS), whole=UNDO_VERBS)
ROLL = Vocabulary("chance event", ("roll",))


def read_command(r: Reader, players: Vocabulary | None) -> Any:
    verb = r.word(VERBS)
    if verb == "say":
        word = r.peek() if not r.at_end else ""
        r.player(None)  # any token
        r.end()
        return ("say", word.lower())
    r.end()
    return (verb,)


def fast_command(toks: list[str], players: Vocabulary | None) -> Any | None:
    return None  # always the slow path: the reader must cope


def read_chance(text: str, star: int, players: Vocabulary | None) -> Any:
    r = Reader(text, star + 1, len(text), ["*"])
    r.word(ROLL)
    number = r.number()
    r.end()
    return ("roll", number)


def fast_chance(text: str, star: int, players: Vocabulary | None) -> Any | None:
    return None


def hidden_command(text: str) -> Any | None:
    return None


def parse_command(text: str, players: Sequence[str] = ()) -> Any:
    content = text.split("#")[0]
    return read_command(Reader(content, 0, len(content), []), player_vocabulary(players))


def parse_chance(text: str, players: Sequence[str] = ()) -> Any:
    content = text.split("#")[0]
    return read_chance(content, content.index("*"), player_vocabulary(players))


def format_command(cmd: Any) -> str:
    if cmd[0] == "roll":
        return f"* roll {cmd[1]}"
    return " ".join(str(part) for part in cmd)


def is_hidden(cmd: Any) -> bool:
    return False


class ToyGrammar:
    name = "toy-test"
    verbs = VERBS
    tags = ("Colour",)
    parse_command = staticmethod(parse_command)
    parse_chance = staticmethod(parse_chance)
    format_command = staticmethod(format_command)
    is_hidden = staticmethod(is_hidden)
    fast_command = staticmethod(fast_command)
    read_command = staticmethod(read_command)
    hidden_command = staticmethod(hidden_command)
    fast_chance = staticmethod(fast_chance)
    read_chance = staticmethod(read_chance)

    def public(self, cmd: Any) -> Any:
        return cmd  # nothing hidden

    def naming(self, player: str) -> None:
        return None  # no command of this game names a player


TOY = ToyGrammar()


@contextmanager
def registered() -> Iterator[ToyGrammar]:
    """The toy grammar, registered for the duration of the block."""
    unregister = GRAMMARS.register(TOY)
    try:
        yield TOY
    finally:
        unregister()
