"""`engine.sha256` gives hashlib's SHA-256 digests without loading hashlib (and OpenSSL)
where CPython has its own module, as `random` does for SHA-512."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from engine.sha256 import sha256


@pytest.mark.parametrize("data", [b"", b"abc", b"pbem-seed|s|salt", bytes(range(256)) * 300,
                                  "ünïcode\n".encode()])
def test_the_digests_are_hashlibs(data: bytes) -> None:
    assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    assert sha256(data).digest() == hashlib.sha256(data).digest()
    incremental = sha256()
    incremental.update(data[:7])
    incremental.update(data[7:])
    assert incremental.hexdigest() == hashlib.sha256(data).hexdigest()


def test_the_chain_and_seeded_draws_load_no_hashlib() -> None:
    probe = ("import json, sys; from engine.chain import link, seed_commitment; "
             "from engine.decks import draw_key; "
             "print(json.dumps([seed_commitment('s', 'salt'), draw_key('s', 3, 'deal').hex(), "
             "'hashlib' in sys.modules, sha(sys)]))")
    probe = "def sha(sys):\n    return sys.modules['engine.sha256'].sha256.__module__\n" \
        + probe.replace("; ", "\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=60)
    commitment, key, loaded, module = json.loads(done.stdout)
    assert commitment == hashlib.sha256(b"pbem-seed|s|salt").hexdigest()
    assert key == hashlib.sha256(b"pbem-draw|s|3|deal").hexdigest()
    if sys.implementation.name == "cpython":
        assert not loaded and module in ("_sha2", "_sha256")
