"""The rules: commands are decided into events; events are folded into state.

`decide` checks a command against every rule and returns the events it causes,
followed by the automatic ones (an auction settled, a turn or round ended, the
final scoring). `evolve` folds one event into the state and never checks
anything: a failure there is a bug. `replay(events)` rebuilds any state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

from engine import __version__, decks
from engine.errors import ChanceError, GameOverError, IllegalMoveError, NotYourTurnError

from . import grid
from .commands import (
    Agree,
    Bid,
    Build,
    Choose,
    Command,
    Deal,
    Done,
    Draw,
    Freedom,
    Keep,
    Open,
    Pass,
    Place,
    Recruit,
    Refuse,
    Sell,
    Take,
    TakeBonus,
    TakeProfession,
    Undo,
    Work,
)
from .events import (
    AuctionEnded,
    AuctionWon,
    BidPassed,
    BidRaised,
    BuildingBuilt,
    CardBought,
    CardChosen,
    CardsDrawn,
    Event,
    FameSold,
    FreedomIntroduced,
    GameEnded,
    GameStarted,
    LandscapePlaced,
    NamingDeclined,
    ObjectNamed,
    PrestigeScored,
    ProfessionsDealt,
    ProfessionsKept,
    Recruited,
    Reverted,
    RoundEnded,
    RoundStarted,
    TurnEnded,
    WorkCompleted,
)
from .ruleset import FREEDOMS, LANDSCAPES, OBJECTS, RULES
from .scoring import prestige_points, work_value
from .state import CHANCE, Pending, Player, State, replace

_set_attr = object.__setattr__

VARIANTS = ("standard",)


# --------------------------------------------------------------------------- setup


def start_game(
    players: Sequence[str], *, variant: str = "standard", money_open: bool = False,
    seeded: bool = True, commitment: str = "",
) -> GameStarted:
    """The first event of a new game, stamped with the rules edition and the engine
    version; `commitment` is the published commitment to the seed, if any.

    Raises:
        IllegalMoveError: an unsupported player count, variant, or repeated name.
    """
    if variant not in VARIANTS:
        raise IllegalMoveError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}",
                               "setup")
    if not 3 <= len(players) <= 5:
        raise IllegalMoveError(
            f"the standard game is for 3 to 5 players, not {len(players)}", "setup")
    if len(set(players)) != len(players):
        raise IllegalMoveError("two players have the same name", "setup")
    return GameStarted(tuple(players), variant, money_open, seeded, RULES.edition, __version__,
                       commitment)


def new_state(started: GameStarted) -> State:
    """The state right after `started`."""
    return evolve(State(players=()), started)


# --------------------------------------------------------------------------- queries


def to_act(state: State) -> tuple[int, ...]:
    """The seats that may act now (CHANCE when a deal or draw is due)."""
    if state.phase == "over":
        return ()
    if state.pending is not None:
        if state.pending.kind in ("deal", "draw"):
            return (CHANCE,)
        return (state.pending.seat,)
    if state.phase == "keep":
        return tuple(i for i, p in enumerate(state.players) if p.dealt)
    return () if state.turn is None else (state.turn,)


def auction_left(state: State) -> list[int]:
    """Seats still in this round's auction phase."""
    return [i for i in range(len(state.players)) if state.in_auction(i)]


def can_acquire(state: State, seat: int, obj: str) -> bool:
    """True if the seat could take `obj` at all (ruling R4; a landscape needs room)."""
    p = state.players[seat]
    if obj == "builder":
        return p.builders < RULES.limits["max_builders"]
    if obj in LANDSCAPES:
        return grid.fits(obj, grid.PLAYABLE & ~p.occupied)
    return True


def stack_open(state: State, obj: str) -> bool:
    """True if the stack has an object and has not given one this round."""
    if obj in state.marked:
        return False
    if obj == "prestige":
        return decks.deck_size(state.decks["prestige"]) > 0
    return state.stacks[obj] > 0


def can_pay(p: Player, amount: int) -> bool:
    """Cash plus what selling all fame would bring covers the amount (ruling R5)."""
    return amount <= p.florins + p.fame * RULES.fame_step_florins


def chance_due(state: State) -> Pending | None:
    """The deal or draw that must be stated next, if any."""
    if state.pending is not None and state.pending.kind in ("deal", "draw"):
        return state.pending
    return None


