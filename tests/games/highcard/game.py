"""The rules of high-card: commands decided into events, events folded into state.

A toy game for 2-3 players that pbem's tests register to prove the game seam
(`engine.protocol.Game`). Each player gets a purse of coins and is dealt a hand
in secret. Each round chance turns up a card from the deck, and the players bid
for it in turn or pass: the highest bidder pays and scores the card's value. Then
everybody plays a hand card face down at once; the cards are shown and the highest
takes the trick, worth `Rules.trick_points`. After the last round the most points
win, then the most coins left; a tie that remains is shared.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import codec, decks
from engine.consent import Reverted
from engine.errors import ChanceError, GameOverError, IllegalMoveError, NotYourTurnError
from engine.protocol import CHANCE, Option, Result, Setup, Standing, Variant

from . import events as ev
from .commands import Bid, Command, Deal, Pass, Play, Reveal
from .events import (
    CardPlayed,
    CardRevealed,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    LotDiscarded,
    LotWon,
    TrickShown,
)
from .state import Player, Rules, State
from .views import View, view_for

VERSION = "0.1.0"
EDITION = "1"

PURSE = Option("purse", "Purse", ("20", "30"), "coins each player starts with")
VARIANTS: dict[str, Variant] = {
    "standard": Variant("standard", 2, 3, (PURSE,), "three rounds, hands of three"),
    "duel": Variant("duel", 2, 2, (), "two players, four rounds, hands of four"),
}
RULES: dict[str, Rules] = {
    "standard": Rules(),
    "duel": Rules(hand_size=4, rounds=4),
}

# Events no undo may cross: chance, and hidden cards made known.
UNDO_BARRIERS = (HandDealt, CardRevealed, TrickShown, GameEnded, Reverted)


@dataclass(frozen=True, slots=True)
class Due:
    """The chance step due: a deal to `seat`'s player, or a reveal (seat None)."""

    kind: str  # "deal" or "reveal"
    seat: int | None
    n: int


def value(card: str) -> int:
    return int(card)


# --------------------------------------------------------------------------- setup


def start(players: Sequence[str], *, variant: str = "standard",
          options: Mapping[str, str] | None = None, commitment: str = "",
          seeded: bool = True) -> GameStarted:
    """The first event of a new game.

    Raises:
        IllegalMoveError: an unknown variant or option value, a player count the
            variant does not admit, or a repeated name.
    """
    chosen = VARIANTS.get(variant)
    if chosen is None:
        raise IllegalMoveError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}",
                               "setup")
    if not chosen.admits(len(players)):
        raise IllegalMoveError(f"the {variant} game is for {chosen.counts} players, "
                               f"not {len(players)}", "setup")
    if len(set(players)) != len(players):
        raise IllegalMoveError("two players have the same name", "setup")
    options = dict(options or {})
    known = {o.name: o for o in chosen.options}
    for name, given in options.items():
        option = known.get(name)
        if option is None:
            raise IllegalMoveError(f"the {variant} game has no option {name!r}", "setup")
        if given not in option.choices:
            raise IllegalMoveError(f"{option.tag} is one of {', '.join(option.choices)}, "
                                   f"not {given!r}", "setup")
    purse = int(options.get("purse", PURSE.default))
    return GameStarted(tuple(players), variant, purse, seeded, EDITION, VERSION, commitment)


def new_state(first: GameStarted) -> State:
    """The state right after the first event."""
    rules = RULES[first.variant]
    return State(rules=rules, players=tuple(Player(n, first.purse) for n in first.players),
                 variant=first.variant, purse=first.purse, deck=decks.new_deck(rules.cards),
                 version=1)


def setup(first: GameStarted) -> Setup:
    """What the first event records (the purse only where the variant offers it)."""
    options = {PURSE.name: str(first.purse)} if VARIANTS[first.variant].options else {}
    return Setup(first.players, first.variant, options, first.seeded, first.edition,
                 first.engine, first.commitment)


# --------------------------------------------------------------------------- queries


def to_act(state: State) -> tuple[int, ...]:
    if state.phase in ("deal", "reveal"):
        return (CHANCE,)
    if state.phase == "auction":
        return () if state.turn is None else (state.turn,)
    if state.phase == "play":
        return tuple(i for i, p in enumerate(state.players) if p.played is None)
    return ()


def chance_due(state: State) -> Due | None:
    if state.phase == "deal":
        return Due("deal", state.dealing, state.rules.hand_size)
    if state.phase == "reveal":
        return Due("reveal", None, 1)
    return None


