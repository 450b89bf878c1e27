"""Reading a reply as people write it: which lines of a mail's text the sender wrote
now (not the quoted mail below or above them, not the signature), and which of those
are commands (the command words are the game's: each function takes its `Grammar`).

Finding where the quoted mail starts is left to mail-parser-reply (attributions and
Outlook header blocks in English, German, French, Italian, Dutch and Spanish; "Sent
from my ..." lines; `-- ` signatures; sign-offs such as "Best regards"). This module
adds what it lacks: Portuguese, Greek and Russian, the Dutch and Spanish Gmail
attributions, localized "-----Original Message-----" lines, more "sent from" lines,
attributions ending in `<address>:`, and bottom posting (the text below a quote).

The rules, per line of the text (numbers count from 1):

* Quoted lines (starting with `>`), blank lines and `#` comments are never read.
* A header (an attribution such as "On Mon, 3 Dec 2026, pbem wrote:", or a block of
  `From:`/`Sent:`/`To:`/`Subject:` lines in any of the languages) starts the quoted
  mail. When `>` lines follow it, it and its quote are skipped and reading goes on
  below (bottom posting, interleaved answers). Otherwise the mail below it is quoted
  without marks (Outlook) and nothing below the header is read.
* A cut ends the reading: a signature line `-- `, a "sent from" line ("Sent from my
  iPhone", "Von meinem iPhone gesendet", "Get Outlook for Android"), a sign-off the
  library knows ("Best regards", "Mit freundlichen Grüßen"; only as a short line of
  its own without a command word), a separator "-----Original Message-----" (or its
  localized forms), and a line of 20 or more underscores (Outlook's, and what an HTML
  `<hr>` becomes). Lines longer than 120 characters are never taken for headers.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from mailparser_reply.parser import EmailMessage  # type: ignore[import-untyped]

from engine.errors import NotationError
from notation import Grammar, Vocabulary

LANGUAGES = ("en", "de", "fr", "it", "nl", "es")
"""The languages whose headers and sign-offs mail-parser-reply knows and we use. Its
others are left out: their sign-off lists hold words that start commands ("Tak")."""

_LIBRARY = EmailMessage(text="", languages=list(LANGUAGES), keep_hyphen_lists=True)
_LIBRARY_HEADERS: re.Pattern[str] = _LIBRARY.HEADER_REGEX
_LIBRARY_SIGNATURES: re.Pattern[str] = _LIBRARY.SIGNATURE_REGEX

_ATTRIBUTION = re.compile(
    r"^(?:on\s.*\swrote\b.*|.*\swrote:"             # en, and any "... wrote:"
    r"|op\s.*\sschreef\b.*:"                        # nl (Gmail puts the name after)
    r"|el\s.*\sescribió\b.*:"                       # es
    r"|em\s.*\sescreveu\b.*:"                       # pt
    r"|στις\s.*\sέγραψε\b.*:"                       # el
    r"|.*\s(?:написал|написала|пишет)\b.*:"         # ru
    r"|.*<[^<>\s]+@[^<>\s]+>\s*:"                   # "..., Name <addr>:" (Gmail in ru, ...)
    r"|\*\s.*\[[^\]]*\]:"                            # mutt: "* Name <addr> [date]:"
    r")$",
    re.IGNORECASE)
"""Attribution lines mail-parser-reply does not know (tried on one line and on two
lines joined, as long ones wrap)."""

_HEADER_FIELD = re.compile(
    r"^\**(?:de|enviada em|enviado|para|assunto|data"          # pt
    r"|από|στάλθηκε|προς|θέμα|ημερομηνία|κοιν"                 # el
    r"|от|отправлено|кому|тема|дата|копия"                     # ru
    r"|from|sent|to|subject|date|cc|von|gesendet|an|betreff)"  # en, de (for mixed blocks)
    r"\s*\**\s*:",
    re.IGNORECASE)
"""A line of an Outlook header block; two in a row start one."""

_FROM_LINE = re.compile(r"^\**(?:from|von|de|van|da|от|από)\s*\**\s*:.*@", re.IGNORECASE)
"""A `From:` line with an address starts a header block on its own."""

_SEPARATOR = re.compile(
    r"^(?:-{2,}\s*(?:original message|ursprüngliche nachricht|message d'origine"
    r"|oorspronkelijk bericht|mensaje original|mensagem original|messaggio originale"
    r"|исходное сообщение|αρχικό μήνυμα|forwarded message|weitergeleitete nachricht"
    r"|message transféré|doorgestuurd bericht|mensaje reenviado|mensagem encaminhada"
    r"|messaggio inoltrato|пересылаемое сообщение|προωθημένο μήνυμα)\s*-{2,}"
    r"|_{20,}|--|-- )$",
    re.IGNORECASE)

_SENT_FROM = re.compile(
    r"^(?:sent from|sent with|get outlook for|download outlook for"
    r"|von meinem .*gesendet|gesendet von|gesendet mit|holen sie sich outlook"
    r"|envoyé de mon|envoyé depuis|obtenir outlook"
    r"|verzonden (?:vanaf|met|van)|download outlook voor"
    r"|enviado (?:desde|con|do|de|pelo)|obtener outlook|baixe o outlook|obter o outlook"
    r"|inviato da|scarica outlook"
    r"|отправлено (?:с|из|через)|получите outlook"
    r"|στάλθηκε από|αποστολή από"
    r")\b",
    re.IGNORECASE)

_LONG = 120
"""Lines longer than this are never headers; they are kept from the library's
patterns, whose time grows with the square of a line's length."""

