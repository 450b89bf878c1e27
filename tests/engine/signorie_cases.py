"""Read and run the DATC-style case files in tests/cases/signorie/*.case.

The format is described in tests/cases/signorie/README.md. `load_cases` reads every file
into `Case` objects; `run_case` builds the starting position (a new game, or a position
written down in GIVEN), plays the LOG lines through the game seam (`GAME.apply`, with
`engine.undo.play` for the undo lines) and checks every EXPECT line, plus the invariants
every case gets for free:

* a refused command leaves the state exactly as it was (and is not listed by
  `legal_commands`), and an accepted one was listed (but for progress-point splits,
  of which `legal_commands` lists a bounded set);
* folding the case's events with `GAME.evolve` from the starting state gives the state
  built step by step, and every event survives `to_dict`/`from_dict`.

Mistakes in a case file raise `CaseFormatError` (with file and line); a case whose
expectations do not hold raises `CaseFailure`, which names the line of the case file.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections import Counter
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

from engine.errors import IllegalMoveError, NotationError
from engine.protocol import CHANCE
from engine.signorie.commands import CAREERS, CITIES, COLOURS, ROWS, Tracks
from engine.signorie.ruleset import Rules
from engine.signorie.setup import city_states, state_for
from engine.signorie.state import ACTIONS, EMPTY, REWARDS, Board, CityState, State, replace
from engine.undo import START, Tracker, legal_undo_commands
from engine.undo import play as undo_play
from notation.registry import grammar_for

CASES_DIR = Path(__file__).resolve().parents[1] / "cases" / "signorie"
DEFAULT_FLORINS = 10
DEFAULT_VALUES = (1, 2, 3, 4)  # the dice of a colour on offer unless GIVEN says otherwise


def game() -> Any:
    """The Signorie game (imported late: the case files parse without the rules)."""
    from engine.signorie.definition import GAME

    return GAME


def _xfail(case: Case, rest: str, path: Path, number: int) -> None:
    """XFAIL REASON: the case finds an engine bug."""
    if not rest:
        raise format_error(path, number, "XFAIL needs a reason")
    case.xfail = rest


READERS = {"XFAIL": _xfail}


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


def _sexes(line: Line, words: Sequence[str]) -> tuple[int, int]:
    """`m4 f3` as (4, 3)."""
    got = {}
    for w in words:
        m = re.fullmatch(r"([mf])(\d+)", w)
        if m is None:
            raise CaseFormatError(f"line {line.number}: write figures as mN fN, found {w!r}")
        got[m.group(1)] = int(m.group(2))
    if set(got) != {"m", "f"}:
        raise CaseFormatError(f"line {line.number}: give both mN and fN")
    return got["m"], got["f"]


def _check_colour(line: Line, colour: str) -> str:
    if colour not in COLOURS:
        raise CaseFormatError(f"line {line.number}: {colour!r} is not a die colour")
    return colour


def _check_row(line: Line, row: str) -> str:
    if row not in ROWS:
        raise CaseFormatError(f"line {line.number}: {row!r} is not a plan row")
    return row


def _check_tiles(line: Line, rules: Rules, tiles: Sequence[str]) -> tuple[str, ...]:
    known = set(rules.alliance_tiles)
    for t in tiles:
        if t not in known:
            raise CaseFormatError(f"line {line.number}: {t!r} is not an alliance tile")
    return tuple(tiles)


@dataclass
class _Given:
    """A player's GIVEN items before they become a Board."""

    board: dict[str, Any]
    general: tuple[int, int] | None = None
    threshold: int | None = None


