"""Verify an exported game log offline: the seed, every shuffle, every move, every hash.

Pure: text in, a `VerifyResult` out; no database, no network, no clock. What it
checks, in the order of the log (docs/trust.md explains it for players):

1. the header: the seed is revealed (a `Seed` tag), the tags an export writes are
   there, and `sha256(Seed, Salt)` (engine.chain.seed_commitment) equals `SeedCommit`,
   the commitment published in the game's first mail;
2. every chance line (`* deal ...`, `* draw ...`) is exactly what the seed gives at
   that point of the game (`engine.match.Match.seeded_command`), and none is missing;
3. every move is legal where it stands (the undo protocol's `undo`, `agree` and
   `refuse` included, engine.undo);
4. every move and chance line's annotation `# vN sha256:<hex>` is the head of the
   hash chain recomputed from the replayed events (engine.chain, private events
   sealed with the revealed seed);
5. at the end, the `Head` tag is the last head, and the `Result` tag the final scores.

The first thing that does not hold is reported with its line. The game's first event
is rebuilt from the tags (game, players, variant, the game's option tags, `Rules`,
`Engine`, `SeedCommit`),
so the chain also covers the rules edition and engine version the game was judged
by. A log stamped by another edition or engine version is replayed by this engine
all the same: if it judges the game identically the log verifies (with a note), and
otherwise the first line it judges differently is reported as such.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import field
from typing import Any

from engine.chain import GENESIS, chain, head, link, seed_commitment
from engine.errors import GameError, IllegalMoveError, NotationError
from engine.frozen import dataclass
from engine.match import Match
from engine.protocol import CHANCE, Game, Standing, variant_for
from engine.undo import is_undo_command
from notation import Chance, Comment, Move, RoundMarker, Tag, iter_log, split_players
from notation.limits import MAX_DIGITS
from notation.registry import grammar_for
from notation.words import quote, visible

from .logs import game_of, parse_result_tag, score_unit, standing_json, standing_text

ANNOTATION = re.compile(r"#\s*v([0-9]+)\s+sha256:([0-9a-fA-F]+)\s*$")
HEAD = re.compile(r"v([0-9]{1,9})\s+sha256:([0-9a-f]{64})")
COMMIT = re.compile(r"sha256:([0-9a-f]{64})")
REQUIRED = ("Rules", "Engine", "SeedCommit", "Salt", "Head")
CHECKS = ("io", "syntax", "unrevealed", "tags", "commitment", "chance", "move", "round",
          "chain", "head", "result", "internal")
"""What a problem's `check` may name (in the order they are made)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """The first thing that does not hold: its line (1-based; 0: none), which check
    failed (one of CHECKS), and what is wrong."""

    line: int
    check: str
    message: str

    def __post_init__(self) -> None:
        # Names and tag values come from the log: what does not show is escaped.
        object.__setattr__(self, "message", visible(self.message))

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "check": self.check, "message": self.message}


@dataclass
class VerifyResult:
    """What `verify_log` found. `ok` only when every check holds."""

    file: str
    ok: bool = False
    problem: Problem | None = None
    notes: list[str] = field(default_factory=list)
    rules: str = ""
    engine: str = ""
    version: int = 0
    head: str = ""  # full hex of the recomputed head
    finished: bool = False
    players: tuple[Standing, ...] = ()
    winners: tuple[str, ...] = ()
    chance: int = 0  # chance lines checked
    moves: int = 0  # move lines checked (undo protocol lines included)
    undos: int = 0  # undos made (Reverted events)
    lines: int = 0
    game: Game[Any] | None = None  # the game that judged the log (None: not known)

    def standings(self) -> list[Standing]:
        return sorted(self.players, key=lambda s: (s.place, s.seat))

    def summary(self) -> str:
        """One line: `OK file: verified ...` or `file:line: check: message`."""
        if not self.ok:
            p = self.problem
            assert p is not None
            where = f"{self.file}:{p.line}" if p.line else self.file
            return f"{where}: {p.check}: {p.message}"
        undos = f" ({self.undos} undo{'s' if self.undos != 1 else ''})" if self.undos else ""
        scores = ", ".join(standing_text(s) for s in self.standings())
        if self.finished:
            won = "winners " if len(self.winners) > 1 else "winner "
            end = f"finished, {won}{' and '.join(self.winners)} — {scores}"
        else:
            end = f"not finished — {scores}"
        return (f"OK {self.file}: verified the seed commitment, {self.chance} deals and draws "
                f"from the seed, {self.moves} moves{undos} and every hash; head "
                f"{head(self.version, self.head)}…; {end}")

    def to_json(self) -> dict[str, Any]:
        game = self.game or game_of(None)
        return {
            "file": self.file, "ok": self.ok,
            "problem": self.problem.to_json() if self.problem else None,
            "notes": list(self.notes), "rules": self.rules, "engine": self.engine,
            "current_rules": game.edition, "current_engine": game.version,
            "version": self.version, "head": f"v{self.version} sha256:{self.head}",
            "finished": self.finished,
            "players": [standing_json(s) for s in self.players],
            "winners": list(self.winners), "chance": self.chance, "moves": self.moves,
            "undos": self.undos, "lines": self.lines,
        }


class _Fail(Exception):
    def __init__(self, line: int, check: str, message: str) -> None:
        super().__init__(message)
        self.problem = Problem(line, check, message)


def _short(digest: str) -> str:
    return digest[:16] + "…"


def _stamped(game: Game[Any], first: Any, **fields: str) -> Any:
    """The game's first event with another `edition`, `engine` or `commitment` (the
    names under which a first event records them, as `engine.protocol.Setup` does)."""
    data = game.to_dict(first)
    data.update(fields)
    return game.from_dict(data)


def _and(parts: list[str]) -> str:
    """"a, b and c"."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