_SHORT = 5
"""A sign-off the library finds cuts only when its line has at most this many words
and no command word ("Thanks, here are my moves:" and "Thanks, pass" are no
sign-offs; they are read as lines)."""

_FAREWELL = re.compile(r"^(?:take care|keep (?:well|safe|in touch|it up|up))\b", re.IGNORECASE)
"""Sign-offs that start with a command word; read as ignored lines, never as commands."""


@dataclass(frozen=True)
class Line:
    number: int  # 1-based line number in the mail's text
    text: str


def clean_body(text: str) -> str:
    """The text with one newline convention and without byte order marks or zero-width
    spaces (a UTF-8 BOM, U+FEFF, at the start of the body or of a line)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return re.sub(r"[\ufeff\u200b]", "", text)


def _header_block(lines: Sequence[str], i: int) -> bool:
    return bool(_FROM_LINE.match(lines[i])) or (
        bool(_HEADER_FIELD.match(lines[i])) and i + 1 < len(lines)
        and bool(_HEADER_FIELD.match(lines[i + 1])))


def _library_marks(stripped: Sequence[str], quoted: Sequence[bool],
                   grammar: Grammar) -> tuple[dict[int, int], int]:
    """Headers (first line -> last line) and the first signature line that
    mail-parser-reply finds in the unquoted lines (quoted and overlong ones are
    blanked, so line numbers stay)."""
    seen = ["" if q or len(s) > _LONG else s for s, q in zip(stripped, quoted, strict=True)]
    blank = "\n".join(seen) + "\n"
    starts = [0]
    for s in seen:
        starts.append(starts[-1] + len(s) + 1)

    def line_at(pos: int) -> int:
        while pos < len(blank) and blank[pos] in " \t\n":
            pos += 1
        return bisect_right(starts, pos) - 1

    headers: dict[int, int] = {}
    for header in _LIBRARY_HEADERS.finditer(blank):
        first = line_at(header.start())
        last = max(first, bisect_right(starts, header.end() - 1) - 1)
        while last > first and (not stripped[last] or quoted[last]):
            last -= 1
        headers.setdefault(first, last)
    pos = 0
    while pos < len(blank) and (m := _LIBRARY_SIGNATURES.search(blank, pos)) is not None:
        n = line_at(m.start())
        words = stripped[n].split() if n < len(stripped) else []
        if len(words) <= _SHORT and \
                not any(w.lower().strip(".,;:!?") in grammar.verbs for w in words):
            return headers, n
        pos = starts[min(n + 1, len(stripped))]
    return headers, len(stripped)


def own_lines(text: str, *, grammar: Grammar) -> list[Line]:
    """The lines the sender wrote in this mail (not blank, not quoted, no comment),
    by the rules in the module's docstring (a sign-off line with one of `grammar`'s
    command words is no sign-off)."""
    lines = clean_body(text).split("\n")
    stripped = [ln.strip() for ln in lines]
    quoted = [s.startswith(">") for s in stripped]
    headers, cut = _library_marks(stripped, quoted, grammar)
    out: list[Line] = []
    i = 0
    while i < min(cut, len(stripped)):
        s = stripped[i]
        if not s or quoted[i] or s.startswith("#"):
            i += 1
            continue
        if _SEPARATOR.match(s) or _SENT_FROM.match(s):
            break
        last = headers.get(i)
        if last is None and len(s) <= _LONG \
                and (_ATTRIBUTION.match(s) or _header_block(stripped, i)):
            last = i
        if last is None and len(s) + len(stripped[min(i + 1, len(stripped) - 1)]) <= 2 * _LONG \
                and i + 1 < len(stripped) and not quoted[i + 1] \
                and i + 1 not in headers and not _ATTRIBUTION.match(stripped[i + 1]) \
                and _ATTRIBUTION.match(s + " " + stripped[i + 1]):
            last = i + 1  # an attribution wrapped onto two lines
        if last is not None:
            nxt = next((j for j in range(last + 1, len(stripped)) if stripped[j]), None)
            if nxt is None or not quoted[nxt]:
                break  # the quoted mail follows without '>' marks: read no further
            i = nxt
            continue
        out.append(Line(i + 1, s))
        i += 1
    return out


# --------------------------------------------------------------------------- commands


def _within_one_edit(a: str, b: str) -> bool:
    """Whether `b` is `a` with one letter added, dropped, changed, or two neighbours
    swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return a == b
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:k] + long[k + 1:] == short for k in range(len(long)))