def _given_player(rules: Rules, g: _Given, line: Line, words: list[str],
                  careers: list[list[tuple[int, int]]], seat: int) -> None:
    key, args = words[0], words[1:]
    b = g.board
    if key in ("florins", "vp", "initiative", "sons") and len(args) == 1:
        b[{"vp": "points"}.get(key, key)] = to_int(line, args[0])
    elif key == "available":
        b["males"], b["females"] = _sexes(line, args)
    elif key == "general":
        g.general = _sexes(line, args)
    elif key == "die" and len(args) == 2:
        b["dice"] = (*b["dice"], (_check_colour(line, args[0]), to_int(line, args[1])))
    elif key == "helper" and len(args) == 2:
        space = to_int(line, args[1])
        if rules.helper_space(_check_colour(line, args[0]), space) is None:
            raise CaseFormatError(f"line {line.number}: no helper space {args[0]} {space}")
        b["helpers"] = tuple(sorted({*b["helpers"], (args[0], space)},
                                    key=lambda h: (COLOURS.index(h[0]), h[1])))
    elif key in CAREERS:
        for a in args:
            space = to_int(line, a)
            if not 1 <= space <= rules.career_top:
                raise CaseFormatError(f"line {line.number}: no space {space} on {key}")
            careers[CAREERS.index(key)].append((seat, space))
    elif key == "open" and args:
        row = _check_row(line, args[0])
        b["tiles"] = (*b["tiles"], *((row, t) for t in _check_tiles(line, rules, args[1:])))
    elif key == "facedown" and args:
        row = _check_row(line, args[0])
        tiles = _check_tiles(line, rules, args[1:])
        b["face_down"] = (*b["face_down"], *(row for _ in tiles))
        b["hidden"] = (*b["hidden"], *tiles)
    elif key == "threshold" and len(args) == 1:
        g.threshold = to_int(line, args[0])
    else:
        raise CaseFormatError(f"line {line.number}: unknown player item {' '.join(words)!r}")


