"""The contract every registered game keeps (engine level), as plain functions of a game.

Each `check_*` raises AssertionError naming what broke; `tests/contract/test_engine_contract.py`
runs them over every registered game, and later items (notation, presenter, moderator)
join here. `play` is a tiny play loop (apply, chance from a seed), standing in for the
match driver until there is one.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalMoveError
from engine.protocol import CHANCE, Game, Result, Variant

NAMES = ("anna", "bas", "chris", "dirk", "eva", "femke", "gijs", "hanna")
MAX_STEPS = 20_000


@dataclass(frozen=True, slots=True)
class Playout:
    """A random game played to its end: the moves, every event, and the state after
    the first event and after each move (`states[0]` is the start)."""

    game: Any
    seed: str
    first: Any
    moves: tuple[tuple[int, Any], ...]
    events: tuple[Any, ...]  # the first event included
    states: tuple[Any, ...]
    batches: tuple[tuple[Any, ...], ...]  # the events of each move

    @property
    def final(self) -> Any:
        return self.states[-1]


def start(game: Any, variant: Variant, players: int,
          options: Mapping[str, str] | None = None, commitment: str = "") -> Any:
    """The first event of a game of `players` players (default options)."""
    chosen = dict(options if options is not None else {o.name: o.default for o in variant.options})
    return game.start(NAMES[:players], variant=variant.name, options=chosen,
                      commitment=commitment, seeded=True)


def play(game: Any, variant: Variant, players: int, seed: int,
         options: Mapping[str, str] | None = None) -> Playout:
    """Play a whole game: chance from the seed, players by `random_command` with a
    local generator; every acting seat is equally likely to go next."""
    rng = random.Random(f"contract|{game.name}|{variant.name}|{players}|{seed}")
    game_seed = f"contract-{seed}"
    first = start(game, variant, players, options)
    state = game.new_state(first)
    events: list[Any] = [first]
    states: list[Any] = [state]
    moves: list[tuple[int, Any]] = []
    batches: list[tuple[Any, ...]] = []
    while not state.finished:
        assert len(moves) < MAX_STEPS, f"{game.name}: a random game did not end in {MAX_STEPS}"
        actors = game.to_act(state)
        assert actors, f"{game.name}: nobody is to act in a running game: {state!r}"
        seat = rng.choice(actors)
        if seat == CHANCE:
            cmd = game.resolve_chance(state, game_seed)
        else:
            cmd = game.random_command(state, seat, rng)
        state, new = game.apply(state, seat, cmd)
        moves.append((seat, cmd))
        events.extend(new)
        states.append(state)
        batches.append(tuple(new))
    return Playout(game, game_seed, first, tuple(moves), tuple(events), tuple(states),
                   tuple(batches))


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
            for choice in o.choices:
                first = start(game, v, n, {o.name: choice})
                variant, options = game.setup_of(first)
                assert variant == v.name and options[o.name] == choice, (v.name, o.name)
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


# --------------------------------------------------------------------------- play


def check_playout(p: Playout) -> None:
    """A finished random game: nobody is to act, no seat has a legal command, no
    chance is due, and the result is consistent; before the end there was none. At
    every step the late command of each acting seat is legal."""
    game, final = p.game, p.final
    players = len(final.names)
    for state in p.states[:-1]:
        assert game.result(state) is None, "a running game has a result"
        for seat in game.to_act(state):
            if seat == CHANCE:
                assert game.chance_due(state) is not None, "chance acts, but none is due"
                assert game.same_chance(state, game.resolve_chance(state, p.seed))
                continue
            late = game.late_command(state, seat)
            game.apply(state, seat, late)  # raises if the late command is illegal
    assert final.finished
    assert game.to_act(final) == ()
    assert game.chance_due(final) is None
    for seat in range(players):
        assert game.legal_commands(final, seat) == [], seat
        try:
            game.random_command(final, seat, random.Random(0))
        except IllegalMoveError:
            continue
        raise AssertionError(f"random_command gives seat {seat} a command in a finished game")
    check_result(game.result(final), final.names)


def check_result(result: Result | None, names: Sequence[str]) -> None:
    """Standings in seat order; places follow score then tie-breaks (shared on a true
    tie); the winners are the seats in first place."""
    assert result is not None, "a finished game has no result"
    assert [s.seat for s in result.standings] == list(range(len(names)))
    assert tuple(s.name for s in result.standings) == tuple(names)
    keys = [(s.score, s.tiebreaks) for s in result.standings]
    for s, key in zip(result.standings, keys, strict=True):
        assert s.place == 1 + sum(1 for k in keys if k > key), (s, keys)
    assert set(result.winners) == {s.seat for s in result.standings if s.place == 1}


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


def strings(obj: Any) -> Iterator[str]:
    """Every string in a tree of dataclasses, tuples, lists, sets and mappings."""
    if isinstance(obj, str):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from strings(getattr(obj, f.name))
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(obj, tuple | list | set | frozenset):
        for v in obj:
            yield from strings(v)


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
            out |= set(strings(full)) - set(strings(getattr(shown, f.name)))
    return out


def check_redaction(p: Playout) -> None:
    """Public events are everyone's; a private event names its seat, is whole for that
    seat only, and its redaction for anyone else differs from it."""
    game = p.game
    seats = range(len(p.final.names))
    for e in p.events:
        if not e.private:
            for s in (None, *seats):
                assert game.is_visible(e, s) and game.redact(e, s) == e, (e, s)
            continue
        owner = e.seat
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
    known: dict[int | None, set[str]] = {v: set(strings(p.first)) for v in viewers}
    batches = ((), *p.batches)
    for state, batch in zip(p.states, batches, strict=True):
        for e in batch:
            for v in viewers:
                hidden[v] |= hidden_strings(game, e, v)
                known[v] |= set(strings(game.redact(e, v)))
        for v in viewers:
            secret = hidden[v] - known[v] - {"?"}
            leaked = secret & set(strings(game.view(state, v)))
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
    for p in playouts(game, seeds):
        check_playout(p)
        check_refold(p)
        check_codec(p)
        check_redaction(p)
        check_views(p)
