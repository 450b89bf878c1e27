"""Read and run the DATC-style case files in tests/cases/princes/*.case.

The format is described in tests/cases/README.md. `load_cases` reads every file into
`Case` objects; `run_case` builds the starting position (a real setup, or a position
written down in GIVEN), applies the LOG lines with `engine.princes.game.apply` and checks every
EXPECT line, plus the invariants every case gets for free:

* a refused command leaves the state exactly as it was (and is not listed by
  `legal_commands`);
* folding the case's events with `evolve` from the starting state gives the state
  built step by step, and every event survives `to_dict`/`from_dict`.

Mistakes in a case file raise `CaseFormatError` (with file and line); a case whose
expectations do not hold raises `CaseFailure`, which names the line of the case file.
"""

from __future__ import annotations

import copy
import dataclasses
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import case_format
from case_format import (
    Block,
    Case,
    CaseFailure,
    CaseFormatError,
    Line,
    event_fact,
    format_error,
    given_items,
    resolve,
    to_int,
    to_seat,
)

import notation.princes
from engine import decks
from engine.errors import IllegalMoveError, NotationError
from engine.princes.commands import ChanceCommand, Command, PlayerCommand
from engine.princes.definition import GAME
from engine.princes.events import EVENT_TYPES, Event, GameStarted, Reverted, from_dict, to_dict
from engine.princes.game import evolve, new_state, seeded_chance, start_game
from engine.princes.legal import legal_commands
from engine.princes.ruleset import FREEDOMS, LANDSCAPES, STANDARD_RULES
from engine.princes.scoring import count
from engine.princes.state import CHANCE, CHANCE_KINDS, Player, State
from engine.princes.views import view_for
from engine.undo import START, Tracker, legal_undo_commands
from engine.undo import play as undo_play

GRID = STANDARD_RULES.grid

CASES_DIR = Path(__file__).resolve().parents[1] / "cases" / "princes"


def _variant(case: Case, rest: str, path: Path, number: int) -> None:
    """VARIANT NAME [freedoms N]"""
    name, _, option = rest.partition(" ")
    case.variant = name
    m = re.fullmatch(r"freedoms (\d+)", option.strip())
    if option.strip() and m is None:
        raise format_error(path, number, f"unknown VARIANT option {option!r}")
    case.freedoms = int(m.group(1)) if m else 0


READERS = {"VARIANT": _variant}


def parse_case_file(path: Path) -> list[Case]:
    """All cases of one file, in order.

    Raises:
        CaseFormatError: the file breaks the case format.
    """
    return case_format.parse_case_file(path, READERS)


def load_cases(directory: Path = CASES_DIR) -> list[Case]:
    """Every case of every *.case file (see `case_format.load_cases`)."""
    return case_format.load_cases(directory, READERS)


# --------------------------------------------------------------------------- GIVEN


def _started(case: Case, by_id: dict[str, Case], players: tuple[str, ...]) -> GameStarted:
    """The first event of a case's game: its VARIANT (following FROM), else the
    standard game.

    Raises:
        IllegalMoveError: the engine refuses the setup.
    """
    c: Case | None = case
    while c is not None and c.variant is None:
        c = by_id[c.base] if c.base is not None else None
    if c is None or c.variant is None:
        return start_game(players)
    return start_game(players, variant=c.variant, freedoms=c.freedoms)


_PLAYER_INTS = {
    "florins": "florins", "fame": "fame", "builders": "builders", "jesters": "jesters",
    "recruiting": "recruiting", "recruiters": "recruiters", "actions": "actions",
    "wv": "best_wv",
}
_PLAYER_LISTS = {
    "freedoms": "freedoms", "hand": "hand", "table": "table", "bonus": "bonus_hand",
    "prestige": "prestige_hand", "dealt": "dealt",
}
_PLAYER_FLAGS = {"won": "won", "out": "out", "done": "turn_done"}