def build_given(players: tuple[str, ...], lines: Sequence[Line], seeded: bool) -> State:
    """The position a GIVEN section describes (a round's action phase, or its reward
    phase after the reward check), with the supplies and the face-down pool consistent
    with it.

    Raises:
        CaseFormatError: an unknown item or an impossible position.
    """
    base = state_for(players, seeded=seeded)
    r = base.rules
    n = len(players)
    givens = [_Given({"florins": DEFAULT_FLORINS, "dice": (), "helpers": (), "tiles": (),
                      "face_down": (), "hidden": ()}) for _ in players]
    careers: list[list[tuple[int, int]]] = [[] for _ in CAREERS]
    game: dict[str, Any] = {"round": 1}
    offers: dict[str, tuple[int, ...]] = {}
    city_names = CITIES[:r.city_count[n]]
    fields: dict[tuple[str, str], str] = {}
    figures: dict[tuple[str, str], list[int]] = {}
    for line, who, words in given_items(lines):
        if who is not None:
            seat = to_seat(line, players, who)
            _given_player(r, givens[seat], line, words, careers, seat)
            continue
        key, args = words[0], words[1:]
        if key == "round" and len(args) == 1:
            game["round"] = to_int(line, args[0])
        elif key == "phase" and len(args) == 1 and args[0] in (ACTIONS, REWARDS):
            game["phase"] = args[0]
        elif key in ("order", "passed", "stack", "rewarded"):
            game[key] = tuple(to_seat(line, players, a) for a in args)
        elif key == "turn" and len(args) == 1:
            game["turn"] = to_seat(line, players, args[0])
        elif key == "cities":
            city_names = tuple(args)
        elif key == "offer" and args:
            offers[_check_colour(line, args[0])] = tuple(sorted(to_int(line, a) for a in args[1:]))
        elif key == "tasks":
            game["tasks"] = tuple(args)
        elif key == "rewards":
            game["rewards"] = tuple(args)
        elif key == "field" and len(args) == 3 and args[1] in ("marriage", "mission"):
            fields[(args[0], args[1])] = _check_tiles(line, r, args[2:])[0]
        elif key in ("marriage", "mission") and args:
            figures[(args[0], key)] = [to_seat(line, players, a) for a in args[1:]]
        else:
            raise CaseFormatError(f"line {line.number}: unknown GIVEN item {' '.join(words)!r}")

    where = "GIVEN"
    if len(city_names) != r.city_count[n] or not set(city_names) <= set(CITIES):
        raise CaseFormatError(f"{where}: {n} players use {r.city_count[n]} cities")
    cities: list[CityState] = []
    for c in city_states(r, city_names):
        spaces: dict[str, tuple[int, ...]] = {}
        for kind in ("marriage", "mission"):
            owners = figures.pop((c.name, kind), [])
            if len(owners) > len(c.spaces(kind)):
                raise CaseFormatError(f"{where}: {c.name} has {len(c.spaces(kind))} {kind} spaces")
            spaces[kind] = tuple(owners) + c.spaces(kind)[len(owners):]
        cities.append(CityState(c.name, spaces["marriage"], spaces["mission"],
                                fields.pop((c.name, "marriage"), ""),
                                fields.pop((c.name, "mission"), "")))
    if figures or fields:
        raise CaseFormatError(f"{where}: a city not in play: {sorted({*figures, *fields})}")

    order = game.get("order", tuple(range(n)))
    if sorted(order) != list(range(n)):
        raise CaseFormatError(f"{where}: the order must name every player once")
    stack = game.get("stack", tuple(reversed(order)))
    if sorted(stack) != list(range(n)):
        raise CaseFormatError(f"{where}: the stack must name every player once")
    phase = game.get("phase", ACTIONS)
    rewarded = game.get("rewarded", ())
    if phase == REWARDS:  # every player has passed; the reward check is made
        if "turn" in game or not rewarded or [s for s in order if s in rewarded] != list(rewarded):
            raise CaseFormatError(f"{where}: the reward phase names the rewarded players still "
                                  f"to choose, in the turn order, and no turn")
        passed = frozenset(range(n))
    elif rewarded:
        raise CaseFormatError(f"{where}: `rewarded` belongs to `phase rewards`")
    else:
        passed = frozenset(game.get("passed", ()))
    turn = None if phase == REWARDS else game.get(
        "turn", next((s for s in order if s not in passed), None))

    boards: list[Board] = []
    held: Counter[str] = Counter(t for c in cities for t in (c.marriage_tile, c.mission_tile)
                                 if t)
    for seat, g in enumerate(givens):
        b = g.board
        colours = [c for c, _ in b["dice"]]
        if len(set(colours)) != len(colours) or len(colours) > r.max_dice:
            raise CaseFormatError(f"{where}: {players[seat]} has two dice of a colour or too many")
        raised = 0 if g.threshold is None else g.threshold - r.threshold
        per = next((t.per for t in r.tasks.values() if t.type == "threshold"), 3)
        if raised < 0 or raised % per:
            raise CaseFormatError(f"{where}: a threshold is 13 plus {per} per figure")
        b["threshold_m"], b["raised"] = raised // per, raised
        on_board_m = (sum(1 for fs in careers for s, _ in fs if s == seat)
                      + sum(c.mission.count(seat) for c in cities) + b["threshold_m"])
        on_board_f = sum(c.marriage.count(seat) for c in cities)
        males, females = b.setdefault("males", r.start_available[0]), \
            b.setdefault("females", r.start_available[1])
        general = g.general or (r.start_general[0] - on_board_m, r.start_general[1] - on_board_f)
        b["general_m"], b["general_f"] = general
        total_m = r.start_available[0] + r.start_general[0]
        total_f = r.start_available[1] + r.start_general[1]
        if min(general) < 0 or males + general[0] + on_board_m > total_m \
                or females + general[1] + on_board_f > total_f:
            raise CaseFormatError(f"{where}: {players[seat]} has more figures than exist")
        if not 0 <= b.get("sons", 0) <= len(r.son_points):
            raise CaseFormatError(f"{where}: {len(r.son_points)} sons at most")
        if not 0 <= b.get("initiative", 0) <= r.initiative_top:
            raise CaseFormatError(f"{where}: the initiative track ends at {r.initiative_top}")
        b["stamp"] = stack.index(seat) + 1
        held.update(t for _, t in b["tiles"])
        held.update(b["hidden"])
        boards.append(Board(name=players[seat], plan=r.plan_colours[seat], **b))

    pool = Counter(r.alliance_tiles)
    pool.subtract(held)
    if any(v < 0 for v in pool.values()):
        raise CaseFormatError(f"{where}: more alliance tiles than exist: "
                              f"{sorted(t for t, v in pool.items() if v < 0)}")
    removed = r.alliance_removed[n]
    family_left = tuple(
        len(r.family_tiles) - removed - sum(v for t, v in held.items()
                                            if r.tile_family(t) == f)
        for f in r.families)
    if min(family_left) < 0:
        raise CaseFormatError(f"{where}: more tiles of a family than {n} players use")

    per_colour = r.dice_per_colour[n]
    dice = []
    for colour in COLOURS:
        placed = sum(1 for b in boards for c, _ in b.dice if c == colour)
        values = offers.get(colour, DEFAULT_VALUES[:max(0, per_colour - placed)])
        if placed + len(values) > per_colour or any(not 1 <= v <= r.die_faces for v in values):
            raise CaseFormatError(f"{where}: {per_colour} {colour} dice of 1-{r.die_faces} in all")
        dice.append((colour, values))
    tasks = game.get("tasks", tuple(r.tasks))
    if sorted(tasks) != sorted(r.tasks):
        raise CaseFormatError(f"{where}: tasks lays each of the {len(r.tasks)} tiles once")
    rewards = game.get("rewards", (*r.bonus_tiles[:r.bonus_laid], *r.points_tiles[:r.points_laid]))
    if len(rewards) != r.bonus_laid + r.points_laid or not set(rewards) <= set(r.rewards):
        raise CaseFormatError(f"{where}: the reward row has {r.bonus_laid} + {r.points_laid} tiles")
    if not 1 <= game["round"] <= r.rounds:
        raise CaseFormatError(f"{where}: rounds 1-{r.rounds}")

    tracks = tuple(tuple(sorted(fs)) for fs in careers)
    return replace(
        base, players=tuple(boards), phase=phase, round=game["round"], order=order,
        passed=passed, turn=turn, active=None, chance=None, cities=tuple(cities),
        careers=tracks, dice=tuple(dice), tasks=tasks, reward_row=rewards,
        pool=tuple(sorted(pool.elements())), family_left=family_left, rewarded=rewarded,
        extra=(),
        stamp=n)


