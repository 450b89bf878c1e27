"""replay_log never raises: truncated, mutated and random logs give results with a
well-formed error and a position the engine can rebuild from the events."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.princes.game import replay
from engine.princes.views import view_for
from notation.princes import (
    BONUS_CARDS,
    BUILDINGS,
    CELL_ORDER,
    FREEDOM_WORDS,
    OBJECT_WORDS,
    PRESTIGE_CARDS,
    PROFESSIONS,
    VERBS,
)
from pbem.logs import ReplayResult, replay_log
from pbem.princes.render_text import full_view, render_view

from .helpers import playout, recorded_log, seeded_log

FUZZ = settings(deadline=None, max_examples=150,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def assert_sane(r: ReplayResult, text: str) -> None:
    """A result that a caller can trust: a real error or none, and a valid position."""
    n_lines = text.count("\n") + 1
    if r.ok:
        assert r.error is None
    else:
        e = r.error
        assert e is not None
        assert e.kind in ("syntax", "ambiguous", "illegal"), e
        assert 1 <= e.line <= n_lines, (e, n_lines)
        assert e.column >= 1 and e.message
        assert r.lines == e.line
        assert all(isinstance(s, str) and s for s in e.legal)
    json.dumps(r.to_json())
    if r.state is not None:
        assert r.events and replay(r.events) == r.state
        assert r.round == r.state.round and r.finished == r.state.finished
        for seat in (None, *range(len(r.state.players))):
            render_view(view_for(r.state, seat))
        render_view(full_view(r.state))


def _texts() -> list[str]:
    return [recorded_log(playout(4, 1)), seeded_log(playout(3, 1)),
            seeded_log(playout(5, 2), chance=True)]


def test_truncated_at_every_byte(example_text: str) -> None:
    data = example_text.encode()
    for cut in range(len(data) + 1):
        text = data[:cut].decode("utf-8", errors="replace")
        r = replay_log(text)
        # Every whole line before the cut is good: a refusal can only be the cut line.
        if not r.ok:
            assert r.error is not None
            assert r.error.line == text.count("\n") + 1, (cut, r.error)
            assert r.error.kind != "internal"


@FUZZ
@given(which=st.integers(0, 2), cut=st.floats(0, 1))
def test_truncated_selfplay_logs(which: int, cut: float) -> None:
    full = _texts()[which]
    text = full[: int(len(full) * cut)]
    r = replay_log(text)
    assert_sane(r, text)
    if not r.ok:
        assert r.error is not None and r.error.line == text.count("\n") + 1


_CHARS = st.sampled_from(list("abcdefgxyz0123456789 :*#[]\"+-\t\r\n\\,") + ["\u00e9", "\ufeff",
                                                                                "\x00", "\u2028"])


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = _texts()[draw(st.integers(0, 2))]
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        op = draw(st.sampled_from(["char", "delete", "insert", "dup", "swap", "move", "text"]))
        if op in ("char", "delete", "insert"):
            at = draw(st.integers(0, max(0, len(text) - 1)))
            if op == "char":
                text = text[:at] + draw(_CHARS) + text[at + 1:]
            elif op == "delete":
                text = text[:at] + text[at + draw(st.integers(1, 40)):]
            else:
                text = text[:at] + draw(st.text(_CHARS, max_size=12)) + text[at:]
            continue
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        if op == "dup":
            lines.insert(j, lines[i])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "move":
            lines.insert(j, lines.pop(i))
        else:
            lines[i] = draw(st.text(max_size=30))
        text = "\n".join(lines)
    return text


@FUZZ
@given(text=mutated())
def test_mutated_logs(text: str) -> None:
    assert_sane(replay_log(text), text)


@FUZZ
@given(text=st.text(max_size=400))
def test_random_text(text: str) -> None:
    assert_sane(replay_log(text), text)


_WORDS = (list(VERBS.words) + list(PROFESSIONS.words) + list(BUILDINGS.words)
          + list(OBJECT_WORDS.words) + list(FREEDOM_WORDS.words) + list(CELL_ORDER)
          + ["+" + b for b in BONUS_CARDS.words] + list(PRESTIGE_CARDS.words)
          + ["pp", "from", "anna", "bas", "chris", "100", "200", "300", "1", "0", "7"])


@st.composite
def grammar_log(draw: st.DrawFn) -> str:
    """A header and lines made of real words: gets past the reader into the engine."""
    if draw(st.booleans()):  # a real game's start, then random lines
        text = seeded_log(playout(3, 1), result=False) if draw(st.booleans()) \
            else recorded_log(playout(3, 1), result=False)
        header, body = text.split("\n\n", 1)
        base = body.split("\n")
        lines = base[:draw(st.integers(0, len(base)))]
        header += "\n"
    else:
        header = '[Players "anna, bas, chris"]\n'
        if draw(st.booleans()):
            header += '[Seed "fuzz"]\n'
        lines = []
    for _ in range(draw(st.integers(1, 12))):
        actor = draw(st.sampled_from(["anna", "bas", "chris", "*", "round"]))
        words = draw(st.lists(st.sampled_from(_WORDS), min_size=0, max_size=7))
        if actor == "*":
            kind = draw(st.sampled_from(["deal anna:", "draw bas bonus:", "draw chris prestige:",
                                         "draw anna profession:"]))
            lines.append(f"* {kind} {' '.join(words)}")
        elif actor == "round":
            lines.append(f"round {draw(st.integers(0, 9))}")
        else:
            lines.append(f"{actor}: {' '.join(words)}")
    return header + "\n".join(lines)


@FUZZ
@given(text=grammar_log())
def test_grammar_fuzz(text: str) -> None:
    assert_sane(replay_log(text), text)
