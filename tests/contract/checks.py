"""The contract every registered game keeps (engine level), as plain functions of a game.

Each `check_*` raises AssertionError naming what broke; `tests/contract/test_engine_contract.py`
runs them over every registered game, and later items (notation, presenter, moderator)
join here. Games are played as pbem plays them: `engine.selfplay.play_random` picks the
moves, and a `engine.match.Match` replays them step by step, so that every state and
undo tracker along the way can be examined.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.consent import Agree, Refuse, Reverted, Undo
from engine.errors import IllegalMoveError
from engine.match import Match, fold
from engine.protocol import CHANCE, Game, Result, Setup, Variant
from engine.selfplay import NAMES, play_random
from engine.undo import Tracker

MAX_STEPS = 20_000
UNDO_RATE = 0.1  # how often, after a command, its player asks to take it back
REFUSE_EVERY = 4  # one undo request in four (counted from the seed), one of the others refuses


@dataclass(frozen=True, slots=True)
class Playout:
    """A random game played to its end: the moves, every event, and the state and undo
    tracker after the first event and after each move (`states[0]` is the start)."""

    game: Any
    seed: str
    first: Any
    moves: tuple[tuple[int, Any], ...]
    events: tuple[Any, ...]  # the first event included
    states: tuple[Any, ...]
    trackers: tuple[Tracker, ...]
    batches: tuple[tuple[Any, ...], ...]  # the events of each move

    @property
    def final(self) -> Any:
        return self.states[-1]


def start(game: Any, variant: Variant, players: int,
          options: Mapping[str, str] | None = None, commitment: str = "",
          seeded: bool = True) -> Any:
    """The first event of a game of `players` players (default options)."""
    chosen = dict(options if options is not None else {o.name: o.default for o in variant.options})
    return game.start(NAMES[:players], variant=variant.name, options=chosen,
                      commitment=commitment, seeded=seeded)


def option_sets(variant: Variant) -> list[dict[str, str]]:
    """The option choices a contract plays besides the defaults: every option at its
    last choice together, then each other choice alone."""
    if not variant.options:
        return []
    together = {o.name: o.choices[-1] for o in variant.options}
    alone = [{o.name: c} for o in variant.options for c in o.choices[1:]]
    return [together, *(a for a in alone if a != together)]


def play(game: Any, variant: Variant, players: int, seed: int,
         options: Mapping[str, str] | None = None) -> Playout:
    """A whole random game (`engine.selfplay.play_random`), replayed move by move
    through a `Match`; the replay must give the same events and the same end."""
    random_game = play_random(game, players, f"contract|{seed}", variant=variant.name,
                              options=options, max_moves=MAX_STEPS)
    match = Match.start(game, random_game.players, variant=variant.name, options=options,
                        seed=random_game.seed)
    states, trackers, batches = [match.state], [match.tracker], []
    for seat, cmd in random_game.moves:
        assert match.to_act(), f"{game.name}: nobody is to act in a running game"
        batches.append(tuple(match.play(seat, cmd)))
        states.append(match.state)
        trackers.append(match.tracker)
    assert tuple(match.events) == random_game.events, "replaying the moves gives other events"
    assert match.state == random_game.state, "replaying the moves ends elsewhere"
    return Playout(game, random_game.seed, match.events[0], random_game.moves,
                   tuple(match.events), tuple(states), tuple(trackers), tuple(batches))


# --------------------------------------------------------------------------- setup


def check_shape(game: Any) -> None:
    """The game is a `Game`, with variants named by their keys and options with choices."""
    assert isinstance(game, Game), f"{game!r} lacks members of engine.protocol.Game"
    for attr in ("name", "title", "version", "edition"):
        assert isinstance(getattr(game, attr), str) and getattr(game, attr), attr
    assert game.variants, f"{game.name} has no variant"
    for key, v in game.variants.items():
        assert key == v.name, (key, v.name)
        assert 1 <= v.min_players <= v.max_players, v
        for o in v.options:
            assert o.choices and len(set(o.choices)) == len(o.choices), o
        assert len({o.name for o in v.options}) == len(v.options), v


def check_player_counts(game: Any) -> None:
    """Every variant starts at each advertised count and refuses every other one;
    unknown variants, unknown option values and repeated names are refused too."""
    for v in game.variants.values():
        for n in range(0, v.max_players + 3):
            if v.admits(n):
                first = start(game, v, n)
                state = game.new_state(first)
                assert state.names == NAMES[:n], (v.name, n, state.names)
                assert state.version == 1 and not state.finished, (v.name, n)
            else:
                _refused(game, f"{v.name} for {n} players", NAMES[:n], v.name,
                         {o.name: o.default for o in v.options})
        n = v.min_players
        for o in v.options:
            _refused(game, f"{o.tag} 'no-such-choice'", NAMES[:n], v.name,
                     {o.name: "no-such-choice"})
        if n >= 2:
            _refused(game, "a repeated name", [NAMES[0]] * n, v.name, {})
    _refused(game, "an unknown variant", NAMES[:2], "no-such-variant", {})


def _refused(game: Any, what: str, players: Sequence[str], variant: str,
             options: Mapping[str, str]) -> None:
    try:
        game.start(players, variant=variant, options=options, commitment="", seeded=True)
    except IllegalMoveError:
        return
    raise AssertionError(f"start accepts {what}")


def check_setup(game: Any) -> None:
    """`setup` gives back what `start` was given, every option filled in (its default
    when left out), and starting again from the setup gives the same first event."""
    for v in game.variants.values():
        players = NAMES[:v.min_players]
        chosen: list[dict[str, str]] = [{}]
        chosen += [{o.name: c} for o in v.options for c in o.choices]
        for options in chosen:
            for seeded in (True, False):
                first = game.start(players, variant=v.name, options=options,
                                   commitment="c0ffee", seeded=seeded)
                setup = game.setup(first)
                assert isinstance(setup, Setup), setup
                want = {o.name: options.get(o.name, o.default) for o in v.options}
                assert dict(setup.options) == want, (
                    f"{game.name}: setup gives options {dict(setup.options)}, not {want}")
                assert (setup.players, setup.variant, setup.seeded, setup.commitment) == (
                    players, v.name, seeded, "c0ffee"), setup
                assert (setup.edition, setup.engine) == (game.edition, game.version), setup
                again = game.start(setup.players, variant=setup.variant,
                                   options=setup.options, commitment=setup.commitment,
                                   seeded=setup.seeded)
                assert again == first, f"{game.name}: starting from {setup} gives {again}"


# --------------------------------------------------------------------------- play


def check_playout(p: Playout) -> None:
    """At every step of a random game: chance acts alone exactly when some is due,
    the seed's command states the step due and agrees with itself, and the late
    command of each seat to act is legal (a `Match` accepts it, on a copy). At the
    end nobody is to act, no seat has a legal command, no chance is due, and the
    result is consistent; before the end there was none."""
    game, final = p.game, p.final
    players = len(final.names)
    for state, tracker in zip(p.states[:-1], p.trackers[:-1], strict=True):
        assert game.result(state) is None, "a running game has a result"
        actors = game.to_act(state)
        due = game.chance_due(state) is not None
        assert (CHANCE in actors) == due, (f"{game.name}: chance is to act: {CHANCE in actors}"
                                           f", chance is due: {due}")
        if due:
            assert actors == (CHANCE,), f"{game.name}: chance acts along with {actors}"
            seeded = game.resolve_chance(state, p.seed)
            assert game.same_chance(state, seeded), f"{seeded!r} is not the chance step due"
            why = game.chance_mismatch(seeded, seeded)
            assert why is None, f"{game.name}: {seeded!r} differs from itself: {why}"
            assert game.chance_wanted(state), "chance is due but chance_wanted says nothing"
            continue
        _refuses_chance(game, state, p.seed)
        for seat in actors:
            late = game.late_command(state, seat)
            copy = Match(game, state, [], tracker=tracker, seed=p.seed)
            try:
                copy.play(seat, late)
            except IllegalMoveError as e:
                raise AssertionError(f"{game.name}: the late command {late!r} of seat {seat} "
                                     f"is refused: {e}") from e
    assert final.finished
    assert game.to_act(final) == ()
    assert game.chance_due(final) is None
    _refuses_chance(game, final, p.seed)
    for seat in range(players):
        assert game.legal_commands(final, seat) == [], seat
        try:
            game.random_command(final, seat, random.Random(0))
        except IllegalMoveError:
            continue
        raise AssertionError(f"random_command gives seat {seat} a command in a finished game")
    check_result(game.result(final), final.names)


def _refuses_chance(game: Any, state: Any, seed: str) -> None:
    try:
        game.resolve_chance(state, seed)
    except IllegalMoveError:
        return
    raise AssertionError(f"{game.name}: resolve_chance gives a command when none is due")


def check_result(result: Result | None, names: Sequence[str]) -> None:
    """Standings in seat order; places follow score then tie-breaks (shared on a true
    tie); the winners are the seats in first place."""
    assert result is not None, "a finished game has no result"
    assert [s.seat for s in result.standings] == list(range(len(names)))
    assert tuple(s.name for s in result.standings) == tuple(names)
    assert len({len(s.tiebreaks) for s in result.standings}) == 1, "tie-breaks of unequal length"
    keys = [(s.score, s.tiebreaks) for s in result.standings]
    for s, key in zip(result.standings, keys, strict=True):
        assert s.place == 1 + sum(1 for k in keys if k > key), (
            f"place {s.place} of seat {s.seat} does not follow (score, tie-breaks) {keys}")
        assert all(isinstance(x, int) for x in s.fields.values()), s.fields
    assert set(result.winners) == {s.seat for s in result.standings if s.place == 1}
    ranked = result.ranked()
    assert [s.place for s in ranked] == sorted(s.place for s in ranked)


def check_refold(p: Playout) -> None:
    """Folding the events again from the first gives every state built step by step."""
    game = p.game
    state = game.new_state(p.first)
    assert state == p.states[0]
    for batch, want in zip(p.batches, p.states[1:], strict=True):
        for e in batch:
            state = game.evolve(state, e)
        assert state == want, "the fold of the events differs from the state played"
    assert state.version == len(p.events)
    assert fold(game, p.events) == p.final, "engine.match.fold differs from the state played"


# --------------------------------------------------------------------------- undo


@dataclass(frozen=True, slots=True)
class UndoPlayout:
    """A random game in which players now and then took their last command back."""

    match: Match
    undos: int  # agreed
    refusals: int


def play_undoing(game: Any, variant: Variant, players: int, seed: int) -> UndoPlayout:
    """A random game played through a `Match` in which, now and then, the player of the
    last command asks `undo` and every other player agrees (every fourth time one refuses).

    Each agreed undo must bring back the state the command was given in (at the next
    version); each refused or unoffered one must change nothing."""
    rng = random.Random(f"contract-undo|{game.name}|{variant.name}|{players}|{seed}")
    match = Match.start(game, NAMES[:players], variant=variant.name,
                        seed=f"contract-undo-{seed}")
    undos = refusals = steps = 0
    while not match.finished:
        steps += 1
        assert steps < MAX_STEPS, f"{game.name}: a random game did not end in {MAX_STEPS}"
        last = match.tracker.last
        if last is not None and rng.random() < UNDO_RATE:
            before, events = match.state, len(match.events)
            if Undo() not in match.legal(last.seat):
                try:
                    match.play(last.seat, Undo())
                except IllegalMoveError:
                    assert (match.state, len(match.events)) == (before, events)
                    continue
                raise AssertionError(f"{game.name}: an undo not offered is accepted")
            assert match.play(last.seat, Undo()) == []
            others = list(match.tracker.waiting_for(players))
            assert sorted(others) == [s for s in range(players) if s != last.seat], others
            rng.shuffle(others)
            if (seed + undos + refusals) % REFUSE_EVERY == REFUSE_EVERY - 1:
                assert Refuse() in match.legal(others[0])
                assert match.play(others[0], Refuse()) == []
                assert match.state == before and match.tracker.request is None
                refusals += 1
                continue
            for seat in others[:-1]:
                assert Agree() in match.legal(seat)
                assert match.play(seat, Agree()) == []
            assert match.play(others[-1], Agree()) == [Reverted(last.seat, last.before.version)]
            want = game.with_version(last.before, before.version + 1)
            assert match.state == want, f"{game.name}: an agreed undo does not go back"
            assert match.state.version == len(match.events), "the version does not count events"
            undos += 1
            continue
        seat = rng.choice(match.to_act())
        if seat == CHANCE:
            match.resolve_chance()
        else:
            match.play(seat, game.random_command(match.state, seat, rng))
    return UndoPlayout(match, undos, refusals)


def check_undo_playout(u: UndoPlayout) -> None:
    """The events of a game with undos, through JSON and back, fold to its state."""
    match = u.match
    game = match.game
    assert fold(game, match.events) == match.state, "the fold of a game with undos differs"
    stored = [game.from_dict(json.loads(json.dumps(game.to_dict(e)))) for e in match.events]
    assert fold(game, stored) == match.state, "the stored events of a game with undos differ"
    assert match.state.version == len(match.events)


def check_codec(p: Playout) -> None:
    """Every event, and every redacted copy, survives JSON and comes back equal;
    `Reverted` is understood; an unknown type is a KeyError."""
    game = p.game
    seats: list[int | None] = [None, *range(len(p.final.names))]
    for e in p.events:
        for seen in {game.redact(e, s) for s in seats} | {e}:
            d = game.to_dict(seen)
            assert d["type"] == type(seen).__name__ and isinstance(d["v"], int), d
            again = game.from_dict(json.loads(json.dumps(d)))
            assert again == seen and type(again) is type(seen), (d, again)
    reverted = {"type": "Reverted", "v": 1, "seat": 0, "to_version": 1}
    assert game.to_dict(game.from_dict(reverted)) == reverted
    try:
        game.from_dict({"type": "NoSuchEvent", "v": 1})
    except KeyError:
        return
    raise AssertionError("from_dict accepts an unknown event type")


# --------------------------------------------------------------------------- privacy


_ATOMS = (int, float, bool, type(None))
_SEQUENCES = (tuple, list, set, frozenset)
_FIELD_NAMES: dict[type[Any], tuple[str, ...]] = {}


def strings(obj: Any) -> set[str]:
    """Every string in a tree of dataclasses, tuples, lists, sets and mappings (walked
    without recursion, by type first: views are walked at every step of every game)."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        o = stack.pop()
        t = type(o)
        if t is str:
            out.add(o)
        elif t in _ATOMS:
            continue
        elif t in _SEQUENCES:
            stack.extend(o)
        elif t in _FIELD_NAMES:
            stack.extend(getattr(o, name) for name in _FIELD_NAMES[t])
        elif dataclasses.is_dataclass(o) and not isinstance(o, type):
            _FIELD_NAMES[t] = tuple(f.name for f in dataclasses.fields(o))
            stack.append(o)
        elif isinstance(o, Mapping):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, str):
            out.add(str(o))
        elif isinstance(o, _SEQUENCES):
            stack.extend(o)
    return out


