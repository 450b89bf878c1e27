"""No mail, error or echo sent to one seat holds another seat's hidden values.

A whole game is played by mail among scripted players (with typos, so error replies
are sent too). Every mail is checked against the state at the time it was written:
no card name that another seat holds hidden (hand, dealt, drawn, bonus, prestige)
and that the recipient has no way to know may appear in it. Money is checked by
rendering a seat's status mail again with every other seat's florins and cards
changed: the mail must not change.
"""

from __future__ import annotations

import dataclasses
import random
import re
from datetime import timedelta

from engine.princes.definition import GAME
from engine.princes.events import (
    CardChosen,
    CardsDrawn,
    PrestigeScored,
    ProfessionsDealt,
    ProfessionsKept,
    WorkCompleted,
)
from engine.princes.game import to_act
from engine.princes.state import CHANCE, State
from engine.princes.views import view_for
from notation.princes import BONUS_CARDS, PRESTIGE_CARDS, PROFESSIONS
from pbem.outbound import status_context
from pbem.scripted import ScriptedPlayer, pick_actor

from .fakes import NOW, PLAYERS
from .helpers import run, state_of

CARDS = set(PROFESSIONS.words) | set(BONUS_CARDS.words) | set(PRESTIGE_CARDS.words)
WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def known_to(viewer: int, state: State, events: list) -> set[str]:
    """Card names the viewer may know: own cards, cards seen in own draws, and
    everything ever shown on the table."""
    me = state.players[viewer]
    known = set(me.hand) | set(me.bonus_hand) | set(me.prestige_hand) | set(me.dealt)
    if state.pending is not None and state.pending.seat == viewer:
        known |= set(state.pending.cards)
    for p in state.players:
        known |= set(p.table)
    for e in events:
        if isinstance(e, ProfessionsDealt | CardsDrawn) and e.seat == viewer:
            known |= set(e.cards)
        if isinstance(e, WorkCompleted):
            known |= {e.profession, *e.bonuses}
        if isinstance(e, PrestigeScored):
            known.add(e.card)
    return known


def hidden_from(viewer: int, state: State) -> set[str]:
    out: set[str] = set()
    for i, p in enumerate(state.players):
        if i != viewer:
            out |= set(p.hand) | set(p.bonus_hand) | set(p.prestige_hand) | set(p.dealt)
    if state.pending is not None and state.pending.seat != viewer:
        out |= set(state.pending.cards)
    return out


def test_a_whole_game_by_mail_leaks_nothing(mod, mailbox, smtp) -> None:
    game = mod.new_game(PLAYERS, NOW, game_id="pof-leak", seed="leak-seed")
    names = [p.name for p in PLAYERS]
    rng = random.Random(7)
    players = [ScriptedPlayer(p.name, i, p.email, random.Random(i), typo_rate=0.05)
               for i, p in enumerate(PLAYERS)]
    checked = errors = 0
    for step in range(3000):
        # A few minutes per mail: the seats stay under the hourly limit (pbem.guard).
        run(mod, mailbox, smtp, NOW + timedelta(minutes=3 * step))
        state = state_of(mod, game)
        with mod.store.read() as s:
            from pbem.store import load_events

            events = load_events(s, game)
        for msg in smtp.sent:
            to = names.index(str(msg["To"]).split("@")[0])
            body = "\n".join(part.get_content() for part in msg.walk()
                             if part.get_content_type() in ("text/plain", "text/html"))
            words = set(WORD.findall(body.lower())) | set(WORD.findall(str(msg["Subject"])))
            leaked = (words & hidden_from(to, state)) - known_to(to, state, events)
            assert not leaked, (f"mail to {names[to]} at v{state.version} names hidden cards "
                                f"{leaked}: {msg['Subject']}")
            errors += "not applied" in body
            checked += 1
            players[to].read(msg)
        smtp.sent.clear()
        if state.finished:
            break
        assert to_act(state) != (CHANCE,)
        actor = pick_actor(state, players, rng)
        assert actor is not None
        mailbox.put(actor.move(state))
    assert state.finished, "the game did not end"
    assert checked > 200 and errors > 0


def test_status_mail_does_not_depend_on_other_seats_secrets(mod, mailbox, smtp) -> None:
    from engine.princes.game import replay
    from engine.selfplay import play_random

    playout = play_random(GAME, 4, 11)
    for k in range(20, len(playout.events), 25):
        state = replay(playout.events[:k])
        for viewer in range(4):
            changed = tuple(
                p if i == viewer else dataclasses.replace(
                    p, florins=p.florins + 1234, hand=("poet",) * len(p.hand),
                    bonus_hand=("per-building",) * len(p.bonus_hand),
                    prestige_hand=("most-buildings",) * len(p.prestige_hand))
                for i, p in enumerate(state.players))
            other = dataclasses.replace(state, players=changed)
            a = status_context(view_for(state, viewer), game_id="g", changes=[], echo=[],
                               legal=[], deadline=None, tz="UTC")
            b = status_context(view_for(other, viewer), game_id="g", changes=[], echo=[],
                               legal=[], deadline=None, tz="UTC")
            ra = mod.renderer.render("status", a)
            rb = mod.renderer.render("status", b)
            if not state.money_open:
                assert ra == rb, f"seat {viewer} at event {k} sees another seat's secrets"
    assert CardChosen and ProfessionsKept  # event kinds covered by the game above