def resolve_chance(state: State, seed: str) -> Deal | Reveal:
    """The deal or reveal the seed gives now.

    Raises:
        IllegalMoveError: no chance is due.
    """
    due = chance_due(state)
    if due is None:
        raise IllegalMoveError("no deal or reveal is due now", "chance")
    if due.kind == "deal":
        assert due.seat is not None
        name = state.players[due.seat].name
        key = decks.draw_key(seed, state.version, f"deal:{name}")
        return Deal(name, decks.sample(state.deck, due.n, key))
    key = decks.draw_key(seed, state.version, f"reveal:{state.round + 1}")
    return Reveal(decks.sample(state.deck, 1, key)[0])


def same_chance(state: State, command: Any) -> bool:
    """True if `command` states the chance step due now (its cards aside)."""
    due = chance_due(state)
    if due is None:
        return False
    if due.kind == "reveal":
        return isinstance(command, Reveal)
    assert due.seat is not None
    return isinstance(command, Deal) and command.player == state.players[due.seat].name


def chance_mismatch(stated: Deal | Reveal, seeded: Deal | Reveal) -> str | None:
    """Why a stated deal or reveal differs from the seeded one, or None."""
    given = stated.cards if isinstance(stated, Deal) else (stated.card,)
    wanted = seeded.cards if isinstance(seeded, Deal) else (seeded.card,)
    if sorted(given) == sorted(wanted):
        return None
    stray = [c for c in given if c not in wanted]
    if stray:
        return f"{stray[0]!r} is not among its cards"
    return f"it gives {len(wanted)} cards, not {len(given)}"


def chance_wanted(state: State) -> str:
    """What the chance due now must state, for an error message."""
    due = chance_due(state)
    if due is None:
        return "nothing"
    if due.kind == "reveal":
        return f"the card revealed for round {state.round + 1}"
    assert due.seat is not None
    return f"the {due.n} cards dealt to {state.players[due.seat].name}"


def legal_commands(state: State, seat: int) -> list[Command]:
    """The commands `seat` may give now, in a stable order (chance lists none: the
    seed or the log states it)."""
    if seat == CHANCE or seat not in to_act(state):
        return []
    if state.phase == "auction":
        money = state.players[seat].money
        return [Pass(), *(Bid(a) for a in range(state.price + 1, money + 1))]
    return [Play(c) for c in sorted(state.players[seat].hand, key=value)]


def late_command(state: State, seat: int) -> Command:
    """Pass in an auction; play the lowest card of the hand in a trick.

    Raises:
        IllegalMoveError: `seat` has nothing to do now.
    """
    options = legal_commands(state, seat)
    if not options:
        raise IllegalMoveError("that seat has nothing to do now", "late")
    return options[0]


def random_command(state: State, seat: int, rng: random.Random) -> Command:
    """A random legal command; a bid raises by at most three, so purses last.

    Raises:
        IllegalMoveError: `seat` has nothing to do now.
    """
    options = legal_commands(state, seat)
    if not options:
        raise IllegalMoveError("that seat has nothing to do now", "random")
    if state.phase == "auction":
        options = options[:4]
    return rng.choice(options)


def crossing_error(events: Iterable[Any]) -> str | None:
    for e in events:
        if isinstance(e, UNDO_BARRIERS):
            return "an undo may not go back past a deal, a reveal, a shown trick or another undo"
    return None


def _ranking(state: State) -> list[tuple[int, int]]:
    return [(p.points, p.money) for p in state.players]


def result(state: State) -> Result | None:
    if not state.finished:
        return None
    return Result(standings(state), state.winners)


def standings(state: State) -> tuple[Standing, ...]:
    ranks = _ranking(state)
    return tuple(
        Standing(seat=i, name=p.name, score=p.points, tiebreaks=(p.money,),
                 place=1 + sum(1 for r in ranks if r > ranks[i]),
                 fields={"points": p.points, "coins": p.money, "tricks": p.tricks,
                         "lots": len(p.lots)})
        for i, p in enumerate(state.players)
    )


def progress(state: State) -> tuple[int, str]:
    return state.round, state.phase


# --------------------------------------------------------------------------- decide


def _decide_chance(state: State, cmd: Deal | Reveal) -> list[Event]:
    due = chance_due(state)
    if due is None:
        raise ChanceError("no deal or reveal is due here", "chance")
    if due.kind == "deal":
        assert due.seat is not None
        name = state.players[due.seat].name
        if not isinstance(cmd, Deal) or cmd.player != name:
            raise ChanceError(f"the deal to {name} is due here", "chance")
        cards = cmd.cards
    else:
        if not isinstance(cmd, Reveal):
            raise ChanceError("a card is revealed here, not dealt", "chance")
        cards = (cmd.card,)
    for c in cards:
        if c not in state.rules.cards:
            raise ChanceError(f"{c!r} is not a card of the deck", "chance")
    why = decks.draw_error(state.deck, cards, due.n)
    if why:
        raise ChanceError(why, "chance-deck")
    if due.seat is not None:
        return [HandDealt(due.seat, cards)]
    return [CardRevealed(state.round + 1, cards[0])]


