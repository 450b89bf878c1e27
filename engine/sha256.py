"""SHA-256, the engine's one hash: the chain of events, the seed commitment, the
draws derived from a seed.

`hashlib` loads OpenSSL and builds every algorithm it offers when it is imported, which
costs `pbem verify` some 2 ms of a 50 ms start; like `random` (which takes its SHA-512
the same way), the engine takes CPython's own SHA-256 module where there is one
(`_sha2` from Python 3.12 on, `_sha256` before) and hashlib's otherwise. Every one of
them gives the same digests (tests/engine/test_sha256.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hashlib import sha256
else:
    try:
        from _sha2 import sha256
    except ImportError:
        try:
            from _sha256 import sha256
        except ImportError:
            from hashlib import sha256

__all__ = ["sha256"]
