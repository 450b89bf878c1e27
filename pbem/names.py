"""Player names: what `pbem new` and `pbem replace` accept.

A seat's name is written in every log line and command (`anna: recruit poet bas`),
so it must survive the notation: `check_seat_name` writes it in a `[Players]` tag and
a command and reads both back with the notation's own reader (`notation.log`,
`notation.words.bad_player_name_char`). Both seat names and the name of the person
playing a seat reach other players' mails, so both pass the Unicode checks:

* already in NFKC normal form (no full-width or other compatibility letters);
* no invisible or control characters (categories Cc, Cf, Co, Cs, Cn, Zl, Zp: zero-width
  joiners, right-to-left overrides, line breaks ...);
* letters of one script only (besides digits and punctuation, Unicode's "Common").

`check_game_names` refuses two names of one game that look alike: equal once
case-folded and mapped through the Unicode confusables data (the copy that the
`confusable-homoglyphs` package ships) to one skeleton.

Every refusal is a `NameRefused` (a ValueError) naming the name, with invisible
characters shown escaped (`'ke\\u200dep'`), and the problem.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache

from confusable_homoglyphs import categories, confusables

from engine.errors import NotationError
from engine.princes.commands import Pass, Recruit
from engine.princes.ruleset import STANDARD_RULES as RULES
from notation import Move, format_item, parse_log
from notation.log import format_tag
from notation.words import bad_player_name_char

MAX_SEAT_NAME = 24
MAX_PERSON_NAME = 64
_INVISIBLE = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


class NameRefused(ValueError):
    """A name `pbem new` or `pbem replace` does not accept; the message says why."""


def shown(name: str) -> str:
    """The name quoted, with invisible and control characters escaped."""
    return repr(name)


def _unicode_problem(name: str) -> str | None:
    for ch in name:
        if unicodedata.category(ch) in _INVISIBLE:
            what = unicodedata.name(ch, "") or "a control character"
            return f"holds the invisible or control character U+{ord(ch):04X} ({what})"
    normal = unicodedata.normalize("NFKC", name)
    if normal != name:
        return f"is not in Unicode normal form NFKC; write it as {shown(normal)}"
    scripts = categories.unique_aliases(name) - {"COMMON", "INHERITED"}
    if len(scripts) > 1:
        return f"mixes the scripts {', '.join(sorted(scripts))}; use letters of one script"
    return None


def check_seat_name(name: str) -> str:
    """A seat's name as the notation writes it (lowercased).

    Raises:
        NameRefused: empty, too long, not written back the same by the notation, or
            failing the Unicode checks.
    """
    low = name.strip().lower()
    if not low:
        raise NameRefused("a player name may not be empty")
    problem = _unicode_problem(low)
    if problem is None and len(low) > MAX_SEAT_NAME:
        problem = f"is longer than {MAX_SEAT_NAME} characters"
    bad = bad_player_name_char(low)
    if problem is None and bad >= 0:
        problem = f"may not contain {shown(low[bad])} (the notation could not write it)"
    if problem is None:
        problem = _notation_problem(low)
    if problem is not None:
        raise NameRefused(f"player name {shown(name)} {problem}")
    return low


def _notation_problem(name: str) -> str | None:
    """Why the notation would not write and read back the name, if it would not: a
    `[Players]` tag, a move by the name and a command naming it, written by the
    notation's writer and read by its reader."""
    other = "other-seat"
    moves = (Move(0, name, Pass()), Move(0, other, Recruit(next(iter(RULES.professions)), name)))
    text = "\n".join([format_tag("Players", f"{name}, {other}"), "",
                      *(format_item(m) for m in moves)]) + "\n"
    try:
        log = parse_log(text)
    except NotationError as e:
        return f"cannot be written in the notation ({e.message})"
    if log.players != (name, other) or log.items != moves:
        return "does not read back the same from the notation"
    return None


def check_person_name(name: str) -> str:
    """The name of the person playing a seat (shown in notices; spaces allowed).

    Raises:
        NameRefused: too long, or failing the Unicode checks.
    """
    text = " ".join(name.split(" "))
    problem = _unicode_problem(text)
    if problem is None and len(text) > MAX_PERSON_NAME:
        problem = f"is longer than {MAX_PERSON_NAME} characters"
    if problem is None and not text.strip():
        problem = "is empty"
    if problem is not None:
        raise NameRefused(f"name {shown(name)} {problem}")
    return text.strip()


@cache
def _prototypes() -> dict[str, str]:
    """Each character of the confusables data mapped to one representative of the
    characters it is confusable with (ASCII first, then the lowest code point); a
    character confusable with a sequence of ASCII letters ('m' with 'rn') maps to
    that sequence."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            c = parent[c]
        return c

    def rank(c: str) -> tuple[bool, int]:
        return (not c.isascii(), ord(c))

    multi: dict[str, str] = {}
    for ch, entries in confusables.confusables_data.items():
        if len(ch) != 1:
            continue
        for entry in entries:
            other = entry["c"]
            if len(other) == 1:
                a, b = find(ch), find(other)
                if a != b:
                    low, high = sorted((a, b), key=rank)
                    parent[high] = low
            elif other.isascii() and other.isalpha():
                multi[ch] = min(multi.get(ch, other), other)
    proto = {c: find(c) for c in parent}
    for ch, seq in multi.items():
        root = proto.get(ch, ch)
        proto[root] = proto[ch] = "".join(proto.get(x, x) for x in seq)
    for c, root in list(proto.items()):
        if root in proto and proto[root] != root:
            proto[c] = proto[root]
    return proto


def skeleton(name: str) -> str:
    """What a name looks like: NFKC, case-folded, each character replaced by its
    confusables representative. Two names with one skeleton look alike."""
    proto = _prototypes()
    text = unicodedata.normalize("NFKC", name).casefold()
    return "".join(proto.get(ch, ch) for ch in text)


def check_game_names(names: Sequence[str]) -> list[str]:
    """Check every seat name of one game and that no two look alike.

    Returns the names as the notation writes them.

    Raises:
        NameRefused: the first bad name, or the first pair that looks alike.
    """
    checked = [check_seat_name(n) for n in names]
    seen: dict[str, str] = {}
    for original, name in zip(names, checked, strict=True):
        key = skeleton(name)
        if key in seen:
            raise NameRefused(f"player names {shown(seen[key])} and {shown(original)} look "
                              "alike; give the players names that differ at a glance")
        seen[key] = original
    return checked