def hidden_strings(game: Any, event: Any, seat: int | None) -> set[str]:
    """The strings of `event` that `seat` may not see: those of the fields its
    redaction changes."""
    if game.is_visible(event, seat):
        return set()
    shown = game.redact(event, seat)
    out: set[str] = set()
    for f in dataclasses.fields(event):
        full = getattr(event, f.name)
        if full != getattr(shown, f.name):
            out |= strings(full) - strings(getattr(shown, f.name))
    return out


def check_redaction(p: Playout) -> None:
    """Public events are everyone's; a private event names its seat, is whole for that
    seat only, and its redaction for anyone else differs from it. A private event with
    no `seat` field is whole for nobody (`engine.codec`: a tile not even its owner sees)."""
    game = p.game
    seats = range(len(p.final.names))
    for e in p.events:
        if not e.private:
            for s in (None, *seats):
                assert game.is_visible(e, s) and game.redact(e, s) == e, (e, s)
            continue
        owner = getattr(e, "seat", None)
        if owner is not None:
            assert isinstance(owner, int) and owner in seats, e
            assert game.is_visible(e, owner) and game.redact(e, owner) == e, e
        for s in (None, *seats):
            if s != owner:
                assert not game.is_visible(e, s), (e, s)
                assert game.redact(e, s) != e, f"{e!r} is private but redacts to itself"
                assert hidden_strings(game, e, s), f"redacting {e!r} hides no string"


