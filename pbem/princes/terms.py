"""The names of The Princes of Florence's things in the reader's language, with the
notation's English word beside them ("Toren (tower)"): commands stay in English.

The translations are the rulebooks' own terms where they have one (the Dutch and
Greek rulebooks in ../shared/seeds/: buildings, landscapes, freedoms, jester,
builder, cards), else a plain word; they live in the game's catalogue (domain
`princes`, `pbem/princes/locale/`) under the context "name".
"""

from __future__ import annotations

from collections.abc import Iterable

from pbem.i18n import current_language, pgettext, term


def NP_(context: str, message: str) -> str:  # noqa: N802 - gettext's marker name
    """Marks a name for the catalogue (extracted with its context)."""
    return message


NAMES = (
    # buildings
    NP_("name", "university"), NP_("name", "laboratory"), NP_("name", "workshop"),
    NP_("name", "library"), NP_("name", "opera"), NP_("name", "studio"),
    NP_("name", "hospital"), NP_("name", "theater"), NP_("name", "tower"),
    NP_("name", "chapel"),
    # landscapes and the other objects of the auction
    NP_("name", "forest"), NP_("name", "lake"), NP_("name", "park"),
    NP_("name", "landscape"), NP_("name", "jester"), NP_("name", "builder"),
    NP_("name", "recruiting"), NP_("name", "prestige"), NP_("name", "bonus"),
    NP_("name", "profession"),
    # freedoms
    NP_("name", "religion"), NP_("name", "opinion"), NP_("name", "travel"),
    # professions
    NP_("name", "mathematician"), NP_("name", "theologian"), NP_("name", "philosopher"),
    NP_("name", "botanist"), NP_("name", "alchemist"), NP_("name", "physicist"),
    NP_("name", "watchmaker"), NP_("name", "goldsmith"), NP_("name", "bell-founder"),
    NP_("name", "cartographer"), NP_("name", "jurist"), NP_("name", "choreographer"),
    NP_("name", "composer"), NP_("name", "sculptor"), NP_("name", "painter"),
    NP_("name", "pharmacist"), NP_("name", "doctor"), NP_("name", "playwright"),
    NP_("name", "poet"), NP_("name", "astronomer"), NP_("name", "organ-builder"),
    # characters (The Muse and the Princess)
    NP_("name", "banker"), NP_("name", "cardinal"), NP_("name", "merchant"),
    NP_("name", "muse"), NP_("name", "princess"), NP_("name", "professor"),
)


CARD_TEXTS = (
    # the text of each bonus, prestige and character card (the English is the rules
    # data's `text`; a catalogue entry is the card's code, context "card text")
    NP_("card text", "per-building"), NP_("card text", "per-large-building"),
    NP_("card text", "per-medium-and-forest"), NP_("card text", "per-small-and-landscape"),
    NP_("card text", "per-building-size"), NP_("card text", "per-landscape"),
    NP_("card text", "per-forest"), NP_("card text", "per-lake"),
    NP_("card text", "per-park"), NP_("card text", "per-freedom"),
    NP_("card text", "per-jester"), NP_("card text", "per-jester-and-freedom"),
    NP_("card text", "per-builder"), NP_("card text", "per-builder-and-lake"),
    NP_("card text", "per-prestige"), NP_("card text", "per-prestige-and-freedom"),
    NP_("card text", "per-landscape-type"), NP_("card text", "per-category"),
    NP_("card text", "per-hand-card"), NP_("card text", "per-table-card"),
    NP_("card text", "most-buildings"), NP_("card text", "two-large-buildings"),
    NP_("card text", "fewest-empty"), NP_("card text", "all-landscape-types"),
    NP_("card text", "most-landscapes"), NP_("card text", "most-forests"),
    NP_("card text", "most-lakes"), NP_("card text", "all-freedoms"),
    NP_("card text", "4-buildings-2-freedoms-4-works"), NP_("card text", "most-jesters"),
    NP_("card text", "most-builders"), NP_("card text", "builder-jester-2-landscapes"),
    NP_("card text", "most-works"), NP_("card text", "most-parks"),
    NP_("card text", "banker"), NP_("card text", "cardinal"), NP_("card text", "merchant"),
    NP_("card text", "muse"), NP_("card text", "princess"), NP_("card text", "professor"),
)


def card_text(card: str, english: str) -> str:
    """A card's text in the reader's language (`english`: the rules data's, also what
    a card the catalogue lacks shows)."""
    if current_language() == "en":
        return english
    text = pgettext("card text", card)
    return english if text == card else text


def name(word: str) -> str:
    """A thing's name as the reader reads it, with the notation's word beside it when
    they differ ("Toren (tower)"); the word alone in English or for a name the
    catalogue lacks (a bonus or prestige card's code)."""
    if current_language() == "en":
        return word
    return term(word, pgettext("name", word))


def names(words: Iterable[str]) -> str:
    """Several names, comma-separated."""
    return ", ".join(name(w) for w in words)