def _given_player(p: Player, line: Line, words: list[str]) -> Player:
    key, args = words[0], words[1:]
    R = dataclasses.replace
    if key in _PLAYER_INTS and len(args) == 1:
        return R(p, **{_PLAYER_INTS[key]: to_int(line, args[0])})
    if key in _PLAYER_LISTS:
        return R(p, **{_PLAYER_LISTS[key]: tuple(args)})
    if key in _PLAYER_FLAGS and not args:
        return R(p, **{_PLAYER_FLAGS[key]: True})
    if key in LANDSCAPES:
        cells = notation_cells(line, args)
        return R(p, landscapes=(*p.landscapes, (key, cells)))
    if key == "building" and args and args[0] in STANDARD_RULES.buildings:
        cells = notation_cells(line, args[1:])
        return R(p, buildings=(*p.buildings, (args[0], cells)))
    if key == "used":
        used = dict(p.used)
        for kind in args:
            if kind not in STANDARD_RULES.limits:
                raise CaseFormatError(f"line {line.number}: unknown action kind {kind!r}")
            used[kind] = used.get(kind, 0) + 1
        return R(p, used=used)
    raise CaseFormatError(f"line {line.number}: unknown player item {' '.join(words)!r}")


def notation_cells(line: Line, cells: Sequence[str]) -> tuple[str, ...]:
    for c in cells:
        if c not in GRID.cell_names:
            raise CaseFormatError(f"line {line.number}: {c!r} is not a cell")
    return tuple(sorted(cells, key=lambda c: (c[0], int(c[1:]))))


def _held_cards(players: Sequence[Player]) -> dict[str, set[str]]:
    held: dict[str, set[str]] = {"profession": set(), "bonus": set(), "prestige": set()}
    for p in players:
        for deck, cards in (("profession", (*p.hand, *p.table, *p.dealt)),
                            ("bonus", p.bonus_hand), ("prestige", p.prestige_hand)):
            for c in cards:
                if c in held[deck]:
                    raise CaseFormatError(f"{c} is held twice in GIVEN")
                held[deck].add(c)
    return held


def _check_player(p: Player, line_no: int) -> Player:
    """Fill the grid masks of a given player and check the position is possible."""
    where = f"GIVEN (near line {line_no}), {p.name}"
    occupied = 0
    buildings = 0
    for tile, cells in (*p.buildings, *p.landscapes):
        mask = GRID.mask_of(cells)
        why = GRID.shape_error(tile, mask)
        if why:
            raise CaseFormatError(f"{where}: {why}")
        if mask & GRID.palazzo:
            raise CaseFormatError(f"{where}: {tile} covers the Palazzo")
        if mask & occupied:
            raise CaseFormatError(f"{where}: {tile} overlaps another tile")
        occupied |= mask
        if tile in STANDARD_RULES.buildings:
            buildings |= mask
    names = [b for b, _ in p.buildings]
    if len(set(names)) != len(names):
        raise CaseFormatError(f"{where}: a building twice")
    if len(set(p.freedoms)) != len(p.freedoms) or not set(p.freedoms) <= set(FREEDOMS):
        raise CaseFormatError(f"{where}: bad freedoms {p.freedoms}")
    if p.builders > STANDARD_RULES.limits["max_builders"]:
        raise CaseFormatError(f"{where}: more than 3 builders")
    for c in (*p.hand, *p.table, *p.dealt):
        if c not in STANDARD_RULES.professions:
            raise CaseFormatError(f"{where}: {c!r} is not a profession")
    for c in p.bonus_hand:
        if c not in STANDARD_RULES.bonus:
            raise CaseFormatError(f"{where}: {c!r} is not a bonus card")
    for c in p.prestige_hand:
        if c not in STANDARD_RULES.prestige:
            raise CaseFormatError(f"{where}: {c!r} is not a prestige card")
    return dataclasses.replace(p, occupied=occupied, building_cells=buildings)