# --------------------------------------------------------------------------- running


@dataclass
class Run:
    """A case being run: the state, the events so far and those of the last block."""

    case: Case
    players: tuple[str, ...]
    seed: str | None
    start: State
    state: State
    events: list[Any] = field(default_factory=list)
    block_events: list[Any] = field(default_factory=list)
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


def parse_log_line(run: Run, line: Line) -> tuple[int, Any] | int:
    """(seat, command) of a LOG line, or the number of a `round N` marker.

    Raises:
        NotationError: the command text is not in the notation.
    """
    grammar = grammar_for("signorie")
    text = line.text
    if text.startswith("*"):
        return CHANCE, grammar.parse_chance(text, run.players)
    m = re.fullmatch(r"round\s+(\d+)", text)
    if m:
        return int(m.group(1))
    actor, colon, rest = text.partition(":")
    if not colon:
        raise run.fail(line, "a log line is 'PLAYER: command', '* chance' or 'round N'")
    seat = run.seat(line, actor.strip().lower())
    return seat, grammar.parse_command(rest, run.players)


def _apply_seeded(run: Run) -> None:
    """With a SEED, resolve every chance step that is due from the seed."""
    if run.seed is None:
        return
    g = game()
    while g.chance_due(run.state) is not None:
        cmd = g.resolve_chance(run.state, run.seed)
        run.state, new, run.tracker = undo_play(g, run.state, run.tracker, CHANCE, cmd)
        run.events.extend(new)
        run.block_events.extend(new)


def _legal(run: Run, seat: int) -> list[Any]:
    """The seat's legal commands, the undo protocol's (engine.undo) included."""
    g = game()
    return [*g.legal_commands(run.state, seat),
            *legal_undo_commands(g, run.state, run.tracker, seat)]


def _splits_points(cmd: Any) -> bool:
    """True if the command spends progress points (`Tracks`, perhaps inside a task,
    helper or reward): legal_commands lists only a bounded set of their splits."""
    if isinstance(cmd, Tracks):
        return True
    return any(_splits_points(getattr(cmd, f.name)) for f in dataclasses.fields(cmd)) \
        if dataclasses.is_dataclass(cmd) else False


def run_block_log(run: Run, block: Block, expect_error: bool) -> None:
    run.block_events = []
    run.error = None
    _apply_seeded(run)
    g = game()
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
        before = run.state  # a frozen value: a refusal must leave the run on it
        listed = seat != CHANCE and cmd in _legal(run, seat)
        try:
            run.state, new, run.tracker = undo_play(g, run.state, run.tracker, seat, cmd)
        except IllegalMoveError as e:
            if run.state != before:
                raise run.fail(line, "a refused command changed the state") from e
            if listed:
                raise run.fail(line, "refused, yet listed by legal_commands") from e
            if expect_error and last:
                run.error = e
                return
            raise run.fail(line, f"refused: [{e.rule}] {e.message}") from e
        if expect_error and last:
            raise run.fail(line, "accepted, but EXPECT says it is refused")
        if seat != CHANCE and not listed and not _splits_points(cmd):
            raise run.fail(line, "accepted, yet not listed by legal_commands")
        run.events.extend(new)
        run.block_events.extend(new)
        _apply_seeded(run)
    if expect_error and not block.log:
        raise CaseFailure(f"{run.case.where}: 'error' expected after an empty LOG")


# --------------------------------------------------------------------------- EXPECT


def _yes(line: Line, word: str) -> bool:
    if word not in ("yes", "no"):
        raise CaseFormatError(f"line {line.number}: expected yes or no, found {word!r}")
    return word == "yes"


