"""The DATC-style case file format both games' rules catalogues share.

A game's runner (princes_cases.py, signorie_cases.py) reads its files with
`parse_case_file`/`load_cases`, passing the head keywords only it knows (Princes:
VARIANT, Signorie: XFAIL) as `Readers`, and uses the GIVEN and EXPECT helpers here.
The format is described in tests/cases/README.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

DEFAULT_PLAYERS = ("anna", "bas", "chris", "dirk")
KEYWORDS = ("CASE", "RULE", "PLAYERS", "SEED", "FROM", "GIVEN", "LOG", "EXPECT", "END")


class CaseFormatError(Exception):
    """A case file that does not follow the case format."""


class CaseFailure(AssertionError):
    """A case whose expectations do not hold."""


@dataclass(frozen=True)
class Line:
    number: int  # 1-based line in the case file
    text: str


@dataclass
class Block:
    log: list[Line] = field(default_factory=list)
    expect: list[Line] = field(default_factory=list)


@dataclass
class Case:
    id: str
    file: Path
    line: int
    rules: list[str] = field(default_factory=list)
    description: list[str] = field(default_factory=list)
    players: tuple[str, ...] | None = None
    variant: str | None = None  # Princes: VARIANT NAME [freedoms N]
    freedoms: int = 0
    seed: str | None = None
    base: str | None = None  # FROM
    xfail: str | None = None  # Signorie: the engine bug the case finds
    given: list[Line] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.file.name}:{self.line}"


Reader = Callable[[Case, str, Path, int], None]
"""A game's own head keyword: reads the rest of the line (file, line number) into the case."""
Readers = Mapping[str, Reader]


# --------------------------------------------------------------------------- reading


def format_error(path: Path, number: int, message: str) -> CaseFormatError:
    return CaseFormatError(f"{path.name}:{number}: {message}")