def build_given(players: tuple[str, ...], lines: Sequence[Line],
                started: GameStarted | None = None) -> State:
    """The position a GIVEN section describes, with a consistent supply (of the
    game `started`, default the standard game; a 2-player game's GIVEN has one
    freedom of each type unless `supply` says otherwise).

    Raises:
        CaseFormatError: an unknown item or an impossible position.
    """
    expansion = next((w[1] for _, who, w in given_items(lines)
                      if who is None and w[0] == "expansion" and len(w) == 2), "none")
    raise_next = any(who is None and w == ["raise", "next"] for _, who, w in given_items(lines))
    chosen = {w[1].replace("-", "_"): w[2] for _, who, w in given_items(lines)
              if who is None and w[0] == "option" and len(w) == 3}
    variant = {} if started is None else {"variant": started.variant,
                                          "freedoms": started.freedoms}
    base = new_state(start_game(players, expansions=expansion,
                                character_raise="next" if raise_next else "higher",
                                **variant, **chosen))
    ps = list(base.players)
    game: dict[str, Any] = {"round": 1, "phase": "auction", "start": 0}
    court = base.court
    characters: list[tuple[str, int]] = []
    supply: list[tuple[Line, str, int]] = []
    marked: set[str] = set()
    deck_override: dict[str, decks.Deck] = {}
    last_line = 0
    for line, who, words in given_items(lines):
        last_line = line.number
        if who is not None:
            seat = to_seat(line, players, who)
            ps[seat] = _given_player(ps[seat], line, words)
            continue
        key, args = words[0], words[1:]
        if key == "round" and len(args) == 1:
            game["round"] = to_int(line, args[0])
        elif key == "phase" and len(args) == 1 and args[0] in ("auction", "action",
                                                               "characters"):
            game["phase"] = args[0]
        elif key in ("expansion", "raise") and len(args) == 1 or key == "option":
            pass  # read above
        elif key == "banker" and len(args) == 1 and court is not None:
            court = dataclasses.replace(court, banker=to_int(line, args[0]))
        elif key == "character" and len(args) == 2 and court is not None:
            characters.append((args[0], to_seat(line, players, args[1])))
        elif key in ("start", "turn", "namer") and len(args) == 1:
            game[key] = None if args[0] == "none" else to_seat(line, players, args[0])
        elif key == "money" and args == ["open"]:
            game["money_open"] = True
        elif key == "supply" and len(args) == 2:
            supply.append((line, args[0], to_int(line, args[1])))
        elif key == "marked":
            marked.update(args)
        elif key == "deck" and args and args[0] in RULES_DECKS:
            segments = " ".join(args[1:]).split("/")
            deck_override[args[0]] = tuple(
                frozenset(seg.split()) for seg in segments if seg.split())
        else:
            raise CaseFormatError(f"line {line.number}: unknown GIVEN item {' '.join(words)!r}")
    ps = [_check_player(p, last_line) for p in ps]
    held = _held_cards(ps)
    n = len(players)
    stacks = dict(STANDARD_RULES.stacks)
    for p in ps:
        for kind in LANDSCAPES:
            stacks[kind] -= p.count_landscape(kind)
        stacks["jester"] -= p.jesters
        stacks["builder"] -= p.builders
        stacks["recruiting"] -= p.recruiting + p.recruiters
    buildings_left = {b: STANDARD_RULES.building_copies - sum(p.has_building(b) for p in ps)
                      for b in STANDARD_RULES.buildings}
    per_type = base.rules.freedoms_per_type(n)
    freedoms_left = {f: per_type - sum(f in p.freedoms for p in ps) for f in FREEDOMS}
    for line, what, value in supply:
        if what in stacks:
            stacks[what] = value
        elif what in buildings_left:
            buildings_left[what] = value
        elif what in freedoms_left:
            freedoms_left[what] = value
        else:
            raise CaseFormatError(f"line {line.number}: no supply of {what!r}")
    over = [k for t in (stacks, buildings_left, freedoms_left) for k, v in t.items() if v < 0]
    if over:
        raise CaseFormatError(f"GIVEN uses more than exist of: {', '.join(over)}")
    all_cards = {"profession": STANDARD_RULES.professions, "bonus": STANDARD_RULES.bonus,
                 "prestige": STANDARD_RULES.prestige}
    deck_map = {}
    for deck, cards in all_cards.items():
        if deck in deck_override:
            d = deck_override[deck]
            inside = set().union(*d) if d else set()
            if inside & held[deck] or not inside <= set(cards):
                raise CaseFormatError(f"GIVEN deck {deck} holds a held or unknown card")
            deck_map[deck] = d
        else:
            deck_map[deck] = decks.new_deck(c for c in cards if c not in held[deck])
    start = game["start"]
    turn = game.get("turn", start)
    if game["phase"] == "action" and turn is not None and ps[turn].turn_done:
        raise CaseFormatError(f"GIVEN turn {players[turn]} has already ended their turn")
    return dataclasses.replace(
        base, players=tuple(ps), phase=game["phase"], round=game["round"], start=start,
        turn=turn, namer=game.get("namer", turn if turn is not None else start),
        money_open=game.get("money_open", False), marked=frozenset(marked), stacks=stacks,
        buildings_left=buildings_left, freedoms_left=freedoms_left, decks=deck_map,
        pending=None, lot=None, high=None, price=0, passed=frozenset(),
        court=None if court is None else dataclasses.replace(court, held=tuple(characters)),
    )


RULES_DECKS = ("profession", "bonus", "prestige")


# --------------------------------------------------------------------------- running


