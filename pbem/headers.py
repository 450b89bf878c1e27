"""Header values that cannot break a mail: every value a sender controls (Subject,
Message-ID, References, From address and names) passes through here before it is
stored or reaches an outgoing header.

The email package refuses (`ValueError`) a header value holding any character
`str.splitlines` breaks on: CR, LF, VT, FF, 0x1C-0x1E, U+0085, U+2028 and U+2029.
Those become spaces here; every other control character (C0, C1, DEL), lone
surrogates and the bidirectional overrides (which can make a Subject read backwards)
are removed, runs of white space become one space, and the length is capped.

The email package also decodes RFC 2047 encoded words (`=?utf-8?q?...?=`) in a value
it is given, and writes what they decode to unchecked: an encoded word holding a
line break would still inject a header. So a cleaned value never holds `=?`: text is
given `= ?` instead, and a message id or address holding it is refused.
"""

from __future__ import annotations

import re
import unicodedata
from email.errors import HeaderParseError
from email.headerregistry import Address
from functools import lru_cache

# The characters `str.splitlines` breaks on (tests/hostile checks this set against it).
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

MAX_HEADER = 900  # characters of one header value (a line may hold 998 bytes)
MAX_SUBJECT = 200
MAX_ADDRESS = 254  # RFC 5321's limit for a path
MAX_MSGID = 250

_BREAK_TABLE = dict.fromkeys(map(ord, LINE_BREAKS + "\t"), " ")
_DROP = frozenset(BIDI_CONTROLS)
_SPACES = re.compile(r"\s+")
# RFC 5322 msg-id as one token: printable ASCII without white space, "<" or ">" inside.
_MSGID = re.compile(rf"<[!-;=?-~]{{1,{MAX_MSGID - 2}}}>")
_ADDRESS = re.compile(r"[!-~]+@[!-~]+")
_HEADER_NAME = re.compile(r"[!-9;-~]{1,76}")


def unmangle(value: str) -> str:
    """Undo the surrogate escapes the email package's compat32 parser leaves for raw
    8-bit header bytes: read them as UTF-8, with U+FFFD for what is not."""
    try:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # surrogates that are not escapes: drop them below
        return value


def clean_text(value: str, limit: int = MAX_HEADER) -> str:
    """A header value on one line, without control or bidi characters, at most
    `limit` characters long."""
    value = unmangle(value[:limit * 4]).translate(_BREAK_TABLE)
    kept = "".join(c for c in value
                   if c not in _DROP and unicodedata.category(c) not in ("Cc", "Cs"))
    kept = kept.replace("=?", "= ?")  # never an encoded word (see the module docstring)
    return _SPACES.sub(" ", kept).strip()[:limit].rstrip()


def clean_subject(value: str) -> str:
    return clean_text(value, MAX_SUBJECT)


def clean_msgid(value: str) -> str | None:
    """A message id as a single `<...>` token, or None when it is not one (folded,
    holding white space or controls, longer than `MAX_MSGID`)."""
    value = value.strip()
    return value if _MSGID.fullmatch(value) and "=?" not in value else None


def clean_msgids(values: str | list[str]) -> list[str]:
    """The well-formed ids among `values` (a header's value or a list of ids)."""
    items = values.split() if isinstance(values, str) else values
    return [m for v in items if (m := clean_msgid(v)) is not None]


@lru_cache(maxsize=4096)  # a pure function of the value, asked for every mail
def clean_address(value: str) -> str:
    """A bare address (`local@domain`) the email package reads back unchanged, or ""
    when it is not one: white space, controls, non-ASCII, an encoded word, several `@`
    parts, or too long."""
    value = value.strip()
    if len(value) > MAX_ADDRESS or not _ADDRESS.fullmatch(value) or "=?" in value:
        return ""
    try:
        parsed = Address(addr_spec=value)
    except (HeaderParseError, ValueError, IndexError):
        return ""
    return value if parsed.addr_spec == value else ""


def is_header_name(name: str) -> bool:
    """A field name RFC 5322 allows (printable ASCII without ":")."""
    return _HEADER_NAME.fullmatch(name) is not None
