"""The functional core of pbem: the rules of The Princes of Florence.

Pure and deterministic: no I/O, no clock, no global random. Commands are decided
into events, state is a fold over events, and `view_for` is the only way state
leaves the engine.
"""

# Stamped into every game (GameStarted.engine) with the rules edition: a result is
# judged by the engine version and rules data it was played under.
__version__ = "0.1.0"
