"""The Princes of Florence as help pages list it: its name, title and variants, read
without importing the rules (`engine.registry.summary_of`). The rules' `GAME` offers
these same variants; the contract tests play every advertised player count."""

from __future__ import annotations

from engine.protocol import Option, Summary, Variant

MONEY = Option("money", "Money", ("hidden", "open"),
               "'open': everyone sees everyone's florins")
FREEDOMS = Option("freedoms", "Freedoms", ("5", "4"),
                  "'4': the harder 2-player game, one freedom of each type and 1 more")
STANDARD = Variant("standard", 3, 5, (MONEY,), "the standard game")
TWO_PLAYER = Variant("two-player", 2, 2, (MONEY, FREEDOMS),
                     "the 2-player game: 2,500 florins, bids open at 300, 5 freedoms, "
                     "the landscapes auctioned as one lot")

SUMMARY = Summary("princes-of-florence", "The Princes of Florence",
                  {STANDARD.name: STANDARD, TWO_PLAYER.name: TWO_PLAYER})
