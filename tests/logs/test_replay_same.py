"""The fast log reader and replay loop judge every log as before.

`replay_corpus` builds some 300 logs from seeds (self-played games, the fixture logs,
and corrupted copies of them). `fixtures/replay_expected.json` holds what reading and
replaying each gave before the fast paths (the error in full, digests of the rest);
the reader's fast path must also read every one of them exactly as its general way.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

import notation.log

from .replay_corpus import EXPECTED, corpus, expectation, read


@functools.cache
def cases() -> tuple[tuple[str, str, int | None], ...]:
    return tuple(corpus())


def test_the_corpus_is_the_one_the_expectations_were_written_for() -> None:
    stored: dict[str, Any] = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert [name for name, _, _ in cases()] == list(stored)
    kinds = {(v["error"] or [0, 0, "ok"])[2] for v in stored.values()}
    assert kinds == {"ok", "syntax", "illegal"}


def test_replay_and_reader_give_what_they_gave_before() -> None:
    stored: dict[str, Any] = json.loads(EXPECTED.read_text(encoding="utf-8"))
    differ = {name: (got, stored[name]) for name, text, upto in cases()
              if (got := expectation(text, upto)) != stored[name]}
    assert differ == {}


def test_fast_path_reads_every_log_as_the_general_way(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [read(text) for _, text, _ in cases()]
    monkeypatch.setattr(notation.log, "_FAST_PATH", False)
    general = [read(text) for _, text, _ in cases()]
    differ = [name for (name, _, _), a, b in zip(cases(), fast, general, strict=True) if a != b]
    assert differ == []