def check_views(p: Playout) -> None:
    """No view of any seat (nor the public view) holds a string that only lies in
    other seats' private events so far, unless the viewer has seen it since in an
    event it may see (a card shown, played face up, scored).

    Hidden values are compared as strings (card names), as every game hides them;
    the redaction check makes sure each private event hides some.
    """
    game = p.game
    viewers: list[int | None] = [None, *range(len(p.final.names))]
    hidden: dict[int | None, set[str]] = {v: set() for v in viewers}
    known: dict[int | None, set[str]] = {v: strings(p.first) for v in viewers}
    batches = ((), *p.batches)
    for state, batch in zip(p.states, batches, strict=True):
        for e in batch:
            for v in viewers:
                hidden[v] |= hidden_strings(game, e, v)
                known[v] |= strings(game.redact(e, v))
        for v in viewers:
            secret = hidden[v] - known[v] - {"?"}
            leaked = secret & strings(game.view(state, v))
            assert not leaked, (f"{game.name}: the view of seat {v} at v{state.version} "
                                f"shows hidden {sorted(leaked)}")


# --------------------------------------------------------------------------- all of it


def playouts(game: Any, seeds: int) -> Iterator[Playout]:
    """`seeds` random games of every variant at every advertised count."""
    for v in game.variants.values():
        for n in range(v.min_players, v.max_players + 1):
            for seed in range(seeds):
                yield play(game, v, n, seed)


def check_engine_contract(game: Any, seeds: int = 3) -> None:
    """Every engine-level item of the contract, for one game."""
    check_shape(game)
    check_player_counts(game)
    check_setup(game)
    for p in playouts(game, seeds):
        check_playout(p)
        check_refold(p)
        check_codec(p)
        check_redaction(p)
        check_views(p)
    for v in game.variants.values():
        for n in range(v.min_players, v.max_players + 1):
            for seed in range(seeds):
                check_undo_playout(play_undoing(game, v, n, seed))
