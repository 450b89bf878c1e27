"""The hash chain over a game's events, and the commitment to its seed.

Each event's hash covers the hash before it and the event's canonical JSON, so
changing, dropping or reordering any event changes every hash after it. A status
mail quotes the head (`v37 sha256:ab12…`); anyone holding the finished game's log
can replay it and recompute the same chain.

The seed that drives every deal and draw is committed to at the start by
`seed_commitment(seed, salt)` and revealed at the end.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from .events import Event, to_dict

GENESIS = "0" * 64


def canonical_json(event: Event) -> str:
    """The event as compact JSON with sorted keys: what the chain hashes."""
    return json.dumps(to_dict(event), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True)


def link(prev: str, event: Event) -> str:
    """The hash of `event` following the hash `prev` (hex sha256)."""
    return hashlib.sha256(f"{prev}\n{canonical_json(event)}".encode()).hexdigest()


def chain(events: Iterable[Event], prev: str = GENESIS) -> list[str]:
    """The hash after each event, in order."""
    out = []
    for e in events:
        prev = link(prev, e)
        out.append(prev)
    return out


def head(version: int, digest: str) -> str:
    """How a position is quoted in mails and logs: `v37 sha256:ab12…` (16 hex digits)."""
    return f"v{version} sha256:{digest[:16]}"


def seed_commitment(seed: str, salt: str) -> str:
    """The published commitment to a game's seed (hex sha256 of seed and salt)."""
    return hashlib.sha256(f"pbem-seed|{seed}|{salt}".encode()).hexdigest()
