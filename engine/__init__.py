"""The functional core of pbem: the rules of its games.

Pure and deterministic: no I/O, no clock, no global random. Commands are decided
into events, state is a fold over events, and a game's view is the only way state
leaves the engine. Each game lives in a subpackage (`engine/<game>/`) and implements
`engine.protocol.Game`; `engine.registry` finds it by name; `engine.match` plays any
of them.
"""

# Stamped into every game (GameStarted.engine) with the rules edition: a result is
# judged by the engine version and rules data it was played under. Bump it whenever
# the events a game produces could change (tests/fixtures/versions/ keeps finished
# games of each version; tests/trust/test_versions.py replays them).
# 0.2.0: the seed commitment in GameStarted, undo by consent, sealed private events.
__version__ = "0.2.0"