def parse_case_file(path: Path, readers: Readers) -> list[Case]:
    """All cases of one file, in order; `readers` are the game's own keywords.

    Raises:
        CaseFormatError: the file breaks the case format.
    """
    cases: list[Case] = []
    case: Case | None = None
    section = ""
    for number, raw in enumerate(path.read_text("utf-8").splitlines(), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        if word not in KEYWORDS and word not in readers:
            if case is None:
                raise format_error(path, number, f"text outside a case: {text!r}")
            if section == "head":
                case.description.append(text)
            elif section == "GIVEN":
                case.given.append(Line(number, text))
            elif section == "LOG":
                case.blocks[-1].log.append(Line(number, text))
            elif section == "EXPECT":
                case.blocks[-1].expect.append(Line(number, text))
            else:
                raise format_error(path, number, f"unexpected text {text!r}")
            continue
        if word == "CASE":
            if case is not None:
                raise format_error(path, number, f"CASE {rest} inside case {case.id} (no END)")
            if not re.fullmatch(r"[a-z0-9][a-z0-9.-]*", rest):
                raise format_error(path, number, f"bad case id {rest!r}")
            case = Case(rest, path, number)
            section = "head"
            continue
        if case is None:
            raise format_error(path, number, f"{word} outside a case")
        if word == "END":
            _check_case(case, path, number)
            cases.append(case)
            case, section = None, ""
        elif word == "RULE":
            if section != "head":
                raise format_error(path, number, "RULE belongs to the head of a case")
            case.rules.append(rest)
        elif word == "PLAYERS":
            case.players = tuple(n.strip().lower() for n in rest.split(",") if n.strip())
        elif word in readers:
            readers[word](case, rest, path, number)
        elif word == "SEED":
            case.seed = rest
        elif word == "FROM":
            case.base = rest
        elif word == "GIVEN":
            section = "GIVEN"
        elif word == "LOG":
            case.blocks.append(Block())
            section = "LOG"
        elif word == "EXPECT":
            if section != "LOG":
                case.blocks.append(Block())
            section = "EXPECT"
    if case is not None:
        raise format_error(path, case.line, f"case {case.id} has no END")
    return cases


def _check_case(case: Case, path: Path, number: int) -> None:
    if not case.rules:
        raise format_error(path, case.line, f"case {case.id} cites no RULE")
    if not case.description:
        raise format_error(path, case.line, f"case {case.id} has no description")
    if not any(b.expect for b in case.blocks):
        raise format_error(path, number, f"case {case.id} expects nothing")


def load_cases(directory: Path, readers: Readers) -> list[Case]:
    """Every case of every *.case file, checked for unique ids and known FROM bases.

    Raises:
        CaseFormatError: a malformed file, a repeated id or an unknown FROM.
    """
    cases: list[Case] = []
    for path in sorted(directory.glob("*.case")):
        cases.extend(parse_case_file(path, readers))
    seen: dict[str, Case] = {}
    for c in cases:
        if c.id in seen:
            raise CaseFormatError(f"{c.where}: case id {c.id} also at {seen[c.id].where}")
        seen[c.id] = c
    for c in cases:
        if c.base is not None and c.base not in seen:
            raise CaseFormatError(f"{c.where}: FROM names unknown case {c.base}")
    return cases


# --------------------------------------------------------------------------- GIVEN


def resolve(case: Case, by_id: dict[str, Case]) -> tuple[tuple[str, ...], str | None,
                                                         list[Line]]:
    """Players, seed and GIVEN lines of a case, following FROM."""
    chain = [case]
    while chain[-1].base is not None:
        nxt = by_id[chain[-1].base]
        if nxt in chain:
            raise CaseFormatError(f"{case.where}: FROM loop")
        chain.append(nxt)
    players: tuple[str, ...] | None = None
    seed: str | None = None
    given: list[Line] = []
    for c in reversed(chain):
        players = c.players or players
        seed = c.seed if c.seed is not None else seed
        given.extend(c.given)
    return players or DEFAULT_PLAYERS, seed, given


def given_items(lines: Sequence[Line]) -> Iterator[tuple[Line, str | None, list[str]]]:
    """(line, player or None, words) for each comma-separated item of GIVEN."""
    for line in lines:
        text = line.text
        who: str | None = None
        m = re.match(r"([a-z][a-z0-9_-]*)\s*:(.*)$", text)
        if m:
            who, text = m.group(1), m.group(2)
        for part in text.split(","):
            words = part.split()
            if words:
                yield line, who, words


def to_int(line: Line, word: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise CaseFormatError(f"line {line.number}: expected a number, found {word!r}") \
            from None


def to_seat(line: Line, players: Sequence[str], name: str) -> int:
    if name not in players:
        raise CaseFormatError(f"line {line.number}: unknown player {name!r}")
    return players.index(name)


# --------------------------------------------------------------------------- EXPECT


class Run(Protocol):
    """What the EXPECT helpers need of a game's run."""

    block_events: list[Any]

    def fail(self, line: Line, message: str) -> CaseFailure: ...


Value = Callable[[Any, Line, str, str], Any]
"""A game's reading of `field=TEXT` in an `event` fact: (its run, line, field, text) -> value."""


def _event_matches(run: Run, line: Line, event: Any, name: str,
                   fields: list[tuple[str, str]], value: Value) -> bool:
    if type(event).__name__ != name:
        return False
    for key, text in fields:
        if not hasattr(event, key):
            raise CaseFormatError(f"line {line.number}: {name} has no field {key!r}")
        got = getattr(event, key)
        want = value(run, line, key, text)
        if isinstance(got, tuple) and not isinstance(want, tuple):
            want = (want,)
        if got != want:
            return False
    return True


def event_fact(run: Run, line: Line, args: list[str], negated: bool,
               event_types: Collection[str], value: Value) -> None:
    """`[no] event NAME field=value...`: an event (not) among the block's events."""
    name = args[0]
    if name not in event_types:
        raise CaseFormatError(f"line {line.number}: unknown event type {name!r}")
    fields = []
    for a in args[1:]:
        key, eq, text = a.partition("=")
        if not eq:
            raise CaseFormatError(f"line {line.number}: expected field=value, found {a!r}")
        fields.append((key, text))
    hits = [e for e in run.block_events if _event_matches(run, line, e, name, fields, value)]
    if negated and hits:
        raise run.fail(line, f"unexpected event {hits[0]!r}")
    if not negated and not hits:
        same = [e for e in run.block_events if type(e).__name__ == name]
        raise run.fail(line, f"no such event; {name} events of this block: {same!r}")