@dataclass
class Run:
    """A case being run: the state, the events so far and those of the last block."""

    case: Case
    players: tuple[str, ...]
    seed: str | None
    start: State
    state: State
    events: list[Event] = field(default_factory=list)
    block_events: list[Event] = field(default_factory=list)
    error: IllegalMoveError | NotationError | None = None
    tracker: Tracker = START  # the undo protocol (engine.undo)

    def fail(self, line: Line, message: str) -> CaseFailure:
        return CaseFailure(f"{self.case.file.name}:{line.number}: {line.text!r}: {message}")

    def seat(self, line: Line, name: str) -> int:
        if name not in self.players:
            raise self.fail(line, f"unknown player {name!r}")
        return self.players.index(name)

    def name(self, seat: int | None) -> str:
        return "none" if seat is None else self.players[seat]


def parse_log_line(run: Run, line: Line) -> tuple[int, Command] | int:
    """(seat, command) of a LOG line, or the number of a `round N` marker.

    Raises:
        NotationError: the command text is not in the notation.
    """
    text = line.text
    if text.startswith("*"):
        chance: ChanceCommand = notation.princes.parse_chance(text, run.players)
        return CHANCE, chance
    m = re.fullmatch(r"round\s+(\d+)", text)
    if m:
        return int(m.group(1))
    actor, colon, rest = text.partition(":")
    if not colon:
        raise run.fail(line, "a log line is 'PLAYER: command', '* chance' or 'round N'")
    seat = run.seat(line, actor.strip().lower())
    cmd: PlayerCommand = notation.princes.parse_command(rest, run.players)
    return seat, cmd


def _apply_seeded(run: Run) -> None:
    """With a SEED, make every deal or draw that is due from the seed."""
    if run.seed is None:
        return
    while run.state.pending is not None and run.state.pending.kind in CHANCE_KINDS:
        cmd = seeded_chance(run.state, run.seed)
        run.state, new, run.tracker = undo_play(GAME, run.state, run.tracker, CHANCE, cmd)
        run.events.extend(new)
        run.block_events.extend(new)


def run_block_log(run: Run, block: Block, expect_error: bool) -> None:
    run.block_events = []
    run.error = None
    _apply_seeded(run)
    for i, line in enumerate(block.log):
        last = i == len(block.log) - 1
        try:
            parsed = parse_log_line(run, line)
        except NotationError as e:
            if expect_error and last:
                run.error = e
                return
            raise run.fail(line, f"notation error at column {e.column}: {e}") from e
        if isinstance(parsed, int):
            if run.state.round != parsed:
                raise run.fail(line, f"the game is in round {run.state.round}")
            continue
        seat, cmd = parsed
        before = copy.deepcopy(run.state)
        try:
            run.state, new, run.tracker = undo_play(GAME, run.state, run.tracker, seat, cmd)
        except IllegalMoveError as e:
            if run.state != before:
                raise run.fail(line, "a refused command changed the state") from e
            if seat != CHANCE and cmd in _legal(run, seat):
                raise run.fail(line, "refused, yet listed by legal_commands") from e
            if expect_error and last:
                run.error = e
                return
            raise run.fail(line, f"refused: [{e.rule}] {e.message}") from e
        if expect_error and last:
            raise run.fail(line, "accepted, but EXPECT says it is refused")
        run.events.extend(new)
        run.block_events.extend(new)
        _apply_seeded(run)
    if expect_error and not block.log:
        raise CaseFailure(f"{run.case.where}: 'error' expected after an empty LOG")


# --------------------------------------------------------------------------- EXPECT


def _multiset(values: Sequence[str]) -> list[str]:
    return sorted(values)


def _yes(word: str) -> bool:
    if word not in ("yes", "no"):
        raise CaseFormatError(f"expected yes or no, found {word!r}")
    return word == "yes"


def _player_fact(run: Run, line: Line, p: Player, key: str, args: list[str]) -> None:
    got: Any
    want: Any
    if key in _PLAYER_INTS:
        got, want = getattr(p, _PLAYER_INTS[key]), to_int(line, args[0])
    elif key in ("forest", "lake", "park"):
        got, want = p.count_landscape(key), to_int(line, args[0])
    elif key == "empty":
        got, want = count(STANDARD_RULES, p, "empty"), to_int(line, args[0])
    elif key in _PLAYER_LISTS:
        got, want = _multiset(getattr(p, _PLAYER_LISTS[key])), _multiset(args)
    elif key == "buildings":
        got, want = _multiset([b for b, _ in p.buildings]), _multiset(args)
    elif key in _PLAYER_FLAGS:
        got, want = getattr(p, _PLAYER_FLAGS[key]), _yes(args[0])
    else:
        raise CaseFormatError(f"line {line.number}: unknown player fact {key!r}")
    if got != want:
        raise run.fail(line, f"{p.name} {key} is {got}")


