"""Each player's language: the words of their mails from gettext catalogues.

A seat reads its mails in `en` (the default), `nl` or `el`. The shell's own words
(the shared templates in `templates/`, the shell's sentences) live in the catalogue
of domain `pbem` in `pbem/locale/`; a game's words (its templates, event lines,
headlines) in its own domain, which its presenter names in an optional attribute
`catalogue = (DOMAIN, LOCALE_DIR)` (`pbem.presenter`). At run time the two are
merged, the game's first. English is the source language: no catalogue.

Code that writes words calls `gettext` (imported as `_`) and `ngettext`; they read
the language of the mail being written, which `speaking(language, presenter)` sets
for a block (a context variable, so threads and tasks do not mix). Templates use
Jinja2's i18n extension with newstyle gettext (`pbem.outbound.Renderer`).

Commands stay in the notation's English words in every language: a mail names a
card or an object in the reader's language with its notation form beside it
("Toren (tower)"); `term` writes that pair.

Catalogues: `scripts/i18n.py extract|update|compile|check` (docs/i18n.md). The
compiled `.mo` files are committed beside the `.po` files, so a checkout, an
editable install and a regular install all have them; tests/pbem/test_i18n.py
checks that they are up to date and complete. Engine error messages (a refused
command's reason) stay English.
"""

from __future__ import annotations

import gettext as _gettext
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .inbound import Envelope

LANGUAGES = ("en", "nl", "el")
NAMES = {"en": "English", "nl": "Nederlands", "el": "Ελληνικά"}
DEFAULT = "en"
DOMAIN = "pbem"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

LANGUAGE_LINE = re.compile(r"^language\s*:?(?:\s+(\S+))?\s*$", re.IGNORECASE)
"""A line `language CODE` in a player's mail (`pbem.inbound.split_envelope` takes it
out before the game's command lines are read; no game may have `language` as a
command word: tests/contract checks every registered grammar)."""


class LanguageError(ValueError):
    """A language that is none of `LANGUAGES`."""


def check_language(value: str) -> str:
    """`value` as a language code (lowercased, trimmed).

    Raises:
        LanguageError: none of en, nl, el.
    """
    lang = value.strip().lower()
    if lang not in LANGUAGES:
        what = f"{value.strip()!r} is no language" if lang else "no language given"
        raise LanguageError(f"{what}; write 'language en' (English), 'language nl' "
                            "(Nederlands) or 'language el' (Ελληνικά)")
    return lang


def languages_for(names: Sequence[str], specs: Iterable[str]) -> dict[str, str]:
    """Each seat's language from `pbem new --lang` values: `NAME=CODE` for one seat,
    a bare `CODE` for every seat not named (the default for all).

    Raises:
        LanguageError: a bad code, or a name of no seat.
    """
    default, named = DEFAULT, {}
    for spec in specs:
        name, eq, value = spec.partition("=")
        if not eq:
            default = check_language(spec)
            continue
        key = name.strip().lower()
        if key not in names:
            raise LanguageError(f"--lang {spec}: no player {name.strip()!r} in this game "
                                f"(players: {', '.join(names)})")
        named[key] = check_language(value)
    return {n: named.get(n, default) for n in names}


def language_setting(env: Envelope) -> str | None:
    """The language a mail's `language CODE` line asks for (None: no such line).

    Raises:
        CommandFailed: a code that is no language (nothing in the mail is applied).
    """
    from engine.errors import NotationError

    from .playing import CommandFailed

    line = env.language
    if line is None:
        return None
    m = LANGUAGE_LINE.match(line.text)
    value = m.group(1) if m is not None else None
    try:
        return check_language(value or "")
    except LanguageError as e:
        column = line.text.lower().find(value.lower()) + 1 if value else len(line.text) + 2
        raise CommandFailed(line, NotationError(str(e), column=column,
                                                expected=LANGUAGES)) from None


