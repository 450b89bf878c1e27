"""Issue 14: the whole situation in every status mail of a real game by mail.

A whole game is played by mail among scripted players. Every status mail is checked
against the state it was written from, with values worked out here from the state and
the rules (not from the view the mail was made from): the round and the phase in
words, said once; the auction in progress (object, bid, high bidder, who may still
bid, the reader's next bid); each profession in the reader's hand with its needs and
its work value now against the round's minimum; the text of the reader's bonus and
prestige cards; each opponent's public display; and the order a player reads them in.
The requirement and work-value lines of a hand are in its owner's mail only.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta
from email.message import EmailMessage
from html import unescape

from engine.princes.characters import extra_wv
from engine.princes.definition import GAME
from engine.princes.game import replay, to_act
from engine.princes.queries import can_acquire, played
from engine.princes.scoring import bonus_value, prestige_points, work_value
from engine.princes.state import CHANCE, State
from engine.princes.views import view_for
from engine.selfplay import play_random
from pbem.outbound import Renderer, status_context
from pbem.scripted import ScriptedPlayer, pick_actor

from .fakes import NOW, PLAYERS
from .helpers import run, state_of

NEEDS = re.compile(r"(?:^\s*|<li>)([a-z-]+): needs ", re.M)


def parts(msg: EmailMessage) -> tuple[str, str]:
    text = msg.get_body(preferencelist=("plain",))
    html = msg.get_body(preferencelist=("html",))
    assert text is not None and html is not None
    return str(text.get_content()), unescape(str(html.get_content()))


def expected_professions(state: State, seat: int) -> list[str]:
    """The lines of the seat's professions, from the rules and the engine's scoring."""
    rules, p = state.rules, state.players[seat]
    minimum = rules.min_wv[state.round - 1] if state.round and not state.finished else 0
    bonus = sum(bonus_value(rules, played(p, p.hand[0], ()), b) for b in p.bonus_hand) \
        if p.hand else 0
    out = []
    for prof in dict.fromkeys(p.hand):
        card = rules.professions[prof]
        wv = work_value(rules, played(p, prof, ()), prof, ()) + extra_wv(state, seat)
        line = f"{prof}: needs {card.building}, {card.landscape} and {card.freedom} ("
        line_wv = f"); work value {wv} now"
        if bonus:
            line_wv += f" ({wv + bonus} with all your bonus cards)"
        if minimum and wv >= minimum:
            line_wv += f", enough for this round's minimum of {minimum}."
        elif minimum and wv + bonus >= minimum:
            line_wv += f", enough for this round's minimum of {minimum} with bonus cards."
        elif minimum:
            line_wv += f", {minimum - wv} short of this round's minimum of {minimum}."
        else:
            line_wv += "."
        out.append(line + "\x00" + line_wv)
    return out


def check_hand(state: State, seat: int, text: str, html: str) -> int:
    rules, p = state.rules, state.players[seat]
    lines = expected_professions(state, seat)
    for part in (text, html):
        shown = NEEDS.findall(part)
        assert shown == list(dict.fromkeys(p.hand)), (shown, p.hand)
        for line in lines:
            head, tail = line.split("\x00")
            assert head in part and tail in part, (line, part)
    for card in p.bonus_hand:
        value = bonus_value(rules, played(p, p.hand[0], ()) if p.hand else p, card)
        line = f"{card}: {rules.bonus[card].text} Now: +{value}."
        assert line in text and line in html
    for card in p.prestige_hand:
        fame = prestige_points(rules, state.players, seat, card)
        line = f"{card}: {rules.prestige[card].text} If the game ended now: {fame} fame."
        assert line in text and line in html
    return len(lines)


def still_to_bid(state: State) -> list[int]:
    lot, n = state.lot, len(state.players)
    assert lot is not None and state.turn is not None
    order = [(state.turn + i) % n for i in range(n)]
    return [s for s in order if s != state.high and s not in state.passed
            and state.in_auction(s) and can_acquire(state, s, lot)]


def check_auction(state: State, seat: int, text: str, html: str) -> bool:
    if state.lot is None or state.phase != "auction":
        assert "Auction: " not in text
        return False
    names = state.names
    me = names[seat]
    high = "you" if state.high == seat else names[state.high or 0]
    bidders = ["you" if s == seat else names[s] for s in still_to_bid(state)]
    line = f", highest bid {state.price} by {high}."
    if len(bidders) > 1:
        line += f" Still to bid: {', '.join(bidders)}, in this order."
    elif bidders:
        line += f" Still to bid: {bidders[0]}."
    next_bid = f"Your next bid is {state.price + state.rules.raise_step} "
    for part in (text, html):
        assert line in part, (line, part)
        assert (next_bid in part) == ("you" in bidders), (me, next_bid)
    return True


def check_others(state: State, seat: int, text: str, html: str) -> None:
    for i, p in enumerate(state.players):
        value = dict(p.work_values)
        works = [f"{prof} (value {value[prof]})" for prof in p.table]
        head = f"{p.name}: fame {p.fame}; works {', '.join(works) or 'none'}"
        counts = (f"; buildings {len(p.buildings)}", f"; landscapes {len(p.landscapes)}",
                  f"; jesters {p.jesters}; builders {p.builders}",
                  f"; in hand {len(p.hand)} profession")
        for part in (text, html):
            if i == seat:
                assert head not in part
                continue
            line = next(ln for ln in part.splitlines() if head in ln)
            assert all(c in line for c in counts), (counts, line)
            assert f"freedoms {', '.join(p.freedoms) or 'none'};" in line
            assert f"{len(p.bonus_hand)} bonus, {len(p.prestige_hand)} prestige" in line


def check_order(text: str, html: str) -> None:
    for part, you, players in ((text, "\nYou (", "\nPlayers:"),
                               (html, "<h3>You (", "<h3>Players</h3>")):
        marks = [part.find(m) for m in
                 ("Since your last mail", "It is your turn", "Your commands now", you,
                  players, "The others' displays", "Principalities")]
        present = [m for m in marks if m >= 0]
        assert present == sorted(present), marks
        assert marks[3] > 0 and marks[4] > marks[3] and marks[-1] > marks[4]


def check_round(state: State, text: str, html: str) -> None:
    head = text.splitlines()[0]
    if state.round == 0 or state.finished:
        return
    rounds = f"Round {state.round} of {state.rules.rounds}, {state.phase} phase ("
    minimum = f"A work needs a work value of at least {state.rules.min_wv[state.round - 1]}"
    for part in (text, html):
        assert part.count(rounds) == 1 and minimum in part
        assert f"({state.phase} phase)" not in part  # the turn line does not say it again
    assert text.count(f"Round {state.round}") == 1 + (f"Round {state.round}" in head)


def test_every_status_mail_of_a_game_states_the_whole_situation(mod, mailbox, smtp) -> None:
    game = mod.new_game(PLAYERS, NOW, game_id="pof-sit", seed="situation-seed")
    names = [p.name for p in PLAYERS]
    rng = random.Random(3)
    players = [ScriptedPlayer(p.name, i, p.email, random.Random(i))
               for i, p in enumerate(PLAYERS)]
    mails = professions = auctions = 0
    bonus_seen = prestige_seen = 0
    state = state_of(mod, game)
    for step in range(2000):
        run(mod, mailbox, smtp, NOW + timedelta(minutes=3 * step))
        state = state_of(mod, game)
        status = [m for m in smtp.sent if "\nPlayers:\n" in smtp.text(m)]
        owners: dict[str, str] = {}
        for msg in status:
            seat = names.index(str(msg["To"]).split("@")[0])
            text, html = parts(msg)
            professions += check_hand(state, seat, text, html)
            auctions += check_auction(state, seat, text, html)
            check_others(state, seat, text, html)
            check_order(text, html)
            check_round(state, text, html)
            for prof in NEEDS.findall(text):
                assert owners.setdefault(prof, names[seat]) == names[seat]
            bonus_seen += len(state.players[seat].bonus_hand)
            prestige_seen += len(state.players[seat].prestige_hand)
            mails += 1
        for msg in smtp.sent:
            players[names.index(str(msg["To"]).split("@")[0])].read(msg)
        smtp.sent.clear()
        if state.finished:
            break
        assert to_act(state) != (CHANCE,)
        actor = pick_actor(state, players, rng)
        assert actor is not None
        mailbox.put(actor.move(state))
    assert state.finished, "the game did not end"
    assert mails > 200 and professions > 200 and auctions > 20
    assert bonus_seen and prestige_seen


def test_a_character_holder_reads_its_text_and_everyone_reads_all_in_the_auction() -> None:
    renderer = Renderer()
    events = play_random(GAME, 4, 3, options={"expansion": "muse-and-princess"}).events
    held = auction = 0
    for k in range(20, len(events), 3):
        state = replay(events[:k])
        court, texts = state.court, state.rules.court
        assert court is not None and texts is not None
        for seat in range(4):
            ctx = status_context(view_for(state, seat), game_id="pof-1", changes=[], echo=[],
                                 legal=[], deadline=None, tz="UTC")
            text, html = renderer.render("status", ctx)
            for c, words in texts.texts.items():
                shown = f"{c}: {words}" in text or f"{c} (yours): {words}" in text
                mine = court.holder(c) == seat
                assert shown == (mine or state.phase == "characters"), (c, seat, state.phase)
                assert shown == (words in unescape(html))
                held += mine and state.phase != "characters"
            auction += state.phase == "characters"
    assert held and auction
