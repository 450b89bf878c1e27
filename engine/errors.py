"""One family of errors for everything a player or a log can get wrong.

Every message is safe to show to the player who caused it: it never names another
seat's hidden cards or money.
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every error a player, a log or a mail can cause."""

    kind = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotationError(GameError):
    """Text that is not a command: names what was expected where.

    `column` is 1-based within the line; `line` is set by log readers.
    """

    kind = "syntax"

    def __init__(
        self,
        message: str,
        *,
        column: int = 1,
        line: int | None = None,
        expected: tuple[str, ...] = (),
        candidates: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.column = column
        self.line = line
        self.expected = expected
        self.candidates = candidates


class AmbiguousError(NotationError):
    """A prefix that fits more than one word; the candidates are listed."""

    kind = "ambiguous"


class IllegalMoveError(GameError):
    """A well-formed command that the rules forbid now.

    `rule` is a short stable id of the rule broken (for case files and tools).
    """

    kind = "illegal"

    def __init__(self, message: str, rule: str = "illegal") -> None:
        super().__init__(message)
        self.rule = rule


class NotYourTurnError(IllegalMoveError):
    """Somebody else is to act."""


class GameOverError(IllegalMoveError):
    """The game has ended: nothing more can be played."""


class ChanceError(IllegalMoveError):
    """A stated deal or draw that cannot have happened (or differs from the seed)."""


class StaleOrderError(GameError):
    """A move made against an older position than the current one."""

    kind = "stale"


# A vowel letter with no vowel sound: "a unit", "a user".
_YOU_SOUND = ("uni", "use", "usu", "uti", "eu")


def article(noun: str) -> str:
    """The noun with "a" or "an" in front: "an owl", "a unit", "a card"."""
    vowel = noun[:1] in ("a", "e", "i", "o", "u") and not noun.startswith(_YOU_SOUND)
    return f"an {noun}" if vowel else f"a {noun}"
