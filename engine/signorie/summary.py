"""Signorie as help pages list it: its name, title and variants, read without
importing the rules (`engine.registry.summary_of`)."""

from __future__ import annotations

from engine.protocol import Summary, Variant

STANDARD = Variant("standard", 2, 4, (), "the standard game: 2-4 players, seven rounds")

SUMMARY = Summary("signorie", "Signorie", {STANDARD.name: STANDARD})
