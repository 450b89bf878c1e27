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
from pbem.i18n import current_language, tr
from pbem.i18n import gettext as _

from .terms import name, names


def _cards(cards: Sequence[str]) -> str:
    return names(cards)


def _a(word: str) -> str:
    """A thing with its article in English ("an opera"), its name in other languages."""
    return article(word) if current_language() == "en" else name(word)


def describe_event(e: Event, players: Sequence[str], viewer: int | None) -> str:  # noqa: C901
    """One line about an event, as `viewer` may read it ("you" for the viewer), in the
    current language (`pbem.i18n`)."""
    seat = getattr(e, "seat", None)
    own = seat is not None and seat == viewer
    who = _("you") if own else (players[seat] if seat is not None else "")

    def whom(s: int) -> str:
        return _("you") if s == viewer else players[s]

    match e:
        case GameStarted(players=names_):
            return tr("the game started: %(players)s", players=", ".join(names_))
        case ProfessionsDealt(cards=cards):
            return tr("you were dealt %(cards)s", cards=_cards(cards)) if own else \
                tr("%(who)s was dealt %(n)s professions", who=who, n=len(cards))
        case ProfessionsKept(kept=kept, returned=returned):
            if own:
                return tr("you kept %(kept)s and returned %(returned)s", kept=_cards(kept),
                          returned=_cards(returned))
            return tr("%(who)s kept %(n)s professions", who=who, n=len(kept))
        case RoundStarted(round=rnd, start=start):
            if start == viewer:
                return tr("round %(round)s began; you start", round=rnd)
            return tr("round %(round)s began; %(who)s starts", round=rnd, who=players[start])
        case FreedomsAdded(freedoms=added):
            return tr("the supply holds one freedom of each type and a second %(freedoms)s",
                      freedoms=_(" and a second ").join(name(f) for f in added))
        case ObjectNamed(obj="landscape", price=price):
            return tr("%(who)s put the landscape lot up for auction at %(price)s (its winner "
                      "chooses forest, lake or park)", who=who, price=price)
        case ObjectNamed(obj=obj, price=price):
            return tr("%(who)s put the %(object)s up for auction at %(price)s", who=who,
                      object=name(obj), price=price)
        case BidRaised(amount=amount):
            return tr("%(who)s bid %(amount)s", who=who, amount=amount)
        case BidPassed():
            return tr("%(who)s passed", who=who)
        case NamingDeclined():
            if own:
                return _("you named nothing and sit out this auction phase")
            return tr("%(who)s named nothing and sits out this auction phase", who=who)
        case AuctionWon(obj=obj, price=price, fame_sold=sold, taken=taken):
            extra = tr(", selling %(n)s fame", n=sold) if sold else ""
            if obj == "landscape":
                if taken:
                    return tr("%(who)s took the landscape lot for %(price)s%(extra)s (no other "
                              "landscape this round)", who=who, price=price, extra=extra)
                return tr("%(who)s won the landscape lot for %(price)s%(extra)s (no other "
                          "landscape this round)", who=who, price=price, extra=extra)
            if taken:
                return tr("%(who)s took the %(object)s for %(price)s%(extra)s", who=who,
                          object=name(obj), price=price, extra=extra)
            return tr("%(who)s won the %(object)s for %(price)s%(extra)s", who=who,
                      object=name(obj), price=price, extra=extra)
        case AuctionEnded(round=rnd):
            return tr("the auction phase of round %(round)s ended; the action phase begins",
                      round=rnd)
        case CardsDrawn(deck=deck, cards=cards):
            if own:
                return tr("you drew %(deck)s cards: %(cards)s (choose one)", deck=name(deck),
                          cards=_cards(cards))
            return tr("%(who)s drew %(n)s %(deck)s cards", who=who, n=len(cards),
                      deck=name(deck))
        case CardChosen(deck=deck, card=card, returned=returned):
            if own:
                back = tr("; %(cards)s went under the deck", cards=_cards(returned)) \
                    if returned else ""
                return tr("you kept the %(deck)s card %(card)s%(back)s", deck=name(deck),
                          card=name(card), back=back)
            return tr("%(who)s kept one %(deck)s card", who=who, deck=name(deck))
        case LandscapePlaced(landscape=land, cells=cells, fame=fame):
            extra = tr(" (+%(n)s fame)", n=fame) if fame else ""
            return tr("%(who)s placed the %(landscape)s on %(cells)s%(extra)s", who=who,
                      landscape=name(land), cells=" ".join(cells), extra=extra)
        case BuildingBuilt(building=b, cells=cells, cost=cost, fame=fame):
            return tr("%(who)s built %(building)s on %(cells)s for %(cost)s (+%(fame)s fame)",
                      who=who, building=_a(b), cells=" ".join(cells), cost=cost, fame=fame)
        case WorkCompleted(profession=prof, bonuses=bonuses, wv=wv, payment=pay, pp=pp):
            bonus = tr(" with %(cards)s", cards=_cards(bonuses)) if bonuses else ""
            taking = tr(", taking %(n)s fame", n=pp) if pp else ""
            return tr("%(who)s completed a work: %(profession)s%(bonus)s, work value %(wv)s, "
                      "paid %(paid)s%(taking)s", who=who, profession=name(prof), bonus=bonus,
                      wv=wv, paid=pay, taking=taking)
        case CardBought(deck=deck, cost=cost):
            return tr("%(who)s paid %(cost)s for %(card)s card", who=who, cost=cost,
                      card=_a(deck))
        case FreedomIntroduced(freedom=f, cost=cost):
            return tr("%(who)s introduced %(freedom)s for %(cost)s", who=who, freedom=name(f),
                      cost=cost)
        case Recruited(profession=prof, victim=victim):
            return tr("%(who)s recruited the %(profession)s from %(whom)s", who=who,
                      profession=name(prof), whom=whom(victim))
        case FameSold(steps=steps):
            return tr("%(who)s sold %(n)s fame", who=who, n=steps)
        case TurnEnded():
            if own:
                return _("you ended your turn")
            return tr("%(who)s ended their turn", who=who)
        case RoundEnded(round=rnd, best=best, wv=wv):
            if best:
                return tr("round %(round)s ended; best work (value %(wv)s): %(winners)s",
                          round=rnd, wv=wv, winners=", ".join(whom(b) for b in best))
            return tr("round %(round)s ended", round=rnd)
        case PrestigeScored(card=card, fame=fame):
            return tr("%(who)s scored the prestige card %(card)s: +%(n)s fame", who=who,
                      card=name(card), n=fame)
        case Reverted(to_version=to):
            return tr("%(who)s asked for an undo, agreed by all: the game went back to "
                      "v%(version)s", who=who, version=to)
        case CharacterBidPlaced(character=c, amount=amount):
            return tr("%(who)s bid %(amount)s on the %(character)s", who=who, amount=amount,
                      character=name(c))
        case CharacterPassed():
            return tr("%(who)s passed in the character auction", who=who)
        case CharacterWon(character=c, price=price, money=money):
            took = tr(" and took the %(n)s florins on it", n=money) if money else ""
            return tr("%(who)s won the %(character)s for %(price)s%(took)s", who=who,
                      character=name(c), price=price, took=took)
        case CharactersEnded(round=rnd, banker=banker):
            return tr("the character auction of round %(round)s ended (%(n)s florins on the "
                      "Banker); the action phase begins", round=rnd, n=banker)
        case CharacterUsed(character="professor", what=deck):
            return tr("%(who)s used the professor: a free %(deck)s card", who=who,
                      deck=name(deck))
        case CharacterUsed(character="banker", fame=fame, florins=florins):
            return tr("%(who)s turned %(florins)s florins into %(fame)s fame with the banker",
                      who=who, florins=-florins, fame=fame)
        case CharacterUsed(character=c, what="free", florins=florins):
            return tr("%(who)s used the %(character)s: the object won is free (%(n)s back)",
                      who=who, character=name(c), n=florins)
        case CharacterUsed(character=c, fame=fame):
            return tr("%(who)s used the %(character)s: +%(n)s fame", who=who,
                      character=name(c), n=fame)
        case PrincessWork(wv=wv, payment=pay, pp=pp):
            taking = tr(", taking %(n)s fame", n=pp) if pp else ""
            return tr("%(who)s completed a work with the princess: work value %(wv)s, paid "
                      "%(paid)s%(taking)s", who=who, wv=wv, paid=pay, taking=taking)
        case GameEnded(winners=winners):
            if len(winners) == 1:
                return tr("the game ended; winner: %(winners)s", winners=whom(winners[0]))
            return tr("the game ended; winners: %(winners)s",
                      winners=", ".join(whom(w) for w in winners))
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
        out.append("open <object>   " + tr("objects you may name: %(objects)s",
                                           objects=names(opens)))
    if takes:
        out.append("take <object>   " + tr("objects you may take: %(objects)s",
                                           objects=names(takes)))
    for land, ps in places.items():
        examples = "; ".join(format_command(p) for p in ps[:3])
        out.append(f"place {land} <cells>   " + tr("%(n)s listed placements, e.g. %(examples)s",
                                                   n=len(ps), examples=examples))
    if builds:
        cost = tr(" (cost %(cost)s)", cost=building_cost) if building_cost is not None else ""
        out.append(f"build <building> <cells>{cost}   "
                   + tr("buildings you can build: %(buildings)s", buildings=names(builds)))
        for bs in builds.values():
            out.append("    " + tr("e.g. %(command)s", command=format_command(bs[0])) + "   "
                       + tr("(%(n)s listed placements)", n=len(bs)))
    for prof, ws in works.items():
        bonus_sets = sorted({w.bonuses for w in ws if w.bonuses}, key=len)
        pp = _range([w.pp for w in ws])
        line = f"work {prof} [pp N]   pp {pp}"
        if current_language() != "en":
            line += f" ({name(prof)})"
        if bonus_sets:
            usable = sorted({b for s in bonus_sets for b in s})
            line += tr("; bonus cards you may add: %(cards)s",
                       cards=" ".join("+" + b for b in usable))
        out.append(line)
    if freedoms:
        out.append(f"freedom <freedom>   {names(freedoms)}")
    if princess:
        out.append("use princess [pp N]   " + tr("a work without a profession card; pp "
                                                 "%(range)s", range=_range(princess)))
    if banker:
        out.append(f"use banker pp N   N = {_range(banker)} " + _("(200 florins a point)"))
    if characters:
        out.append("bid <character> <florins>   "
                   + ", ".join(f"{name(c)} {_range(a)}" for c, a in characters.items()))
    out.extend(singles)
    if sells:
        out.append(f"sell N   N = {_range(sells)} "
                   + _("(100 florins per step of fame; any time)"))
    return out
