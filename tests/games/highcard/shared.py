"""The generic undo commands and event every game accepts, in one place.

They live in the Princes package today and move to `engine.undo`; only this module
changes then (one import line).
"""

from __future__ import annotations

from engine.consent import Agree, Refuse, Reverted, Undo

__all__ = ["Agree", "Refuse", "Reverted", "Undo"]