def _spaces(words: Sequence[str], line: Line) -> list[int]:
    return [] if words == ["none"] else sorted(to_int(line, w) for w in words)


def _pairs(line: Line, words: Sequence[str]) -> list[tuple[str, int]]:
    """`yellow 3 red 2` as [(yellow, 3), (red, 2)]; `none` as []."""
    if words == ["none"]:
        return []
    if len(words) % 2:
        raise CaseFormatError(f"line {line.number}: write COLOUR N pairs (or none)")
    return sorted((words[i], to_int(line, words[i + 1])) for i in range(0, len(words), 2))


def _player_fact(run: Run, line: Line, seat: int, key: str, args: list[str]) -> None:
    s = run.state
    p = s.players[seat]
    got: Any
    want: Any
    if key in ("florins", "vp", "initiative", "sons"):
        got = getattr(p, {"vp": "points"}.get(key, key))
        want = to_int(line, args[0])
    elif key == "threshold":
        got, want = s.threshold(seat), to_int(line, args[0])
    elif key == "available":
        got, want = (p.males, p.females), _sexes(line, args)
    elif key == "available-total":
        got, want = p.males + p.females, to_int(line, args[0])
    elif key == "general":
        got, want = (p.general_m, p.general_f), _sexes(line, args)
    elif key == "dice":
        got, want = sorted(p.dice), _pairs(line, args)
    elif key == "helpers":
        got, want = sorted(p.helpers), _pairs(line, args)
    elif key in CAREERS:
        got = sorted(space for o, space in s.figures_on(key) if o == seat)
        want = _spaces(args, line)
    elif key == "open" and args:
        got = sorted(p.open_tiles(_check_row(line, args[0])))
        want = [] if args[1:] == ["none"] else sorted(args[1:])
    elif key == "facedown" and len(args) == 2:
        got, want = p.face_down.count(_check_row(line, args[0])), to_int(line, args[1])
    elif key == "place":
        result = game().result(s)
        if result is None:
            raise run.fail(line, "the game is not over")
        got, want = result.standings[seat].place, to_int(line, args[0])
    else:
        raise CaseFormatError(f"line {line.number}: unknown player fact {key!r}")
    if got != want:
        raise run.fail(line, f"{run.players[seat]} {key} is {got}")


_SEAT_FIELDS = {"seat", "player"}
_SEATS_FIELDS = {"winners", "order", "rewarded"}


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
        return tuple(int(t) if re.fullmatch(r"-?\d+", t) else t for t in text.split(","))
    return text


def _event_fact(run: Run, line: Line, args: list[str], negated: bool) -> None:
    from engine.signorie.events import EVENT_TYPES

    event_fact(run, line, args, negated, EVENT_TYPES, _event_value)


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


def _seen(run: Run, tile: str) -> list[str]:
    """Who sees `tile` (by id) in a view of the state or in an event as they see it."""
    g = game()
    pattern = re.compile(rf"(?<![\w-]){re.escape(tile)}(?![\w-])")
    seers = []
    for viewer in (None, *range(len(run.players))):
        who = "public" if viewer is None else run.players[viewer]
        if pattern.search(repr(g.view(run.state, viewer))):
            seers.append(f"{who} (view)")
        for e in run.events:
            if pattern.search(repr(g.to_dict(g.redact(e, viewer)))):
                seers.append(f"{who} ({type(e).__name__})")
    return seers


def _tile_fact(run: Run, line: Line, key: str, args: list[str]) -> None:
    if len(args) != 1:
        raise CaseFormatError(f"line {line.number}: {key} names one tile")
    seers = _seen(run, args[0])
    if key == "hidden" and seers:
        raise run.fail(line, f"seen by {', '.join(seers)}")
    if key == "shown" and not any(s.startswith("public") for s in seers):
        raise run.fail(line, "the public does not see it")