def seeded_chance(state: State, seed: str) -> Deal | Draw:
    """The deal or draw that the seed gives at this point of the game.

    Raises:
        IllegalMoveError: no deal or draw is due.
    """
    due = chance_due(state)
    if due is None:
        raise IllegalMoveError("no deal or draw is due now", "chance")
    deck = state.decks[due.deck]
    name = state.players[due.seat].name
    key = decks.draw_key(seed, state.version, f"{due.kind}:{due.deck}:{name}")
    cards = decks.sample(deck, due.n, key)
    if due.kind == "deal":
        return Deal(name, cards)
    return Draw(name, due.deck, cards)


# --------------------------------------------------------------------------- decide


def _illegal(message: str, rule: str) -> IllegalMoveError:
    return IllegalMoveError(message, rule)


def _require_turn(state: State, seat: int) -> None:
    if state.turn != seat:
        who = state.players[state.turn].name if state.turn is not None else "nobody"
        raise NotYourTurnError(f"it is {who}'s turn, not yours", "turn")


def _require_action_turn(state: State, seat: int) -> Player:
    if state.phase != "action":
        raise _illegal(f"actions are taken in the action phase; this is the {state.phase} phase",
                       "phase")
    _require_turn(state, seat)
    return state.players[seat]


def _require_action(state: State, seat: int, kind: str) -> Player:
    p = _require_action_turn(state, seat)
    if p.actions >= RULES.limits["actions"]:
        raise _illegal("you have no actions left this round", "action-limit")
    limit = RULES.limits[kind]
    if p.used.get(kind, 0) >= limit:
        times = "once" if limit == 1 else f"{limit} times"
        raise _illegal(f"you may take the {kind} action only {times} a round", f"limit-{kind}")
    return p


def _require_cash(p: Player, amount: int, what: str) -> None:
    if p.florins < amount:
        raise _illegal(
            f"{what} costs {amount} florins and you have {p.florins}; "
            f"you may sell fame first ('sell N')", "cash")


def object_error(state: State, seat: int, obj: str) -> str | None:
    if obj not in OBJECTS:
        return f"{obj!r} is not an auction object"
    if obj in state.marked:
        return f"the {obj} stack has already given an object this round"
    if not stack_open(state, obj):
        return f"the {obj} stack is empty"
    if not can_acquire(state, seat, obj):
        if obj == "builder":
            return "you have 3 builders already and may not take another"
        return f"there is no room in your principality for a {obj}"
    if not can_pay(state.players[seat], RULES.auction_open):
        return f"you cannot pay {RULES.auction_open} florins, even by selling fame"
    return None


