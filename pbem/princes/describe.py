"""Words for players: events and legal commands as short lines of text.

Everything here works on what one seat may see: events already redacted for that
seat (`engine.princes.views.events_visible_to`) and the seat's own legal commands. A
private event of another seat is described without its cards, whatever it holds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from engine.princes.commands import (
    Agree,
    Bid,
    Build,
    CharacterBid,
    Choose,
    Command,
    Done,
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
    Use,
    Work,
)
from engine.princes.court import (
    CharacterBidPlaced,
    CharacterPassed,
    CharactersEnded,
    CharacterUsed,
    CharacterWon,
    PrincessWork,
)
from engine.princes.events import (
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
    FreedomsAdded,
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
from notation.princes import format_command
from notation.words import article


def _cards(cards: Sequence[str]) -> str:
    return ", ".join(cards)


def describe_event(e: Event, names: Sequence[str], viewer: int | None) -> str:  # noqa: C901
    """One line about an event, as `viewer` may read it ("you" for the viewer)."""
    seat = getattr(e, "seat", None)
    own = seat is not None and seat == viewer
    who = "you" if own else (names[seat] if seat is not None else "")
    match e:
        case GameStarted(players=players):
            return f"the game started: {', '.join(players)}"
        case ProfessionsDealt(cards=cards):
            return f"you were dealt {_cards(cards)}" if own else \
                f"{who} was dealt {len(cards)} professions"
        case ProfessionsKept(kept=kept, returned=returned):
            if own:
                return f"you kept {_cards(kept)} and returned {_cards(returned)}"
            return f"{who} kept {len(kept)} professions"
        case RoundStarted(round=rnd, start=start):
            return f"round {rnd} began; {'you start' if start == viewer else names[start]}" + \
                ("" if start == viewer else " starts")
        case FreedomsAdded(freedoms=added):
            return ("the supply holds one freedom of each type and a second "
                    + " and a second ".join(added))
        case ObjectNamed(obj="landscape", price=price):
            return (f"{who} put the landscape lot up for auction at {price} (its winner "
                    "chooses forest, lake or park)")
        case ObjectNamed(obj=obj, price=price):
            return f"{who} put the {obj} up for auction at {price}"
        case BidRaised(amount=amount):
            return f"{who} bid {amount}"
        case BidPassed():
            return f"{who} passed"
        case NamingDeclined():
            return f"{who} named nothing and sit{'' if own else 's'} out this auction phase"
        case AuctionWon(obj=obj, price=price, fame_sold=sold, taken=taken):
            verb = "took" if taken else "won"
            extra = f", selling {sold} fame" if sold else ""
            if obj == "landscape":
                return (f"{who} {verb} the landscape lot for {price}{extra} (no other "
                        "landscape this round)")
            return f"{who} {verb} the {obj} for {price}{extra}"
        case AuctionEnded(round=rnd):
            return f"the auction phase of round {rnd} ended; the action phase begins"
        case CardsDrawn(deck=deck, cards=cards):
            if own:
                return f"you drew {deck} cards: {_cards(cards)} (choose one)"
            return f"{who} drew {len(cards)} {deck} cards"
        case CardChosen(deck=deck, card=card, returned=returned):
            if own:
                back = f"; {_cards(returned)} went under the deck" if returned else ""
                return f"you kept the {deck} card {card}{back}"
            return f"{who} kept one {deck} card"
        case LandscapePlaced(landscape=land, cells=cells, fame=fame):
            extra = f" (+{fame} fame)" if fame else ""
            return f"{who} placed the {land} on {' '.join(cells)}{extra}"
        case BuildingBuilt(building=b, cells=cells, cost=cost, fame=fame):
            return f"{who} built {article(b)} on {' '.join(cells)} for {cost} (+{fame} fame)"
        case WorkCompleted(profession=prof, bonuses=bonuses, wv=wv, payment=pay, pp=pp):
            bonus = f" with {_cards(bonuses)}" if bonuses else ""
            taking = f", taking {pp} fame" if pp else ""
            return f"{who} completed a work: {prof}{bonus}, work value {wv}, paid {pay}{taking}"
        case CardBought(deck=deck, cost=cost):
            return f"{who} paid {cost} for {article(deck)} card"
        case FreedomIntroduced(freedom=f, cost=cost):
            return f"{who} introduced {f} for {cost}"
        case Recruited(profession=prof, victim=victim):
            whom = "you" if victim == viewer else names[victim]
            return f"{who} recruited the {prof} from {whom}"
        case FameSold(steps=steps):
            return f"{who} sold {steps} fame"
        case TurnEnded():
            return f"{who} ended {'your' if own else 'their'} turn"
        case RoundEnded(round=rnd, best=best, wv=wv):
            if best:
                winners = ", ".join("you" if b == viewer else names[b] for b in best)
                return f"round {rnd} ended; best work (value {wv}): {winners}"
            return f"round {rnd} ended"
        case PrestigeScored(card=card, fame=fame):
            return f"{who} scored the prestige card {card}: +{fame} fame"
        case Reverted(to_version=to):
            return f"{who} asked for an undo, agreed by all: the game went back to v{to}"
        case CharacterBidPlaced(character=c, amount=amount):
            return f"{who} bid {amount} on the {c}"
        case CharacterPassed():
            return f"{who} passed in the character auction"
        case CharacterWon(character=c, price=price, money=money):
            took = f" and took the {money} florins on it" if money else ""
            return f"{who} won the {c} for {price}{took}"
        case CharactersEnded(round=rnd, banker=banker):
            return (f"the character auction of round {rnd} ended ({banker} florins on the "
                    "Banker); the action phase begins")
        case CharacterUsed(character="professor", what=deck):
            return f"{who} used the professor: a free {deck} card"
        case CharacterUsed(character="banker", fame=fame, florins=florins):
            return f"{who} turned {-florins} florins into {fame} fame with the banker"
        case CharacterUsed(character=c, what="free", florins=florins):
            return f"{who} used the {c}: the object won is free ({florins} back)"
        case CharacterUsed(character=c, fame=fame):
            return f"{who} used the {c}: +{fame} fame"
        case PrincessWork(wv=wv, payment=pay, pp=pp):
            taking = f", taking {pp} fame" if pp else ""
            return f"{who} completed a work with the princess: work value {wv}, paid {pay}{taking}"
        case GameEnded(winners=winners):
            return "the game ended; " + ("winner: " if len(winners) == 1 else "winners: ") + \
                ", ".join("you" if w == viewer else names[w] for w in winners)
    return type(e).__name__  # pragma: no cover - every event type is listed above


def _range(values: Sequence[int]) -> str:
    lo, hi = min(values), max(values)
    return str(lo) if lo == hi else f"{lo}-{hi}"


def summarise_commands(cmds: Sequence[Command], building_cost: int | None = None) -> list[str]:
    """The legal commands of one seat, grouped so a mail lists tens of lines rather
    than thousands of placements: builds and placements as templates with examples,
    works per profession with their pp range, sells as a range."""
    out: list[str] = []
    builds: dict[str, list[Build]] = defaultdict(list)
    places: dict[str, list[Place]] = defaultdict(list)
    works: dict[str, list[Work]] = defaultdict(list)
    opens: list[str] = []
    takes: list[str] = []
    sells: list[int] = []
    freedoms: list[str] = []
    singles: list[str] = []
    characters: dict[str, list[int]] = defaultdict(list)
    princess: list[int] = []
    banker: list[int] = []
    for c in cmds:
        match c:
            case CharacterBid():
                characters[c.character].append(c.amount)
            case Build():
                builds[c.building].append(c)
            case Place():
                places[c.landscape].append(c)
            case Work():
                works[c.profession].append(c)
            case Open():
                opens.append(c.obj)
            case Take():
                takes.append(c.obj)
            case Sell():
                sells.append(c.steps)
            case Freedom():
                freedoms.append(c.freedom)
            case Use(character="princess"):
                princess.append(c.pp)
            case Use(character="banker"):
                banker.append(c.pp)
            case Keep() | Choose() | Bid() | Pass() | Recruit() | TakeProfession() | Use() \
                    | TakeBonus() | Done() | Undo() | Agree() | Refuse():
                singles.append(format_command(c))
    if opens:
        out.append(f"open <object>   objects you may name: {', '.join(opens)}")
    if takes:
        out.append(f"take <object>   objects you may take: {', '.join(takes)}")
    for land, ps in places.items():
        examples = "; ".join(format_command(p) for p in ps[:3])
        out.append(f"place {land} <cells>   {len(ps)} listed placements, e.g. {examples}")
    if builds:
        cost = f" (cost {building_cost})" if building_cost is not None else ""
        out.append(f"build <building> <cells>{cost}   buildings you can build: "
                   + ", ".join(builds))
        for bs in builds.values():
            out.append(f"    e.g. {format_command(bs[0])}   ({len(bs)} listed placements)")
    for prof, ws in works.items():
        bonus_sets = sorted({w.bonuses for w in ws if w.bonuses}, key=len)
        pp = _range([w.pp for w in ws])
        line = f"work {prof} [pp N]   pp {pp}"
        if bonus_sets:
            usable = sorted({b for s in bonus_sets for b in s})
            line += f"; bonus cards you may add: {' '.join('+' + b for b in usable)}"
        out.append(line)
    if freedoms:
        out.append(f"freedom <freedom>   {', '.join(freedoms)}")
    if princess:
        out.append(f"use princess [pp N]   a work without a profession card; pp {_range(princess)}")
    if banker:
        out.append(f"use banker pp N   N = {_range(banker)} (200 florins a point)")
    if characters:
        out.append("bid <character> <florins>   "
                   + ", ".join(f"{c} {_range(a)}" for c, a in characters.items()))
    out.extend(singles)
    if sells:
        out.append(f"sell N   N = {_range(sells)} (100 florins per step of fame; any time)")
    return out
