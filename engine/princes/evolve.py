"""Folding events into state: one handler per event type. `evolve` never checks
anything (the event was decided already): a failure here is a bug. The numbers come
from the variant's rules that the state carries."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import chain
from typing import Any

from engine import decks

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
from .queries import can_acquire, played
from .ruleset import FREEDOMS, LANDSCAPES, rules_for
from .state import Pending, Player, State, replace

_set_attr = object.__setattr__


def evolve(state: State, event: Event) -> State:
    """Fold one event into the state. Never validates: a failure is a bug."""
    s = _evolve(state, event)
    _set_attr(s, "version", state.version + 1)  # s is a fresh copy made by _evolve
    return s


def started_state(e: GameStarted) -> State:
    """The state right after the first event: the variant's rules, stacks and decks,
    and the first deal due."""
    rules = rules_for(e.variant)
    return State(
        players=tuple(Player(name, rules.start_florins) for name in e.players),
        rules=rules,
        variant=e.variant, money_open=e.money_open, seeded=e.seeded, edition=e.edition,
        phase="deal",
        stacks=dict(rules.stacks),
        buildings_left=dict.fromkeys(rules.buildings, rules.building_copies),
        freedoms_left=dict.fromkeys(FREEDOMS, len(e.players) - 1),
        decks={
            "profession": decks.new_deck(rules.professions),
            "prestige": decks.new_deck(rules.prestige),
            "bonus": decks.new_deck(rules.bonus),
        },
        pending=Pending("deal", 0, "profession", rules.professions_dealt),
        version=1,
    )


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


def _on_game_started(state: State, e: GameStarted) -> State:
    return started_state(e)


def _on_professions_dealt(state: State, e: ProfessionsDealt) -> State:
    R = replace
    players = state.players
    deck = decks.remove_drawn(state.decks["profession"], e.cards)
    players = _set(players, e.seat, R(players[e.seat], dealt=e.cards))
    nxt = e.seat + 1
    pending = (Pending("deal", nxt, "profession", state.rules.professions_dealt)
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
    rules = state.rules
    players = state.players
    p = players[e.seat]
    p = R(p, won=True, fame=p.fame - e.fame_sold,
          florins=p.florins + e.fame_sold * rules.fame_step_florins - e.price)
    stacks = dict(state.stacks)
    pending = None
    if e.obj == "prestige":
        n = min(rules.draw, decks.deck_size(state.decks["prestige"]))
        pending = Pending("draw", e.seat, "prestige", n)
    else:
        stacks[e.obj] -= 1
        if e.obj in LANDSCAPES:
            pending = Pending("place", e.seat, tile=e.obj)
        elif e.obj == "jester":
            p = R(p, jesters=p.jesters + 1)
        elif e.obj == "builder":
            p = R(p, builders=p.builders + 1, fame=p.fame + rules.fame_builder[p.builders])
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
          occupied=p.occupied | state.rules.grid.mask_of(e.cells), fame=p.fame + e.fame)
    return _after_pending(R(state, players=_set(players, e.seat, p), pending=None))


def _on_building_built(state: State, e: BuildingBuilt) -> State:
    R = replace
    players = state.players
    p = players[e.seat]
    mask = state.rules.grid.mask_of(e.cells)
    p = R(p, buildings=(*p.buildings, (e.building, e.cells)), occupied=p.occupied | mask,
          building_cells=p.building_cells | mask, florins=p.florins - e.cost,
          fame=p.fame + e.fame, actions=p.actions + 1, used=_count(p.used, "build"))
    left = {**state.buildings_left, e.building: state.buildings_left[e.building] - 1}
    return R(state, players=_set(players, e.seat, p), buildings_left=left)


def _on_work_completed(state: State, e: WorkCompleted) -> State:
    R = replace
    players = state.players
    p = played(players[e.seat], e.profession, e.bonuses)
    p = R(p, florins=p.florins + e.payment - e.pp * state.rules.florins_per_pp,
          fame=p.fame + e.pp, best_wv=max(p.best_wv, e.wv), actions=p.actions + 1,
          used=_count(p.used, "work"))
    return R(state, players=_set(players, e.seat, p))


def _on_card_bought(state: State, e: CardBought) -> State:
    R = replace
    players = state.players
    p = players[e.seat]
    p = R(p, florins=p.florins - e.cost, actions=p.actions + 1, used=_count(p.used, e.deck))
    n = min(state.rules.draw, decks.deck_size(state.decks[e.deck]))
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
    step = state.rules.fame_step_florins
    p = R(p, fame=p.fame - e.steps, florins=p.florins + e.steps * step)
    return R(state, players=_set(players, e.seat, p))


def _on_turn_ended(state: State, e: TurnEnded) -> State:
    R = replace
    players = state.players
    s = R(state, players=_set(players, e.seat, R(players[e.seat], turn_done=True)))
    return _with_turn(s, _next_seat(s, e.seat, lambda i: not s.players[i].turn_done))


def _on_round_ended(state: State, e: RoundEnded) -> State:
    R = replace
    players = tuple(R(p, fame=p.fame + state.rules.fame_best_work) if i in e.best else p
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
