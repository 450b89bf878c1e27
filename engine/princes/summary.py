"""The Princes of Florence as help pages list it: its name, title and variants, read
without importing the rules (`engine.registry.summary_of`). The rules' `GAME` offers
these same variants; the contract tests play every advertised player count."""

from __future__ import annotations

from engine.protocol import Option, Summary, Variant

MONEY = Option("money", "Money", ("hidden", "open"),
               "'open': everyone sees everyone's florins")
FREEDOMS = Option("freedoms", "Freedoms", ("5", "4"),
                  "'4': the harder 2-player game, one freedom of each type and 1 more")
EXPANSIONS = Option("expansion", "Expansions", ("none", "muse-and-princess"),
                    "'muse-and-princess': The Muse and the Princess (six characters "
                    "auctioned each round; fame may not be sold)", quiet=True)
CHARACTER_RAISE = Option("character-raise", "CharacterRaise", ("higher", "next"),
                         "with the expansion, how a marker displaces another: 'higher' any "
                         "higher bid space [WK], 'next' only the next space up [GR]",
                         quiet=True)
MERCHANT_POINTS = Option("merchant-points", "MerchantPoints", ("ahead", "level"),
                         "with the expansion, the Merchant's fame: 'ahead' 1 + each opponent "
                         "with more fame [WK], 'level' 1 + each with as much or more (the "
                         "place on the fame track [GR], ties counted behind)", quiet=True)
MUSE_PRINCESS = Option("muse-princess", "MusePrincess", ("yes", "no"),
                       "with the expansion, whether the Muse adds to the Princess's work",
                       quiet=True)
EXPANSION_OPTIONS = (EXPANSIONS, CHARACTER_RAISE, MERCHANT_POINTS, MUSE_PRINCESS)
STANDARD = Variant("standard", 3, 5, (MONEY, *EXPANSION_OPTIONS), "the standard game")
TWO_PLAYER = Variant("two-player", 2, 2, (MONEY, FREEDOMS, *EXPANSION_OPTIONS),
                     "the 2-player game: 2,500 florins, bids open at 300, 5 freedoms, "
                     "the landscapes auctioned as one lot")

SUMMARY = Summary("princes-of-florence", "The Princes of Florence",
                  {STANDARD.name: STANDARD, TWO_PLAYER.name: TWO_PLAYER})