def _decide(state: State, seat: int, cmd: Command) -> list[Event]:
    if state.finished:
        raise GameOverError("the game is over", "over")
    if isinstance(cmd, Deal | Reveal):
        if seat != CHANCE:
            raise NotYourTurnError("only chance deals and reveals cards", "turn")
        return _decide_chance(state, cmd)
    if seat not in to_act(state):
        who = ", ".join("chance" if s == CHANCE else state.players[s].name
                        for s in to_act(state))
        raise NotYourTurnError(f"it is {who}'s turn, not yours", "turn")
    p = state.players[seat]
    if isinstance(cmd, Play):
        if state.phase != "play":
            raise IllegalMoveError(f"cards are played after the auction; this is the "
                                   f"{state.phase} phase", "phase")
        if cmd.card not in p.hand:
            raise IllegalMoveError(f"you hold no {cmd.card}", "hand")
        return [CardPlayed(seat, cmd.card)]
    if state.phase != "auction":
        raise IllegalMoveError(f"{cmd.verb!r} belongs to the auction; this is the "
                               f"{state.phase} phase", "phase")
    if isinstance(cmd, Pass):
        return [ev.BidPassed(seat)]
    if cmd.amount <= state.price:
        raise IllegalMoveError(f"a bid must be more than {state.price}", "bid-low")
    if cmd.amount > p.money:
        raise IllegalMoveError(f"you have {p.money} coins, not {cmd.amount}", "bid-cash")
    return [ev.BidRaised(seat, cmd.amount)]


def _automatic(state: State) -> list[Event]:
    if state.phase == "auction" and state.turn is None:
        assert state.lot is not None
        if state.high is None:
            return [LotDiscarded(state.lot)]
        return [LotWon(state.high, state.lot, state.price)]
    if state.phase == "play" and not to_act(state):
        cards = tuple(p.played or "" for p in state.players)
        winner = max(range(len(cards)), key=lambda i: value(cards[i]))
        return [TrickShown(state.round, cards, winner, state.rules.trick_points)]
    if state.phase == "ending":
        ranks = _ranking(state)
        return [GameEnded(tuple(i for i, r in enumerate(ranks) if r == max(ranks)))]
    return []