def _meant(word: str, verbs: Vocabulary) -> set[str]:
    """The command words a mistyped or shortened `word` may stand for: those one edit
    away from it, and those it is a prefix of that the notation refuses (a command
    taken only whole, or an ambiguous prefix)."""
    low = word.lower()
    found = {v for v in verbs.words if _within_one_edit(low, v)}
    if len(low) >= 3 and low not in verbs:
        found |= {v for v in verbs.words if v.startswith(low)}
    return found


def _reads_past_second_word(line: str, second_end: int, grammar: Grammar) -> bool:
    try:
        grammar.parse_command(line)
    except NotationError as e:
        return e.column > second_end
    return True


def is_command_line(text: str, *, grammar: Grammar) -> bool:
    """Whether a line the sender wrote is meant as a command of `grammar`'s game.

    It is when its first word is a command word as the notation reads it (`bid`,
    `BUI`, `pass`; also with a trailing `.`, `!`, ... so that "Done!" is refused, not
    dropped). It is also when the line has two words or more, its first word is one
    edit away from a command word (`bdi 400`) or a prefix of one that the notation
    refuses (`pro` where the command word is taken only whole), and with that command word the
    line reads as a command at least through its second word: then the mail is
    refused with the notation's error.
    Every other line (greetings, sign-offs, names, "Don", "Und dann", "Thanks!") is
    ignored.
    """
    words = text.split()
    if not words or _FAREWELL.match(text):
        return False
    first = words[0].lower()
    verbs = grammar.verbs
    if first in verbs or first.rstrip(".,;:!?") in verbs:
        return True
    if len(words) < 2:
        return False
    rest = " ".join(words[1:])
    return any(_reads_past_second_word(f"{verb} {rest}", len(verb) + 1 + len(words[1]), grammar)
               for verb in sorted(_meant(first, verbs)))


# --------------------------------------------------------------------------- echo

IGNORED_SHOWN = 12
"""At most this many ignored lines are shown back to the sender."""


def shown_line(text: str) -> str:
    """A line of the sender's mail as quoted back to them: printable, at most 80
    characters."""
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return text if len(text) <= 80 else text[:77] + "..."


def _hint(text: str, verbs: Vocabulary) -> str:
    """For a lone word that shortens a command taken only whole ("Don", "Pas"), how
    to play that command."""
    low = text.lower().rstrip(".,;:!?")
    if len(text.split()) != 1 or len(low) < 3 or low in verbs:
        return ""
    meant = [v for v in verbs.words if v.startswith(low)]
    return f" (to play '{meant[0]}', write it in full)" if len(meant) == 1 else ""


def shown_lines(lines: Sequence[Line], *, grammar: Grammar) -> list[str]:
    """The ignored lines as the status mail lists them (at most `IGNORED_SHOWN`), a
    lone shortened command of `grammar` with a hint ("Don (to play 'done', write it
    in full)")."""
    return [shown_line(ln.text) + _hint(ln.text, grammar.verbs)
            for ln in lines[:IGNORED_SHOWN]]


def no_commands(ignored: Sequence[Line], *, grammar: Grammar) -> str:
    """The refusal for a mail without command lines, naming the lines that were read
    and ignored."""
    reason = "your mail holds no commands (quoted text and signatures are ignored)."
    if ignored:
        more = len(ignored) - IGNORED_SHOWN
        reason += (" Ignored, as no line starts with a command word: "
                   + " / ".join(shown_lines(ignored, grammar=grammar))
                   + (f" and {more} more" if more > 0 else "")
                   + ". Write one command per line, as your mails list them.")
    return reason