class _Verify:
    def __init__(self, text: str, file: str, heads: Sequence[str]) -> None:
        if text.startswith("\ufeff"):
            text = text[1:]
        self.text = text
        self.raw = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
        self.heads = heads
        self.result = VerifyResult(file)
        self.tags: dict[str, str] = {}
        self.tag_lines: dict[str, int] = {}
        self.last_tag_line = 0
        self.game: Game[Any]  # the log's game, set by `start` (before: no game is needed)
        self.match: Match | None = None
        self.seed = ""
        self.events: list[Any] = []
        self.hashes: list[str] = []
        self.reached: list[int] = []  # the line at which each version was reached
        self.stamp_note = ""
        self.chained = False  # an annotation was checked
        self.line = 0

    # -- helpers --------------------------------------------------------------------

    def annotation(self, number: int) -> tuple[int, str] | None:
        line = self.raw[number - 1] if 0 < number <= len(self.raw) else ""
        m = ANNOTATION.search(line)
        if m is None:
            return None
        digits = m.group(1)
        if len(digits) > MAX_DIGITS:
            raise _Fail(number, "chain", f"the annotation's version has {len(digits):,} "
                        f"digits; a version has at most {MAX_DIGITS}")
        return int(digits), m.group(2).lower()

    def tag_line(self, name: str) -> int:
        return self.tag_lines.get(name.lower(), self.last_tag_line)

    def tag(self, name: str) -> str | None:
        return self.tags.get(name.lower())

    def extend(self, events: Sequence[Any], line: int) -> None:
        prev = self.hashes[-1] if self.hashes else GENESIS
        for e in events:
            prev = link(prev, e, self.seed)
            self.hashes.append(prev)
            self.events.append(e)
            self.reached.append(line)

    def differently(self) -> str:
        """What a failure means when another engine or rules edition judged the log."""
        if not self.stamp_note:
            return ""
        return (f" (this log was judged by engine {self.result.engine} with rules "
                f"{self.result.rules}; engine {self.game.version} with rules "
                f"{self.game.edition} judges it differently from this line on)")

    # -- the header -------------------------------------------------------------------

    def start(self, first_line: int) -> None:
        """Check the header and set the game up (at the first line after the tags)."""
        seed = self.tag("Seed")
        for name in ("SeedCommit", "Head"):
            if self.tag(name) is None:
                raise _Fail(self.last_tag_line, "tags",
                            f"the log has no [{name}] tag: only a log written by `pbem export` "
                            "can be verified")
        if not seed:
            raise _Fail(self.tag_line("SeedCommit"), "unrevealed",
                        "not verifiable until the seed is revealed: the log has no Seed tag "
                        "(the moderator reveals the seed and the salt in the last mail of the "
                        "game, and `pbem export` writes them into the log once it is over)")
        for name in REQUIRED:
            if self.tag(name) is None:
                raise _Fail(self.last_tag_line, "tags",
                            f"the log has no [{name}] tag: only a log written by `pbem export` "
                            "can be verified")
        self.seed = seed
        r = self.result
        try:
            game = self.game = r.game = game_of(self.tag("Game"))
        except GameError as e:
            raise _Fail(self.tag_line("Game"), "tags", e.message) from None
        r.rules, r.engine = self.tag("Rules") or "", self.tag("Engine") or ""
        if (r.rules, r.engine) != (game.edition, game.version):
            self.stamp_note = (f"this log was judged by engine {r.engine} with rules "
                               f"{r.rules}; it was checked with engine {game.version} and "
                               f"rules {game.edition}")
            r.notes.append(self.stamp_note)
        commit = COMMIT.fullmatch((self.tag("SeedCommit") or "").strip())
        if commit is None:
            raise _Fail(self.tag_line("SeedCommit"), "tags",
                        "the SeedCommit tag is not 'sha256:' and 64 hex digits")
        if HEAD.fullmatch((self.tag("Head") or "").strip()) is None:
            raise _Fail(self.tag_line("Head"), "tags",
                        "the Head tag is not 'vN sha256:' and 64 hex digits (N of at most "
                        f"{MAX_DIGITS} digits)")
        players = split_players(self.tag("Players") or "")
        variant = (self.tag("Variant")
                   or variant_for(game.variants, len(players))).strip().lower()
        options: dict[str, str] = {}
        for option in game.variants[variant].options if variant in game.variants else ():
            value = (self.tag(option.tag) or option.default).strip().lower()
            if value not in option.choices:
                choices = " or ".join(repr(c) for c in option.choices)
                raise _Fail(self.tag_line(option.tag), "tags",
                            f"the {option.tag} tag is {choices}")
            options[option.name] = value
        try:
            base = game.start(players, variant=variant, options=options,
                              commitment=commit.group(1), seeded=True)
        except IllegalMoveError as e:
            raise _Fail(self.tag_line("Players"), "tags", e.message) from None
        started = _stamped(game, base, edition=r.rules, engine=r.engine)
        self.check_commitment(started, seed, self.tag("Salt") or "")
        self.match = Match.from_events(game, [started], seed=seed)
        self.extend([started], first_line)

    def check_commitment(self, started: Any, seed: str, salt: str) -> None:
        """sha256(Seed, Salt) must be the SeedCommit. If not, name the tag that was
        changed: the chain's first annotation records the commitment and the first
        deal (sealed with the seed), so it tells which of the three is out of line."""
        game = self.game
        given = game.setup(started).commitment
        real = seed_commitment(seed, salt)
        if real == given:
            return
        first = next((n for n in range(1, len(self.raw) + 1)
                      if self.annotation(n) is not None and n > self.last_tag_line), 0)
        ann = self.annotation(first) if first else None

        def chained(commitment: str) -> dict[int, str]:
            match = Match.from_events(game, [_stamped(game, started, commitment=commitment)],
                                      seed=seed)
            while match.chance_due() and len(match.events) < 8:
                match.play(CHANCE, match.seeded_command())
            return dict(enumerate(chain(match.events, key=seed), 1))

        base = (f"the Seed and Salt do not give the SeedCommit: sha256(Seed, Salt) is "
                f"sha256:{_short(real)}, the SeedCommit tag says sha256:{_short(given)}")
        if ann is not None and chained(real).get(ann[0]) == ann[1]:
            raise _Fail(self.tag_line("SeedCommit"), "commitment", base + "; the chain "
                        "records the commitment of this seed and salt, so the SeedCommit tag "
                        "is the one that was changed")
        if ann is not None and chained(given).get(ann[0]) == ann[1]:
            raise _Fail(self.tag_line("Salt"), "commitment", base + "; the seed gives the "
                        "deals the chain records, so the Salt tag is the one that was changed")
        raise _Fail(self.tag_line("Seed"), "commitment", base + "; the seed is not the one "
                    "committed to at the start")

    # -- the body ---------------------------------------------------------------------

    def chance(self, item: Chance) -> None:
        match = self.match
        assert match is not None
        cmd = item.command
        format_command = grammar_for(self.game.name).format_command
        if not match.chance_due():
            raise _Fail(item.line, "chance", f"no deal or draw is due here, but the line says "
                        f"'{format_command(cmd)}'")
        want = match.seeded_command()
        if cmd != want:
            what = format_command(want).split(maxsplit=1)[0]
            raise _Fail(item.line, "chance", f"this is not the {what} the seed gives here: "
                        f"the seed gives '{format_command(want)}'")
        self.extend(match.play(CHANCE, cmd), item.line)
        self.result.chance += 1

    def move(self, item: Move) -> None:
        match = self.match
        assert match is not None
        format_command = grammar_for(self.game.name).format_command
        if match.chance_due():
            want = match.seeded_command()
            raise _Fail(item.line, "chance", "a deal or draw is due before this line, and an "
                        f"exported log states every one: the seed gives "
                        f"'{format_command(want)}'")
        seat = match.names.index(item.actor)
        try:
            events = match.play(seat, item.command)
        except IllegalMoveError as e:
            raise _Fail(item.line, "move", f"'{item.actor}: {format_command(item.command)}' is "
                        f"illegal here: {e.message}{self.differently()}") from None
        self.extend(events, item.line)
        self.result.moves += 1
        if is_undo_command(item.command) and events:
            self.result.undos += 1

    def check_annotation(self, line: int) -> None:
        ann = self.annotation(line)
        if ann is None:
            raise _Fail(line, "chain", "no chain annotation ('# vN sha256:…'): every move and "
                        "chance line of an exported log ends with the head of the hash chain "
                        "after it")
        version, digest = len(self.hashes), self.hashes[-1]
        if ann != (version, digest) and not self.chained:
            self.diagnose_start(ann)
        self.chained = True
        if ann != (version, digest):
            said = f"v{ann[0]} sha256:{_short(ann[1])}"
            raise _Fail(line, "chain", f"the annotation says {said}, but replaying the log "
                        f"gives v{version} sha256:{_short(digest)}: this line, its annotation "
                        f"or what it did was changed{self.differently()}")

    def diagnose_start(self, ann: tuple[int, str]) -> None:
        """The first annotation does not match: if the game's first event, rebuilt from
        the tags, explains it, name the tag that was changed. The chain records the
        stamp (engine, rules) and the game's options; a log stamped by this engine, or
        with another choice of one option, is tried."""
        game, first = self.game, self.events[0]
        setup = game.setup(first)
        tried = [
            ("Engine", _stamped(game, first, engine=game.version)),
            ("Rules", _stamped(game, first, edition=game.edition)),
            ("Rules", _stamped(game, first, edition=game.edition, engine=game.version)),
        ]
        variant = game.variants.get(setup.variant)
        for option in variant.options if variant is not None else ():
            for choice in option.choices:
                if choice == setup.options.get(option.name):
                    continue
                try:
                    other = game.start(setup.players, variant=setup.variant,
                                       options={**setup.options, option.name: choice},
                                       commitment=setup.commitment, seeded=setup.seeded)
                except IllegalMoveError:
                    continue
                tried.append((option.tag, _stamped(game, other, edition=setup.edition,
                                                   engine=setup.engine)))
        for name, started in tried:
            if started == first:
                continue
            hashes = chain([started, *self.events[1:ann[0]]], key=self.seed)
            if len(hashes) == ann[0] and hashes[-1] == ann[1]:
                was = game.setup(started)
                raise _Fail(self.tag_line(name), "tags", f"the {name} tag was changed: the "
                            "chain records the game's first event with " + _and(
                                [f"rules {was.edition!r}", f"engine {was.engine!r}",
                                 *(f"{k} {v}" for k, v in was.options.items())]))

    def round_marker(self, item: RoundMarker) -> None:
        match = self.match
        assert match is not None
        number = self.game.progress(match.state)[0]
        if item.number != number:
            raise _Fail(item.line, "round", f"this is round {number}, not round "
                        f"{item.number}")

    def run(self) -> None:
        try:
            for entry in iter_log(self.text):
                self.line = entry.line
                if isinstance(entry, Tag):
                    self.tags[entry.name.lower()] = entry.value
                    self.tag_lines[entry.name.lower()] = entry.line
                    self.last_tag_line = entry.line
                    continue
                if isinstance(entry, Comment):
                    continue
                if self.match is None:
                    self.start(entry.line)
                if isinstance(entry, Chance):
                    self.chance(entry)
                    self.check_annotation(entry.line)
                elif isinstance(entry, Move):
                    self.move(entry)
                    self.check_annotation(entry.line)
                else:
                    self.round_marker(entry)
        except NotationError as e:
            line = e.line if e.line is not None else self.line
            if e.expected == ("game",):  # a [Game] tag naming no registered game
                raise _Fail(line, "tags", e.message) from None
            raise _Fail(line, "syntax", f"column {e.column}: {e.message}") from None
        if self.match is None:
            self.start(self.last_tag_line or 1)
        self.finish()

    def finish(self) -> None:
        match = self.match
        assert match is not None
        r = self.result
        version, digest = len(self.hashes), self.hashes[-1]
        m = HEAD.fullmatch((self.tag("Head") or "").strip())
        assert m is not None
        said = (int(m.group(1)), m.group(2))
        if said != (version, digest):
            raise _Fail(self.tag_line("Head"), "head", f"the Head tag says v{said[0]} sha256:"
                        f"{_short(said[1])}, but the log ends at v{version} sha256:"
                        f"{_short(digest)}: lines are missing or were added, or the tag was "
                        "changed")
        result = self.tag("Result")
        if result is not None:
            try:
                fame = parse_result_tag(result)
            except ValueError as e:
                raise _Fail(self.tag_line("Result"), "result", f"bad Result tag: {e}") from None
            outcome = self.game.result(match.state)
            if outcome is None:
                raise _Fail(self.tag_line("Result"), "result", "the Result tag gives a result, "
                            "but the log ends before the game does")
            for p in outcome.standings:
                if fame.get(p.name) != p.score:
                    raise _Fail(self.tag_line("Result"), "result", f"the Result tag gives "
                                f"{p.name} {fame.get(p.name)}, but the game ends with "
                                f"{p.name} on {p.score} {score_unit(p)}")
        for quoted in self.heads:
            self.check_quoted(quoted)
        if not match.finished:
            r.notes.append("the game is not finished")
        elif self.stamp_note:
            r.notes.append("the current engine judges every line the same way: same events, "
                           "same chain, same result")

    def check_quoted(self, quoted: str) -> None:
        """A head quoted in a status mail (`v37 sha256:ab12…`) must be in the chain."""
        m = re.fullmatch(r"\s*v([0-9]{1,9})\s+sha256:([0-9a-fA-F]{8,64})[.…]*\s*", quoted)
        if m is None:
            raise _Fail(0, "head", f"--head {quote(quoted)} is not like 'v37 sha256:ab12cd34…' "
                        f"(a version of at most {MAX_DIGITS} digits, at least 8 hex digits)")
        version, prefix = int(m.group(1)), m.group(2).lower()
        if not 1 <= version <= len(self.hashes):
            raise _Fail(0, "head", f"the head v{version} quoted is not in this log, which "
                        f"ends at v{len(self.hashes)}")
        digest = self.hashes[version - 1]
        if not digest.startswith(prefix):
            raise _Fail(self.reached[version - 1], "head", f"the head v{version} quoted "
                        f"(sha256:{prefix[:16]}…) is not this log's: at v{version} the chain "
                        f"is sha256:{_short(digest)}")

    def outcome(self, problem: Problem | None) -> VerifyResult:
        r = self.result
        r.ok = problem is None
        r.problem = problem
        match = self.match
        r.version = len(self.hashes)
        r.head = self.hashes[-1] if self.hashes else ""
        if match is not None:
            game = match.game
            outcome = game.result(match.state)
            r.finished = match.finished
            r.players = outcome.standings if outcome is not None \
                else game.standings(match.state)
            r.winners = tuple(match.names[w] for w in outcome.winners) if outcome else ()
        r.lines = problem.line if problem is not None and problem.line else \
            self.text.count("\n") + (0 if self.text.endswith("\n") or not self.text else 1)
        return r


def verify_log(text: str, *, file: str = "<log>", heads: Sequence[str] = ()) -> VerifyResult:
    """Verify an exported log (see the module docstring). `heads`: positions quoted in
    status mails (`v37 sha256:ab12…`) that must be in the log's chain. Never raises:
    whatever the text, the result says what is wrong."""
    v = _Verify(text, file, heads)
    problem: Problem | None = None
    try:
        v.run()
    except _Fail as fail:
        problem = fail.problem
    except Exception as exc:  # a bug: reported, never raised
        problem = Problem(v.line, "internal", f"internal error ({type(exc).__name__}: {exc}); "
                          "please report it")
    return v.outcome(problem)


__all__ = ["CHECKS", "Problem", "VerifyResult", "verify_log"]