def _city_fact(run: Run, line: Line, key: str, args: list[str]) -> None:
    s = run.state
    if key == "field":
        if len(args) != 3 or args[1] not in ("marriage", "mission"):
            raise CaseFormatError(f"line {line.number}: field CITY marriage|mission TILE|empty")
        city = s.city(args[0])
        if city is None:
            raise run.fail(line, f"{args[0]} is not in play")
        got, want = city.tile(args[1]) or "empty", args[2]
    else:
        city = s.city(args[0]) if args else None
        if city is None:
            raise run.fail(line, f"{args[0] if args else '?'} is not in play")
        got = [run.name(o) for o in city.spaces(key) if o != EMPTY]
        want = [] if args[1:] == ["none"] else args[1:]
    if got != want:
        raise run.fail(line, f"{key} is {got}")


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
    if key in ("hidden", "shown"):
        return _tile_fact(run, line, key, args)
    if key in ("field", "marriage", "mission"):
        return _city_fact(run, line, key, args)
    if key in run.players:
        if not args:
            raise CaseFormatError(f"line {line.number}: a player fact needs a field")
        return _player_fact(run, line, run.players.index(key), args[0], args[1:])
    got: Any
    want: Any
    if key == "phase":
        got, want = s.phase, args[0]
    elif key == "round":
        got, want = s.round, to_int(line, args[0])
    elif key == "turn":
        got, want = run.name(s.turn), args[0]
    elif key == "finished":
        got, want = s.finished, _yes(line, args[0])
    elif key == "order":
        got, want = [run.name(o) for o in s.order], args
    elif key == "passed":
        got = sorted(run.name(o) for o in s.passed)
        want = [] if args == ["none"] else sorted(args)
    elif key == "stack":
        got = [run.name(i) for i in sorted(range(len(s.players)), key=lambda i: (
            s.players[i].initiative, s.players[i].stamp))]
        want = args
    elif key == "offer":
        got, want = list(s.offered(_check_colour(line, args[0]))), _spaces(args[1:] or ["none"],
                                                                         line)
    elif key == "offered":
        got, want = sum(len(v) for _, v in s.dice), to_int(line, args[0])
    elif key == "cities":
        got, want = [c.name for c in s.cities], args
    elif key == "pool":
        got, want = sum(s.family_left), to_int(line, args[0])
    elif key == "tasks":
        got, want = list(s.tasks), args
    elif key == "rewards":
        got, want = list(s.reward_row), args
    elif key == "florins-total":
        got, want = sum(p.florins for p in s.players), to_int(line, args[0])
    elif key == "winner":
        got = sorted(run.name(w) for w in s.winners)
        want = sorted(w.strip() for w in " ".join(args).split(",") if w.strip())
    else:
        raise CaseFormatError(f"line {line.number}: unknown expectation {key!r}")
    if got != want:
        raise run.fail(line, f"{key} is {got}")
    return None


_ERROR_RE = re.compile(
    r'error(?:\s+(?:illegal(?:\s+([a-z0-9-]+))?|(syntax)))?(?:\s+"([^"]*)")?\s*$')


def _check_error(run: Run, line: Line, error: IllegalMoveError | NotationError | None) -> None:
    m = _ERROR_RE.match(line.text)
    if not m:
        raise CaseFormatError(
            f'line {line.number}: write: error [illegal [RULE]|syntax] ["text"]')
    rule, syntax, text = m.groups()
    illegal = "illegal" in line.text.split('"')[0]
    if error is None:
        raise run.fail(line, "nothing was refused")
    if syntax:
        if not isinstance(error, NotationError):
            raise run.fail(line, f"refused by the engine, not the notation: {error.message}")
    elif illegal and not isinstance(error, IllegalMoveError):
        raise run.fail(line, f"refused by the notation: {error.message}")
    elif rule and isinstance(error, IllegalMoveError) and error.rule != rule:
        raise run.fail(line, f"refused under rule {error.rule!r}: {error.message}")
    if text and text.lower() not in error.message.lower():
        raise run.fail(line, f"the message is {error.message!r}")


def run_case(case: Case, by_id: dict[str, Case]) -> Run:
    """Run one case; return the finished run.

    Raises:
        CaseFailure: an expectation or an invariant does not hold.
        CaseFormatError: the case is malformed.
    """
    g = game()
    players, seed, given = resolve(case, by_id)
    if given:
        start = build_given(players, given, seeded=seed is not None)
    else:
        first = g.start(players, variant="standard", options={}, commitment="",
                        seeded=seed is not None)
        start = g.new_state(first)
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
        if g.from_dict(g.to_dict(event)) != event:
            raise CaseFailure(f"{case.where}: {event!r} does not survive to_dict/from_dict")
        if type(event).__name__ == "Reverted":
            folded = g.with_version(history[event.to_version], folded.version + 1)
        else:
            folded = g.evolve(folded, event)
        history[folded.version] = folded
    if folded != run.state:
        raise CaseFailure(f"{case.where}: folding the events does not give the final state")
    return run
