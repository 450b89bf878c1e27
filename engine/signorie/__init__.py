"""Signorie (Chiarvesio & Zizzi, 2015): the rules of the second game."""
