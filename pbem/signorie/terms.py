"""The names of Signorie's things in the reader's language, with the notation's
English word beside them ("rood (red)"): commands stay in English.

The Dutch names are the Dutch rulebook's own terms (../shared/seeds/003_*: geel,
rood, paars, grijs, turkoois; politiek, kerkelijk, militair; initiatief, huwelijk,
diplomatieke missie, drempel, florijnen ...); there is no Greek Signorie rulebook, so
the Greek names are plain standard words. They live in the game's catalogue (domain
`signorie`, `pbem/signorie/locale/`) under the context "name". A name the catalogue
lacks (a family's alliance tile, `sforza5`) shows as the notation writes it.
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.i18n import current_language, pgettext, term


def NP_(context: str, message: str) -> str:  # noqa: N802 - gettext's marker name
    """Marks a name for the catalogue (extracted with its context)."""
    return message


NAMES = (
    # the action dice's colours (the columns of a player board) and the plans' colours
    NP_("name", "yellow"), NP_("name", "red"), NP_("name", "purple"), NP_("name", "grey"),
    NP_("name", "turquoise"), NP_("name", "blue"),
    # the career tracks, the initiative track, the plan rows
    NP_("name", "political"), NP_("name", "ecclesiastical"), NP_("name", "military"),
    NP_("name", "initiative"), NP_("name", "marriage"),
    # the cities
    NP_("name", "milano"), NP_("name", "venezia"), NP_("name", "firenze"),
    NP_("name", "roma"), NP_("name", "napoli"),
    # the task tiles (besides the careers, initiative and marriage above)
    NP_("name", "mission"), NP_("name", "threshold"), NP_("name", "florins"),
    NP_("name", "alliance"), NP_("name", "figures"),
    # the reward tiles (besides mission, marriage, alliance above)
    NP_("name", "extra"), NP_("name", "figures-m"), NP_("name", "figures-f"),
    NP_("name", "progress-careers"), NP_("name", "progress-initiative"),
    NP_("name", "helper"), NP_("name", "helpers"), NP_("name", "cities-m"),
    NP_("name", "cities-f"), NP_("name", "count-m"), NP_("name", "count-f"),
    # the reward choices (besides florins above)
    NP_("name", "bonus"), NP_("name", "points"), NP_("name", "buy"),
)


def name(word: str) -> str:
    """A thing's name as the reader reads it, with the notation's word beside it when
    they differ ("rood (red)"); the word alone in English or for a name the catalogue
    lacks (an alliance tile's family)."""
    if current_language() == "en":
        return word
    return term(word, pgettext("name", word))


def names(words: Iterable[str], sep: str = ", ") -> str:
    """Several names, separated by `sep`."""
    return sep.join(name(w) for w in words)