def _fame_sold(p: Player, price: int) -> int:
    short = price - p.florins
    if short <= 0:
        return 0
    return -(-short // RULES.fame_step_florins)


def _placement_error(p: Player, tile: str, cells: tuple[str, ...], building: bool) -> str | None:
    try:
        mask = grid.mask_of(cells)
    except KeyError:
        bad = next(c for c in cells if c not in grid.CELL_NAMES)
        return f"cell {bad} is not on the 7x7 grid"
    if len(set(cells)) != len(cells):
        return "a cell is named twice"
    if mask & grid.PALAZZO:
        return "a tile may not cover the Palazzo"
    if mask & p.occupied:
        taken = grid.cells_of(mask & p.occupied)
        return f"cell {taken[0]} is already covered"
    why = grid.shape_error(tile, mask)
    if why:
        return why
    if building and p.builders < 2 and mask & grid.neighbours(p.building_cells | grid.PALAZZO):
        return ("a building may not touch another building or the Palazzo "
                "unless you have 2 builders")
    return None


def _decide_chance(state: State, cmd: Deal | Draw) -> list[Event]:
    due = chance_due(state)
    if due is None:
        raise ChanceError("no deal or draw is due here", "chance")
    name = state.players[due.seat].name
    if isinstance(cmd, Deal) != (due.kind == "deal"):
        want = f"a deal to {name}" if due.kind == "deal" else f"a {due.deck} draw by {name}"
        raise ChanceError(f"{want} is due here", "chance")
    if cmd.player != name:
        raise ChanceError(f"the {due.kind} due here is {name}'s, not {cmd.player}'s", "chance")
    if isinstance(cmd, Draw) and cmd.deck != due.deck:
        raise ChanceError(f"{name} draws from the {due.deck} deck here, not {cmd.deck}",
                          "chance")
    valid = RULES.professions if due.deck == "profession" else (
        RULES.prestige if due.deck == "prestige" else RULES.bonus)
    for c in cmd.cards:
        if c not in valid:
            raise ChanceError(f"{c!r} is not a {due.deck} card", "chance")
    why = decks.draw_error(state.decks[due.deck], cmd.cards, due.n)
    if why:
        raise ChanceError(why, "chance-deck")
    if due.kind == "deal":
        return [ProfessionsDealt(due.seat, cmd.cards)]
    return [CardsDrawn(due.seat, due.deck, cmd.cards)]


def _decide_auction(state: State, seat: int, cmd: Command) -> list[Event]:
    if state.phase != "auction":
        raise _illegal(f"{cmd.verb!r} belongs to the auction phase; "
                       f"this is the {state.phase} phase", "phase")
    _require_turn(state, seat)
    p = state.players[seat]
    last = state.lot is None and auction_left(state) == [seat]
    if isinstance(cmd, Pass):
        return [BidPassed(seat)] if state.lot is not None else [NamingDeclined(seat)]
    if isinstance(cmd, Open):
        if state.lot is not None:
            raise _illegal(f"the {state.lot} is being auctioned: bid "
                           f"{state.price + RULES.raise_step} or pass", "auction-bidding")
        if last:
            raise _illegal("you are the last player left: no auction is held; take an object "
                           f"for {RULES.auction_open} ('take OBJECT') or pass", "auction-last")
        why = object_error(state, seat, cmd.obj)
        if why:
            raise _illegal(why, "auction-open")
        return [ObjectNamed(seat, cmd.obj, RULES.auction_open)]
    if isinstance(cmd, Take):
        if not last:
            raise _illegal("only the last player left in the auction phase takes an object "
                           "without an auction", "auction-take")
        why = object_error(state, seat, cmd.obj)
        if why:
            raise _illegal(why, "auction-take")
        price = RULES.auction_open
        return [AuctionWon(seat, cmd.obj, price, _fame_sold(p, price), taken=True)]
    assert isinstance(cmd, Bid)
    if state.lot is None:
        raise _illegal("no object is being auctioned: name one ('open OBJECT') or pass",
                       "auction-naming")
    want = state.price + RULES.raise_step
    if cmd.amount != want:
        raise _illegal(f"a bid raises by exactly {RULES.raise_step}: the next bid is {want}",
                       "auction-raise")
    if not can_pay(p, cmd.amount):
        raise _illegal(f"you cannot pay {cmd.amount}, even by selling all your fame",
                       "auction-cash")
    return [BidRaised(seat, cmd.amount)]


def _decide_action(state: State, seat: int, cmd: Command) -> list[Event]:
    if isinstance(cmd, Done):
        _require_action_turn(state, seat)
        return [TurnEnded(seat)]
    if isinstance(cmd, Recruit):
        p = _require_action_turn(state, seat)
        if p.recruiting < 1:
            raise _illegal("you have no recruiting card", "recruit-card")
        try:
            victim = state.seat_of(cmd.victim)
        except KeyError:
            raise _illegal(f"there is no player {cmd.victim!r}", "recruit-player") from None
        if victim == seat:
            raise _illegal("you may not recruit your own profession", "recruit-own")
        if cmd.profession not in state.players[victim].table:
            raise _illegal(f"{cmd.victim} has no {cmd.profession} face up on the table",
                           "recruit-face-up")
        return [Recruited(seat, cmd.profession, victim)]
    if isinstance(cmd, Build):
        p = _require_action(state, seat, "build")
        b = cmd.building
        if b not in RULES.buildings:
            raise _illegal(f"{b!r} is not a building", "build-unknown")
        if p.has_building(b):
            raise _illegal(f"you have a {b} already; each building once per principality",
                           "build-once")
        if state.buildings_left[b] <= 0:
            raise _illegal(f"no {b} is left in the supply", "build-supply")
        cost = RULES.building_cost[p.builders]
        _require_cash(p, cost, f"a {b}")
        why = _placement_error(p, b, cmd.cells, building=True)
        if why:
            raise _illegal(why, "build-placement")
        return [BuildingBuilt(seat, b, cmd.cells, cost, RULES.fame_building)]
    if isinstance(cmd, Work):
        p = _require_action(state, seat, "work")
        if cmd.profession not in p.hand:
            raise _illegal(f"you have no {cmd.profession} in hand", "work-card")
        if len(set(cmd.bonuses)) != len(cmd.bonuses):
            raise _illegal("a bonus card is named twice", "work-bonus")
        for b in cmd.bonuses:
            if b not in p.bonus_hand:
                raise _illegal(f"you have no bonus card {b} in hand", "work-bonus")
        after = played(p, cmd.profession, cmd.bonuses)
        wv = work_value(after, cmd.profession, cmd.bonuses)
        minimum = RULES.min_wv[state.round - 1]
        if wv < minimum:
            raise _illegal(f"this work is worth {wv} and round {state.round} needs at least "
                           f"{minimum}", "work-minimum")
        payment = wv * 100
        most = payment // RULES.florins_per_pp
        if cmd.pp < 0:
            raise _illegal("fame is converted from the payment, never back into money",
                           "work-pp")
        if cmd.pp > most:
            raise _illegal(f"a payment of {payment} converts into at most {most} fame",
                           "work-pp")
        return [WorkCompleted(seat, cmd.profession, cmd.bonuses, wv, payment, cmd.pp)]
    if isinstance(cmd, (TakeProfession, TakeBonus)):
        deck = "profession" if isinstance(cmd, TakeProfession) else "bonus"
        p = _require_action(state, seat, deck)
        if not decks.deck_size(state.decks[deck]):
            raise _illegal(f"the {deck} deck is empty", f"{deck}-empty")
        cost = RULES.profession_cost if deck == "profession" else RULES.bonus_cost
        _require_cash(p, cost, f"a {deck} card")
        return [CardBought(seat, deck, cost)]
    assert isinstance(cmd, Freedom)
    p = _require_action(state, seat, "freedom")
    if cmd.freedom not in FREEDOMS:
        raise _illegal(f"{cmd.freedom!r} is not a freedom", "freedom-unknown")
    if cmd.freedom in p.freedoms:
        raise _illegal(f"you have introduced {cmd.freedom} already", "freedom-once")
    if state.freedoms_left[cmd.freedom] <= 0:
        raise _illegal(f"no {cmd.freedom} freedom is left", "freedom-supply")
    _require_cash(p, RULES.freedom_cost, "a freedom")
    return [FreedomIntroduced(seat, cmd.freedom, RULES.freedom_cost)]


def played(p: Player, profession: str, bonuses: Iterable[str]) -> Player:
    hand = list(p.hand)
    hand.remove(profession)
    spent = set(bonuses)
    return replace(
        p, hand=tuple(hand), table=(*p.table, profession),
        bonus_hand=tuple(b for b in p.bonus_hand if b not in spent),
    )


def _decide_primary(state: State, seat: int, cmd: Command) -> list[Event]:
    if state.phase == "over":
        raise GameOverError("the game is over", "over")
    if isinstance(cmd, (Deal, Draw)):
        return _decide_chance(state, cmd)
    if isinstance(cmd, (Undo, Agree, Refuse)):
        raise IllegalMoveError(f"'{cmd.verb}' is decided by engine.undo.play, which knows "
                               "the last command and the pending request", "undo")
    if not 0 <= seat < len(state.players):
        raise IllegalMoveError("unknown seat", "seat")
    if isinstance(cmd, Sell):
        p = state.players[seat]
        if cmd.steps < 1:
            raise _illegal("sell at least 1 step of fame", "sell")
        if cmd.steps > p.fame:
            raise _illegal(f"you have {p.fame} fame; fame never goes below 0", "sell")
        return [FameSold(seat, cmd.steps)]
    pending = state.pending
    if pending is not None:
        if pending.kind in ("deal", "draw"):
            raise NotYourTurnError(f"a {pending.kind} for {state.players[pending.seat].name} "
                                   "is due first", "chance")
        if pending.seat != seat:
            raise NotYourTurnError(f"{state.players[pending.seat].name} must first "
                                   f"{pending.kind} a {pending.tile or 'card'}", "turn")
        if pending.kind == "choose":
            if not isinstance(cmd, Choose):
                raise _illegal(f"first keep one of the {pending.deck} cards you drew "
                               "('choose CARD')", "choose")
            if cmd.card not in pending.cards:
                raise _illegal(f"{cmd.card!r} is not among the cards you drew", "choose")
            returned = tuple(c for c in pending.cards if c != cmd.card)
            return [CardChosen(seat, pending.deck, cmd.card, returned)]
        if not isinstance(cmd, Place):
            raise _illegal(f"first place the {pending.tile} you won ('place {pending.tile} "
                           "CELLS')", "place")
        if cmd.landscape != pending.tile:
            raise _illegal(f"you won a {pending.tile}, not a {cmd.landscape}", "place")
        p = state.players[seat]
        why = _placement_error(p, cmd.landscape, cmd.cells, building=False)
        if why:
            raise _illegal(why, "place-placement")
        fame = RULES.fame_extra_landscape if p.count_landscape(cmd.landscape) else 0
        return [LandscapePlaced(seat, cmd.landscape, cmd.cells, fame)]
    if isinstance(cmd, (Choose, Place)):
        raise _illegal(f"there is nothing to {cmd.verb} now", cmd.verb)
    if isinstance(cmd, Keep):
        p = state.players[seat]
        if state.phase != "keep" or not p.dealt:
            raise _illegal("professions are kept once, right after the deal", "keep")
        if len(cmd.cards) != RULES.professions_kept or len(set(cmd.cards)) != len(cmd.cards):
            raise _illegal(f"keep {RULES.professions_kept} different professions", "keep")
        for c in cmd.cards:
            if c not in p.dealt:
                raise _illegal(f"{c!r} was not dealt to you", "keep")
        returned = tuple(c for c in p.dealt if c not in cmd.cards)
        return [ProfessionsKept(seat, cmd.cards, returned)]
    if state.phase in ("deal", "keep"):
        raise _illegal("the game starts once every player has kept 3 professions", "setup")
    if isinstance(cmd, (Open, Bid, Pass, Take)):
        return _decide_auction(state, seat, cmd)
    return _decide_action(state, seat, cmd)


def _automatic(state: State) -> list[Event]:
    """The events that follow by themselves from this state, if any."""
    if state.pending is not None:
        return []
    players = state.players
    if state.phase == "keep":
        if all(not p.dealt for p in players):
            return [RoundStarted(1, 0)]
        return []
    if state.phase == "auction":
        if state.lot is not None and state.turn is None:
            assert state.high is not None
            p = players[state.high]
            return [AuctionWon(state.high, state.lot, state.price, _fame_sold(p, state.price))]
        if state.lot is None and state.turn is None:
            return [AuctionEnded(state.round)]
        return []
    if state.phase == "action":
        if state.turn is None:
            best = max(p.best_wv for p in players)
            seats = tuple(i for i, p in enumerate(players) if best and p.best_wv == best)
            return [RoundEnded(state.round, seats, best)]
        p = players[state.turn]
        if p.actions >= RULES.limits["actions"]:
            return [TurnEnded(state.turn)]
        return []
    if state.phase == "roundend":
        if state.round < RULES.rounds:
            return [RoundStarted(state.round + 1, (state.start + 1) % len(players))]
        out: list[Event] = [
            PrestigeScored(seat, card, prestige_points(players, seat, card))
            for seat, p in enumerate(players) for card in p.prestige_hand
        ]
        return out or [_game_ended(players)]
    if state.phase == "scored":
        return [_game_ended(players)]
    return []


def _game_ended(players: Sequence[Player]) -> GameEnded:
    """Most fame wins, then most florins; a tie that remains is shared (R16)."""
    final = [(p.fame, p.florins) for p in players]
    top = max(final)
    return GameEnded(tuple(i for i, f in enumerate(final) if f == top))


def decide(state: State, seat: int, cmd: Command) -> list[Event]:
    """The events a command causes, followed by those that follow automatically.

    `seat` is the acting player (ignored for deals and draws, which chance makes).

    Raises:
        IllegalMoveError: the command breaks a rule (NotYourTurnError, GameOverError
            and ChanceError are kinds of it). The state is never changed.
    """
    return apply(state, seat, cmd)[1]


def apply(state: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
    """Decide a command and fold its events: the new state and the events.

    Raises:
        IllegalMoveError: as `decide`.
    """
    events = _decide_primary(state, seat, cmd)
    for e in events:
        state = evolve(state, e)
    while True:
        more = _automatic(state)
        if not more:
            return state, events
        for e in more:
            state = evolve(state, e)
        events.extend(more)


def replay(events: Iterable[Event]) -> State:
    """The state after a sequence of events, starting with GameStarted.

    A `Reverted` event brings back the state at its `to_version` (the events in
    between stay in the log but no longer count); the version keeps counting.
    """
    it = iter(events)
    first = next(it)
    assert isinstance(first, GameStarted)
    state = new_state(first)
    history = [state]
    for e in it:
        if isinstance(e, Reverted):
            state = replace(history[e.to_version - 1], version=state.version + 1)
        else:
            state = evolve(state, e)
        history.append(state)
    return state


# Events that no undo may cross: chance, and hidden information made known.
UNDO_BARRIERS = (ProfessionsDealt, ProfessionsKept, CardsDrawn, CardChosen, WorkCompleted,
                 GameEnded, Reverted)


def undo_error(events: Sequence[Event], to_version: int) -> str | None:
    """Why the game may not go back to `to_version` (events[:to_version] kept), or None.

    An undo never crosses a deal or draw, a choice among drawn cards, a work (it
    shows a card from hand), the end of the game or another undo.
    """
    if not 1 <= to_version < len(events):
        return "there is nothing to undo"
    return crossing_error(events[to_version:])


def crossing_error(undone: Iterable[Event]) -> str | None:
    """Why the events `undone` may not be taken back (see `undo_error`), or None."""
    for e in undone:
        if isinstance(e, UNDO_BARRIERS):
            return ("an undo may not go back past a deal, a draw, a choice of cards, "
                    "a work or another undo")
    return None


# --------------------------------------------------------------------------- evolve


def _next_seat(state: State, after: int, ok: Callable[[int], bool]) -> int | None:
    n = len(state.players)
    for i in range(1, n + 1):
        s = (after + i) % n
        if ok(s):
            return s
    return None


def _next_bidder(state: State, after: int) -> int | None:
    lot = state.lot
    assert lot is not None
    return _next_seat(
        state, after,
        lambda s: s != state.high and s not in state.passed and state.in_auction(s)
        and can_acquire(state, s, lot),
    )


def _next_namer(state: State) -> int | None:
    if state.in_auction(state.namer):
        return state.namer
    return _next_seat(state, state.namer, state.in_auction)


def _set(players: tuple[Player, ...], seat: int, p: Player) -> tuple[Player, ...]:
    return players[:seat] + (p,) + players[seat + 1:]


def _count(used: Mapping[str, int], kind: str) -> dict[str, int]:
    d = dict(used)
    d[kind] = d.get(kind, 0) + 1
    return d


def _with_turn(fresh: State, turn: int | None) -> State:
    """Set whose turn it is on a state copy that `_evolve` has just made."""
    _set_attr(fresh, "turn", turn)
    return fresh


def _after_pending(fresh: State) -> State:
    """Where play goes once a won object's placement or choice is done (on a fresh copy)."""
    if fresh.phase == "auction":
        return _with_turn(fresh, _next_namer(fresh))
    return fresh


def evolve(state: State, event: Event) -> State:
    """Fold one event into the state. Never validates: a failure is a bug."""
    s = _evolve(state, event)
    _set_attr(s, "version", state.version + 1)  # s is a fresh copy made by _evolve
    return s


def _on_game_started(state: State, e: GameStarted) -> State:
    n = len(e.players)
    return State(
        players=tuple(Player(name, RULES.start_florins) for name in e.players),
        variant=e.variant, money_open=e.money_open, seeded=e.seeded, edition=e.edition,
        phase="deal",
        stacks=dict(RULES.stacks),
        buildings_left=dict.fromkeys(RULES.buildings, RULES.building_copies),
        freedoms_left=dict.fromkeys(FREEDOMS, n - 1),
        decks={
            "profession": decks.new_deck(RULES.professions),
            "prestige": decks.new_deck(RULES.prestige),
            "bonus": decks.new_deck(RULES.bonus),
        },
        pending=Pending("deal", 0, "profession", RULES.professions_dealt),
    )


def _on_professions_dealt(state: State, e: ProfessionsDealt) -> State:
    R = replace
    players = state.players
    deck = decks.remove_drawn(state.decks["profession"], e.cards)
    players = _set(players, e.seat, R(players[e.seat], dealt=e.cards))
    nxt = e.seat + 1
    pending = (Pending("deal", nxt, "profession", RULES.professions_dealt)
               if nxt < len(players) else None)
    return R(state, players=players, decks={**state.decks, "profession": deck},
             pending=pending, phase="deal" if pending else "keep")


def _on_professions_kept(state: State, e: ProfessionsKept) -> State:
    R = replace
    players = state.players
    deck = decks.new_deck(chain(*state.decks["profession"], e.returned))
    players = _set(players, e.seat, R(players[e.seat], dealt=(), hand=e.kept))
    return R(state, players=players, decks={**state.decks, "profession": deck})


def _on_round_started(state: State, e: RoundStarted) -> State:
    R = replace
    players = tuple(
        R(p, actions=0, used={}, best_wv=0, won=False, out=False, turn_done=False)
        for p in state.players)
    return R(state, players=players, phase="auction", round=e.round, start=e.start,
             turn=e.start, namer=e.start, lot=None, high=None, price=0,
             passed=frozenset(), marked=frozenset())


def _on_object_named(state: State, e: ObjectNamed) -> State:
    R = replace
    s = R(state, lot=e.obj, high=e.seat, price=e.price, passed=frozenset(), namer=e.seat)
    return _with_turn(s, _next_bidder(s, e.seat))


def _on_bid_raised(state: State, e: BidRaised) -> State:
    R = replace
    s = R(state, high=e.seat, price=e.amount)
    return _with_turn(s, _next_bidder(s, e.seat))


def _on_bid_passed(state: State, e: BidPassed) -> State:
    R = replace
    s = R(state, passed=state.passed | {e.seat})
    return _with_turn(s, _next_bidder(s, e.seat))


def _on_naming_declined(state: State, e: NamingDeclined) -> State:
    R = replace
    players = state.players
    s = R(state, players=_set(players, e.seat, R(players[e.seat], out=True)))
    return _with_turn(s, _next_namer(s))


def _on_auction_won(state: State, e: AuctionWon) -> State:
    R = replace
    players = state.players
    p = players[e.seat]
    p = R(p, won=True, fame=p.fame - e.fame_sold,
          florins=p.florins + e.fame_sold * RULES.fame_step_florins - e.price)
    stacks = dict(state.stacks)
    pending = None
    if e.obj == "prestige":
        n = min(RULES.draw, decks.deck_size(state.decks["prestige"]))
        pending = Pending("draw", e.seat, "prestige", n)
    else:
        stacks[e.obj] -= 1
        if e.obj in LANDSCAPES:
            pending = Pending("place", e.seat, tile=e.obj)
        elif e.obj == "jester":
            p = R(p, jesters=p.jesters + 1)
        elif e.obj == "builder":
            p = R(p, builders=p.builders + 1, fame=p.fame + RULES.fame_builder[p.builders])
        else:
            p = R(p, recruiting=p.recruiting + 1)
    s = R(state, players=_set(players, e.seat, p), stacks=stacks, lot=None, high=None,
          price=0, passed=frozenset(), marked=state.marked | {e.obj}, pending=pending,
          turn=None)
    return s if pending else _after_pending(s)


def _on_auction_ended(state: State, e: AuctionEnded) -> State:
    R = replace
    return R(state, phase="action", turn=state.start)


def _on_cards_drawn(state: State, e: CardsDrawn) -> State:
    R = replace
    deck = decks.remove_drawn(state.decks[e.deck], e.cards)
    return R(state, decks={**state.decks, e.deck: deck},
             pending=Pending("choose", e.seat, e.deck, cards=e.cards))


def _on_card_chosen(state: State, e: CardChosen) -> State:
    R = replace
    players = state.players
    p = players[e.seat]
    if e.deck == "profession":
        p = R(p, hand=(*p.hand, e.card))
    elif e.deck == "bonus":
        p = R(p, bonus_hand=(*p.bonus_hand, e.card))
    else:
        p = R(p, prestige_hand=(*p.prestige_hand, e.card))
    deck = decks.put_under(state.decks[e.deck], e.returned)
    s = R(state, players=_set(players, e.seat, p), decks={**state.decks, e.deck: deck},
          pending=None)
    return _after_pending(s)


def _on_landscape_placed(state: State, e: LandscapePlaced) -> State:
    R = replace
    players = state.players
    p = players[e.seat]
    p = R(p, landscapes=(*p.landscapes, (e.landscape, e.cells)),
          occupied=p.occupied | grid.mask_of(e.cells), fame=p.fame + e.fame)
    return _after_pending(R(state, players=_set(players, e.seat, p), pending=None))


def _on_building_built(state: State, e: BuildingBuilt) -> State:
    R = replace
    players = state.players
    p = players[e.seat]
    mask = grid.mask_of(e.cells)
    p = R(p, buildings=(*p.buildings, (e.building, e.cells)), occupied=p.occupied | mask,
          building_cells=p.building_cells | mask, florins=p.florins - e.cost,
          fame=p.fame + e.fame, actions=p.actions + 1, used=_count(p.used, "build"))
    left = {**state.buildings_left, e.building: state.buildings_left[e.building] - 1}
    return R(state, players=_set(players, e.seat, p), buildings_left=left)


def _on_work_completed(state: State, e: WorkCompleted) -> State:
    R = replace
    players = state.players
    p = played(players[e.seat], e.profession, e.bonuses)
    p = R(p, florins=p.florins + e.payment - e.pp * RULES.florins_per_pp,
          fame=p.fame + e.pp, best_wv=max(p.best_wv, e.wv), actions=p.actions + 1,
          used=_count(p.used, "work"))
    return R(state, players=_set(players, e.seat, p))


def _on_card_bought(state: State, e: CardBought) -> State:
    R = replace
    players = state.players
    p = players[e.seat]
    p = R(p, florins=p.florins - e.cost, actions=p.actions + 1, used=_count(p.used, e.deck))
    n = min(RULES.draw, decks.deck_size(state.decks[e.deck]))
    return R(state, players=_set(players, e.seat, p),
             pending=Pending("draw", e.seat, e.deck, n))


def _on_freedom_introduced(state: State, e: FreedomIntroduced) -> State:
    R = replace
    players = state.players
    p = players[e.seat]
    p = R(p, freedoms=(*p.freedoms, e.freedom), florins=p.florins - e.cost,
          actions=p.actions + 1, used=_count(p.used, "freedom"))
    left = {**state.freedoms_left, e.freedom: state.freedoms_left[e.freedom] - 1}
    return R(state, players=_set(players, e.seat, p), freedoms_left=left)


def _on_recruited(state: State, e: Recruited) -> State:
    R = replace
    players = state.players
    p = players[e.seat]
    v = players[e.victim]
    table = list(v.table)
    table.remove(e.profession)
    players = _set(players, e.seat, R(p, recruiting=p.recruiting - 1,
                                      hand=(*p.hand, e.profession)))
    players = _set(players, e.victim, R(v, table=tuple(table), recruiters=v.recruiters + 1))
    return R(state, players=players)


def _on_fame_sold(state: State, e: FameSold) -> State:
    R = replace
    players = state.players
    p = players[e.seat]
    p = R(p, fame=p.fame - e.steps, florins=p.florins + e.steps * RULES.fame_step_florins)
    return R(state, players=_set(players, e.seat, p))


def _on_turn_ended(state: State, e: TurnEnded) -> State:
    R = replace
    players = state.players
    s = R(state, players=_set(players, e.seat, R(players[e.seat], turn_done=True)))
    return _with_turn(s, _next_seat(s, e.seat, lambda i: not s.players[i].turn_done))


def _on_round_ended(state: State, e: RoundEnded) -> State:
    R = replace
    players = tuple(R(p, fame=p.fame + RULES.fame_best_work) if i in e.best else p
                    for i, p in enumerate(state.players))
    return R(state, players=players, phase="roundend", turn=None)


def _on_prestige_scored(state: State, e: PrestigeScored) -> State:
    R = replace
    players = state.players
    p = players[e.seat]
    return R(state, players=_set(players, e.seat, R(p, fame=p.fame + e.fame)),
             phase="scored")


def _on_game_ended(state: State, e: GameEnded) -> State:
    R = replace
    return R(state, phase="over", winners=e.winners, turn=None)


_EVOLVE: dict[type[Any], Callable[[State, Any], State]] = {
    GameStarted: _on_game_started,
    ProfessionsDealt: _on_professions_dealt,
    ProfessionsKept: _on_professions_kept,
    RoundStarted: _on_round_started,
    ObjectNamed: _on_object_named,
    BidRaised: _on_bid_raised,
    BidPassed: _on_bid_passed,
    NamingDeclined: _on_naming_declined,
    AuctionWon: _on_auction_won,
    AuctionEnded: _on_auction_ended,
    CardsDrawn: _on_cards_drawn,
    CardChosen: _on_card_chosen,
    LandscapePlaced: _on_landscape_placed,
    BuildingBuilt: _on_building_built,
    WorkCompleted: _on_work_completed,
    CardBought: _on_card_bought,
    FreedomIntroduced: _on_freedom_introduced,
    Recruited: _on_recruited,
    FameSold: _on_fame_sold,
    TurnEnded: _on_turn_ended,
    RoundEnded: _on_round_ended,
    PrestigeScored: _on_prestige_scored,
    GameEnded: _on_game_ended,
}


def _evolve(state: State, e: Event) -> State:
    handler = _EVOLVE.get(type(e))
    if handler is None:
        if isinstance(e, Reverted):
            raise AssertionError("a Reverted event needs the history: use replay()")
        raise AssertionError(f"unknown event {e!r}")
    return handler(state, e)