_SEAT_FIELDS = {"seat", "victim", "high", "start"}
_SEATS_FIELDS = {"winners", "best"}


def _event_value(run: Run, line: Line, field_name: str, text: str) -> Any:
    if text == "()":
        return ()
    if field_name in _SEAT_FIELDS:
        return run.seat(line, text)
    if field_name in _SEATS_FIELDS:
        return tuple(run.seat(line, t) for t in text.split(",") if t)
    if text in ("yes", "no"):
        return text == "yes"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if "," in text:
        return tuple(text.split(","))
    return text


def _event_fact(run: Run, line: Line, args: list[str], negated: bool) -> None:
    event_fact(run, line, args, negated, EVENT_TYPES, _event_value)


def _legal(run: Run, seat: int) -> list[Command]:
    """The seat's legal commands, the undo protocol's (engine.undo) included."""
    return [*legal_commands(run.state, seat),
            *legal_undo_commands(GAME, run.state, run.tracker, seat)]


def _legal_fact(run: Run, line: Line, text: str, negated: bool) -> None:
    try:
        parsed = parse_log_line(run, Line(line.number, text))
    except NotationError as e:
        raise CaseFormatError(f"line {line.number}: {e}") from e
    if isinstance(parsed, int) or parsed[0] == CHANCE:
        raise CaseFormatError(f"line {line.number}: 'legal' needs 'PLAYER: command'")
    seat, cmd = parsed
    listed = cmd in _legal(run, seat)
    if listed == negated:
        raise run.fail(line, "listed by legal_commands" if negated else
                       "not listed by legal_commands")


def check_expect(run: Run, line: Line) -> None:
    s = run.state
    words = shlex.split(line.text)
    key, args = words[0], words[1:]
    if key == "error":
        return  # checked by run_case
    if key == "event":
        return _event_fact(run, line, args, negated=False)
    if key == "no" and args and args[0] == "event":
        return _event_fact(run, line, args[1:], negated=True)
    if key == "legal":
        return _legal_fact(run, line, line.text.split(None, 1)[1], negated=False)
    if key == "not" and args and args[0] == "legal":
        return _legal_fact(run, line, line.text.split(None, 2)[2], negated=True)
    if key == "view":
        return _view_fact(run, line, args)
    if key in run.players:
        if not args:
            raise CaseFormatError(f"line {line.number}: a player fact needs a field")
        return _player_fact(run, line, s.players[run.players.index(key)], args[0], args[1:])
    got: Any
    want: Any
    if key == "phase":
        got, want = s.phase, args[0]
    elif key == "round":
        got, want = s.round, to_int(line, args[0])
    elif key in ("turn", "start", "high"):
        got, want = run.name(getattr(s, key)), args[0]
    elif key == "lot":
        got, want = s.lot or "none", args[0]
    elif key == "price":
        got, want = s.price, to_int(line, args[0])
    elif key == "winner":
        got = sorted(run.name(w) for w in s.winners)
        want = sorted(w.strip() for w in " ".join(args).split(",") if w.strip())
    elif key == "marked":
        got, want = sorted(s.marked), sorted(args)
    elif key == "supply":
        what = args[0]
        for table in (s.stacks, s.buildings_left, s.freedoms_left):
            if what in table:
                got = table[what]
                break
        else:
            raise CaseFormatError(f"line {line.number}: no supply of {what!r}")
        want = to_int(line, args[1])
    elif key == "deck":
        got, want = decks.deck_size(s.decks[args[0]]), to_int(line, args[1])
    elif key == "banker" and s.court is not None:
        got, want = s.court.banker, to_int(line, args[0])
    elif key == "holder" and s.court is not None and len(args) == 2:
        got, want = run.name(s.court.holder(args[0])), args[1]
    elif key == "marker" and s.court is not None:
        m = s.court.marker(args[0])
        got = "none" if m is None else f"{run.name(m[0])} {m[1]}"
        want = " ".join(args[1:])
    elif key == "pending":
        pd = s.pending
        got = "none" if pd is None else " ".join(
            w for w in (pd.kind, "" if pd.kind in ("freedoms",) else run.name(pd.seat),
                        pd.deck or pd.tile) if w)
        want = " ".join(args)
    else:
        raise CaseFormatError(f"line {line.number}: unknown expectation {key!r}")
    if got != want:
        raise run.fail(line, f"{key} is {got}")
    return None


