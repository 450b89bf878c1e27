"""The words of The Princes of Florence's notation: its commands, the names of its
professions, buildings, landscapes, cards and decks (from `engine.princes.ruleset`),
and the cells of its grid."""

from __future__ import annotations

from engine.princes.court import CHARACTERS
from engine.princes.ruleset import (
    DECKS,
    FREEDOMS,
    LANDSCAPE_LOT,
    LANDSCAPES,
    OBJECTS,
    STANDARD_RULES,
)
from notation.words import UNDO_VERBS, Vocabulary

VERBS = Vocabulary(
    "command",
    (
        "keep", "open", "bid", "pass", "take", "place", "choose", "build", "work",
        "profession", "bonus", "freedom", "recruit", "sell", "done", *UNDO_VERBS, "use",
    ),
    whole=("done", "pass", *UNDO_VERBS, "bonus", "profession"),
)
"""The commands. Those that end a turn, give something up, answer an undo or pay for
a draw are taken only written in full, so that a word such as "Don" or "Bon" in a
greeting is never played."""
PROFESSIONS = Vocabulary("profession", STANDARD_RULES.professions)
BUILDINGS = Vocabulary("building", STANDARD_RULES.buildings, aliases={"theatre": "theater"})
LANDSCAPE_WORDS = Vocabulary("landscape", LANDSCAPES)
OBJECT_WORDS = Vocabulary("object", (*OBJECTS, LANDSCAPE_LOT))
"""The auction objects of every variant: the 2-player game names its landscapes as
one lot, `landscape`."""
FREEDOM_WORDS = Vocabulary("freedom", FREEDOMS)
BONUS_CARDS = Vocabulary("bonus card", STANDARD_RULES.bonus)
PRESTIGE_CARDS = Vocabulary("prestige card", STANDARD_RULES.prestige)
CARDS = Vocabulary(
    "card",
    (*STANDARD_RULES.professions, *STANDARD_RULES.bonus, *STANDARD_RULES.prestige),
    expected=("profession", "bonus card", "prestige card"),
    wanted="a profession, bonus card or prestige card",
)
CHARACTER_WORDS = Vocabulary("character", CHARACTERS)
"""The character cards of The Muse and the Princess (`bid CHARACTER N`)."""
USE_WORDS = Vocabulary("character", ("banker", "professor", "merchant", "princess"))
"""The characters `use` names (The Muse and the Princess)."""
MERCHANT_WAYS = Vocabulary("merchant's reward", ("pp", "free"))
"""The Merchant's two rewards: fame, or the next object won for free."""
PROFESSOR_DECKS = Vocabulary("deck", ("bonus", "prestige"))
"""The decks the Professor draws from."""
DECK_WORDS = Vocabulary("deck", DECKS)
CHANCE_WORDS = Vocabulary("chance event", ("deal", "draw", "freedoms"))
"""The chance lines: `* deal`, `* draw` and the 2-player game's `* freedoms` (the
freedoms added to the supply at setup)."""

DECK_CARDS: dict[str, Vocabulary] = {
    "profession": PROFESSIONS,
    "prestige": PRESTIGE_CARDS,
    "bonus": BONUS_CARDS,
}
"""The cards each deck holds, by deck name."""

_COLUMNS = "abcdefghijklmnopqrstuvwxyz"[: STANDARD_RULES.width]
CELL_ORDER: dict[str, int] = {
    f"{c}{r}": i * STANDARD_RULES.height + r - 1
    for i, c in enumerate(_COLUMNS)
    for r in range(1, STANDARD_RULES.height + 1)
}
"""Every cell name of the principality grid, with its rank in canonical order
(column, then row), the order of `engine.princes.commands.canonical_cells`."""

FIRST_CELL = f"{_COLUMNS[0]}1"
LAST_CELL = f"{_COLUMNS[-1]}{STANDARD_RULES.height}"
