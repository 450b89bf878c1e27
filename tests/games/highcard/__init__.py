"""high-card: the toy second game the tests register to prove the game seam."""

from .game import GAME, HighCard

__all__ = ["GAME", "HighCard"]