_VIEW_FIELDS = {"florins": "florins", "hand": "hand", "bonus": "bonus_hand",
                "prestige": "prestige_hand", "dealt": "dealt"}


def _view_fact(run: Run, line: Line, args: list[str]) -> None:
    """`view VIEWER PLAYER FIELD VALUE...`: what VIEWER (a player or `public`) sees."""
    if len(args) < 4 or args[2] not in _VIEW_FIELDS:
        raise CaseFormatError(f"line {line.number}: write: view VIEWER PLAYER "
                              f"{'|'.join(_VIEW_FIELDS)} VALUE... (or hidden)")
    viewer = None if args[0] == "public" else run.seat(line, args[0])
    shown = getattr(view_for(run.state, viewer).players[run.seat(line, args[1])],
                    _VIEW_FIELDS[args[2]])
    want = args[3:]
    if want == ["hidden"]:
        ok = shown is None
    elif shown is None:
        ok = False
    elif args[2] == "florins":
        ok = shown == to_int(line, want[0])
    else:
        ok = sorted(shown) == sorted(want)
    if not ok:
        raise run.fail(line, f"{args[0]} sees {args[1]} {args[2]} as {shown}")


_ERROR_RE = re.compile(r'error\s+(?:illegal\s+([a-z0-9-]+)|(syntax))(?:\s+"([^"]*)")?\s*$')


def _check_error(run: Run, line: Line, error: IllegalMoveError | NotationError | None) -> None:
    m = _ERROR_RE.match(line.text)
    if not m:
        raise CaseFormatError(
            f'line {line.number}: write: error illegal RULE-ID ["text"] or error syntax ["text"]')
    rule, syntax, text = m.groups()
    if error is None:
        raise run.fail(line, "nothing was refused")
    if syntax:
        if not isinstance(error, NotationError):
            raise run.fail(line, f"refused by the engine, not the notation: {error.message}")
    elif not isinstance(error, IllegalMoveError):
        raise run.fail(line, f"refused by the notation: {error.message}")
    elif error.rule != rule:
        raise run.fail(line, f"refused under rule {error.rule!r}: {error.message}")
    if text and text.lower() not in error.message.lower():
        raise run.fail(line, f"the message is {error.message!r}")


def run_case(case: Case, by_id: dict[str, Case]) -> Run:
    """Run one case; return the finished run.

    Raises:
        CaseFailure: an expectation or an invariant does not hold.
        CaseFormatError: the case is malformed.
    """
    players, seed, given = resolve(case, by_id)
    first = case.blocks[0]
    if not first.log and any(ln.text.startswith("error") for ln in first.expect):
        # A case about the setup itself: starting the game is refused.
        try:
            _started(case, by_id, players)
        except IllegalMoveError as refusal:
            refused = Run(case, players, seed, State((), STANDARD_RULES), State((), STANDARD_RULES))
            for line in first.expect:
                _check_error(refused, line, refusal)
            return refused
        raise CaseFailure(f"{case.where}: the game started, but EXPECT says it is refused")
    started = _started(case, by_id, players)
    if given:
        start = build_given(players, given, started)
    else:
        start = new_state(started)
    run = Run(case, players, seed, start, start)
    for block in case.blocks:
        errors = [ln for ln in block.expect if ln.text.split()[0] == "error"]
        if len(errors) > 1:
            raise CaseFormatError(f"line {errors[1].number}: one error per EXPECT block")
        run_block_log(run, block, expect_error=bool(errors))
        if errors:
            _check_error(run, errors[0], run.error)
        for line in block.expect:
            check_expect(run, line)
    folded = run.start
    history = {folded.version: folded}  # a Reverted event goes back to an earlier state
    for event in run.events:
        if from_dict(to_dict(event)) != event:
            raise CaseFailure(f"{case.where}: {event!r} does not survive to_dict/from_dict")
        if isinstance(event, Reverted):
            folded = dataclasses.replace(history[event.to_version], version=folded.version + 1)
        else:
            folded = evolve(folded, event)
        history[folded.version] = folded
    if folded != run.state:
        raise CaseFailure(f"{case.where}: folding the events does not give the final state")
    return run
