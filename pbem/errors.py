"""Failures of the infrastructure: configuration, storage, mail transport.

These form their own tree, apart from `engine.errors.GameError`. A `PbemError` is
logged for the operator and never shown to a player verbatim: a player only ever
sees messages written for players (engine errors about their own command, and the
`MailRejected` reasons of `pbem.inbound`).
"""

from __future__ import annotations


class PbemError(Exception):
    """Base of every infrastructure failure."""


class ConfigError(PbemError):
    """A setting is missing or malformed."""


class StoreError(PbemError):
    """The database refused or lost something."""


class ConflictError(StoreError):
    """Another writer appended to the same game first (optimistic concurrency)."""


class UnknownGameError(StoreError):
    """No game with that id."""


class TransportError(PbemError):
    """A mail server could not be reached or refused a message."""
