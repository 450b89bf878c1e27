"""Bounds on what the notation reads, so that a hostile log costs little memory and
time: every one is far above what a real game needs (docs/logs.md lists them)."""

MAX_DIGITS = 9
"""Longest number accepted (a bid of a billion is a typo, not a bid). Numbers
are checked against it before `int()`."""

MAX_LINE = 4096
"""Longest line of a log, in characters."""

MAX_LINES = 100_000
"""Most lines in a log, blank lines and comments included (a whole game with every
undo is a few thousand)."""

MAX_TAG_VALUE = 1000
"""Longest value of a header tag, in characters."""

MAX_NAME = 64
"""Longest player name in a Players tag, in characters."""

MAX_NAMES = 20
"""Most names in a Players tag (a game seats 3 to 5)."""