def confirmation(language: str) -> str:
    """The sentence that confirms a seat's new language, in the current language (say
    it within `speaking(language)`)."""
    return gettext("Your mails are now in %(language)s; commands stay in English. Change "
                   "it with a line 'language en' (English), 'language nl' (Nederlands) "
                   "or 'language el' (Ελληνικά) in any mail to the moderator."
                   ) % {"language": NAMES[language]}


# --------------------------------------------------------------------------- catalogues


@cache
def catalogue(language: str, games: tuple[tuple[str, str], ...] = ()
              ) -> _gettext.NullTranslations:
    """The words of `language`: the shell's catalogue merged with the games'
    (`games`: (domain, locale dir) pairs, the first wins), loaded once a process.
    English, or a language with no catalogue, is the source text itself."""
    if language == DEFAULT:
        return _gettext.NullTranslations()
    from babel.support import Translations  # English needs no catalogue: `show` loads none

    merged = Translations.load(str(LOCALE_DIR), [language], DOMAIN)
    for domain, folder in reversed(games):
        game = Translations.load(folder, [language], domain)
        if isinstance(game, Translations):
            if isinstance(merged, Translations):
                merged.merge(game)
            else:
                merged = game
    return merged


def game_catalogues(presenter: Any) -> tuple[tuple[str, str], ...]:
    """The catalogue a game's presenter names (`catalogue = (DOMAIN, DIR)`), if any."""
    named = getattr(presenter, "catalogue", None)
    return () if named is None else ((named[0], str(named[1])),)


_ENGLISH = _gettext.NullTranslations()
_current: ContextVar[_gettext.NullTranslations | None] = ContextVar("pbem_language",
                                                                    default=None)
_language: ContextVar[str] = ContextVar("pbem_language_code", default=DEFAULT)


@contextmanager
def speaking(language: str | None, presenter: Any = None) -> Iterator[None]:
    """Within the block, `gettext` and the templates speak `language` (None or an
    unknown code: English), with the words of `presenter`'s game."""
    lang = language if language in LANGUAGES else DEFAULT
    token = _current.set(catalogue(lang, game_catalogues(presenter)))
    code = _language.set(lang)
    try:
        yield
    finally:
        _current.reset(token)
        _language.reset(code)


def current_language() -> str:
    """The language `speaking` set (English outside any block)."""
    return _language.get()


def words_in_use() -> object:
    """The catalogue `speaking` set (the same object for the same language and game
    words): what a text kept across mails depends on besides its values."""
    return _current.get() or _ENGLISH


def gettext(message: str) -> str:
    """`message` in the current language."""
    return (_current.get() or _ENGLISH).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message for `n`, in the current language."""
    return (_current.get() or _ENGLISH).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the current language, told apart from the same English words of
    another meaning by `context`."""
    return (_current.get() or _ENGLISH).pgettext(context, message)


_ = gettext


def tr(message: str, **values: object) -> str:
    """`message` in the current language with `values` filled in (its `%(name)s`)."""
    text = gettext(message)
    return text % values if values else text


@dataclass(frozen=True)
class Said:
    """A sentence said to several readers at once (a notice to every seat): kept as
    its English words and values, written in each reader's language when read
    (`str`, within `speaking`)."""

    message: str
    values: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:
        return tr(self.message, **dict(self.values))


def said(message: str, **values: object) -> Said:
    """A `Said` of `message` with `values` (marked for the catalogues)."""
    return Said(message, tuple(values.items()))


def words(parts: str | Sequence[str | Said]) -> str:
    """Sentences (or one text) as one text in the current language."""
    if isinstance(parts, str):
        return parts
    return " ".join(t for t in (str(p) for p in parts) if t)


def N_(message: str) -> str:
    """Marks `message` for the catalogues where it is defined; `gettext` translates it
    where it is used."""
    return message


def term(name: str, translated: str) -> str:
    """A name the notation writes in English, as the reader's language shows it:
    "Toren (tower)" when it differs, else the name alone."""
    return name if translated == name else f"{translated} ({name})"
