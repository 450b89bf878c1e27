"""The hash chain over a game's events, and the commitment to its seed.

Each event's hash covers the hash before it and the event's canonical JSON, so
changing, dropping or reordering any event changes every hash after it. A status
mail quotes the head (`v37 sha256:ab12…`); anyone holding the finished game's log
can replay it and recompute the same chain.

Private events (a deal, a keep, a draw, a choice) are *sealed* when a key is given:
their hidden cards are replaced by `seal = sha256(key, previous hash, full event)`.
The moderator uses the game's secret seed as the key. Without the seal, a player
could recover an opponent's hidden cards from the heads quoted in the mails by
trying every possible draw (a few hundred thousand at most); with it, nobody can
before the seed is revealed, and anyone can recompute the seals after.

The seed that drives every deal and draw is committed to at the start by
`seed_commitment(seed, salt)` (stored in the game's first event, so every head
covers it) and revealed at the end.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from .codec import redact, to_dict

GENESIS = "0" * 64


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)
"""What `json.dumps` with these options would build for every event."""


def _dumps(d: dict[str, Any]) -> str:
    return _ENCODER.encode(d)


def canonical_json(event: Any) -> str:
    """The event as compact JSON with sorted keys (what the store keeps)."""
    return _dumps(to_dict(event))


def chained_json(prev: str, event: Any, key: str | None = None) -> str:
    """What the chain hashes for `event` after the hash `prev`.

    Public events, and every event when `key` is None: `canonical_json(event)`.
    Private events with a key: the event with its hidden cards shown as '?', plus
    `"seal"`, the sha256 of the key, `prev` and the full event.
    """
    full = canonical_json(event)
    if key is None or not event.private:
        return full
    d = to_dict(redact(event, None))
    d["seal"] = hashlib.sha256(f"pbem-seal|{key}|{prev}|{full}".encode()).hexdigest()
    return _dumps(d)


def link(prev: str, event: Any, key: str | None = None) -> str:
    """The hash of `event` following the hash `prev` (hex sha256); private events
    are sealed with `key` (the game's seed) when one is given."""
    return hashlib.sha256(f"{prev}\n{chained_json(prev, event, key)}".encode()).hexdigest()


def chain(events: Iterable[Any], prev: str = GENESIS, key: str | None = None) -> list[str]:
    """The hash after each event, in order."""
    out = []
    for e in events:
        prev = link(prev, e, key)
        out.append(prev)
    return out


def head(version: int, digest: str, full: bool = False) -> str:
    """How a position is quoted: `v37 sha256:ab12…` (16 hex digits in mails; all 64
    with `full`, as in exported logs)."""
    return f"v{version} sha256:{digest if full else digest[:16]}"


def seed_commitment(seed: str, salt: str) -> str:
    """The published commitment to a game's seed (hex sha256 of seed and salt)."""
    return hashlib.sha256(f"pbem-seed|{seed}|{salt}".encode()).hexdigest()