def apply(state: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
    """Decide a command and fold its events and those that follow automatically.

    Raises:
        IllegalMoveError: the command breaks a rule; nothing changes.
    """
    events = _decide(state, seat, cmd)
    for e in events:
        state = evolve(state, e)
    while more := _automatic(state):
        for e in more:
            state = evolve(state, e)
        events.extend(more)
    return state, events


# --------------------------------------------------------------------------- evolve


def _next_bidder(state: State, after: int) -> int | None:
    n = len(state.players)
    for i in range(1, n + 1):
        s = (after + i) % n
        if s != state.high and s not in state.passed:
            return s
    return None


def _player(state: State, seat: int, **changes: Any) -> tuple[Player, ...]:
    players = list(state.players)
    players[seat] = dataclasses.replace(players[seat], **changes)
    return tuple(players)


def _on_hand_dealt(state: State, e: HandDealt) -> State:
    players = _player(state, e.seat, hand=e.cards)
    done = all(p.hand for p in players)
    return dataclasses.replace(state, players=players, deck=decks.remove_drawn(state.deck, e.cards),
                               phase="reveal" if done else "deal")


def _on_card_revealed(state: State, e: CardRevealed) -> State:
    start = (e.round - 1) % len(state.players)
    return dataclasses.replace(state, phase="auction", round=e.round, lot=e.card, high=None,
                               price=0, passed=frozenset(), turn=start,
                               deck=decks.remove_drawn(state.deck, (e.card,)))


def _on_bid_raised(state: State, e: ev.BidRaised) -> State:
    s = dataclasses.replace(state, high=e.seat, price=e.amount)
    return dataclasses.replace(s, turn=_next_bidder(s, e.seat))


def _on_bid_passed(state: State, e: ev.BidPassed) -> State:
    s = dataclasses.replace(state, passed=state.passed | {e.seat})
    return dataclasses.replace(s, turn=_next_bidder(s, e.seat))


def _on_lot_won(state: State, e: LotWon) -> State:
    p = state.players[e.seat]
    players = _player(state, e.seat, money=p.money - e.price, lots=(*p.lots, e.card),
                      points=p.points + value(e.card))
    return dataclasses.replace(state, players=players, phase="play", lot=None, high=None,
                               price=0, passed=frozenset(), turn=None)


def _on_lot_discarded(state: State, e: LotDiscarded) -> State:
    return dataclasses.replace(state, phase="play", lot=None, high=None, price=0,
                               passed=frozenset(), turn=None)


def _on_card_played(state: State, e: CardPlayed) -> State:
    hand = tuple(c for c in state.players[e.seat].hand if c != e.card)
    return dataclasses.replace(state, players=_player(state, e.seat, hand=hand, played=e.card))


def _on_trick_shown(state: State, e: TrickShown) -> State:
    players = tuple(dataclasses.replace(p, played=None) for p in state.players)
    w = players[e.winner]
    players = (*players[:e.winner],
               dataclasses.replace(w, tricks=w.tricks + 1, points=w.points + e.points),
               *players[e.winner + 1:])
    last = e.round >= state.rules.rounds
    return dataclasses.replace(state, players=players, phase="ending" if last else "reveal")


def _on_game_ended(state: State, e: GameEnded) -> State:
    return dataclasses.replace(state, phase="over", winners=e.winners, turn=None)


_EVOLVE: dict[type[Any], Callable[[State, Any], State]] = {
    HandDealt: _on_hand_dealt,
    CardRevealed: _on_card_revealed,
    ev.BidRaised: _on_bid_raised,
    ev.BidPassed: _on_bid_passed,
    LotWon: _on_lot_won,
    LotDiscarded: _on_lot_discarded,
    CardPlayed: _on_card_played,
    TrickShown: _on_trick_shown,
    GameEnded: _on_game_ended,
}


def evolve(state: State, event: Event) -> State:
    """Fold one event into the state. Never validates: a failure is a bug."""
    handler = _EVOLVE.get(type(event))
    if handler is None:
        raise AssertionError(f"high-card folds no {type(event).__name__} here: {event!r}")
    return dataclasses.replace(handler(state, event), version=state.version + 1)


# --------------------------------------------------------------------------- the game value


class HighCard:
    """high-card as an `engine.protocol.Game`."""

    name = "high-card"
    title = "High Card"
    version = VERSION
    edition = EDITION
    variants: Mapping[str, Variant] = VARIANTS

    def start(self, players: Sequence[str], *, variant: str, options: Mapping[str, str],
              commitment: str, seeded: bool) -> GameStarted:
        return start(players, variant=variant, options=options, commitment=commitment,
                     seeded=seeded)

    def new_state(self, first: GameStarted) -> State:
        return new_state(first)

    def setup(self, first: GameStarted) -> Setup:
        return setup(first)

    def apply(self, state: State, seat: int, command: Command) -> tuple[State, list[Event]]:
        return apply(state, seat, command)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def with_version(self, state: State, version: int) -> State:
        return dataclasses.replace(state, version=version)

    def to_act(self, state: State) -> tuple[int, ...]:
        return to_act(state)

    def chance_due(self, state: State) -> Due | None:
        return chance_due(state)

    def resolve_chance(self, state: State, seed: str) -> Deal | Reveal:
        return resolve_chance(state, seed)

    def same_chance(self, state: State, command: Any) -> bool:
        return same_chance(state, command)

    def chance_mismatch(self, stated: Any, seeded: Deal | Reveal) -> str | None:
        return chance_mismatch(stated, seeded)

    def chance_wanted(self, state: State) -> str:
        return chance_wanted(state)

    def legal_commands(self, state: State, seat: int, *, anytime: bool = True) -> list[Command]:
        return legal_commands(state, seat)  # no command is legal at any time

    def standings(self, state: State) -> tuple[Standing, ...]:
        return standings(state)

    def late_command(self, state: State, seat: int) -> Command:
        return late_command(state, seat)

    def random_command(self, state: State, seat: int, rng: random.Random) -> Command:
        return random_command(state, seat, rng)

    def crossing_error(self, events: Iterable[Any]) -> str | None:
        return crossing_error(events)

    def result(self, state: State) -> Result | None:
        return result(state)

    def progress(self, state: State) -> tuple[int, str]:
        return progress(state)

    def view(self, state: State, seat: int | None) -> View:
        return view_for(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        redacted: Event = codec.redact(event, seat)
        return redacted

    def is_visible(self, event: Event, seat: int | None) -> bool:
        return codec.is_visible(event, seat)

    def to_dict(self, event: Event) -> dict[str, Any]:
        return codec.to_dict(event)

    def from_dict(self, data: dict[str, Any]) -> Event:
        return ev.from_dict(data)


GAME = HighCard()
