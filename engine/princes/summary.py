"""The Princes of Florence as help pages list it: its name, title and variants, read
without importing the rules (`engine.registry.summary_of`). The rules' `GAME` offers
these same variants; the contract tests play every advertised player count."""

from __future__ import annotations

from engine.protocol import Option, Summary, Variant

MONEY = Option("money", "Money", ("hidden", "open"),
               "'open': everyone sees everyone's florins")
STANDARD = Variant("standard", 3, 5, (MONEY,), "the standard game")

SUMMARY = Summary("princes-of-florence", "The Princes of Florence", {STANDARD.name: STANDARD})
